"""Where a page switch's browser time goes: every page of the app and of the floor, in one run.

bench/page_latency.py says how long a click takes; this says what the browser's main thread does
in that time. Both apps are served the README's way (`streamlit run`), one after the other, and
walked by the same headless Chromium: on a warm server, each page is entered `--reps` times
through the sidebar from the app's first page (the home page; the floor's page 1), with V8's
sampling profiler (Chrome DevTools Protocol `Profiler`) running from the click until the page is
painted and `SETTLE` seconds more. Every sample's top frame is put in a bucket by the script that
holds it:

- plotly: Streamlit's PlotlyChart chunk (plotly.js and its React wrapper);
- dataframe: the DataFrame chunk (glide-data-grid);
- react: react-dom; emotion: the CSS-in-JS styling; markdown: StreamlitMarkdown;
- other JS: every other script (Streamlit's shell, widgets, the websocket, our chart preload);
- native: V8's "(program)", the browser's own code with no script frame on top. A Chrome trace
  of the lesson's switch (2026-12-04) put only 15 ms of the main thread in style and layout:
  read it as the browser's native work in general, not as layout; gc: the garbage collector.

Printed: one row per page, milliseconds of main-thread time per switch in each bucket (mean over
the repetitions), its painted time (median, under the profiler: slower than page_latency's), and
plotly's draws per chart. The last column is the page's total as a multiple of the floor's mean
total: the part of the click ratio that is the browser's work, not the server's or the wire's.

"draws per chart" counts plotly's `plotly_afterplot` events: 2.0 means each chart was drawn
twice. In `layout="wide"`, Streamlit's chart frame measures its width in an effect after the first
render, so plotly.js draws a newly mounted chart once at its own default size (hidden) and again at
the container's width; the floor pays it too. A benchmark, not a test: times depend on the load.

    python bench/paint_profile.py [--reps 3] [--pages token-embeddings,attention]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import page_latency as latency  # noqa: E402
from bench.floor_app import write_floor_app  # noqa: E402

BUCKETS = ("plotly", "dataframe", "react", "emotion", "markdown", "other JS", "native", "gc")
SCRIPTS = (("PlotlyChart.", "plotly"), ("DataFrame.", "dataframe"), ("react-dom.", "react"),
           ("emotion", "emotion"), ("StreamlitMarkdown.", "markdown"))  # fmt: skip
V8_FRAMES = {"(program)": "native", "(garbage collector)": "gc", "(idle)": None, "(root)": None}
SAMPLING_US = 250  # the profiler's interval (microseconds)
SETTLE = 0.6  # s profiled after the paint: plotly's second draw and late layout come after it
DRAW_COUNTER = """
window.__draws = [];
new MutationObserver(() => {
    document.querySelectorAll('.js-plotly-plot').forEach((gd) => {
        if (gd.__drawCounted || !gd.on) return;
        gd.__drawCounted = true;
        const chart = {draws: 0};
        window.__draws.push(chart);
        gd.on('plotly_afterplot', () => { chart.draws += 1; });
    });
}).observe(document, {subtree: true, childList: true});
"""


def bucket(url: str, function: str) -> str | None:
    """The bucket of a profile sample whose top frame is `function` in script `url`.

    >>> bucket("http://x/static/js/PlotlyChart.D9Z0.js", "L"), bucket("", "(program)")
    ('plotly', 'native')
    >>> bucket("http://x/static/js/index.Dm.js", "f"), bucket("", "(idle)")
    ('other JS', None)
    """
    if function in V8_FRAMES and not url:
        return V8_FRAMES[function]
    name = url.rsplit("/", 1)[-1]
    return next((label for prefix, label in SCRIPTS if name.startswith(prefix)), "other JS")


def bucket_times(profile: dict) -> collections.Counter:
    """Microseconds per bucket in one CDP `Profiler.stop` profile (self time of each sample)."""
    frames = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    spent: collections.Counter = collections.Counter()
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = frames[node_id]
        label = bucket(frame["url"], frame["functionName"])
        if label:
            spent[label] += delta
    return spent


def profile_page(tab: latency.Tab, cdp, spec: latency.Page, home: str, reps: int) -> dict:  # noqa: ANN001
    """Enter `spec` from `home` `reps` times, profiled; ms per bucket (mean), painted ms, draws."""
    tab.nav(spec.path)  # untimed: the page's data and code are warm before the first sample
    spent: collections.Counter = collections.Counter()
    painted, draws = [], []
    for _ in range(reps):
        tab.nav(home)
        # subtle: the way back's own late work (the floor's first page redraws its chart after
        # the paint) and the pause between clicks stay outside the profile: it starts at the click
        time.sleep(SETTLE)
        tab.pace()
        tab.page.evaluate("window.__draws.length = 0")
        cdp.send("Profiler.start")
        painted.append(tab.nav(spec.path, paced=False)[1])
        time.sleep(SETTLE)
        spent += bucket_times(cdp.send("Profiler.stop")["profile"])
        charts = tab.page.evaluate("window.__draws.map((chart) => chart.draws)")
        draws.append(statistics.mean(charts) if charts else 0.0)
    ms = {label: spent[label] / reps / 1000 for label in BUCKETS}
    return {"ms": ms, "total": sum(ms.values()), "painted": statistics.median(painted),
            "draws": statistics.mean(draws)}  # fmt: skip


def walk(playwright, port: int, pages: list[latency.Page], app: Path, reps: int) -> dict:  # noqa: ANN001
    """Every page of one app, profiled on one warm server (the first page is the way back)."""
    with tempfile.TemporaryDirectory() as folder:
        context = latency.launch(playwright, folder)
        context.add_init_script(DRAW_COUNTER)
        server = latency.Server(port, app)
        try:
            server.wait_healthy()
            tab = latency.Tab(context.new_page(), server)
            tab.goto(pages[0].path)
            latency.wait_warm(tab, latency.WARM_AFTER)
            cdp = context.new_cdp_session(tab.page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLING_US})
            rows = {}
            for spec in pages[1:]:
                print(f"page /{spec.path} ...", file=sys.stderr)
                rows[spec.path] = profile_page(tab, cdp, spec, pages[0].path, reps)
            return rows
        finally:
            server.stop()
            context.close()


def report(app: dict, floor: dict) -> None:
    unit = statistics.mean(row["total"] for row in floor.values())
    print(f"main-thread ms per page switch (mean), painted ms (median, profiled), plotly draws "
          f"per chart; x floor: the total over the floor's mean total ({unit:.0f} ms)")  # fmt: skip
    head = " ".join(f"{label:>9}" for label in BUCKETS)
    print(f"   {'page':<24} {head} {'total':>7} {'painted':>8} {'draws':>6} {'x floor':>8}")
    for label, rows in (("", app), ("floor ", floor)):
        for path, row in rows.items():
            cells = " ".join(f"{row['ms'][b]:9.0f}" for b in BUCKETS)
            print(
                f"   {label + '/' + path:<24} {cells} {row['total']:7.0f} "
                f"{row['painted']:8.0f} {row['draws']:6.2f} {row['total'] / unit:8.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3, help="profiled switches into each page")
    parser.add_argument("--pages", default="", help="comma-separated url paths (default: all)")
    parser.add_argument("--port", type=int, default=None)
    args = parser.parse_args()
    wanted = {p.strip() for p in args.pages.split(",") if p.strip()}
    pages = [latency.PAGES[0]] + [p for p in latency.PAGES[1:] if not wanted or p.path in wanted]
    from playwright.sync_api import sync_playwright

    print(f"load average at start: {latency.load()}")
    with tempfile.TemporaryDirectory() as floor_dir, sync_playwright() as p:
        port = latency.free_port(args.port)
        app = walk(p, port, pages, ROOT / "app.py", args.reps)
        print("the floor app ...", file=sys.stderr)
        floor_app = write_floor_app(Path(floor_dir))
        floor = walk(p, port, list(latency.FLOOR_PAGES), floor_app, args.reps)
    print(f"load average at end: {latency.load()}\n")
    report(app, floor)


if __name__ == "__main__":
    main()
