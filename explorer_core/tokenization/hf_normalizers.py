"""A tokenizer.json's normalizer as a function on `Aligned` text: ours where we have one.

`build_normalizer(spec)` reads the "normalizer" object of a tokenizer.json and returns a `Step`: a
function from `Aligned` to `Aligned` plus the names of the steps it runs, each marked as ours or as
run by `tokenizers`. Ours: BertNormalizer (`bert_basic`), Lowercase, StripAccents, NFD, NFKD, NFC,
NFKC, Replace, Prepend, Strip and Sequence. Anything else (SentencePiece's Precompiled charsmap,
Nmt, ByteLevel, ...) runs in `tokenizers` itself, one component built from its own JSON, and keeps
its alignment per grapheme cluster (`Aligned.rewrite`).

>>> step = build_normalizer({"type": "Sequence", "normalizers": [{"type": "NFD"},
...     {"type": "StripAccents"}, {"type": "Lowercase"}]})
>>> step(Aligned.of("Élan")).text, step.names
('elan', ('NFD', 'StripAccents', 'Lowercase'))
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import regex

from explorer_core.tokenization.bert_basic import is_whitespace, normalize
from explorer_core.tokenization.bert_unicode import LOWER_EXTRA, NFD_KEEP, in_ranges
from explorer_core.tokenization.hf_aligned import Aligned
from explorer_core.tokenization.hf_unicode import CCC_KEEP, MARK_FLIPS, NFK_KEEP

THEIR_LABELS = {"Precompiled": "Precompiled (SentencePiece charsmap)"}


@dataclass(frozen=True)
class Step:
    """A pipeline component: `run` maps aligned text; `names` are its parts, `theirs` those of
    them that `tokenizers` runs."""

    run: Callable[[Aligned], Aligned]
    names: tuple[str, ...]
    theirs: tuple[str, ...] = ()

    def __call__(self, text: Aligned) -> Aligned:
        return self.run(text)


def identity_step() -> Step:
    return Step(lambda a: a, ())


def build_normalizer(spec: dict[str, Any] | None) -> Step:
    """The normalizer described by `spec` (None: no normalizer)."""
    if spec is None:
        return identity_step()
    kind = spec.get("type")
    if kind == "Sequence":
        steps = [build_normalizer(s) for s in spec.get("normalizers", [])]
        return _sequence(steps)
    ours = _OURS.get(str(kind))
    if ours is not None:
        return Step(ours(spec), (str(kind),))
    label = THEIR_LABELS.get(str(kind), str(kind))
    return Step(_theirs(json.dumps(spec)), (label,), (label,))


def _sequence(steps: list[Step]) -> Step:
    def run(text: Aligned) -> Aligned:
        for step in steps:
            text = step(text)
        return text

    names = tuple(n for s in steps for n in s.names)
    return Step(run, names, tuple(n for s in steps for n in s.theirs))


def _bert(spec: dict[str, Any]) -> Callable[[Aligned], Aligned]:
    lowercase = bool(spec.get("lowercase", True))
    strip = spec.get("strip_accents")
    options = {
        "lowercase": lowercase,
        "strip_accents": lowercase if strip is None else bool(strip),
        "clean_text": bool(spec.get("clean_text", True)),
        "chinese_chars": bool(spec.get("handle_chinese_chars", True)),
    }

    def run(text: Aligned) -> Aligned:
        chars = normalize(text.text, **options)
        return Aligned(
            "".join(c for c, _ in chars),
            tuple(text.starts[i] for _, i in chars),
            tuple(text.ends[i] for _, i in chars),
            text.origin,
        )

    return run


def lower_char(char: str) -> str:
    """Rust's `char::to_lowercase`, with the letters Python 3.11 does not know yet.

    >>> lower_char("Σ"), lower_char("İ") == "i\\u0307"
    ('σ', True)
    """
    extra = LOWER_EXTRA.get(ord(char))
    return chr(extra) if extra is not None else char.lower()


def _lowercase(spec: dict[str, Any]) -> Callable[[Aligned], Aligned]:
    return lambda text: text.map_chars(lower_char)


@lru_cache(maxsize=1 << 14)
def is_mark(char: str) -> bool:
    """Any mark (M*), in `tokenizers`' tables: what StripAccents drops.

    >>> is_mark("\u0301"), is_mark("\u0903"), is_mark("\u0898"), is_mark("e")
    (True, True, False, False)
    """
    return unicodedata.category(char).startswith("M") != in_ranges(ord(char), MARK_FLIPS)


def _strip_accents(spec: dict[str, Any]) -> Callable[[Aligned], Aligned]:
    # subtle: unlike BertNormalizer (non-spacing marks only), StripAccents drops every mark (M*)
    return lambda text: text.map_chars(lambda c: "" if is_mark(c) else c)


def _kept(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"{regex.escape(chr(a))}-{regex.escape(chr(b))}" for a, b in ranges)


# characters `tokenizers`' (older) Unicode tables do not decompose, per form (see hf_unicode)
_NFD_KEEP = "".join(regex.escape(chr(c)) for c in NFD_KEEP) + _kept(CCC_KEEP)
_KEEP = {
    "NFC": _kept(CCC_KEEP),
    "NFD": _NFD_KEEP,
    "NFKC": _kept(NFK_KEEP) + _kept(CCC_KEEP),
    "NFKD": _kept(NFK_KEEP) + _NFD_KEEP,
}


def unicode_form(form: str, text: str) -> str:
    """`unicodedata.normalize(form, text)` as `tokenizers` computes it: characters its tables do
    not know yet stay as they are, and, having no decomposition and no composition, they cut the
    text into parts normalized apart.

    >>> unicode_form("NFKC", "\u32ff ｆ"), unicodedata.normalize("NFKC", "\u32ff")
    ('\u32ff f', '令和')
    """
    keep = _KEEP[form]
    if not keep or not regex.search(f"[{keep}]", text):
        return unicodedata.normalize(form, text)
    parts = regex.split(f"([{keep}])", text)
    return "".join(p if k % 2 else unicodedata.normalize(form, p) for k, p in enumerate(parts))


def _unicode_form(form: str) -> Callable[[dict[str, Any]], Callable[[Aligned], Aligned]]:
    def make(spec: dict[str, Any]) -> Callable[[Aligned], Aligned]:
        return lambda text: text.rewrite(lambda s: unicode_form(form, s))

    return make


def _replace(spec: dict[str, Any]) -> Callable[[Aligned], Aligned]:
    pattern = spec.get("pattern") or {}
    content = str(spec.get("content", ""))
    if "Regex" in pattern:
        compiled = regex.compile(str(pattern["Regex"]))
    elif "String" in pattern:
        compiled = regex.compile(regex.escape(str(pattern["String"])))
    else:
        raise ValueError(f"A Replace normalizer needs a String or Regex pattern, not {pattern}")

    def run(text: Aligned) -> Aligned:
        found = [(m.start(), m.end(), content) for m in compiled.finditer(text.text)]
        return text.substitute(iter(found)) if found else text

    return run


def _prepend(spec: dict[str, Any]) -> Callable[[Aligned], Aligned]:
    prefix = str(spec.get("prepend", ""))
    return lambda text: text.prepend(prefix)


def _strip(spec: dict[str, Any]) -> Callable[[Aligned], Aligned]:
    left, right = bool(spec.get("strip_left", True)), bool(spec.get("strip_right", True))

    def run(text: Aligned) -> Aligned:
        a, b = 0, len(text)
        while left and a < b and is_whitespace(text.text[a]):
            a += 1
        while right and b > a and is_whitespace(text.text[b - 1]):
            b -= 1
        return text.slice(a, b) if (a, b) != (0, len(text)) else text

    return run


_OURS: dict[str, Callable[[dict[str, Any]], Callable[[Aligned], Aligned]]] = {
    "BertNormalizer": _bert,
    "Lowercase": _lowercase,
    "StripAccents": _strip_accents,
    "NFD": _unicode_form("NFD"),
    "NFKD": _unicode_form("NFKD"),
    "NFC": _unicode_form("NFC"),
    "NFKC": _unicode_form("NFKC"),
    "Replace": _replace,
    "Prepend": _prepend,
    "Strip": _strip,
}


def their_component(field: str, spec_json: str) -> Any:
    """One `tokenizers` component ("normalizer", "pre_tokenizer", "decoder") from its JSON."""
    from tokenizers import Tokenizer as HFTokenizer

    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": None,
        "post_processor": None,
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"<unk>": 0}, "unk_token": "<unk>"},
    }
    doc[field] = json.loads(spec_json)
    try:
        return getattr(HFTokenizer.from_str(json.dumps(doc)), field)
    except Exception as err:  # tokenizers raises its own Exception type
        kind = doc[field].get("type") if isinstance(doc[field], dict) else doc[field]
        raise ValueError(f"tokenizers cannot build the {field} {kind!r}: {err}") from err


def _theirs(spec_json: str) -> Callable[[Aligned], Aligned]:
    normalizer = their_component("normalizer", spec_json)
    return lambda text: text.rewrite(normalizer.normalize_str)
