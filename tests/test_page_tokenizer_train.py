"""AppTest of the "Train a tokenizer" page: train by key, scrub, read the chart data and tables."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import new_tokenizer
from explorer_core.tokenization.base import VocabTooSmall
from explorer_core.tokenization.byte_bpe import ByteBPETokenizer
from explorer_core.ui.state import SHARED_TOKENIZER, SHARED_TOKENIZER_NAME
from explorer_core.ui.tokenizer_lab import calls as lab
from explorer_core.viz import tokenizer as viz
from tests.conftest import app_test

PAGE = "lessons/tokenizer_train.py"


def train(state: dict | None = None, **widgets):
    at = app_test(PAGE, state=state)
    for key, value in widgets.items():
        at.session_state[f"tok.train.{key}"] = value
    at.button(key="tok.train.go").click().run(timeout=120)
    return at


def values(array) -> list:
    """A plotly array from the chart JSON: a plain list, or {"dtype", "bdata"} (base64)."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def traces(at, mode: str) -> list[dict]:
    (chart,) = at.get("plotly_chart")
    figure = json.loads(chart.proto.spec)
    return [d for d in figure["data"] if d.get("mode") == mode]


def curve(at) -> dict[str, tuple[list[int], list[float]]]:
    return {d["name"]: (values(d["x"]), values(d["y"])) for d in traces(at, "lines")}


def test_page_starts_with_a_hint():
    at = app_test(PAGE)
    assert not at.exception
    assert at.info and "Train" in at.info[0].value
    assert not at.get("plotly_chart")


@pytest.fixture(scope="module")
def trained():
    return train(vocab=300)


def test_training_shares_the_tokenizer(trained):
    at = trained
    assert not at.exception and not at.error
    tokenizer = at.session_state[SHARED_TOKENIZER]
    assert isinstance(tokenizer, ByteBPETokenizer) and tokenizer.vocab_size == 300
    assert "300" in at.session_state[SHARED_TOKENIZER_NAME]
    assert at.slider(key="tok.train.k").value == len(tokenizer.merges) == 44


def test_tokens_per_character_curve(trained):
    """At k = 0 every byte is a token: Chinese characters cost 3 tokens each (punctuation too), so
    the Chinese line starts near 3; ASCII letters cost 1. Every merge lowers both lines."""
    at = trained
    lines = curve(at)
    assert set(lines) == {"Chinese", "English and other"}
    tokenizer = at.session_state[SHARED_TOKENIZER]
    stats = tokenizer.stats
    for name, group in (("English and other", 0), ("Chinese", 1)):
        xs, ys = lines[name]
        assert xs[0] == 0 and xs[-1] == len(tokenizer.merges)
        assert ys[0] == pytest.approx(stats.initial_tokens[group] / stats.chars[group])
        assert all(b <= a for a, b in zip(ys, ys[1:], strict=False))
    assert 2.5 < lines["Chinese"][1][0] <= 3.0
    assert 1.0 <= lines["English and other"][1][0] < 1.1  # a few dashes and quotes take 3 bytes


def test_scrubbing_redraws_step_k(trained):
    at = trained
    at.slider(key="tok.train.k").set_value(5).run()
    assert not at.exception
    tokenizer = at.session_state[SHARED_TOKENIZER]
    table = at.dataframe[0].value  # candidates before merge 6 (k = 5)
    assert table.iloc[0]["count"] == tokenizer.merges[5].count
    assert list(table["place"]) == [1, 2, 3, 4, 5]
    assert any("k = 5 of 44" in s.value for s in at.subheader)
    markers = traces(at, "markers")
    assert len(markers) == 2 and all(values(m["x"]) == [5] for m in markers)
    probe = at.session_state["tok.train.probe"]
    spans = [m.value for m in at.markdown if "<span" in m.value]
    assert len(spans) == 1
    assert spans[0].count("<span title=") == len(tokenizer.explain(probe, steps=5))


def test_probe_shows_partial_bytes_at_k0(trained):
    at = trained
    at.slider(key="tok.train.k").set_value(0).run()
    span = next(m.value for m in at.markdown if "<span" in m.value)
    assert "⟩…" in span and "\ufffd" not in span


def test_byte_bpe_vocab_below_the_alphabet():
    at = train(vocab=200)
    assert not at.exception
    assert "at least 256" in at.error[0].value
    assert SHARED_TOKENIZER not in at.session_state


@pytest.mark.parametrize(
    ("algo", "minimum"),
    [("wordpiece", "5 special tokens plus"), ("char-bpe", "4 special tokens plus"),
     ("unigram", "choose a size of at least"), ("word", "more than its 5 special tokens")],
)  # fmt: skip
def test_vocab_below_the_algorithms_floor_names_the_minimum(algo, minimum):
    """Each algorithm's own floor, said by the catalogue in the page's language, not the core's
    English sentence; the chosen size stays in its box."""
    with pytest.raises(VocabTooSmall, match=minimum) as core:  # the core's English reason
        new_tokenizer(algo).train(builtin_corpus("en"), 3)
    floor = core.value.minimum
    at = train(algo=algo, vocab=3, lang="en")
    assert not at.exception
    (error,) = at.error
    assert f"at least {floor:,} for this corpus" in error.value and "You chose 3." in error.value
    assert minimum not in error.value
    assert at.number_input(key="tok.train.vocab").value == 3
    assert SHARED_TOKENIZER not in at.session_state
    at.session_state["lang"] = "zh"
    at.button(key="tok.train.go").click().run(timeout=120)
    assert f"至少需要 {floor:,} 个词元" in at.error[0].value


def test_empty_paste_keeps_the_page():
    at = train(source="paste", paste="   ")
    assert not at.exception
    assert "empty" in at.error[0].value
    assert at.text_area(key="tok.train.paste").value == "   "


def test_huge_paste_is_refused_and_stays():
    text = "x" * (lab.MAX_CORPUS_CHARS + 1)
    at = train(source="paste", paste=text)
    assert not at.exception
    assert "1,000,001" in at.error[0].value
    assert at.text_area(key="tok.train.paste").value == text


def test_pasted_chinese_with_char_bpe_is_replayable():
    text = "learning tokens, 我们学习分词。merging tokens, 我们学习合并。" * 30
    at = train(source="paste", paste=text, algo="char-bpe", vocab=60)
    assert not at.exception and not at.error
    assert at.slider(key="tok.train.k").value > 0
    assert "Chinese" in curve(at)


def test_non_bpe_algorithm_shows_its_trace_table():
    at = train(algo="word", vocab=50, lang="en")
    assert not at.exception and not at.error
    assert not at.get("slider")
    trace = at.dataframe[0].value
    assert len(trace) > 0


def test_upload_checks():
    with pytest.raises(lab.CorpusProblem) as binary:
        lab.decode_upload(b"\x00\x01binary")
    assert binary.value.key == "tok.train.err.binary"
    with pytest.raises(lab.CorpusProblem) as latin1:
        lab.decode_upload("café".encode("latin-1"))
    assert latin1.value.key == "tok.train.err.not_utf8" and latin1.value.values == {"offset": 3}
    assert lab.decode_upload("\ufeff你好".encode()) == "你好"


def test_chinese_page_texts():
    at = app_test(PAGE, state={"lang": "zh"})
    assert not at.exception
    assert at.title[0].value == "训练分词器"


# ---- predict, then reveal; downloads -------------------------------------------------------


def radio_of(at, prefix: str):
    (radio,) = [r for r in at.radio if r.key.startswith(prefix)]
    return radio


def winner_text(tokenizer, k: int) -> str:
    merge = tokenizer.merges[k]
    return f"{viz.piece(tokenizer, merge.left)} + {viz.piece(tokenizer, merge.right)}"


def test_predict_the_next_merge_hides_the_candidates_then_grades():
    """At k = 5, "Predict first" hides "Why merge 6 won" and every merge from 6 on; the options are
    the 5 candidate pairs without counts; Reveal grades, shows the count and keeps the score."""
    at = train(vocab=300, lang="mixed")
    at.slider(key="tok.train.k").set_value(5).run()
    tokenizer = at.session_state[SHARED_TOKENIZER]
    assert len(at.dataframe) == 2  # candidates and merge list
    at.toggle(key="tok.train.predict").set_value(True).run()
    assert not at.exception
    assert len(at.dataframe) == 1  # only the merge list, cut before merge 6
    assert at.dataframe[0].value.iloc[:, 0].max() < tokenizer.merges[5].rank
    assert not at.get("download_button")  # merges.txt would give the answer away
    radio = radio_of(at, "tok.train.answer.")
    assert len(radio.options) == 5 and winner_text(tokenizer, 5) in radio.options
    assert not any(str(c.count) in " ".join(radio.options) for c in tokenizer.candidates(5))
    radio.set_value(radio.options.index(winner_text(tokenizer, 5))).run()
    at.button(key="tok.train.reveal").click().run()
    assert not at.exception
    assert at.session_state["quiz.score"]["tok.train"] == (1, 1)
    text = " ".join(m.value for m in at.markdown)
    assert f"It occurred {tokenizer.merges[5].count:,} times" in text and "1 of 1" in text
    assert len(at.dataframe) == 2  # the candidates are back
    assert not at.radio and "tok.train.reveal" not in [b.key for b in at.button]  # graded once
    at.run()  # a rerun does not grade again
    assert at.session_state["quiz.score"]["tok.train"] == (1, 1)
    at.slider(key="tok.train.k").set_value(6).run()  # next step: a new question, wrong this time
    radio = radio_of(at, "tok.train.answer.")
    wrong = next(i for i, o in enumerate(radio.options) if o != winner_text(tokenizer, 6))
    radio.set_value(wrong).run()
    at.button(key="tok.train.reveal").click().run()
    assert at.session_state["quiz.score"]["tok.train"] == (1, 2)
    assert "Not quite" in at.warning[0].value


def test_predict_the_next_merge_in_chinese():
    """# subtle: AppTest formats option widgets with the page's format_func outside a run (in
    English), so the Chinese run is the last one: answer in English, reveal in Chinese."""
    at = train(vocab=300, lang="mixed")
    tokenizer = at.session_state[SHARED_TOKENIZER]
    at.slider(key="tok.train.k").set_value(3).run()
    at.toggle(key="tok.train.predict").set_value(True).run()
    radio = radio_of(at, "tok.train.answer.")
    radio.set_value(radio.options.index(winner_text(tokenizer, 3))).run()
    at.session_state["lang"] = "zh"
    at.button(key="tok.train.reveal").click().run()
    assert not at.exception
    assert at.subheader[1].value == "预测第 4 次合并"
    assert at.success[-1].value == "答对了：1 题中对了 1 题。"
    text = " ".join(m.value for m in at.markdown)
    assert f"出现了 {tokenizer.merges[3].count:,} 次" in text and "1 题中答对 1 题" in text


def test_lab_downloads_build_files():
    """The buttons exist after training; the bytes come from explorer_core.downloads (tested in
    tests/test_quiz.py)."""
    at = train(vocab=300)
    keys = {b.proto.id for b in at.get("download_button")}
    assert len(keys) == 5  # vocab, merge table, merges.txt, curve, zip
