"""The Text → tokens → ids page in a real browser: type a text, hover a token, switch tokenizer.

Screenshots go to artifacts/screenshots/tok-encode-*.png; look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLOT = '[data-testid="stPlotlyChart"]'


def open_page(browser, url_path: str, wait_text: str) -> None:
    """Open a page, closing the "Page not found" dialog a fresh server may show on a deep link."""
    browser.open(url_path, wait_text=wait_text)
    dialog = browser.page.get_by_role("dialog").filter(has_text="Page not found")
    if dialog.count():
        dialog.get_by_role("button").first.click()
        dialog.wait_for(state="detached")


def test_text_to_ids_page(browser):
    page = browser.page
    open_page(browser, "text-to-ids", "Your text, token by token")
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
    chart = page.locator(PLOT).first
    chart.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(SHOTS / "tok-encode-chart.png"))
    browser.screenshot("tok-encode-typed")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []
