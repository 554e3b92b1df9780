"""Classroom checks in a real browser: presentation mode in Chinese on a 1280x720 projector,
every control reachable by keyboard, charts legible, and no request that leaves the machine.

Screenshots land in artifacts/screenshots/classroom-*.png; look at them.
"""

from __future__ import annotations

import json

import pytest

from explorer_core.ui.i18n import CATALOGUE
from tests.browser import PLOT, browser_session

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PROJECTOR = {"width": 1280, "height": 720}


def wait_for_charts(browser, count: int) -> None:  # noqa: ANN001 - a BrowserSession
    browser.page.wait_for_function(
        f"document.querySelectorAll('{PLOT} .main-svg').length >= {count}", timeout=60_000
    )


def test_presentation_mode_in_chinese_fits_a_projector(app_url):
    with browser_session(app_url, **PROJECTOR) as browser:
        browser.open("attention", "present=1&lang=zh&attn.head=3", wait_text="注意力")
        page = browser.page
        # nothing is put in the sidebar while presenting, so Streamlit draws none at all
        assert page.locator('[data-testid="stSidebar"]').count() == 0
        page.locator('[data-testid="stMainMenu"]').wait_for(state="hidden", timeout=10_000)
        nav = page.locator('[data-testid="stTopNav"]')
        nav.wait_for(state="visible", timeout=10_000)
        assert "分词" in nav.inner_text()  # the lessons, in Chinese
        # the view's link, from the row above the page
        assert "attn.head=3" in browser.view_link("本视图的链接")
        page.wait_for_function(  # the projector style sheet has reached the page
            "() => getComputedStyle(document.documentElement).fontSize === '20px'", timeout=10_000
        )
        browser.screenshot("classroom-present-zh-attention")
        wait_for_charts(browser, 2)
        titles = page.evaluate(
            f"() => [...document.querySelectorAll('{PLOT} .gtitle')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert titles and min(titles) >= 24, titles  # chart titles grow with the page
        camera = page.locator(f"{PLOT} .modebar-btn[data-title^='下载图表']")
        assert camera.count() >= 2  # the download button speaks Chinese too
        browser.shoot(page.locator(PLOT).first, "classroom-present-zh-attention-chart")
        assert "present=1" in page.url and "lang=zh" in page.url
        browser.open("", "present=1&lang=zh", wait_text="完整流程")
        browser.screenshot("classroom-present-zh-home")
        assert browser.exceptions() == []
        assert browser.foreign_requests() == []


def test_leaving_presentation_mode_by_keyboard(app_url):
    with browser_session(app_url, **PROJECTOR) as browser:
        browser.open("", "present=1", wait_text="Embedding Explorer")
        toggle = browser.page.locator(".st-key-present input")
        toggle.focus()
        browser.page.keyboard.press("Space")
        browser.page.locator('[data-testid="stSidebar"]').wait_for(state="visible")
        browser.wait_idle()
        assert "present=1" not in browser.page.url
        assert browser.exceptions() == []


@pytest.mark.parametrize(
    ("url_path", "query", "charts"),
    [("attention", "attn.view=head", 3), ("position-encodings", "", 2), ("bert-inputs", "", 2)],
)
def test_every_control_is_reachable_by_keyboard(app_url, url_path, query, charts):
    """Tab from the top of the page reaches every widget and every chart's download button."""
    with browser_session(app_url, **PROJECTOR) as browser:
        browser.open(url_path, query)
        wait_for_charts(browser, charts)
        wanted = browser.keyboard_controls()
        assert len(wanted) >= 4, wanted
        reached = browser.tab_through(wanted)
        assert wanted <= reached, sorted(wanted - reached)
        assert browser.exceptions() == []


@pytest.mark.parametrize(
    ("url_path", "query", "charts"),
    [("attention", "attn.view=head", 3), ("attention", "attn.view=overview", 1),
     ("position-encodings", "", 2), ("token-embeddings", "", 2), ("bert-inputs", "", 2),
     ("similarity", "", 1)],
)  # fmt: skip
def test_charts_are_legible_at_1280x720(app_url, url_path, query, charts):
    with browser_session(app_url, **PROJECTOR) as browser:
        browser.open(url_path, query)
        wait_for_charts(browser, charts)
        # plotly adds a chart's toolbar after drawing it (the fresh-clone run counted one of two)
        browser.page.wait_for_function(
            f"document.querySelectorAll(`{PLOT} [data-title^='Download plot']`).length"
            f" >= {charts}", timeout=60_000,
        )  # fmt: skip
        browser.page.wait_for_timeout(500)
        small = browser.small_chart_text()
        assert not small, small
        widths = browser.page.evaluate(
            f"() => [...document.querySelectorAll('{PLOT}')]"
            ".map(e => e.getBoundingClientRect().width)"
        )
        assert min(widths) >= 380, widths  # two charts side by side still get room
        download = browser.page.locator(f"{PLOT} [data-title^='Download plot']")
        assert download.count() >= charts  # every chart offers its picture


def test_the_file_uploader_speaks_chinese(browser):
    """Streamlit draws "Upload" and "50MB per file" itself; in Chinese the catalogue's text shows
    instead."""
    browser.open("train-tokenizer", "lang=zh&tok.train.source=upload", wait_text="训练分词器")
    button = browser.page.locator('[data-testid="stFileUploaderDropzone"] button p').first
    shown = button.evaluate(
        "e => [getComputedStyle(e).fontSize, getComputedStyle(e, '::after').content]"
    )
    assert shown == ["0px", '"上传"'], shown
    browser.shoot(browser.page.locator('[data-testid="stFileUploader"]'), "classroom-upload-zh")
    assert browser.exceptions() == []


# every name, tooltip and placeholder Streamlit writes, and the skip link's text
CHROME_TEXTS_JS = """() => {
  const names = ['aria-label', 'data-title', 'placeholder', 'title'];
  const found = [];
  for (const el of document.querySelectorAll(names.map(n => '[' + n + ']').join(',')))
    for (const name of names) if (el.getAttribute(name)) found.push(el.getAttribute(name));
  const skip = document.querySelector('[data-testid="stSkipToContent"]');
  for (const el of [skip, ...document.querySelectorAll('[data-testid="stTooltipContent"]')])
    if (el) found.push(el.textContent);
  return found;
}"""


CHROME_WORDS = sorted(
    v for k, v in CATALOGUE["en"].items() if k.startswith("chrome.") and "{" not in v
)
NO_ENGLISH_LEFT_JS = (
    f"() => ({CHROME_TEXTS_JS})().filter(t => {json.dumps(CHROME_WORDS)}.includes(t)"
    " || t.startsWith('Help for ')).length === 0"
)


def english_chrome(texts: list[str]) -> list[str]:
    return [text for text in texts if text in CHROME_WORDS or text.startswith("Help for ")]


def test_streamlits_own_words_speak_chinese_and_come_back_in_english(browser):
    """Button names, tooltips, placeholders and the skip link that Streamlit writes in English."""
    browser.open("attention", "lang=zh&attn.view=head", wait_text="注意力")
    page = browser.page
    # the charts' toolbars (their "全屏" button) come with the charts, after the page's text
    drawn = f"() => ({CHROME_TEXTS_JS})().includes('全屏') && ({NO_ENGLISH_LEFT_JS})()"
    page.wait_for_function(drawn, timeout=30_000)
    shown = page.evaluate(CHROME_TEXTS_JS)
    assert "全屏" in shown and "跳到主要内容" in shown and not english_chrome(shown), shown
    table = page.locator('[data-testid="stDataFrame"]').first
    table.scroll_into_view_if_needed()
    table.hover()
    page.locator('[data-testid="stElementToolbarButton"] button[aria-label="搜索"]').first.hover()
    tip = page.locator('[data-testid="stTooltipContent"]').filter(has_text="搜索")
    tip.first.wait_for(timeout=10_000)  # the tooltip Streamlit draws on hover, in Chinese
    browser.screenshot("classroom-table-toolbar-zh")
    page.locator(".st-key-lang button").filter(has_text="English").click()
    browser.wait_idle()
    page.wait_for_function(f"() => ({CHROME_TEXTS_JS})().includes('Skip to main content')")
    shown = page.evaluate(CHROME_TEXTS_JS)
    assert "Fullscreen" in shown and "全屏" not in shown, shown  # the originals are back
    assert browser.exceptions() == []
