"""Inside the encoder page views across layers and sentences: layer by layer (token × layer grid,
pooled vector, the two languages, the logit lens) and one word in many contexts. Each takes the
page's `Shown` (see `views`); "Encoder against decoder" is `decoder_views`."""

from __future__ import annotations

import streamlit as st

from explorer_core.files import export
from explorer_core.ui.encoder import calls
from explorer_core.ui.encoder.views import Shown, as_numpy
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.state import url_synced
from explorer_core.viz import encoder as viz


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
        why = "enc.lens.finetuned" if shown.source.kind == "trained" else "enc.lens.none"
        st.info(t(why), icon=":material/info:")
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
