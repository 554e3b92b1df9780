"""A checkpoint folder loads as it is in sentence-transformers and AutoTokenizer, our numbers."""

from __future__ import annotations

import pytest
import torch

from explorer_core.bert.model import BertModel
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import ALGORITHMS, new_tokenizer
from explorer_core.tokenization.wordpiece import WordPieceTokenizer
from explorer_core.training.checkpoint import Checkpoint, save_checkpoint
from explorer_core.training.presets import Preset

SMALL = Preset(name="test", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
               intermediate_size=37, max_position_embeddings=48)  # fmt: skip
TEXTS = [
    "A man is playing a guitar.",
    "一个男人在弹吉他。",
    "Café naïve Ünïcode — emoji 🙂 and 中文 mixed",
    "x",
    "a very long sentence " * 20,  # truncated at max_length
]


def checkpoint(tokenizer, pooling: str = "mean", max_length: int = 24) -> Checkpoint:
    vocab = BertVocab.of(tokenizer)
    model = BertModel(SMALL.config(vocab.size, vocab.pad_id), seed=3)
    return Checkpoint(model, tokenizer, pooling=pooling, max_length=max_length)


@pytest.fixture(scope="module")
def text() -> str:
    return builtin_corpus("mixed")[:6000]


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_auto_tokenizer_encodes_as_we_do(algo, text, tmp_path):
    """Every algorithm: AutoTokenizer(folder) gives BertVocab.encode's ids, truncation included."""
    from transformers import AutoTokenizer

    tokenizer = new_tokenizer(algo)
    tokenizer.train(text, 400 if algo not in ("char-bpe",) else 1200)
    ckpt = checkpoint(tokenizer)
    save_checkpoint(ckpt, tmp_path)
    hf = AutoTokenizer.from_pretrained(tmp_path)
    for sentence in TEXTS:
        ours = ckpt.vocab.encode(tokenizer, [sentence], max_length=24).input_ids[0].tolist()
        assert hf(sentence, truncation=True, max_length=24)["input_ids"] == ours, sentence


@pytest.mark.parametrize("pooling", ["mean", "cls", "max"])
def test_sentence_transformers_gives_our_vectors(pooling, text, tmp_path):
    from sentence_transformers import SentenceTransformer

    tokenizer = new_tokenizer("char-bpe")
    tokenizer.train(text, 1200)
    ckpt = checkpoint(tokenizer, pooling)
    save_checkpoint(ckpt, tmp_path)
    for name in ("modules.json", "config_sentence_transformers.json", "1_Pooling/config.json",
                 "tokenizer.json", "tokenizer_config.json"):  # fmt: skip
        assert (tmp_path / name).is_file(), name
    st = SentenceTransformer(str(tmp_path), device="cpu")
    theirs = torch.as_tensor(st.encode(TEXTS, convert_to_numpy=True))
    ours = ckpt.embed(TEXTS, normalize=False)
    assert torch.allclose(theirs, ours, atol=1e-5), (theirs - ours).abs().max()


@pytest.mark.slow
def test_fine_tuned_minilm_exports_to_sentence_transformers(minilm_dir, tmp_path):
    """MiniLM's own WordPiece (bert-base-uncased vocab) through the same export."""
    from sentence_transformers import SentenceTransformer

    tokenizer = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)
    ckpt = Checkpoint(BertModel.from_transformers(minilm_dir), tokenizer, max_length=128)
    save_checkpoint(ckpt, tmp_path)
    st = SentenceTransformer(str(tmp_path), device="cpu")
    theirs = torch.as_tensor(st.encode(TEXTS, convert_to_numpy=True))
    assert torch.allclose(theirs, ckpt.embed(TEXTS, normalize=False), atol=1e-5)
    assert st.get_max_seq_length() == 128
