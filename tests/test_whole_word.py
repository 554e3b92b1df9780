"""Whole-word masking: jieba's words for Chinese, ## pieces for the rest, 15% / 80-10-10 per word,
seeds, and the one-line message when jieba is missing."""

from __future__ import annotations

import builtins

import jieba
import pytest
import torch

from explorer_core.inputs import whole_word as ww
from explorer_core.inputs.masking import IGNORE_INDEX, KEEP, MASK, NONE, RANDOM, mask_tokens
from explorer_core.tokenization.wordpiece import WordPieceTokenizer

CHINESE = "使用语言模型来预测下一个词的概率。北京大学的学生喜欢在图书馆里学习自然语言处理。"
VOCAB, MASK_ID = 30_522, 103


@pytest.fixture(scope="module")
def minilm() -> WordPieceTokenizer:
    from explorer_core.bert.pretrained import minilm_path

    return WordPieceTokenizer.from_vocab(minilm_path() / "vocab.txt", lowercase=True)


def groups_as_text(tokenizer, text: str) -> list[str]:
    tokens = [tok for tok in tokenizer.explain(text) if tok.end > tok.start]
    starts = ww.word_starts(text, tokens)
    return [text[tokens[g[0]].start : tokens[g[-1]].end] for g in ww.word_groups(starts)]


def test_chinese_words_are_exactly_jiebas(minilm):
    """Every CJK character is one token (most are [UNK] for MiniLM); the groups are jieba.lcut's
    words, punctuation included as words of its own."""
    assert groups_as_text(minilm, CHINESE) == jieba.lcut(CHINESE)
    assert ww.segment(CHINESE) == jieba.lcut(CHINESE)


def test_mixed_text_groups_chinese_by_jieba_and_latin_by_pieces(minilm):
    text = "我爱北京天安门, unbelievable!"
    assert groups_as_text(minilm, text) == ["我", "爱", "北京", "天安门", ",", "unbelievable", "!"]


def test_english_falls_back_to_hf_whole_words(minilm):
    """Without CJK, a word is a first piece and its ## pieces, as transformers groups them."""
    text = "The unbelievable tokenizers were playing 5€ state-of-the-art games, e.g. café."
    tokens = [tok for tok in minilm.explain(text) if tok.end > tok.start]
    expected: list[list[int]] = []
    for i, tok in enumerate(tokens):
        if tok.text.startswith("##"):
            expected[-1].append(i)
        else:
            expected.append([i])
    assert any(len(g) > 1 for g in expected)  # the text does have pieces
    assert ww.word_groups(ww.word_starts(text, tokens)) == expected


def test_special_tokens_are_no_word(minilm):
    tokens = minilm.explain("北京")  # no [CLS] from explain; add one by hand
    starts = ww.word_starts("北京", [tokens[0].__class__(101, "[CLS]", b"", 0, 0, True), *tokens])
    assert starts == [ww.SPECIAL, ww.START, ww.INSIDE]


def batch(texts: list[str], tokenizer) -> tuple[torch.Tensor, torch.Tensor]:
    from explorer_core.inputs.rows import build_rows

    pairs = [ww.text_word_starts(tokenizer, text, drop=(101, 102)) for text in texts]
    ids = build_rows([p[0] for p in pairs], cls_id=101, sep_id=102, pad_id=0).input_ids
    codes = build_rows([p[1] for p in pairs], cls_id=-1, sep_id=-1, pad_id=-1).input_ids
    return ids, codes


def masked(ids, codes, seed: int, **kw):
    return ww.mask_whole_words(
        ids, codes, vocab_size=VOCAB, mask_id=MASK_ID,
        generator=torch.Generator().manual_seed(seed), **kw,
    )  # fmt: skip


def test_a_chosen_word_is_masked_whole_and_alike(minilm):
    ids, codes = batch([CHINESE] * 400, minilm)
    result = masked(ids, codes, seed=3)
    for row in range(ids.shape[0]):
        for group in ww.word_groups(codes[row].tolist()):
            kinds = {int(result.kinds[row, i]) for i in group}
            assert len(kinds) == 1  # per word: all chosen or none, one kind for all its tokens
            labels = result.labels[row, group]
            assert bool((labels == IGNORE_INDEX).all() if kinds == {NONE} else
                        (labels == ids[row, group]).all())  # fmt: skip
    assert bool((result.kinds[codes < 0] == NONE).all())  # never [CLS], [SEP], [PAD]


def test_fifteen_percent_of_tokens_and_80_10_10_of_words_over_many_draws(minilm):
    ids, codes = batch([CHINESE] * 3000, minilm)
    result = masked(ids, codes, seed=0)
    tokens = int((codes >= 0).sum())
    chosen = int((result.kinds != NONE).sum())
    assert chosen / tokens == pytest.approx(0.15, abs=0.005)
    heads = codes == ww.START
    words = {k: int((result.kinds[heads] == code).sum()) for k, code in
             (("mask", MASK), ("random", RANDOM), ("keep", KEEP))}  # fmt: skip
    total = sum(words.values())
    assert words["mask"] / total == pytest.approx(0.8, abs=0.02)
    assert words["random"] / total == pytest.approx(0.1, abs=0.015)
    assert words["keep"] / total == pytest.approx(0.1, abs=0.015)


def test_per_token_replacement_as_googles_script(minilm):
    """per_word=False: words are still chosen whole, but 80/10/10 is drawn per token."""
    ids, codes = batch([CHINESE] * 500, minilm)
    result = masked(ids, codes, seed=1, per_word=False)
    chosen = result.kinds != NONE
    mixed = 0
    for row in range(ids.shape[0]):
        for group in ww.word_groups(codes[row].tolist()):
            assert len({bool(chosen[row, i]) for i in group}) == 1
            mixed += len({int(result.kinds[row, i]) for i in group}) > 1
    assert mixed > 0


def test_same_seed_same_masks_other_seed_other_masks(minilm):
    ids, codes = batch([CHINESE] * 8, minilm)
    a, b, c = masked(ids, codes, 7), masked(ids, codes, 7), masked(ids, codes, 8)
    assert torch.equal(a.input_ids, b.input_ids) and torch.equal(a.kinds, b.kinds)
    assert not torch.equal(a.kinds, c.kinds)


def test_one_token_words_mask_exactly_as_token_masking(minilm):
    """Same draws in the same order: where every word is one token, nothing differs."""
    ids, codes = batch(["the cat sat on the mat and the dog ran to the park"] * 50, minilm)
    assert not bool((codes == ww.INSIDE).any())
    whole = masked(ids, codes, seed=5)
    token = mask_tokens(ids, vocab_size=VOCAB, special_ids={0, 101, 102, 103}, mask_id=MASK_ID,
                        generator=torch.Generator().manual_seed(5))  # fmt: skip
    assert torch.equal(whole.input_ids, token.input_ids) and torch.equal(whole.kinds, token.kinds)


def test_bad_input_gets_a_sentence():
    with pytest.raises(ValueError, match="continues a word"):
        masked(torch.tensor([5, 6]), torch.tensor([0, 1]), seed=0)
    with pytest.raises(ValueError, match="mlm_probability"):
        masked(torch.tensor([5]), torch.tensor([1]), seed=0, mlm_probability=1.5)


def test_a_missing_segmenter_is_one_line(monkeypatch):
    real = builtins.__import__

    def no_jieba(name, *args, **kwargs):
        if name == "jieba":
            raise ImportError("No module named 'jieba'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_jieba)
    with pytest.raises(ww.SegmenterMissing) as err:
        ww.segment("北京")
    assert "\n" not in str(err.value) and "pip install jieba" in str(err.value)
    assert ww.word_starts("abc", []) == []  # text without CJK needs no segmenter
