"""How long a teacher waits after each click: every page of the app, in a real browser.

Starts the app the README's way (`streamlit run app.py` on a free port, default range 8670-8689),
opens headless Chromium (Debian's, flags as in tests/browser.py) and measures, in one run:

- cold start: server start to the first painted home page, then the first visit of each page
  through the navigation (a fresh server and a new browser with an empty profile each repetition,
  a person's first visit: `--cold-reps`; `--drop-caches` also empties the operating system's file
  cache before each server start, as after a boot), each clicked `--read`
  seconds after the page before it was painted (default 1: a person reads before clicking; 0
  clicks at once, the strictest: the browser's chart-code preload then never finds a quiet
  moment, and the first chart page loads Plotly itself);
- widget changes on a warm server, page by page (layer, head, view, step k, model source, language,
  lesson Next / Previous, ...): the *server* time, from the server handling the browser's
  `rerun_script` message to the server queuing its `script_finished` (a fragment rerun is one
  too), clocked inside the server by `bench/server_trace` (a `sitecustomize` the benchmark puts on
  the server's PYTHONPATH; the command line stays the README's); the *round trip*, the same two
  messages as the browser's websocket saw them (the public protocol; it also holds the time the
  browser's main thread, busy drawing the first deltas, took to read the last one); and the
  *painted* time, from the click to the page idle again
  (`data-test-script-state="notRunning"`) with every plotly chart drawn and two animation frames,
  stamped by the page's own clock;
- page switches through the sidebar navigation (painted).

The widget changes and page switches start once the server is warm (`wait_warm`: its warm-up
done, the browser's chart code loaded), as the issue's targets say; the cold start measures the
rest. Clicks come at a person's pace, at least `PACE` (0.5 s by default) apart: faster for long,
the server's flood guard (explorer_core/ui/throttle.py) makes them wait, by design.

Each change alternates between two values, so every repetition is a real change. Printed: one
table per page with p50 and p95 (milliseconds) and the target each row is held to; written: a JSON
file with every sample. A benchmark, not a test: timings depend on the machine's load (printed).

The floor, in the same run: a bare six-page Streamlit app (bench/floor_app.py: a title, a
paragraph, a segmented control, one 12x12 plotly heatmap and a table per page), written to a
temporary folder, served the same way and walked by the same code (cold starts, its control's
changes, page switches). A last table prints every figure as a multiple of the floor's
page-switch p95: how far each page is from what Streamlit costs on this machine, now.

    python bench/page_latency.py [--reps 10] [--quick] [--pages attention,lesson] [--json PATH]
    python bench/page_latency.py --opened bert[,modernbert] [--reps 10] [--rounds 2]
    python bench/page_latency.py --compare OLD.json NEW.json  (before/after: bench/page_compare.py)

`--opened` (issue 35) measures only a model opened from this machine, of full size: it builds a
BERT-base-sized model with random weights (bench/big_models.py; ModernBERT-base's sizes too if
named) in a temporary folder, serves the app with EXPLORER_MODEL_DIRS set to that folder, and in
one run times the first paint of `/attention?attn.source=opened&model=<folder>` cold (the server
never loaded it) and warm (a second tab), each after the same first paint on MiniLM; reads the
server's RSS before and after the open and the model's bytes as the server counts them; then the
server time of the Attention (head, layer, view) and Inside the encoder (token, layer, view)
switches on that model and on MiniLM, in `--rounds` interleaved rounds, printed as ratios to
MiniLM's (the issue's target: p95 at most 1.5x).

`--quick` (under 5 minutes): one cold start, the main change of each page (10 repetitions), and
page switches pooled over all pages (two rounds through the navigation, >= 10 switches).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.floor_app import url_paths as floor_paths  # noqa: E402
from bench.floor_app import write_floor_app  # noqa: E402
from explorer_core.ui.throttle import rerun_rate  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip
PORTS = range(8670, 8690)
WARM_AFTER = 10.0  # seconds after the server's start before the warm measurements begin
# A person's pace: consecutive clicks start at least PACE seconds apart, the rate the server's flood
# guard allows for ever (explorer_core/ui/throttle.py: 20 runs at once, then rerun_rate() a second,
# read from the same environment the server gets). Faster, it made a page's clicks wait from about
# the twentieth on: similarity's view and pooling clicks, ~3 a second for half a minute, read
# 300-350 ms of server time, all of it the guard's wait.
RATE = rerun_rate()  # 0: the guard is off
PACE = 1 / RATE if RATE else 0.0
TARGETS = {"server": 300, "painted": 600, "switch": 800, "lesson": 400, "cold": 3000, "first": 1500}
PAINTED = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    if (document.querySelector('[data-testid="stSkeleton"]')) return false;
    const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
    return charts.every(c => c.querySelector('.main-svg'));
}"""
# subtle: the paint is stamped by the page's own clock (epoch ms), at the second animation frame
# after PAINTED first holds. Noticed from this process instead, it came late whenever the server's
# warm-up and the browser kept both cores busy: this process's turn, not the page, was waiting.
PAINTED_AT = """async (timeoutMs) => {
    const painted = __PAINTED__;
    const frame = () => new Promise(r => requestAnimationFrame(r));
    const start = performance.now();
    while (!painted()) {
        if (performance.now() - start > timeoutMs) return null;
        await frame();
    }
    await frame();
    await frame();
    return performance.timeOrigin + performance.now();
}""".replace("__PAINTED__", PAINTED)
WALL_MINUS_MONOTONIC = time.time() - time.monotonic()  # page epoch ms -> this process's clock


@dataclass(frozen=True)
class Change:
    """One widget change: `kind` of control, its widget key, the two positions it alternates."""

    name: str
    kind: str  # seg (segmented control), select, slider, button, toggle
    key: str
    values: tuple[int, int] = (1, 0)  # option positions (seg, select); unused otherwise
    target: str = "painted"
    main: bool = False  # measured in --quick mode
    prepare: tuple[tuple[str, str, int], ...] = ()  # (kind, key, value) set before timing


@dataclass(frozen=True)
class Page:
    path: str  # url path ("" is the home page)
    changes: tuple[Change, ...] = ()


LANG = Change("language", "seg", "lang", (1, 0))
PAGES = (
    Page("", (Change("language", "seg", "lang", (1, 0), main=True),)),
    Page(
        "lesson",
        (
            Change(
                "next / previous",
                "buttons",
                "lesson.prev|lesson.next",
                target="lesson",
                main=True,
                prepare=(("seg", "lesson.step", 4),),
            ),
            Change("step", "seg", "lesson.step", (7, 2), target="lesson"),
            Change("head", "select", "lesson.head", (4, 2), prepare=(("seg", "lesson.step", 7),)),
            LANG,
        ),
    ),
    Page(
        "train-tokenizer",
        (
            Change(
                "step k",
                "slider",
                "tok.train.k",
                main=True,
                prepare=(("button", "tok.train.go", 0),),
            ),
            Change("algorithm", "select", "tok.train.algo", (1, 0)),
        ),
    ),
    Page(
        "text-to-ids",
        (
            Change("tokenizer", "select", "tok.encode.source", (1, 0), main=True),
            Change("special tokens", "toggle", "tok.encode.specials"),
            LANG,
        ),
    ),
    Page(
        "token-embeddings",
        (
            Change("model source", "seg", "emb.tokens.source", (0, 2), main=True),
            Change(
                "map k", "slider", "emb.tokens.k", prepare=(("toggle-on", "emb.tokens.map", 1),)
            ),
        ),
    ),
    Page(
        "position-encodings",
        (
            Change("scheme", "seg", "emb.pos.scheme", (1, 0), main=True),
            Change("clip", "slider", "emb.pos.clip"),
        ),
    ),
    Page(
        "embedding-sum",
        (
            Change("token", "select", "emb.sum.pick", (3, 1), main=True),
            Change("dims", "slider", "emb.sum.dims"),
            Change("model source", "seg", "emb.sum.source", (0, 2)),
        ),
    ),
    Page(
        "sequence-models",
        (
            # hidden states (3 charts) <-> gradient over distance, then the steps view's table
            Change("view", "seg", "seq.view", (2, 0), main=True),
            Change("view (steps)", "seg", "seq.view", (1, 0)),
            LANG,
        ),
    ),
    Page(
        "attention",
        (
            Change("head", "select", "attn.head", (4, 0), main=True),
            Change("layer", "select", "attn.layer", (3, 0), main=True),
            Change("query", "select", "attn.query", (3, 0)),
            Change("view", "seg", "attn.view", (1, 0), main=True),
            Change("model source", "seg", "attn.source", (0, 2)),
            LANG,
        ),
    ),
    Page(
        "inside-the-encoder",
        (
            Change("token", "select", "enc.token", (4, 1), main=True),
            Change("layer", "select", "enc.layer", (3, 0), main=True),
            Change("view", "seg", "enc.view", (1, 0), main=True),
            Change(
                "layer (mixing)", "select", "enc.layer", (3, 0), prepare=(("seg", "enc.view", 1),)
            ),
            LANG,
        ),
    ),
    Page(
        "bert-inputs",
        (Change("max length", "slider", "inputs.max_len", main=True),),
    ),
    Page("train-model", (Change("edit sizes", "toggle", "train.edit", main=True),)),
    Page("decoder", (Change("corpus", "seg", "dec.lang", (1, 0), main=True), LANG)),
    Page(
        "similarity",
        (
            Change("view", "seg", "sim.view", (1, 0), main=True),
            Change("pooling", "seg", "sim.pooling", (1, 0)),
        ),
    ),
)


def css_key(key: str) -> str:
    """The class Streamlit gives a keyed widget's box: `.st-key-attn-head` for "attn.head"."""
    return ".st-key-" + key.replace(".", "-")


def free_port(wanted: int | None) -> int:
    for port in [wanted] if wanted else PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Server:
    """`streamlit run app.py` as the README says, on `port`; `started` is the monotonic start.
    `app`: another app to serve the same way (the floor, bench/floor_app.py)."""

    def __init__(self, port: int, app: Path = ROOT / "app.py", env: dict | None = None) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.log = tempfile.TemporaryFile()
        self.trace = Path(tempfile.mkstemp(prefix="page-latency-", suffix=".trace")[1])
        hooks = str(ROOT / "bench" / "server_trace")  # its sitecustomize: the server-side clock
        path = os.pathsep.join(p for p in (hooks, os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": path,
               "EXPLORER_BENCH_TRACE": str(self.trace), **(env or {})}  # fmt: skip
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", app.name, "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1",
             "--browser.gatherUsageStats", "false"],
            cwd=app.parent, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as resp:
                    if resp.read().decode().strip() == "ok":
                        return
            except OSError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.log.seek(0)
        raise SystemExit("streamlit did not start:\n" + self.log.read().decode()[-3000:])

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        self.trace.unlink(missing_ok=True)

    def script_time(self, since: float, until: float) -> float | None:
        """Server-side ms from the first rerun request after `since` to the last run that ended
        by `until` (bench/server_trace); None when the server logged no such pair."""
        asked, ended = None, None
        for line in self.trace.read_text(encoding="utf-8").splitlines():
            stamp, event, *status = line.split()
            at = float(stamp)
            if at < since or at > until:
                continue
            if event == "rerun" and asked is None:
                asked = at
            elif event == "finished" and asked is not None and int(status[0]) in DONE:
                ended = at
        return (ended - asked) * 1000 if asked is not None and ended is not None else None


@dataclass
class Wire:
    """The websocket traffic of one tab: when each rerun was asked for and when each run ended."""

    sent: list[float] = field(default_factory=list)  # rerun_script BackMsgs
    finished: list[tuple[float, int]] = field(default_factory=list)  # (time, status)

    def attach(self, page) -> None:  # noqa: ANN001 - a Playwright Page
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        def on_socket(ws) -> None:  # noqa: ANN001
            def sent(payload) -> None:  # noqa: ANN001
                if isinstance(payload, bytes):
                    msg = BackMsg.FromString(payload)
                    if msg.WhichOneof("type") == "rerun_script":
                        self.sent.append(time.monotonic())

            def received(payload) -> None:  # noqa: ANN001
                if isinstance(payload, bytes):
                    msg = ForwardMsg.FromString(payload)
                    if msg.WhichOneof("type") == "script_finished":
                        self.finished.append((time.monotonic(), msg.script_finished))

            ws.on("framesent", sent)
            ws.on("framereceived", received)

        page.on("websocket", on_socket)


DONE = (0, 3)  # FINISHED_SUCCESSFULLY, FINISHED_FRAGMENT_RUN_SUCCESSFULLY


class Tab:
    def __init__(self, page, server: Server) -> None:  # noqa: ANN001 - a Playwright Page
        self.page, self.server, self.base, self.wire = page, server, server.url, Wire()
        self.round_trips: list[float] = []  # the websocket's server times, as the browser saw them
        self.wire.attach(page)
        self.errors: list[str] = []
        self.clicked = 0.0  # time.monotonic() of the last click that asked for a run

    def pace(self) -> None:
        """Wait until PACE seconds have passed since the last click."""
        time.sleep(max(0.0, self.clicked + PACE - time.monotonic()))
        self.clicked = time.monotonic()

    def settle(self, since: float, timeout: float = 120) -> tuple[float | None, float]:
        """Wait for the first run that ends well after `since`, then for the paint.

        Returns (server ms from the first rerun request after `since`, painted ms since `since`).
        """
        deadline = since + timeout
        done = None
        while done is None:
            if not any(at >= since for at in self.wire.sent) and time.monotonic() > since + 10:
                raise TimeoutError("the action asked for no rerun")
            ended = [at for at, status in self.wire.finished if at > since and status in DONE]
            if ended:
                done = ended[0]
            elif time.monotonic() > deadline:
                raise TimeoutError("no script_finished")
            else:
                self.page.wait_for_timeout(5)
        # a run may ask for another (st.rerun): wait until the page is idle and painted
        stamp = self.page.evaluate(PAINTED_AT, timeout * 1000)
        if stamp is None:
            raise TimeoutError("the page did not settle")
        painted = stamp / 1000 - WALL_MINUS_MONOTONIC
        asked = [at for at in self.wire.sent if since <= at <= done]
        server = (done - asked[0]) * 1000 if asked else None
        last = [at for at, status in self.wire.finished if at > since and status in DONE][-1]
        if asked and last > done:
            server = (last - asked[0]) * 1000
        if server is not None:
            self.round_trips.append(server)
        server = self.server.script_time(since, painted)
        errors = self.page.locator('[data-testid="stException"]').all_inner_texts()
        self.errors += [e[:200] for e in errors]
        return server, (painted - since) * 1000

    def goto(self, path: str) -> float:
        since = time.monotonic()
        self.page.goto(f"{self.base}/{path}")
        return self.settle(since)[1]

    def nav(self, path: str, paced: bool = True) -> tuple[float | None, float]:
        """Click the page's link in the sidebar navigation (`paced`: at a person's pace)."""
        link = self.page.locator(f'[data-testid="stSidebarNav"] a[href="{self.base}/{path}"]')
        link.first.scroll_into_view_if_needed()
        if paced:
            self.pace()
        since = time.monotonic()
        link.first.click()
        return self.settle(since)

    def exists(self, key: str) -> bool:
        return self.page.locator(css_key(key.split("|")[0])).count() > 0

    def act(self, kind: str, key: str, value: int) -> tuple[float | None, float]:
        """Operate widget `key`; returns (server ms, painted ms)."""
        if kind == "buttons":  # "a|b": value 0 presses a, 1 presses b
            kind, key, value = "button", key.split("|")[value], 0
        box = self.page.locator(css_key(key)).first
        box.scroll_into_view_if_needed()
        self.pace()
        if kind == "select":
            box.locator('button[aria-haspopup="listbox"]').first.click()
            option = self.page.locator('[role="option"]').nth(value)
            option.wait_for()
            since = time.monotonic()
            option.click()
        elif kind == "slider":
            box.locator('[role="slider"], input[type="range"]').first.focus()
            since = time.monotonic()
            self.page.keyboard.press("ArrowRight" if value else "ArrowLeft")
        else:
            target = {
                "seg": lambda: box.locator("button").nth(value),
                "button": lambda: box.locator("button").first,
                "toggle": lambda: box.locator("label").first,
                "toggle-on": lambda: box.locator("label").first,
            }[kind]()
            if kind == "toggle-on" and box.locator("input").first.is_checked():
                return None, 0.0
            since = time.monotonic()
            target.click()
        return self.settle(since)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: `percentile([1, 2, 3, 4], 0.5)` is 2."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {"n": len(values), "p50": statistics.median(values), "p95": percentile(values, 0.95)}


def cold_start(
    playwright, port: int, pages: list[Page], read: float, drop: bool,  # noqa: ANN001
    app: Path = ROOT / "app.py",
) -> dict:  # fmt: skip
    """Server start to the first painted page, then the first visit of each page, clicked `read`
    seconds after the page before it was painted (ms). The browser is a new one with an empty
    profile each time, a person opening the app for the first time: its cache holds none of
    Streamlit's code (a second visit in the same profile started ~0.6 s sooner). `drop`: the
    operating system's file cache is emptied once the browser runs, so the server reads Python,
    torch and MiniLM from disk, as on the first start after a machine boots."""
    with tempfile.TemporaryDirectory() as profile:
        context = launch(playwright, profile)
        page = context.new_page()
        if drop:
            drop_file_cache()
        server = Server(port, app)
        try:
            server.wait_healthy()
            tab = Tab(page, server)
            tab.page.goto(f"{server.url}/")
            result = {"start": tab.settle(server.started)[1]}
            for spec in pages:
                if spec.path:
                    time.sleep(read)
                    result[spec.path] = tab.nav(spec.path, paced=False)[1]
            result["errors"] = len(tab.errors)
            return result
        finally:
            context.close()
            server.stop()


def launch(playwright, profile: str):  # noqa: ANN001, ANN201 - Playwright's objects
    return playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 1400, "height": 1000},
    )  # fmt: skip


DROP_CACHES = Path("/proc/sys/vm/drop_caches")


def drop_file_cache() -> None:
    """Empty the kernel's page cache (root only; `--drop-caches` checks that first)."""
    os.sync()
    DROP_CACHES.write_text("3\n")


def quietly(tab: Tab, kind: str, key: str, value: int) -> None:
    """Set a widget untimed; a control already at `value` asks for no rerun, which is fine."""
    try:
        if tab.exists(key):
            tab.act(kind, key, value)
    except Exception:  # noqa: BLE001 - e.g. TimeoutError: no rerun, the widget was there already
        pass


def wait_warm(tab: Tab, seconds: float) -> None:
    """The widget and switch targets are for a warm server: wait until this tab has loaded the
    chart code (the shell's preload, once the first page has been read) and `seconds` have passed
    since the server started (its warm-up ends ~3-4 s after the first page on this machine).
    Measured at once, the first clicks fell on both and read up to 1.4 s."""
    tab.page.wait_for_function(PLOTLY_LOADED, timeout=60_000)
    time.sleep(max(1.0, tab.server.started + seconds - time.monotonic()))


FLOOR_PAGES = tuple(
    Page(path, (Change("view", "seg", f"floor{i}.view", (1, 0), main=True),))
    for i, path in enumerate(floor_paths(), start=1)
)  # the floor's own walk: its one control per page, then the same page switches
PLOTLY_LOADED = """() => performance.getEntriesByType('resource')
    .some((entry) => entry.name.includes('/PlotlyChart.'))"""


def warm_page(
    tab: Tab, spec: Page, reps: int, quick: bool, query: str = "", only: tuple[str, ...] = ()
) -> dict[str, dict]:
    """Every change of one page, `reps` times each (alternating between its two values).
    `query`: open the page by its URL with this query string (a new session) instead of the
    sidebar; `only`: measure just the changes of these names."""
    if query:
        tab.goto(f"{spec.path}?{query}")
    else:
        tab.nav(spec.path) if spec.path else tab.goto("")
    rows: dict[str, dict] = {}
    for change in spec.changes:
        if (quick and not change.main) or (only and change.name not in only):
            continue
        for kind, key, value in change.prepare:
            quietly(tab, kind, key, value)
        if not tab.exists(change.key):
            rows[change.name] = {"missing": change.key}
            continue
        server, painted, trips = [], [], len(tab.round_trips)
        warm = change.values[0] if change.kind != "slider" else 0  # a slider: one step left
        quietly(tab, change.kind, change.key, warm)  # warm-up: both values cached
        try:
            for rep in range(reps):
                side = (rep + 1) % 2  # 0, 1: the two values (a slider: right, then left)
                position = change.values[side] if change.kind != "slider" else side
                took_server, took_painted = tab.act(change.kind, change.key, position)
                if took_server is not None:
                    server.append(took_server)
                painted.append(took_painted)
        except Exception as err:  # noqa: BLE001 - a benchmark reports and goes on
            tab.errors.append(f"/{spec.path} {change.name}: {err}"[:300])
        rows[change.name] = {"target": change.target, "server": server, "painted": painted,
                             "round_trip": tab.round_trips[trips:]}  # fmt: skip
    return rows


def page_switches(tab: Tab, pages: list[Page], reps: int) -> dict[str, list[float]]:
    """Visit every page `reps` times through the sidebar (painted ms per target page)."""
    times: dict[str, list[float]] = {spec.path or "home": [] for spec in pages}
    for _ in range(reps):
        for spec in pages:
            times[spec.path or "home"].append(tab.nav(spec.path)[1])
    return times


def fmt(stats: dict[str, float], target: float | None) -> str:
    if not stats:
        return f"{'-':>8} {'-':>8}"
    mark = "" if target is None or stats["p95"] <= target else " *"
    return f"{stats['p50']:8.0f} {stats['p95']:8.0f}{mark}"


def report(result: dict) -> None:
    print(f"\nload average at start: {result['load_start']}, at end: {result['load_end']}")
    print("times in ms; p50 p95 per column; * = p95 above the issue's target\n")
    for path, rows in result["changes"].items():
        switch = summary(result["switches"].get(path or "home", []))
        print(f"== page /{path}")
        print(f"   {'change':<16} {'server p50':>10} {'p95':>8}  {'painted p50':>11} {'p95':>8}"
              f"  {'round trip p50':>14} {'p95':>6}")  # fmt: skip
        for name, row in rows.items():
            if "missing" in row:
                print(f"   {name:<16} (no widget {row['missing']} on this page)")
                continue
            painted_target = TARGETS[row["target"]]
            print(f"   {name:<16} {fmt(summary(row['server']), TARGETS['server']):>19}  "
                  f"{fmt(summary(row['painted']), painted_target):>20}  "
                  f"{fmt(summary(row.get('round_trip', [])), None):>19}")  # fmt: skip
        print(f"   {'page switch':<16} {'':>19}  {fmt(switch, TARGETS['switch']):>20}")
    every = [ms for times in result["switches"].values() for ms in times]
    print(f"\npage switches, all pages pooled (n={len(every)}): "
          f"{fmt(summary(every), TARGETS['switch'])}")  # fmt: skip
    cold = summary([c["start"] for c in result["cold"]])
    files = "files read from disk" if result["drop_caches"] else "files in the OS cache"
    print(f"\ncold start to first painted page (a new server, a new browser, {files}): "
          f"{fmt(cold, TARGETS['cold'])}")  # fmt: skip
    print(f"first visit of each page after a cold start, clicked {result['read']:g} s after the "
          f"page before it was painted (n={len(result['cold'])}):")  # fmt: skip
    for spec in PAGES:
        if spec.path:
            first = summary([c[spec.path] for c in result["cold"] if spec.path in c])
            print(f"   /{spec.path:<19} {fmt(first, TARGETS['first']):>20}")
    if result["errors"]:
        print(f"\nexceptions shown on pages: {result['errors'][:5]}")


def walk(
    playwright, port: int, pages: list[Page], cold_pages: list[Page], app: Path,  # noqa: ANN001
    args: argparse.Namespace, cold_reps: int,
) -> dict:  # fmt: skip
    """One app's measurements: cold starts (first visits of `cold_pages`), then on one warm server
    the changes of `pages` and the page switches. The real app and the floor go through this."""
    result: dict = {"cold": [], "changes": {}, "switches": {}, "errors": []}
    for _ in range(cold_reps):
        result["cold"].append(cold_start(playwright, port, cold_pages, args.read,
                                         args.drop_caches, app))  # fmt: skip
        print(f"cold start: {result['cold'][-1]}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as profile:
        context = launch(playwright, profile)
        server = Server(port, app)
        try:
            server.wait_healthy()
            tab = Tab(context.new_page(), server)
            tab.goto("")
            wait_warm(tab, WARM_AFTER)
            for spec in pages:
                print(f"page /{spec.path} ...", file=sys.stderr)
                result["changes"][spec.path] = warm_page(tab, spec, args.reps, args.quick)
            cycles = max(2, -(-10 // len(pages))) if args.quick else args.reps  # >= 10 switches
            result["switches"] = page_switches(tab, pages, cycles)
            result["errors"] = tab.errors
        finally:
            server.stop()
            context.close()
    return result


def ratio(stats: dict[str, float], floor: float, key: str = "p95") -> str:
    return f"{stats[key] / floor:8.2f}" if stats else f"{'-':>8}"


def report_ratios(result: dict) -> None:
    """Every p95 above (and the cold start's p50) as a multiple of the floor's page-switch p95:
    the bare six-page app of bench/floor_app.py, walked the same way in the same run."""
    floor = result["floor"]
    floor_switch = summary([ms for times in floor["switches"].values() for ms in times])
    if not floor_switch:
        print("\nthe floor app gave no page switch: no ratios")
        return
    unit = floor_switch["p95"]
    print(f"\n== as multiples of the floor's page-switch p95 ({unit:.0f} ms: a bare 6-page"
          " Streamlit app, title, paragraph, segmented control, 12x12 plotly heatmap, table;"
          " the same browser walk, in the same run)")  # fmt: skip
    print(f"   {'page':<24} {'change':<16} {'server':>8} {'painted':>8} {'switch':>8}"
          f" {'first':>8}")  # fmt: skip
    for label, app in (("", result), ("floor ", floor)):
        firsts = {path: summary([c[path] for c in app["cold"] if path in c])
                  for path in app["changes"]}  # fmt: skip
        for path, rows in app["changes"].items():
            switch = summary(app["switches"].get(path or "home", []))
            first = ratio(firsts[path], unit) if path else f"{'-':>8}"
            for name, row in rows.items():
                if "missing" in row:
                    continue
                print(
                    f"   {label + '/' + path:<24} {name:<16} "
                    f"{ratio(summary(row['server']), unit)} "
                    f"{ratio(summary(row['painted']), unit)} {ratio(switch, unit)} {first}"
                )
                switch, first = {}, f"{'-':>8}"  # once per page
        every = summary([ms for times in app["switches"].values() for ms in times])
        cold = summary([c["start"] for c in app["cold"]])
        print(f"   {label + 'all pages':<24} {'page switch':<16} {'':>8} {'':>8} "
              f"{ratio(every, unit)}")  # fmt: skip
        print(f"   {label + 'cold start (p50)':<24} {'first paint':<16} {'':>8} "
              f"{ratio(cold, unit, 'p50')}")  # fmt: skip


# ---- --opened: a base-sized model opened from this machine, against MiniLM -------------------

OPENED_CHANGES = {"attention": ("head", "layer", "view"),
                  "inside-the-encoder": ("token", "layer", "view")}  # fmt: skip
SOURCE_KEYS = {"attention": "attn.source", "inside-the-encoder": "enc.source"}
OPENED = "opened"  # the source's code (explorer_core/ui/settings.py: OPENED)
OPENED_TARGET = 1.5  # the issue's: a switch with the big model at most 1.5x MiniLM's (p95)


def rss_mb(pid: int) -> float:
    """The process's resident memory (MB, 10**6 bytes) from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e6
    return float("nan")


def server_sizes(server: Server) -> dict[str, int]:
    """The opened models' bytes as the server last logged them (bench/server_trace)."""
    sizes: dict[str, int] = {}
    for line in server.trace.read_text(encoding="utf-8").splitlines():
        if line.split(" ", 2)[1:2] == ["sizes"]:
            sizes = json.loads(line.split(" ", 2)[2])
    return sizes


def model_query(path: str, source: str, ref: str | None) -> str:
    """`attn.source=opened&model=<folder>`: a link that opens the page on that model."""
    from urllib.parse import quote

    query = f"{SOURCE_KEYS[path]}={source}"
    return query + (f"&model={quote(ref, safe='')}" if ref else "")


def opened_switches(tab: Tab, source: str, ref: str | None, reps: int) -> dict[str, dict]:
    """The view switches of Attention and Inside the encoder on one model (server ms)."""
    rows = {}
    for spec in PAGES:
        if spec.path in OPENED_CHANGES:
            print(f"  /{spec.path} on {ref or source} ...", file=sys.stderr)
            query = model_query(spec.path, source, ref)
            rows[spec.path] = warm_page(tab, spec, reps, False, query, OPENED_CHANGES[spec.path])
    return rows


def shows(tab: Tab, name: str) -> bool:
    """Whether the page names the model (its caption), i.e. it opened rather than refused."""
    return tab.page.get_by_text(name, exact=False).count() > 0


def first_paint(tab: Tab, path: str) -> tuple[float | None, float]:
    """Open `path` in `tab` by its URL (a new session): (server ms of its first run, painted ms)."""
    since = time.monotonic()
    tab.page.goto(f"{tab.base}/{path}")
    return tab.settle(since)


def open_one(context, tab: Tab, folder: Path, params: int) -> dict:  # noqa: ANN001
    """First paint of Attention on `folder`, cold (this server never loaded it) in `tab`, then
    warm in a second tab, each after the same first paint on MiniLM (the reference); the
    server's RSS before and after, and the bytes the server counts for the model."""
    server, query = tab.server, model_query("attention", OPENED, str(folder))
    minilm = f"attention?{model_query('attention', 'pretrained', None)}"
    out: dict = {"params": params, "param_bytes": 4 * params}
    out["minilm_cold"] = first_paint(tab, minilm)  # a new session; MiniLM loaded long ago
    out["rss_before"] = rss_mb(server.proc.pid)
    out["cold"] = first_paint(tab, f"attention?{query}")
    out["rss_after"] = rss_mb(server.proc.pid)
    if not shows(tab, folder.name):
        tab.errors.append(f"attention did not show {folder.name} (cold)")
    second = Tab(context.new_page(), server)
    try:
        # subtle: a new tab's first page also pays for the tab itself (the app's code parsed,
        # its websocket opened): untimed once, or the first of the two timed paints carries it
        first_paint(second, minilm)
        out["minilm_warm"] = first_paint(second, minilm)
        out["warm"] = first_paint(second, f"attention?{query}")
        if not shows(second, folder.name):
            tab.errors.append(f"attention did not show {folder.name} (warm)")
    finally:
        second.page.close()
    tab.errors += second.errors
    out["rss_settled"] = rss_mb(server.proc.pid)
    sizes = server_sizes(server)
    out["server_bytes"] = next((b for key, b in sizes.items() if folder.name in key), None)
    return out


def opened_walk(playwright, port: int, families: list[str], args: argparse.Namespace) -> dict:  # noqa: ANN001
    """One server (EXPLORER_MODEL_DIRS: a temporary folder holding the base-sized models): each
    model opened (cold, then warm in a second tab), then `args.rounds` rounds of the switches,
    MiniLM's first and then each model's, so a drift of the machine's load falls on both."""
    from bench.big_models import big_model

    result: dict = {"load_start": load(), "reps": args.reps, "rounds": args.rounds,
                    "families": families, "models": {}, "minilm": [], "errors": []}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="explorer-models-") as models, \
            tempfile.TemporaryDirectory() as profile:  # fmt: skip
        built = {}
        for family in families:
            print(f"building a {family}-base-sized model ...", file=sys.stderr)
            built[family] = big_model(family, Path(models) / f"{family}-base-random")
        context = launch(playwright, profile)
        # subtle: the background build of MiniLM + 中文 (ui/taught/autobuild) trains in the
        # server's interpreter on an install where it is not built yet: off, or it is measured
        env = {"EXPLORER_MODEL_DIRS": models, "EXPLORER_TAUGHT": "off"}
        server = Server(port, env=env)
        try:
            server.wait_healthy()
            tab = Tab(context.new_page(), server)
            tab.goto("")
            wait_warm(tab, WARM_AFTER)
            result["rss_warm"] = rss_mb(server.proc.pid)
            for family, (folder, params) in built.items():
                print(f"{family}: open ...", file=sys.stderr)
                result["models"][family] = open_one(context, tab, folder, params)
                result["models"][family]["switches"] = []
            for rnd in range(args.rounds):
                print(f"round {rnd + 1}: MiniLM ...", file=sys.stderr)
                result["minilm"].append(opened_switches(tab, "pretrained", None, args.reps))
                for family, (folder, _) in built.items():
                    passes = result["models"][family]["switches"]
                    passes.append(opened_switches(tab, OPENED, str(folder), args.reps))
            result["rss_end"] = rss_mb(server.proc.pid)
            result["errors"] = tab.errors
        finally:
            server.stop()
            context.close()
    result["load_end"] = load()
    return result


def pooled(runs: list[dict], path: str, name: str) -> list[float]:
    return [ms for run in runs for ms in run.get(path, {}).get(name, {}).get("server", [])]


def report_opened(result: dict) -> None:
    print(f"\nload average at start: {result['load_start']}, at end: {result['load_end']}")
    print(f"server ms (bench/server_trace: rerun asked -> script_finished), p50 / p95 over"
          f" {result['rounds']} rounds x {result['reps']} switches, MiniLM's and each model's"
          f" rounds interleaved; per round: each round's p95; ratio = big / MiniLM;"
          f" * = p95 ratio above {OPENED_TARGET}\n")  # fmt: skip
    for family, opened in result["models"].items():
        print(f"== {family}-base-sized ({opened['params'] / 1e6:.1f} M parameters, random) against"
              " all-MiniLM-L6-v2, same server, same run")  # fmt: skip
        print(f"   {'page':<20} {'change':<7} {'MiniLM p50':>10} {'p95':>6} {'per round':>10}"
              f" {family + ' p50':>14} {'p95':>6} {'per round':>10} {'ratio p50':>9}"
              f" {'p95':>6}")  # fmt: skip
        for path, names in OPENED_CHANGES.items():
            for name in names:
                cells = []
                for runs in (result["minilm"], opened["switches"]):
                    rounds = [summary(pooled([run], path, name)) for run in runs]
                    each = "/".join(f"{r['p95']:.0f}" if r else "-" for r in rounds)
                    cells.append((summary(pooled(runs, path, name)), each))
                (ref, ref_each), (big, big_each) = cells
                if not ref or not big:
                    print(f"   /{path:<19} {name:<7} (no samples)")
                    continue
                mark = " *" if big["p95"] / ref["p95"] > OPENED_TARGET else ""
                print(f"   /{path:<19} {name:<7} {ref['p50']:10.0f} {ref['p95']:6.0f}"
                      f" {ref_each:>10} {big['p50']:14.0f} {big['p95']:6.0f} {big_each:>10}"
                      f" {big['p50'] / ref['p50']:9.2f} {big['p95'] / ref['p95']:6.2f}"
                      f"{mark}")  # fmt: skip
        print(
            "   first paint of /attention?attn.source=opened&model=<folder>, a new session"
            " (server ms of its first run / painted ms), after the same on MiniLM:"
        )
        for when, label in (("cold", "cold: this server's first open"),
                            ("warm", "warm: a second tab, loaded")):  # fmt: skip
            (server, painted), (m_server, m_painted) = opened[when], opened[f"minilm_{when}"]
            print(f"     {label:<32} {family}: {server or float('nan'):6.0f} / {painted:6.0f}"
                  f"   MiniLM: {m_server or float('nan'):6.0f} / {m_painted:6.0f}"
                  f"   ratio painted {painted / m_painted:5.2f}")  # fmt: skip
        counted = opened["server_bytes"] / 1e6 if opened["server_bytes"] else float("nan")
        grown = opened["rss_after"] - opened["rss_before"]
        print(f"   memory: server RSS {opened['rss_before']:.0f} MB before the open,"
              f" {opened['rss_after']:.0f} MB after (+{grown:.0f}),"
              f" {opened['rss_settled']:.0f} MB after the warm tab; parameter bytes"
              f" {opened['param_bytes'] / 1e6:.0f} MB (4 x parameters), the server's"
              f" memory().sizes(): {counted:.0f} MB\n")  # fmt: skip
    print(f"server RSS once warm (MiniLM loaded, nothing opened): {result['rss_warm']:.0f} MB;"
          f" at the end: {result.get('rss_end', float('nan')):.0f} MB")  # fmt: skip
    if result["errors"]:
        print(f"\nexceptions or refusals: {result['errors'][:5]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--cold-reps", type=int, default=None, help="default 3 (1 with --quick)")
    parser.add_argument("--quick", action="store_true", help="main change per page, one cold start")
    parser.add_argument(
        "--read", type=float, default=1.0, help="cold start: seconds from a paint to the next click"
    )
    parser.add_argument(
        "--drop-caches", action="store_true",
        help="cold start: empty the OS file cache before each server start (root only)",
    )  # fmt: skip
    parser.add_argument("--pages", default="", help="comma-separated url paths (home: 'home')")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--json", type=Path, default=ROOT / "artifacts" / "page_latency.json")
    parser.add_argument(
        "--opened", default="",
        help="only the opened-model mode: comma-separated families of base size (bert, modernbert)",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=2, help="--opened: rounds of switches")
    parser.add_argument(
        "--compare", nargs=2, type=Path, metavar=("OLD", "NEW"),
        help="print the before / after table of two --json files (bench/page_compare.py); no run",
    )  # fmt: skip
    args = parser.parse_args()
    if args.compare:
        from bench.page_compare import main as compare

        compare(*args.compare)
        return
    if args.opened:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            families = [f.strip() for f in args.opened.split(",") if f.strip()]
            result = opened_walk(p, free_port(args.port), families, args)
        path = args.json.with_name(args.json.stem + "_opened.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=1))
        report_opened(result)
        print(f"\nall samples: {path}")
        return
    if args.drop_caches and not os.access(DROP_CACHES, os.W_OK):
        raise SystemExit(f"--drop-caches: {DROP_CACHES} is not writable (run as root)")
    wanted = {p.strip() for p in args.pages.split(",") if p.strip()}
    pages = [p for p in PAGES if not wanted or (p.path or "home") in wanted]
    cold_reps = args.cold_reps if args.cold_reps is not None else (1 if args.quick else 3)
    from playwright.sync_api import sync_playwright

    result = {"load_start": load(), "reps": args.reps, "quick": args.quick, "read": args.read,
              "drop_caches": args.drop_caches, "cold": [], "changes": {}, "switches": {},
              "errors": []}  # fmt: skip
    with tempfile.TemporaryDirectory() as floor_dir, sync_playwright() as p:
        port = free_port(args.port)
        result |= walk(p, port, pages, list(PAGES), ROOT / "app.py", args, cold_reps)
        floor = write_floor_app(Path(floor_dir))
        print("the floor app ...", file=sys.stderr)
        result["floor"] = walk(p, port, list(FLOOR_PAGES), list(FLOOR_PAGES), floor, args,
                               cold_reps)  # fmt: skip
    result["errors"] = result["errors"] + result["floor"]["errors"]
    result["load_end"] = load()
    report(result)
    report_ratios(result)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1))
    print(f"\nall samples: {args.json}")


if __name__ == "__main__":
    main()
