"""Predict, then reveal in a real browser: a lab link reopens step k, the question hides the
candidates, Reveal grades; the masking question in Chinese. Screenshots: artifacts/screenshots/
quiz-*.png; look at them."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_predict_the_next_merge_from_a_link(browser):
    page = browser.page
    query = "lang=en&tok.train.lang=en&tok.train.vocab=300&tok.train.k=5"
    browser.open("train-tokenizer", query=query, wait_text="k = 5 of 44")
    assert page.get_by_text("Why merge 6 won").count() == 1
    page.get_by_text("Predict first").first.click()
    browser.wait_idle("Predict merge 6")
    assert page.get_by_text("Why merge 6 won").count() == 0
    browser.screenshot("quiz-tok-ask")
    page.get_by_text("·t + he").first.click()  # the pair merge 6 joined on this corpus
    browser.wait_idle()
    page.get_by_role("button", name="Reveal").click()
    browser.wait_idle("Your score this session: 1 of 1")
    assert page.get_by_text("Why merge 6 won").count() == 1
    browser.screenshot("quiz-tok-reveal")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_predict_the_masking_in_chinese(browser):
    page = browser.page
    browser.open("bert-inputs", query="lang=zh", wait_text="掩码语言模型")
    page.get_by_text("先预测").first.click()
    browser.wait_idle("预测掩码")
    browser.screenshot("quiz-inputs-ask-zh")
    page.get_by_role("button", name="揭晓").click()
    browser.wait_idle("本次会话得分")
    assert page.get_by_text("如果每次都猜 [MASK]").count() == 1
    browser.screenshot("quiz-inputs-reveal-zh")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []
