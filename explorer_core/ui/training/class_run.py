"""The Train page in a class experiment: the tokenizer and seed the experiment assigns, the
settings it fixes (preset, steps, data: `training.controlled`), and the result posted to the class
leaderboard when the run ends (see `ui.classroom.board`).

Outside a class nothing here loads class mode (`classroom.gate`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import streamlit as st

from explorer_core.inputs.sts_format import SentencePair
from explorer_core.tokenization import Tokenizer
from explorer_core.tokenization.base import VocabTooSmall
from explorer_core.training.choices import run_memory_bytes
from explorer_core.training.controlled import MAX_LENGTH, OBJECTIVE
from explorer_core.training.experiment import controlled_plan as experiment_plan
from explorer_core.training.run import TrainingPlan
from explorer_core.ui.classroom.gate import current, in_class
from explorer_core.ui.i18n import t
from explorer_core.ui.state import set_before_widgets
from explorer_core.ui.training import calls
from explorer_core.ui.training.form import SIZE_KEYS, preset_sizes
from explorer_core.ui.training.panels import VOCAB_SIZES
from explorer_core.ui.training.run import MAX_SNAPSHOTS

if TYPE_CHECKING:
    from explorer_core.classroom import Assignment

ASSIGNED_KEY = "train.class_assigned"  # (algorithm, vocab size) of the run being started
OWN_KEY = "train.class_own"  # the student's own values of what a controlled experiment fixes
FIXED_KEYS = ("train.data", "train.start_from", "train.edit", "train.preset", "train.objective",
              "train.fine_steps", "train.budget", "train.seed", "train.max_length",
              "train.whole_word", *SIZE_KEYS)  # fmt: skip


def _given() -> Assignment | None:
    """This student's assignment in the running experiment, or None (no class, a teacher, no
    experiment, the database away: the class bar says what is wrong)."""
    if not in_class() or current().teacher:
        return None
    from explorer_core.classroom import ClassError
    from explorer_core.ui.classroom.board import assignment
    from explorer_core.ui.classroom.seat import store

    try:
        pulse = store().pulse(current().code)
    except ClassError:
        return None
    return assignment(pulse.experiment_id)


def fix_settings(running: bool) -> Assignment | None:
    """In a controlled experiment, the page's own settings give way to the experiment's: the
    built-in pairs, fresh weights, the preset's sizes, fine-tuning only for exactly its steps
    (no time budget), its seed. Written into the widgets' state before they draw (call it before
    the data panel), so the disabled widgets show them; the plan itself is built from the
    assignment alone (`controlled_plan`). The student's own values are kept aside and come back
    once no controlled experiment runs. Returns the assignment, or None when nothing is fixed.
    """
    given = _given()
    fixed = given if given is not None and given.controlled else None
    if running:  # the widgets are locked anyway; the run keeps the plan it started with
        return fixed
    state = st.session_state
    if fixed is None:
        own = state.pop(OWN_KEY, None) or {}
        set_before_widgets({key: value for key, value in own.items() if value is not None})
        return None
    state.setdefault(OWN_KEY, {key: state.get(key) for key in FIXED_KEYS})
    set_before_widgets({
        "train.data": "builtin", "train.start_from": "fresh", "train.edit": False,
        "train.preset": fixed.preset, "train.objective": OBJECTIVE,
        "train.fine_steps": fixed.steps, "train.budget": 0, "train.seed": fixed.seed,
        "train.max_length": MAX_LENGTH, "train.whole_word": False, **preset_sizes(fixed.preset),
    })  # fmt: skip
    return fixed


Trainer = Callable[[str, int, str], Tokenizer]  # (algorithm, size, text) -> a trained tokenizer


def tokenizer_recipe(
    fixed: Assignment | None, sentences: list[str], text: str
) -> tuple[str, Trainer]:
    """(text, trainer) of the page's tokenizer. In a controlled experiment: the training pairs'
    sentences alone and `calls.experiment_tokenizer`, as `experiment tokenizers` trains it;
    otherwise the page's `text` (the Tokenizer Lab's corpus and the sentences) and the page's
    own trainer. The Lab's corpus would make the class's runs differ from the teacher's grid of
    the night before."""
    if fixed is None:
        return text, calls.trained_tokenizer
    return "\n".join(sentences), calls.experiment_tokenizer


def controlled_plan(
    given: Assignment, tokenizer: Tokenizer, parts: dict[str, list[SentencePair]]
) -> tuple[TrainingPlan, int] | None:
    """(plan, memory its run holds) of the experiment's settings for this tokenizer
    (`training.experiment.controlled_plan`: what `experiment tokenizers` trains), or None with
    the reason on the page. Nothing the student set is read (a link's ?train.fine_steps= too)."""
    try:
        plan = experiment_plan(given.preset, given.steps, given.seed, tokenizer, parts)
    except ValueError as err:
        st.error(t("train.bad_config", reason=str(err)))
        return None
    fine = plan.finetune
    return plan, run_memory_bytes(plan.model_config, fine.batch_size, fine.max_length,
                                  MAX_SNAPSHOTS)  # fmt: skip


def apply_assignment(running: bool, text: str, trainer: Trainer) -> None:
    """A student in a running experiment trains the tokenizer it assigns: the page's tokenizer
    choice is set to it (before the tokenizer panel draws) and a line says so, with the settings
    a controlled experiment fixes. A size below what the algorithm needs for `text` (a character
    vocabulary holds every character first) is raised to the smallest that works, rounded up to
    a hundred, and the line says that too."""
    given = _given()
    if given is None or given.algorithm is None:
        st.session_state.pop(ASSIGNED_KEY, None)
        return
    size = given.vocab_size
    if size is not None:
        size = fitting_size(given.algorithm, size, text, trainer)
    if not running:
        chosen = {"train.tok": "train", "train.algo": given.algorithm}
        set_before_widgets(chosen if size is None else chosen | {"train.vocab_size": size})
    vocab = given.vocab_size if given.vocab_size is not None else t("class.exp.vocab.any")
    lines = [t("class.exp.assigned", algo=given.algorithm, vocab=vocab)]
    if given.controlled:
        lines.append(t("class.exp.fixed", preset=t(f"train.preset.{given.preset}"),
                       steps=given.steps, seed=given.seed))  # fmt: skip
    st.info("\n\n".join(lines), icon=":material/science:")
    if size is not None and size != given.vocab_size:
        st.caption(t("class.exp.raised", size=size))
    st.session_state[ASSIGNED_KEY] = (given.algorithm, given.vocab_size)


def fitting_size(algorithm: str, size: int, text: str, trainer: Trainer) -> int:
    """`size` inside the page's range, raised to what `algorithm` needs for `text` when
    `trainer` trains it (the page's tokenizer panel trains the same one: cached)."""
    low, high = VOCAB_SIZES
    size = min(max(int(size), low), high)
    try:
        trainer(algorithm, size, text)
    except VocabTooSmall as err:
        size = min(-(-err.minimum // 100) * 100, high)
    except ValueError:
        pass  # the tokenizer panel says what is wrong
    return size


def post_result(parts: dict) -> None:
    """Call when the session's run has just ended: its result goes to the class leaderboard
    (once per run), measured on the run's own dev and test pairs."""
    if not in_class() or current().teacher:
        return
    from explorer_core.analysis.experiment import result_from_run
    from explorer_core.classroom import ClassError
    from explorer_core.ui.classroom.board import post
    from explorer_core.ui.classroom.seat import store
    from explorer_core.ui.training.run import current_run

    run = current_run()
    if run is None or run.result() is None:
        return
    seat = current()
    try:
        if store().pulse(seat.code).experiment_id is None:
            return  # no experiment running: nothing to post to
    except ClassError:
        return
    with st.spinner(t("cmp.running")):
        result = result_from_run(run, parts, nickname=seat.nickname)
    if post(id(run), result.to_row()):
        st.toast(t("class.student.posted"), icon=":material/leaderboard:")


def result_card() -> None:
    """In a class: where this student's last posted run stands on the leaderboard, and the board
    behind a switch (`classroom.my_result`); it stays until a newer experiment's board."""
    if not in_class() or current().teacher:
        return
    from explorer_core.ui.classroom.my_result import card

    card()
