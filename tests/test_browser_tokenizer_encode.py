"""The Text → tokens → ids page in a real browser: type a text, hover a token, switch tokenizer.

Screenshots go to artifacts/screenshots/tok-encode-*.png; look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_text_to_ids_page(browser):
    page = browser.page
    browser.open("text-to-ids", wait_text="Your text, token by token")
    page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=120_000)
    browser.screenshot("tok-encode")
    # the spans carry the id and bytes for hovering
    first_span = page.locator('span[title^="id "]').first
    assert "·" in first_span.get_attribute("title")
    # type a new text (Ctrl+Enter applies a text area)
    box = page.get_by_role("textbox", name="Your text")
    box.fill("分词器 tokenizes 齉 text.")
    box.press("Control+Enter")
    browser.wait_idle("Your text, token by token")
    assert page.get_by_text("齉").count() >= 1
    # the comparison chart, on its own
    browser.shoot(page.locator(PLOT).first, "tok-encode-chart")
    browser.screenshot("tok-encode-typed")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []
