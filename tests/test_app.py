"""The app shell and home page run in both languages."""

from __future__ import annotations

import pytest

from tests.conftest import app_test


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_page_runs(lang):
    at = app_test("pages/home.py", state={"lang": lang})
    assert not at.exception
    assert at.title[0].value in ("Embedding Explorer", "嵌入探索器 Embedding Explorer")


def test_app_shell_runs_with_navigation():
    at = app_test("app.py")
    assert not at.exception
    assert at.session_state["lang"] == "en"
