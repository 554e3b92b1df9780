"""NSP pairs, BERT's pair layout and the tutorial's conventions."""

from __future__ import annotations

import pytest

from explorer_core.inputs.pairs import (
    IS_NEXT,
    NOT_NEXT,
    consecutive_pairs,
    lines_without_tab,
    make_nsp_examples,
    nsp_batch,
    parse_tab_pairs,
    tutorial_example,
    tutorial_vocab,
)

PAIRS = [(f"a{i}", f"b{i}") for i in range(2000)]


def test_parse_tab_pairs_and_the_line_without_a_tab():
    assert parse_tab_pairs(["x y\tz", "  ", "p\t q "]) == [("x y", "z"), ("p", "q")]
    with pytest.raises(ValueError, match="line 2 has no tab"):
        parse_tab_pairs(["x\ty", "no tab here"])
    with pytest.raises(ValueError, match="empty sentence"):
        parse_tab_pairs(["x\t "])


def test_consecutive_pairs_stay_within_one_text():
    assert consecutive_pairs("a\nb\n\nc\nd\ne\n") == [("a", "b"), ("c", "d"), ("d", "e")]
    assert consecutive_pairs("alone") == []


def test_nsp_is_half_and_half_and_not_next_takes_another_pairs_b():
    examples = make_nsp_examples(PAIRS, seed=0)
    not_next = sum(ex.label == NOT_NEXT for ex in examples) / len(examples)
    assert not_next == pytest.approx(0.5, abs=0.035)  # 3 standard deviations at n = 2000
    for i, ex in enumerate(examples):
        assert ex.a == PAIRS[i][0] and ex.source == i
        if ex.label == IS_NEXT:
            assert ex.b == PAIRS[i][1] and ex.b_source == i
        else:
            assert ex.b_source != i and ex.b == PAIRS[ex.b_source][1]


def test_nsp_is_deterministic_per_seed():
    assert make_nsp_examples(PAIRS[:50], seed=3) == make_nsp_examples(PAIRS[:50], seed=3)
    assert make_nsp_examples(PAIRS[:50], seed=3) != make_nsp_examples(PAIRS[:50], seed=4)
    with pytest.raises(ValueError, match="at least two"):
        make_nsp_examples(PAIRS[:1], seed=0)


def test_nsp_batch_tensors():
    examples = make_nsp_examples([("a b", "c"), ("d", "e f g")], seed=1)
    vocab = {w: i + 5 for i, w in enumerate("abcdefg")}
    out = nsp_batch(examples, lambda s: [vocab[w] for w in s.split()],
                    cls_id=1, sep_id=2, pad_id=0, max_length=9)  # fmt: skip
    assert out["input_ids"].shape == out["token_type_ids"].shape == (2, 9)
    assert out["next_sentence_label"].tolist() == [ex.label for ex in examples]
    assert out["input_ids"][0, :4].tolist() == [1, 5, 6, 2]


def test_tutorial_vocab_and_worked_example():
    """codertimo/BERT-pytorch: <sos> A <eos> B <eos>, segments 1/2 then 0, target 0 if unmasked."""
    stoi = tutorial_vocab("the cat sat on the mat".split())
    assert list(stoi)[:6] == ["<pad>", "<unk>", "<eos>", "<sos>", "<mask>", "the"]
    ex = tutorial_example("the cat sat", "on the mat", stoi, seq_len=12, seed=0)
    assert ex.segment_label == [1] * 5 + [2] * 4 + [0] * 3
    assert ex.bert_input[0] == stoi["<sos>"] and ex.bert_input[4] == stoi["<eos>"]
    assert ex.bert_input[8] == stoi["<eos>"] and ex.bert_input[9:] == [0, 0, 0]
    assert ex.tokens[0] == "<sos>" and len(ex.tokens) == 12
    assert ex.is_next == 1  # the tutorial's IsNext is 1 (transformers': 0)
    layout = ["<sos>", "the", "cat", "sat", "<eos>", "on", "the", "mat", "<eos>"]
    for i, word in enumerate(layout):
        if word.startswith("<"):
            assert ex.bert_label[i] == 0
        elif ex.bert_label[i] == 0:  # not chosen: the word itself, no loss
            assert ex.bert_input[i] == stoi[word]
        else:  # chosen: the target is the original word
            assert ex.bert_label[i] == stoi[word]
    seeds = [
        tutorial_example("the cat sat", "on the mat", stoi, seq_len=12, seed=s) for s in range(30)
    ]
    assert any(stoi["<mask>"] in e.bert_input for e in seeds)
    assert ex == tutorial_example("the cat sat", "on the mat", stoi, seq_len=12, seed=0)
    truncated = tutorial_example("the cat sat", "on the mat", stoi, seq_len=6, seed=0)
    assert len(truncated.bert_input) == len(truncated.segment_label) == 6


def test_tutorial_masking_chooses_about_15_percent():
    words = " ".join(["the cat sat on the mat"] * 400)
    stoi = tutorial_vocab(words.split())
    chosen = total = 0
    for seed in range(10):
        ex = tutorial_example(words, "the mat", stoi, seq_len=3000, seed=seed)
        chosen += sum(label != 0 for label in ex.bert_label)
        total += 2402
    assert chosen / total == pytest.approx(0.15, abs=0.01)
    with pytest.raises(ValueError, match="special tokens"):
        tutorial_example("a", "b", {"a": 0}, seq_len=8, seed=0)


def test_lines_without_tab_and_word_lists_for_the_tutorial():
    assert lines_without_tab(["a\tb", "  ", "no tab", "c\td", "again none"]) == [3, 5]
    stoi = tutorial_vocab("the cat sat , on the mat".split())
    words = tutorial_example(["the", "cat", ","], ["the", "mat"], stoi, seq_len=9, seed=1)
    split = tutorial_example("the cat ,", "the mat", stoi, seq_len=9, seed=1)
    assert words == split  # a word list is the same as the tutorial's whitespace split
