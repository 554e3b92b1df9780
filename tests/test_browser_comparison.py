"""The Train page's comparison in a real browser: train Tiny briefly, then the table and chart.

Screenshots: artifacts/screenshots/compare-*.png; look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_comparison_after_a_short_run_in_both_languages(browser):
    page = browser.page
    browser.open("train-model", wait_text="Train a sentence-embedding model")
    page.get_by_text("Fine-tune directly").click()
    browser.wait_idle()
    steps = page.locator(".st-key-train-fine_steps input")
    steps.fill("30")
    steps.press("Enter")
    browser.wait_idle()
    browser.shoot(page.locator(".st-key-train-start_from"), "compare-start-from")
    page.locator(".st-key-train-start button").click()
    page.get_by_text("Finished after").wait_for(timeout=300_000)
    browser.wait_idle("Why MiniLM fails on Chinese")
    chart = page.locator(PLOT).filter(has_text="Test Spearman by model and language")
    chart.locator(".main-svg").first.wait_for(timeout=60_000)
    for name in ("Lexical baseline (TF-IDF)", "Trained from scratch", "MiniLM as is"):
        assert page.get_by_text(name).count() >= 1, name
    page.get_by_text("How does it compare?", exact=True).scroll_into_view_if_needed()
    browser.screenshot("compare-en")
    assert browser.exceptions() == []
    page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("为什么 MiniLM 在中文上不行")
    page.get_by_text("比一比", exact=True).scroll_into_view_if_needed()
    browser.screenshot("compare-zh")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []
