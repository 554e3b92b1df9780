"""MiniLM + 中文, taught here, as a model source on Token embeddings, Embedding sum, Attention and
Similarity: how each page says it is not built yet.

The pages' own tests (tests/test_page_*.py, `-k taught`) check what each page draws with it."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, app_test
from tests.links import link_text

SOURCE_KEYS = {  # page -> the setting that picks its model
    "lessons/embed_tokens.py": "emb.tokens.source",
    "lessons/embed_sum.py": "emb.sum.source",
    "lessons/attention.py": "attn.source",
    "lessons/similarity.py": "sim.model",
}
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
