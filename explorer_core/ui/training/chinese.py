"""Teach MiniLM Chinese: the Train page's third kind of training, and the build the Chinese guided
lesson asks for.

The build is the server's, not a session's: one `TrainingRun` of a `DistillPlan` (a worker
process, admitted by the server's one `Admission` like any run, under the name `OWNER`) installs
"MiniLM + 中文, taught here" once per install (`files.taught_model`), where every page reads it
(`ui.pretrained.taught`). The server starts it by itself on a fresh install, in the background
(`start_background_build`, called by `ui.taught.autobuild`); a press of Build starts it at once.
Every session sees the same build's progress; only the session that started it may stop it. It
runs to its end when that tab closes (nobody else would restart the work), and a Stop installs
the model as it is, as any Stop in the app keeps what was trained.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core.files import taught_model
from explorer_core.training.admission import Refused
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer, taught

if TYPE_CHECKING:
    from explorer_core.training.loop import EvalRecord
    from explorer_core.training.multilingual import DistillPlan
    from explorer_core.training.worker import TrainingRun

# subtle: torch, pandas, the worker and the recipe are imported where used, so the Chinese
# lesson's notice (ui/lesson/notice.py) and the home page's build line draw without waiting for
# them on a server that just started (torch and pandas made its first page ~1.7 s slower).

OWNER = "install:minilm-zh"  # the build's name in the server's admission queue
# a build's peak memory: 1.40 GB measured (VmHWM of `train multilingual` on the shipped pairs)
NEED_BYTES = 1536 * 2**20
EVAL_EVERY = 25  # steps between the curve's points: 13 points in a default build, ~0.4 s each
PHASE = "multilingual"  # training.multilingual.PHASE: the name of the build's log
DRAWN_KEY = "train.zh.drawn"  # id of the build this session last drew as running


@dataclass
class Board:
    """The server's one build: the run, which session started it, and a lock to start one."""

    lock: threading.Lock
    run: TrainingRun | None = None
    starter: str = ""


@st.cache_resource(show_spinner=False)
def board() -> Board:
    return Board(threading.Lock())


def current_build() -> TrainingRun | None:
    return board().run


def building() -> bool:
    """True while the build trains or waits for a slot (a request cancelled, or dropped from
    the queue because no page asked for it, waits no more)."""
    run = current_build()
    if run is None or run.running:
        return run is not None
    if run.status().state != "idle":
        return False  # it has ended
    from explorer_core.ui.training import run as runs

    return runs.admission().place(OWNER) is not None


def place() -> int | None:
    """The build's place in the queue (0: training), None when it neither trains nor waits;
    asking keeps a waiting build in the queue (the pages that show it ask once a second)."""
    from explorer_core.ui.training import run as runs

    return runs.admission().touch(OWNER) if building() else None


RECIPE_SETTING = "EXPLORER_TAUGHT_RECIPE"  # "tiny": a toy build in seconds (tests, demos)
TINY_PAIRS, TINY_STEPS = 24, 12  # the tiny recipe: ~10-60 s, long enough to watch


def plan() -> DistillPlan:
    """The app's build: the default recipe, with a point on the curve every EVAL_EVERY steps.

    EXPLORER_TAUGHT_RECIPE=tiny builds a toy model instead (24 pairs, 12 small steps) under the
    real model's name: for tests and demos of the build itself, never for a class."""
    from dataclasses import replace

    from explorer_core.inputs.parallel import builtin_parallel_pairs
    from explorer_core.training.multilingual import DistillPlan, MultilingualConfig

    out = str(taught_model.folder())
    if os.environ.get(RECIPE_SETTING, "") == "tiny":
        config = MultilingualConfig(steps=TINY_STEPS, batch_size=8, eval_every=4)
        pairs = tuple(builtin_parallel_pairs()[:TINY_PAIRS])
        return DistillPlan(config, pairs=pairs, device="cpu", out=out)
    config = replace(MultilingualConfig(), eval_every=EVAL_EVERY)
    return DistillPlan(config, device="auto", out=out)


def start_build() -> str | None:
    """Start (or queue) the build; None when it started or waits, else why not (translated)."""
    from explorer_core.training.worker import TrainingRun
    from explorer_core.ui.training import run as runs

    gate, shared = runs.admission(), board()
    with shared.lock:
        if building():
            return t("train.zh.already")
        run = TrainingRun(plan(), max_snapshots=2, expire_after=None)
        try:
            gate.submit(OWNER, run, NEED_BYTES)
        except Refused as err:
            if err.reason == "busy":
                return t("train.zh.already")
            return t("train.zh.refused.budget", need=err.need // 2**20, budget=err.budget // 2**20)
        shared.run, shared.starter = run, runs.owner()
    taught_model.remove_stale()  # older recipes' models: never read again
    taught_model.clear_failure()  # a press of Build is the retry a failed build waits for
    return None


def start_background_build() -> TrainingRun:
    """The server's own build (`ui.taught.autobuild`'s thread: no session, no texts): queued
    behind every session's run and paused for them (`Admission.submit(background=True)`), its
    worker niced to `worker.background_nice()` (19) with one torch thread. Returns the build
    that is running now, this one or one a press of Build started before. Raises
    admission.Refused (budget), ValueError (a bad EXPLORER_BACKGROUND_NICE)."""
    from explorer_core.training.worker import TrainingRun, background_nice
    from explorer_core.ui.training import run as runs

    gate, shared = runs.admission(), board()
    with shared.lock:
        if building() and shared.run is not None:
            return shared.run
        run = TrainingRun(plan(), max_snapshots=2, expire_after=None, nice=background_nice())
        gate.submit(OWNER, run, NEED_BYTES, background=True)
        shared.run, shared.starter = run, ""  # nobody's: no browser may stop it
    taught_model.remove_stale()
    return run


def may_stop() -> bool:
    return building() and board().starter == _session()


def _session() -> str:
    """This session's name in the admission queue (`ui.training.run.owner`)."""
    from explorer_core.ui.training import run as runs

    return runs.owner()


def stop_build() -> None:
    """Stop the build after its current step (the model as it is gets installed), or take a
    waiting build out of the queue."""
    run = current_build()
    if run is None or not may_stop():
        return
    if run.running:
        run.stop()
    else:
        from explorer_core.ui.training import run as runs

        runs.admission().cancel(OWNER)


# ---- what the pages draw ------------------------------------------------------------------------


def progress_text(run: TrainingRun) -> tuple[float, str]:
    """(share done, one line) of a build that trains or waits."""
    where = place()
    status = run.status()
    if getattr(run, "paused", False):  # a background build gave its slot to a session's run
        return status.fraction, t("train.zh.paused", step=status.step,
                                  total=status.total_steps or "?")  # fmt: skip
    if where:
        return 0.0, t("train.zh.waiting", place=where)
    if status.last_step is None:
        return 0.0, t("train.zh.preparing")
    eta = ""
    if status.eta_seconds is not None:  # minutes once it is more than a minute and a half
        eta = t("train.zh.eta", eta=status.eta_seconds) if status.eta_seconds < 90 else \
            t("train.zh.eta_min", minutes=status.eta_seconds / 60)  # fmt: skip
    text = t("train.zh.progress", step=status.step, total=status.total_steps or "?",
             seconds=status.seconds, eta=eta)  # fmt: skip
    return status.fraction, text


def rerun_when_ended(key: str, run: TrainingRun | None, active: bool) -> None:
    """Remember under `key` that this session drew `run` as building; the first time it is not
    any more, run the whole page again (the polled fragment alone would keep the old page)."""
    if active:
        st.session_state[key] = id(run)
    elif run is not None and st.session_state.get(key) == id(run):
        st.session_state[key] = None
        st.rerun(scope="app")


def ended_line(run: TrainingRun) -> None:
    """How the last build ended: done, stopped or failed (with its error)."""
    status = run.status()
    if status.state == "failed":
        st.error(t("train.zh.failed", error=status.error))
    elif status.state in ("finished", "stopped"):
        st.success(t(f"train.zh.ended.{status.state}"))


@st.cache_data(max_entries=1, show_spinner=False)
def minilm_figures() -> EvalRecord:
    """MiniLM as it was, measured as the build's curve measures the student (~0.4 s once)."""
    from explorer_core.training.multilingual import figures

    return figures(minilm_model(), minilm_tokenizer())


def built_line() -> bool:
    """One line: whether the model is built on this install, and with how many steps."""
    ckpt = taught()
    if ckpt is None:
        st.info(t("train.zh.not_built"))
        return False
    log = ckpt.log.get(PHASE)  # the recipe's phase name (training.multilingual.PHASE)
    steps, seconds = (len(log.steps), log.seconds) if log else (0, 0.0)
    stopped = t("train.zh.stopped") if log and log.stop_reason == "stopped" else ""
    st.success(t("train.zh.built", steps=steps, minutes=seconds / 60, stopped=stopped))
    return True


def before_after_table() -> None:
    """MiniLM as it was, the student before its first step and the taught model, side by side."""
    st.subheader(t("train.zh.table.head"))
    ckpt = taught()
    log = ckpt.log.get(PHASE) if ckpt is not None else None  # (training.multilingual.PHASE)
    if log is None or not log.evals:
        st.caption(t("train.zh.table.none"))
        return
    before, start, after = minilm_figures(), log.evals[0], log.evals[-1]
    sizes = (minilm_model().config.vocab_size, ckpt.config.vocab_size)
    rows = [
        ("unk", *(f"{100 * r.unk_share:.2f}%" for r in (before, start, after))),
        ("zh", *(f"{r.dev_spearman_zh:.3f}" for r in (before, start, after))),
        ("en", *(f"{r.dev_spearman_en:.3f}" for r in (before, start, after))),
        ("vocab", f"{sizes[0]:,}", f"{sizes[1]:,}", f"{sizes[1]:,}"),
    ]
    import pandas as pd

    columns = [t(f"train.zh.table.{c}") for c in ("measure", "minilm", "start", "taught")]
    frame = pd.DataFrame([(t(f"train.zh.table.{k}"), *v) for k, *v in rows], columns=columns)
    st.dataframe(frame, hide_index=True, width="stretch")
    st.caption(t("train.zh.table.caption"))


def progress_panel() -> None:
    """The build's progress (polled once a second while it runs): a bar, the curves, and a
    redraw of the whole page once it has ended."""
    run, active = current_build(), building()
    rerun_when_ended(DRAWN_KEY, run, active)  # then: Build again, and the new table
    if run is not None and not active and run.status().state == "idle":
        run = None  # a request that left the queue without training: nothing of its own to show
    if run is None:  # no build since the server started: the installed model's own log
        ckpt = taught()
        log = ckpt.log.get(PHASE) if ckpt is not None else None
        if log is None or not log.evals:
            st.caption(t("train.zh.none"))
            return
        st.caption(t("train.zh.installed_curve"))
        curves([*log.steps, *log.evals])
        return
    if active:
        share, text = progress_text(run)
        st.progress(min(1.0, share), text=text)
        if board().starter != _session():
            st.caption(t("train.zh.other"))
    else:
        ended_line(run)
    records = run.records()
    if records:
        curves(records)


def curves(records: list) -> None:
    """The [UNK] share, the dev Spearman per language and the two losses of a build."""
    from explorer_core.viz import training as viz

    frame = viz.distil_frame(records)
    before = minilm_figures()
    x_title = t("train.zh.axis.step")
    names = {m: t(f"train.zh.curve.{m}") for m in viz.LANG_MEASURES}
    names |= {f"before:{m}": t(f"train.zh.curve.before:{m}") for m in viz.LANG_MEASURES}
    left, right = st.columns(2)
    with left:
        fig = viz.language_figure(
            frame, {m: getattr(before, m) for m in viz.LANG_MEASURES}, names,
            title=t("train.zh.chart.lang"), x_title=x_title, y_title=t("train.zh.axis.rho"),
        )  # fmt: skip
        show_chart(fig, "train.zh.lang_chart")
        st.caption(t("train.zh.chart.lang_caption"))
    with right:
        fig = viz.unk_figure(
            frame, before.unk_share, name=t("train.zh.curve.unk"),
            before_name=t("train.zh.curve.unk_before"), title=t("train.zh.chart.unk"),
            x_title=x_title, y_title=t("train.zh.axis.unk"),
        )  # fmt: skip
        show_chart(fig, "train.zh.unk_chart")
        st.caption(t("train.zh.chart.unk_caption"))
    losses = viz.loss_frame(records)
    if not losses.empty:
        names = {part: t(f"train.loss.{part}") for part in viz.LOSS_PARTS}
        fig = viz.loss_figure(losses, names, title=t("train.zh.chart.loss"), x_title=x_title,
                              y_title="MSE")  # fmt: skip
        show_chart(fig, "train.zh.loss_chart")


def data_line() -> None:
    from explorer_core.inputs.parallel import builtin_parallel_pairs
    from explorer_core.training.multilingual import MultilingualConfig, default_dev

    config, dev = MultilingualConfig(), default_dev()
    st.caption(t(
        "train.zh.data", pairs=len(builtin_parallel_pairs()), epochs=config.epochs,
        batch=config.batch_size, lr=config.learning_rate,
        dev=sum(p.lang == "zh" for p in dev), dev_en=sum(p.lang == "en" for p in dev),
    ))  # fmt: skip
    st.caption(t("train.zh.time"))


def chinese_kind() -> None:
    """The whole "Teach MiniLM Chinese" kind of the Train page."""
    st.subheader(t("train.zh.head"))
    st.markdown(t("train.zh.explain"))
    data_line()
    built = built_line()
    active = building()
    left, right = st.columns(2)
    if left.button(
        t("train.zh.rebuild") if built else t("train.zh.start"), key="train.zh.start",
        type="primary", icon=":material/translate:", disabled=active, width="stretch",
    ):  # fmt: skip
        refusal = start_build()
        if refusal is None:
            st.rerun()
        st.error(refusal)
    right.button(
        t("train.zh.stop"), key="train.zh.stop", icon=":material/stop:", on_click=stop_build,
        disabled=not may_stop(), help=t("train.zh.stop_help"), width="stretch",
    )  # fmt: skip
    st.subheader(t("train.zh.run.head"))
    st.fragment(run_every=1.0 if active else None)(progress_panel)()
    before_after_table()
    if built:
        row = st.container(horizontal=True)
        row.markdown(t("train.zh.try"))
        for page, key in (("lessons/lesson.py", "lesson"), ("lessons/attention.py", "attention"),
                          ("lessons/similarity.py", "similarity")):  # fmt: skip
            label = t(f"train.zh.try.{key}")
            try:
                row.page_link(page, label=label, icon=":material/arrow_forward:")
            except StreamlitAPIException:  # the page runs alone (tests): no navigation
                row.markdown(f"→ {label}")
