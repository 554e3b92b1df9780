"""AppTest of the guided lesson with a model the user opened (issue #35): a tiny RoBERTa and a
tiny ModernBERT (each with a real tokenizer of its family) walk every step in both languages;
the token row is the model's own template, no text names MiniLM, and the pooled vector is the
model's own sentence vector (`models.opened.embed`)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import numpy as np
import pytest

from explorer_core.analysis.lesson import STEPS
from tests import opened_models
from tests.charts import plot_array
from tests.conftest import app_test
from tests.links import link_text, open_with
from tests.translation import untranslated

pytestmark = pytest.mark.slow

PAGE = "lessons/lesson.py"
FAMILIES = ("roberta", "modernbert")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("allowed")
    return {
        "roberta": opened_models.model_folder("roberta", root / "roberta"),
        "modernbert": opened_models.model_folder("modernbert", root / "modernbert", pooling="cls"),
    }


@pytest.fixture(autouse=True)
def allowed(folders, monkeypatch):
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(folders["roberta"].parent))


def lesson(ref: str, step: int = 1, lang: str = "en", **state):  # noqa: ANN201 - an AppTest
    state = {"model": ref, "lesson.model": "opened", "lesson.step": step, "lang": lang, **state}
    at = app_test(PAGE, timeout=120, state=state)
    assert not at.exception, [e.message for e in at.exception]
    return at


def texts(at) -> list[str]:  # noqa: ANN001
    """Every text the screen shows: markdown, captions, titles, messages, metric labels."""
    shown = [e.value for e in (*at.markdown, *at.caption, *at.title, *at.info, *at.warning,
                               *at.error)]  # fmt: skip
    return shown + [m.label for m in at.metric]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("family", FAMILIES)
def test_every_step_runs_with_an_opened_model(folders, family, lang):
    for step in range(1, len(STEPS) + 1):
        at = lesson(str(folders[family]), step, lang)
        assert not at.error and not at.warning, (step, [e.value for e in (*at.error, *at.warning)])
        assert at.get("plotly_chart") or at.dataframe, STEPS[step - 1]
        shown = texts(at)
        assert not [s for s in shown if "MiniLM" in s], (step, [s for s in shown if "MiniLM" in s])
        if lang == "zh":
            assert not untranslated(at), (step, untranslated(at))
        if STEPS[step - 1] == "attention":  # the clicked cell's arithmetic, in this model
            assert any("q·k" in m.value for m in at.markdown)
        if step >= STEPS.index("tokens") + 1:  # the screens with a source line: it names the model
            assert any(family in c.value for c in at.caption), step


def test_the_tokens_screen_shows_the_models_template(folders):
    from explorer_core.models.opened import open_model

    at = lesson(str(folders["roberta"]), 3)
    table = at.dataframe[0].value
    tokens = list(table.iloc[:, 1])
    assert tokens[0] == "<s>" and tokens[-1] == "</s>"
    assert any(token.startswith("Ġ") for token in tokens)  # byte-level BPE's pieces
    opened = open_model(str(folders["roberta"]))
    ids, _ = opened.tokenizer.encode_with_specials(at.session_state["lesson.text"], limits=False)
    assert [opened.tokenizer.id_to_token(i) for i in ids] == tokens
    kinds = list(table.iloc[:, 3])
    assert kinds[0] == kinds[-1] == "special"
    for token, kind in zip(tokens[1:-1], kinds[1:-1], strict=True):
        assert kind == ("starts a word" if token.startswith("Ġ") or token == tokens[1]
                        or token == "." else "continues a word"), (token, kind)  # fmt: skip
    at = lesson(str(folders["modernbert"]), 4)
    tokens = list(at.dataframe[0].value.iloc[:, 1])
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"


@pytest.mark.parametrize("family", FAMILIES)
def test_the_pooled_vector_is_the_models_own(folders, family):
    from explorer_core.models.opened import embed, open_model

    at = lesson(str(folders[family]), STEPS.index("pooled") + 1)
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    z = np.array(plot_array(figure["data"][0]["z"]), dtype=float)
    opened = open_model(str(folders[family]))
    expected = embed(opened, [at.session_state["lesson.text"]])[0].numpy()
    np.testing.assert_allclose(z[-1], expected[: z.shape[1]], atol=1e-5)
    assert opened.pipeline.pooling_mode in " ".join(c.value for c in at.caption)


def test_minilm_stays_the_default_and_a_choice(folders):
    at = app_test(PAGE, timeout=120, state={"model": str(folders["roberta"]), "lesson.step": 3})
    assert not at.exception
    assert list(at.dataframe[0].value.iloc[:, 1])[0] == "[CLS]"  # MiniLM's row
    assert any("MiniLM" in c.value for c in at.caption)
    choice = at.segmented_control(key="lesson.model")
    choice.set_value("opened").run()
    assert list(at.dataframe[0].value.iloc[:, 1])[0] == "<s>"


def test_a_refused_model_is_one_line(tmp_path):
    at = lesson(str(tmp_path / "nowhere"), 3)
    assert len(at.warning) == 1 and "cannot be opened" in at.warning[0].value


def test_without_an_opened_model_no_choice_is_offered():
    at = app_test(PAGE, timeout=120, state={"lesson.step": 3})
    assert not at.exception
    assert not [w for w in at.get("button_group") if w.key == "lesson.model"]


def test_a_link_reopens_the_lesson_on_the_opened_model(folders):
    ref = str(folders["roberta"])
    at = open_with(PAGE, {"model": ref, "lesson.model": "opened", "lesson.step": "3"})
    assert not at.exception, [e.message for e in at.exception]
    assert list(at.dataframe[0].value.iloc[:, 1])[0] == "<s>"
    assert "lesson.model=opened" in link_text(at)
    assert "&" + urlencode({"model": ref}) in link_text(at)
    params = {"model": ref, "lesson.model": "opened"}
    at = open_with(PAGE, params, {"lang": "zh"})  # in Chinese: no MiniLM + 中文 notice, at once
    assert not at.exception and not [s for s in texts(at) if "MiniLM" in s]
