"""A fresh install builds MiniLM + 中文 by itself, in a real browser: `streamlit run app.py` (the
standard start, no flags) on an empty cache folder, with the background build on and its tiny
recipe (EXPLORER_TAUGHT_RECIPE=tiny: 24 pairs, 12 steps). The home page shows the build's progress
in Chinese and English; once it has landed the Attention and Token embeddings pages open on
MiniLM + 中文 in a Chinese UI.

Screenshots (1280x720, look at them): artifacts/screenshots/taught-build-home-{zh,en}.png while it
builds, taught-build-attention-zh.png and taught-build-tokens-zh.png after.
"""

from __future__ import annotations

import re
import time

import pytest

from explorer_core.files import taught_model
from tests.browser import browser_session, require_chromium, streamlit_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BAR = '[data-testid="stProgress"]'
ACTIVE = '[data-testid="stMain"] button[role="radio"][aria-checked="true"]'  # chosen segment
TAUGHT_ZH = "MiniLM + 中文（本机教会）"  # the model's name in a Chinese UI


def test_fresh_install_builds_minilm_zh_and_every_page_switches(tmp_path, monkeypatch):
    require_chromium()
    cache, data = tmp_path / "cache", tmp_path / "data"
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(cache))  # where this test looks for the model
    env = {"EXPLORER_CACHE_DIR": str(cache), "EXPLORER_DATA_DIR": str(data),
           "EXPLORER_TAUGHT": "on", "EXPLORER_TAUGHT_RECIPE": "tiny",
           # at the default 19 the build starves while other test processes work (see
           # test_taught_autobuild.py, which checks the 19)
           "EXPLORER_BACKGROUND_NICE": "0"}  # fmt: skip
    with streamlit_server(env=env) as url, browser_session(url, 1280, 720) as browser:
        page = browser.page
        assert taught_model.built_folder() is None  # a fresh install
        browser.open("", query="lang=zh", wait_text="嵌入探索器 Embedding Explorer")
        page.locator(BAR).first.wait_for(timeout=240_000)  # within a minute on an idle machine
        page.get_by_text("本服务器正在构建 MiniLM + 中文").first.wait_for(timeout=30_000)
        assert "最低优先级" in page.locator('[data-testid="stMain"]').inner_text()
        page.get_by_text(re.compile(r"· \d+% · 第 \d+ / 12 步")).first.wait_for(timeout=240_000)
        browser.screenshot("taught-build-home-zh")  # steps, percent and time left
        browser.open("", query="lang=en", wait_text="Embedding Explorer")
        if taught_model.built_folder() is None:  # the tiny build may end while the page loads
            steps = re.compile(r"Building MiniLM \+ 中文 on this server .* · Step \d+ of 12")
            page.get_by_text(steps).first.wait_for(timeout=30_000)
            browser.screenshot("taught-build-home-en")
        deadline = time.monotonic() + 400
        while taught_model.built_folder() is None and time.monotonic() < deadline:
            time.sleep(1)
        assert taught_model.built_folder() is not None, "the background build did not land"
        page.locator(BAR).first.wait_for(state="detached", timeout=60_000)  # the page was redrawn
        assert browser.exceptions() == []

        for url_path, shot in (("attention", "attention"), ("token-embeddings", "tokens")):
            browser.open(url_path, query="lang=zh")
            chosen = page.locator(ACTIVE).first
            chosen.wait_for(timeout=60_000)
            assert chosen.inner_text().strip() == TAUGHT_ZH, url_path  # the page's default now
            main = page.locator('[data-testid="stMain"]').inner_text()
            assert "本机教会" in main and "还没有构建" not in main, url_path
            assert browser.exceptions() == [], url_path
            browser.screenshot(f"taught-build-{shot}-zh")
        assert browser.foreign_requests() == []
