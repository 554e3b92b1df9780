"""AppTest of the BERT inputs page: masking simulator, counters, NSP pairs, the tutorial view."""

from __future__ import annotations

import pytest

from tests.charts import figures, plot_array
from tests.conftest import app_test

PAGE = "lessons/bert_inputs.py"


@pytest.fixture(scope="module")
def page():
    at = app_test(PAGE)
    assert not at.exception
    return at


def test_mlm_strip_table_and_specials(page):
    strip = figures(page)[0]["data"][0]
    kinds = plot_array(strip["z"])[0]
    table = page.dataframe[0].value
    assert len(kinds) == len(table) >= 15
    assert kinds[0] == 4 and kinds[-1] == 4  # [CLS] and [SEP]: special, never chosen
    assert table.iloc[0, 1] == "[CLS]" and table.iloc[-1, 1] == "[SEP]"
    labels = table.iloc[:, 4].tolist()
    chosen = [k in (1, 2, 3) for k in kinds]
    assert all((label != -100) == c for label, c in zip(labels, chosen, strict=True))
    assert strip["colorbar"]["ticktext"][4].startswith("special")


def test_reroll_changes_the_seed_and_the_same_seed_gives_the_same_draw(page):
    page.session_state["inputs.seed"] = 5
    page.run()
    first = page.dataframe[0].value.copy()
    page.button[0].click().run()
    assert page.session_state["inputs.seed"] == 6
    page.session_state["inputs.seed"] = 5
    page.run()
    assert page.dataframe[0].value.equals(first)


def test_counters_converge_to_12_and_1_5_percent(page):
    page.session_state["inputs.draws"] = 5000
    page.run()
    shares = figures(page)[1]
    lines = [plot_array(trace["y"]) for trace in shares["data"]]
    assert len(lines) == 3 and len(lines[0]) == 5000
    assert lines[0][-1] == pytest.approx(12.0, abs=0.6)
    assert lines[1][-1] == pytest.approx(1.5, abs=0.25)
    assert lines[2][-1] == pytest.approx(1.5, abs=0.25)
    assert [m.value for m in page.metric][-3].endswith("%")


def test_nsp_pairs_layout_and_tutorial_view(page):
    page.session_state["inputs.nsp_source"] = "en"
    page.session_state["inputs.max_len"] = 24
    page.run()
    pairs, layout, tutorial = (
        page.dataframe[1].value,
        page.dataframe[2].value,
        page.dataframe[3].value,
    )
    assert pairs.shape == (12, 3)
    assert "50%" in " ".join(c.value for c in page.caption)
    assert layout.shape == (6, 24)
    assert layout.loc["tokens"].iloc[0] == "[CLS]"
    types = [int(v) for v in layout.loc["token_type_ids"]]
    mask = [int(v) for v in layout.loc["attention_mask"]]
    assert types[0] == 0 and 1 in types and mask[0] == 1
    assert tutorial.loc["tokens"].iloc[0] == "<sos>"
    assert set(tutorial.loc["segment_label"]) <= {"0", "1", "2"}
    assert page.table[0].value.shape[0] == 7  # the conventions side by side


def test_chinese_corpus_and_own_pairs_with_a_missing_tab():
    at = app_test(PAGE, state={"inputs.nsp_source": "zh", "lang": "zh"})
    assert not at.exception and not at.error
    at = app_test(PAGE, state={"inputs.nsp_source": "own", "lang": "zh"})
    assert not at.exception and not at.error
    at.text_area("inputs.pairs").input("A one.\tB one.\nno tab in this line").run()
    assert not at.exception
    assert "2" in at.error[0].value and "制表符" in at.error[0].value
    assert at.text_area("inputs.pairs").value.endswith("no tab in this line")


def test_empty_and_too_long_sentences():
    at = app_test(PAGE, state={"inputs.text": ""})
    assert not at.exception and "empty" in at.warning[0].value
    at.text_input("inputs.text").input("word " * 520).run()
    assert not at.exception and "at most 512" in at.error[0].value


# ---- predict, then reveal ------------------------------------------------------------------


def answer_widgets(at) -> list:
    return [w for w in at.get("button_group") if w.key.startswith("inputs.answer.")]


def test_predict_the_masking_hides_the_draw_then_grades_each_token():
    """Seed 0 on the default sentence: the page shows which tokens were selected, not their fate;
    the strip, the counters and the draw table stay hidden until Reveal. Guessing [MASK]
    everywhere scores exactly the draw's number of [MASK] among the asked tokens."""
    at = app_test(PAGE, state={"inputs.predict": True, "inputs.seed": 0})
    assert not at.exception
    assert not at.get("plotly_chart") and not at.metric  # strip, counters, shares: hidden
    widgets = answer_widgets(at)
    assert widgets
    positions = [int(w.label.split(":")[0].removeprefix("Position ")) for w in widgets]
    for widget in widgets:
        widget.set_value("mask")
    at.run()
    at.button(key="inputs.reveal").click().run()
    assert not at.exception
    strip = figures(at)[0]["data"][0]
    kinds = plot_array(strip["z"])[0]  # the real draw, now shown
    asked = [kinds[p] for p in positions]
    assert asked and all(k in (1, 2, 3) for k in asked)
    assert sorted(positions) == [i for i, k in enumerate(kinds) if k in (1, 2, 3)][: len(asked)]
    right = asked.count(1)
    assert at.session_state["quiz.score"]["inputs"] == (right, len(asked))
    verdict = at.dataframe[0].value  # position, token, your guess, what happened, right?
    assert verdict.iloc[:, 0].tolist() == positions
    assert verdict.iloc[:, 4].tolist().count("✓") == right
    text = " ".join(m.value for m in at.markdown)
    assert f"would have scored {right} of {len(asked)}" in text and "80%" in text
    at.run()  # a second run does not grade again
    assert at.session_state["quiz.score"]["inputs"] == (right, len(asked))
    at.session_state["inputs.seed"] = 1  # a new draw, a new question, the draw hidden again
    at.run()
    assert not at.get("plotly_chart") and answer_widgets(at)


def test_predict_the_masking_in_chinese():
    # the sentence as the learner's own: an untouched default would follow the switch to Chinese
    # (settings.follow_language) and the answers would belong to another sentence
    english = "The quick brown fox jumps over the lazy dog near the quiet river bank."
    at = app_test(PAGE, state={"inputs.predict": True, "inputs.seed": 0, "inputs.text": english})
    for widget in answer_widgets(at):
        widget.set_value("keep")
    at.run()
    at.session_state["lang"] = "zh"  # the last run: AppTest formats options in English
    at.button(key="inputs.reveal").click().run()
    assert not at.exception
    assert any(s.value == "预测掩码（mask）" for s in at.subheader)
    text = " ".join(m.value for m in at.markdown)
    assert "如果每次都猜 [MASK]" in text and "本次会话得分" in text
    assert "保持原样" in at.dataframe[0].value.iloc[:, 2].tolist()


def test_a_draw_without_selected_tokens_asks_nothing():
    """One short word: with this seed nothing is selected, so there is nothing to predict."""
    seed = next(s for s in range(200) if not selected("Hi", s))
    at = app_test(PAGE, state={"inputs.predict": True, "inputs.text": "Hi", "inputs.seed": seed})
    assert not at.exception
    assert "nothing to predict" in at.info[0].value
    assert figures(at)  # the draw is shown right away


def selected(text: str, seed: int) -> bool:
    from explorer_core.ui.attention.calls import minilm_tokenizer, mlm_draw

    return any(k in (1, 2, 3) for k in mlm_draw(minilm_tokenizer(), text, seed).kinds)


def test_downloads_are_offered(page):
    page.session_state["inputs.predict"] = False
    page.run()
    assert len(page.get("download_button")) == 3  # the draw, the shares, the NSP pairs
