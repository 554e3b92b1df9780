"""The "Train a tokenizer" page in a real browser: train, move the scrubber, play, screenshot.

Screenshots go to artifacts/screenshots/tok-train-*.png; look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_train_and_scrub(browser):
    page = browser.page
    browser.open("train-tokenizer", wait_text="press Train")
    browser.screenshot("tok-train-start")
    page.locator(".st-key-tok-train-go button").click()
    browser.wait_idle("The other pages now use this tokenizer")
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=120_000)
    assert page.get_by_text("k = 744 of 744").count() == 1
    slider = page.get_by_role("slider").first
    slider.focus()
    page.keyboard.press("Home")
    browser.wait_idle("k = 0 of 744")
    for k in (1, 2, 3):  # each key press is one step, and each step is drawn
        slider.press("ArrowRight")
        browser.wait_idle(f"k = {k} of 744")
    assert page.get_by_text("Why merge 4 won").count() == 1
    assert page.locator('span[title^="id "]').count() > 10
    browser.screenshot("tok-train-k3")
    browser.shoot(page.locator(PLOT).first, "tok-train-curve")
    # play: the fragment advances k by itself (744 // 60 = 12 merges per tick)
    page.get_by_text("Play", exact=True).click()
    page.get_by_text("k = 15 of 744").wait_for(timeout=30_000)
    page.get_by_text("Play", exact=True).click()
    browser.wait_idle()
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_bad_vocab_size_shows_a_message(browser):
    page = browser.page
    browser.open("train-tokenizer", wait_text="press Train")
    box = page.get_by_role("spinbutton").first
    box.fill("100")
    box.press("Enter")
    browser.wait_idle()
    page.locator(".st-key-tok-train-go button").click()
    browser.wait_idle("at least 256")
    assert browser.exceptions() == []
    assert box.input_value() == "100"
    browser.screenshot("tok-train-error")
