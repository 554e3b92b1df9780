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


@pytest.fixture
def every_warning(monkeypatch, warnings):
    """As `warnings`, but each widget is checked with the once-per-process flag reset: every
    offending key is seen, not only the first."""
    check = policies.check_session_state_rules

    def each_time(*args, **kwargs):
        policies._shown_default_value_warning = False
        return check(*args, **kwargs)

    monkeypatch.setattr(policies, "check_session_state_rules", each_time)
    return warnings


@pytest.mark.parametrize("file", ["lessons/train_model.py", "lessons/similarity.py"])
def test_a_second_run_logs_no_default_and_state_warning(file, every_warning):
    """The Train and Similarity pages wrote their hidden widgets' values back on every run: each
    run after the first warned (train.vocab_size, sim.list)."""
    at = app_test(file, timeout=120)
    at.run()
    assert not at.exception
    assert not [m for m in every_warning if WARNING in m]


def test_a_student_in_a_class_experiment_gets_no_warning(tmp_path, monkeypatch, every_warning):
    """The experiment sets the student's tokenizer, size, steps, seed and sizes (and gives her
    own back when it stops); a preset picked later resets the sizes. None of it warns, and the
    values are the ones set."""
    from explorer_core.classroom import ClassStore
    from explorer_core.training.controlled import ExperimentSettings
    from tests.links import open_with

    url = f"sqlite:///{tmp_path / 'classes.db'}"
    monkeypatch.setenv("EXPLORER_CLASS_DB", url)
    store = ClassStore(url)
    teacher = open_with("app.py", {"class": "new"})
    seat = teacher.session_state["class.seat"]
    ann = open_with("app.py", {"class": seat.code, "name": "Ann"})
    ann.switch_page("lessons/train_model.py").run()
    ann.toggle(key="train.edit").set_value(True).run()
    ann.number_input(key="train.seed").set_value(7).run()
    store.start_experiment(seat.code, seat.secret, ["char-bpe"], [300],
                           ExperimentSettings("tiny", 20, (3,)))  # fmt: skip
    ann.run()
    ann.run()
    state = ann.session_state
    assert (state["train.algo"], state["train.seed"], state["train.fine_steps"]) == (
        "char-bpe", 3, 20)  # fmt: skip
    assert state["train.vocab_size"] > 300  # raised to what char-bpe needs
    assert ann.number_input(key="train.vocab_size").value == state["train.vocab_size"]
    store.stop_experiment(seat.code, seat.secret)
    ann.run()
    assert (state["train.seed"], state["train.edit"]) == (7, True)
    ann.selectbox(key="train.preset").set_value("small").run()
    assert ann.number_input(key="train.hidden").value == 256
    store.dispose()
    assert not ann.exception, [e.message for e in ann.exception]
    assert not [m for m in every_warning if WARNING in m]
