"""The model picker's server side: one copy of each opened model for every session, the class's
pinned models opened by the warm-up and listed first, downloads only where the server allows them
and never for a student, with their bytes reported to the page."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from explorer_core.ui.models import calls, download, sources
from tests import opened_models
from tests.conftest import app_test


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return opened_models.model_folder("bert", tmp_path_factory.mktemp("allowed") / "tiny-bert")


@pytest.fixture(autouse=True)
def allowed(folder, tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(folder.parent))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))


def test_one_copy_per_model_for_every_session_and_its_bytes(folder):
    first, again = sources.opened_model(str(folder)), sources.opened_model(str(folder))
    assert first is again  # shared, not loaded twice
    sizes = sources.memory().sizes()
    assert sizes[first.located.cache_key] == first.parameter_bytes > 0


def test_the_box_lists_the_model_and_the_memory_it_takes(folder):
    sources.opened_model(str(folder))
    at = app_test("lessons/similarity.py", state={"model": str(folder)})
    assert not at.exception
    assert str(folder) in at.selectbox(key="models.box").options[0]
    assert any("shared by every visitor" in c.value and "MB" in c.value for c in at.caption)


def test_pinned_models_come_first_and_the_warm_up_opens_them(folder, monkeypatch):
    other = opened_models.model_folder("distilbert", folder.parent / "a-first-by-name")
    calls._scan.clear()
    monkeypatch.setattr(calls, "pinned", lambda: (str(folder),))
    assert [e.reference for e in calls.catalog_entries()][:2] == [str(folder), str(other)]
    sources.memory().drop(sources.locate(str(folder)).cache_key)
    from explorer_core.ui import warmup

    warmup._pinned()
    assert sources.locate(str(folder)).cache_key in sources.memory().sizes()


def test_downloads_are_off_by_default_and_never_for_a_student(monkeypatch):
    assert not download.downloadable("someone/not-here")
    monkeypatch.setenv("EXPLORER_ALLOW_DOWNLOADS", "1")
    assert download.downloadable("someone/not-here")
    assert not download.downloadable("/srv/a/folder")  # folders are never fetched
    student = SimpleNamespace(teacher=False)
    monkeypatch.setattr(download.gate, "current", lambda: student)
    assert not download.downloadable("someone/not-here")
    monkeypatch.setattr(download.gate, "current", lambda: SimpleNamespace(teacher=True))
    assert download.downloadable("someone/not-here")


def test_a_download_reports_its_bytes_and_its_refusal(monkeypatch):
    release = threading.Event()

    def fake_locate(ref, *, allow_download, progress):  # noqa: ANN001
        assert allow_download
        progress(50, 200)
        release.wait(5)
        if ref.endswith("broken"):
            raise download.ModelRefused("the Hub said no")

    monkeypatch.setattr(download, "locate", fake_locate)
    shelf = download.Downloads()
    item = shelf.start("someone/tiny")
    assert shelf.start("someone/tiny") is item  # one thread per model, whoever asks
    failing = shelf.start("someone/broken")
    release.set()
    for one in (item, failing):
        for _ in range(100):
            if one.finished:
                break
            threading.Event().wait(0.05)
    assert (item.done, item.total, item.error, item.finished) == (50, 200, "", True)
    assert failing.error == "the Hub said no"
    assert shelf.start("someone/broken") is not failing  # a failed one may be tried again
