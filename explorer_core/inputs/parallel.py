"""Parallel sentences: a sentence and its translation, one pair per line, for distillation.

A parallel file is UTF-8 text with one pair per line, the source sentence (English) and its
translation separated by one TAB::

    A man is playing a guitar.<TAB>一个男人在弹吉他。

Blank lines and lines starting with ``#`` are skipped. Anything else that is not exactly two
non-empty fields is an error that names the line, so a user can fix their file:

>>> parse_parallel("A cat.\\t一只猫。\\n\\n# comment\\nA dog.\\t一只狗。\\n")
[ParallelPair(source='A cat.', target='一只猫。'), ParallelPair(source='A dog.', target='一只狗。')]
>>> parse_parallel("A cat. 一只猫。")
Traceback (most recent call last):
...
ValueError: line 1: expected English<TAB>translation, found no TAB

The project ships its own pairs (`builtin_parallel_pairs`): English and simplified Chinese, written
for Embedding Explorer under the project's licence.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

BUILTIN_FILE = "parallel_en_zh.tsv"
MAX_LINE_CHARS = 2000  # a longer line is almost surely not one sentence pair


@dataclass(frozen=True)
class ParallelPair:
    source: str  # the sentence the teacher reads (English)
    target: str  # its translation, which the student must place on the same vector


def _parse_line(line: str, number: int) -> ParallelPair:
    if len(line) > MAX_LINE_CHARS:
        raise ValueError(f"line {number}: longer than {MAX_LINE_CHARS} characters")
    fields = line.split("\t")
    if len(fields) == 1:
        raise ValueError(f"line {number}: expected English<TAB>translation, found no TAB")
    if len(fields) > 2:
        raise ValueError(f"line {number}: expected 2 TAB-separated fields, found {len(fields)}")
    source, target = (f.strip() for f in fields)
    if not source or not target:
        side = "English sentence" if not source else "translation"
        raise ValueError(f"line {number}: the {side} is empty")
    return ParallelPair(source, target)


def parse_parallel(text: str) -> list[ParallelPair]:
    """Pairs of a parallel file's text; ValueError naming the first bad line (or an empty file)."""
    pairs = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip("\r\n\ufeff")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs.append(_parse_line(line, number))
    if not pairs:
        raise ValueError("the file holds no sentence pairs (English<TAB>translation per line)")
    return pairs


def load_parallel_file(path: str | Path) -> list[ParallelPair]:
    """Read a parallel file (see the module docstring); errors say which file and line."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path} is not UTF-8 text (byte {err.start})") from err
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from err
    try:
        return parse_parallel(text)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from err


def builtin_parallel_pairs() -> list[ParallelPair]:
    """The project's own English-Chinese pairs (`explorer_core/resources/parallel_en_zh.tsv`)."""
    data = resources.files("explorer_core").joinpath("resources", BUILTIN_FILE).read_text("utf-8")
    return parse_parallel(data)
