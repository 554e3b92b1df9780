"""MiniLM + 中文 without a button: the server builds it by itself on a fresh install.

`start()` (app.py, every run; one thread per server process) runs `files.taught_build.
InstallBuild` with the app's pieces: the build is the Train page's one build
(`ui.training.chinese.start_background_build`: a background request of the server's admission,
paused whenever a session's run would wait, its worker niced and on one thread), the server is
idle when no run trains or waits and no page is being drawn, and it begins once the warm-up has
ended (at most `taught_build.START_AFTER` seconds after the first visit).

Off with EXPLORER_TAUGHT=off, or in `.streamlit/secrets.toml`::

    [explorer]
    taught = "off"

`progress()` is what the home page and the Chinese guided lesson show meanwhile: the build's
progress bar (polled once a second), a line while it is about to start, or one line when it
failed; when it ends, the whole page is drawn again, now with the model.
"""

from __future__ import annotations

import os

import streamlit as st

from explorer_core.files import taught_model
from explorer_core.files.taught_build import DISK_FULL, InstallBuild, wanted
from explorer_core.runtime import in_worker_process, start_thread
from explorer_core.ui import warmup
from explorer_core.ui.i18n import t

SETTING = "EXPLORER_TAUGHT"  # on (default) / off
SECRETS_SECTION, SECRETS_KEY = "explorer", "taught"
DRAWN_KEY = "taught.build.drawn"  # id of the build this session last drew as running
POLL_SECONDS = 1.0  # the progress bar's poll
SOON_POLL_SECONDS = 3.0  # while the build is about to start, a slower look for it


def setting() -> str:
    """EXPLORER_TAUGHT, else `[explorer] taught` in .streamlit/secrets.toml, else "on"."""
    if os.environ.get(SETTING, ""):
        return os.environ[SETTING]
    try:
        return str(st.secrets.get(SECRETS_SECTION, {}).get(SECRETS_KEY, "on"))
    except Exception:  # noqa: BLE001 - no secrets file, or an unreadable one: the default
        return "on"


@st.cache_resource(max_entries=1, show_spinner=False)
def start() -> InstallBuild | None:
    """Start the background build's thread once per server; None when it is turned off, and in
    a training worker that runs app.py (`runtime.in_worker_process`)."""
    if not wanted(setting()) or in_worker_process():
        return None
    build = InstallBuild(_submit, _building, _idle, ready=warmup.WARM_DONE)
    start_thread(build.run, name="taught-build")
    return build


# subtle: these run in the build's thread (no session): cached resources only, no texts
def _submit() -> object:
    from explorer_core.ui.training import chinese

    return chinese.start_background_build()


def _building() -> bool:
    from explorer_core.ui.training import chinese

    return chinese.building()


def _idle() -> bool:
    from explorer_core.ui.training import run as runs

    running, waiting, _ = runs.admission().counts()
    return running == 0 and waiting == 0 and warmup.pages_running() == 0


# ---- what the pages draw ------------------------------------------------------------------------


def soon() -> bool:
    """Whether the server will build the model by itself soon (it waits for a quiet moment, or
    another server process on this install builds it)."""
    build = start()
    return build is not None and build.state in ("waiting", "other") and not _built()


def _built() -> bool:
    return taught_model.built_folder() is not None


def progress() -> None:
    """The build's progress, polled while it runs or is about to start; nothing once built."""
    from explorer_core.ui.training import chinese

    active = chinese.building()
    if _built() and not active and st.session_state.get(DRAWN_KEY) is None:
        return
    every = POLL_SECONDS if active else SOON_POLL_SECONDS if soon() else None
    st.fragment(run_every=every)(_progress)()


def _progress() -> None:
    from explorer_core.ui.training import chinese

    run, active = chinese.current_build(), chinese.building()
    chinese.rerun_when_ended(DRAWN_KEY, run, active)  # then: every page with the model
    build = start()
    if active and run is not None:
        share, text = chinese.progress_text(run)
        share = min(1.0, share)
        st.progress(share, text=t("taught.build.progress", percent=100 * share, text=text))
        st.caption(t("taught.build.meanwhile"))
    elif build is not None and build.state == "failed" and not _built():
        st.warning(failed_line(build.error), icon=":material/error:")
    elif soon():
        key = "taught.build.other" if start().state == "other" else "taught.build.soon"
        st.caption(t(key))


def failed_line(error: str) -> str:
    """One line, no traceback: a full disk in words, any other error's first line."""
    if error.startswith(DISK_FULL) or "No space left" in error:
        return t("taught.build.disk", need=taught_model.DISK_NEED // 2**20)
    first = error.strip().splitlines()[0] if error.strip() else "?"
    return t("taught.build.failed", error=first[:200])
