"""Inside the encoder in a real browser, every view in English and Chinese, at a projector's size
(1280 × 720) and a laptop's (1440 × 900). Screenshots to look at go to
artifacts/screenshots/encoder-*.png (the viewport, then each chart of the view alone)."""

from __future__ import annotations

import pytest

from tests.browser import LANGUAGE_SWITCH, browser_session

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWS = ("layer", "mixing", "stack", "contexts", "decoder")
SIZES = {"projector": (1280, 720), "laptop": (1440, 900)}
WAIT = {  # text each view writes once drawn, by language
    "en": {"layer": "every step", "mixing": "Kobayashi et al. 2021", "stack": "layer by layer",
           "contexts": "random token pairs", "decoder": "Trained for what?"},
    "zh": {"layer": "每一步", "mixing": "Kobayashi 等 2021", "stack": "一层接一层",
           "contexts": "随机词元对", "decoder": "为什么而训练"},
}  # fmt: skip


def visit(browser, lang: str, size: str) -> None:  # noqa: ANN001 - a BrowserSession
    for view in VIEWS:
        browser.open("inside-the-encoder", f"lang={lang}&enc.source=fresh&enc.view={view}",
                     wait_text=WAIT[lang][view])  # fmt: skip
        assert browser.exceptions() == [], (lang, view)
        name = f"encoder-{size}-{lang}-{view}"
        browser.screenshot(name)
        charts = browser.page.locator('[data-testid="stPlotlyChart"]')
        for i in range(charts.count()):
            charts.nth(i).locator(".main-svg").first.wait_for(timeout=60_000)
            browser.shoot(charts.nth(i), f"{name}-chart{i}")
        assert browser.small_chart_text() == [], (lang, view)
    assert browser.foreign_requests() == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_view_in_both_languages_at_projector_and_laptop_size(app_url, lang, size):
    width, height = SIZES[size]
    with browser_session(app_url, width=width, height=height) as browser:
        visit(browser, lang, size)


def test_minilm_views_at_projector_size(app_url):
    """Real MiniLM (384 wide, 1536 inside, 12 heads): the layer view after a token switch, and
    who wrote into the vectors."""
    with browser_session(app_url, width=1280, height=720) as browser:
        browser.open("inside-the-encoder", "enc.view=layer", wait_text="every step")
        charts = browser.page.locator('[data-testid="stPlotlyChart"]')
        charts.first.locator(".main-svg").first.wait_for(timeout=60_000)
        box = browser.page.locator(".st-key-enc-token")
        box.scroll_into_view_if_needed()
        box.locator('button[aria-haspopup="listbox"]').first.click()  # as bench/page_latency.py
        option = browser.page.locator('[role="option"]').nth(5)
        option.wait_for(timeout=60_000)
        option.click()
        browser.wait_idle("token “bank”")
        assert browser.exceptions() == []
        assert browser.page.locator(LANGUAGE_SWITCH).count() == 1
        for i in range(charts.count()):
            browser.shoot(charts.nth(i), f"encoder-minilm-layer-chart{i}")
        assert browser.small_chart_text() == []
        browser.open("inside-the-encoder", "enc.view=mixing&enc.layer=3", wait_text="Kobayashi")
        charts.first.locator(".main-svg").first.wait_for(timeout=60_000)
        browser.shoot(charts.first, "encoder-minilm-mixing-chart0")
        assert browser.exceptions() == [] and browser.small_chart_text() == []
