"""The app's shell stays light (no torch before the first page), and the once-per-server warm-up
fills the caches the pages read."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import ROOT

SHELL = (  # what app.py imports
    "from explorer_core import runtime; "
    "from explorer_core.ui import present, warmup; "
    "from explorer_core.ui.chrome import translate_streamlit_texts; "
    "from explorer_core.ui.export import image_format_switch; "
    "from explorer_core.ui.i18n import language_switch; "
    "from explorer_core.ui.nav import available_pages; "
    "from explorer_core.ui.pack import pack_section; "  # the home page
    "runtime.configure_environment(); "
    "import sys; print(sorted(m for m in ('torch', 'pandas', 'transformers') if m in sys.modules))"
)


def test_the_shell_and_home_page_import_no_torch_or_pandas():
    """Importing torch takes seconds: the first painted page must not wait for it."""
    out = subprocess.run([sys.executable, "-c", SHELL], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


@pytest.mark.slow
def test_warm_up_fills_the_pages_caches(monkeypatch):
    """Every step runs; afterwards MiniLM and the built-in tokenizers come from the caches: the
    functions that would build them again are broken on purpose and never called."""
    from explorer_core.files import tokenizer_cache
    from explorer_core.tokenization import ALGORITHMS
    from explorer_core.ui import pretrained, tokens, warmup

    monkeypatch.setattr(warmup, "FIRST_PAGE_DRAWN", drawn())
    took = warmup.warm()
    gc.unfreeze()  # the warm-up froze what it loaded; the rest of the suite collects as usual
    assert set(took) == {name for name, _ in warmup.STEPS}

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
    from explorer_core.ui.attention import DEFAULT_TEXT

    assert settings.declared()["attn.text"].default == DEFAULT_TEXT


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

    names = warmup.chunk_files()
    assert [n.split(".")[0] for n in names] == sorted(warmup.CHUNKS)
    script = warmup.PRELOAD_SCRIPT.replace("__NAMES__", "[]")
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
