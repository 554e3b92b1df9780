"""The app shell and home page run in both languages."""

from __future__ import annotations

import pytest

from tests.conftest import app_test


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_page_runs(lang):
    # subtle: the home page links to the other pages, which only exist inside app.py's navigation
    at = app_test("app.py", state={"lang": lang})
    assert not at.exception
    expected = {"en": "Embedding Explorer", "zh": "嵌入探索器 Embedding Explorer"}[lang]
    assert at.title[0].value == expected
    assert len(at.get("page_link")) >= 1


def test_app_shell_runs_with_navigation():
    at = app_test("app.py")
    assert not at.exception
    assert at.session_state["lang"] == "en"


def test_no_pages_folder_beside_app_py(root):
    """Streamlit serves a fresh server's first request in its legacy multipage mode (pages run
    without app.py: no language from the link, deep links not found) when a folder named `pages/`
    lies beside the main script. The lessons live in `lessons/`;
    tests/test_browser_standard_start.py checks the behaviour itself on a fresh server."""
    assert not (root / "pages").exists(), "rename it: a pages/ folder turns on legacy mode"
