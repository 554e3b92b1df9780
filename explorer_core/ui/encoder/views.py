"""Inside the encoder page views: one layer with every number (the step strips, LayerNorm, GELU),
the "Predict first" question, and the downloads. Each view takes a `Shown` (the model, the
sentence and its cached trace) and draws; the numbers come from `bert.trace` and
`analysis.encoder`, the figures from `viz.encoder`."""

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
        fig = viz.norm_figure(
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
        fig = viz.gelu_figure(pre, post, title=t("enc.gelu.title", layer=layer, token=name,
                                                 i=inner),
                              x_title=t("enc.gelu.pre"), y_title=t("enc.gelu.post"))  # fmt: skip
        show_chart(fig, "enc.chart.gelu")
        columns = [t("enc.col.neuron"), t("enc.col.pre"), t("enc.col.post")]
        neurons = top_neurons(traced, token, k=8)
        st.dataframe(viz.neurons_frame(neurons, columns), hide_index=True, height=200)
        st.caption(t("enc.gelu.caption", i=inner, h=hidden, ffn=f"{2 * hidden * inner:,}",
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


def stack(shown: Shown, bind) -> None:  # noqa: ANN001 - settings.bind
    """Token × layer movement and norms, the pooled vector per layer, the two languages, the
    logit lens (or why there is none)."""
    found = calls.grid(shown.source, shown.sentence.ids)
    labels = shown.sentence.labels
    moved, norms = as_numpy(found.moved_cosine).T, as_numpy(found.norms).T  # (T, L + 1)
    axes = {"x_title": t("enc.grid.x"), "y_title": t("enc.grid.y")}
    left, right = st.columns(2)
    show_chart(viz.grid_figure(moved, labels, title=t("enc.grid.move"),
                               value_title=t("enc.grid.move.value"), **axes),
               "enc.chart.move", left)  # fmt: skip
    show_chart(viz.grid_figure(norms, labels, title=t("enc.grid.norm"),
                               value_title=t("enc.grid.norm.value"), **axes),
               "enc.chart.norms", right)  # fmt: skip
    st.caption(t("enc.grid.caption", src=shown.caption))
    pooled = as_numpy(found.pooled)  # (L + 1, H)
    fig = viz.pooled_figure(
        pooled, title=t("enc.pooled.title"), x_title=t("enc.pooled.x"),
        y_title=t("enc.pooled.y"), value_title=t("enc.pooled.value"),
    )  # fmt: skip
    show_chart(fig, "enc.chart.pooled")
    st.caption(t("enc.pooled.caption", src=shown.caption))
    stem = export.file_stem("encoder", shown.source.label, "layers")
    col_a, col_b = st.columns(2)
    download_csv(lambda: viz.grid_frame({"moved": moved, "norm": norms}, shown.sentence.tokens),
                 stem, "enc.dl.stack", col_a, label=t("enc.dl.stack"))  # fmt: skip
    download_json(lambda: {"tokens": list(shown.sentence.tokens), "pooled": pooled.tolist()},
                  f"{stem}-pooled", "enc.dl.pooled", col_b, label=t("enc.dl.pooled"))  # fmt: skip
    two_languages(shown, bind)
    logit_lens(shown)


def two_languages(shown: Shown, bind) -> None:  # noqa: ANN001 - settings.bind
    """MiniLM + 中文: a sentence and its translation, their pooled cosine layer by layer."""
    st.subheader(t("enc.cross.head"))
    if shown.source.kind != "taught":
        st.caption(t("enc.cross.only_taught"))
        return
    col_en, col_zh = st.columns(2)
    english = col_en.text_input(t("enc.cross.en"), max_chars=500, **bind("enc.en"))
    chinese = col_zh.text_input(t("enc.cross.zh"), max_chars=500, **bind("enc.zh"))
    if not english.strip() or not chinese.strip():
        st.warning(t("enc.empty"))
        return
    cosines = calls.cross_lingual(shown.source, english, chinese)
    fig = viz.lines_figure({t("enc.cross.y"): cosines}, title=t("enc.cross.title"),
                           x_title=t("enc.grid.x"), y_title=t("enc.cross.y"))  # fmt: skip
    show_chart(fig, "enc.chart.cross")
    st.caption(t("enc.cross.caption", src=shown.caption))


def logit_lens(shown: Shown) -> None:
    """A model with an MLM head: its top word for every token at every layer; else one line."""
    st.subheader(t("enc.lens.head"))
    mlm = calls.lens_model(shown.source)
    if mlm is None:
        st.info(t("enc.lens.none"), icon=":material/info:")
        return
    found = calls.lens(shown.source, shown.sentence.ids, mlm)
    st.dataframe(viz.lens_frame(found, shown.sentence.labels, t("enc.pooled.y")))
    st.caption(t("enc.lens.caption", src=shown.caption))


def context_choice(bind) -> tuple[tuple[str, ...], str, tuple[str, ...] | None] | None:  # noqa: ANN001
    """The sentences, the word and the senses the learner picked (a shipped set or their own)."""
    sets = ("bank", "apple", "da", "own")
    url_synced("enc.set", sets)  # translated labels: kept in the URL as codes
    choice = st.segmented_control(t("enc.set"), sets, format_func=lambda v: t(f"enc.set.{v}"),
                                  key="enc.set") or "bank"  # fmt: skip
    if choice != "own":
        found = calls.context_sets()[calls.SETS[choice]]
        return found.sentences, found.word, found.senses
    own = st.text_area(t("enc.own"), max_chars=5000, **bind("enc.own"))
    word = st.text_input(t("enc.word"), max_chars=50, **bind("enc.word")).strip()
    sentences = tuple(line.strip() for line in own.splitlines() if line.strip())[:40]
    if not word or len(sentences) < 2:
        st.warning(t("enc.ctx.few"))
        return None
    return sentences, word, None


def contexts(shown: Shown, bind) -> None:  # noqa: ANN001 - settings.bind
    """One word in many sentences: self-similarity per layer against the anisotropy baseline."""
    picked = context_choice(bind)
    if picked is None:
        return
    sentences, word, senses = picked
    standardize = st.toggle(t("enc.standardize"), help=t("enc.standardize.help"),
                            **bind("enc.standardize"))  # fmt: skip
    try:
        found = calls.many_contexts(shown.source, sentences, word, senses, standardize)
    except ValueError as err:
        unknown = "unknown to this tokenizer" in str(err)
        st.warning(t("enc.ctx.unknown" if unknown else "enc.ctx.no_word", word=word))
        return
    series = {t("enc.ctx.self", word=word): as_numpy(found.self_similarity),
              t("enc.ctx.base"): as_numpy(found.baseline)}  # fmt: skip
    if found.within_sense is not None:
        series[t("enc.ctx.within")] = as_numpy(found.within_sense)
        series[t("enc.ctx.across")] = as_numpy(found.across_senses)
    fig = viz.lines_figure(series, title=t("enc.ctx.title", word=word, n=len(sentences)),
                           x_title=t("enc.ctx.x"), y_title=t("enc.ctx.y"),
                           dashed=(t("enc.ctx.base"),))  # fmt: skip
    show_chart(fig, "enc.chart.contexts")
    st.caption(t("enc.ctx.caption", word=word, src=shown.caption))
    frame = viz.series_frame(series, t("enc.ctx.x"))
    stem = export.file_stem("encoder", shown.source.label, "contexts", word)
    download_csv(frame, stem, "enc.dl.ctx", label=t("enc.dl.ctx"))
    st.dataframe(viz.sentences_frame(sentences, senses, t("enc.ctx.sentences"),
                                     t("enc.ctx.sense")), hide_index=True, height=240)  # fmt: skip


def decoder(shown: Shown, bind) -> None:  # noqa: ANN001 - settings.bind
    """The same weights with BERT's mask and a causal mask: what one edited word changes."""
    edit = st.text_input(t("enc.edit"), max_chars=2000, **bind("enc.edit"))
    edited = calls.sentence(shown.source, edit) if edit.strip() else None
    ids = shown.sentence.ids
    if edited is None or len(edited.ids) != len(ids):
        st.warning(t("enc.dec.same_length", n=len(ids), m=len(edited.ids) if edited else 0))
        return
    changed = [i for i, (a, b) in enumerate(zip(ids, edited.ids, strict=True)) if a != b]
    if not changed:
        st.info(t("enc.dec.same"))
        return
    pairs = zip(shown.sentence.tokens, edited.tokens, strict=True)
    labels = [f"{i} · {a}" + (f" → {b}" if a != b else "") for i, (a, b) in enumerate(pairs)]
    effects = {causal: as_numpy(calls.edit_effect(shown.source, ids, edited.ids, causal)).T
               for causal in (False, True)}  # (T, L + 1) each  # fmt: skip
    top = float(max(e.max() for e in effects.values())) or 1.0
    axes = {"x_title": t("enc.dec.x"), "y_title": t("enc.dec.y"), "value_title": t("enc.dec.value")}
    for col, causal in zip(st.columns(2), (False, True), strict=True):
        title = t("enc.dec.causal" if causal else "enc.dec.bert")
        fig = viz.grid_figure(effects[causal], labels, title=title, zmax=top, **axes)
        show_chart(fig, f"enc.chart.{'causal' if causal else 'bidirectional'}", col)
    first = changed[0]
    st.caption(t("enc.dec.caption", pos=first, src=shown.caption))
    before = effects[True][:first]
    st.markdown(t("enc.dec.zero", value=f"{float(before.max()) if before.size else 0.0:g}"))
    st.markdown(t("enc.dec.explain"))
    record = {
        "tokens": list(shown.sentence.tokens), "edited": list(edited.tokens),
        "bidirectional": effects[False].tolist(), "causal": effects[True].tolist(),
    }  # fmt: skip
    stem = export.file_stem("encoder", shown.source.label, "edit")
    download_json(record, stem, "enc.dl.dec", label=t("enc.dl.dec"))
