"""What a chart change costs the browser as Streamlit draws it, and what drawing it otherwise would
save: the app's own figures, replayed in plotly.js alone.

Streamlit 1.67's `st.plotly_chart` gives each chart an element id computed from its figure, and
the browser's element tree is keyed by that id: a chart whose numbers change (a token, a layer, a
head) is a new element. The old chart is unmounted and a new one mounted, never updated in place.
In `layout="wide"` the new one is drawn twice (first without a width, then at the column's width,
see bench/paint_profile.py). Plotly also draws again whenever a label, colour bar or legend
needs more margin than the figure gave it (`automargin`); every chart of the app does.

The benchmark serves the app the README's way, opens each page named in `--pages` in headless
Chromium, and for its main change (bench/page_latency.py's) captures every chart's figure as
plotly received it (Streamlit's theme applied) before and after the change. It then replays the
change A -> B -> A ... `--reps` times, in `--rounds` turns, on a blank page with plotly.js alone
(the copy the plotly Python package ships, which may be newer than Streamlit's), all of a page's
charts at once, at their own widths, in four ways:

- `streamlit`: a new chart per change, drawn first without a width, then at its width (what
  Streamlit 1.67 does);
- `streamlit, margins set`: the same, with each figure's margins set to those plotly settled on
  in the app, so no draw waits on `automargin` (what figures of ours could do on Streamlit as it
  is, were their margins known on the server);
- `mount once`: a new chart per change, drawn once at its width;
- `in place`: the mounted chart updated with `Plotly.react` (what a chart that kept its element
  id would cost; a change that adds or removes a chart mounts them all).

Printed: ms per change (median) and the ratio to `streamlit`. A benchmark, not a test: times
depend on the load (printed). It says how much of a chart change's browser time a chart drawn
by code of our own could save; it changes nothing in the app.

    python bench/chart_mount.py [--pages inside-the-encoder,attention] [--reps 8] [--rounds 3]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import page_latency as latency  # noqa: E402

MODES = ("streamlit", "streamlit, margins set", "mount once", "in place")
DEFAULT_PAGES = ("inside-the-encoder", "attention", "token-embeddings", "embedding-sum")
CAPTURE = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map((gd) => {
    const size = gd._fullLayout._size;
    return JSON.stringify({
        data: gd.data, layout: gd.layout, width: gd._fullLayout.width,
        settled: {l: size.l, r: size.r, t: size.t, b: size.b},
    }, (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value));
})"""
REPLAY = """
<!doctype html><html><body style="margin:0"><div id="host"></div>
<script src="plotly.min.js"></script>
<script>
const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
const copy = (value) => JSON.parse(JSON.stringify(value));
function spec(chart, mode, widthFirst) {
  const layout = copy(chart.layout);
  if (widthFirst) layout.width = chart.width; else delete layout.width;
  if (mode.endsWith("margins set")) layout.margin = {...(layout.margin || {}), ...chart.settled};
  return [copy(chart.data), layout];
}
window.replay = async (states, mode, reps) => {
  const host = document.getElementById("host");
  let divs = [];
  const mount = async (charts, twice) => {
    divs.forEach((d) => { Plotly.purge(d); d.remove(); });
    divs = charts.map((chart) => {
      const d = document.createElement("div");
      d.style.width = chart.width + "px";
      host.appendChild(d);
      return d;
    });
    const all = (draw, widthFirst) =>
      Promise.all(charts.map((c, i) => draw(divs[i], ...spec(c, mode, widthFirst))));
    if (twice) await all(Plotly.newPlot, false);
    await all(twice ? Plotly.react : Plotly.newPlot, true);
  };
  const change = async (charts) => {
    if (mode.startsWith("in place") && divs.length === charts.length)
      await Promise.all(charts.map((c, i) => Plotly.react(divs[i], ...spec(c, mode, true))));
    else await mount(charts, mode.startsWith("streamlit"));
  };
  await change(states[0]); await frame();
  const times = [];
  for (let r = 1; r <= reps; r++) {
    const start = performance.now();
    await change(states[r % 2]); await frame();
    times.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 150));
  }
  return times;
};
</script></body></html>
"""


def capture(playwright, port: int, paths: list[str]) -> dict[str, tuple[str, list, list]]:  # noqa: ANN001
    """{page: (change name, charts before, charts after)} from the app, served the README's way."""
    pages = {spec.path: spec for spec in latency.PAGES}
    found = {}
    with tempfile.TemporaryDirectory() as folder:
        context = latency.launch(playwright, folder)
        server = latency.Server(port)
        try:
            server.wait_healthy()
            tab = latency.Tab(context.new_page(), server)
            tab.goto("")
            latency.wait_warm(tab, latency.WARM_AFTER)
            for path in paths:
                print(f"page /{path} ...", file=sys.stderr)
                spec = pages[path]
                change = next(c for c in spec.changes if c.main)
                tab.nav(path)
                for kind, key, value in change.prepare:
                    latency.quietly(tab, kind, key, value)
                states = []
                for value in change.values:  # two positions, of any kind of control
                    latency.quietly(tab, change.kind, change.key, value)
                    time.sleep(0.5)  # the second draw and late layout
                    states.append([json.loads(c) for c in tab.page.evaluate(CAPTURE)])
                found[path] = (change.name, *states)
        finally:
            server.stop()
            context.close()
    return found


@contextlib.contextmanager
def blank_page(playwright, folder: Path):  # noqa: ANN001, ANN201 - Playwright's objects
    """A Chromium tab and the address of `folder`'s replay page, served over HTTP."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        with tempfile.TemporaryDirectory() as profile:
            context = latency.launch(playwright, profile)
            try:
                yield context.new_page(), f"http://127.0.0.1:{httpd.server_address[1]}/replay.html"
            finally:
                context.close()
    finally:
        httpd.shutdown()


def replay(page, url: str, states: tuple[list, list], reps: int, rounds: int) -> dict[str, float]:  # noqa: ANN001
    """Median ms per change in each mode; the modes take turns `rounds` times, so a change in
    the machine's load falls on all of them. Each turn reloads the blank page at `url`."""
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(rounds):
        for mode in MODES:
            page.goto(url)
            times[mode] += page.evaluate("([s, m, r]) => window.replay(s, m, r)",
                                         [list(states), mode, reps])  # fmt: skip
    return {mode: statistics.median(values) for mode, values in times.items()}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # noqa: ANN002
        pass


def plotly_js() -> tuple[Path, str]:
    """The plotly.js the plotly Python package ships, and its version."""
    import plotly

    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    head = path.read_text(encoding="utf-8", errors="replace")[:200]
    version = head.split("plotly.js v", 1)[1].split()[0] if "plotly.js v" in head else "?"
    return path, version


def row(name: str, medians: dict[str, float]) -> str:
    """One printed line: ms per mode and each as a share of Streamlit's way.

    >>> line = row("x", {"streamlit": 200.0, "streamlit, margins set": 160.0,
    ...                  "mount once": 150.0, "in place": 80.0})
    >>> line.split()
    ['x', '200', '(1.00)', '160', '(0.80)', '150', '(0.75)', '80', '(0.40)']
    """
    base = medians["streamlit"]
    cells = "".join(f"{medians[m]:6.0f} ({medians[m] / base:.2f})" for m in MODES)
    return f"   {name:<44}{cells}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", default=",".join(DEFAULT_PAGES), help="comma-separated paths")
    parser.add_argument("--reps", type=int, default=8, help="changes replayed in each mode")
    parser.add_argument("--rounds", type=int, default=3, help="turns of the modes, interleaved")
    parser.add_argument("--port", type=int, default=None)
    args = parser.parse_args()
    paths = [p.strip() for p in args.pages.split(",") if p.strip()]
    js, version = plotly_js()
    from playwright.sync_api import sync_playwright

    print(f"load average at start: {latency.load()}")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        found = capture(p, latency.free_port(args.port), paths)
        shutil.copy(js, Path(folder) / "plotly.min.js")
        (Path(folder) / "replay.html").write_text(REPLAY, encoding="utf-8")
        results = {}
        with blank_page(p, Path(folder)) as (page, url):
            for path, (change, before, after) in found.items():
                print(f"replaying /{path} ...", file=sys.stderr)
                name = f"/{path} {change} ({len(before)} charts)"
                results[name] = replay(page, url, (before, after), args.reps, args.rounds)
    print(f"load average at end: {latency.load()}\n")
    print(f"ms per change (median of {args.reps} x {args.rounds} rounds), plotly.js {version} "
          "alone; in brackets the share of Streamlit's way")  # fmt: skip
    heads = "".join(f"{mode.replace('streamlit, ', ''):>13}" for mode in MODES)
    print(f"   {'page, change':<44}{heads}")
    for name, medians in results.items():
        print(row(name, medians))


if __name__ == "__main__":
    main()
