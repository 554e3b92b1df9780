"""Links and lesson packs are user input: a hand-edited one must never break a page.

Links: each page opens with every setting it keeps in the URL (its `LINKED` keys) set to the same
bad text at once. Packs: a pack whose numbers are all far outside their widgets' ranges (and
whose switches are all on) passes the pack's checks (the kinds fit) and is restored; every page
must then run on it. In both cases
the page shows what it can (defaults, the nearest allowed value) and no exception.
"""

from __future__ import annotations

import ast
import importlib

import pytest

from explorer_core.files.lesson_pack import read_pack, write_pack
from explorer_core.ui.nav import available_pages
from explorer_core.ui.pack import allowed_settings, page_examples
from tests.links import open_with

BAD_TEXTS = ("1e309", "-inf", "nan", "abc", "-7", "99999999", "")


def linked_keys(source: str) -> tuple[str, ...]:
    """The keys of the page's module-level `LINKED = (...)` tuple (empty without one); a
    `*NAME` in it stands for the literal keys of the module-level dict or tuple NAME."""
    literals, imported = {}, {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            literals[node.targets[0].id] = node.value
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported |= {alias.asname or alias.name: node.module for alias in node.names}
    if "LINKED" not in literals:
        return ()
    keys: list[str] = []
    for item in literals["LINKED"].elts:
        if not isinstance(item, ast.Starred):
            keys.append(ast.literal_eval(item))
        elif (name := item.value.id) in literals:
            keys += list(ast.literal_eval(literals[name]))
        else:  # a name the page imports, e.g. the Train page's SIZE_KEYS from explorer_core.ui
            keys += list(getattr(importlib.import_module(imported[name]), name))
    return tuple(keys)


LINKED_PAGES = [
    (spec.file, keys)
    for spec in available_pages()
    if (keys := linked_keys(spec.path.read_text(encoding="utf-8")))
]
PAGES_WITHOUT_HOME = [spec.file for spec in available_pages() if spec.url_path]


def test_the_pages_with_links_are_found():
    files = {file for file, _ in LINKED_PAGES}
    assert len(files) >= 10 and "lessons/attention.py" in files, files


@pytest.mark.parametrize("bad", BAD_TEXTS)
@pytest.mark.parametrize(("page", "keys"), LINKED_PAGES, ids=[f for f, _ in LINKED_PAGES])
def test_a_garbled_link_opens_the_page_on_its_defaults(page, keys, bad):
    open_with(page, dict.fromkeys(keys, bad))  # fails on any exception the page shows


def far_off_settings(scale: int) -> dict:
    """Every numeric page default replaced by `scale` of its own kind, and every flag turned on
    (so the widgets behind switches, such as the Train page's model sizes, are drawn too)."""
    examples = page_examples()
    unknown = {key: scale for _, keys in LINKED_PAGES for key in keys if key not in examples}
    return unknown | {  # a setting with no literal default has no kind to check: any number
        key: True if isinstance(value, bool) else type(value)(scale)
        for key, value in examples.items()
        if isinstance(value, int | float)
    }


@pytest.mark.parametrize("scale", [99_999, -7])
@pytest.mark.parametrize("page", PAGES_WITHOUT_HOME)
def test_a_pack_with_numbers_out_of_range_opens_every_page(page, scale):
    allowed = allowed_settings()
    wanted = far_off_settings(scale)
    pack = read_pack(
        write_pack(wanted, allowed=allowed), allowed=allowed, examples=page_examples()
    )  # fmt: skip
    assert len(pack.settings) >= 20 and set(pack.settings) <= set(wanted), "the checks let it in"
    open_with(page, {}, state=pack.settings)  # fails on any exception the page shows
