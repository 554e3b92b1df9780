"""The class experiment ("which tokenizer makes the better model?") and the quiz points.

The teacher picks tokenizers, vocabulary sizes and what every run shares (model preset, a number
of training steps, the seeds: `training.controlled.ExperimentSettings`) and starts it; each
student's next run on the Train page trains with the tokenizer and seed the experiment assigns
(round-robin over seeds × tokenizers, `ClassStore.assignment`) and its fixed settings, and posts
its result when it ends (`post_result`, called from the Train page). The teacher's panel says what
the experiment fixes, and shows the leaderboard, the spread over seeds (mean ± sd and n per
tokenizer), a chart of test Spearman by tokenizer (each run a point, mean ± sd per tokenizer and
language) with the lexical baseline and MiniLM on the same built-in test pairs as reference
lines, and the board as CSV (seed, steps and preset columns included).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from explorer_core.classroom import Assignment, ClassError
from explorer_core.tokenization import ALGORITHMS
from explorer_core.training.controlled import (
    DEFAULT_SEEDS,
    STEPS_RANGE,
    ExperimentSettings,
    parse_seeds,
)
from explorer_core.training.presets import PRESETS
from explorer_core.ui.classroom.gate import current, notice
from explorer_core.ui.classroom.seat import Seat, report
from explorer_core.ui.classroom.seat import store as class_store
from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.present import table_height

ALGOS_KEY, VOCABS_KEY = "class.t.exp.algos", "class.t.exp.vocabs"
PRESET_KEY, STEPS_KEY, SEEDS_KEY = "class.t.exp.preset", "class.t.exp.steps", "class.t.exp.seeds"
# The default experiment, chosen by measurement (`experiment tokenizers --vocab-sizes 1000
# --seeds 0,1,2,3,4`, the recipe the Train page trains in a class experiment): at 1,000 tokens a
# word-level vocabulary cannot spell 40% of the English test tokens, and WordPiece, whose
# alphabet is the training sentences' characters, not the Chinese test characters that never
# occur in them (17% [UNK]), while byte-level BPE spells everything from bytes. Differences the
# seed does not undo: English test Spearman ranked wordpiece > byte-bpe > word with each of the 5
# seeds. Sizes 2,000 and 4,000 with char-bpe, byte-bpe and wordpiece (the default before) gave
# orders that changed with the seed. One size, three tokenizers: 30 students give 10 seeds each.
DEFAULT_ALGOS = ("byte-bpe", "wordpiece", "word")
DEFAULT_VOCABS = "1000"
VOCAB_RANGE = (100, 30_000)  # the Train page's own tokenizer sizes (ui/training/panels.py)
POSTED_KEY = "class.posted"  # id of the run whose result this session already posted
MINE_KEY = "class.my_result"  # (class code, row) of the last result this session posted
ASSIGNMENT_KEY = "class.assignment"  # ((code, experiment id), Assignment) of this student
COLUMNS = {  # leaderboard column -> text key of its header
    "nickname": "class.col.nickname", "algorithm": "class.col.tokenizer",
    "vocab_size": "class.col.vocab", "seed": "class.col.seed", "preset": "class.col.preset",
    "steps": "class.col.steps", "seconds": "class.col.seconds",
    "test_spearman_en": "class.col.test_en", "test_spearman_zh": "class.col.test_zh",
    "dev_spearman_en": "class.col.dev_en", "dev_spearman_zh": "class.col.dev_zh",
    "unk_share_en": "class.col.unk_en", "unk_share_zh": "class.col.unk_zh",
}  # fmt: skip
SPREAD_COLUMNS = {  # spread-over-seeds column (viz.experiment.spread_frame) -> its header's key
    "tokenizer": "class.col.tokenizer", "lang": "class.col.lang", "mean_sd": "class.col.mean_sd",
    "n": "class.col.runs", "min": "class.col.min", "max": "class.col.max",
    "seeds": "class.col.seeds",
}  # fmt: skip


def parse_vocabs(text: str) -> list[int | None] | None:
    """The teacher's vocabulary sizes; [None] (each student's choice) when empty; None if bad.

    >>> parse_vocabs("300, 1000"), parse_vocabs(""), parse_vocabs("12x"), parse_vocabs("5")
    ([300, 1000], [None], None, None)
    """
    parts = [p.strip() for p in text.replace("，", ",").split(",") if p.strip()]
    if not parts:
        return [None]
    try:
        sizes = [int(p) for p in parts]
    except ValueError:
        return None
    low, high = VOCAB_RANGE
    return sizes if all(low <= s <= high for s in sizes) else None


def teacher_board(
    seat: Seat, experiment_id: int | None, wide: bool, board_here: bool = True
) -> list[dict]:
    """Start or end the experiment, and its live leaderboard and chart; returns the board's
    rows. `board_here=False`: the leaderboard is drawn elsewhere (`leaderboard(rows, wide)`:
    while presenting, across the page below the panel's columns), unless it is still empty."""
    st.markdown(f"**{t('class.exp.head')}**")
    if experiment_id is None:
        st.caption(t("class.exp.none"))
        _start_form(seat)
    else:
        st.caption(t("class.exp.running", n=experiment_id))
        st.button(t("class.exp.stop"), key="class.t.exp.stop", icon=":material/stop:",
                  on_click=_stop, args=(seat,))  # fmt: skip
    rows = class_store().results(seat.code)
    if rows or experiment_id is not None:
        settings_line(class_store().experiment_settings(seat.code))
    if board_here or not rows:
        leaderboard(rows, wide)
    return rows


def settings_line(settings: ExperimentSettings | None) -> None:
    """What the experiment fixes (or that it fixed only the tokenizer: one from before)."""
    if settings is None:
        st.caption(t("class.exp.uncontrolled"))
        return
    seeds = ", ".join(str(s) for s in settings.seeds)
    st.markdown(t("class.exp.controlled", preset=settings.preset, steps=settings.steps,
                  seeds=seeds))  # fmt: skip


DEFAULT = ExperimentSettings()  # the form's preset and steps until the teacher changes them


def _start_form(seat: Seat) -> None:
    # subtle: each widget's default is its own argument, never a value put into Session State
    # first: this panel is a fragment rerun every second, and a first visit's full runs can
    # follow each other (the shell writes the seat into the URL); the multiselect then showed
    # empty and sent [] back (seen in the browser test: Start refused, "no tokenizer").
    st.multiselect(t("class.exp.algorithms"), ALGORITHMS, default=list(DEFAULT_ALGOS),
                   key=ALGOS_KEY)  # fmt: skip
    st.text_input(t("class.exp.vocabs"), DEFAULT_VOCABS, key=VOCABS_KEY)
    left, middle, right = st.columns(3)
    presets = tuple(PRESETS)
    left.selectbox(t("class.exp.preset"), presets, index=presets.index(DEFAULT.preset),
                   key=PRESET_KEY)  # fmt: skip
    middle.number_input(t("class.exp.steps"), *STEPS_RANGE, value=DEFAULT.steps, step=10,
                        key=STEPS_KEY, help=t("class.exp.steps.help"))  # fmt: skip
    right.text_input(t("class.exp.seeds"), ", ".join(map(str, DEFAULT_SEEDS)), key=SEEDS_KEY,
                     help=t("class.exp.seeds.help"))  # fmt: skip
    algos, sizes, settings, _ = _form_values()  # as the Start button's callback reads them
    if algos and sizes is not None and settings is not None:
        cells = len(algos) * len(sizes)
        top = max(settings.seeds)
        st.caption(t("class.exp.grid", runs=cells * len(settings.seeds), cells=cells,
                     seeds=len(settings.seeds), next=top + 1, after=top + 2))  # fmt: skip
    st.button(t("class.exp.start"), key="class.t.exp.start", icon=":material/science:",
              on_click=_start, args=(seat,))  # fmt: skip


# subtle: the panel is a fragment rerun every second, and a click's own rerun can be lost on the
# way: a full page run in between registers the fragment afresh, and a queued rerun of a fragment
# the server no longer knows is skipped (Streamlit's "Couldn't find fragment"). A callback runs at
# the start of the next run of any kind, so the click always acts; the panel's next draw shows it.
def _start(seat: Seat) -> None:
    """Start the experiment from the form's values (a Start button's callback)."""
    algos, sizes, settings, problem = _form_values()
    if not algos:
        notice("class.exp.no_algo", level="warning")
    elif sizes is None:
        notice("class.exp.bad_vocab", level="warning", min=VOCAB_RANGE[0], max=VOCAB_RANGE[1])
    elif settings is None:
        notice("class.exp.bad_seeds", level="warning", reason=problem)
    else:
        try:
            class_store().start_experiment(seat.code, seat.secret or "", algos, sizes, settings)
        except ClassError as err:
            report(err, seat.code)


def _form_values() -> tuple[list[str], list[int | None] | None, ExperimentSettings | None, str]:
    """The start form's tokenizers, sizes (None if bad) and settings (None, and why, if bad)."""
    state = st.session_state
    algos, sizes = list(state.get(ALGOS_KEY) or []), parse_vocabs(state.get(VOCABS_KEY, ""))
    try:
        settings = ExperimentSettings(state.get(PRESET_KEY), int(state.get(STEPS_KEY)),
                                      parse_seeds(state.get(SEEDS_KEY, "")))  # fmt: skip
        return algos, sizes, settings, ""
    except (TypeError, ValueError) as err:
        return algos, sizes, None, str(err)


def _stop(seat: Seat) -> None:
    try:
        class_store().stop_experiment(seat.code, seat.secret or "")
    except ClassError as err:
        report(err, seat.code)


def readable(rows: Sequence[dict]) -> list:  # ExperimentResult
    """The board's rows as results; a row the board cannot read is left out, never a broken
    panel."""
    from explorer_core.analysis.experiment import ExperimentResult

    results = []
    for row in rows:
        try:
            results.append(ExperimentResult.from_row(row))
        except (KeyError, TypeError, ValueError):
            continue
    return results


def leaderboard(rows: Sequence[dict], wide: bool) -> None:
    if not rows:
        st.caption(t("class.exp.board.none"))
        return
    from explorer_core.viz.experiment import experiment_figure, results_frame

    results = readable(rows)
    if not results:
        st.caption(t("class.exp.board.none"))
        return
    frame = results_frame(results)
    shown = frame[[c for c in COLUMNS if c in frame.columns]]
    st.markdown(f"**{t('class.exp.board', n=len(results))}**")
    st.dataframe(shown.rename(columns={c: t(k) for c, k in COLUMNS.items()}), hide_index=True,
                 height=table_height(len(shown), 400))  # fmt: skip
    spread_table(results)
    lang_names = {"en": t("cmp.lang.en"), "zh": t("cmp.lang.zh"), "all": t("cmp.lang.all")}
    safe = [_escaped(r) for r in results]  # plotly reads some HTML in hover text
    fig = experiment_figure(
        safe, title=t("class.exp.chart.title", lang=" / ".join(lang_names.values())),
        x_title=t("class.exp.chart.x"), y_title=t("class.exp.chart.y"),
        lang_names=lang_names, references=references(),
    )  # fmt: skip
    show_chart(fig, key="class.t.exp.chart")
    download_csv(frame, "class-leaderboard", key="class.t.exp.csv", label=t("class.exp.csv"))


def spread_table(results: Sequence) -> None:  # ExperimentResult
    """Test Spearman per tokenizer and language over its runs: mean ± sd, n, min, max, seeds;
    then each pair of tokenizers seed by seed (how often the one ahead scored higher)."""
    from explorer_core.viz.experiment import head_to_head_lines, spread_frame

    frame = spread_frame(results)
    if frame.empty:
        return
    st.markdown(f"**{t('class.exp.summary')}**")
    st.dataframe(frame.rename(columns={c: t(k) for c, k in SPREAD_COLUMNS.items()}),
                 hide_index=True, height=table_height(len(frame), 300))  # fmt: skip
    names = {lang: t(f"cmp.lang.{lang}") for lang in ("en", "zh", "all")}
    lines = head_to_head_lines(results, t("class.exp.won"), names)
    if not lines:  # one tokenizer, or no seed shared yet
        return
    st.markdown(f"**{t('class.exp.head_to_head')}**")
    st.markdown("\n".join(f"- {line}" for line in lines))
    st.caption(t("class.exp.head_to_head.caption"))


def _escaped(result):  # noqa: ANN001, ANN202 - an ExperimentResult
    from dataclasses import replace

    return replace(result, nickname=html.escape(result.nickname))


@st.cache_resource(show_spinner=False, max_entries=1)
def _references() -> dict[str, dict[str, float | None]]:
    """The lexical baseline's and MiniLM's test Spearman per language on the built-in pairs:
    the same for every class, computed once per server."""
    from explorer_core.analysis.comparison import Contender
    from explorer_core.analysis.experiment import reference_scores
    from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
    from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer

    try:
        contenders = [Contender("minilm", minilm_model(), minilm_tokenizer())]
    except Exception:  # noqa: BLE001 - MiniLM not installed: the baseline alone
        contenders = []
    return reference_scores(split_pairs(builtin_sts_pairs()), contenders)["test"]


def references() -> dict[str, dict[str, float | None]]:
    found = _references()
    return {t("class.exp.lexical"): found.get("lexical", {}),
            t("class.exp.minilm"): found.get("minilm", {})}  # fmt: skip


def scores_table(scores: Sequence[tuple[str, int]]) -> None:
    """The class's quiz points, best first (nicknames shown as text in a table)."""
    if not scores:
        return
    st.markdown(f"**{t('class.teacher.scores.head')}**")
    frame = pd.DataFrame(scores, columns=[t("class.col.nickname"), t("class.col.points")])
    st.dataframe(frame, hide_index=True, height=table_height(len(frame), 300))


# ---- the student's side: the assigned tokenizer, and posting a result --------------------------


def assignment(experiment_id: int | None) -> Assignment | None:
    """This student's tokenizer in experiment `experiment_id` (the pulse's), or None.

    Asked of the database once per experiment (the store keeps it, so it never changes) and
    remembered in the session: the student's bar must stay one read every 3 s.
    """
    seat = current()
    if seat is None or seat.teacher or experiment_id is None:
        return None
    known = st.session_state.get(ASSIGNMENT_KEY)
    if known is not None and known[0] == (seat.code, experiment_id):
        return known[1]
    try:
        given = class_store().assignment(seat.code, seat.token or "")
    except ClassError:
        return None
    st.session_state[ASSIGNMENT_KEY] = ((seat.code, experiment_id), given)
    return given


def post(run_id: int, row: dict) -> bool:
    """Post a finished run's result row once (`run_id` names the run); True when it was posted."""
    seat = current()
    if seat is None or seat.teacher or st.session_state.get(POSTED_KEY) == run_id:
        return False
    try:
        class_store().post_result(seat.code, seat.token or "", row)
    except ClassError as err:
        report(err, seat.code)
        return False
    st.session_state[POSTED_KEY] = run_id
    st.session_state[MINE_KEY] = (seat.code, dict(row))  # the Train page's card reads it
    return True
