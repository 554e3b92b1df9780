"""Train Tiny for a few seconds in a real browser, stop it, then use it on the Similarity page.

Screenshots go to artifacts/screenshots/train-*.png and sim-*.png; look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_train_tiny_stop_and_probe(browser):
    page = browser.page
    browser.open("train-model", wait_text="Train a sentence-embedding model")
    browser.screenshot("train-settings")
    page.get_by_text("Fine-tune directly").click()  # the similarity loss and dev Spearman, fast
    browser.wait_idle()
    steps = page.locator(".st-key-train-fine_steps input")
    steps.fill("40")  # an evaluation every 5 steps
    steps.press("Enter")
    browser.wait_idle()
    page.locator(".st-key-train-start button").click()
    # the polled fragment draws the progress bar and the first loss curve while training runs
    page.locator('[data-testid="stProgress"]').first.wait_for(timeout=120_000)
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=120_000)
    page.get_by_text("Dev Spearman at each evaluation").wait_for(timeout=120_000)
    assert page.locator(".st-key-train-start button").is_disabled()
    page.get_by_text("Progress", exact=True).scroll_into_view_if_needed()
    browser.screenshot("train-during")
    page.locator(".st-key-train-stop button").click()
    page.get_by_text("Stopped after").wait_for(timeout=120_000)
    browser.wait_idle("Your model")
    assert not page.locator(".st-key-train-start button").is_disabled()
    assert page.get_by_text("stopped early").count() >= 1
    page.get_by_text("Progress", exact=True).scroll_into_view_if_needed()
    browser.screenshot("train-after")
    page.get_by_text("Your model", exact=True).scroll_into_view_if_needed()
    browser.screenshot("train-result")
    assert browser.exceptions() == []

    # same browser session: navigate inside the app so the trained model stays in session state
    page.locator('[data-testid="stSidebarNav"] a', has_text="Similarity").click()
    browser.wait_idle("cosine: your model")
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("sim-matrix")
    page.locator(".st-key-sim-view button", has_text="Where the model is wrong").click()
    browser.wait_idle("The pairs the model gets most wrong")
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=60_000)
    browser.shoot(page.locator(PLOT).first, "sim-scatter")
    browser.screenshot("sim-pairs")
    assert browser.exceptions() == []

    page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("模型错得最多的句子对")
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("sim-pairs-zh")
    page.locator('[data-testid="stSidebarNav"] a', has_text="训练模型").click()
    browser.wait_idle("你的模型")
    page.get_by_text("你的模型", exact=True).scroll_into_view_if_needed()
    browser.screenshot("train-result-zh")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []
