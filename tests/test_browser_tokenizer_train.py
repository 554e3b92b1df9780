"""The "Train a tokenizer" page in a real browser: train, move the scrubber, play, screenshot.

Screenshots go to artifacts/screenshots/tok-train-*.png; look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLOT = '[data-testid="stPlotlyChart"]'


def open_page(browser) -> None:
    """Open the page, closing the "Page not found" dialog a fresh server may show on a deep link."""
    browser.open("train-tokenizer", wait_text="press Train")
    dialog = browser.page.get_by_role("dialog").filter(has_text="Page not found")
    if dialog.count():
        dialog.get_by_role("button").first.click()
        dialog.wait_for(state="detached")


def test_train_and_scrub(browser):
    page = browser.page
    open_page(browser)
    browser.screenshot("tok-train-start")
    page.locator(".st-key-tok-train-go button").click()
    browser.wait_idle("The other pages now use this tokenizer")
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=120_000)
    assert page.get_by_text("k = 744 of 744").count() == 1
    slider = page.get_by_role("slider").first
    slider.focus()
    page.keyboard.press("Home")
    browser.wait_idle("k = 0 of 744")
    for _ in range(3):
        slider.press("ArrowRight")
    browser.wait_idle("k = 3 of 744")
    assert page.get_by_text("Why merge 4 won").count() == 1
    assert page.locator('span[title^="id "]').count() > 10
    browser.screenshot("tok-train-k3")
    chart = page.locator(PLOT).first
    chart.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(SHOTS / "tok-train-curve.png"))
    # play: the fragment advances k by itself (744 // 60 = 12 merges per tick)
    page.get_by_text("Play", exact=True).click()
    page.get_by_text("k = 15 of 744").wait_for(timeout=30_000)
    page.get_by_text("Play", exact=True).click()
    browser.wait_idle()
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_bad_vocab_size_shows_a_message(browser):
    page = browser.page
    open_page(browser)
    box = page.get_by_role("spinbutton").first
    box.fill("100")
    box.press("Enter")
    browser.wait_idle()
    page.locator(".st-key-tok-train-go button").click()
    browser.wait_idle("at least 256")
    assert browser.exceptions() == []
    assert box.input_value() == "100"
    browser.screenshot("tok-train-error")
