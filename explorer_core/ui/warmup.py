"""Work done once per server, in the background, so that no visitor waits for it.

`start()` (called by app.py on every run; it starts one thread per server) imports torch and the
page modules, loads MiniLM (tokenizer and weights), runs it once on each page's default sentence
and trains the built-in tokenizers the Text -> tokens -> ids page compares, all through the same
cached functions the pages call. A page that needs one of them before the thread got there waits
on that cache (Streamlit computes each entry once) instead of doing the work twice.

Why in app.py's process and not at import: `streamlit run` imports nothing of ours before the
first visitor, and importing torch alone takes seconds; the shell and the home page need none of
it, so the first page is drawn while this thread works.
# subtle: the thread has no ScriptRunContext; it calls only cached functions (show_spinner=False)
# and never draws, reads st.session_state or calls t().
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import logging
import os
import threading
import time
from pathlib import Path

import streamlit as st

LOG = logging.getLogger(__name__)
# The first page of a fresh server is drawn before the warm-up begins: importing torch holds the
# interpreter lock for most of a second at a time, and run beside the first visitor's page it made
# the cold start 3.6-4.5 s instead of 1.9-2.1 s (bench/page_latency.py, this 2-core machine).
FIRST_PAGE_DRAWN = threading.Event()
FIRST_PAGE_WAIT = 5.0  # seconds the warm-up waits for that at most (a server nobody opens yet)
MODULES = (  # what the pages import, heaviest first: the first visit of a page pays none of it
    "torch", "explorer_core.bert.model", "explorer_core.ui.attention", "explorer_core.ui.embedding",
    "explorer_core.ui.lesson_screens", "explorer_core.ui.lesson_model_screens",
    "explorer_core.ui.tokens", "explorer_core.ui.positions",
    "explorer_core.viz.attention", "explorer_core.viz.embedding", "explorer_core.viz.tokens",
)  # fmt: skip


# The browser's half: Streamlit's frontend loads the code of a chart or table the first time a page
# shows one. The Plotly chunk alone is ~4.7 MB; parsing and running it took ~0.9 s of the first
# chart page's visit (text -> ids: painted 1.8 s, server 0.3 s; Chromium's JS profiler). The shell
# asks the browser to load both once per session, when it is idle after the first page.
STATIC_JS = Path(st.__file__).parent / "static" / "static" / "js"
CHUNKS = ("PlotlyChart", "DataFrame")  # file name prefixes of the frontend's lazily loaded code
PRELOADED = "app.chunks_preloaded"  # session key: the script went to this browser tab
PRELOAD_SCRIPT = """<script>(() => {
  const index = document.querySelector('script[src*="/static/js/index."]');
  if (!index) return;
  const load = () => __NAMES__.forEach(
    (name) => import(new URL(name, index.src).href).catch(() => {}));
  const app = document.querySelector('[data-testid="stApp"]');
  // once the first page is drawn (parsing must not delay it): at once, while it is being read,
  // so that ~0.9 s of parsing is over before a person's first click (a second or more later)
  const wait = () => {
    if (app && app.getAttribute("data-test-script-state") !== "notRunning") setTimeout(wait, 100);
    else setTimeout(() => ("requestIdleCallback" in window
      ? requestIdleCallback(load) : load()), 300);
  };
  wait();
})();</script>"""


@functools.cache
def chunk_files() -> tuple[str, ...]:
    """The installed Streamlit's files for `CHUNKS` (their names carry a content hash).

    tests/test_warmup.py fails when a Streamlit version renames them, instead of the preload
    going quiet."""
    found = (path.name for prefix in CHUNKS for path in STATIC_JS.glob(f"{prefix}.*.js"))
    return tuple(sorted(found))


def preload_chart_code() -> None:
    """Once per session (app.py, every run): let the browser load the chart and table code while
    the learner reads the first page, not when the first chart is asked for."""
    if st.session_state.get(PRELOADED) or not chunk_files():
        return
    st.session_state[PRELOADED] = True
    script = PRELOAD_SCRIPT.replace("__NAMES__", json.dumps(list(chunk_files())))
    st.html(script, unsafe_allow_javascript=True)


@st.cache_resource(max_entries=1, show_spinner=False)
def start() -> threading.Thread | None:
    """Start the warm-up thread once per server (later calls return the same thread).

    `EXPLORER_WARMUP=0` turns it off (the test suite's AppTest runs of app.py set it).
    """
    if os.environ.get("EXPLORER_WARMUP", "1") == "0":
        return None
    thread = threading.Thread(target=warm, name="explorer-warmup", daemon=True)
    thread.start()
    return thread


def page_drawn() -> None:
    """app.py calls this when a page script has run to its end (or stopped): the warm-up may go."""
    FIRST_PAGE_DRAWN.set()


def warm() -> dict[str, float]:
    """Do every step in order, once the first page is drawn; returns the seconds each took (a
    failing step is skipped: the page that needs it shows its own message when it runs)."""
    FIRST_PAGE_DRAWN.wait(FIRST_PAGE_WAIT)
    took: dict[str, float] = {}
    for name, step in STEPS:
        began = time.perf_counter()
        try:
            step()
        except Exception:  # noqa: BLE001 - e.g. MiniLM not installed: its pages say so
            LOG.log(logging.WARNING, "warm-up step %s failed", name, exc_info=True)
        took[name] = time.perf_counter() - began
    # Everything alive now (torch, MiniLM, the page modules, the caches) lives as long as the
    # server: freezing it takes it out of every later garbage collection. A full collection over
    # it took ~160 ms holding the interpreter lock (every session waits), more with a class.
    gc.freeze()
    LOG.log(logging.INFO, "warm-up done: %s", {k: round(v, 2) for k, v in took.items()})
    return took


def _torch() -> None:
    from explorer_core import runtime

    runtime.configure()  # subtle: right after torch's import, before any page's first tensor op


def _imports() -> None:
    for module in MODULES:
        importlib.import_module(module)


def _charts() -> None:
    """Build and serialise one heatmap and one bar chart: plotly loads its validators on first use
    (~0.8 s), which would otherwise fall on the first chart a visitor opens."""
    import numpy as np

    from explorer_core.viz import attention, embedding

    labels = attention.token_labels(["[CLS]", "warm", "[SEP]"])
    blank = dict.fromkeys(("title", "query_title", "key_title", "value_title"), "")  # never shown
    fig = attention.head_figure(np.eye(3), labels, **blank)
    attention.add_click_targets(fig, labels, (0, 0)).to_json()
    blank = dict.fromkeys(("title", "x_title", "y_title"), "")
    embedding.vector_bar(np.ones(3), **blank).to_json()


def _minilm() -> None:
    from explorer_core.ui import pretrained

    pretrained.minilm_tokenizer()
    pretrained.minilm_model()


def _default_runs() -> None:
    """MiniLM on the Attention page's and the guided lesson's default sentences (English)."""
    from explorer_core.ui import attention, lesson
    from explorer_core.ui.i18n import CATALOGUE, DEFAULT_LANGUAGE

    source = attention.model_source("pretrained")
    enc = attention.encode(source.tokenizer, [attention.DEFAULT_TEXT])
    attention.run_attention(source.key, source.model, *attention.batch_key(enc), False)
    row = lesson.tokens(CATALOGUE[DEFAULT_LANGUAGE]["lesson.default_text"])
    lesson.sentence_run(row.ids)


def _tokenizers() -> None:
    """The built-in tokenizers trained on the built-in corpus, and their corpus counts."""
    from explorer_core.tokenization import ALGORITHMS
    from explorer_core.ui import tokens

    for source in (tokens.BERT, *ALGORITHMS):
        tokenizer, count_key = tokens.resolve(source)
        tokens.corpus_counts(count_key, tokenizer)


STEPS = (
    ("torch", _torch), ("minilm", _minilm), ("imports", _imports), ("charts", _charts),
    ("runs", _default_runs), ("tokenizers", _tokenizers),
)  # fmt: skip
