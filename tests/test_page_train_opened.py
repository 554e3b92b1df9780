"""AppTest of the Train page's "Start from" with a model the session opened (ui.models' REF_KEY):
offered by its reference only while one is open; picked, the plan starts from its folder with its
own tokenizer, family config and pooling, and a short run fine-tunes it in the worker process."""

from __future__ import annotations

import pytest

from tests import opened_models
from tests.conftest import app_test
from tests.models import small, wait_for_end

PAGE = "lessons/train_model.py"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A tiny RoBERTa (CLS pooling) under EXPLORER_MODEL_DIRS."""
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(tmp_path / "models"))
    return opened_models.model_folder("roberta", tmp_path / "models" / "tiny-roberta",
                                      pooling="cls")  # fmt: skip


def test_no_opened_model_no_such_start():
    at = app_test(PAGE, timeout=120)
    assert not at.exception
    assert "opened" not in at.radio(key="train.start_from").options


def _picked(folder, fine: int = 2):
    """The page with `folder` opened, a tiny fine-tuning run set up, and the opened model picked."""
    from explorer_core.ui.models.sources import REF_KEY

    ref = str(folder)
    at = small(app_test(PAGE, timeout=180, state={REF_KEY: ref}), fine=fine, objective="finetune")
    start = at.radio(key="train.start_from")
    assert ref in start.options  # labelled by its reference
    start.set_value("opened").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


def test_the_opened_model_is_the_plans_start(folder):
    at = _picked(folder)
    assert any("The model you opened fine-tunes" in c.value for c in at.caption)
    at.button(key="train.start").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    plan = at.session_state["train.run"].plan
    at.button(key="train.stop").click().run()  # the plan is what this test checks
    assert plan.init == str(folder.resolve()) and plan.pretrain is None
    assert plan.model_config.model_type == "roberta" and plan.pooling == "cls"
    assert plan.tokenizer.file_info.specials["cls"] == plan.tokenizer.token_to_id("<s>")
    assert plan.finetune.learning_rate == 2e-5


@pytest.mark.slow
def test_the_opened_model_fine_tunes_in_the_worker(folder):
    """The whole run (about 20 s here, mostly the worker process starting): the weights come
    from the folder in the worker, and the trained RoBERTa is the session's model."""
    from explorer_core.ui.state import SHARED_MODEL

    at = _picked(folder, fine=1)
    at.button(key="train.start").click().run()
    wait_for_end(at, timeout=120)
    assert not at.exception
    assert at.session_state["train.run"].status().state == "finished", [e.value for e in at.error]
    shared = at.session_state[SHARED_MODEL]
    assert shared.label.startswith(str(folder)) and "1 fine-tuning steps" in shared.label
    assert shared.checkpoint.config.model_type == "roberta"
    assert shared.checkpoint.embed(["a cat"]).shape == (1, shared.checkpoint.config.hidden_size)
    table = next(d.value for d in at.dataframe if "model" in d.value.columns)
    assert "The opened model, fine-tuned" in set(table["model"])
    assert "Trained from scratch" not in set(table["model"])
