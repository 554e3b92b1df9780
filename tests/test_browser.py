"""Every page in a real browser: it renders, shows no exception, and asks nothing of the internet.

Screenshots land in artifacts/screenshots/<page>.png; look at them.
"""

from __future__ import annotations

import pytest

from explorer_core.ui.nav import available_pages

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("spec", available_pages(), ids=lambda spec: spec.url_path or "home")
def test_page_renders_without_exception(browser, spec):
    browser.open(spec.url_path)
    browser.page.locator('[data-testid="stMain"]').wait_for()
    shot = browser.screenshot(spec.url_path or "home")
    assert shot.stat().st_size > 10_000
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_language_switch_shows_chinese(browser):
    browser.open("")
    browser.page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("完整流程")
    browser.screenshot("home-zh")
    assert browser.exceptions() == []
    assert browser.page.url.endswith("?lang=zh")  # a copied link reopens in Chinese
    browser.page.locator('[data-testid="stSidebar"] a', has_text="注意力").first.click()
    browser.wait_idle("注意力")
    assert "lang=zh" in browser.page.url
