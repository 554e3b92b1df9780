"""Text → tokens → ids: the user's text as coloured token spans, a token → id table, and the same
text through every tokenizer with token counts and tokens per character."""

from __future__ import annotations

import streamlit as st

from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.files import tables
from explorer_core.ui.export import download_csv, download_json
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import init_page
from explorer_core.ui.state import bound, init, link_slot, share_link, url_synced
from explorer_core.ui.tokens import calls as cache
from explorer_core.ui.tokens import views
from explorer_core.viz import tokens as viz

sources = cache.available_sources()
DEFAULTS = init_page("lessons/tokenizer_encode.py", {"tok.encode.source": sources[0]})
cache.follow_lab("tok.encode.source")  # a tokenizer just trained in the Lab is shown first
url_synced("tok.encode.source", sources)
LINKED = ("tok.encode.text", "tok.encode.source", "tok.encode.specials", "tok.encode.compare")


st.title(t("tok.encode.title"))
st.markdown(t("tok.encode.intro"))
text = st.text_area(t("tok.encode.text"), height=110, **bound("tok.encode.text", DEFAULTS))
switches = st.container(horizontal=True)
with switches:
    specials = st.toggle(
        t("tok.encode.specials"), help=t("tok.encode.specials.help"),
        **bound("tok.encode.specials", DEFAULTS),
    )  # fmt: skip
    compare = st.toggle(t("tok.encode.compare"), **bound("tok.encode.compare", DEFAULTS))
link = link_slot()  # the box is drawn in the fragment below, or before a stop
if not text or len(text) > cache.MAX_CHARS:
    if not text:
        st.warning(t("tok.encode.empty"))
    else:
        st.error(t("tok.encode.too_long", n=len(text), limit=cache.MAX_CHARS))
    share_link(LINKED, link, DEFAULTS)  # error views keep their link
    st.stop()


@st.fragment  # picking another tokenizer reruns only this part, not the comparison below
def one_tokenizer(text: str, specials: bool) -> None:
    init(DEFAULTS)  # a fragment rerun: keys of widgets the last run did not draw are gone
    source = st.selectbox(
        t("tok.encode.source"), sources, key="tok.encode.source", format_func=views.source_name
    )
    url_synced("tok.encode.source", sources)  # also on a fragment rerun: the link follows
    try:
        with st.spinner(t("tok.encode.training")):
            tokenizer, count_key = cache.resolve(source)
            counts = cache.corpus_counts(count_key, tokenizer)
    except PretrainedUnavailable as err:
        st.error(t("tok.encode.unavailable", error=err))
        share_link(LINKED, link, DEFAULTS)
        st.stop()
    tokens = cache.encoded(count_key, tokenizer, text, specials)
    m1, m2, m3 = st.columns(3)
    m1.metric(t("tok.encode.metric.tokens"), len(tokens))
    m2.metric(t("tok.encode.metric.chars"), len(text))
    m3.metric(t("tok.encode.metric.ratio"), f"{len(tokens) / len(text):.2f}")

    # 1) the spans
    st.subheader(t("tok.encode.spans.head"))
    html = viz.spans_html(tokens, text, id_word=t("tok.encode.hover_id"))
    st.markdown(html, unsafe_allow_html=True)
    st.caption(t("tok.encode.spans.caption", source=views.source_name(source)))

    # 2) token -> id table
    st.subheader(t("tok.encode.table.head"))
    columns = ("position", "token", "id", "bytes", "count")
    table = viz.token_frame(tokens, counts)
    table = table.rename(columns={c: t(f"tok.encode.col.{c}") for c in columns})
    st.dataframe(table, hide_index=True, height=min(420, 36 * len(tokens) + 40))
    row, shown_name = (
        st.container(horizontal=True),
        views.source_name(source),
    )  # no t() in callables
    download_csv(lambda: tables.token_table(tokens, text, counts), "tokens", "tok.encode.dl.table",
                 row, label=t("tok.encode.dl.table"))  # fmt: skip
    download_json(lambda: tables.ids_record(text, shown_name, tokens), "ids",
                  "tok.encode.dl.ids", row, label=t("tok.encode.dl.ids"))  # fmt: skip
    st.caption(t("tok.encode.table.caption", chars=cache.corpus_size()))
    share_link(LINKED, link, DEFAULTS)


one_tokenizer(text, specials)

# 3) every tokenizer side by side (trains the defaults once per server: behind a toggle)
st.subheader(t("tok.encode.compare.head"))
if compare:
    views.every_tokenizer(text, specials, sources)
