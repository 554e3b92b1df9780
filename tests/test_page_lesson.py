"""AppTest of the guided lesson: both languages, Previous / Next, links, every step, real data."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from explorer_core.analysis.lesson import STEPS
from tests.charts import chart_array, figures
from tests.conftest import app_test
from tests.links import link_text, open_with
from tests.translation import untranslated

PAGE = "lessons/lesson.py"


def buttons(at):  # noqa: ANN001, ANN201 - an AppTest; (Previous, Next)
    return at.button(key="lesson.prev"), at.button(key="lesson.next")


@pytest.mark.parametrize(("lang", "title"), [("en", "Step 1 of 12: Text"), ("zh", "第 1 步")])
def test_runs_in_both_languages(lang, title):
    at = app_test(PAGE, state={"lang": lang}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value.startswith(title)
    default = {"en": "The cat sat on the doormat.", "zh": "猫坐在垫子上。"}[lang]
    assert at.text_input(key="lesson.text").value == default


def test_next_and_previous_move_and_stop_at_the_ends():
    at = app_test(PAGE, timeout=120)
    back, forward = buttons(at)
    assert back.disabled and not forward.disabled
    for expected in range(2, len(STEPS) + 1):
        buttons(at)[1].click().run()
        assert not at.exception, [e.message for e in at.exception]
        assert at.session_state["lesson.step"] == expected
        assert at.title[0].value.startswith(f"Step {expected} of 12")
    back, forward = buttons(at)
    assert forward.disabled and not back.disabled
    buttons(at)[0].click().run()
    assert at.session_state["lesson.step"] == len(STEPS) - 1
    assert at.title[0].value == "Step 11 of 12: Cosine"


def test_a_link_opens_on_its_step_and_sentence():
    params = {"lesson.step": "7", "lesson.text": "A dog barked.", "lesson.head": "5"}
    at = open_with(PAGE, params)
    assert at.session_state["lesson.step"] == 7
    assert at.title[0].value == "Step 7 of 12: + Position"
    assert at.text_input(key="lesson.text").value == "A dog barked."
    at.button(key="lesson.prev").click().run()
    assert at.session_state["lesson.step"] == 6
    for key in ("lesson.step", "lesson.text", "lesson.other", "lesson.third"):
        found = [w for w in (*at.text_input, *at.get("button_group")) if w.key == key]
        assert found and found[0].proto.query_param_key == key, key
    at.session_state["lesson.step"] = 8
    at.run()
    assert at.selectbox(key="lesson.head").value == 5
    assert "lesson.step=8" in link_text(at) and "A+dog+barked." in link_text(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", range(1, len(STEPS) + 1))
def test_every_step_shows_a_chart_or_table_and_a_caption(step, lang):
    at = app_test(PAGE, state={"lesson.step": step, "lang": lang}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert at.get("plotly_chart") or at.dataframe, STEPS[step - 1]
    assert at.caption and at.caption[-1].value.strip()
    assert not at.warning and not at.error
    if lang == "zh":
        assert not untranslated(at), untranslated(at)
    if STEPS[step - 1] in ("vector", "position", "attention", "layer", "pooled", "cosine"):
        assert at.get("download_button"), "the numbers of a model step download as a file"


def test_step_numbers_are_real_minilm():
    at = app_test(PAGE, state={"lesson.step": 4}, timeout=120)
    ids = at.dataframe[0].value.iloc[:, 2].tolist()
    assert ids == [101, 1996, 4937, 2938, 2006, 1996, 2341, 18900, 1012, 102]
    at.session_state["lesson.step"] = 5
    at.run()
    assert at.metric[0].value == "0"  # max |one-hot × E − E[id]|
    spike = figures(at)[0]["data"][1]
    assert spike["x"] == [4937]  # "cat", the token at position 2
    at.session_state["lesson.step"] = 8
    at.run()
    weights = chart_array(figures(at)[0]["data"][0]["z"]).astype(float)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, atol=1e-5)
    assert weights[2].argmax() == 1  # layer 1, head 3 reads the previous token: cat -> the


def test_cosine_on_step_11_matches_transformers(minilm_dir):
    from transformers import AutoModel, AutoTokenizer

    at = app_test(PAGE, state={"lesson.step": 11}, timeout=120)
    assert not at.exception
    shown = float(at.metric[0].value)
    tokenizer = AutoTokenizer.from_pretrained(minilm_dir)
    model = AutoModel.from_pretrained(minilm_dir).eval()
    batch = tokenizer(["The cat sat on the doormat.", "A cat is sleeping on a rug."],
                      padding=True, return_tensors="pt")  # fmt: skip
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    pooled = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)
    expected = float(pooled[0] @ pooled[1])
    assert shown == pytest.approx(expected, abs=5e-4)
    bars = figures(at)[0]["data"][0]["y"]
    assert bars[0] == pytest.approx(1.0) and bars[1] == pytest.approx(expected, abs=1e-5)
    assert len(at.get("latex")) == 1 and f"{expected:.3f}" in at.get("latex")[0].proto.body


def test_chinese_shows_unknown_tokens_honestly():
    at = app_test(PAGE, state={"lang": "zh", "lesson.step": 3}, timeout=120)
    notes = [i.value for i in at.info if "MiniLM + 中文" not in i.value]  # not the build notice
    assert "[UNK]" in notes[0] and "4" in notes[0]
    at.session_state["lesson.step"] = 11
    at.run()
    assert any("[UNK]" in i.value for i in at.info if "MiniLM + 中文" not in i.value)


def test_empty_and_too_long_sentences_get_messages():
    at = app_test(PAGE, state={"lesson.text": "   ", "lesson.step": 3}, timeout=120)
    assert not at.exception
    assert "empty" in at.warning[0].value
    long = "word " * 600
    at = app_test(PAGE, state={"lesson.text": long, "lesson.step": 8}, timeout=120)
    assert not at.exception
    assert "602 tokens" in at.error[0].value and "512 positions" in at.error[0].value
    at.session_state["lesson.step"] = 2
    at.run()
    assert not at.exception and at.dataframe and "512" in at.warning[0].value
    at = app_test(PAGE, state={"lesson.other": "", "lesson.step": 11}, timeout=120)
    assert not at.exception and at.warning


def test_sentence_follows_the_language_until_edited():
    at = app_test(PAGE, timeout=120)
    at.session_state["lang"] = "zh"
    at.run()
    assert at.text_input(key="lesson.text").value == "猫坐在垫子上。"
    at.text_input(key="lesson.text").set_value("我的书").run()
    at.session_state["lang"] = "en"
    at.run()
    assert at.text_input(key="lesson.text").value == "我的书"  # the user's own sentence stays


def test_go_deeper_links_inside_the_app():
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page(PAGE).run()
    at.session_state["lesson.step"] = 8
    at.run()
    assert not at.exception
    pages = [link.proto.page for link in at.get("page_link")]
    assert any(page.endswith("attention") for page in pages), pages


@pytest.mark.parametrize("text", ["a", "😀", "\u200b", "e\u0301 naïve", "Hello\tworld 你好"])
def test_awkward_sentences_run_through_every_step(text):
    at = app_test(PAGE, state={"lesson.text": text}, timeout=120)
    for step in range(1, len(STEPS) + 1):
        at.session_state["lesson.step"] = step
        at.run()
        assert not at.exception, (step, [e.message for e in at.exception])
        assert at.caption, step


def test_the_first_four_screens_need_no_torch(root):
    """Right after a server starts, its warm-up imports torch for 1-2 s; the lesson's text, bytes,
    tokens and ids screens are drawn without waiting for it (ui/lesson/screens.py)."""
    code = (
        "import os, sys\n"
        "os.environ['EXPLORER_WARMUP'] = '0'\n"
        "from streamlit.testing.v1 import AppTest\n"
        "for step in (1, 2, 3, 4):\n"
        "    at = AppTest.from_file('lessons/lesson.py', default_timeout=60)\n"
        "    at.session_state['lesson.step'] = step\n"
        "    at.run()\n"
        "    assert not at.exception, at.exception\n"
        "    assert at.dataframe, step\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
        "print(at.title[0].value)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)})  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    assert "Step 4 of 12" in done.stdout
