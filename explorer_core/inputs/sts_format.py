"""Reading sentence pairs scored 0-5 (STS) from files: ChineseSTS lines or a headed TSV/CSV.

`load_sts_file` never crashes on a bad row: it counts malformed rows and keeps a few reasons, and
raises ValueError (one readable sentence) only when the whole file is unusable.
`explorer_core.inputs.datasets` re-exports everything public here.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from explorer_core.tokenization.base import is_cjk

STS_FORMATS = ("chinese-sts", "table")
SPLITS = ("train", "dev", "test")
_SPLIT_ALIASES = {  # accepted spellings of a split column's values
    "train": "train",
    "dev": "dev",
    "val": "dev",
    "valid": "dev",
    "validation": "dev",
    "test": "test",
}
MAX_PROBLEMS = 5  # how many malformed-row reasons a LoadResult keeps as examples


@dataclass(frozen=True)
class SentencePair:
    """Two sentences and a similarity score from 0 (unrelated) to 5 (same meaning)."""

    sentence1: str
    sentence2: str
    score: float
    split: str | None = None  # "train", "dev", "test" or None when the source had no split
    lang: str | None = None  # "en" or "zh" (from a lang column, else guessed from the text)


@dataclass(frozen=True)
class LoadResult:
    """What `load_sts_file` read: the usable pairs plus a count of malformed rows.

    `problems` keeps the first few reasons, e.g. ``"line 7: score 'high' is not a number"``.
    """

    pairs: tuple[SentencePair, ...]
    format: str
    malformed: int = 0
    problems: tuple[str, ...] = ()

    def split(self, name: str) -> list[SentencePair]:
        """The pairs whose split is `name` ("train", "dev" or "test")."""
        return [p for p in self.pairs if p.split == name]

    @property
    def has_splits(self) -> bool:
        return any(p.split is not None for p in self.pairs)


def guess_lang(text: str) -> str:
    """``"zh"`` if the text holds a CJK ideograph (BERT's blocks), else ``"en"``.

    >>> guess_lang("猫在睡觉"), guess_lang("A cat sleeps.")
    ('zh', 'en')
    """
    return "zh" if any(is_cjk(ch) for ch in text) else "en"


def _decode(data: bytes, name: str) -> str:
    """UTF-8 text without BOM, or a ValueError saying why the bytes are not a text file."""
    if b"\x00" in data:
        raise ValueError(
            f"{name} looks like a binary file, not a UTF-8 text table of sentence pairs."
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{name} is not UTF-8 text (byte {err.start} cannot be decoded); save it as UTF-8."
        ) from err


def _parse_score(raw: str) -> float:
    """A score in [0, 5] or a ValueError whose message is the reason the row is malformed."""
    try:
        score = float(raw.strip())
    except ValueError:
        raise ValueError(f"score {raw.strip()!r} is not a number") from None
    if not 0.0 <= score <= 5.0:  # also rejects NaN
        raise ValueError(f"score {raw.strip()} is outside 0-5")
    return score


def _make_pair(s1: str, s2: str, score: str, split: str | None, lang: str | None) -> SentencePair:
    s1, s2 = s1.strip(), s2.strip()
    if not s1 or not s2:
        raise ValueError("sentence1 is empty" if not s1 else "sentence2 is empty")
    value = _parse_score(score)
    if split is not None:
        key = split.strip().lower()
        if key not in _SPLIT_ALIASES:
            raise ValueError(f"split {split.strip()!r} is not train, dev or test")
        split = _SPLIT_ALIASES[key]
    lang = (lang or "").strip().lower() or guess_lang(s1 + s2)
    return SentencePair(s1, s2, value, split, lang)


_Row = tuple[int, tuple[str, str, str, str | None, str | None] | str]  # line, fields or reason


@dataclass(frozen=True)
class _Header:
    """Where a headed table keeps its columns: one (sentence1, sentence2, lang) triple per pair."""

    delimiter: str
    columns: dict[str, int]
    pairs: tuple[tuple[str, str, str | None], ...]  # lang None: read it from a `lang` column


def _table_header(text: str) -> _Header | None:
    """The header, when the first non-blank line names a score and sentence columns.

    Either ``sentence1``/``sentence2``, or one ``sentence1_<lang>``/``sentence2_<lang>`` pair per
    language (a bilingual table such as ``sentence1_en, sentence2_en, sentence1_zh, ...``).
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = "\t" if "\t" in first else ","
    names = [c.strip().lower() for c in next(csv.reader([first], delimiter=delimiter), [])]
    columns = {name: i for i, name in reversed(list(enumerate(names)))}
    if "score" not in columns:
        return None
    if "sentence1" in columns and "sentence2" in columns:
        return _Header(delimiter, columns, (("sentence1", "sentence2", None),))
    langs = sorted(n[len("sentence1_") :] for n in columns if n.startswith("sentence1_"))
    pairs = tuple(
        (f"sentence1_{x}", f"sentence2_{x}", x) for x in langs if f"sentence2_{x}" in columns
    )
    return _Header(delimiter, columns, pairs) if pairs else None


def _csv_records(reader: Iterator[list[str]]) -> Iterator[tuple[int, list[str] | str]]:
    """(line number, fields) per record; a record csv cannot read gives its error instead."""
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as err:  # e.g. a field longer than csv's limit; the reader goes on
            yield reader.line_num, f"unreadable row ({err})"
            continue
        yield reader.line_num, fields


def _table_rows(text: str, header: _Header) -> Iterator[_Row]:
    """Rows of a headed TSV/CSV (CSV quoting honoured; TSV fields taken literally).

    A bilingual row yields one pair per language, each counted apart if malformed.
    """
    quoting = csv.QUOTE_NONE if header.delimiter == "\t" else csv.QUOTE_MINIMAL
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=header.delimiter, quoting=quoting)
    col = header.columns
    header_seen = False
    for number, fields in _csv_records(reader):
        if isinstance(fields, str):
            yield number, fields
            continue
        if not any(f.strip() for f in fields):
            continue
        if not header_seen:
            header_seen = True
            continue

        def cell(name: str, fields: list[str] = fields) -> str | None:
            i = col.get(name)
            return fields[i] if i is not None and i < len(fields) else None

        for s1, s2, lang in header.pairs:
            need = max(col[s1], col[s2], col["score"]) + 1
            if len(fields) < need:
                yield number, f"expected at least {need} columns, found {len(fields)}"
            else:
                values = (fields[col[s1]], fields[col[s2]], fields[col["score"]])
                yield number, (*values, cell("split"), lang or cell("lang"))


def _chinese_sts_rows(text: str) -> Iterator[_Row]:
    """Rows of ChineseSTS: ``id1<TAB>sentence1<TAB>id2<TAB>sentence2<TAB>score``, no header."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            yield number, f"expected 5 tab-separated fields, found {len(fields)}"
        else:
            yield number, (fields[1], fields[3], fields[4], None, None)


def _looks_like_chinese_sts(text: str) -> bool:
    """True when one of the first 20 non-blank lines is a well-formed ChineseSTS row."""
    lines = [line for line in text.splitlines() if line.strip()][:20]
    for line in lines:
        fields = line.split("\t")
        if len(fields) == 5:
            try:
                _parse_score(fields[4])
                return True
            except ValueError:
                continue
    return False


def _collect(rows: Iterable[_Row], fmt: str, name: str) -> LoadResult:
    pairs: list[SentencePair] = []
    problems: list[str] = []
    malformed = 0
    for number, fields in rows:
        reason = fields if isinstance(fields, str) else None
        if reason is None:
            try:
                pairs.append(_make_pair(*fields))
            except ValueError as err:
                reason = str(err)
        if reason is not None:
            malformed += 1
            if len(problems) < MAX_PROBLEMS:
                problems.append(f"line {number}: {reason}")
    if not pairs:
        detail = f" ({malformed} malformed rows, e.g. {problems[0]})" if problems else ""
        raise ValueError(f"{name} has no usable sentence pair{detail}.")
    return LoadResult(tuple(pairs), fmt, malformed, tuple(problems))


def load_sts_bytes(data: bytes, name: str = "The file", format: str | None = None) -> LoadResult:
    """Parse sentence pairs from the bytes of an uploaded file; see `load_sts_file`."""
    if format is not None and format not in STS_FORMATS:
        raise ValueError(f"Unknown format {format!r}: choose one of {', '.join(STS_FORMATS)}.")
    text = _decode(data, name)
    if not text.strip():
        raise ValueError(f"{name} is empty: it holds no sentence pairs.")
    header = _table_header(text)
    if format is None:
        if header is not None:
            format = "table"
        elif _looks_like_chinese_sts(text):
            format = "chinese-sts"
        else:
            raise ValueError(
                f"{name} is in neither supported format: expected ChineseSTS lines "
                "(id1, sentence1, id2, sentence2, score separated by tabs) or a TSV/CSV whose "
                "header names the columns sentence1, sentence2 and score."
            )
    if format == "table":
        if header is None:
            raise ValueError(f"{name} has no header naming sentence1, sentence2 and score.")
        return _collect(_table_rows(text, header), "table", name)
    return _collect(_chinese_sts_rows(text), "chinese-sts", name)


def load_sts_file(path: str | Path, format: str | None = None) -> LoadResult:
    """Read a file of sentence pairs scored 0-5, in one of two formats.

    - ``"chinese-sts"``: ``id1<TAB>sentence1<TAB>id2<TAB>sentence2<TAB>score``, no header.
    - ``"table"``: a TSV or CSV whose header names ``sentence1``, ``sentence2`` and ``score``
      (other columns ignored; an optional ``split`` column holds train/dev/test, an optional
      ``lang`` column the language). A bilingual table may name ``sentence1_<lang>`` and
      ``sentence2_<lang>`` per language instead; each row then gives one pair per language.

    With ``format=None`` the format is detected from the first lines. A UTF-8 BOM and CRLF line
    ends are fine. A row that cannot be used (missing fields, empty sentence, a score that is not a
    number or lies outside 0-5, an unknown split) is counted in `LoadResult.malformed` with a
    reason such as ``"line 4: score 7 is outside 0-5"``, never an exception. A file with no usable
    row, an empty, binary or non-UTF-8 file, or one in neither format raises ValueError.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "pairs.tsv")
    ...     _ = open(path, "w", encoding="utf-8").write("1\\t猫在睡\\t2\\t小猫睡了\\t4\\nbad\\n")
    ...     result = load_sts_file(path)
    >>> result.format, result.pairs[0].score, result.pairs[0].lang, result.malformed
    ('chinese-sts', 4.0, 'zh', 1)
    >>> result.problems
    ('line 2: expected 5 tab-separated fields, found 1',)
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ValueError(f"Cannot read {path}: {err.strerror or err}.") from err
    return load_sts_bytes(data, path.name, format)
