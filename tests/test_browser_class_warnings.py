"""No Streamlit warning in a class: a real `streamlit run app.py` server, a teacher and a student
who each open every page (from the navigation, as a person does, then once more with Streamlit's
own rerun; the teacher also in presentation mode), while a class experiment runs; the server's
log must hold no Streamlit warning.

Why a real server: Streamlit logs "The widget with key ... was created with a default value but
also had its value set via the Session State API" once per process, to the server's stderr; the
student's Train page logged it for train.vocab_size (issue 37), and the Train and Similarity pages
on any second run of theirs. AppTest runs many pages in one process and sees it only for the
first. The server here is this test's own, so nothing before it used up the once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer_core.ui.nav import PAGES
from tests.browser import BrowserSession, require_chromium, streamlit_server
from tests.class_browser import chromium, params, person, see

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAPTOP = {"width": 1400, "height": 1000}
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"  # each line names its level
BAD = re.compile(r"Session State|was created with a default value|WARNING streamlit")


def warnings_in(log: Path) -> list[str]:
    """The server log's lines that are a Streamlit warning (with the line after, its reason)."""
    lines = log.read_text(errors="replace").splitlines()
    return [" / ".join(lines[i : i + 2]) for i, line in enumerate(lines) if BAD.search(line)]


def walk(session: BrowserSession, url_paths: list[str]) -> list[str]:
    """Open each page from the sidebar's navigation, then rerun it (Streamlit's R key): two full
    runs of every page in one session. Returns the pages that showed an exception."""
    broken = []
    for url_path in url_paths:
        link = session.page.locator(f'[data-testid="stSidebarNav"] a[href$="/{url_path}"]')
        link.first.click()
        session.page.wait_for_url(re.compile(rf"/{re.escape(url_path)}(\?|$)"), timeout=60_000)
        session.wait_idle()
        session.page.locator("body").press("r")  # rerun, as Streamlit's menu does
        session.wait_idle()
        if session.exceptions():
            broken.append(url_path or "home")
    return broken


def walk_presenting(session: BrowserSession, url_paths: list[str], query: str) -> list[str]:
    """Open each page by its link in presentation mode (its navigation is a menu at the top),
    then rerun it. Returns the pages that showed an exception."""
    broken = []
    for url_path in url_paths:
        session.open(url_path, f"{query}&present=1")
        session.page.locator("body").press("r")
        session.wait_idle()
        if session.exceptions():
            broken.append(url_path or "home")
    return broken


def test_every_page_as_teacher_and_student_logs_no_streamlit_warning(tmp_path, monkeypatch):
    require_chromium()
    monkeypatch.setenv("EXPLORER_CLASS_DB", f"sqlite:///{tmp_path / 'classes.db'}")
    log = tmp_path / "server.log"
    env = {"STREAMLIT_LOGGER_MESSAGE_FORMAT": LOG_FORMAT, "STREAMLIT_LOGGER_LEVEL": "info"}
    url_paths = [spec.url_path for spec in PAGES if spec.path.is_file()]
    url_paths = [*url_paths[1:], url_paths[0]]  # the home page last: every walk starts there
    with streamlit_server(env=env, log=log) as url, chromium() as browser:
        teacher = person(browser, url, LAPTOP)
        teacher.open("", "class=new", wait_text="Your class")
        code, secret = params(teacher)["class"], params(teacher)["teacher"]
        start_default_experiment(code, secret)
        student = person(browser, url, LAPTOP)
        student.open("", f"class={code}&name=Ann", wait_text=f"Class {code} · Ann")
        see(teacher, "Joined: 1", timeout=15_000)
        assert walk(student, url_paths) == []
        assert walk(teacher, url_paths) == []
        assert walk_presenting(teacher, url_paths, f"class={code}&teacher={secret}") == []
        student.open("train-model", f"class={code}&seat={params(student)['seat']}",
                     wait_text="Assigned by the class experiment")  # fmt: skip
        found = warnings_in(log)
        assert not found, "\n".join(found)


def start_default_experiment(code: str, secret: str) -> None:
    """The teacher form's default experiment (a controlled one), as its Start button starts it."""
    from explorer_core.classroom import ClassStore
    from explorer_core.training.controlled import ExperimentSettings
    from explorer_core.ui.classroom.board import DEFAULT_ALGOS, DEFAULT_VOCABS

    store = ClassStore.from_settings()
    try:
        store.start_experiment(code, secret, list(DEFAULT_ALGOS), [int(DEFAULT_VOCABS)],
                               ExperimentSettings())  # fmt: skip
    finally:
        store.dispose()
