"""The Sequence models page's views: hidden states (with gates and the n-gram window), steps and
path length, gradient over distance (behind the Predict-first question), the recall task."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pandas as pd
import streamlit as st

from explorer_core.analysis import quiz, quiz_poll
from explorer_core.sequence.compare import MODELS
from explorer_core.sequence.recall import longest_recalled
from explorer_core.ui import quiz as ask
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import CATALOGUE, t
from explorer_core.ui.sequence import calls
from explorer_core.ui.sequence.calls import Comparison, Sentence
from explorer_core.viz import sequence as viz

PAGE = "seq"  # the quiz's page name: its switch is "seq.predict"
D = calls.EMBEDDING_SIZE


@dataclass(frozen=True)
class Shown:
    sentence: Sentence
    run: Comparison
    n: int  # the n-gram window's n
    seed: int


def name(model: str) -> str:
    return t(f"seq.model.{model}")


def tokens(sentence: Sentence) -> None:
    """The sentence's tokens in one caption; a note when the vocabulary lacks some."""
    pieces = " ".join(f"`{label.split(' · ', 1)[1]}`" for label in sentence.labels)
    tokenizer = t("taught.name") if sentence.taught else "MiniLM"
    st.caption(t("seq.tokens", n=len(sentence.ids), tokens=pieces, tokenizer=tokenizer))
    if sentence.unknown:
        st.info(t("seq.unknown", n=sentence.unknown, total=len(sentence.ids)),
                icon=":material/help:")  # fmt: skip


def both_languages(key: str) -> str:
    """ "Self-attention · 自注意力": a poll carries no translated words (`quiz_poll`)."""
    en, zh = CATALOGUE["en"][key], CATALOGUE["zh"][key]
    return en if en == zh else f"{en} · {zh}"


def states(shown: Shown) -> None:
    """Every model's h_1 .. h_L, the LSTM's and GRU's gates per token, the n-gram window."""
    labels = list(shown.sentence.labels)
    fig = viz.states_grid_figure(
        {model: shown.run.states[model] for model in MODELS},
        {model: t("seq.states.title", model=name(model), width=shown.run.states[model].shape[1])
         for model in MODELS},
        labels, title=t("seq.states.all"), unit_title=t("seq.states.unit"),
        token_title=t("seq.states.token"), value_title=t("seq.states.value"),
    )  # fmt: skip
    show_chart(fig, "seq.chart.states")
    st.caption(t("seq.states.caption", seed=shown.seed, d=D))
    gate_names = {g: t(f"seq.gate.{g}") for g in (*calls.LSTM_GATES, *calls.GRU_GATES)}
    kinds = ("lstm", "gru")
    fig = viz.gates_grid_figure(
        {kind: shown.run.gates[kind] for kind in kinds},
        {kind: t(f"seq.gates.title.{kind}", d=D) for kind in kinds}, labels,
        title=t("seq.gates.all", d=D), gate_title=t("seq.gates.gate"),
        token_title=t("seq.states.token"), value_title=t("seq.gates.value"),
        gate_names=gate_names,
    )  # fmt: skip
    show_chart(fig, "seq.chart.gates")
    st.caption(t("seq.gates.caption", seed=shown.seed))
    fig = viz.window_figure(
        shown.run.window, labels, title=t("seq.window.title", n=shown.n),
        read_title=t("seq.window.read"), at_title=t("seq.window.at"),
        value_title=t("seq.window.value"), yes=t("seq.window.yes"), no=t("seq.window.no"),
        height=max(360, 160 + 24 * len(labels)),
    )  # fmt: skip
    show_chart(fig, "seq.chart.window")
    st.caption(t("seq.window.caption", context=shown.n - 1))


def steps() -> None:
    """Sequential steps, longest path and measured time for L = 16, 64, 256."""
    st.markdown(t("seq.steps.intro"))
    if st.button(t("seq.steps.again"), key="seq.steps.again", icon=":material/timer:"):
        calls.step_times.clear()
    rows, when = calls.step_times()
    attention = {r.length: r.seconds for r in rows if r.model == "attention"}
    frame = pd.DataFrame({
        t("seq.steps.col.model"): [name(r.model) for r in rows],
        t("seq.steps.col.length"): [r.length for r in rows],
        t("seq.steps.col.steps"): [r.sequential_steps for r in rows],
        t("seq.steps.col.path"): [r.longest_path for r in rows],
        t("seq.steps.col.ms"): [round(r.seconds * 1e3, 3) for r in rows],
        t("seq.steps.col.ratio"): [float(f"{r.seconds / attention[r.length]:.2g}") for r in rows],
    })  # fmt: skip
    st.dataframe(frame, hide_index=True)
    series = {
        name(model): ([r.length for r in rows if r.model == model],
                      [r.seconds * 1e3 for r in rows if r.model == model])
        for model in dict.fromkeys(r.model for r in rows)
    }  # fmt: skip
    fig = viz.lines_figure(series, title=t("seq.steps.title"), x_title=t("seq.steps.x"),
                           y_title=t("seq.steps.y"), log_x=True, log_y=True)  # fmt: skip
    fig.update_xaxes(tickvals=list(calls.LENGTHS))
    show_chart(fig, "seq.chart.steps")
    stamp = datetime.fromtimestamp(when, UTC).strftime("%H:%M:%S")
    st.caption(t("seq.steps.caption", when=stamp))


def reach_question(shown: Shown) -> bool:
    """ "Whose h_L feels the first token most?" True once revealed (or Predict first is off)."""
    if not ask.predict_toggle(PAGE):
        return True
    norms = {m: float(shown.run.gradients[m][-1]) for m in calls.GRADIENT_MODELS}
    length = len(shown.sentence.ids)
    if length < 2:
        return True  # one token: the first is the last, nothing to ask
    question = quiz.reach_question(norms, length - 1)
    labels = {m: name(m) for m in question.options}
    st.subheader(t("seq.quiz.title"))

    def pick(key: str) -> str | None:
        return st.radio(t("seq.quiz.ask", distance=question.distance), question.options,
                        index=None, key=key, format_func=labels.__getitem__,
                        horizontal=True)  # fmt: skip

    def show(choice: str | None) -> None:
        values = ", ".join(f"{labels[m]} {v:.2e}" for m, v in question.norms)
        st.markdown(t("seq.quiz.answer", best=labels[question.answer],
                      norm=f"{norms[question.answer]:.2e}",
                      picked=labels.get(choice, t("quiz.none")), values=values))  # fmt: skip

    poll = quiz_poll.reach_poll(question, [both_languages(f"seq.model.{m}") for m in labels])
    grade = lambda choice: (int(quiz.grade_reach(question, choice)), 1)  # noqa: E731
    qid = f"{shown.sentence.ids}|{shown.n}|{shown.seed}"
    return ask.choice_quiz(PAGE, qid, pick, grade, show, poll)


def gradient(shown: Shown) -> None:
    """‖∂h_L/∂x_t‖ by distance on the sentence (initialisation), then the recall task's
    networks before and after training, once that run has finished."""
    series = {name(m): (list(range(len(shown.run.gradients[m]))), list(shown.run.gradients[m]))
              for m in calls.GRADIENT_MODELS}  # fmt: skip
    fig = viz.lines_figure(series, title=t("seq.grad.title"), x_title=t("seq.grad.x"),
                           y_title=t("seq.grad.y"), log_y=True)  # fmt: skip
    show_chart(fig, "seq.chart.gradient")
    st.caption(t("seq.grad.caption", n=len(shown.sentence.ids), seed=shown.seed))
    run = calls.recall_run()
    if run is None or not run.finished or not run.gradients:
        st.info(t("seq.grad.not_yet"), icon=":material/model_training:")
        return
    series, dashed = {}, []
    for model, (before, after) in run.gradients.items():
        dashed.append(t("seq.grad.before", model=name(model)))
        series[dashed[-1]] = (list(range(len(before))), list(before))
        series[t("seq.grad.after", model=name(model))] = (list(range(len(after))), list(after))
    fig = viz.lines_figure(series, title=t("seq.grad.trained.title", k=run.gradient_k),
                           x_title=t("seq.grad.x"), y_title=t("seq.grad.y"), log_y=True,
                           dashed=dashed)  # fmt: skip
    show_chart(fig, "seq.chart.gradient_trained")
    length = run.gradient_k + run.config.targets
    st.caption(t("seq.grad.trained.caption", k=run.gradient_k, seed=run.config.seed,
                 steps=run.config.steps, length=length))  # fmt: skip


def recall() -> None:
    """The recall task: a button starts the server's run; its progress, then accuracy by k."""
    config = calls.recall_config()
    st.markdown(t("seq.recall.intro", targets=config.targets, vocab=config.vocab_size,
                  chance=1 / config.vocab_size, steps=config.steps, seed=config.seed,
                  eval=config.eval_sentences))  # fmt: skip
    run = calls.recall_run()
    if run is not None and run.finished and run.error:
        st.error(t("seq.recall.failed", reason=run.error))
    if run is None or (run.finished and run.error):
        if not st.button(t("seq.recall.start"), key="seq.recall.start", type="primary",
                         icon=":material/play_arrow:"):  # fmt: skip
            st.info(t("seq.recall.waiting"), icon=":material/hourglass_empty:")
            return
        run = calls.recall_runs().start(config)
    if not run.finished:
        st.fragment(run_every=1.0)(_progress)()
        return
    accuracy_chart(run)


def _progress() -> None:
    run = calls.recall_run()
    if run is None:
        return
    done = len(run.results)
    st.progress(done / run.total, text=t("seq.recall.progress", done=done, total=run.total,
                                         seconds=run.seconds))  # fmt: skip
    if run.finished:
        st.rerun(scope="app")  # the chart replaces the bar


def accuracy_chart(run: calls.RecallRun) -> None:
    series = {
        name(m): ([r.k for r in run.results if r.model == m],
                  [r.accuracy for r in run.results if r.model == m])
        for m in run.config.models
    }  # fmt: skip
    fig = viz.accuracy_figure(
        series, 1 / run.config.vocab_size, title=t("seq.recall.title"), x_title=t("seq.recall.x"),
        y_title=t("seq.recall.y"), chance_name=t("seq.recall.chance"),
    )  # fmt: skip
    show_chart(fig, "seq.chart.recall")
    reached = longest_recalled(run.results)
    summary = "; ".join(
        t("seq.recall.reached", model=name(m), k=k) if k else t("seq.recall.never", model=name(m))
        for m, k in reached.items()
    )  # fmt: skip
    st.caption(t("seq.recall.caption", seconds=run.seconds, steps=run.config.steps,
                 seed=run.config.seed, summary=summary))  # fmt: skip
