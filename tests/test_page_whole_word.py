"""Whole-word masking in the pages: the BERT inputs page's side-by-side on Chinese text, the Train
page's switch, and the one-line messages when jieba is missing."""

from __future__ import annotations

import jieba
import pytest

from explorer_core.inputs import whole_word as ww
from explorer_core.ui.i18n import CATALOGUE
from tests.conftest import app_test

INPUTS, TRAIN = "lessons/bert_inputs.py", "lessons/train_model.py"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bert_inputs_masks_jiebas_words_whole(lang):
    text = CATALOGUE[lang]["inputs.default_wwm_text"]
    at = app_test(INPUTS, state={"lang": lang, "inputs.seed": 3}, timeout=180)
    assert not at.exception, [e.message for e in at.exception]
    assert at.text_input(key="inputs.wwm_text").value == text
    words = [w for w in jieba.lcut(text) if w.strip()]
    assert any(" / ".join(words) in m.value for m in at.markdown)
    table = at.dataframe[-2].value
    pieces = table.iloc[1:-1, 0].tolist()  # without [CLS] and [SEP]
    assert "".join(pieces) == text
    whole = table.iloc[1:-1, 4].tolist()
    at_char = 0
    for word in words:  # every character of a word shares one fate under whole-word masking
        assert len(set(whole[at_char : at_char + len(word)])) == 1, word
        at_char += len(word)
    counts = at.dataframe[-1].value
    assert counts.iloc[:, 1].sum() == counts.iloc[:, 2].sum() == len(pieces)


def test_bert_inputs_without_jieba_says_so_in_one_line(monkeypatch):
    def missing(text: str) -> list[str]:
        raise ww.SegmenterMissing(ww.MISSING)

    monkeypatch.setattr(ww, "segment", missing)
    at = app_test(INPUTS, state={"inputs.wwm_text": "没有分词器的时候。"}, timeout=180)
    assert not at.exception, [e.message for e in at.exception]
    shown = [w.value for w in at.warning]
    assert any("jieba" in w and "\n" not in w for w in shown), shown


def test_train_page_switch_puts_whole_word_into_the_plan(monkeypatch):
    from explorer_core.ui.training import form

    plans = []
    real = form.build_plan
    monkeypatch.setattr(
        form, "build_plan", lambda *a, **k: plans.append(real(*a, **k)) or plans[-1]
    )
    at = app_test(TRAIN, timeout=180)
    assert not at.toggle(key="train.whole_word").value
    assert plans[-1].pretrain.whole_word is False
    at.toggle(key="train.whole_word").set_value(True).run()
    assert not at.exception, [e.message for e in at.exception]
    assert plans[-1].pretrain.whole_word is True
    assert not at.button(key="train.start").disabled


def test_train_page_without_jieba_refuses_in_one_line(monkeypatch):
    from explorer_core.ui.training import form

    monkeypatch.setattr(form, "segmenter_available", lambda: False)
    at = app_test(TRAIN, state={"train.whole_word": True}, timeout=180)
    assert not at.exception, [e.message for e in at.exception]
    assert any("jieba" in e.value and "\n" not in e.value for e in at.error)
    assert at.button(key="train.start").disabled


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bert_inputs_shows_the_benchs_dated_table(lang):
    at = app_test(INPUTS, state={"lang": lang}, timeout=180)
    shown = next(m.value for m in at.markdown if "bench/whole_word_masking.py" in m.value)
    assert "2026-11-28" in shown and "--steps 2000" in shown
    assert shown.count("\n|") >= 5  # a header, a rule and four measured rows
