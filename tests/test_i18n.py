"""Language choice: ?lang=, else the browser language, else English; every page in Chinese."""

from __future__ import annotations

import pytest

from explorer_core.ui.i18n import pick_language
from explorer_core.ui.nav import available_pages
from tests.conftest import app_test


@pytest.mark.parametrize(
    ("query", "locale", "expected"),
    [
        ("zh", "en-US", "zh"),  # the link wins over the browser
        ("en", "zh-CN", "en"),
        (None, "zh-CN", "zh"),
        (None, "zh", "zh"),
        (None, "en-GB", "en"),
        (None, "fr-FR", "en"),  # a language we do not have
        ("xx", None, "en"),
        (None, None, "en"),
    ],
)
def test_pick_language(query, locale, expected):
    assert pick_language(query, locale) == expected


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lang_query_parameter_selects_the_language_and_stays_in_the_url(lang):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    assert at.session_state["lang"] == lang
    assert at.query_params["lang"] == lang
    expected = {"en": "Embedding Explorer", "zh": "嵌入探索器 Embedding Explorer"}[lang]
    assert at.title[0].value == expected


@pytest.mark.slow
@pytest.mark.parametrize("spec", available_pages(), ids=lambda spec: spec.url_path or "home")
def test_every_page_runs_in_chinese(spec):
    """Every page, in Chinese, without exception (English is covered by each page's own tests)."""
    path = "app.py" if not spec.url_path else spec.file  # home only runs inside the navigation
    at = app_test(path, state={"lang": "zh"}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert at.title, "every page has a title"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in at.title[0].value), at.title[0].value
