"""The engine never imports streamlit; pages and catalogues keep their promises."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys

import pytest

import explorer_core
from explorer_core.ui.i18n import CATALOGUE, LANGUAGES, load_catalogues
from explorer_core.ui.nav import PAGES, ROOT


def core_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(explorer_core.__path__, prefix="explorer_core."):
        if not info.name.startswith("explorer_core.ui"):
            names.append(info.name)
    return names


@pytest.mark.slow
def test_core_never_imports_streamlit():
    modules = core_modules()
    assert "explorer_core.tokenization.base" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print('streamlit' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stdout.strip() == "False", result.stderr


# The engine's layers, lowest first: a module may import from its own layer or a lower one only.
LAYERS = (
    ("runtime", "tokenization"),
    ("bert",),
    ("inputs",),
    ("sequence",),
    ("models",),
    ("training", "decoder"),
    ("analysis",),
    ("files",),
    ("classroom",),
    ("viz",),
    ("cli", "ui", "__main__"),
)


def layer_of(module: str) -> int:
    top = module.split(".")[1]
    for rank, names in enumerate(LAYERS):
        if top in names:
            return rank
    raise AssertionError(f"{module} belongs to no layer: add its package to LAYERS")


def imported_core_modules(path) -> set[str]:
    """Every explorer_core module a file imports, at any depth (lazy imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "explorer_core":
                found |= {f"explorer_core.{alias.name}" for alias in node.names}
            elif node.module.startswith("explorer_core."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("explorer_core.")}
    return found - {"explorer_core.__version__"}


def test_no_module_imports_a_higher_layer():
    package = ROOT / "explorer_core"
    upward = []
    for path in package.rglob("*.py"):
        if path.name == "__init__.py" and path.parent == package:
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for target in imported_core_modules(path):
            if layer_of(target) > layer_of(module):
                upward.append(f"{module} -> {target}")
    assert layer_of("explorer_core.files.tables") < layer_of("explorer_core.viz.tokens")
    assert not upward, upward


def test_every_subpackage_says_what_it_holds_and_the_reading_order():
    inits = sorted((ROOT / "explorer_core").glob("*/**/__init__.py"))
    assert ROOT / "explorer_core" / "ui" / "lesson" / "__init__.py" in inits
    for init in inits:
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        where = init.parent.relative_to(ROOT)
        assert len(doc.splitlines()) >= 3, f"{where}/__init__.py needs a docstring"


def module_name(path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """{module: the explorer_core modules it imports}, lazy imports inside functions included.

    `from explorer_core.ui.lesson import screens` is an edge to the module `...lesson.screens`
    when that file exists, else to the package `...lesson` (its `__init__`).
    """
    paths = {module_name(path): path for path in (ROOT / "explorer_core").rglob("*.py")}
    graph = {}
    for module, path in paths.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("explorer_core"):
                for alias in node.names:
                    deeper = f"{node.module}.{alias.name}"
                    targets.add(deeper if deeper in paths else node.module)
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.startswith("explorer_core")}
        graph[module] = {target for target in targets if target in paths} - {module}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted.

    >>> import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    [['a', 'b', 'c']]
    """
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_no_import_circle_in_the_engine_lazy_imports_included():
    graph = import_graph()
    assert "explorer_core.ui.lesson.model_screens" in graph["explorer_core.ui.lesson.screens"]
    assert import_circles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]  # the check itself can fail
    assert import_circles(graph) == []


# What every page uses, directly in explorer_core/ui/; everything else lives in a family's folder.
SHELL = {
    "chrome", "export", "i18n", "nav", "pack", "present", "pretrained", "quiz", "settings",
    "state", "throttle", "warmup",
}  # fmt: skip


def test_ui_is_a_small_shell_and_one_folder_per_lesson_family():
    ui = ROOT / "explorer_core" / "ui"
    assert {path.stem for path in ui.glob("*.py")} - {"__init__"} == SHELL
    families = [path for path in ui.iterdir() if (path / "__init__.py").is_file()]
    assert len(families) >= 7
    for family in families:
        texts = [path for path in family.glob("texts*.py")] or list(family.glob("*.py"))
        assert texts, f"{family.name} has no texts"


# Folders of the shell: its texts, and class mode (a panel or bar on every page, polls from any
# page's question).
SHELL_FOLDERS = {"texts", "classroom"}


def test_the_shell_knows_no_lesson_family():
    """Only the warm-up reaches into the families (it fills their caches once per server)."""
    graph = import_graph()
    shell = {f"explorer_core.ui.{name}" for name in SHELL - {"warmup"}}
    shell |= {m for m in graph if m.split(".")[2:3] == ["classroom"]}
    reaching = [
        f"{module} -> {target}"
        for module in sorted(shell)
        for target in sorted(graph[module])
        if target.startswith("explorer_core.ui.")
        and target.split(".")[2] not in SHELL | SHELL_FOLDERS
    ]
    assert not reaching, reaching


def test_catalogue_has_every_key_in_both_languages():
    tables = load_catalogues()
    assert set(tables) == set(LANGUAGES)
    missing_zh = tables["en"].keys() - tables["zh"].keys()
    missing_en = tables["zh"].keys() - tables["en"].keys()
    assert not missing_zh, f"keys without Chinese text: {sorted(missing_zh)}"
    assert not missing_en, f"keys without English text: {sorted(missing_en)}"
    empty = [(lang, k) for lang, table in tables.items() for k, v in table.items() if not v.strip()]
    assert not empty


def used_text_keys(path) -> set[str]:
    """String literals passed as the first argument of t(...) in a file."""
    keys = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "t"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            keys.add(node.args[0].value)
    return keys


def test_every_literal_text_key_used_by_pages_exists():
    files = [ROOT / "app.py", *ROOT.glob("lessons/*.py"), *ROOT.glob("explorer_core/ui/**/*.py")]
    for path in files:
        missing = used_text_keys(path) - CATALOGUE["en"].keys()
        assert not missing, f"{path.name} uses unknown text keys {sorted(missing)}"


def test_navigation_titles_exist_and_paths_are_unique():
    assert len({p.url_path for p in PAGES}) == len(PAGES)
    for page in PAGES:
        assert page.title in CATALOGUE["en"], page.title
        assert page.section in CATALOGUE["en"], page.section
        assert page.icon.startswith(":material/")
    assert [p.url_path for p in PAGES].count("") == 1, "exactly one page (home) lives at /"


# Terms a Chinese-speaking learner meets in both languages where they are first taught.
BILINGUAL_TERMS = {
    ("词元", "token"): "home.stage.tokens.body",
    ("嵌入", "embedding"): "home.stage.vectors.body",
    ("位置编码", "positional encoding"): "home.stage.positions.body",
    ("注意力", "attention"): "home.stage.attention.body",
    ("池化", "pooling"): "home.stage.sentence.body",
    ("掩码", "mask"): "inputs.mlm.head",
}


def test_technical_terms_are_given_in_both_languages_on_first_use():
    for (chinese, english), key in BILINGUAL_TERMS.items():
        text = CATALOGUE["zh"][key]
        assert chinese in text and english in text.lower(), (key, text)


def test_every_chart_goes_through_show_chart():
    """show_chart adds the PNG/SVG download and the projector sizing; a bare st.plotly_chart
    would silently miss both."""
    drawing = [
        ROOT / "app.py",
        *(ROOT / "lessons").glob("*.py"),
        *(ROOT / "explorer_core").rglob("*.py"),
    ]
    bare = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in drawing
        if path != ROOT / "explorer_core" / "ui" / "export.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "plotly_chart"
    ]
    assert not bare, bare


def test_every_page_offers_a_link_to_its_view():
    """Pages added later keep the promise too: each shows the "Link to this view" box."""
    for spec in PAGES:
        if spec.path.is_file():
            assert "share_link(" in spec.path.read_text(encoding="utf-8"), spec.file


def test_tests_share_helpers_through_helper_modules_and_fail_on_a_missing_import():
    """Helpers live in tests/browser.py, charts.py, downloads.py, links.py, models.py, ...; a test
    module never imports another test module, and never skips because an import failed (a missing
    reference library must fail the run, not hide a parity check)."""
    tests = ROOT / "tests"
    banned = {
        "imports another test module": ("from tests.test_", "from .test_", "import tests.test_"),
        "skips on a failed import": ("importorskip", "except ImportError"),
    }
    found = []
    for path in sorted(tests.glob("*.py")):
        if path.name == "test_architecture.py":
            continue
        text = path.read_text(encoding="utf-8")
        for what, needles in banned.items():
            found += [f"{path.name} {what}: {n}" for n in needles if n in text]
    assert not found, found
