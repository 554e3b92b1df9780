"""Inside the encoder page views within one layer: every number (the step strips, LayerNorm,
GELU), who wrote into each vector, the "Predict first" question, and the downloads. Each view
takes a `Shown` (the model, the sentence and its cached trace) and draws; the numbers come from
`bert.trace` and `analysis.encoder`, the figures from `viz.encoder`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from explorer_core.analysis import quiz, quiz_poll
from explorer_core.analysis.contributions import self_share
from explorer_core.analysis.encoder import top_neurons, update_ratio
from explorer_core.bert.trace import EncoderTrace, LayerTrace
from explorer_core.files import export
from explorer_core.ui import quiz as ask
from explorer_core.ui.encoder import calls
from explorer_core.ui.encoder.calls import ModelSource, Sentence
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.state import url_synced
from explorer_core.viz import encoder as viz

PAGE = "enc"


@dataclass(frozen=True)
class Shown:
    """What the views draw: one sentence through one model, and where the numbers come from."""

    source: ModelSource
    sentence: Sentence
    trace: EncoderTrace
    caption: str  # "where the numbers come from", for the captions


def pickers(shown: Shown, layer_key: str, token_key: str, bind) -> tuple[int, int]:  # noqa: ANN001
    """The layer (1 .. L) and token (a position) selectboxes, both kept in the URL;
    `bind(key, options)` gives the layer widget's state arguments (the page's defaults)."""
    layers = range(1, len(shown.trace.layers) + 1)
    positions = range(len(shown.sentence.tokens))
    url_synced(token_key, positions)  # a position: the same link text in either language
    st.session_state[layer_key] = min(max(1, int(st.session_state[layer_key])), layers[-1])
    st.session_state[token_key] = min(max(0, int(st.session_state[token_key])), positions[-1])
    col_l, col_t = st.columns(2)
    layer = col_l.selectbox(t("enc.layer"), layers, **bind(layer_key, layers))
    labels = shown.sentence.labels
    token = col_t.selectbox(t("enc.token"), positions, format_func=labels.__getitem__,
                            key=token_key)  # fmt: skip
    return layer, token


def update_sizes(shown: Shown, layer: int, token: int) -> tuple[float, float]:
    """‖update‖ / ‖vector it is added to‖ of attention and of the feed-forward network, for
    `token` in `layer` (1-based)."""
    ratio = update_ratio(shown.trace.layers[layer - 1])
    return float(ratio.attention[token]), float(ratio.ffn[token])


def update_question(shown: Shown, layer: int, token: int) -> bool:
    """ "Attention or the feed-forward: which writes more into this token here?" True once
    revealed (or when Predict first is off)."""
    if not ask.predict_toggle(PAGE):
        return True
    attn, ffn = update_sizes(shown, layer, token)
    question = quiz.update_question(attn, ffn)
    labels = {"attention": t("enc.quiz.attention"), "ffn": t("enc.quiz.ffn")}
    name = shown.sentence.tokens[token]
    qid = f"{shown.source.key}|{shown.sentence.ids}|{layer}|{token}"
    st.subheader(t("enc.quiz.title"))

    def pick(key: str) -> str | None:
        return st.radio(
            t("enc.quiz.ask", layer=layer, token=name), question.options, index=None, key=key,
            format_func=labels.__getitem__, horizontal=True,
        )  # fmt: skip

    def show(choice: str | None) -> None:
        st.markdown(t("enc.quiz.answer", attn=f"{attn:.3f}", ffn=f"{ffn:.3f}", layer=layer,
                      best=labels[question.answer], token=name,
                      picked=labels.get(choice, t("quiz.none"))))  # fmt: skip

    poll = quiz_poll.update_poll(question, name, layer, [labels[o] for o in question.options])
    grade = lambda choice: (int(quiz.grade_update(question, choice)), 1)  # noqa: E731
    return ask.choice_quiz(PAGE, qid, pick, grade, show, poll)


def flow(
    traced: LayerTrace, token: int, name: str, src: str, where: Any = None,
    chart_key: str = "enc.chart.flow",
) -> tuple[list[viz.Step], list[str]]:  # fmt: skip
    """The steps of one layer for one token as strips with their caption (also the guided
    lesson's screen); returns the steps and their translated names (for the download)."""
    where = where if where is not None else st
    layer = traced.layer + 1
    steps = viz.flow_steps(traced, token)
    names = [t(step.name) for step in steps]
    fig = viz.flow_figure(
        steps, names, title=t("enc.flow.title", layer=layer, token=name),
        x_title=t("enc.flow.x"), value_title=t("enc.flow.value"), norm_title=t("enc.norm.col"),
    )  # fmt: skip
    show_chart(fig, chart_key, where)
    hidden, inner = traced.input.shape[1], traced.ffn_pre_activation.shape[1]
    where.caption(t("enc.flow.caption", token=name, layer=layer, h=hidden, i=inner, src=src))
    return steps, names


def one_layer(shown: Shown, layer: int, token: int) -> None:
    """Every step of one layer for one token, then LayerNorm and GELU up close, and downloads."""
    traced = shown.trace.layers[layer - 1]
    name = shown.sentence.tokens[token]
    hidden, inner = traced.input.shape[1], traced.ffn_pre_activation.shape[1]
    heads, _, width = traced.head_contexts.shape
    st.markdown(t("enc.order.pre" if traced.pre_norm else "enc.order.post"))
    config = shown.source.model.config
    if traced.window is not None:
        st.info(t("enc.local", layer=layer, w=traced.window, base=traced.rope_base,
                  n=config.global_attn_every_n_layers))  # fmt: skip
    elif traced.rope_base is not None:
        st.info(t("enc.global_rope", layer=layer, base=traced.rope_base))
    attn, ffn = update_sizes(shown, layer, token)
    ln = traced.ln2 if traced.pre_norm else traced.ln1
    cols = st.columns(5)
    help_text = t("enc.metric.help")
    cols[0].metric(t("enc.metric.heads"), f"{heads} × {width}")
    cols[1].metric(t("enc.metric.attn"), f"{attn:.3f}", help=help_text)
    cols[2].metric(t("enc.metric.ffn"), f"{ffn:.3f}", help=help_text)
    cols[3].metric(t("enc.metric.mean"), f"{float(ln.mean[token]):.4f}")
    cols[4].metric(t("enc.metric.std"), f"{float(ln.std[token]):.4f}")
    steps, names = flow(traced, token, name, shown.caption)
    left, right = st.columns(2)
    with left:
        st.subheader(t("enc.ln.head"))
        fig = viz.dots_figure(
            ln.before[token].numpy(), ln.after[token].numpy(),
            title=t("enc.ln.title", layer=layer), x_title=t("enc.ln.before"),
            y_title=t("enc.ln.after"),
        )  # fmt: skip
        show_chart(fig, "enc.chart.norm")
        st.caption(t("enc.ln.caption", h=hidden, mean=f"{float(ln.mean[token]):.4f}",
                     std=f"{float(ln.std[token]):.4f}"))  # fmt: skip
    with right:
        st.subheader(t("enc.gelu.head"))
        pre = traced.ffn_pre_activation[token].numpy()
        post = traced.ffn_activation[token].numpy()
        fig = viz.dots_figure(
            pre, post, title=t("enc.gelu.title", layer=layer, token=name, i=inner),
            x_title=t("enc.gelu.pre"), y_title=t("enc.gelu.post"), colour=1,
        )  # fmt: skip
        show_chart(fig, "enc.chart.gelu")
        columns = [t("enc.col.neuron"), t("enc.col.pre"), t("enc.col.post")]
        neurons = top_neurons(traced, token, k=8)
        st.dataframe(viz.neurons_frame(neurons, columns), hide_index=True, height=200)
        halves = 3 if traced.ffn_kind == "geglu" else 2  # GeGLU: W_in, W_gate and W_2
        st.caption(t("enc.gelu.caption", i=inner, h=hidden, ffn=f"{halves * hidden * inner:,}",
                     attn=f"{4 * hidden * hidden:,}"))  # fmt: skip
    stem = export.file_stem("encoder", shown.source.label, "layer", layer)
    col_a, col_b = st.columns(2)
    download_json(lambda: viz.layer_record(traced, shown.sentence.tokens), stem, "enc.dl.layer",
                  col_a, label=t("enc.dl.layer"))  # fmt: skip
    download_csv(lambda: viz.flow_frame(steps, names), f"{stem}-token-{token}", "enc.dl.flow",
                 col_b, label=t("enc.dl.flow"))  # fmt: skip


def as_numpy(values) -> np.ndarray:  # noqa: ANN001 - a tensor, an array or a list
    """Plain numbers for a figure, whatever the core returned."""
    return values.detach().numpy() if hasattr(values, "detach") else np.asarray(values)


def mixing(shown: Shown, layer: int) -> None:
    """Who wrote into each vector of `layer`: weights, × ‖f(x)‖, + residual and LayerNorm."""
    found = calls.mixing(shown.source, shown.sentence.ids, layer)
    labels = shown.sentence.labels
    matrices = {"enc.mix.weights": found.attention, "enc.mix.norm": found.norm,
                "enc.mix.residual": found.residual_norm}  # fmt: skip
    values = [as_numpy(m) for m in matrices.values()]
    for n, (col, tensor) in enumerate(zip(st.columns(3), matrices.values(), strict=True), 1):
        col.metric(t("enc.mix.self", step=n), f"{self_share(tensor):.2f}",
                   help=t("enc.mix.self.help"))  # fmt: skip
    fig = viz.mixing_figure(
        values, [t(key) for key in matrices], labels, title=t("enc.mix.title", layer=layer),
        x_title=t("enc.mix.x"), y_title=t("enc.mix.y"), value_title=t("enc.mix.value"),
    )  # fmt: skip
    show_chart(fig, "enc.chart.mixing")
    st.caption(t("enc.mix.caption", layer=layer, src=shown.caption))
    record = {"layer": layer, "tokens": list(shown.sentence.tokens)}
    record |= {key.rsplit(".", 1)[1]: as_numpy(m).tolist() for key, m in matrices.items()}
    stem = export.file_stem("encoder", shown.source.label, "layer", layer, "contributions")
    download_json(record, stem, "enc.dl.mix", label=t("enc.dl.mix"))
