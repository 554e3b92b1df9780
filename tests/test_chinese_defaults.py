"""Default texts in the UI language: Chinese in a Chinese UI, English unchanged in English; a link's
value and the learner's text win; an untouched default follows a language switch."""

from __future__ import annotations

import re

import pytest

from explorer_core.ui.i18n import CATALOGUE
from explorer_core.ui.settings import PAGES
from tests.conftest import app_test
from tests.links import open_with, widget

HANZI = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")

# page -> its text boxes drawn on first open (others sit behind a mode or view)
BOXES = {
    "lessons/embed_tokens.py": ("emb.tokens.text",),
    "lessons/embed_positions.py": ("emb.pos.order_a", "emb.pos.order_b"),
    "lessons/embed_sum.py": ("emb.sum.a", "emb.sum.b"),
    "lessons/attention.py": ("attn.text",),
    "lessons/bert_inputs.py": ("inputs.text",),
    "lessons/similarity.py": ("sim.a", "sim.b"),
    "lessons/encoder.py": ("enc.text",),
}
# what each page teaches with its Chinese default
TEACHES = {
    "emb.tokens.text": lambda s: s.count("苹果") == 2,  # one word, two meanings, one row of E
    "emb.pos.order_a": lambda s: s == "狗咬人",
    "emb.pos.order_b": lambda s: s == "人咬狗",
    "attn.text": lambda s: "它" in s and "猫" in s,  # what does 它 attend to?
}


def text_settings() -> list[tuple[str, str]]:
    return [(key, s.text) for table in PAGES.values() for key, s in table.items() if s.text]


@pytest.mark.parametrize(("key", "text"), text_settings())
def test_every_default_text_has_chinese_in_the_chinese_catalogue(key, text):
    zh = CATALOGUE["zh"][text]
    assert HANZI.search(zh), (key, zh)
    if key not in ("tok.train.probe", "tok.encode.text"):  # those compare two scripts on purpose
        assert not LATIN_WORD.search(zh), (key, zh)
    else:
        assert HANZI.match(zh), (key, zh)  # Chinese first
    assert TEACHES.get(key, lambda s: True)(zh), (key, zh)


def test_settings_that_were_literal_english_keep_their_english():
    en = CATALOGUE["en"]
    assert en["attn.default_text"] == "The cat sat on the mat because it was tired."
    assert en["attn.default_a"] == "The cat sat on the mat."
    assert en["attn.default_b"] == "It fell asleep in the sun."
    assert (
        en["attn.default_batch"] == "The cat sat.\nA dog barked at the mailman all morning.\nHello!"
    )
    assert en["inputs.default_text"] == (
        "The quick brown fox jumps over the lazy dog near the quiet river bank."
    )
    assert (
        en["inputs.default_pairs"].splitlines()[0]
        == "The cat sat on the mat.\tThen it fell asleep."
    )
    assert (
        en["enc.default_own"] == "The bank raised its rates.\nWe fished from the bank of the river."
    )
    assert en["enc.default_word"] == "bank"
    assert en["sim.default_a"] == "A man is playing a guitar."
    assert en["emb.tokens.default_text"] == "The king and the queen walked to the castle."


def test_chinese_pairs_are_pairs():
    """inputs.pairs: one tab per line; the similarity list holds as many sentences as in English."""
    zh, en = CATALOGUE["zh"], CATALOGUE["en"]
    assert all(line.count("\t") == 1 for line in zh["inputs.default_pairs"].splitlines())
    assert len(zh["sim.default_list"].splitlines()) == len(en["sim.default_list"].splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("page", list(BOXES))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_page_opens_on_its_default_texts(page, lang):
    at = app_test(page, state={"lang": lang}, timeout=180)
    assert not at.exception, [e.message for e in at.exception]
    for key in BOXES[page]:
        text = PAGES[page][key].text
        assert widget(at, key).value == CATALOGUE[lang][text], (page, key)
        assert bool(HANZI.search(widget(at, key).value)) == (lang == "zh") or key.startswith("sim")


@pytest.mark.slow
def test_a_link_value_wins_over_the_chinese_default():
    at = open_with("lessons/embed_tokens.py", {"lang": "zh", "emb.tokens.text": "The king."},
                   state={"lang": "zh"})  # fmt: skip
    assert widget(at, "emb.tokens.text").value == "The king."
    at.run()  # and it stays on the next run, in Chinese
    assert widget(at, "emb.tokens.text").value == "The king."


@pytest.mark.slow
def test_an_untouched_default_follows_the_language_and_typed_text_stays():
    at = app_test("lessons/embed_sum.py", state={"lang": "en"}, timeout=180)
    assert widget(at, "emb.sum.a").value == "The cat sat on the mat."
    widget(at, "emb.sum.b").set_value("My own sentence.").run()
    at.session_state["lang"] = "zh"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert widget(at, "emb.sum.a").value == CATALOGUE["zh"]["emb.sum.default_a"]
    assert widget(at, "emb.sum.b").value == "My own sentence."
    at.session_state["lang"] = "en"
    at.run()
    assert widget(at, "emb.sum.a").value == "The cat sat on the mat."


@pytest.mark.slow
def test_the_word_order_view_compares_two_orders():
    at = app_test("lessons/embed_positions.py", state={"lang": "zh"}, timeout=180)
    assert not at.exception, [e.message for e in at.exception]
    values = {m.label: m.value for m in at.metric}
    assert float(values["词元嵌入：|Σ E(A) − Σ E(B)|"]) == 0.0  # the same bag
    assert float(values["加上位置后：某一位置上最大的 |x_A − x_B|"]) > 0.1
    table = at.dataframe[-1].value
    assert table.iloc[:, 2].tolist() == [1, 2, 3] and table.iloc[:, 3].tolist() == [3, 2, 1]
    assert table.iloc[1, 4] == 0.0  # 咬 kept its place: the same input in both
