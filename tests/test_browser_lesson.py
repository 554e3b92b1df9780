"""The guided lesson in a real browser, as a lecture runs it: presentation mode, Chinese, Next.

Screenshots land in artifacts/screenshots/lesson-*.png; look at them.
"""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def wait_lesson(browser, title: str) -> None:  # noqa: ANN001 - a BrowserSession
    """Wait for the step title (presentation mode hides the sidebar that wait_idle looks for)."""
    browser.page.locator("h1", has_text=title).first.wait_for(timeout=90_000)
    browser.page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
        timeout=90_000
    )
    browser.page.wait_for_timeout(500)


def test_lesson_in_presentation_mode_and_chinese(browser):
    page = browser.page
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{browser.base_url}/lesson?present=1&lang=zh&lesson.step=8", timeout=90_000)
    wait_lesson(browser, "第 8 步，共 12 步：注意力")
    page.locator(PLOT).first.locator(".main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("lesson-zh-present-8")
    assert not browser.small_chart_text(), browser.small_chart_text()
    page.get_by_role("button", name="下一步").click()
    wait_lesson(browser, "第 9 步，共 12 步：一层")
    assert "lesson.step=9" in page.url and "present=1" in page.url  # the link reopens step 9
    page.locator(PLOT).first.locator(".main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("lesson-zh-present-9")
    assert not browser.small_chart_text(), browser.small_chart_text()
    page.get_by_role("button", name="下一步").click()
    wait_lesson(browser, "第 10 步，共 12 步：池化向量")
    page.get_by_role("button", name="下一步").click()
    wait_lesson(browser, "第 11 步")
    page.locator(PLOT).first.locator(".main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("lesson-zh-present-11")
    assert not browser.small_chart_text(), browser.small_chart_text()
    page.get_by_role("button", name="下一步").click()
    wait_lesson(browser, "第 12 步")  # why attention: the last step
    page.locator(PLOT).first.locator(".main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("lesson-zh-present-12")
    assert not browser.small_chart_text(), browser.small_chart_text()
    assert page.get_by_role("button", name="下一步").is_disabled()
    page.get_by_role("button", name="上一步").focus()  # reachable by keyboard
    page.keyboard.press("Enter")
    wait_lesson(browser, "第 11 步")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_every_lesson_control_is_reachable_by_keyboard(browser):
    """Tab from the top reaches Previous, the steps, Next, layer, head and the CSV download."""
    page = browser.page
    page.set_viewport_size({"width": 1280, "height": 720})
    browser.open("lesson", "lesson.step=8", wait_text="Step 8 of 12")
    page.locator(PLOT).first.locator(".main-svg").first.wait_for(timeout=60_000)
    wanted = browser.keyboard_controls()
    assert {"st-key-lesson-prev", "st-key-lesson-next", "st-key-lesson-step"} <= wanted, wanted
    reached = browser.tab_through(wanted, presses=300)
    assert wanted <= reached, sorted(wanted - reached)
    assert browser.exceptions() == []
