"""What a tokenizer.json does after the model: special tokens around the ids, truncation, padding.

`PostProcessor.from_json(spec)` reads "post_processor": BERT's `[CLS] A [SEP] B [SEP]` (type ids 0
for the first sentence, 1 for the second), RoBERTa's `<s> A </s></s> B </s>` (type ids all 0), or a
TemplateProcessing with its own pieces and type ids (XLM-R, ModernBERT, most files written since
2021). `Limits.from_json(doc)` reads "truncation" and "padding", which `tokenizers` applies to every
`encode` (all-MiniLM-L6-v2's file truncates to 128 ids and pads to 128).

>>> bert = PostProcessor.from_json({"type": "BertProcessing", "sep": ["[SEP]", 102],
...     "cls": ["[CLS]", 101]})
>>> bert.apply([7, 8], [9])
([101, 7, 8, 102, 9, 102], [0, 0, 0, 0, 1, 1])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Piece = tuple[str, int | str, int]  # ("special", id, type id) or ("sequence", "A"/"B", type id)


@dataclass(frozen=True)
class PostProcessor:
    """Templates for one sentence and for a pair; `name` is the tokenizer.json type."""

    name: str
    single: tuple[tuple[str, tuple[int, ...] | str, int], ...]
    pair: tuple[tuple[str, tuple[int, ...] | str, int], ...]

    @classmethod
    def from_json(cls, spec: dict[str, Any] | None) -> PostProcessor:
        if spec is None:
            return cls("none", (("seq", "A", 0),), (("seq", "A", 0), ("seq", "B", 1)))
        kind = spec.get("type")
        if kind == "Sequence":
            found = [p for p in spec.get("processors", []) if p.get("type") != "ByteLevel"]
            if len(found) > 1:
                raise ValueError("A Sequence post-processor with more than one template")
            inner = cls.from_json(found[0] if found else None)
            return cls(f"Sequence({inner.name})", inner.single, inner.pair)
        if kind == "ByteLevel":  # offsets only
            return cls.from_json(None)
        if kind in ("BertProcessing", "RobertaProcessing"):
            c, s = (int(spec["cls"][1]),), (int(spec["sep"][1]),)
            second = 1 if kind == "BertProcessing" else 0
            single = (("sp", c, 0), ("seq", "A", 0), ("sp", s, 0))
            middle = (("sp", s, 0),) if kind == "RobertaProcessing" else ()
            pair = single + middle + (("seq", "B", second), ("sp", s, second))
            return cls(kind, single, pair)
        if kind == "TemplateProcessing":
            specials = {
                k: tuple(int(i) for i in v["ids"]) for k, v in spec["special_tokens"].items()
            }
            return cls(kind, _template(spec["single"], specials), _template(spec["pair"], specials))
        raise ValueError(f"Unknown post-processor type {kind!r} in the tokenizer.json")

    def added(self, is_pair: bool) -> int:
        """How many ids the template adds around the sentences."""
        return sum(
            len(ref) for kind, ref, _ in (self.pair if is_pair else self.single) if kind == "sp"
        )

    def apply(
        self, first: list[int], second: list[int] | None = None
    ) -> tuple[list[int], list[int]]:
        """(ids, type ids) of the template filled with the sentences' ids."""
        template = self.single if second is None else self.pair
        ids: list[int] = []
        types: list[int] = []
        for kind, ref, type_id in template:
            part = list(ref) if kind == "sp" else (first if ref == "A" else second or [])
            ids += part
            types += [type_id] * len(part)
        return ids, types


def _template(items: list[dict[str, Any]], specials: dict[str, tuple[int, ...]]):
    out = []
    for item in items:
        if "SpecialToken" in item:
            name = item["SpecialToken"]["id"]
            if name not in specials:
                raise ValueError(f"The template uses {name!r}, which its special_tokens lack")
            out.append(("sp", specials[name], int(item["SpecialToken"].get("type_id", 0))))
        else:
            seq = item["Sequence"]
            out.append(("seq", str(seq["id"]), int(seq.get("type_id", 0))))
    return tuple(out)


@dataclass(frozen=True)
class Limits:
    """A tokenizer.json's "truncation" and "padding" (None where absent)."""

    max_length: int | None = None
    strategy: str = "LongestFirst"
    truncate_left: bool = False
    pad_to: int | None = None  # Fixed size; None = BatchLongest, a no-op for one input
    pad_multiple: int | None = None
    pad_id: int = 0
    pad_type_id: int = 0
    pad_left: bool = False
    pads: bool = False

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Limits:
        trunc, pad = doc.get("truncation") or {}, doc.get("padding") or {}
        strategy = pad.get("strategy", "BatchLongest")
        fixed = strategy.get("Fixed") if isinstance(strategy, dict) else None
        return cls(
            max_length=int(trunc["max_length"]) if trunc else None,
            strategy=str(trunc.get("strategy", "LongestFirst")),
            truncate_left=trunc.get("direction", "Right") == "Left",
            pad_to=int(fixed) if fixed is not None else None,
            pad_multiple=pad.get("pad_to_multiple_of"),
            pad_id=int(pad.get("pad_id", 0)),
            pad_type_id=int(pad.get("pad_type_id", 0)),
            pad_left=pad.get("direction", "Right") == "Left",
            pads=bool(pad),
        )

    def truncate(self, first: list[int], second: list[int] | None, added: int):
        """The sentences cut as `tokenizers`' truncate_encodings does (stride plays no part)."""
        if self.max_length is None:
            return first, second
        limit = self.max_length - added
        if limit <= 0:
            return [], ([] if second is not None else None)
        total = len(first) + len(second or [])
        if total <= limit:
            return first, second
        cut = self._cut
        if self.strategy == "LongestFirst":
            if second is None:
                return cut(first, limit), None
            n1, n2 = sorted((len(first), len(second)))
            n2 = n1 if n1 > limit else max(n1, limit - n1)
            if n1 + n2 > limit:
                n1 = limit // 2
                n2 = n1 + limit % 2
            if len(first) > len(second):
                n1, n2 = n2, n1
            return cut(first, n1), cut(second, n2)
        target_first = self.strategy == "OnlyFirst"
        if not target_first and second is None:
            raise ValueError("Truncation OnlySecond needs a second sentence")
        target = first if target_first else second
        if len(target) <= total - limit:
            raise ValueError("The sequence to truncate is too short for the file's max_length")
        kept = cut(target, len(target) - (total - limit))
        return (kept, second) if target_first else (first, kept)

    def _cut(self, ids: list[int], n: int) -> list[int]:
        return ids[len(ids) - n :] if self.truncate_left else ids[:n]

    def pad(self, ids: list[int], types: list[int]) -> tuple[list[int], list[int]]:
        if not self.pads:
            return ids, types
        length = self.pad_to if self.pad_to is not None else len(ids)
        if self.pad_multiple and length % self.pad_multiple:
            length += self.pad_multiple - length % self.pad_multiple
        extra = max(0, length - len(ids))
        if self.pad_left:
            return [self.pad_id] * extra + ids, [self.pad_type_id] * extra + types
        return ids + [self.pad_id] * extra, types + [self.pad_type_id] * extra
