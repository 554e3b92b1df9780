"""Links that restore a view: the token picked on Token embeddings and Embedding sum and the RoPE
pair on Position encodings (clamped to the sentence or the width), the sentence list of the
Similarity page and the tokenizer choice of the Train page come back from the URL."""

from __future__ import annotations

from tests.links import assert_bound, link_text, open_with


def test_token_embeddings_pick_opens_from_a_link():
    params = {"emb.tokens.text": "The king and the queen.", "emb.tokens.pick": "4",
              "emb.tokens.map": "false"}  # fmt: skip
    at = open_with("lessons/embed_tokens.py", params)
    assert at.selectbox(key="emb.tokens.pick").value == 4  # "queen"
    assert "queen" in at.selectbox(key="emb.tokens.pick").format_func(4)
    assert "emb.tokens.pick=4" in link_text(at)
    assert at.query_params["emb.tokens.pick"] == "4"
    at.selectbox(key="emb.tokens.pick").set_value(2).run()
    assert at.query_params["emb.tokens.pick"] == "2"  # a position, not the shown "and (id …)"
    assert "emb.tokens.pick=2" in link_text(at)


def test_token_pick_past_the_sentence_opens_on_its_last_token():
    params = {"emb.tokens.text": "Hello there.", "emb.tokens.pick": "40", "emb.tokens.map": "false"}
    at = open_with("lessons/embed_tokens.py", params)
    assert at.selectbox(key="emb.tokens.pick").value == 2  # hello there .
    assert at.query_params["emb.tokens.pick"] == "2"


def test_token_pick_that_is_not_a_number_is_ignored():
    params = {"emb.tokens.text": "Hello there.", "emb.tokens.pick": "x", "emb.tokens.map": "false"}
    at = open_with("lessons/embed_tokens.py", params)
    assert at.selectbox(key="emb.tokens.pick").value == 1  # the page's default


def test_embedding_sum_pick_opens_from_a_link():
    params = {"emb.sum.a": "The cat sat.", "emb.sum.b": "It slept.", "emb.sum.pick": "5",
              "emb.sum.dims": "8", "emb.sum.overview": "false"}  # fmt: skip
    at = open_with("lessons/embed_sum.py", params)
    assert at.selectbox(key="emb.sum.pick").value == 5
    assert at.session_state["emb.sum.pick"] == 5
    assert_bound(at, ("emb.sum.a", "emb.sum.b", "emb.sum.dims", "emb.sum.overview"))
    assert "emb.sum.pick=5" in link_text(at)
    far = open_with("lessons/embed_sum.py", {**params, "emb.sum.pick": "99"})
    last = far.selectbox(key="emb.sum.pick")  # [CLS] the cat sat . [SEP] it slept . [SEP]
    assert last.value == 9 and "[SEP] (B)" in last.format_func(9)


def test_rope_pair_opens_from_a_link():
    params = {"emb.pos.dim": "16", "emb.pos.rope": "true", "emb.pos.pair": "6"}
    at = open_with("lessons/embed_positions.py", params)
    assert at.slider(key="emb.pos.pair").value == 6
    assert_bound(at, ("emb.pos.pair",))
    assert "emb.pos.pair=6" in link_text(at)


def test_similarity_sentence_list_opens_from_a_link():
    params = {"sim.list": "A cat.\nA dog.\n一只猫。", "sim.view": "matrix", "sim.model": "minilm"}
    at = open_with("lessons/similarity.py", params)
    assert at.text_area(key="sim.list").value == "A cat.\nA dog.\n一只猫。"
    assert_bound(at, ("sim.list",))
    assert "sim.list=A+cat.%0AA+dog." in link_text(at)


def test_train_tokenizer_choice_opens_from_a_link():
    params = {"train.tok": "train", "train.algo": "unigram", "train.vocab_size": "700",
              "train.edit": "true", "train.max_length": "32"}  # fmt: skip
    at = open_with("lessons/train_model.py", params)
    assert at.session_state["train.tok"] == "train"
    assert at.selectbox(key="train.algo").value == "unigram"
    assert at.selectbox(key="train.algo").format_func("unigram") == "Unigram LM"  # translated
    assert at.number_input(key="train.vocab_size").value == 700
    assert at.number_input(key="train.max_length").value == 32
    assert_bound(at, ("train.vocab_size", "train.max_length"))
    text = link_text(at)
    assert "train.algo=unigram" in text and "train.vocab_size=700" in text
    at.selectbox(key="train.algo").set_value("byte-bpe").run()
    assert at.query_params["train.algo"] == "byte-bpe"  # the code, not "Byte-level BPE"
