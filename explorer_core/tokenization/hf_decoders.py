"""A tokenizer.json's decoder: tokens back to text. Ours for WordPiece, ByteLevel and Metaspace.

>>> decoder = build_decoder({"type": "WordPiece", "prefix": "##", "cleanup": True})
>>> decoder.run(["un", "##able", "!"])
'unable!'

Any other kind (a Sequence of Replace, ByteFallback, Fuse, Strip, ...) runs in `tokenizers`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer_core.tokenization.byte_bpe import gpt2_bytes
from explorer_core.tokenization.hf_normalizers import their_component

_CLEANUP = (
    (" .", "."),
    (" ?", "?"),
    (" !", "!"),
    (" ,", ","),
    (" ' ", "'"),
    (" n't", "n't"),
    (" 'm", "'m"),
    (" do not", " don't"),
    (" 's", "'s"),
    (" 've", "'ve"),
    (" 're", "'re"),
)


@dataclass(frozen=True)
class Decoder:
    run: Callable[[list[str]], str]
    names: tuple[str, ...]
    theirs: tuple[str, ...] = ()


def cleanup(text: str) -> str:
    """WordPiece's clean-up of spaces before punctuation and in English contractions.

    >>> cleanup("it ' s ok , is n't it ?")
    "it's ok, isn't it?"
    """
    for old, new in _CLEANUP:
        text = text.replace(old, new)
    return text


def build_decoder(spec: dict[str, Any] | None) -> Decoder:
    if spec is None:
        return Decoder(" ".join, ())
    kind = str(spec.get("type"))
    if kind == "WordPiece":
        return Decoder(
            _wordpiece(str(spec.get("prefix", "##")), bool(spec.get("cleanup"))), (kind,)
        )
    if kind == "ByteLevel":
        return Decoder(_byte_level, (kind,))
    if kind == "Metaspace":
        scheme = spec.get("prepend_scheme")
        if scheme is None:
            scheme = "always" if spec.get("add_prefix_space", True) else "never"
        return Decoder(_metaspace(str(spec.get("replacement", "▁")), scheme != "never"), (kind,))
    decoder = their_component("decoder", json.dumps(spec))
    return Decoder(decoder.decode, (kind,), (kind,))


def _wordpiece(prefix: str, clean: bool) -> Callable[[list[str]], str]:
    def run(tokens: list[str]) -> str:
        out = []
        for i, token in enumerate(tokens):
            if i:
                token = token[len(prefix) :] if token.startswith(prefix) else " " + token
            out.append(cleanup(token) if clean else token)
        return "".join(out)

    return run


def _byte_level(tokens: list[str]) -> str:
    return b"".join(gpt2_bytes(t) for t in tokens).decode("utf-8", errors="replace")


def _metaspace(replacement: str, strip_first: bool) -> Callable[[list[str]], str]:
    def run(tokens: list[str]) -> str:
        out = []
        for i, token in enumerate(tokens):
            space = "" if i == 0 and strip_first else " "
            out.append(token.replace(replacement, space))
        return "".join(out)

    return run
