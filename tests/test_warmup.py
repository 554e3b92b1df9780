"""The app's shell stays light (no torch before the first page), and the once-per-server warm-up
fills the caches the pages read."""

from __future__ import annotations

import gc
import logging
import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import ROOT

HEAVY = ("torch", "pandas", "transformers", "sqlalchemy")  # seconds to import, together
SHELL = (  # what app.py imports
    "from explorer_core import runtime; "
    "from explorer_core.ui import present, warmup; "
    "from explorer_core.ui.chrome import translate_streamlit_texts; "
    "from explorer_core.ui.export import image_format_switch; "
    "from explorer_core.ui.i18n import language_switch; "
    "from explorer_core.ui.nav import available_pages; "
    "from explorer_core.ui.pack import pack_section; "  # the home page
    "from explorer_core.ui.classroom import gate; "
    "from explorer_core.ui.classroom.home import section; "
    "runtime.configure_environment(); "
    f"import sys; print(sorted(m for m in {HEAVY} if m in sys.modules))"
)


def python_prints(code: str) -> str:
    """What a fresh interpreter prints running `code` in the project's root (stripped)."""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    return out.stdout.strip()


def test_the_shell_and_home_page_import_no_torch_or_pandas():
    """Importing torch takes seconds: the first painted page must not wait for it. Nor for class
    mode's SQLAlchemy (~0.3 s): outside a class it is never imported."""
    assert python_prints(SHELL) == "[]"


HOME_RUN = (  # app.py's first run, the home page, in a fresh interpreter (no warm-up)
    "import os, sys\n"
    "os.environ['EXPLORER_WARMUP'] = '0'\n"
    "from streamlit.testing.v1 import AppTest\n"
    "for lang in ('en', 'zh'):\n"
    "    at = AppTest.from_file('app.py', default_timeout=60)\n"
    "    at.session_state['lang'] = lang\n"
    "    at.run()\n"
    "    assert not at.exception, at.exception\n"
    f"print(sorted(m for m in {HEAVY} if m in sys.modules))"
)


def test_the_home_pages_first_run_imports_no_torch_or_pandas():
    """Imports are not all: the home page's line about the MiniLM + 中文 build asked whether the
    model was built, and the fingerprint of its recipe imported torch (the loop's settings lived
    beside the loop), the build's progress pandas: a fresh server's first page took 1.8-2.0 s
    instead of 0.3-0.4 s (bench/page_latency.py's cold start: 2.7 s -> 4.0 s)."""
    assert python_prints(HOME_RUN) == "[]"


@pytest.mark.slow
def test_warm_up_fills_the_pages_caches(monkeypatch, caplog):
    """Every step runs, and none fails; afterwards MiniLM and the built-in tokenizers come from
    the caches: the functions that would build them again are broken on purpose and never
    called."""
    from explorer_core.files import tokenizer_cache
    from explorer_core.tokenization import ALGORITHMS
    from explorer_core.ui import pretrained, warmup
    from explorer_core.ui.tokens import calls as tokens

    monkeypatch.setattr(warmup, "FIRST_PAGE_DRAWN", drawn())
    with caplog.at_level(logging.WARNING, logger=warmup.LOG.name):
        took = warmup.warm()
    gc.unfreeze()  # the warm-up froze what it loaded; the rest of the suite collects as usual
    assert set(took) == {name for name, _ in warmup.STEPS}
    # subtle: a failing step is logged and skipped (the server goes on), so only the log says so
    assert not [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]

    def never(*args, **kwargs):  # noqa: ANN002, ANN003
        raise AssertionError("built again: the warm-up did not fill this cache")

    monkeypatch.setattr(pretrained, "minilm_path", never)
    monkeypatch.setattr(tokenizer_cache, "new_tokenizer", never)
    assert pretrained.minilm_model().config.num_hidden_layers == 6
    assert pretrained.minilm_tokenizer().vocab_size > 30_000
    for algo in ALGORITHMS:
        assert tokens.trained_default(algo).vocab_size > 0


def test_a_failing_step_does_not_stop_the_others(monkeypatch):
    from explorer_core.ui import warmup

    done = []

    def broken() -> None:
        raise RuntimeError("MiniLM is not installed")

    monkeypatch.setattr(warmup, "STEPS", (("broken", broken), ("next", lambda: done.append(1))))
    monkeypatch.setattr(warmup, "FIRST_PAGE_DRAWN", drawn())
    assert set(warmup.warm()) == {"broken", "next"}
    assert done == [1]


def test_what_the_warm_up_loaded_leaves_the_garbage_collections(monkeypatch):
    """A full collection over torch and MiniLM held the interpreter lock ~160 ms every time."""
    from explorer_core.ui import warmup

    monkeypatch.setattr(warmup, "STEPS", ())
    monkeypatch.setattr(warmup, "FIRST_PAGE_DRAWN", drawn())
    try:
        warmup.warm()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def drawn() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


def test_the_warm_up_waits_for_the_first_page(monkeypatch):
    """Importing torch beside the first visitor's page made the cold start ~2 s slower."""
    from explorer_core.ui import warmup

    done = []
    monkeypatch.setattr(warmup, "STEPS", (("step", lambda: done.append(time.monotonic())),))
    monkeypatch.setattr(warmup, "FIRST_PAGE_DRAWN", threading.Event())
    thread = threading.Thread(target=warmup.warm)
    thread.start()
    thread.join(0.5)
    assert done == [] and thread.is_alive()  # still waiting for the page
    drawn_at = time.monotonic()
    warmup.page_drawn()
    thread.join(5)
    assert not thread.is_alive() and done and done[0] >= drawn_at


def test_the_warm_up_goes_on_when_nobody_opens_a_page(monkeypatch):
    from explorer_core.ui import warmup

    done = []
    monkeypatch.setattr(warmup, "STEPS", (("step", lambda: done.append(1)),))
    monkeypatch.setattr(warmup, "FIRST_PAGE_DRAWN", threading.Event())
    monkeypatch.setattr(warmup, "FIRST_PAGE_WAIT", 0.2)
    warmup.warm()
    assert done == [1]


def test_the_warm_up_runs_the_attention_pages_default_sentence():
    from explorer_core.ui import settings
    from explorer_core.ui.attention.calls import DEFAULT_TEXT
    from explorer_core.ui.i18n import CATALOGUE

    assert CATALOGUE["en"][settings.declared()["attn.text"].text] == DEFAULT_TEXT
    assert DEFAULT_TEXT == "The cat sat on the mat because it was tired."


def test_the_warm_up_can_be_turned_off(monkeypatch):
    from explorer_core.ui import warmup

    monkeypatch.setenv("EXPLORER_WARMUP", "0")
    warmup.start.clear()
    assert warmup.start() is None
    warmup.start.clear()


def test_the_chart_code_to_preload_is_found():
    """Fails the day a Streamlit version renames its lazily loaded chunks: the preload would
    otherwise go quiet and the first chart of every session wait for plotly.js again."""
    from explorer_core.ui import warmup

    groups = warmup.chunk_groups()
    assert [[n.split(".")[0] for n in group] for group in groups] == [
        list(group) for group in warmup.CHUNKS
    ]
    assert groups[-1] == tuple(n for n in warmup.chunk_files() if n.startswith("PlotlyChart."))
    script = warmup.PRELOAD_SCRIPT.replace("__GROUPS__", "[]")
    assert script.startswith("<script>") and "notRunning" in script


def test_the_preload_goes_to_each_session_once():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert at.session_state["app.chunks_preloaded"] is True
    first = [e for e in at.get("html") if "requestIdleCallback" in e.proto.body]
    at.run()
    again = [e for e in at.get("html") if "requestIdleCallback" in e.proto.body]
    assert len(first) == 1 and again == []


def test_the_light_step_imports_no_torch():
    """The lesson's first screens are ready before torch: the light step must not import it."""
    code = "import sys; from explorer_core.ui import warmup; warmup._light(); "
    assert python_prints(code + "print('torch' in sys.modules)") == "False"


def test_the_warm_up_waits_while_a_page_script_runs(monkeypatch):
    from explorer_core.ui import warmup

    monkeypatch.setattr(warmup, "GIVE_WAY", 10.0)
    waited = []
    with warmup.visitor_script():
        thread = threading.Thread(target=lambda: waited.append(warmup.give_way()))
        thread.start()
        thread.join(0.3)
        assert thread.is_alive()  # the script still runs
    thread.join(5)
    assert not thread.is_alive() and 0.3 <= waited[0] < 5
    assert warmup.give_way() < 0.05  # nobody runs: no wait


def test_the_warm_up_waits_no_longer_than_give_way(monkeypatch):
    """A script may wait for a module the warm-up thread is importing: the wait must end."""
    from explorer_core.ui import warmup

    monkeypatch.setattr(warmup, "GIVE_WAY", 0.2)
    with warmup.visitor_script():
        began = time.monotonic()
        assert 0.1 < warmup.give_way() < 1.0
        assert time.monotonic() - began < 1.0


def test_the_warm_up_gives_way_before_each_import(monkeypatch, tmp_path):
    """The audit hook: a module the warm-up imports while a page script runs waits for its end."""
    from explorer_core.ui import warmup

    (tmp_path / "warm_gated_module.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(warmup, "GIVE_WAY", 10.0)
    monkeypatch.setattr(warmup, "FIRST_PAGE_DRAWN", drawn())
    started, go, imported = threading.Event(), threading.Event(), []

    def step() -> None:
        started.set()
        go.wait(5)
        import warm_gated_module  # noqa: F401, PLC0415 - the import under test

        imported.append(time.monotonic())

    monkeypatch.setattr(warmup, "STEPS", (("import", step),))
    thread = threading.Thread(target=warmup.warm)
    thread.start()
    try:
        assert started.wait(5)
        with warmup.visitor_script():
            go.set()
            thread.join(0.4)
            assert imported == [] and "warm_gated_module" not in sys.modules
            left = time.monotonic()
        thread.join(5)
        assert imported and imported[0] >= left
    finally:
        go.set()
        thread.join(5)
        gc.unfreeze()
        sys.modules.pop("warm_gated_module", None)


def test_a_script_waiting_for_the_warm_ups_import_is_seen(monkeypatch, tmp_path):
    """`_import_awaited` reads CPython's import locks: a script thread blocked on a module the
    warm-up thread is importing. Fails the day a Python version changes that bookkeeping (the
    warm-up would then wait GIVE_WAY for nothing, each time that happens)."""
    from explorer_core.ui import warmup
    from tests import warm_gate

    (tmp_path / "warm_gated.py").write_text(
        "from tests.warm_gate import GATE\n\nGATE.wait(10)\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    importer_id = []

    def importer() -> None:
        importer_id.append(threading.get_ident())
        import warm_gated  # noqa: F401, PLC0415 - holds its module lock until the gate opens

    first = threading.Thread(target=importer)
    second = threading.Thread(target=importer)
    try:
        first.start()
        deadline = time.monotonic() + 5
        while "warm_gated" not in sys.modules and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not warmup._import_awaited(importer_id[0])  # nobody waits yet
        second.start()
        deadline = time.monotonic() + 5
        while not warmup._import_awaited(importer_id[0]) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert warmup._import_awaited(importer_id[0])
    finally:
        warm_gate.GATE.set()
        first.join(5)
        second.join(5)
        sys.modules.pop("warm_gated", None)


def test_streamlits_watcher_pool_is_grown_to_its_size_at_start():
    """Streamlit's config-file poll watchers share a pool of at most 4 threads that never end;
    its 4th thread used to start at a random moment (a busy server's), after the walk-away test's
    baseline. The server fills it at start. Fails when a Streamlit version moves the pool."""
    from streamlit.watcher.polling_path_watcher import PollingPathWatcher

    from explorer_core.ui import warmup

    pool = PollingPathWatcher._executor  # noqa: SLF001 - what warmup.grow_watcher_pool fills
    warmup.grow_watcher_pool.clear()
    assert warmup.grow_watcher_pool() == pool._max_workers == len(pool._threads)  # noqa: SLF001
    warmup.grow_watcher_pool.clear()
