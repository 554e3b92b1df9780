"""Downloading a Hub model into this machine's cache, where the server allows it, with a progress
bar.

Off by default: only a server started with `EXPLORER_ALLOW_DOWNLOADS=1` (and `HF_HUB_OFFLINE=0`)
offers it, and never to a student in a class. The download runs in a thread of the server (one
per model, whoever asked: `Downloads`, shared by every session); the page polls its bytes once a
second in a fragment and reruns when it ends, so the model then opens from the cache like any
other. Only safetensors, JSON, text and tokenizer files are fetched (`models.download`), and the
folder then passes every check of `models.checks`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import streamlit as st

from explorer_core.models.locate import cached_snapshot, is_path_reference, locate, parse_reference
from explorer_core.models.settings import ModelRefused, downloads_allowed, hub_cache_dir, megabytes
from explorer_core.runtime import start_thread
from explorer_core.ui.classroom import gate
from explorer_core.ui.i18n import t


@dataclass
class Download:
    """One model being fetched; written by its thread, read by the pages."""

    ref: str
    done: int = 0  # bytes so far
    total: int = 0  # bytes expected (0: not known yet)
    error: str = ""  # the refusal's one line, when it failed
    finished: bool = False


class Downloads:
    """The server's downloads by reference: one thread per model, whoever asked for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.items: dict[str, Download] = {}

    def start(self, ref: str) -> Download:
        with self._lock:
            item = self.items.get(ref)
            if item is not None and not (item.finished and item.error):
                return item  # running, or done: the cache has it
            item = self.items[ref] = Download(ref)
        start_thread(self._run, name="model-download", args=(item,))
        return item

    @staticmethod
    def _run(item: Download) -> None:
        def progress(done: int, total: int) -> None:
            item.done, item.total = done, total

        try:
            locate(item.ref, allow_download=True, progress=progress)
        except (ModelRefused, ValueError, OSError) as err:
            item.error = str(err).splitlines()[0] if str(err) else type(err).__name__
        finally:
            item.finished = True


@st.cache_resource(max_entries=1, show_spinner=False)
def downloads() -> Downloads:
    return Downloads()


def downloadable(ref: str) -> bool:
    """A Hub name this visitor may fetch: downloads on, not a folder, not cached, not a student."""
    seat = gate.current()
    if not ref or not downloads_allowed() or is_path_reference(ref):
        return False
    if seat is not None and not seat.teacher:
        return False  # in a class, students cannot trigger downloads
    try:
        repo_id, revision = parse_reference(ref)
    except ModelRefused:
        return False
    return cached_snapshot(repo_id, revision, hub_cache_dir()) is None


def offer(ref: str) -> None:
    """The Download button, or the running download's progress bar."""
    item = downloads().items.get(ref)
    if item is not None and not (item.finished and item.error):
        _progress(ref)
        return
    if item is not None:  # the last try failed: say why, and offer it again
        st.error(t("models.download_failed", reason=item.error))
    if st.button(t("models.download", ref=ref), key="models.download"):
        downloads().start(ref)
        st.rerun()


@st.fragment(run_every=1.0)
def _progress(ref: str) -> None:
    item = downloads().items[ref]
    share = item.done / item.total if item.total else 0.0
    st.progress(
        min(share, 1.0),
        text=t(
            "models.downloading",
            ref=ref,
            done=megabytes(item.done),
            total=megabytes(item.total) if item.total else "?",
        ),
    )
    if item.finished and not item.error:
        st.rerun(scope="app")  # the model is in the cache now: the page opens it
    if item.error:
        st.rerun(scope="app")  # the page says why and offers it again
