"""MiniLM + 中文 in a real browser: the Chinese guided lesson and the Train page on a server
(`streamlit run app.py`) whose install has the taught model (the small one of tests/taught.py).

Screenshots land in artifacts/screenshots/zh-taught-*.png; look at them.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import PLOT, browser_session, require_chromium, streamlit_server
from tests.taught import taught_cache

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HANZI = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def taught_browser():
    """A browser on a server of its own, started with the taught model installed."""
    require_chromium()
    with streamlit_server(env={"EXPLORER_CACHE_DIR": str(taught_cache())}) as url:
        with browser_session(url, width=1400, height=1100) as session:
            yield session


def test_chinese_lesson_reads_chinese_with_the_taught_model(taught_browser):
    browser, page = taught_browser, taught_browser.page
    browser.open("lesson", "lang=zh&lesson.step=3", wait_text="第 3 步，共 12 步")
    table = page.locator('[data-testid="stDataFrame"]').first
    table.wait_for(timeout=60_000)
    browser.screenshot("zh-taught-lesson-3")
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "MiniLM + 中文" in body  # the caption names the model
    assert "构建 MiniLM + 中文" not in body  # no build notice once it is built
    # the token chips (viz.lesson.chips_html; the table is drawn on a canvas)
    chips = page.locator("div", has=page.locator("span", has_text="[SEP]")).last.inner_text()
    assert "猫" in chips and "[UNK]" not in chips
    browser.open("lesson", "lang=zh&lesson.step=8", wait_text="第 8 步，共 12 步")
    page.locator(PLOT).first.locator(".main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("zh-taught-lesson-8")
    ticks = page.locator(f"{PLOT} .xtick text").evaluate_all("els => els.map(e => e.textContent)")
    keys = [tick.split(" · ")[-1] for tick in ticks]  # "1 · 猫": position · token
    assert "猫" in keys and "[UNK]" not in keys, ticks  # the heatmap's keys are characters
    assert not browser.small_chart_text(), browser.small_chart_text()
    browser.open("lesson", "lang=zh&lesson.step=11", wait_text="第 11 步，共 12 步")
    page.locator(PLOT).first.locator(".main-svg").first.wait_for(timeout=60_000)
    browser.screenshot("zh-taught-lesson-11")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_train_page_shows_the_taught_model(taught_browser):
    browser, page = taught_browser, taught_browser.page
    heading = "教 MiniLM 学中文（多语言蒸馏）"
    browser.open("train-model", "lang=zh&train.kind=chinese", wait_text=heading)
    page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=60_000)
    browser.screenshot("zh-taught-train")
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "已在本机构建" in body and "前后对比" in body
    assert page.get_by_role("button", name="重新构建").is_enabled()
    assert page.get_by_role("button", name="停止").is_disabled()  # nothing is being built
    assert browser.exceptions() == []
