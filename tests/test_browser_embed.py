"""The three Embed pages in a real browser: driven like a learner would, screenshots of each chart.

Screenshots go to artifacts/screenshots/embed-*.png (viewport and one per chart); look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAIN_BUTTON = '[data-testid="stMain"] button'


def check_clean(browser) -> None:
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []
    assert browser.plotly_warnings() == []


def test_token_embeddings_page(browser):
    browser.open("token-embeddings", wait_text="one-hot × E")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=90_000)
    browser.screenshot("embed-tokens")
    browser.shoot_charts("embed-tokens", 3)
    box = browser.page.get_by_role("textbox", name="Sentence")
    box.fill("Paris is the capital of France.")
    box.press("Enter")
    browser.wait_idle("the vector of 'is'")
    browser.shoot_charts("embed-tokens-paris", 3)
    assert browser.page.locator('text[data-unformatted="0: paris (3000)"]').count() == 1
    check_clean(browser)


def test_position_encodings_page(browser):
    browser.open("position-encodings", wait_text="Sinusoidal table")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=90_000)
    browser.screenshot("embed-positions")
    browser.shoot_charts("embed-positions", 2)  # RoPE up close is behind its toggle
    browser.page.get_by_text("Show one pair's rotation").click()
    browser.wait_idle("Frequency spectrum")
    browser.shoot_charts("embed-positions-close-up", 5)
    browser.page.locator(MAIN_BUTTON, has_text="Rotary (RoPE)").click()
    browser.wait_idle("RoPE angles")
    browser.shoot_charts("embed-positions-rope", 5)
    browser.page.locator(MAIN_BUTTON, has_text="Relative").click()
    browser.wait_idle("clipped to ±4")
    slider = browser.page.get_by_role("slider").nth(3)  # length, dim, base, clip
    slider.focus()
    slider.press("ArrowRight")
    browser.wait_idle("clipped to ±5")
    browser.shoot_charts("embed-positions-relative", 5)
    browser.page.locator(MAIN_BUTTON, has_text="Learned").click()
    browser.wait_idle("Learned position table of MiniLM")
    browser.shoot_charts("embed-positions-learned", 5)
    check_clean(browser)


def test_embedding_sum_page(browser):
    browser.open("embedding-sum", wait_text="Every token, part by part")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=90_000)
    browser.screenshot("embed-sum")
    browser.shoot_charts("embed-sum", 2)
    check_clean(browser)


def test_embed_pages_in_chinese(browser):
    browser.open("", wait_text="The whole path")
    browser.page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("完整流程")
    browser.page.locator('[data-testid="stSidebarNav"] a', has_text="位置编码").click()
    browser.wait_idle("比较")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=90_000)
    browser.screenshot("embed-positions-zh")
    browser.page.get_by_text("显示一个分量对的旋转").click()  # RoPE up close, behind its toggle
    browser.shoot_charts("embed-positions-zh", 5)
    check_clean(browser)
