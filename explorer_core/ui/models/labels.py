"""What a chart calls each id of a model's vocabulary.

A byte-level BPE (RoBERTa, ModernBERT, GPT-2's tokenizer) stores its entries in GPT-2's byte
alphabet ("Ġthe", "æĪ"), which reads as noise on an axis; they are shown as their bytes decoded
(" the"; a character cut between tokens as ⟨e6 88⟩…, as `Token.display` writes it; a control byte
as ⟨0a⟩, where a font would draw an empty box). Other vocabularies are shown as they are stored.
"""

from __future__ import annotations

from explorer_core.tokenization import Tokenizer
from explorer_core.tokenization.base import display_bytes, hex_bytes
from explorer_core.tokenization.byte_bpe import UNICODE_TO_BYTE, gpt2_bytes

_GPT2_TO_LATIN1 = {ord(c): b for c, b in UNICODE_TO_BYTE.items()}  # for str.translate: C speed


def vocab_labels(tokenizer: Tokenizer) -> dict[int, str]:
    """Id -> label of every vocabulary entry (~30 ms for a 50k byte-level vocabulary)."""
    labels = {token_id: text for text, token_id in tokenizer.vocab.items()}
    if "byte-bpe" not in (tokenizer.algo, getattr(tokenizer, "kind", "")):
        return labels
    specials = set(tokenizer.special_tokens.values())
    return {i: s if i in specials else byte_label(s) for i, s in labels.items()}


def byte_label(piece: str) -> str:
    """A byte-level vocabulary string as a chart shows it.

    >>> byte_label("Ġthe"), byte_label("æĪ"), byte_label("Ċ"), byte_label("<mask>")
    (' the', '⟨e6 88⟩…', '⟨0a⟩', '<mask>')
    """
    try:
        raw = piece.translate(_GPT2_TO_LATIN1).encode("latin-1")
    except UnicodeEncodeError:  # not GPT-2's alphabet (an added token): its own bytes
        raw = gpt2_bytes(piece)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:  # a character cut between tokens
        text = display_bytes(raw)
    return text if text.isprintable() else f"⟨{hex_bytes(raw)}⟩"
