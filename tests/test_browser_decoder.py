"""Train a decoder for a few seconds in a real browser: samples appear, the loss chart draws its
two reference lines, the next-token bars answer; screenshots at projector (1920×1080) and laptop
(1366×768) size in English and Chinese: artifacts/screenshots/decoder-*.png. Look at them."""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"projector": {"width": 1920, "height": 1080}, "laptop": {"width": 1366, "height": 768}}


def shots(browser, lang: str) -> None:  # noqa: ANN001 - a BrowserSession
    """The page at both sizes: the run (loss, samples) and the trained decoder's bars."""
    page = browser.page
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        browser.wait_idle()
        page.locator(".st-key-dec-samples").scroll_into_view_if_needed()
        browser.screenshot(f"decoder-run-{name}-{lang}")
        page.locator(".st-key-dec-bars_chart").scroll_into_view_if_needed()
        browser.screenshot(f"decoder-bars-{name}-{lang}")
    page.set_viewport_size({"width": 1400, "height": 1800})


def test_train_a_decoder_see_samples_and_bars_in_both_languages(browser):
    page = browser.page
    browser.open("decoder", wait_text="Train a decoder")
    seconds = page.locator(".st-key-dec-seconds input")
    seconds.fill("8")
    seconds.press("Enter")
    browser.wait_idle()
    page.locator(".st-key-dec-start button").click()
    page.locator('[data-testid="stProgress"]').first.wait_for(timeout=120_000)
    page.get_by_text("Finished after").wait_for(timeout=180_000)
    browser.wait_idle("Ask the trained decoder")
    page.locator(f".st-key-dec-loss_chart {PLOT} .main-svg").first.wait_for(timeout=60_000)
    assert page.get_by_text("uniform guess (ln V)").count() >= 1
    assert page.locator(".st-key-dec-samples").get_by_text("step ").count() >= 1
    page.locator(f".st-key-dec-bars_chart {PLOT} .main-svg").first.wait_for(timeout=60_000)
    assert browser.exceptions() == []
    shots(browser, "en")
    page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("问问训练好的解码器")
    page.locator(f".st-key-dec-bars_chart {PLOT} .main-svg").first.wait_for(timeout=60_000)
    assert browser.exceptions() == []
    shots(browser, "zh")


def test_the_trained_decoder_opens_on_inside_the_encoder(browser):
    """The Decoder page's button opens Inside the encoder on "Encoder against decoder" with the
    decoder's own weights (a model on this machine)."""
    page = browser.page
    browser.open("decoder", query="dec.seconds=3", wait_text="Train a decoder")
    page.locator(".st-key-dec-start button").click()
    page.get_by_text("Finished after").wait_for(timeout=180_000)
    browser.wait_idle("Ask the trained decoder")
    page.locator(".st-key-dec-open button").click()
    browser.wait_idle()
    link = page.get_by_text("Inside the encoder, with this decoder opened")
    if link.count():  # the link's ?dec.seconds= kept the page from switching: a link instead
        link.click()
    browser.wait_idle("is a decoder (GPT-2 family")
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=60_000)
    assert browser.exceptions() == []
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        browser.wait_idle()
        page.get_by_text("Three objectives on this sentence").scroll_into_view_if_needed()
        browser.screenshot(f"decoder-objectives-{name}-en")
        page.get_by_text("Sentence vectors from a decoder").scroll_into_view_if_needed()
        browser.screenshot(f"decoder-vectors-{name}-en")
