"""Panels of the Train page: tokenizer choice, live progress (polled fragment), the result.

Each panel reads its own widgets (keys "train.*") and draws; the maths lives in the core
(`training.choices`, `training.run`, `training.baselines`) and the figures in `viz.training`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from explorer_core.files import tables
from explorer_core.inputs.sts_format import SentencePair
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer
from explorer_core.training.baselines import fit_baseline
from explorer_core.training.choices import SharedModel, split_scores
from explorer_core.training.metrics import spearman
from explorer_core.ui.export import download, download_csv, download_json, show_chart
from explorer_core.ui.i18n import current_language, t
from explorer_core.ui.state import (
    SHARED_MODEL,
    SHARED_TOKENIZER,
    SHARED_TOKENIZER_NAME,
    bound,
    url_synced,
)
from explorer_core.ui.throttle import script_slot
from explorer_core.ui.training import calls as ui
from explorer_core.ui.training import run as runs
from explorer_core.viz import training as viz

TOKENIZER_SOURCES = ("lab", "train", "vocab")
ZIP_RESULT_KEY = "train.zip_result"  # (file id, error text or "") of the last uploaded zip
FIGURES_KEY = "train.figures"  # the progress charts of the last poll, and the record count
DRAWN_KEY = "train.drawn"  # what the whole page last drew the run as: "waiting", "active", ""
CHART_SECONDS = 3.0  # while training, rebuild the charts at most this often

Parts = dict[str, list[SentencePair]]

VOCAB_SIZES = (100, 30_000)  # the Train page's own tokenizer: smallest, largest


def tokenizer_panel(
    algorithms: Sequence[str], text: str, running: bool, defaults: Mapping[str, Any],
    trainer: Callable[[str, int, str], Tokenizer] = ui.trained_tokenizer,
) -> Tokenizer | None:  # fmt: skip
    """The tokenizer the learner chose, or None (with a message saying what is missing).

    Source, algorithm and vocabulary size are kept in the URL (`train.tok`, `train.algo`,
    `train.vocab_size`); `defaults` are the page's defaults. A tokenizer to train is trained
    on `text` by `trainer` (a class experiment's: `calls.experiment_tokenizer`).
    """
    url_synced("train.tok", TOKENIZER_SOURCES)  # translated labels: kept in the URL as codes
    url_synced("train.algo", tuple(algorithms))
    kind = st.segmented_control(
        t("train.tok"), TOKENIZER_SOURCES, key="train.tok", disabled=running,
        format_func=lambda s: t(f"train.tok.{s}"),
    ) or "train"  # fmt: skip
    try:
        if kind == "lab":
            tokenizer = st.session_state.get(SHARED_TOKENIZER)
            if tokenizer is None:
                st.warning(t("train.tok.no_lab"))
                return None
            name = str(st.session_state.get(SHARED_TOKENIZER_NAME, tokenizer.algo))
        elif kind == "train":
            left, right = st.columns(2)
            algo = left.selectbox(t("train.tok.algo"), algorithms, key="train.algo",
                                  format_func=lambda a: t(f"tok.encode.algo.{a}"),
                                  disabled=running)  # fmt: skip
            size = right.number_input(
                t("train.tok.size"),
                step=100,
                disabled=running,
                **bound("train.vocab_size", defaults, span=VOCAB_SIZES),
            )
            tokenizer, name = trainer(algo, int(size), text), algo
        else:
            file = st.file_uploader(t("train.tok.file"), type=["txt"], key="train.vocab_file",
                                    disabled=running)  # fmt: skip
            lower = st.checkbox(t("train.tok.lower"), key="train.lower", disabled=running)
            if file is None:
                st.info(t("train.tok.wait"))
                return None
            tokenizer, name = ui.vocab_tokenizer(file.getvalue(), bool(lower), file.name), file.name
        ids = BertVocab.of(tokenizer).size
    except ValueError as err:
        st.error(t("train.tok.bad", reason=str(err)))
        return None
    st.caption(t("train.tok.info", name=name, ids=f"{ids:,}"))
    return tokenizer


def _baseline_dev(parts: Parts, data_key: str) -> float | None:
    """The lexical baseline's dev Spearman, computed once per data choice in this session."""
    memo = st.session_state.setdefault("train.baseline_dev", {})
    if data_key not in memo:
        dev = parts.get("dev") or []
        memo[data_key] = None
        if len(dev) >= 2 and parts.get("train"):
            model = fit_baseline(parts["train"])
            memo[data_key] = spearman(model.predict(dev), [p.score for p in dev])
    return memo[data_key]


def _status_line(status) -> None:  # noqa: ANN001 - a training.run.RunStatus
    seconds = round(status.seconds)
    if status.state == "running":
        total = f"/{status.total_steps}" if status.total_steps else ""
        eta = (t("train.eta", s=round(status.eta_seconds)) if status.eta_seconds is not None
               else t("train.eta.unknown"))  # fmt: skip
        text = t("train.progress", phase=t(f"train.phase.{status.phase}"), step=status.step,
                 total=total, elapsed=seconds, eta=eta)  # fmt: skip
        st.progress(min(1.0, max(0.0, status.fraction)), text=text)
    elif status.state == "failed":
        st.error(t("train.state.failed", error=status.error))
    else:
        st.progress(1.0, text=t(f"train.state.{status.state}", s=seconds))


def progress_panel(parts: Parts, data_key: str) -> None:
    """Queue place or progress, loss curves and dev Spearman of this session's run.

    Runs as a fragment polled once a second. Each poll tells the server the session is still here
    (`train_run.poll_run`) and draws the status line; the figures are rebuilt only when new records
    arrived, at most every CHART_SECONDS while training, and redrawn from the session's memo
    otherwise, so a poll costs little.
    """
    with script_slot():
        _progress(parts, data_key)


def _progress(parts: Parts, data_key: str) -> None:
    run = runs.current_run()
    if run is None:
        st.info(t("train.none"))
        return
    place = runs.poll_run()
    status = run.status()
    st.caption(t("train.server", **runs.server_counts()))
    if status.state == "idle":
        _queue_line(place)
        return
    if st.session_state.get(DRAWN_KEY) == "waiting":
        st.rerun(scope="app")  # admitted: redraw the page with Stop instead of Cancel
    _status_line(status)
    figures, records = _figures(run, status, parts, data_key)
    for fig, key, caption in figures:
        show_chart(fig, key)
        st.caption(caption)
    if not any(key == "train.eval_chart" for _, key, _ in figures):
        st.caption(t("train.eval.none"))
    if records:
        _log_downloads(records)
    if status.state != "running" and st.session_state.get(ui.PUBLISHED_KEY) != id(run):
        st.rerun(scope="app")  # the run just ended: redraw the whole page with the result


def _queue_line(place: int | None) -> None:
    """A waiting run: its place in the queue; or why it left the queue."""
    if place:
        server = runs.server_counts()
        st.progress(0.0, text=t("train.queue", place=place, **server))
        seconds = runs.start_estimate()
        st.caption(t("train.queue.start.unknown") if seconds is None
                   else t("train.queue.start", s=round(seconds)))  # fmt: skip
        return
    st.warning(t("train.queue.dropped", s=round(runs.admission().expire_after)))
    if st.session_state.get(DRAWN_KEY) == "waiting":
        st.rerun(scope="app")  # enable Train again


def _figures(run, status, parts: Parts, data_key: str) -> tuple[list, list]:  # noqa: ANN001
    """[(figure, key, caption)] and the records they show, rebuilt only when records arrived."""
    memo = st.session_state.get(FIGURES_KEY)
    count, now = run.record_count(), time.monotonic()
    if memo is not None and memo["view"] == (id(run), current_language()):
        fresh = memo["count"] == count
        recent = status.state == "running" and now - memo["at"] < CHART_SECONDS
        if fresh or recent:
            return memo["figures"], memo["records"]
    records = run.records()
    names = {part: t(f"train.loss.{part}") for part in viz.LOSS_PARTS}
    x_title, figures = t("train.axis.step"), []
    losses = viz.loss_frame(records)
    if not losses.empty:
        fig = viz.loss_figure(losses, names, title=t("train.loss.title"), x_title=x_title,
                              y_title=t("train.axis.loss"))  # fmt: skip
        figures.append((fig, "train.loss_chart", t("train.loss.caption")))
    evals = viz.eval_frame(records)
    if not evals.empty:
        fig = viz.eval_figure(
            evals, baseline=_baseline_dev(parts, data_key), title=t("train.eval.title"),
            x_title=x_title, y_title=t("train.axis.spearman"), model_name=t("train.eval.model"),
            baseline_name=t("train.eval.baseline"),
        )  # fmt: skip
        figures.append((fig, "train.eval_chart", t("train.eval.caption")))
    view = (id(run), current_language())
    memo = {"view": view, "count": len(records), "at": now, "figures": figures, "records": records}
    st.session_state[FIGURES_KEY] = memo
    return figures, records


def _log_downloads(records: Sequence) -> None:
    """The run's whole log (every step, every evaluation; the charts thin long runs) as files."""
    row = st.container(horizontal=True)
    download_csv(lambda: tables.training_log(records)["loss"], "training-loss", "train.dl.loss",
                 row, label=t("train.dl.loss"))  # fmt: skip
    download_csv(lambda: tables.training_log(records)["eval"], "training-eval", "train.dl.eval",
                 row, label=t("train.dl.eval"))  # fmt: skip
    download_json(lambda: tables.training_log_record(records), "training-log", "train.dl.log",
                  row, label=t("train.dl.log"))  # fmt: skip


def _raw_scores(shared: SharedModel, parts: Parts, data_key: str) -> pd.DataFrame:
    """Per split: pairs, the model's Spearman, the baseline's (stable column names, for files)."""
    memo = st.session_state.setdefault(ui.SCORES_KEY, {})
    key = (id(shared.model), data_key)
    if key not in memo:
        memo.clear()  # one model and one data choice at a time
        memo[key] = split_scores(shared.checkpoint, parts)
    return pd.DataFrame(memo[key])


def _scores(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    frame["split"] = frame["split"].map(lambda s: t(f"sim.split.{s}"))
    return frame.rename(columns={c: t(f"train.result.col.{c}") for c in frame.columns})


def _upload_zip(running: bool) -> None:
    file = st.file_uploader(t("train.zip"), type=["zip"], key="train.zip",
                            help=t("train.zip_help"), disabled=running)  # fmt: skip
    if file is None:
        return
    seen = st.session_state.get(ZIP_RESULT_KEY)
    if seen is None or seen[0] != file.file_id:
        try:
            shared = ui.load_zip(file.getvalue())
        except ValueError as err:
            seen = (file.file_id, str(err))
        else:
            st.session_state[SHARED_MODEL] = shared
            seen = (file.file_id, "")
        st.session_state[ZIP_RESULT_KEY] = seen
    if seen[1]:
        st.error(t("train.zip.bad", reason=seen[1]))
    elif (shared := ui.shared_model()) is not None and shared.source == "uploaded":
        st.success(t("train.zip.ok", label=ui.model_label(shared)))


def result_panel(parts: Parts, data_key: str, running: bool) -> None:
    """The session's model: Spearman next to the baseline, download and upload of checkpoints."""
    st.subheader(t("train.result.head"))
    top = st.container()  # filled after the uploader below, which may replace the model
    _upload_zip(running)
    shared = ui.shared_model()
    with top:
        _model_summary(shared, parts, data_key)


def _model_summary(shared: SharedModel | None, parts: Parts, data_key: str) -> None:
    if shared is None:
        st.info(t("train.result.none"))
        return
    st.markdown(t("train.result.label", label=ui.model_label(shared)))
    raw = _raw_scores(shared, parts, data_key)
    st.dataframe(_scores(raw).style.format(precision=3, na_rep="—"), hide_index=True)
    st.caption(t("train.result.caption"))
    row = st.container(horizontal=True)
    download_csv(raw, "spearman", "train.dl.scores", row, label=t("train.dl.scores"))
    download(t("train.download"), lambda: ui.zip_bytes(shared), "embedding-explorer-checkpoint.zip",
             "application/zip", "train.download", row)  # fmt: skip
