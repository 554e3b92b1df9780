"""The Token embeddings page's map: the sentence's token vectors and their nearest neighbours in
the embedding matrix, projected to 2-D by PCA, with the neighbour table and Projector files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st
import torch

from explorer_core.analysis.projection import NeighbourhoodMap, cosine_matrix, neighbourhood_map
from explorer_core.files import tables
from explorer_core.ui.embeddings.calls import Source, neighbour_exclusions
from explorer_core.ui.export import download_csv, download_projector, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind
from explorer_core.viz import embedding as viz

MEMO_KEY = "emb.tokens.map_memo"  # this session's last neighbourhood maps


def _neighbourhood(
    source: Source, ids: tuple[int, ...], k: int, vocab_labels: Mapping[int, str]
) -> NeighbourhoodMap:
    """`neighbourhood_map` of the sentence, remembered per session: it compares every token with
    the whole table (MiniLM: 30,522 rows, ~0.2 s), and a rerun that changes only the picked token
    or the model source and back should not pay that again.

    subtle: keyed by the model's table object itself (the Parameter, held in the memo, so a new
    model's table after training can never be mistaken for an old one whose id was reused), not
    by the page's `weight.detach()`, which is a new tensor on every rerun.
    """
    table = source.embeddings.word_embeddings.weight
    memo: list = st.session_state.setdefault(MEMO_KEY, [])
    for held, key, result in memo:
        if held is table and key == (ids, k):
            return result
    weight = table.detach()
    exclude = neighbour_exclusions(vocab_labels, weight.shape[0])
    result = neighbourhood_map(weight, list(ids), k, exclude)
    memo.insert(0, (table, (ids, k), result))
    del memo[3:]  # the sources a learner flips between
    return result


def token_map(
    source: Source, weight: torch.Tensor, ids: Sequence[int], labels: Sequence[str],
    vocab_labels: Mapping[int, str], pick: int, caption: str,
) -> None:  # fmt: skip
    """The k slider, the PCA map coloured by cosine to the picked token, and the neighbours."""
    k = st.slider(t("emb.tokens.k"), **bind("emb.tokens.k"))
    token_id = ids[pick]
    result = _neighbourhood(source, tuple(ids), k, vocab_labels)
    point_labels = [vocab_labels.get(i, str(i)) for i in result.point_ids]
    cos = cosine_matrix(weight[[token_id]].float(), weight[result.point_ids].float())[0].tolist()
    frame = viz.pca_frame(result.pca, result.point_ids, point_labels, result.in_sentence, cos)
    share = result.pca.explained.tolist()
    show_chart(
        viz.pca_figure(
            frame, title=t("emb.tokens.map.title", token=labels[pick]),
            x_title=t("emb.tokens.axis.pc", n=1, share=100 * share[0]),
            y_title=t("emb.tokens.axis.pc", n=2, share=100 * share[1]),
            value_title=t("emb.tokens.axis.cosine", token=labels[pick]),
            sentence_name=t("emb.tokens.map.sentence"),
            neighbour_name=t("emb.tokens.map.neighbour"), id_word=t("emb.tokens.col.id"),
        ),
        "emb.tokens.map_chart",
    )  # fmt: skip
    distinct = list(dict.fromkeys(ids))
    meta = tables.projector_metadata(result.point_ids, result.in_sentence, vocab_labels,
                                     distinct, result.neighbour_ids, result.cosines)  # fmt: skip
    download_projector(lambda: weight[result.point_ids], meta, "token-map", "emb.tokens.dl.map")
    st.caption(t("emb.tokens.map.caption", k=k) + " " + caption)
    table = viz.neighbour_frame([vocab_labels.get(i, str(i)) for i in distinct],
                                result.neighbour_ids, result.cosines, vocab_labels)  # fmt: skip
    st.dataframe(table.rename(columns={c: t(f"emb.tokens.col.{c}") for c in table.columns}),
                 hide_index=True, height=300)  # fmt: skip
    download_csv(table, "neighbours", "emb.tokens.dl.neighbours",
                 label=t("emb.tokens.dl.neighbours"))  # fmt: skip
    st.markdown(t(f"emb.tokens.map.lesson.{source.kind}"))
