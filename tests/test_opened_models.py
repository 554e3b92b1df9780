"""A model the user brings, opened end to end: every family's tiny model with a real tokenizer of
its family, from a folder and from a hand-made Hugging Face cache, gives the sentence vectors
sentence-transformers gives, and our encoder's hidden states are transformers' own."""

from __future__ import annotations

import pytest
import torch

from explorer_core.bert.families import FAMILIES
from explorer_core.models.opened import embed, encode_rows, open_model
from explorer_core.models.settings import ModelRefused
from tests import opened_models

SENTENCES = [
    "A man is playing a guitar.",
    "今天天气很好 😀 café",
    "x " * 40,
    "  tabs\tand\nlines  ",
]
# CLS pooling for some families, mean for the others: both of sentence-transformers' common modes
POOLING = {"roberta": "cls", "albert": "cls", "modernbert": "cls"}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("brought")
    return {
        family: opened_models.model_folder(
            family, root / family, pooling=POOLING.get(family, "mean")
        )
        for family in FAMILIES
    }


@pytest.fixture(autouse=True)
def allowed(folders, monkeypatch):
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(next(iter(folders.values())).parent))


@pytest.mark.parametrize("family", FAMILIES)
def test_sentence_vectors_equal_sentence_transformers(folders, family):
    from sentence_transformers import SentenceTransformer

    opened = open_model(str(folders[family]))
    assert opened.family == family
    assert opened.pipeline.pooling_mode == POOLING.get(family, "mean")
    ours = embed(opened, SENTENCES)
    theirs = SentenceTransformer(str(folders[family]), device="cpu").encode(
        SENTENCES, convert_to_tensor=True
    )
    assert ours.shape == theirs.shape
    torch.testing.assert_close(ours, theirs, atol=1e-5, rtol=0)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_rows_and_hidden_states_are_transformers_own(folders, family):
    from transformers import AutoModel, AutoTokenizer

    opened = open_model(str(folders[family]))
    ids, mask = encode_rows(opened, SENTENCES[:2])
    reference = AutoTokenizer.from_pretrained(folders[family])(
        SENTENCES[:2], padding=True, return_tensors="pt"
    )
    assert ids.tolist() == reference["input_ids"].tolist()
    model = AutoModel.from_pretrained(folders[family], attn_implementation="eager").eval()
    with torch.no_grad():
        theirs = model(input_ids=ids, attention_mask=mask).last_hidden_state
        ours = opened.model(ids, mask).last_hidden_state
    torch.testing.assert_close(ours, theirs, atol=1e-5, rtol=0)


def test_a_hub_name_opens_from_the_cache(tmp_path, monkeypatch):
    cache = tmp_path / "hub"
    opened_models.cache_entry(cache, "someone/tiny-roberta", "roberta", pooling="cls")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    opened = open_model("someone/tiny-roberta")
    assert (opened.label, opened.family) == ("someone/tiny-roberta", "roberta")
    assert opened.located.commit == opened_models.COMMIT
    assert embed(opened, ["hello"]).shape == (1, opened.model.config.hidden_size)


def test_refusals_are_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    for ref in ("nobody/missing-model", str(tmp_path / ".." / "elsewhere"), "/etc"):
        with pytest.raises(ModelRefused) as err:
            open_model(ref)
        assert "\n" not in str(err.value) and str(err.value)


def test_empty_text_is_refused(folders):
    with pytest.raises(ValueError, match="some text"):
        embed(open_model(str(folders["bert"])), ["fine", "  "])
