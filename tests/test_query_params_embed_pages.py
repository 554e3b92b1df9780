"""Links that restore a view on the Embed pages: the token picked on Token embeddings and on
Embedding sum, and the RoPE pair on Position encodings, come back from the URL (clamped to the
sentence or the width) and reach the link box."""

from __future__ import annotations

from tests.test_query_params import assert_bound, link_text, open_with


def test_token_embeddings_pick_opens_from_a_link():
    params = {"emb.tokens.text": "The king and the queen.", "emb.tokens.pick": "4",
              "emb.tokens.map": "false"}  # fmt: skip
    at = open_with("pages/embed_tokens.py", params)
    assert at.selectbox(key="emb.tokens.pick").value == 4  # "queen"
    assert "queen" in at.selectbox(key="emb.tokens.pick").format_func(4)
    assert "emb.tokens.pick=4" in link_text(at)
    assert at.query_params["emb.tokens.pick"] == "4"
    at.selectbox(key="emb.tokens.pick").set_value(2).run()
    assert at.query_params["emb.tokens.pick"] == "2"  # a position, not the shown "and (id …)"
    assert "emb.tokens.pick=2" in link_text(at)


def test_token_pick_past_the_sentence_opens_on_its_last_token():
    params = {"emb.tokens.text": "Hello there.", "emb.tokens.pick": "40", "emb.tokens.map": "false"}
    at = open_with("pages/embed_tokens.py", params)
    assert at.selectbox(key="emb.tokens.pick").value == 2  # hello there .
    assert at.query_params["emb.tokens.pick"] == "2"


def test_token_pick_that_is_not_a_number_is_ignored():
    params = {"emb.tokens.text": "Hello there.", "emb.tokens.pick": "x", "emb.tokens.map": "false"}
    at = open_with("pages/embed_tokens.py", params)
    assert at.selectbox(key="emb.tokens.pick").value == 1  # the page's default


def test_embedding_sum_pick_opens_from_a_link():
    params = {"emb.sum.a": "The cat sat.", "emb.sum.b": "It slept.", "emb.sum.pick": "5",
              "emb.sum.dims": "8", "emb.sum.overview": "false"}  # fmt: skip
    at = open_with("pages/embed_sum.py", params)
    assert at.selectbox(key="emb.sum.pick").value == 5
    assert at.session_state["emb.sum.pick"] == 5
    assert_bound(at, ("emb.sum.a", "emb.sum.b", "emb.sum.dims", "emb.sum.overview"))
    assert "emb.sum.pick=5" in link_text(at)
    far = open_with("pages/embed_sum.py", {**params, "emb.sum.pick": "99"})
    last = far.selectbox(key="emb.sum.pick")  # [CLS] the cat sat . [SEP] it slept . [SEP]
    assert last.value == 9 and "[SEP] (B)" in last.format_func(9)


def test_rope_pair_opens_from_a_link():
    params = {"emb.pos.dim": "16", "emb.pos.rope": "true", "emb.pos.pair": "6"}
    at = open_with("pages/embed_positions.py", params)
    assert at.slider(key="emb.pos.pair").value == 6
    assert_bound(at, ("emb.pos.pair",))
    assert "emb.pos.pair=6" in link_text(at)
