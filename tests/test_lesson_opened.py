"""The guided lesson's token row with a tokenizer file's own template (`analysis.lesson_opened`):
the ids are `tokenizers`' own, the strings the vocabulary's, and each piece's kind follows its
tokenizer's marks (WordPiece ##, byte-level BPE Ġ, Unigram ▁)."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer as HFTokenizer

from explorer_core.analysis.lesson_opened import piece_kind, template_tokens
from explorer_core.tokenization.hf_file import load_tokenizer_file
from tests.hf_files import build

TEXT = "The cat sat on the doormat. 猫坐在垫子上。"
FILES = ("roberta", "modernbert", "xlmr_precompiled", "bert_uncased")


@pytest.fixture(scope="module", params=FILES)
def files(request, tmp_path_factory):
    path = build(request.param, tmp_path_factory.mktemp(request.param))
    return request.param, load_tokenizer_file(path), HFTokenizer.from_file(str(path))


def test_the_row_is_the_tokenizers_own_template(files):
    _, ours, theirs = files
    row = template_tokens(ours, TEXT)
    encoding = theirs.encode(TEXT)
    assert list(row.ids) == encoding.ids
    unknown = [k for k, kind in enumerate(row.kinds) if kind == "unknown"]
    # subtle: tokenizers' Unigram names an unknown piece by the text it covers ("猫"); the lesson
    # shows the vocabulary's string (<unk>), the row the model reads
    assert [tok for k, tok in enumerate(row.tokens) if k not in unknown] == [
        tok for k, tok in enumerate(encoding.tokens) if k not in unknown
    ]
    assert all(row.tokens[k] == ours.id_to_token(row.ids[k]) for k in unknown)
    assert row.kinds[0] == row.kinds[-1] == "special" and row.covers[0] == row.covers[-1] == ""
    assert len({len(row.tokens), len(row.ids), len(row.covers), len(row.kinds)}) == 1


def test_kinds_follow_each_tokenizers_marks(files):
    name, ours, _ = files
    row = template_tokens(ours, TEXT)
    content = [(tok, kind) for tok, kind in zip(row.tokens, row.kinds, strict=True)
               if kind in ("word", "piece")]  # fmt: skip
    marked = {"roberta": "Ġ", "modernbert": "Ġ", "xlmr_precompiled": "▁"}.get(name)
    for token, kind in content:
        if marked is None:  # WordPiece: ## continues a word, anything else starts one
            assert kind == ("piece" if token.startswith("##") else "word"), token
        elif token.startswith(marked):
            assert kind == "word", token
    assert content[0][1] == "word"  # "The": the text's first word, marked or not
    assert "piece" in {kind for _, kind in content}  # doormat is cut: a piece continues it


def test_a_piece_kind_by_hand():
    """'Ġdoor' starts a word (its Ġ stands for the space before it); 'mat' continues it; '##mat'
    continues a WordPiece word; '▁猫' starts a Unigram word; '.' starts a word when the
    pre-tokenizer began one there."""
    assert piece_kind("Ġdoor", "byte-bpe", False) == "word"
    assert piece_kind("mat", "byte-bpe", False) == "piece"
    assert piece_kind(".", "byte-bpe", True) == "word"
    assert piece_kind("##mat", "wordpiece", False) == "piece"
    assert piece_kind("▁猫", "unigram", False) == "word"
    assert piece_kind("子", "unigram", False) == "piece"


@pytest.mark.parametrize("case", ["cls-raw", "prompt-left-out"])
def test_the_run_is_pooled_as_the_models_own_embed(case, tmp_path, monkeypatch):
    """The lesson's sentence vector is `embed`'s, also where the pipeline does not normalise
    (`mean` is then the vector itself) and where a default prompt is read but left out of the
    pooling (its tokens lead the row)."""
    import json

    import numpy as np

    from explorer_core.analysis.lesson_opened import model_text, run_opened
    from explorer_core.models.opened import embed, open_model
    from tests import opened_models

    cls = case == "cls-raw"
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(tmp_path))
    folder = opened_models.model_folder("roberta", tmp_path / "m", pooling=None)
    opened_models.sentence_files(folder, pooling="cls" if cls else "mean", normalize=not cls)
    if not cls:
        pooling = folder / "1_Pooling" / "config.json"
        pooling.write_text(json.dumps({**json.loads(pooling.read_text("utf-8")),
                                       "include_prompt": False}), encoding="utf-8")  # fmt: skip
        (folder / "config_sentence_transformers.json").write_text(
            json.dumps({"prompts": {"query": "query: "}, "default_prompt_name": "query"}),
            encoding="utf-8",
        )
    opened = open_model(str(folder))
    text = "A cat sat."
    row = template_tokens(opened.tokenizer, model_text(opened, text))
    run = run_opened(opened, row.ids)
    np.testing.assert_allclose(run.vector, embed(opened, [text])[0].numpy(), atol=1e-6)
    if cls:
        np.testing.assert_allclose(run.mean, run.vector)
    else:
        assert "".join(row.covers).startswith("query:")  # the prompt the model reads comes first
        assert abs(np.linalg.norm(run.vector) - 1) < 1e-6
