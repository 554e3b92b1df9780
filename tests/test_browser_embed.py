"""The three Embed pages in a real browser: driven like a learner would, screenshots of each chart.

Screenshots go to artifacts/screenshots/embed-*.png (viewport and one per chart); look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLOT = '[data-testid="stPlotlyChart"]'
MAIN_BUTTON = '[data-testid="stMain"] button'


def shoot_charts(browser, prefix: str, expected: int) -> None:
    """Wait for `expected` drawn plotly charts and save each one as its own screenshot."""
    charts = browser.page.locator(PLOT)
    browser.page.locator(f"{PLOT} .main-svg").nth(expected - 1).wait_for(timeout=60_000)
    assert charts.count() == expected
    SHOTS.mkdir(parents=True, exist_ok=True)
    for i in range(expected):
        charts.nth(i).scroll_into_view_if_needed()
        charts.nth(i).screenshot(path=str(SHOTS / f"{prefix}-chart{i}.png"))


def open_page(browser, url_path: str, wait_text: str) -> None:
    """Open a page; close the "Page not found" dialog a fresh server shows on its very first
    deep link (the app shell has not registered its pages yet; the page itself then renders)."""
    browser.open(url_path, wait_text=wait_text)
    dialog = browser.page.get_by_role("dialog").filter(has_text="Page not found")
    if dialog.count():
        dialog.get_by_role("button").first.click()
        dialog.wait_for(state="detached")


def check_clean(browser) -> None:
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_token_embeddings_page(browser):
    open_page(browser, "token-embeddings", "one-hot × E")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for()
    browser.screenshot("embed-tokens")
    shoot_charts(browser, "embed-tokens", 3)
    box = browser.page.get_by_role("textbox", name="Sentence")
    box.fill("Paris is the capital of France.")
    box.press("Enter")
    browser.wait_idle("the vector of 'is'")
    shoot_charts(browser, "embed-tokens-paris", 3)
    assert browser.page.locator('text[data-unformatted="0: paris (3000)"]').count() == 1
    check_clean(browser)


def test_position_encodings_page(browser):
    open_page(browser, "position-encodings", "Sinusoidal table")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for()
    browser.screenshot("embed-positions")
    shoot_charts(browser, "embed-positions", 5)
    browser.page.locator(MAIN_BUTTON, has_text="Rotary (RoPE)").click()
    browser.wait_idle("RoPE angles")
    shoot_charts(browser, "embed-positions-rope", 5)
    browser.page.locator(MAIN_BUTTON, has_text="Relative").click()
    browser.wait_idle("clipped to ±4")
    slider = browser.page.get_by_role("slider").nth(3)  # length, dim, base, clip
    slider.focus()
    slider.press("ArrowRight")
    browser.wait_idle("clipped to ±5")
    shoot_charts(browser, "embed-positions-relative", 5)
    browser.page.locator(MAIN_BUTTON, has_text="Learned").click()
    browser.wait_idle("Learned position table of MiniLM")
    shoot_charts(browser, "embed-positions-learned", 5)
    check_clean(browser)


def test_embedding_sum_page(browser):
    open_page(browser, "embedding-sum", "Every token, part by part")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for()
    browser.screenshot("embed-sum")
    shoot_charts(browser, "embed-sum", 2)
    check_clean(browser)


def test_embed_pages_in_chinese(browser):
    open_page(browser, "home", "The whole path")
    browser.page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("完整流程")
    browser.page.locator('[data-testid="stSidebarNav"] a', has_text="位置编码").click()
    browser.wait_idle("比较")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for()
    browser.screenshot("embed-positions-zh")
    shoot_charts(browser, "embed-positions-zh", 5)
    check_clean(browser)
