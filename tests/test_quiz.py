"""Predict, then reveal (explorer_core.analysis.quiz): questions from known data, grading, the
score; and the files the three pages hand out (explorer_core.files.tables), parsed back."""

from __future__ import annotations

import doctest
import io
import json
import zipfile

import numpy as np
import pandas as pd
import pytest
import torch

from explorer_core.analysis import quiz
from explorer_core.bert.config import BertConfig
from explorer_core.bert.model import BertModel
from explorer_core.files import export, tables
from explorer_core.inputs.masking import mask_tokens
from explorer_core.tokenization import load_tokenizer, new_tokenizer
from explorer_core.viz import tokenizer as viz


def candidate_rows(tokenizer, k: int) -> list[tuple[str, str, int]]:
    return [
        (viz.piece(tokenizer, c.left), viz.piece(tokenizer, c.right), c.count)
        for c in tokenizer.candidates(k)
    ]


def test_doctests():
    """The worked examples in the docstrings hold."""
    assert doctest.testmod(quiz).failed == 0
    assert doctest.testmod(tables).failed == 0


def tiny_model(seed: int) -> BertModel:
    """The house's odd-sized test config: vocab 99, hidden 32, 2 layers, 4 heads."""
    config = BertConfig(vocab_size=99, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=37)  # fmt: skip
    return BertModel(config, seed=seed).eval()


# ---- which pair merges next? ---------------------------------------------------------------


def test_merge_question_from_hand_counted_pairs_with_a_tie():
    """'ab ab ab ac' pre-tokenizes to "ab" once, " ab" twice, " ac" once. Before merge 1:
    (a, b) occurs 1 + 2 = 3 times, (space, a) 2 + 1 = 3 times, (a, c) once. A tie at 3: Hugging
    Face numbers bytes by their GPT-2 printable character, "a" (97) before "Ġ" (288, the space),
    so (a, b) has the smaller ids and wins."""
    tok = new_tokenizer("byte-bpe")
    tok.train("ab ab ab ac", 258)
    question = quiz.merge_question(candidate_rows(tok, 0), step=0)
    assert sorted(question.options) == [("a", "b"), ("a", "c"), ("·", "a")]
    assert question.options[question.answer] == ("a", "b")
    assert (question.count, question.runner_up, question.tie) == (3, 3, True)
    assert quiz.grade_merge(question, question.answer)
    assert not quiz.grade_merge(question, (question.answer + 1) % 3)
    assert not quiz.grade_merge(question, None)
    # merge 2: " ab" (twice) is the only pair left that occurs twice: no tie
    second = quiz.merge_question(candidate_rows(tok, 1), step=1)
    assert second.options[second.answer] == ("·", "ab")
    assert (second.count, second.tie) == (2, False)


def test_merge_question_shuffles_by_seed_and_hides_nothing_else():
    rows = [("t", "h", 9), ("h", "e", 8), ("e", "r", 7), ("i", "n", 6), ("a", "n", 5)]
    orders = {quiz.merge_question(rows, step=s).options for s in range(20)}
    assert len(orders) > 1  # the winner is not always first
    for step in range(20):
        q = quiz.merge_question(rows, step=step)
        assert q == quiz.merge_question(rows, step=step)  # same seed and step, same question
        assert q.options[q.answer] == ("t", "h") and sorted(q.options) == sorted(
            (a, b) for a, b, _ in rows
        )
    assert len(quiz.merge_question(rows, step=0, top=3).options) == 3
    with pytest.raises(ValueError, match="two candidate"):
        quiz.merge_question(rows[:1], step=0)


def test_merge_answer_is_the_merge_the_trainer_made():
    tok = new_tokenizer("byte-bpe")
    tok.train("low lower lowest newer newest wider " * 20 + "低低低高高", 290)
    for k in range(len(tok.merges)):
        rows = candidate_rows(tok, k)
        if len(rows) < 2:
            continue
        q = quiz.merge_question(rows, step=k)
        merge = tok.merges[k]
        assert q.options[q.answer] == (viz.piece(tok, merge.left), viz.piece(tok, merge.right))
        assert q.count == merge.count


# ---- which tokens will be masked, replaced, kept? ------------------------------------------


def test_mask_question_grades_a_hand_made_draw():
    tokens = ["[CLS]", "the", "cat", "sat", "on", "mat", "[SEP]"]
    kinds = [4, 1, 0, 2, 3, 1, 4]  # special, mask, none, random, keep, mask, special
    q = quiz.mask_question(tokens, kinds)
    assert q.positions == (1, 3, 4, 5) and q.tokens == ("the", "sat", "on", "mat")
    assert q.truth == ("mask", "random", "keep", "mask") and q.selected == 4
    assert quiz.grade_mask(q, ["mask"] * 4) == (True, False, False, True)
    assert quiz.grade_mask(q, ["mask", "random", "keep", None]) == (True, True, True, False)
    assert quiz.always_mask(q) == 2
    assert quiz.mask_question(tokens, kinds, limit=2).positions == (1, 3)
    with pytest.raises(ValueError, match="no token"):
        quiz.mask_question(tokens, [4, 0, 0, 0, 0, 0, 4])
    with pytest.raises(ValueError, match="guesses"):
        quiz.grade_mask(q, ["mask"])


def test_mask_question_answers_are_what_the_model_sees():
    """A real seeded draw over 400 tokens: every asked answer is checkable against the input the
    model gets ([MASK] id, another id or the same id), and "always [MASK]" is right about 80%."""
    ids = torch.arange(10, 410)
    drawn = mask_tokens(ids, vocab_size=500, special_ids=[0], mask_id=3,
                        generator=torch.Generator().manual_seed(7))  # fmt: skip
    kinds = drawn.kinds.tolist()
    q = quiz.mask_question([str(i) for i in ids.tolist()], kinds, limit=1000)
    assert q.selected == sum(1 for k in kinds if k) and 40 <= q.selected <= 80
    for pos, truth in zip(q.positions, q.truth, strict=True):
        seen, original = int(drawn.input_ids[pos]), int(ids[pos])
        if truth == "mask":
            assert seen == 3
        elif truth == "keep":
            assert seen == original
        else:
            assert seen != 3
    share = quiz.always_mask(q) / len(q.truth)
    assert 0.65 < share < 0.95
    assert sum(quiz.grade_mask(q, ["mask"] * len(q.truth))) == quiz.always_mask(q)


# ---- which token does this head look at most? ----------------------------------------------


def test_attention_question_argmax_ties_and_masked_keys():
    q = quiz.attention_question([0.1, 0.2, 0.6, 0.1], query=1)
    assert (q.answers, q.weight, q.tie, q.options) == ((2,), 0.6, False, (0, 1, 2, 3))
    assert quiz.grade_attention(q, 2) and not quiz.grade_attention(q, 1)
    tie = quiz.attention_question([0.4, 0.1, 0.4, 0.1], query=0)
    assert tie.answers == (0, 2) and tie.tie
    assert quiz.grade_attention(tie, 0) and quiz.grade_attention(tie, 2)
    # a causal row: keys after the query are not offered, even with a large (bogus) weight
    causal = quiz.attention_question([0.3, 0.7, 0.9], query=1, allowed=[True, True, False])
    assert causal.options == (0, 1) and causal.answers == (1,)
    with pytest.raises(ValueError, match="any key"):
        quiz.attention_question([0.5, 0.5], query=0, allowed=[False, False])


def test_attention_question_on_a_real_head_matches_numpy_argmax():
    model = tiny_model(seed=3)
    with torch.no_grad():
        out = model(torch.tensor([[2, 5, 7, 9, 11, 13, 3]]), output_attentions=True)
    weights = out.attentions[1][0, 2].numpy()  # layer 2, head 3: (T, T)
    for query in range(7):
        q = quiz.attention_question(weights[query], query)
        assert q.answers == (int(np.argmax(weights[query])),)
        assert q.weight == pytest.approx(float(weights[query].max()))


# ---- the session's score -------------------------------------------------------------------


def test_score_counts_each_question_once():
    score, graded = {}, frozenset()
    score, graded = quiz.record(score, graded, "tok", "k=3", 1, 1)
    score, graded = quiz.record(score, graded, "tok", "k=3", 1, 1)  # Reveal pressed again
    assert score == {"tok": (1, 1)}
    score, graded = quiz.record(score, graded, "tok", "k=4", 0, 1)
    score, graded = quiz.record(score, graded, "inputs", "seed=0", 3, 4)
    score, graded = quiz.record(score, graded, "tok", "k=3", 0, 1)  # back to an old question
    assert score == {"tok": (1, 2), "inputs": (3, 4)}
    assert quiz.total(score) == (4, 6)
    assert graded == {"tok|k=3", "tok|k=4", "inputs|seed=0"}
    with pytest.raises(ValueError, match="between 0"):
        quiz.record(score, graded, "tok", "k=9", 2, 1)


# ---- files handed out ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def byte_tok():
    tok = new_tokenizer("byte-bpe")
    tok.train("low lower lowest 低低低高高 " * 30, 280)
    return tok


def test_vocab_json_round_trip(byte_tok):
    record = json.loads(export.json_bytes(tables.vocab_record(byte_tok)))
    assert record["algo"] == "byte-bpe"
    assert record["vocab"] == byte_tok.vocab and list(record["vocab"].values()) == sorted(
        byte_tok.vocab.values()
    )
    assert len(record["bytes_hex"]) == byte_tok.vocab_size
    for token_id, raw in byte_tok.token_bytes.items():
        assert bytes.fromhex(record["bytes_hex"][str(token_id)]) == raw
    assert record["bytes_hex"]["32"] == "20"
    char = new_tokenizer("char-bpe")
    char.train("low lower lowest " * 20, 40)
    assert "bytes_hex" not in tables.vocab_record(char)


def test_merges_txt_lists_every_merge_in_order(byte_tok):
    lines = tables.merges_text(byte_tok).splitlines()
    assert lines[0] == "#version: 0.2" and len(lines) == len(byte_tok.merges) + 1
    vocab = byte_tok.vocab
    for line, merge in zip(lines[1:], byte_tok.merges, strict=True):
        left, right = line.split(" ")
        assert (vocab[left], vocab[right]) == (merge.left, merge.right)
    word = new_tokenizer("word")
    word.train("a b c a b " * 10, 20)
    assert tables.merges_text(word) is None


def test_tokenizer_zip_loads_back(byte_tok, tmp_path):
    data = export.zip_bytes(tables.tokenizer_files(byte_tok))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert "tokenizer.json" in archive.namelist()
        archive.extractall(tmp_path)
    loaded = load_tokenizer(tmp_path)
    text = "lowest 低高 lower"
    assert loaded.encode(text) == byte_tok.encode(text)
    from tokenizers import Tokenizer as HFTokenizer

    assert HFTokenizer.from_file(str(tmp_path / "tokenizer.json")).encode(text).ids == (
        byte_tok.encode(text)
    )


def test_curve_and_merge_table_csv_parse_back(byte_tok):
    curve = viz.tokens_per_char_frame(byte_tok)
    parsed = pd.read_csv(io.BytesIO(export.frame_csv(curve)), encoding="utf-8-sig")
    assert parsed["tokens_per_char"].tolist() == pytest.approx(curve["tokens_per_char"].tolist())
    merges = pd.read_csv(io.BytesIO(export.frame_csv(viz.merge_frame(byte_tok))),
                         encoding="utf-8-sig", keep_default_na=False)  # fmt: skip
    assert merges["count"].tolist() == [m.count for m in byte_tok.merges]


def test_shares_frame():
    frame = tables.shares_frame({"mask": np.array([0.1, 0.2]), "keep": np.array([0.0, 0.5])})
    assert frame.to_dict("list") == {"draw": [1, 2], "mask": [0.1, 0.2], "keep": [0.0, 0.5]}
    with pytest.raises(ValueError, match="one share per draw"):
        tables.shares_frame({"mask": np.array([0.1]), "keep": np.array([0.0, 0.5])})


def test_attention_json_holds_every_weight():
    model = tiny_model(seed=1)
    ids = torch.tensor([[2, 5, 7, 9, 0]])
    mask = torch.tensor([[1, 1, 1, 1, 0]])
    with torch.no_grad():
        out = model(ids, mask, output_attentions=True)
    weights = torch.stack(out.attentions, dim=1)[0].numpy()  # (L, H, T, T)
    tokens = ["[CLS]", "a", "b", "[SEP]", "[PAD]"]
    record = json.loads(export.json_bytes(
        tables.attention_record(weights, tokens, [1, 1, 1, 1, 0], "tiny", causal=False)
    ))  # fmt: skip
    back = np.asarray(record["weights"])
    assert back.shape == (2, 4, 5, 5) and (record["layers"], record["heads"]) == (2, 4)
    assert np.allclose(back, weights) and np.allclose(back.sum(-1), 1.0)
    assert np.allclose(back[..., 4], 0.0)  # the padded key gets no weight
    assert record["tokens"] == tokens and record["model"] == "tiny"
    with pytest.raises(ValueError, match="do not match"):
        tables.attention_record(weights, tokens[:3], [1, 1, 1], "tiny")
