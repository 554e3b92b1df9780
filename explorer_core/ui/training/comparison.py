"""The Train page's "Start from" choice and its model comparison (table + chart).

`start_panel(plan, running)` draws the choice and returns the plan started from it (fresh, this
session's model, MiniLM, MiniLM + 中文 once it has been built on this install, or the model the
session opened, by its reference; `training.choices.start_from`). `comparison_panel(parts,
data_key)` scores every model the session has on the same test pairs (`analysis.comparison.
compare`): the lexical baseline, the model before training, the trained model, MiniLM as is and,
once a run started from MiniLM, MiniLM fine-tuned; likewise MiniLM + 中文 as is (once built) and
fine-tuned. Rows are kept per data set in the session, so a model trained from scratch and a
fine-tuned MiniLM end up side by side; a model is scored once, when it first appears (about a
second for MiniLM on 80 pairs), not on every rerun.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st
import torch

from explorer_core.analysis.comparison import ComparisonRow, Contender, compare
from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.files import taught_model
from explorer_core.inputs.datasets import SentencePair
from explorer_core.training.base_models import MINILM_LABEL, TAUGHT_LABEL, describe_opened
from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.choices import SharedModel, run_memory_bytes, start_from
from explorer_core.training.run import TrainingPlan
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.models.sources import REF_KEY, opened_model
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer, taught
from explorer_core.ui.training import calls as ui
from explorer_core.ui.training import run as runs
from explorer_core.ui.training.run import MAX_SNAPSHOTS
from explorer_core.viz.comparison import comparison_figure, comparison_frame

START_KEY = "train.start_from"  # one of STARTS
DEVICE_KEY = "train.device"  # "cuda" or "cpu", shown only when torch sees a GPU
TAUGHT = "taught"  # MiniLM + 中文 (base_models), offered only once built on this install
OPENED = "opened"  # the model this session opened (ui.models: REF_KEY), labelled by its reference
STARTS = ("fresh", "session", "minilm", TAUGHT, OPENED)
COMPARE_KEY = "train.compare"  # {data key: {"rows": {model: [ComparisonRow]}, "seen": {...}}}
AS_IS = ("lexical", "minilm", "taught")  # rows of every session: not the session's own models
ORDER = ("lexical", "fresh", "trained", "minilm", "minilm_ft", "taught", "taught_ft", "opened_ft")


def start_panel(
    planned: tuple[TrainingPlan, int] | None, running: bool
) -> tuple[TrainingPlan, int] | None:
    """Draw "Start from"; return (plan started there, memory its run holds), or None with a
    message when it cannot start there."""
    offered = offered_starts()
    st.session_state.setdefault(START_KEY, "fresh")
    if st.session_state[START_KEY] not in offered:  # a link or a lesson pack from elsewhere
        if st.session_state[START_KEY] == TAUGHT:
            st.info(t("cmp.start.taught_missing"), icon=":material/info:")
        st.session_state[START_KEY] = "fresh"
    shared = ui.shared_model()
    ref = opened_ref()  # subtle: read now, not inside format_func (it may run elsewhere later)
    choice = st.radio(
        t("cmp.start"), offered, key=START_KEY, horizontal=True, disabled=running,
        format_func=lambda s: ref if s == OPENED else t(f"cmp.start.{s}"),
        help=t("cmp.start.help"),
    )  # fmt: skip
    if choice in ("minilm", TAUGHT, OPENED):
        st.caption(t(f"cmp.start.{choice}_note"))
    device = "cpu"
    if torch.cuda.is_available():  # only offered where there is a GPU
        st.session_state.setdefault(DEVICE_KEY, "cuda")
        device = st.radio(
            t("cmp.device"), ("cuda", "cpu"), key=DEVICE_KEY, horizontal=True, disabled=running,
            format_func=lambda d: t(f"cmp.device.{d}"),
        )  # fmt: skip
    if planned is None:
        return None
    plan, need = planned
    try:
        session = shared.checkpoint if shared else None
        started = replace(_started(plan, choice or "fresh", session), device=device or "cpu")
    except (ValueError, PretrainedUnavailable) as err:
        st.error(t("cmp.start.bad", reason=str(err)))
        return None
    if started.model_config is not plan.model_config:  # another architecture holds other memory
        fine = started.finetune
        need = run_memory_bytes(started.model_config, fine.batch_size, fine.max_length,
                                MAX_SNAPSHOTS)  # fmt: skip
    return started, need


def _started(plan: TrainingPlan, choice: str, session: Checkpoint | None) -> TrainingPlan:
    """The plan from `choice`; the opened model starts from its folder, which the worker loads
    (`base_models.load_weights_of`), with the tokenizer, config and pooling it already holds."""
    if choice != OPENED:
        return start_from(plan, choice, session)
    opened = opened_model(opened_ref())  # ModelRefused (a ValueError) when it may not be opened
    base = describe_opened(opened)
    return start_from(plan, base.init, base=base)


def opened_ref() -> str:
    """The reference of the model this session opened; "" when none."""
    return str(st.session_state.get(REF_KEY) or "").strip()


def offered_starts() -> tuple[str, ...]:
    """STARTS, without MiniLM + 中文 until it has been built on this install, and without the
    opened model while the session has opened none."""
    built, ref = taught_model.built_folder() is not None, opened_ref()
    return tuple(s for s in STARTS if (s != TAUGHT or built) and (s != OPENED or ref))


def _model_key(shared: SharedModel) -> str:
    """Which comparison row the session's model fills: a pretrained start keeps its label at the
    start of the run's label (base_models)."""
    if shared.label.startswith(MINILM_LABEL):
        return "minilm_ft"
    ref = opened_ref()
    if ref and shared.label.startswith(f"{ref}, "):  # run labels read "<start>, trained in ..."
        return "opened_ft"
    return "taught_ft" if shared.label.startswith(TAUGHT_LABEL) else "trained"


@st.cache_resource(max_entries=8, show_spinner=False)
def _rows_as_is(
    data_key: str, max_length: int, _parts: dict[str, list[SentencePair]],
    taught_stamp: float | None = None,
) -> list[ComparisonRow]:  # fmt: skip
    """The lexical baseline's, MiniLM's and (once built; `taught_stamp` names the build)
    MiniLM + 中文's rows on one data set (`data_key` names it): the same for every session, so
    computed once per server. Thirty sessions whose runs ended together each scored MiniLM
    themselves (WordPiece and a forward pass over the test pairs), and the server's health check
    waited 1.5 s behind them (bench/classroom_load.py --train)."""
    try:
        contenders = [Contender("minilm", minilm_model(), minilm_tokenizer())]
    except (ImportError, PretrainedUnavailable):
        contenders = []
    ckpt = taught() if taught_stamp is not None else None
    if ckpt is not None:
        contenders.append(Contender(TAUGHT, ckpt.model, ckpt.tokenizer, ckpt.pooling))
    return compare(contenders, _parts["train"], _parts["test"], max_length)


def _score_new_models(parts: dict[str, list[SentencePair]], data_key: str, store: dict) -> None:
    """Score the session's model (and, the first time, its fresh start, MiniLM and the
    baseline)."""
    shared = ui.shared_model()
    if shared is None or store["seen"].get("model") == id(shared):
        return
    key = _model_key(shared)
    contenders = [Contender(key, shared.model, shared.tokenizer, shared.checkpoint.pooling)]
    if key == "trained" and shared.snapshots and shared.snapshots[0].step == 0:
        contenders.append(Contender("fresh", shared.snapshots[0].model(), shared.tokenizer,
                                    shared.checkpoint.pooling))  # fmt: skip
    max_length = shared.checkpoint.max_length
    with st.spinner(t("cmp.running")):
        rows = compare(contenders, parts["train"], parts["test"], max_length, baseline=False)
        rows += _rows_as_is(data_key, max_length, parts, taught_model.stamp())
    fresh = {c.key for c in contenders} | {r.model for r in rows}
    for model in fresh:
        store["rows"][model] = [r for r in rows if r.model == model]
    if key == "trained" and "fresh" not in fresh:
        store["rows"].pop("fresh", None)  # the old fresh model belongs to another run
    store["seen"]["model"] = id(shared)


def comparison_panel(parts: dict[str, list[SentencePair]], data_key: str) -> None:
    """The comparison section of the Train page (see the module docstring)."""
    st.subheader(t("cmp.head"))
    st.markdown(t("cmp.intro"))
    test = parts.get("test") or []
    if len(test) < 3:
        st.info(t("cmp.none"))
        return
    stores = st.session_state.setdefault(COMPARE_KEY, {})
    store = stores.setdefault(data_key, {"rows": {}, "seen": {}})
    if not runs.is_active():
        _score_new_models(parts, data_key, store)
    rows: list[ComparisonRow] = [r for m in ORDER for r in store["rows"].get(m, [])]
    if not any(r.model not in AS_IS for r in rows):
        st.info(t("cmp.wait"))
        return
    names = {m: t(f"cmp.model.{m}") for m in ORDER}
    langs = {lang: t(f"cmp.lang.{lang}") if lang in ("en", "zh") else lang
             for lang in dict.fromkeys(r.lang for r in rows)}  # fmt: skip
    frame = comparison_frame(rows, names)
    unk = {f"[UNK] {lang}": f"[UNK] {name}" for lang, name in langs.items()}
    frame = frame.rename(columns={"model": t("cmp.col.model"), **langs, **unk})
    shown = frame.round(3)
    for column in unk.values():  # a share in percent; the baseline has no tokens at all
        if column in shown:
            shown[column] = frame[column].map(lambda v: "" if v != v else f"{v:.1%}")
    st.dataframe(shown, hide_index=True, key="cmp.table")
    fig = comparison_figure(
        rows, names, title=t("cmp.chart.title"), x_title=t("cmp.chart.x"),
        y_title=t("cmp.chart.y"), lang_names=langs,
    )  # fmt: skip
    show_chart(fig, "cmp.chart")
    st.caption(t("cmp.caption", pairs=len(test)))
    minilm_zh = [r for r in store["rows"].get("minilm", []) if r.lang == "zh"]
    if minilm_zh:
        st.markdown(t("cmp.why", unk_zh=f"{minilm_zh[0].unk_share:.0%}"))
