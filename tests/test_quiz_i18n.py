"""Predict, then reveal in Chinese: the question and the verdict views show no untranslated text.

Uses the running check of tests/translation.py (what a page shows in Chinese). # subtle: AppTest
formats option widgets in English outside a run, so every Chinese run here is the last run of its
AppTest.
"""

from __future__ import annotations

from tests import translation
from tests.conftest import app_test


def chinese(at):  # noqa: ANN001, ANN201 - an AppTest
    at.session_state["lang"] = "zh"
    return at


def clean(at) -> None:  # noqa: ANN001 - an AppTest
    assert not at.exception, [e.message for e in at.exception]
    assert not translation.untranslated(at), translation.untranslated(at)


def test_masking_question_and_verdict():
    clean(app_test("lessons/bert_inputs.py", state={"lang": "zh", "inputs.predict": True}))
    at = app_test("lessons/bert_inputs.py", state={"inputs.predict": True})
    chinese(at).button(key="inputs.reveal").click().run()
    clean(at)
    assert any("本次会话得分" in m.value for m in at.markdown)


def test_attention_question_and_verdict():
    clean(app_test("lessons/attention.py", state={"lang": "zh", "attn.predict": True}))
    at = app_test("lessons/attention.py", state={"attn.predict": True})
    chinese(at).button(key="attn.reveal").click().run()
    clean(at)
    assert any("这一行最大的权重" in m.value for m in at.markdown)


def test_merge_question_and_verdict():
    at = app_test("lessons/tokenizer_train.py")
    at.session_state["tok.train.vocab"] = 300
    at.button(key="tok.train.go").click().run(timeout=120)
    at.slider(key="tok.train.k").set_value(4).run()
    at.toggle(key="tok.train.predict").set_value(True).run()
    chinese(at).button(key="tok.train.reveal").click().run()
    clean(at)
    assert any("第 5 次合并的是" in m.value for m in at.markdown)
