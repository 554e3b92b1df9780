"""Real-browser support: start `streamlit run` on a free port and drive Debian's Chromium.

Chromium comes from Debian's package (never `playwright install`); launched headless with flags
that keep it from calling home. Every request the page makes is recorded so a test can prove that
nothing leaves localhost. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
PLOT = '[data-testid="stPlotlyChart"]'  # one plotly chart
LANGUAGE_SWITCH = ".st-key-lang"  # Streamlit marks a keyed widget's box with st-key-<key>
MIN_CHART_TEXT_PX = 12  # the smallest chart text still readable on a 720-line projector
KEYED = '[data-testid="stMain"] [class*="st-key-"]'
CONTROL = 'input:not([disabled]), textarea, button:not([disabled]), [role="slider"]'
KEY_OF = "box => [...box.classList].find(c => c.startsWith('st-key-'))"
KEYBOARD_CONTROLS = f"""() => [...document.querySelectorAll('{KEYED}')]
    .filter(box => box.offsetParent !== null && box.querySelector('{CONTROL}')
        && !box.closest('details:not([open])'))  // a closed expander opens by keyboard first
    .map({KEY_OF})"""
FOCUSED_KEY = f"""() => {{
    const box = document.activeElement && document.activeElement.closest('[class*="st-key-"]');
    return box ? ({KEY_OF})(box) : null;
}}"""
CHART_TEXT_SIZES = f"""() => [...document.querySelectorAll('{PLOT} .main-svg text')]
    .filter(e => e.textContent.trim() && e.getBoundingClientRect().width > 0)
    .map(e => [e.textContent.slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])"""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Every test browser asks for reduced motion, as a person can in their system settings (Streamlit's
# spinners and skeletons then stand still): a walk through the 14 pages by address cost Chromium
# 47/42 CPU-s instead of 54/50 (its compositor 2 instead of 6-8), the same walk by the navigation
# 20/19 instead of 23/20, on this 2-core machine. The whole suite gained little from it (pytest
# 1,599 s against 1,632 s from a fresh clone, within run-to-run noise): what a page paints costs
# far more than its animations. What a page shows is the same. bench/page_latency.py keeps the
# default motion.
REDUCED_MOTION = "reduce"


def require_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail("Chromium is missing in CI: scripts/test.sh should have installed it")
    pytest.skip("Debian chromium is not installed (apt-get install -y chromium)")


def free_port() -> int:
    """A free local port; EXPLORER_TEST_PORTS="8690-8699" keeps to a range (shared machines)."""
    low, _, high = os.environ.get("EXPLORER_TEST_PORTS", "0-0").partition("-")
    for port in range(int(low), int(high or low) + 1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise RuntimeError(f"no free port in EXPLORER_TEST_PORTS={low}-{high}")


def streamlit_command() -> list[str]:
    """`streamlit run app.py`, the standard start (scripts/run.sh runs the same), from this venv."""
    return [str(Path(sys.executable).with_name("streamlit")), "run", "app.py"]


@contextmanager
def streamlit_server(
    port: int | None = None, env: dict[str, str] | None = None, log: Path | None = None
) -> Iterator[str]:
    """Run `streamlit run app.py` (no flags) on a free port; yield its base URL once
    /_stcore/health answers ok. Port and address come from Streamlit's own environment variables,
    so the command line is exactly the one a teacher types. `log`: a file that receives the
    server's output (stdout and stderr), for a test that reads what the server logged."""
    port = port or free_port()
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "EXPLORER_TORCH_THREADS": "1",
        "EXPLORER_WARMUP": "1",  # a real server warms up (conftest turns it off for AppTest)
        "STREAMLIT_SERVER_PORT": str(port),
        "STREAMLIT_SERVER_ADDRESS": "127.0.0.1",
        "STREAMLIT_SERVER_HEADLESS": "true",
        "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
        **(env or {}),
    }
    log = open(log, "w+b") if log is not None else tempfile.TemporaryFile()  # noqa: SIM115
    proc = subprocess.Popen(
        streamlit_command(), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError("streamlit did not start:\n" + log.read().decode()[-3000:])
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


class BrowserSession:
    """One Chromium profile and tab; records the host of every request."""

    def __init__(self, context, base_url: str):
        self.context = context
        self.base_url = base_url
        self.page = context.pages[0] if context.pages else context.new_page()
        self.requests: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.console: list[str] = []
        self.page.on("console", lambda message: self.console.append(message.text))

    def open(self, url_path: str, query: str = "", wait_text: str | None = None, timeout=90_000):
        """Go to `url_path` ("" is the home page at /) and wait until it has run (and shows
        `wait_text`). Fails if the app answers "Page not found": with no `pages/` folder beside
        app.py even a fresh server's first deep link goes through app.py's navigation, so no test
        closes that dialog."""
        suffix = f"?{query}" if query else ""
        self.page.goto(f"{self.base_url}/{url_path}{suffix}", timeout=timeout)
        self.wait_idle(wait_text, timeout)
        assert self.page.get_by_role("dialog").filter(has_text="Page not found").count() == 0

    def wait_idle(self, wait_text: str | None = None, timeout=90_000) -> None:
        """Wait until the script has run to the end (and `wait_text`, if given, is shown).

        A timeout keeps what the page showed (artifacts/screenshots/timeout-*.png) and names
        its address, so a wait that once ran out can be found at its cause."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self._wait_idle(wait_text, timeout)
        except PlaywrightTimeout:
            shot = self.screenshot(f"timeout-{time.strftime('%H%M%S')}")
            shown = self.page.locator('[data-testid="stApp"]').inner_text(timeout=5_000)
            pytest.fail(
                f"{self.page.url} did not finish within {timeout} ms ({shot}); the "
                f"page showed:\n{shown[-2000:]}"
            )

    def _wait_idle(self, wait_text: str | None, timeout: float) -> None:
        if wait_text:
            self.page.get_by_text(wait_text).first.wait_for(timeout=timeout)
        # subtle: before app.py's first run the frontend shows a bare page; the language control
        # (in the sidebar, or above the page in presentation mode) proves the shell ran, then
        # "notRunning" says the page script finished.
        self.page.locator(f"{LANGUAGE_SWITCH} button").first.wait_for(timeout=timeout)
        self.page.wait_for_timeout(300)
        self.page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
            timeout=timeout
        )
        self.page.wait_for_timeout(300)

    def view_link(self, label: str = "Link to this view") -> str:
        """Open the view's link button (in the sidebar, or above the page while presenting), read
        the link from its code box, and close it again."""
        button = self.page.locator('[data-testid="stPopover"]').filter(has_text=label).first
        button.locator("button").click()
        code = self.page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]').first
        link = code.inner_text(timeout=10_000)
        self.page.keyboard.press("Escape")
        code.wait_for(state="hidden", timeout=10_000)
        return link

    def exceptions(self) -> list[str]:
        return self.page.locator('[data-testid="stException"]').all_inner_texts()

    def screenshot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def shoot(self, locator, name: str) -> Path:  # noqa: ANN001 - a Playwright Locator
        """Scroll `locator` into view and save it alone as artifacts/screenshots/<name>.png."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        locator.scroll_into_view_if_needed()
        # subtle: Streamlit scrolls its own main block, not the document, so the part of an
        # element taller than the window is never painted into a shot: the window grows for it
        size, box = self.page.viewport_size, locator.bounding_box()
        if size and box and box["height"] > size["height"]:
            self.page.set_viewport_size({**size, "height": int(box["height"]) + 200})
            self.page.wait_for_timeout(800)  # plotly redraws for the new size
            locator.scroll_into_view_if_needed()
            try:
                locator.screenshot(path=str(path))
            finally:
                self.page.set_viewport_size(size)
            return path
        locator.screenshot(path=str(path))
        return path

    def shoot_charts(self, prefix: str, expected: int, timeout=60_000) -> None:
        """Wait until exactly `expected` plotly charts are drawn; save each as <prefix>-chart<i>."""
        charts = self.page.locator(PLOT)
        self.page.wait_for_function(
            f"document.querySelectorAll('{PLOT}').length >= {expected}", timeout=timeout
        )
        for i in range(expected):
            charts.nth(i).locator(".main-svg").first.wait_for(timeout=timeout)
        assert charts.count() == expected
        for i in range(expected):
            self.shoot(charts.nth(i), f"{prefix}-chart{i}")

    def small_chart_text(self, min_px: int = MIN_CHART_TEXT_PX) -> list[tuple[str, float]]:
        """(text, px) of each chart label drawn smaller than `min_px`; the charts must have text."""
        sizes = self.page.evaluate(CHART_TEXT_SIZES)
        assert sizes, "the charts have text"
        return [(text, px) for text, px in sizes if px < min_px]

    def keyboard_controls(self) -> set[str]:
        """The st-key-<key> classes of the page's visible keyed widgets (and charts' buttons)."""
        return set(self.page.evaluate(KEYBOARD_CONTROLS))

    def tab_through(self, wanted: set[str], presses: int = 400) -> set[str]:
        """Press Tab until focus has visited every box in `wanted` (or `presses` run out);
        return the keyed boxes that got focus."""
        reached: set[str] = set()
        for _ in range(presses):
            self.page.keyboard.press("Tab")
            key = self.page.evaluate(FOCUSED_KEY)
            if key:
                reached.add(key)
            if wanted <= reached:
                break
        return reached

    def plotly_warnings(self) -> list[str]:
        """plotly.js's own warnings ("WARN: ..."), each a console.trace: a chart spec it could not
        read as given (e.g. numbers as bar colours, which cost ~90 ms a redraw on the Token
        embeddings page)."""
        return [text[:120] for text in self.console if text.startswith("WARN:")]

    def foreign_requests(self) -> list[str]:
        allowed = (self.base_url, "data:", "blob:", "about:")
        return [url for url in self.requests if not url.startswith(allowed)]


@contextmanager
def browser_session(
    base_url: str, width: int = 1400, height: int = 1800
) -> Iterator[BrowserSession]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height},
            reduced_motion=REDUCED_MOTION,
        )
        try:
            yield BrowserSession(context, base_url)
        finally:
            context.close()
