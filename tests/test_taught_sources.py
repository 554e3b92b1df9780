"""MiniLM + 中文, taught here, as a model source on Token embeddings, Embedding sum, Attention and
Similarity: how each page says it is not built yet, and the Chinese default once it is.

The pages' own tests (tests/test_page_*.py, `-k taught`) check what each page draws with it."""

from __future__ import annotations

import pytest

from explorer_core.ui.settings import Setting
from tests.conftest import ROOT, app_test
from tests.links import link_text, open_with

SOURCE_KEYS = {  # page -> the setting that picks its model
    "lessons/embed_tokens.py": "emb.tokens.source",
    "lessons/embed_sum.py": "emb.sum.source",
    "lessons/attention.py": "attn.source",
    "lessons/encoder.py": "enc.source",
    "lessons/similarity.py": "sim.model",
}
MINILM = {key: "minilm" if key == "sim.model" else "pretrained" for key in SOURCE_KEYS.values()}
PAGES = sorted(SOURCE_KEYS)


@pytest.mark.parametrize("page", PAGES)
def test_not_built_says_how_to_build_it_in_one_line(page):
    at = app_test(page, state={SOURCE_KEYS[page]: "taught"}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    lines = [info.value for info in at.info if "MiniLM + 中文" in info.value]
    assert len(lines) == 1
    assert "has not been built on this install" in lines[0]
    assert "Teach MiniLM Chinese" in lines[0] and "about 10 minutes" in lines[0]
    assert "python -m explorer_core train multilingual" in lines[0]
    assert any("Open “Train the model”" in md.value for md in at.markdown)  # alone: no navigation
    assert at.session_state[SOURCE_KEYS[page]] == "taught"  # still offered, still chosen
    if page != "lessons/similarity.py":  # Similarity still compares the models it has
        assert not at.get("plotly_chart") and not at.dataframe
    else:
        assert not at.get("plotly_chart")
    assert f"{SOURCE_KEYS[page]}=taught" in link_text(at)  # the link box is still drawn


@pytest.mark.parametrize("page", PAGES)
def test_not_built_line_in_chinese(page):
    at = app_test(page, state={SOURCE_KEYS[page]: "taught", "lang": "zh"}, timeout=120)
    assert not at.exception
    (line,) = [info.value for info in at.info if "MiniLM + 中文" in info.value]
    assert "本机还没有构建" in line and "python -m explorer_core train multilingual" in line


def test_not_built_links_to_the_train_page_inside_the_app():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("lessons/attention.py").run()
    at.session_state["attn.source"] = "taught"
    at.run()
    assert not at.exception
    links = [(link.proto.page, link.proto.query_string) for link in at.get("page_link")]
    assert ("train-model", "train.kind=chinese") in links, links  # on "Teach MiniLM Chinese"


def shown_text(at) -> str:  # noqa: ANN001
    """Every table, text and chart (its plotly JSON: the tokens on its axes) the page drew."""
    parts = [d.value.to_string() for d in at.dataframe]
    parts += [e.value for kind in ("markdown", "caption", "text") for e in at.get(kind)]
    parts += [chart.proto.spec for chart in at.get("plotly_chart")]
    return "\n".join(parts)


@pytest.mark.parametrize("page", PAGES)
def test_chinese_default_is_the_taught_model_once_built(page, taught):
    key = SOURCE_KEYS[page]
    at = app_test(page, state={"lang": "zh"}, timeout=120)
    assert not at.exception
    assert at.session_state[key] == "taught"
    assert not [info.value for info in at.info if "MiniLM + 中文" in info.value]  # it is built
    shown = shown_text(at)
    assert "[UNK]" not in shown  # the Chinese default text, read by a model that knows it
    assert any("\u4e00" <= ch <= "\u9fff" for ch in shown)  # and it is Chinese
    english = app_test(page, timeout=120)
    assert english.session_state[key] == MINILM[key]


@pytest.mark.parametrize("page", PAGES)
def test_chinese_default_is_minilm_when_not_built(page):
    key = SOURCE_KEYS[page]
    at = app_test(page, state={"lang": "zh"}, timeout=120)
    assert not at.exception
    assert at.session_state[key] == MINILM[key]


@pytest.mark.parametrize("page", PAGES)
def test_a_chosen_model_wins_over_the_chinese_default(page, taught):
    key = SOURCE_KEYS[page]
    linked = open_with(page, {key: MINILM[key], "lang": "zh"}, state={"lang": "zh"})
    assert linked.session_state[key] == MINILM[key]  # a link's choice
    at = app_test(page, state={"lang": "zh", key: MINILM[key]}, timeout=120)
    assert at.session_state[key] == MINILM[key]  # the session's choice


def test_a_chinese_default_must_be_one_of_the_choices():
    with pytest.raises(ValueError, match="not one of its choices"):
        Setting("x.source", "pretrained", choices=("fresh", "pretrained"), zh="taught")
