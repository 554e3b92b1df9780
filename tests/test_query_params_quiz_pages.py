"""Links that restore a view, for the Tokenizer Lab's step k and the Attention page's query/key.

A link from the lab carries the corpus choice, algorithm, vocabulary size, probe and step k; opened
on the built-in corpus it trains on its own (cached, deterministic) and shows step k. A pasted or
uploaded corpus is never in the URL, so such a link only restores the settings.
"""

from __future__ import annotations

from tests.links import link_text, open_with

LAB = "lessons/tokenizer_train.py"


def test_a_lab_link_with_step_k_trains_and_opens_on_k():
    params = {"tok.train.lang": "en", "tok.train.algo": "byte-bpe", "tok.train.vocab": "300",
              "tok.train.probe": "lower", "tok.train.k": "7"}  # fmt: skip
    at = open_with(LAB, params)
    assert not at.error
    assert at.slider(key="tok.train.k").value == 7
    tokenizer = at.session_state["shared.tokenizer"]
    assert tokenizer.vocab_size == 300 and len(tokenizer.merges) > 7
    assert any("k = 7 of" in s.value for s in at.subheader)
    assert at.text_input(key="tok.train.probe").value == "lower"
    link = link_text(at)
    assert "tok.train.k=7" in link and "tok.train.vocab=300" in link
    assert at.query_params["tok.train.k"] == "7"
    at.slider(key="tok.train.k").set_value(3).run()  # scrubbing updates the URL and the link
    assert at.query_params["tok.train.k"] == "3" and "tok.train.k=3" in link_text(at)


def test_step_k_past_the_end_opens_on_the_last_merge():
    at = open_with(LAB, {"tok.train.lang": "en", "tok.train.vocab": "300", "tok.train.k": "9999"})
    total = len(at.session_state["shared.tokenizer"].merges)
    assert at.slider(key="tok.train.k").value == total


def test_k_zero_stays_in_a_trained_lab_link():
    """k = 0 is the page default, yet a link without k would not train: it stays in the link."""
    at = open_with(LAB, {"tok.train.lang": "en", "tok.train.vocab": "300", "tok.train.k": "0"})
    assert at.slider(key="tok.train.k").value == 0
    assert "tok.train.k=0" in link_text(at)


def test_a_link_without_k_or_with_a_pasted_corpus_does_not_train():
    at = open_with(LAB, {"tok.train.lang": "en", "tok.train.vocab": "300"})
    assert "tok.train.result" not in at.session_state and at.info  # the "press Train" hint
    assert "tok.train.k" not in link_text(at)
    pasted = open_with(LAB, {"tok.train.source": "paste", "tok.train.k": "5"})
    assert "tok.train.result" not in pasted.session_state and not pasted.error


def test_attention_query_and_key_open_from_a_link():
    params = {"attn.text": "The cat sat on the mat.", "attn.layer": "2", "attn.head": "3",
              "attn.query": "2", "attn.key": "4"}  # fmt: skip
    at = open_with("lessons/attention.py", params)
    assert at.selectbox(key="attn.query").value == 2
    assert at.selectbox(key="attn.key").value == 4
    link = link_text(at)
    assert "attn.query=2" in link and "attn.key=4" in link
    at.selectbox(key="attn.query").set_value(3).run()
    assert at.query_params["attn.query"] == "3" and "attn.query=3" in link_text(at)


def test_attention_query_out_of_range_is_clamped():
    at = open_with("lessons/attention.py", {"attn.text": "Hi.", "attn.query": "40"})
    assert at.selectbox(key="attn.query").value == 0  # "40" is not a position of 4 tokens
    at = open_with("lessons/attention.py", {"attn.text": "Hi.", "attn.key": "3"})
    assert at.selectbox(key="attn.key").value == 3  # [CLS] hi . [SEP]: position 3 exists
