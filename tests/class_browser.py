"""Class mode in real browsers: one Chromium, each person a context of their own; the URL's
parameters of a person's page; waiting for a text with a useful failure."""

from __future__ import annotations

from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser import CHROMIUM, CHROMIUM_ARGS, REDUCED_MOTION, BrowserSession


@contextmanager
def chromium():
    """One headless Debian Chromium; each caller's context is a separate person."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=CHROMIUM_ARGS)  # fmt: skip
        try:
            yield browser
        finally:
            browser.close()


def person(browser, base_url: str, size: dict) -> BrowserSession:  # noqa: ANN001 - a Browser
    return BrowserSession(
        browser.new_context(viewport=size, reduced_motion=REDUCED_MOTION), base_url
    )


def params(session: BrowserSession) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(session.page.url).query).items()}


def see(session: BrowserSession, text: str, timeout: int = 60_000) -> None:
    """Wait for `text`; on a timeout, fail with what the page showed instead (and a screenshot)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        session.page.get_by_text(text).first.wait_for(timeout=timeout)
    except PlaywrightTimeout:
        session.screenshot("class-failed")
        shown = session.page.locator('[data-testid="stApp"]').inner_text(timeout=5_000)
        pytest.fail(f"{text!r} not shown within {timeout} ms; the page showed:\n{shown[-3000:]}")
