"""Tiny decoders and tokenizers for tests/test_decoder_*.py and tests/test_cli_decoder.py: odd
sizes (hidden 32, 4 heads, FFN 37) so shape mix-ups fail, a byte-level BPE of 300 tokens."""

from __future__ import annotations

from explorer_core.bert.causal_lm import BertForCausalLM, decoder_config
from explorer_core.decoder.config import LMTrainConfig
from explorer_core.tokenization.byte_bpe import ByteBPETokenizer

TEXT = "the cat sat on the mat. the dog ran to the cat. 猫坐在垫子上。狗跑向猫。\n" * 12
TINY_RUN = dict(
    seconds=None, steps=6, hidden_size=32, num_hidden_layers=1, num_attention_heads=4,
    block_size=16, vocab_size=300, batch_size=4, eval_every=3, sample_every=4, sample_tokens=5,
)  # fmt: skip


def tiny_run(**overrides) -> LMTrainConfig:
    return LMTrainConfig(**{**TINY_RUN, **overrides})


def tokenizer(vocab_size: int = 300) -> ByteBPETokenizer:
    tok = ByteBPETokenizer()
    tok.train(TEXT, vocab_size, trace=False)
    return tok


def decoder(vocab_size: int = 300, seed: int = 0, **overrides) -> BertForCausalLM:
    config = decoder_config(
        vocab_size=vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, max_position_embeddings=24, **overrides,
    )  # fmt: skip
    return BertForCausalLM(config, seed=seed).eval()
