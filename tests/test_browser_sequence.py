"""The Sequence models page in a real browser, in English and Chinese, at projector (1920×1080)
and laptop (1366×768) size; on the suite's one server (the session's `app_url`).

Screenshots go to artifacts/screenshots/sequence-*.png (viewport, and each chart of the default
view): look at them for cut titles, overlapping labels and Chinese rendering.
"""

from __future__ import annotations

import pytest

from tests.browser import browser_session

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"projector": (1920, 1080), "laptop": (1366, 768)}
LANGS = {  # language -> the window chart's title, then each view: (button, text it shows)
    "en": ("What position t can read", [
        ("Steps and path length", "measured on this server now"),
        ("Gradient over distance", "how strongly the last position feels token t"),
        ("Recall task", "Train the recall task"),
    ]),
    "zh": ("位置 t 能读到什么", [
        ("步数与路径长度", "此刻在本服务器上实测"),
        ("梯度随距离的变化", "最后一个位置对词元 t 有多敏感"),
        ("回忆任务", "训练回忆任务"),
    ]),
}  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
def test_sequence_models_page_in_english_and_chinese(app_url, size):
    width, height = SIZES[size]
    with browser_session(app_url, width, height) as browser:
        for lang, (window_title, views) in LANGS.items():
            browser.open("sequence-models", query=f"lang={lang}", wait_text=window_title)
            browser.screenshot(f"sequence-{lang}-{size}")
            browser.shoot_charts(f"sequence-states-{lang}-{size}", 3)
            for index, (button, shows) in enumerate(views):
                browser.page.locator("button", has_text=button).first.click()
                browser.wait_idle(shows)
                browser.page.get_by_text(shows).first.scroll_into_view_if_needed()
                browser.screenshot(f"sequence-view{index + 1}-{lang}-{size}")
            assert browser.exceptions() == []
            assert browser.foreign_requests() == []
