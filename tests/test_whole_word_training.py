"""Pre-training with whole-word masking: the batches, the config flag, and `--whole-word` on the
command line (and its one-line errors)."""

from __future__ import annotations

import pytest
import torch

from explorer_core.cli import main
from explorer_core.inputs import whole_word as ww
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization.wordpiece import WordPieceTokenizer
from explorer_core.training.pretrain import PretrainConfig, draw_batch, tokenize_corpus
from tests.models import write_pairs_table


@pytest.fixture(scope="module")
def tokenizer() -> WordPieceTokenizer:
    from explorer_core.bert.pretrained import minilm_path

    return WordPieceTokenizer.from_vocab(minilm_path() / "vocab.txt", lowercase=True)


def test_whole_word_batches_mask_jieba_words_together(tokenizer):
    lines = builtin_corpus("zh").splitlines()[:60]
    vocab = BertVocab.of(tokenizer)
    corpus = tokenize_corpus(tokenizer, vocab, lines, whole_word=True)
    assert len(corpus.word_starts) == len(corpus.lines)
    config = PretrainConfig(whole_word=True, batch_size=32, max_length=40, seed=0)
    batch = draw_batch(corpus, vocab, config, torch.Generator().manual_seed(0))
    # rebuild each row's word codes the way draw_batch lays them out: words are whole
    chosen = batch["labels"] != -100
    seen_long_word = False
    for row in range(chosen.shape[0]):
        for index, codes in enumerate(corpus.word_starts):
            line = corpus.lines[index]
            if tuple(batch_ids(batch, row)[1 : 1 + len(line)]) == line:
                starts = [-1, *codes]
                for group in ww.word_groups(starts):
                    picked = {bool(chosen[row, i]) for i in group}
                    assert len(picked) == 1
                    seen_long_word |= len(group) > 1 and picked == {True}
                break
    assert seen_long_word  # some chosen word had two or more characters


def batch_ids(batch: dict, row: int) -> list[int]:
    """The row's ids before masking: labels where chosen, input ids elsewhere."""
    labels, ids = batch["labels"][row], batch["input_ids"][row]
    return torch.where(labels != -100, labels, ids).tolist()


def test_token_masking_is_unchanged_without_the_flag(tokenizer):
    lines = builtin_corpus("zh").splitlines()[:30]
    vocab = BertVocab.of(tokenizer)
    plain = tokenize_corpus(tokenizer, vocab, lines)
    assert plain.word_starts == ()
    config = PretrainConfig(batch_size=8, max_length=32)
    a = draw_batch(plain, vocab, config, torch.Generator().manual_seed(4))
    wide = tokenize_corpus(tokenizer, vocab, lines, whole_word=True)
    b = draw_batch(wide, vocab, config, torch.Generator().manual_seed(4))  # flag off in config
    assert all(torch.equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wwm")
    table = write_pairs_table(folder / "pairs.tsv")
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(builtin_corpus("zh").splitlines()[:40]), encoding="utf-8")
    return table, corpus, folder


def argv(table, corpus, out, *extra: str) -> list[str]:
    return ["train", "sts", "--train", str(table), "--tokenizer-algo", "wordpiece",
            "--vocab-size", "1200", "--steps", "2", "--out", str(out), "--json",
            "--pretrain-corpus", str(corpus), *extra]  # fmt: skip


def test_cli_whole_word_pretrains(files, capsys, monkeypatch):
    table, corpus, folder = files
    calls = []
    real = ww.segment
    monkeypatch.setattr(ww, "segment", lambda text: calls.append(text) or real(text))
    assert main(argv(table, corpus, folder / "model", "--whole-word")) == 0
    assert '"steps"' in capsys.readouterr().out
    assert calls  # the Chinese corpus was segmented into words


def test_cli_whole_word_without_pretraining_is_one_line(files, capsys):
    table, _, folder = files
    args = ["train", "sts", "--train", str(table), "--steps", "1", "--out", str(folder / "x"),
            "--whole-word"]  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--pretrain-corpus" in err


def test_cli_without_jieba_is_one_line(files, capsys, monkeypatch):
    table, corpus, folder = files

    def missing(text: str) -> list[str]:
        raise ww.SegmenterMissing(ww.MISSING)

    monkeypatch.setattr(ww, "segment", missing)
    assert main(argv(table, corpus, folder / "y", "--whole-word")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pip install jieba" in err
