"""Which session values a lesson pack stores: page settings, not buttons, files or live objects.

Settings live in the session under page-prefixed keys ("tok.train.algo", "attn.layer", "lang").
A pack keeps the plain JSON ones. It leaves out private keys ("_…", "$$…"), the work shared
between pages ("shared.…", stored as files instead), bookkeeping of runs (`INTERNAL_KEYS`), and
the keys of buttons, download buttons and file uploaders: Streamlit raises when such a key is
set through the session, so restoring one would break the page that draws it. Those keys are
found by reading the source (`action_keys`), so a button added later is left out too.

>>> storable_settings({"attn.layer": 2, "_x": 1, "tok.train.go": False, "t": (1, 2)},
...                   excluded={"tok.train.go"})
{'attn.layer': 2}
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

PRIVATE_PREFIXES = ("_", "$$", "shared.")
# run bookkeeping and live objects: meaningless (or harmful) in another session
INTERNAL_KEYS = frozenset({
    "tok.train.result", "train.run", "train.published", "train.zip_seen", "train.scores",
    "train.parts", "train.zip_result", "sim.fresh",
})  # fmt: skip
INTERNAL_SUFFIXES = (".lab_seen",)  # ui/tokens.follow_lab: id() of the tokenizer last seen
SHELL_KEYS = frozenset({"present"})  # the machine's display, not the lesson (projector vs laptop)
KEY_PATTERN = re.compile(r"^[A-Za-z][\w.\-]{0,99}$")
MAX_SETTINGS = 1000
MAX_DEPTH = 4

# widget calls whose key cannot be set through st.session_state -> position of `key` when
# passed positionally (None: keyword only); the project's download helpers included
ACTION_CALLS: dict[str, int | None] = {
    "button": 1, "download_button": 4, "file_uploader": 3, "form_submit_button": None,
    "chat_input": 1, "camera_input": 1, "audio_input": 1, "data_editor": None,
    "download": 4, "download_csv": 2, "download_json": 2, "download_projector": 3,
}  # fmt: skip


def is_plain(value: Any, depth: int = 0) -> bool:
    """True for JSON values that come back unchanged: no tuples, no NaN, str keys only.

    >>> is_plain({"a": [1, "x", None, 2.5]}), is_plain((1, 2)), is_plain(float("nan"))
    (True, False, False)
    """
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if depth >= MAX_DEPTH:
        return False
    if type(value) is list:
        return all(is_plain(item, depth + 1) for item in value)
    if type(value) is dict:
        return all(isinstance(k, str) and is_plain(v, depth + 1) for k, v in value.items())
    return False


def is_setting_key(key: Any, excluded: Collection[str] = (), patterns: Iterable[str] = ()) -> bool:
    """Whether `key` names a setting a pack may store and restore.

    `excluded` are exact keys (buttons, uploaders), `patterns` regular expressions for keys
    built at run time (a key matching one in full is not a setting).

    >>> [is_setting_key(k) for k in ("attn.layer", "_url_seeded.x", "shared.model", "present")]
    [True, False, False, False]
    """
    return (
        isinstance(key, str)
        and bool(KEY_PATTERN.match(key))
        and not key.startswith(PRIVATE_PREFIXES)
        and key not in INTERNAL_KEYS
        and key not in SHELL_KEYS
        and not key.endswith(INTERNAL_SUFFIXES)
        and key not in excluded
        and not any(re.fullmatch(p, key) for p in patterns)
    )


def storable_settings(
    state: Mapping[str, Any], excluded: Collection[str] = (), patterns: Iterable[str] = ()
) -> dict[str, Any]:
    """The settings of `state` a pack stores, sorted by key (so the same state gives one file)."""
    patterns = tuple(patterns)
    keys = sorted(k for k in state if isinstance(k, str))
    return {
        k: state[k] for k in keys if is_setting_key(k, excluded, patterns) and is_plain(state[k])
    }


def fits(value: Any, example: Any) -> bool:
    """Whether `value` can stand where `example` stood: same JSON kind (None for text is fine).

    A widget given a value of another kind breaks the page (a number box given text), so a pack
    from another version of the app only restores values that fit.

    >>> fits(3, 1), fits("3", 1), fits(True, 1), fits(0.5, 0.1), fits(None, "builtin")
    (True, False, False, True, True)
    """
    if isinstance(example, bool) or isinstance(value, bool):
        return isinstance(example, bool) and isinstance(value, bool)
    if isinstance(example, float):
        return isinstance(value, float)
    if isinstance(example, int):
        return isinstance(value, int)
    if isinstance(example, str):
        return value is None or isinstance(value, str)
    if example is None:
        return True
    return type(value) is type(example)


def check_settings(
    data: Any, excluded: Collection[str] = (), patterns: Iterable[str] = (),
    examples: Mapping[str, Any] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Settings read from a pack, checked; keys that are not settings, and values that do not
    fit the `examples` (the pages' defaults, the session's values), are dropped.

    Raises ValueError when `data` is not a mapping of plain values or holds too many.
    """
    if not isinstance(data, dict):
        raise ValueError("The pack's settings are not a list of names and values")
    if len(data) > MAX_SETTINGS:
        raise ValueError(f"The pack holds more than {MAX_SETTINGS} settings")
    if not is_plain(data):
        raise ValueError("The pack's settings hold values that are not plain text or numbers")
    kept = storable_settings(data, excluded, patterns)
    examples = examples or {}
    return {k: v for k, v in kept.items() if k not in examples or fits(v, examples[k])}


def page_defaults(paths: Iterable[str | Path]) -> dict[str, Any]:
    """The literal entries of each file's module-level `DEFAULTS = {...}` (others are skipped).

    Used as examples of each setting's kind, also for pages this session has not opened.
    """
    found: dict[str, Any] = {}
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)):
                continue
            if not any(isinstance(t, ast.Name) and t.id == "DEFAULTS" for t in node.targets):
                continue
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    example = _example(value)
                    if example is not NO_EXAMPLE:
                        found[key.value] = example
    return found


NO_EXAMPLE = object()


def _example(value: ast.expr) -> Any:
    """A value of the kind `value` computes: the literal itself, "" for a translated text
    (`t("key")`), a literal branch of `a if cond else b`; NO_EXAMPLE when it cannot be told.

    >>> [_example(ast.parse(s).body[0].value) for s in ('3', 't("x.default")', '"a" if x else "b"')]
    [3, '', 'a']
    >>> _example(ast.parse("size(x)").body[0].value) is NO_EXAMPLE
    True
    """
    try:
        return ast.literal_eval(value)
    except ValueError:
        pass
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "t":
        return ""
    if isinstance(value, ast.IfExp):
        branches = [_example(value.body), _example(value.orelse)]
        if NO_EXAMPLE not in branches and type(branches[0]) is type(branches[1]):
            return branches[0]
    return NO_EXAMPLE  # computed otherwise (e.g. a preset's size)


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level `NAME = "text"` assignments, so `key=UPLOAD_KEY` is understood too."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


def _pattern(key: ast.JoinedStr) -> str:
    r"""A regular expression for the keys an f-string makes: its text, anything for each {}.

    >>> _pattern(ast.parse('f"{page}.quiz.{n}"').body[0].value)
    '.+\\.quiz\\..+'
    """
    return "".join(
        re.escape(str(part.value)) if isinstance(part, ast.Constant) else ".+"
        for part in key.values
    )


def _key_arg(call: ast.Call, position: int | None) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "key":
            return keyword.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


def action_keys(paths: Iterable[str | Path]) -> tuple[frozenset[str], tuple[str, ...]]:
    r"""(keys, key patterns) of buttons, uploaders and downloads called in the Python files.

    A literal key, or a module-level constant holding one, is taken as is; an f-string key gives
    a regular expression (f"{page}.quiz.reveal" -> r".+\.quiz\.reveal"). Keys computed
    otherwise are not seen: pass a literal, a constant or an f-string.
    """
    keys: set[str] = set()
    patterns: set[str] = set()
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name not in ACTION_CALLS:
                continue
            arg = _key_arg(node, ACTION_CALLS[name])
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.add(arg.value)
            elif isinstance(arg, ast.Name) and arg.id in constants:
                keys.add(constants[arg.id])
            elif isinstance(arg, ast.JoinedStr) and any(
                isinstance(part, ast.Constant) and part.value for part in arg.values
            ):  # an f-string with no text of its own would match every key
                patterns.add(_pattern(arg))
    return frozenset(keys), tuple(sorted(patterns))


def source_files(root: str | Path) -> list[Path]:
    """The files whose widgets hold settings: lessons/*.py, explorer_core/ui/**/*.py and app.py."""
    root = Path(root)
    files = [
        *sorted((root / "lessons").glob("*.py")),
        *sorted((root / "explorer_core/ui").rglob("*.py")),
    ]
    return [*files, *([root / "app.py"] if (root / "app.py").is_file() else [])]
