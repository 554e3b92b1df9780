"""Guided lesson: one sentence followed through real MiniLM, one concept per screen, with Previous
and Next. text → bytes → tokens → ids → one-hot → vector → + position → attention → pooled → cosine.
Each screen links to the page that teaches its step in detail."""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core import lesson as core
from explorer_core.embeddings import layer_norm_trace
from explorer_core.export import labelled_matrix
from explorer_core.pretrained import PretrainedUnavailable
from explorer_core.ui import lesson as data
from explorer_core.ui.embedding import pair_components, pick_token
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import CATALOGUE, t
from explorer_core.ui.nav import PAGES
from explorer_core.ui.state import bound, init, share_link
from explorer_core.viz import attention as viz_attn
from explorer_core.viz import embedding as viz_emb
from explorer_core.viz import lesson as viz

TOTAL = len(core.STEPS)
SENTENCES = ("text", "other", "third")  # lesson.<name>, defaults from lesson.default_<name>
DEEPER = {  # step -> url path of the page that teaches it (see pages/home.py STAGES)
    "text": "text-to-ids", "bytes": "text-to-ids", "tokens": "text-to-ids", "ids": "text-to-ids",
    "onehot": "token-embeddings", "vector": "token-embeddings", "position": "embedding-sum",
    "attention": "attention", "pooled": "similarity", "cosine": "similarity",
}  # fmt: skip
STAGES = ("token", "position", "segment", "sum", "output")  # as on the Embedding sum page
VECTOR_DIMS, STAGE_DIMS, POOL_DIMS = 32, 6, 6  # numbers shown: readable on a projector
CELL_FONT = 15  # px: numbers written in heatmap cells
MAX_HEIGHT = 760  # px: the tallest chart (before presentation mode's growth)
DEFAULTS = {
    "lesson.step": 1, "lesson.token": 2, "lesson.layer": 1, "lesson.head": 3,  # previous-token
    **{f"lesson.{name}": t(f"lesson.default_{name}") for name in SENTENCES},
}  # fmt: skip


def follow_language() -> None:
    """A sentence still at another language's default switches to this language's default."""
    for name in SENTENCES:
        key = f"lesson.{name}"
        others = {CATALOGUE[lang][f"lesson.default_{name}"] for lang in CATALOGUE}
        if st.session_state.get(key) in others - {DEFAULTS[key]}:
            st.session_state[key] = DEFAULTS[key]


init(DEFAULTS)
follow_language()
LINKED = ("lesson.step", "lesson.text", "lesson.other", "lesson.third", "lesson.layer",
          "lesson.head")  # fmt: skip


def move(delta: int) -> None:
    step = int(st.session_state.get("lesson.step") or 1)
    st.session_state["lesson.step"] = min(max(step + delta, 1), TOTAL)


def deeper(name: str, where) -> None:  # noqa: ANN001 - a column
    spec = next(p for p in PAGES if p.url_path == DEEPER[name])
    label = t("lesson.deeper", page=t(spec.title))
    try:
        where.page_link(spec.file, label=label, icon=":material/arrow_forward:")
    except StreamlitAPIException:  # the page runs alone (tests): no navigation to link into
        where.markdown(f"→ {label}")


def table(frame, where) -> None:  # noqa: ANN001 - a DataFrame and a column
    """A table with translated column names (dimension columns d0, d1, ... stay as they are)."""
    names = {c: t(f"lesson.col.{c}") for c in frame.columns if f"lesson.col.{c}" in CATALOGUE["en"]}
    named = frame.rename(columns=names)
    where.dataframe(named, hide_index=True, height=min(360, 35 * len(frame) + 38))


# ---- the frame of every screen: step title, Previous / steps / Next, the screen, the sentences
title = st.empty()
nav, body, footer = st.container(), st.container(), st.container()
with footer.expander(t("lesson.sentences"), icon=":material/edit:"):
    text = st.text_input(t("lesson.text"), max_chars=3000, **bound("lesson.text", DEFAULTS))
    other = st.text_input(t("lesson.other"), max_chars=3000, **bound("lesson.other", DEFAULTS))
    third = st.text_input(t("lesson.third"), max_chars=3000, **bound("lesson.third", DEFAULTS))
back_col, jump_col, next_col = nav.columns([1, 4, 1], vertical_alignment="center")
step = jump_col.segmented_control(
    t("lesson.jump"), list(range(1, TOTAL + 1)), key="lesson.step", bind="query-params",
    default=DEFAULTS["lesson.step"], required=True, label_visibility="collapsed",
    help=t("lesson.jump"),
) or 1  # fmt: skip
back_col.button(t("lesson.prev"), icon=":material/arrow_back:", key="lesson.prev",
                on_click=move, args=(-1,), disabled=step <= 1, width="stretch")  # fmt: skip
next_col.button(t("lesson.next"), icon=":material/arrow_forward:", key="lesson.next",
                on_click=move, args=(1,), disabled=step >= TOTAL, width="stretch")  # fmt: skip
name = core.STEPS[step - 1]
title.title(t("lesson.progress", step=step, total=TOTAL, name=t(f"lesson.step.{name}")))
nav.progress(step / TOTAL)
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link

if not text.strip():
    body.warning(t("lesson.empty"))
    st.stop()
try:
    data.ready()
except (ImportError, PretrainedUnavailable):
    body.warning(t("lesson.no_model"))
    st.stop()
row = data.tokens(text)
limit = data.embeddings().config.max_position_embeddings
if len(row.ids) > limit:
    if step >= core.POSITION_STEP:
        body.error(t("lesson.too_long", n=len(row.ids), limit=limit))
        st.stop()
    body.warning(t("lesson.too_long", n=len(row.ids), limit=limit))
left, right = body.columns([2, 3], gap="large")
left.markdown(t(f"lesson.{name}.body"))
deeper(name, left)
source = t("lesson.source")


# ---- one concept per screen (each reads `text`, `row` and the two columns) -------------------
def screen_text(left, right) -> None:  # noqa: ANN001 - columns
    chars = core.char_frame(text)
    left.metric(t("lesson.text.metric"), len(chars))
    table(chars[["position", "char", "code_point", "decimal"]], right)
    right.caption(t("lesson.text.caption", n=len(chars), distinct=chars["char"].nunique()))


def screen_bytes(left, right) -> None:  # noqa: ANN001 - columns
    raw = core.byte_frame(text)
    left.metric(t("lesson.bytes.metric"), len(raw))
    table(raw, right)
    right.caption(t("lesson.bytes.caption", chars=len(text), bytes=len(raw)))


def screen_tokens(left, right, with_ids: bool = False) -> None:  # noqa: ANN001 - columns
    right.html(viz.chips_html(row.tokens, row.kinds, row.ids if with_ids else None))
    if not with_ids and row.unknown:
        right.info(t("lesson.tokens.unknown", n=row.unknown, total=len(row.tokens)))
    frame = core.token_frame(row)
    frame["kind"] = [t(f"lesson.kind.{kind}") for kind in frame["kind"]]
    columns = ["position", "token", "id"] if with_ids else ["position", "token", "covers", "kind"]
    table(frame[columns], right)
    right.caption(t(f"lesson.{'ids' if with_ids else 'tokens'}.caption", n=len(row.tokens))
                  + " " + source)  # fmt: skip


def pick(left) -> int:  # noqa: ANN001 - a column
    """The token to follow on the embedding screens (its position in the row)."""
    names = [tok if not cover or cover.lower() == tok else f"{tok} ({cover})"
             for tok, cover in zip(row.tokens, row.covers, strict=True)]  # fmt: skip
    with left:
        return pick_token("lesson.token", t("lesson.token"), names)


def unknown_note(at: int, left) -> None:  # noqa: ANN001 - a column
    if row.kinds[at] == "unknown":
        left.info(t("lesson.unknown_row", covers=row.covers[at], id=row.ids[at]))


def screen_onehot(left, right) -> None:  # noqa: ANN001 - columns
    at = pick(left)
    token, token_id = row.tokens[at], row.ids[at]
    weight = data.embeddings().word_embeddings.weight
    hot = core.one_hot_step(weight, token_id)
    fig = viz.one_hot_figure(
        token_id, hot.vocab_size, token, title=t("lesson.onehot.title", token=token),
        x_title=t("lesson.axis.vocab"), y_title=t("lesson.axis.value"),
    )  # fmt: skip
    show_chart(fig, "lesson.chart.onehot", right)
    left.metric(t("lesson.onehot.gap"), f"{hot.max_gap:g}")
    unknown_note(at, left)
    window = viz_emb.one_hot_window(weight, token_id, data.vocab_labels(), radius=2, dims=4)
    table(window.round(4), right)
    lo, hi = int(window["row"].min()), int(window["row"].max())
    right.caption(t("lesson.onehot.caption", id=token_id, lo=lo, hi=hi, dims=4,
                    gap=f"{hot.max_gap:g}") + " " + source)  # fmt: skip


def screen_vector(left, right) -> None:  # noqa: ANN001 - columns
    at = pick(left)
    token, token_id = row.tokens[at], row.ids[at]
    vector = data.embeddings().word_embeddings.weight[token_id].detach().double().numpy()
    fig = viz_emb.vector_bar(
        vector[:VECTOR_DIMS], title=t("lesson.vector.title", token=token, id=token_id),
        x_title=t("lesson.axis.dim"), y_title=t("lesson.axis.value"),
    )  # fmt: skip
    show_chart(fig, "lesson.chart.vector", right)
    unknown_note(at, left)
    download_csv(lambda v=vector: core.vector_frame(v), f"lesson-embedding-{token_id}",
                 "lesson.csv.vector", left)  # fmt: skip
    norm = float((vector**2).sum() ** 0.5)
    caption = t("lesson.vector.caption", id=token_id, norm=norm, dims=VECTOR_DIMS,
                hidden=len(vector))  # fmt: skip
    right.caption(caption + " " + source)


def screen_position(left, right) -> None:  # noqa: ANN001 - columns
    at = pick(left)
    embeddings = data.embeddings()
    parts = pair_components(embeddings, list(row.ids), [0] * len(row.ids))
    fig = viz_emb.stage_figure(
        parts, at, {stage: t(f"emb.sum.stage.{stage}") for stage in STAGES}, STAGE_DIMS,
        title=t("lesson.position.title", token=row.tokens[at], pos=at),
        x_title=t("lesson.axis.dim"), y_title=t("lesson.axis.stage"),
        value_title=t("lesson.axis.value"),
    )  # fmt: skip
    fig.update_traces(textfont_size=CELL_FONT)
    show_chart(fig, "lesson.chart.position", right)
    stages = {stage: parts[stage][0, at] for stage in STAGES}
    download_csv(lambda s=stages: core.stages_frame(s), f"lesson-layer1-input-{at}",
                 "lesson.csv.position", left)  # fmt: skip
    trace = layer_norm_trace(parts["sum"][0, at], embeddings.LayerNorm)
    numbers = {"mean": float(trace["mean"]), "std": float(trace["std"])}
    hidden = parts["sum"].shape[-1]
    caption = t("lesson.position.caption", dims=STAGE_DIMS, hidden=hidden, **numbers)
    right.caption(caption + " " + source)


def screen_attention(left, right) -> None:  # noqa: ANN001 - columns
    run = data.sentence_run(row.ids)
    layers, heads = run.attentions.shape[:2]
    layer_col, head_col = left.columns(2)
    layer = layer_col.selectbox(
        t("lesson.layer"),
        range(1, layers + 1),
        **bound("lesson.layer", DEFAULTS, range(1, layers + 1)),
    )
    head = head_col.selectbox(t("lesson.head"), range(1, heads + 1),
                              **bound("lesson.head", DEFAULTS, range(1, heads + 1)))  # fmt: skip
    weights = run.attentions[layer - 1, head - 1]  # (T, T)
    labels = viz_attn.token_labels(row.tokens)
    fig = viz_attn.head_figure(
        weights, labels, title=t("lesson.attention.title", layer=layer, head=head),
        query_title=t("lesson.axis.query"), key_title=t("lesson.axis.key"),
        value_title=t("lesson.axis.weight"),
    )  # fmt: skip
    fig.update_traces(textfont_size=CELL_FONT)
    fig.update_layout(height=min(fig.layout.height, MAX_HEIGHT))  # long sentences: scroll less
    show_chart(fig, "lesson.chart.attention", right)
    tokens = list(row.tokens)
    download_csv(lambda w=weights, k=tokens: labelled_matrix(w, k, k),
                 f"lesson-attention-L{layer}-H{head}", "lesson.csv.attention", left,
                 index=True)  # fmt: skip
    query = min(int(st.session_state.get("lesson.token") or 0), len(row.tokens) - 1)
    best = int(weights[query].argmax())
    numbers = {"query": row.tokens[query], "read": row.tokens[best],
               "weight": float(weights[query, best])}  # fmt: skip
    caption = t("lesson.attention.caption", layer=layer, head=head, **numbers)
    right.caption(caption + " " + source)


def screen_pooled(left, right) -> None:  # noqa: ANN001 - columns
    run = data.sentence_run(row.ids)
    rows = core.pooling_rows(run, row.tokens, POOL_DIMS)
    rows.index = [*rows.index[:-2], t("lesson.pooled.mean"), t("lesson.pooled.unit")]
    hidden = run.vector.shape[0]
    left.metric(t("lesson.pooled.length"), f"{run.length:.3f}")
    fig = viz.pooling_figure(
        rows, title=t("lesson.pooled.title"), x_title=t("lesson.axis.dim"),
        y_title=t("lesson.axis.row"), value_title=t("lesson.axis.value"),
    )  # fmt: skip
    fig.update_traces(textfont_size=CELL_FONT)
    show_chart(fig, "lesson.chart.pooled", right)
    download_csv(lambda v=run.vector: core.vector_frame(v), "lesson-sentence-vector",
                 "lesson.csv.pooled", left)  # fmt: skip
    caption = t("lesson.pooled.caption", n=len(row.tokens), norm=run.length, hidden=hidden,
                dims=POOL_DIMS)  # fmt: skip
    right.caption(caption + " " + source)


def screen_cosine(left, right) -> None:  # noqa: ANN001 - columns
    compared = [s for s in (other, third) if s.strip()]
    if not other.strip():
        body.warning(t("lesson.other_empty"))
        return
    rows = [data.tokens(s) for s in compared]
    if any(len(r.ids) > limit for r in rows):
        body.error(t("lesson.too_long", n=max(len(r.ids) for r in rows), limit=limit))
        return
    mine = data.sentence_run(row.ids).mean
    parts = [core.cosine_parts(mine, data.sentence_run(r.ids).mean) for r in rows]
    first = parts[0]
    left.metric(t("lesson.cosine.metric"), f"{first.cosine:.3f}")
    left.latex(  # two lines: fits the narrow column, also on a projector
        r"\begin{aligned}\cos(u, v) &= \frac{u \cdot v}{\lVert u \rVert \, \lVert v \rVert} \\ "
        rf"&= \frac{{{first.dot:.3f}}}{{{first.norm_u:.3f} \times {first.norm_v:.3f}}}"
        rf" = {first.cosine:.3f}\end{{aligned}}"
    )
    fig = viz.cosine_figure(
        [text, *compared], [core.cosine_parts(mine, mine).cosine] + [p.cosine for p in parts],
        title=t("lesson.cosine.title"), x_title=t("lesson.axis.sentence"),
        y_title=t("lesson.axis.cosine"),
    )  # fmt: skip
    show_chart(fig, "lesson.chart.cosine", right)
    record = {"sentence": text, "compared": [
        {"sentence": s, **vars(p)} for s, p in zip(compared, parts, strict=True)]}  # fmt: skip
    download_json(record, "lesson-cosine", "lesson.json.cosine", left)
    if any(r.unknown * 3 > r.content for r in (row, *rows)):
        right.info(t("lesson.cosine.unknown"))
    right.caption(t("lesson.cosine.caption") + " " + source)


SCREENS = {
    "text": screen_text, "bytes": screen_bytes, "tokens": screen_tokens,
    "ids": lambda left, right: screen_tokens(left, right, with_ids=True),
    "onehot": screen_onehot, "vector": screen_vector, "position": screen_position,
    "attention": screen_attention, "pooled": screen_pooled, "cosine": screen_cosine,
}  # fmt: skip
SCREENS[name](left, right)
share_link(LINKED, link, DEFAULTS)
