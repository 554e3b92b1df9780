"""AppTest of the Text → tokens → ids page: spans, the token table, bad input, the Lab's tokenizer,
and the comparison chart's numbers checked against the tokenizers themselves."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from explorer_core.tokenization.unigram import UnigramTokenizer
from explorer_core.tokenization.wordpiece import WordPieceTokenizer
from explorer_core.ui.state import SHARED_TOKENIZER, SHARED_TOKENIZER_NAME
from explorer_core.viz.tokens import script_counts
from tests.conftest import app_test

PAGE = "lessons/tokenizer_encode.py"


def chart_values(value) -> list[float]:
    if isinstance(value, dict) and "bdata" in value:
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).tolist()
    return [float("nan") if v is None else v for v in value]


def the_chart(at) -> dict:
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    return json.loads(charts[0].proto.spec)


def table_ids(at) -> list[int]:
    return at.dataframe[0].value.iloc[:, 2].tolist()


@pytest.fixture(scope="module")
def default_run():
    return app_test(PAGE, timeout=180)


def test_default_is_real_bert_with_spans_and_table(default_run, minilm_dir):
    at = default_run
    assert not at.exception
    assert at.session_state["tok.encode.source"] == "bert"
    text = at.session_state["tok.encode.text"]
    bert = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt")
    assert table_ids(at) == bert.encode(text)
    spans = [m.value for m in at.markdown if m.value.startswith("<div")]
    assert spans[0].count('title="id ') == len(bert.encode(text))
    assert "unbelievable" in spans[0]  # BERT's lower-cased vocabulary string
    assert at.metric[0].value == str(len(bert.encode(text)))


def test_comparison_chart_holds_each_tokenizers_tokens_per_character(default_run):
    from explorer_core.ui.tokens import calls as cache

    at = default_run
    text = at.session_state["tok.encode.text"]
    spec = the_chart(at)
    assert spec["layout"]["xaxis"]["title"]["text"] and spec["layout"]["yaxis"]["title"]["text"]
    cjk, other = spec["data"]
    assert len(cjk["x"]) == len(cache.available_sources()) == 6
    for k, source in enumerate(cache.available_sources()):
        counts = script_counts(cache.resolve(source)[0].explain(text), text)
        assert chart_values(cjk["y"])[k] == pytest.approx(counts.cjk_tokens / counts.cjk_chars)
        assert chart_values(other["y"])[k] == pytest.approx(
            counts.other_tokens / counts.other_chars
        )
    assert "%{y" in cjk["hovertemplate"]


def test_hand_counted_bars():
    """ "ab 你好": 2 Chinese and 2 other characters. Word level gives ab | 你 | 好, so 1 token per
    Chinese character and 1/2 per other character; BERT cuts the same way."""
    at = app_test(PAGE, timeout=180, state={"tok.encode.text": "ab 你好"})
    spec = the_chart(at)
    names = list(spec["data"][0]["x"])
    for name in ("Word level", "BERT (MiniLM)"):
        k = names.index(name)
        assert chart_values(spec["data"][0]["y"])[k] == 1.0
        assert chart_values(spec["data"][1]["y"])[k] == 0.5


def test_switching_tokenizer_and_partial_bytes():
    from explorer_core.ui.tokens import calls as cache

    at = app_test(
        PAGE, timeout=180, state={"tok.encode.text": "齉 ok", "tok.encode.compare": False}
    )
    at.selectbox(key="tok.encode.source").set_value("byte-bpe").run()
    assert not at.exception
    assert table_ids(at) == cache.trained_default("byte-bpe").encode("齉 ok")
    shown = at.dataframe[0].value.iloc[:, 1].tolist()
    assert any(s.startswith("⟨") and s.endswith("⟩…") for s in shown)  # a cut character's bytes
    assert not at.get("plotly_chart")  # the comparison is off


def test_specials_are_added_and_boxed(default_run):
    at = app_test(PAGE, timeout=180, state={"tok.encode.compare": False})
    at.toggle(key="tok.encode.specials").set_value(True).run()
    ids = table_ids(at)
    assert ids[0] == 101 and ids[-1] == 102  # [CLS] ... [SEP]
    assert "[CLS]" in [m.value for m in at.markdown if m.value.startswith("<div")][0]


def test_lab_tokenizer_is_used_when_present():
    lab = UnigramTokenizer()
    lab.train("the tokenizer lab trains tokenizers on text " * 10, 300)
    text = "the lab text"
    state = {SHARED_TOKENIZER: lab, SHARED_TOKENIZER_NAME: "unigram, 300", "tok.encode.text": text}
    at = app_test(PAGE, timeout=180, state=state)
    assert not at.exception
    assert at.session_state["tok.encode.source"] == "lab"
    assert table_ids(at) == lab.encode(text)
    assert "Lab: unigram, 300" in list(the_chart(at)["data"][0]["x"])


def test_empty_and_huge_text_give_messages_and_keep_the_text():
    at = app_test(PAGE, timeout=180, state={"tok.encode.compare": False})
    at.text_area(key="tok.encode.text").set_value("").run()
    assert not at.exception and at.warning and not at.dataframe
    huge = "数据 data " * 4000
    at.text_area(key="tok.encode.text").set_value(huge).run()
    assert not at.exception and at.error and "32,000" in at.error[0].value
    assert at.session_state["tok.encode.text"] == huge


def test_chinese_interface():
    at = app_test(PAGE, timeout=180, state={"lang": "zh", "tok.encode.compare": False})
    assert not at.exception
    assert at.title[0].value == "文本 → 词元 → 编号"


def test_without_minilm_the_page_falls_back_to_our_tokenizers(monkeypatch, tmp_path):
    monkeypatch.setenv("EXPLORER_MINILM_PATH", str(tmp_path))  # no model files there
    at = app_test(PAGE, timeout=180, state={"tok.encode.text": "ab 你好"})
    assert not at.exception
    assert at.session_state["tok.encode.source"] == "byte-bpe"
    assert "BERT (MiniLM)" not in list(the_chart(at)["data"][0]["x"])
