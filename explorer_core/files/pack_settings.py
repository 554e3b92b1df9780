"""Which session values a lesson pack stores: page settings, not buttons, files or live objects.

Settings live in the session under page-prefixed keys ("tok.train.algo", "attn.layer", "lang").
A pack keeps the plain JSON ones. It leaves out private keys ("_…", "$$…"), the work shared
between pages ("shared.…", stored as files instead), bookkeeping of runs (`INTERNAL_KEYS`), and
the keys of buttons, download buttons and file uploaders: Streamlit raises when such a key is
set through the session, so restoring one would break the page that draws it. The app passes
`allowed`, the settings its pages declare (`explorer_core.ui.settings`): actions are not declared,
so a button added later is left out too. `excluded` and `patterns` drop more keys by name.

>>> storable_settings({"attn.layer": 2, "_x": 1, "tok.train.go": False, "t": (1, 2)},
...                   allowed={"attn.layer", "t"})
{'attn.layer': 2}
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any

PRIVATE_PREFIXES = ("_", "$$", "shared.")
# run bookkeeping and live objects: meaningless (or harmful) in another session
INTERNAL_KEYS = frozenset({
    "tok.train.result", "train.run", "train.published", "train.zip_seen", "train.scores",
    "train.parts", "train.zip_result", "sim.fresh", "train.owner", "train.figures", "train.drawn",
})  # fmt: skip
INTERNAL_SUFFIXES = (".lab_seen",)  # ui/tokens.follow_lab: id() of the tokenizer last seen
SHELL_KEYS = frozenset({"present"})  # the machine's display, not the lesson (projector vs laptop)
KEY_PATTERN = re.compile(r"^[A-Za-z][\w.\-]{0,99}$")
MAX_SETTINGS = 1000
MAX_DEPTH = 4


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


def is_setting_key(
    key: Any, excluded: Collection[str] = (), patterns: Iterable[str] = (),
    allowed: Collection[str] | None = None,
) -> bool:  # fmt: skip
    """Whether `key` names a setting a pack may store and restore.

    `allowed` (None: any key) are the declared settings, `excluded` exact keys that are not
    settings, `patterns` regular expressions for such keys (a key matching one in full).

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
        and (allowed is None or key in allowed)
        and not any(re.fullmatch(p, key) for p in patterns)
    )


def storable_settings(
    state: Mapping[str, Any], excluded: Collection[str] = (), patterns: Iterable[str] = (),
    allowed: Collection[str] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The settings of `state` a pack stores, sorted by key (so the same state gives one file)."""
    patterns = tuple(patterns)
    keys = sorted(k for k in state if isinstance(k, str))
    return {
        k: state[k]
        for k in keys
        if is_setting_key(k, excluded, patterns, allowed) and is_plain(state[k])
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
    examples: Mapping[str, Any] | None = None, allowed: Collection[str] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Settings read from a pack, checked; keys that are not settings, and values that do not
    fit the `examples` (the declared settings' kinds, the session's values), are dropped.

    Raises ValueError when `data` is not a mapping of plain values or holds too many.
    """
    if not isinstance(data, dict):
        raise ValueError("The pack's settings are not a list of names and values")
    if len(data) > MAX_SETTINGS:
        raise ValueError(f"The pack holds more than {MAX_SETTINGS} settings")
    if not is_plain(data):
        raise ValueError("The pack's settings hold values that are not plain text or numbers")
    kept = storable_settings(data, excluded, patterns, allowed)
    examples = examples or {}
    return {k: v for k, v in kept.items() if k not in examples or fits(v, examples[k])}
