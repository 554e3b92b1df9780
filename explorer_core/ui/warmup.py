"""Work done once per server, in the background, so that no visitor waits for it.

`start()` (called by app.py on every run; it starts one thread per server) imports the torch-free
modules of the guided lesson and the tokenizer pages, loads the built-in tokenizers the
Text -> tokens -> ids page compares, then imports torch and the other page modules, loads MiniLM
(tokenizer and weights) and runs it once on each page's default sentence, all through the same
cached functions the pages call. A page that needs one of them before the thread got there waits
on that cache (Streamlit computes each entry once) instead of doing the work twice. While a
visitor's page script runs, the thread gives way to it (`visitor_script`, `give_way`).

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
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

from explorer_core.runtime import in_worker_process, start_thread

LOG = logging.getLogger(__name__)
# The first page of a fresh server is drawn before the warm-up begins: importing torch holds the
# interpreter lock for most of a second at a time, and run beside the first visitor's page it made
# the cold start 3.6-4.5 s instead of 1.9-2.1 s (bench/page_latency.py, this 2-core machine).
FIRST_PAGE_DRAWN = threading.Event()
FIRST_PAGE_WAIT = 5.0  # seconds the warm-up waits for that at most (a server nobody opens yet)
WARM_DONE = threading.Event()  # set when the warm-up has ended (the background build waits for it)
# The first page after the server starts is most often followed by the guided lesson (the home
# page's first link) or the tokenizer pages (the top of the navigation), which need no torch but
# pandas, pyarrow and their own modules (~0.6 s to import). Imported before torch, they are in
# place by a person's first click.
LIGHT_MODULES = (
    "pandas", "pandas.io.formats.style", "pyarrow", "explorer_core.ui.lesson.screens",
    "explorer_core.ui.lesson.calls", "explorer_core.ui.tokens.calls", "explorer_core.viz.tokens",
    "explorer_core.ui.tokenizer_lab.replay", "explorer_core.ui.tokenizer_lab.calls",
    "explorer_core.viz.tokenizer",
)  # fmt: skip
MODULES = (  # the other pages' modules, heaviest first: the first visit of a page pays none of it
    "torch", "explorer_core.bert.model", "explorer_core.ui.attention.calls",
    "explorer_core.ui.embeddings.calls", "explorer_core.ui.lesson.model_screens",
    "explorer_core.ui.embeddings.positions",
    "explorer_core.viz.attention", "explorer_core.viz.embedding",
    "explorer_core.ui.classroom.shell",  # class mode (SQLAlchemy): a class's first page waits not
)  # fmt: skip


# The browser's half: Streamlit's frontend loads the code of an element the first time a page
# shows one, each chunk asking for the next (a text box needed ~10 files, fetched one after another:
# ~0.3 s of the lesson's first visit). The Plotly chunk alone is ~4.7 MB; running it holds the
# page's thread ~0.9 s (text -> ids' first visit painted 1.8 s, server 0.3 s; Chromium's JS
# profiler), and a click in that time waits for it. So the shell asks the browser, once per session
# and once a page has been drawn and left alone for PRELOAD_QUIET_MS, for the code of every element
# the pages use: first the small ones and the table code together (the lesson's first screen shows
# a table, a text box, buttons and metrics), then Plotly on its own (both at once, ~0.4 s of
# Plotly's code fell in the middle of the lesson's first visit, clicked at once, and held back its
# table).
STATIC_JS = Path(st.__file__).parent / "static" / "static" / "js"
CHUNKS = (  # file name prefixes of lazily loaded code, one group after another
    ("DataFrame", "Table", "Button", "TextInput", "TextArea", "NumberInput", "Selectbox", "Slider",
     "Radio", "Metric", "Progress", "rehype-katex", "rehype-raw"),
    ("PlotlyChart",),
)  # fmt: skip
PRELOAD_QUIET_MS = 300  # a page drawn and not clicked for this long is being read
PRELOADED = "app.chunks_preloaded"  # session key: the script went to this browser tab
PRELOAD_SCRIPT = """<script>(() => {
  const index = document.querySelector('script[src*="/static/js/index."]');
  if (!index) return;
  const app = document.querySelector('[data-testid="stApp"]');
  const drawn = () => !app || (app.getAttribute("data-test-script-state") === "notRunning"
    && !document.querySelector('[data-testid="stSkeleton"]'));
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  // a page drawn and left alone for __QUIET__ ms (read, not clicked), then the browser idle
  const quiet = async () => {
    for (let calm = 0; calm < __QUIET__; calm = drawn() ? calm + 100 : 0) await sleep(100);
    await new Promise((done) => ("requestIdleCallback" in window
      ? requestIdleCallback(done, {timeout: 1000}) : done()));
  };
  const load = (name) => import(new URL(name, index.src).href).catch(() => {});
  (async () => {  // one group at a time: running Plotly's code holds the page's thread a while
    for (const names of __GROUPS__) {
      await quiet();
      await Promise.all(names.map(load));
    }
  })();
})();</script>"""


# Visitors first. The warm-up is pure Python for seconds (importing torch alone takes ~1.1 s of
# CPU), and beside it a visitor's script got about half of the interpreter lock: the lesson's first
# visit, clicked while torch was importing, took 0.9-1.4 s of server time instead of 0.6 s. While
# a page script runs (app.py wraps each in `visitor_script`), the warm-up thread waits between its
# steps and before each module it imports (torch has ~1,500).
# It does not wait while a visitor's thread waits for a module the warm-up is importing (e.g. the
# lesson asks for pandas while the warm-up imports it): only the warm-up can end that wait. And it
# waits at most GIVE_WAY seconds per busy spell (scripts one after another must not stop it).
# subtle: the wait is in an audit hook on the "import" event, which CPython raises before it takes
# any import lock; a finder on sys.meta_path is asked under the global import lock, and waiting
# there stopped every other thread's imports too.
GIVE_WAY = 0.4  # seconds
_visitors = threading.Condition()
_running = 0  # page scripts running now
_busy_since = 0.0  # time.monotonic() when `_running` last went from 0 to 1
_warm_thread: int | None = None  # threading.get_ident() of the warm-up thread while it works
_hooked = threading.Lock()  # held once the audit hook is in (it cannot be taken out again)


@contextmanager
def visitor_script() -> Iterator[None]:
    """Around a visitor's page script (app.py): the warm-up gives way while it runs."""
    global _running, _busy_since
    with _visitors:
        if _running == 0:
            _busy_since = time.monotonic()
        _running += 1
    try:
        yield
    finally:
        with _visitors:
            _running -= 1
            if _running == 0:
                _visitors.notify_all()


def pages_running() -> int:
    """How many visitors' page scripts run now (the background build starts when none does)."""
    with _visitors:
        return _running


def give_way() -> float:
    """In the warm-up thread: wait while a page script runs, at most until GIVE_WAY seconds after
    its busy spell began, and not while a script waits for a module this thread is importing;
    returns the seconds waited."""
    began = time.monotonic()
    with _visitors:
        while _running and not _import_awaited(threading.get_ident()):
            left = _busy_since + GIVE_WAY - time.monotonic()
            if left <= 0:
                break
            _visitors.wait(min(left, 0.01))  # subtle: polls, for `_import_awaited` to change
    return time.monotonic() - began


def _import_awaited(thread: int) -> bool:
    """Whether another thread waits for a module lock that `thread` holds (CPython's import
    machinery: importlib._bootstrap._blocking_on maps a thread to the lock it waits for, or, from
    Python 3.12, to a list of them)."""
    waits = getattr(importlib._bootstrap, "_blocking_on", {})  # noqa: SLF001
    for held in list(waits.values()):
        for lock in held if isinstance(held, list) else (held,):
            if getattr(lock, "owner", None) == thread:
                return True
    return False


def _before_import(event: str, args: tuple) -> None:  # noqa: ARG001 - sys.addaudithook's
    """Audit hook: in the warm-up thread, each module import first gives way to page scripts;
    for every other thread and event it returns at once (it stays for the server's life)."""
    if event == "import" and _running and threading.get_ident() == _warm_thread:
        give_way()


@functools.cache
def chunk_groups() -> tuple[tuple[str, ...], ...]:
    """The installed Streamlit's files for `CHUNKS`, group by group (their names carry a content
    hash).

    tests/test_warmup.py fails when a Streamlit version renames them, instead of the preload
    going quiet."""
    return tuple(
        tuple(path.name for prefix in group for path in sorted(STATIC_JS.glob(f"{prefix}.*.js")))
        for group in CHUNKS
    )


def chunk_files() -> tuple[str, ...]:
    """Every file `chunk_groups` names, in load order."""
    return tuple(name for group in chunk_groups() for name in group)


def preload_chart_code() -> None:
    """Once per session (app.py, every run): let the browser load the chart and table code while
    the learner reads the first page, not when the first chart is asked for."""
    if st.session_state.get(PRELOADED) or not chunk_files():
        return
    st.session_state[PRELOADED] = True
    script = PRELOAD_SCRIPT.replace("__GROUPS__", json.dumps(chunk_groups()))
    script = script.replace("__QUIET__", str(PRELOAD_QUIET_MS))
    st.html(script, unsafe_allow_javascript=True)


@st.cache_resource(max_entries=1, show_spinner=False)
def start() -> threading.Thread | None:
    """Start the warm-up thread once per server (later calls return the same thread).

    `EXPLORER_WARMUP=0` turns it off (the test suite's AppTest runs of app.py set it); a training
    worker running app.py (`runtime.in_worker_process`) never starts it.
    """
    if os.environ.get("EXPLORER_WARMUP", "1") == "0" or in_worker_process():
        return None
    return start_thread(warm, name="explorer-warmup")


@st.cache_resource(max_entries=1, show_spinner=False)
def grow_watcher_pool() -> int:
    """Once per server (app.py): Streamlit's config-file poll watchers' thread pool at its full
    size now, rather than one thread more at a moment nobody chose; returns its size.

    # subtle: Streamlit polls ~/.streamlit/config.toml and .streamlit/config.toml every 0.2 s,
    # whatever server.fileWatcherType says, each poll a task of one ThreadPoolExecutor of at most 4
    # threads that never end. Two polls need 3; the 4th starts the first time both polls hand in
    # their next task at once, which a busy server makes likely, minutes or hours in. That is the
    # thread tests/test_classroom_load.py found left over after the sessions had gone
    # ("ThreadPoolExecutor-0_3"). A few short tasks at start fill the pool instead; a test fails
    # when a Streamlit version keeps the pool elsewhere (tests/test_warmup.py).
    """
    from streamlit.watcher.polling_path_watcher import PollingPathWatcher

    pool = PollingPathWatcher._executor  # noqa: SLF001 - see the test named above
    size = pool._max_workers  # noqa: SLF001
    done = [pool.submit(time.sleep, 0.05) for _ in range(2 * size)]  # each finds no idle thread
    for task in done:
        task.result()
    return len(pool._threads)  # noqa: SLF001


def page_drawn() -> None:
    """app.py calls this when a page script has run to its end (or stopped): the warm-up may go."""
    FIRST_PAGE_DRAWN.set()


def warm() -> dict[str, float]:
    """Do every step in order, once the first page is drawn; returns the seconds each took (a
    failing step is skipped: the page that needs it shows its own message when it runs)."""
    global _warm_thread
    FIRST_PAGE_DRAWN.wait(FIRST_PAGE_WAIT)
    took: dict[str, float] = {}
    if _hooked.acquire(blocking=False):
        sys.addaudithook(_before_import)
    _warm_thread = threading.get_ident()
    try:
        for name, step in STEPS:
            give_way()
            began = time.perf_counter()
            try:
                step()
            except Exception:  # noqa: BLE001 - e.g. MiniLM not installed: its pages say so
                LOG.log(logging.WARNING, "warm-up step %s failed", name, exc_info=True)
            took[name] = time.perf_counter() - began
    finally:
        _warm_thread = None
        WARM_DONE.set()
    # Everything alive now (torch, MiniLM, the page modules, the caches) lives as long as the
    # server: freezing it takes it out of every later garbage collection. A full collection over
    # it took ~160 ms holding the interpreter lock (every session waits), more with a class.
    gc.freeze()
    LOG.log(logging.INFO, "warm-up done: %s", {k: round(v, 2) for k, v in took.items()})
    return took


def _light() -> None:
    """What the lesson's first screens and the tokenizer pages need: modules without torch, and
    MiniLM's tokenizer."""
    _import_each(LIGHT_MODULES)
    from explorer_core.ui import pretrained

    pretrained.minilm_tokenizer()


def _torch() -> None:
    from explorer_core import runtime

    runtime.configure()  # subtle: right after torch's import, before any page's first tensor op


def _imports() -> None:
    _import_each(MODULES)


def _import_each(modules: tuple[str, ...]) -> None:
    for module in modules:
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
    pretrained.taught()  # MiniLM + 中文, when it is built on this install (a Chinese class's model)


def _pinned() -> None:
    """The models a teacher pinned in `.streamlit/secrets.toml` (`[models] pinned = [...]`),
    opened once for every session (ui.models): no student waits for the first load."""
    from explorer_core.models.settings import ModelRefused
    from explorer_core.ui.models import calls, sources

    for ref in calls.pinned():
        try:
            sources.opened_model(ref)
        except (ModelRefused, ValueError, OSError) as err:  # the page will say it in one line
            LOG.log(
                logging.WARNING,
                "pinned model %s cannot be opened: %s",
                ref,
                sources.first_line(err),
            )


def _default_runs() -> None:
    """MiniLM on the Attention page's and the guided lesson's default sentences (English)."""
    from explorer_core.ui.attention import calls as attention
    from explorer_core.ui.i18n import CATALOGUE, DEFAULT_LANGUAGE
    from explorer_core.ui.lesson import calls as lesson
    from explorer_core.ui.models import sources

    source = sources.model_source("pretrained")
    enc = sources.encode(source.tokenizer, [attention.DEFAULT_TEXT])
    attention.run_attention(source.key, source.model, *sources.batch_key(enc), False)
    row = lesson.tokens(CATALOGUE[DEFAULT_LANGUAGE]["lesson.default_text"])
    lesson.sentence_run(row.ids)


def _tokenizers() -> None:
    """The built-in tokenizers trained on the built-in corpus, and their corpus counts."""
    from explorer_core.tokenization import ALGORITHMS
    from explorer_core.ui.tokens import calls as tokens

    for source in (tokens.BERT, *ALGORITHMS):
        tokenizer, count_key = tokens.resolve(source)
        tokens.corpus_counts(count_key, tokenizer)


STEPS = (  # torch-free first: the pages a first click most often opens need none of torch
    ("light", _light), ("tokenizers", _tokenizers), ("torch", _torch), ("minilm", _minilm),
    ("imports", _imports), ("charts", _charts), ("runs", _default_runs), ("pinned", _pinned),
)  # fmt: skip
