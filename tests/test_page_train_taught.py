"""The Train page fine-tunes MiniLM + 中文 in place: "Start from" offers it once it is built (the
small taught model of tests/taught.py), a run from it fills the comparison's two rows, and a link
that asks for it on an install without it starts fresh with a message."""

from __future__ import annotations

import pytest

from tests.conftest import app_test
from tests.links import link_text, open_with
from tests.models import small, wait_for_end

PAGE = "lessons/train_model.py"
LABEL = "MiniLM + 中文, taught here"


@pytest.fixture
def no_taught(tmp_path, monkeypatch):
    """An install on which MiniLM + 中文 has not been built (an empty cache folder)."""
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / "cache"))


def comparison(at):
    table = next(d.value for d in at.dataframe if "model" in d.value.columns)
    return table.set_index("model")


def test_start_is_offered_only_once_the_taught_model_is_built(no_taught):
    at = app_test(PAGE, timeout=120)
    assert not at.exception
    assert list(at.radio(key="train.start_from").options) == [
        "A fresh model (random weights)", "The model of this session",
        "Pretrained MiniLM (all-MiniLM-L6-v2)",
    ]  # fmt: skip


def test_fine_tuning_the_taught_model_fills_its_comparison_rows(taught):
    from explorer_core.training.base_models import TAUGHT_LABEL
    from explorer_core.ui.state import SHARED_MODEL

    at = small(app_test(PAGE, timeout=180), fine=2, objective="finetune")
    start = at.radio(key="train.start_from")
    assert LABEL in start.options
    start.set_value("taught").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("MiniLM + 中文 keeps MiniLM's English" in c.value for c in at.caption)
    assert at.query_params["train.start_from"] == "taught"
    assert "train.start_from=taught" in link_text(at)
    at.button(key="train.start").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    wait_for_end(at, timeout=300)
    assert not at.exception, at.exception
    assert at.session_state["train.run"].status().state == "finished", [e.value for e in at.error]
    shared = at.session_state[SHARED_MODEL]
    assert shared.label.startswith(TAUGHT_LABEL) and "2 fine-tuning steps" in shared.label
    assert shared.checkpoint.config.vocab_size > 30522  # the extended vocabulary, kept
    table = comparison(at)
    assert {"MiniLM + 中文 as is", "MiniLM + 中文 fine-tuned"} <= set(table.index)
    assert "MiniLM fine-tuned" not in table.index and "Trained from scratch" not in table.index
    order = list(table.index)
    assert (
        order.index("MiniLM as is")
        < order.index("MiniLM + 中文 as is")
        < order.index("MiniLM + 中文 fine-tuned")
    )
    for row in ("MiniLM + 中文 as is", "MiniLM + 中文 fine-tuned"):
        assert table.loc[row, ["English", "Chinese"]].between(-1, 1).all()
    assert table.loc["MiniLM + 中文 as is", "[UNK] Chinese"] == "0.0%"  # it reads Chinese


def test_chinese_page_offers_it_by_its_chinese_name_and_keeps_the_fresh_default(taught):
    at = app_test(PAGE, state={"lang": "zh"}, timeout=120)
    assert not at.exception
    start = at.radio(key="train.start_from")
    assert "MiniLM + 中文（本机教会）" in start.options
    assert start.value == "fresh"  # the page's lesson starts from scratch in every language


def test_link_to_the_taught_start_without_the_model_starts_fresh_with_a_message(no_taught):
    at = open_with(PAGE, {"train.start_from": "taught"})
    assert not at.exception
    assert at.radio(key="train.start_from").value == "fresh"
    assert any("has not been built on this install" in i.value for i in at.info)
    assert not at.error
    at.run()
    assert not at.exception and at.query_params["train.start_from"] == "fresh"
    assert not any("has not been built on this install" in i.value for i in at.info)
