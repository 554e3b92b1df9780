"""Inside the encoder's view "Encoder against decoder": whose weights these are (a decoder's own,
opened as a model on this machine, or an encoder's under a causal mask), what one edited word
changes under each mask, the three objectives side by side, each token's share of a causal
mean, and sentence vectors from a trained decoder next to the encoder's mean pooling."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core.analysis.objectives import objective_rows
from explorer_core.decoder import causal_mean_shares
from explorer_core.files import export
from explorer_core.inputs.vocab import BertVocab
from explorer_core.ui.encoder import calls
from explorer_core.ui.encoder.views import Shown, as_numpy
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.models.sources import token_strings
from explorer_core.ui.nav import PAGES
from explorer_core.viz import decoder as dviz
from explorer_core.viz import encoder as viz

DECODER_PAGE = "lessons/train_decoder.py"


def is_decoder(shown: Shown) -> bool:
    return bool(getattr(shown.source.model.config, "causal", False))


def decoder(shown: Shown, bind) -> None:  # noqa: ANN001 - settings.bind
    """The whole view, top to bottom."""
    whose_weights(shown)
    edit_effect(shown, bind)
    objectives(shown)
    shares(shown)
    sentence_vectors(shown)


def page_link() -> None:
    """A link to the Decoder page (plain text where the page runs alone, as in AppTest)."""
    spec = next(page for page in PAGES if page.file == DECODER_PAGE)
    label = t("enc.dec.train_one", page=t(spec.title))
    try:
        st.page_link(spec.file, label=label, icon=":material/arrow_forward:")
    except StreamlitAPIException:  # no navigation to link into
        st.markdown(f"→ {label}")


def whose_weights(shown: Shown) -> None:
    if is_decoder(shown):
        st.success(t("enc.dec.own", label=shown.source.label), icon=":material/check_circle:")
        return
    st.info(t("enc.dec.borrowed"), icon=":material/info:")
    page_link()


def edit_effect(shown: Shown, bind) -> None:  # noqa: ANN001 - settings.bind
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


def objectives(shown: Shown) -> None:
    """MLM, causal LM and ELECTRA on the view's sentence: loss positions, what each sees."""
    st.subheader(t("enc.obj.head"))
    vocab = BertVocab.of(shown.source.tokenizer)
    ids, tokens = shown.sentence.ids, shown.sentence.tokens
    try:
        rows = objective_rows(ids, vocab_size=vocab.size, special_ids=vocab.special_ids,
                              mask_id=vocab.mask_id, seed=0)  # fmt: skip
    except ValueError as err:
        st.warning(t("enc.obj.bad", reason=str(err)))
        return
    mlm, causal, electra = rows
    guesses = token_strings(shown.source.tokenizer, list(electra.inputs))
    texts = [
        [tokens[i] if hit else "" for i, hit in enumerate(mlm.loss)],
        [f"→{tokens[i + 1]}" if hit else "" for i, hit in enumerate(causal.loss)],
        [t("enc.obj.replaced") if label else t("enc.obj.original") for label in electra.targets],
    ]
    names = [t(f"enc.obj.{r.name}") for r in rows]
    fig = dviz.objectives_figure([r.loss for r in rows], texts, shown.sentence.labels, names,
                                 title=t("enc.obj.title"), x_title=t("enc.dec.y"),
                                 value_title=t("enc.obj.value"))  # fmt: skip
    show_chart(fig, "enc.chart.objectives")
    swaps = [f"{tokens[i]}→{guesses[i]}" for i, label in enumerate(electra.targets) if label]
    st.caption(t("enc.obj.caption", mlm=sum(mlm.loss), causal=sum(causal.loss),
                 electra=sum(electra.loss), n=len(ids), swaps=", ".join(swaps) or "–"))  # fmt: skip
    vis = dviz.visibility_figure(
        [r.visible for r in rows], shown.sentence.labels, names, title=t("enc.obj.sees"),
        x_title=t("enc.obj.key"), y_title=t("enc.obj.query"), value_title=t("enc.obj.sees.value"),
    )  # fmt: skip
    show_chart(vis, "enc.chart.visibility")
    st.caption(t("enc.obj.sees.caption"))


def shares(shown: Shown) -> None:
    """Each token's exact share of a causal mean, (L − j + 1) / L normalised."""
    st.subheader(t("enc.share.head"))
    values = causal_mean_shares(len(shown.sentence.ids))
    fig = dviz.shares_figure(values, shown.sentence.labels, title=t("enc.share.title"),
                             x_title=t("enc.dec.y"), y_title=t("enc.share.y"))  # fmt: skip
    show_chart(fig, "enc.chart.shares")
    n = len(values)
    st.caption(t("enc.share.caption", n=n, first=values[0], last=values[-1],
                 ratio=values[0] / values[-1] if values[-1] else float("nan")))  # fmt: skip


def sentence_vectors(shown: Shown) -> None:
    """The trained decoder's three poolings next to the encoder's mean, on a few STS pairs."""
    st.subheader(t("enc.vec.head"))
    found = calls.decoder_pairs(shown.source)
    if found is None:
        st.info(t("enc.vec.none"), icon=":material/info:")
        page_link()
        return
    scores, decoder_label, encoder_label = found
    columns = {name: t(f"enc.vec.{name}") for name in scores.cosines}
    frame = pd.DataFrame({t("enc.vec.a"): [p.sentence1 for p in scores.pairs],
                          t("enc.vec.b"): [p.sentence2 for p in scores.pairs],
                          t("enc.vec.gold"): [p.score for p in scores.pairs]})  # fmt: skip
    for name, label in columns.items():
        frame[label] = [round(v, 3) for v in scores.cosines[name]]
    narrow = {t("enc.vec.a"): st.column_config.TextColumn(width="medium"),
              t("enc.vec.b"): st.column_config.TextColumn(width="medium")}  # fmt: skip
    st.dataframe(frame, hide_index=True, key="enc.vec.table", column_config=narrow)
    spearman = scores.spearman_row()
    summary = pd.DataFrame([{columns[k]: (round(v, 3) if v is not None else None)
                             for k, v in spearman.items()}])  # fmt: skip
    st.dataframe(summary, hide_index=True, key="enc.vec.spearman")
    st.caption(t("enc.vec.caption", decoder=decoder_label, encoder=encoder_label or "–",
                 n=len(scores.pairs)))  # fmt: skip
    stem = export.file_stem("encoder", decoder_label, "decoder-pooling")
    download_csv(frame, stem, "enc.dl.vec", label=t("enc.dl.vec"))
