"""`streamlit run app.py`, the start every Streamlit host uses, gives the whole app from a fresh
server's very first request: the language of `?lang=`, a deep link with its settings, every page.

# subtle: Streamlit 1.x serves a fresh server in its legacy "pages directory" mode when a folder
# named `pages/` lies beside the main script, until some run calls st.navigation; the first request
# then ran a page without app.py (no language, "Page not found" for deep links). Our lessons live in
# `lessons/` so that mode never starts. Each test here starts its own server, so the request it
# makes is truly the server's first; should Streamlit ever pick up other folders, these fail.

Screenshots: artifacts/screenshots/standard-start-*.png (look at them).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from explorer_core.ui.nav import available_pages
from tests.browser import BrowserSession, browser_session, require_chromium, streamlit_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def fresh() -> Iterator[BrowserSession]:
    """A browser on a server that has answered no request yet (one server per test)."""
    require_chromium()
    with streamlit_server() as url, browser_session(url) as session:
        yield session


def test_first_load_speaks_the_language_of_the_link(fresh):
    fresh.open("", query="lang=zh", wait_text="嵌入探索器 Embedding Explorer")
    page = fresh.page
    assert page.locator("h1", has_text="嵌入探索器").count() == 1
    assert page.locator('[data-testid="stSidebar"] a', has_text="注意力").count() >= 1
    assert "lang=zh" in page.url
    assert fresh.exceptions() == []
    fresh.screenshot("standard-start-home-zh")


def test_first_request_deep_link_then_every_page(fresh):
    fresh.open("attention", query="attn.layer=3", wait_text="Attention: who looks at whom")
    page = fresh.page
    assert page.get_by_role("combobox", name="Layer").input_value() == "3"
    assert "attn.layer=3" in page.url and "lang=en" in page.url  # app.py's shell ran around it
    assert page.locator('[data-testid="stSidebar"] a', has_text="Attention").count() >= 1
    assert fresh.exceptions() == []
    fresh.screenshot("standard-start-attention-layer3")

    for spec in available_pages():  # each visit is a new session's first request
        fresh.open(spec.url_path, query="lang=zh")
        assert fresh.exceptions() == [], spec.file
        assert page.locator("h1").count() >= 1, spec.file
        assert "lang=zh" in page.url, spec.file
    assert fresh.foreign_requests() == []
