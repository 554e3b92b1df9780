"""Every page in a real browser: it renders, shows no exception, and asks nothing of the internet.

Screenshots land in artifacts/screenshots/<page>.png; look at them.
"""

from __future__ import annotations

import pytest

from explorer_core.ui.nav import available_pages

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("spec", available_pages(), ids=lambda spec: spec.url_path or "home")
def test_page_renders_without_exception(browser, spec):
    browser.open(spec.url_path)
    browser.page.locator('[data-testid="stMain"]').wait_for()
    shot = browser.screenshot(spec.url_path or "home")
    assert shot.stat().st_size > 10_000
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_language_switch_shows_chinese(browser):
    browser.open("")
    browser.page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("完整流程")
    browser.screenshot("home-zh")
    assert browser.exceptions() == []
    assert browser.page.url.endswith("?lang=zh")  # a copied link reopens in Chinese
    browser.page.locator('[data-testid="stSidebar"] a', has_text="注意力").first.click()
    browser.wait_idle("注意力")
    assert "lang=zh" in browser.page.url


def test_the_home_page_loads_the_chart_code_while_it_is_read(browser):
    """The first chart of a session no longer waits ~0.9 s for plotly.js (ui/warmup.py): the
    shell asks the browser for it once the first page is drawn, and a chart page then finds it."""
    from explorer_core.ui.warmup import chunk_files

    browser.open("")
    assert browser.page.locator('[data-testid="stPlotlyChart"]').count() == 0
    browser.page.wait_for_timeout(3000)
    fetched = {url.rsplit("/", 1)[-1] for url in browser.requests}
    assert set(chunk_files()) <= fetched
    browser.page.locator('[data-testid="stSidebar"] a', has_text="Attention").first.click()
    browser.wait_idle()
    browser.page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for()
    assert browser.exceptions() == [] and browser.plotly_warnings() == []


def test_the_lessons_first_visit_finds_its_code_loaded(browser):
    """The lesson's first screen (a table, a text box, buttons, metrics) fetches no code: the
    shell preloaded every element's code while the home page was read, so its first visit no
    longer waits for ~10 chunks fetched one after another (ui/warmup.py CHUNKS; a new kind of
    element on the lesson fails this until it is added there)."""
    browser.open("")
    browser.page.wait_for_timeout(3000)
    before = len(browser.requests)
    browser.page.locator('[data-testid="stSidebar"] a', has_text="Guided lesson").first.click()
    browser.wait_idle()
    browser.page.locator('[data-testid="stDataFrame"]').first.wait_for()
    fetched = [url.rsplit("/", 1)[-1] for url in browser.requests[before:] if "/static/js/" in url]
    assert fetched == [] and browser.exceptions() == []


def test_a_first_page_loads_no_code_box_component(app_url):
    """The view's link sits behind a button: an st.code drawn open on every page made the browser
    load and run Streamlit's syntax highlighter (~0.4 s of the first paint on this machine)."""
    from tests.browser import browser_session

    with browser_session(app_url) as browser:
        browser.open("attention", wait_text="Attention")
        highlighter = "StreamlitSyntaxHighlighter"
        assert not [url for url in browser.requests if highlighter in url]
        assert "attention" in browser.view_link()
        assert [url for url in browser.requests if highlighter in url]  # loaded on the first click
