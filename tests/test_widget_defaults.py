"""No page makes Streamlit warn that a widget got both a default and a Session State value.

Every page gives its keys their defaults (`state.init`) and passes the same default to its
widgets (`state.bound`: a link drops a value equal to it). Both at once on a session's first run
made Streamlit log "The widget with key "attn.text" was created with a default value but also had
its value set via the Session State API." for the first such widget of each fresh server.
"""

from __future__ import annotations

import logging

import pytest
from streamlit.elements.lib import policies

from explorer_core.ui.nav import PAGES
from tests.conftest import app_test

WARNING = "created with a default value but also had its value set via the Session State API"


@pytest.fixture
def warnings(monkeypatch):
    """The messages Streamlit's widget policies log during the test, each page counted afresh."""
    # subtle: Streamlit logs this warning once per process; the flag is reset so that every page
    # (and every test) is checked, not only the first one run here.
    monkeypatch.setattr(policies, "_shown_default_value_warning", False)
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger = logging.getLogger(policies.__name__)
    logger.addHandler(handler)
    yield seen
    logger.removeHandler(handler)


@pytest.mark.parametrize("file", [p.file for p in PAGES if p.path.is_file()])
def test_opening_a_page_logs_no_default_and_state_warning(file, warnings):
    app_test(file, timeout=120)
    assert not [m for m in warnings if WARNING in m]


def test_the_attention_page_twice_and_in_pair_mode(warnings):
    at = app_test("lessons/attention.py", timeout=120)
    at.run()
    at.session_state["attn.mode"] = "pair"
    at.run()
    assert at.text_input(key="attn.a").value  # the pair mode's sentences have their defaults
    assert not [m for m in warnings if WARNING in m]


def test_a_callback_that_sets_the_default_is_not_undone(warnings):
    """Previous back to step 1 (the default) after Next: the step the callback set wins."""
    at = app_test("lessons/lesson.py", timeout=120)
    at.button(key="lesson.next").click().run()
    assert at.session_state["lesson.step"] == 2
    at.button(key="lesson.prev").click().run()
    assert at.session_state["lesson.step"] == 1
