"""The class store's pure helpers: nickname cleaning, room codes, the experiment's cycle, follow
targets, and the join link's QR code. No database here (tests/test_classroom_store.py has it)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import segno

from explorer_core.classroom import ClassError, clean_nickname, join_link, qr_svg
from explorer_core.classroom.records import (
    CODE_ALPHABET,
    check_target,
    combinations,
    new_code,
    to_json,
)


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("Ada", "Ada"),
        ("  Ada   Lovelace  ", "Ada Lovelace"),
        ("A\u200bd\u200ca\u200d", "Ada"),  # zero-width space, non-joiner, joiner
        ("\ufeffBOM", "BOM"),  # byte order mark (Cf)
        ("evil\u202eusr", "evilusr"),  # right-to-left override (Cf): no reversed names
        ("bell\x07\x00", "bell"),  # control characters (Cc)
        ("two\u2028lines\u2029here", "two lines here"),  # line and paragraph separators
        ("Cafe\u0301", "Caf\u00e9"),  # NFC: e + combining accent -> é
        ("名字 😀", "名字 😀"),
        ("<img src=x onerror=f(1)>", "<img src=x onerror=f(1)>"),  # literal, not mangled
        ("x" * 30, "x" * 24),
        ("a" * 23 + " b", "a" * 23),  # cut at 24, then stripped
    ],
)
def test_nicknames_are_cleaned(typed, shown):
    assert clean_nickname(typed) == shown


@pytest.mark.parametrize("typed", ["", "   ", "\u200b\u200d", "\x00\x1f", "\u2028\t"])
def test_an_empty_nickname_is_refused_with_a_sentence(typed):
    with pytest.raises(ClassError) as caught:
        clean_nickname(typed)
    assert caught.value.kind == "nickname" and str(caught.value).endswith(".")


def test_codes_use_the_unambiguous_alphabet():
    codes = {new_code() for _ in range(200)}
    assert len(codes) > 190  # random, 31**5 possibilities
    assert all(re.fullmatch(f"[{CODE_ALPHABET}]{{5}}", c) for c in codes)
    assert not set("IL10O") & set(CODE_ALPHABET)


def test_the_experiment_cycles_algorithm_major():
    cycle = combinations(["bpe", "unigram"], [100, 1000])
    assert [(c.algorithm, c.vocab_size) for c in cycle] == [
        ("bpe", 100),
        ("bpe", 1000),
        ("unigram", 100),
        ("unigram", 1000),
    ]
    assert [c.vocab_size for c in combinations(["bpe"], [])] == [None]  # the student's choice
    for sizes in ([0], [-5], [1.5], [True]):
        with pytest.raises(ClassError):
            combinations(["bpe"], sizes)


@pytest.mark.parametrize(
    ("target", "kept"),
    [
        ("attention?layer=2&head=3", "attention?layer=2&head=3"),
        ("/embed_tokens", "embed_tokens"),
        ("", ""),  # the home page
        ("lesson?text=caf%C3%A9", "lesson?text=caf%C3%A9"),
    ],
)
def test_follow_targets_inside_the_app_are_kept(target, kept):
    assert check_target(target) == kept


@pytest.mark.parametrize(
    "target",
    ["http://evil.example/", "//evil.example", "javascript:alert(1)", "a\\b", "a\nb", "x" * 501],
)
def test_follow_targets_elsewhere_are_refused(target):
    with pytest.raises(ClassError) as caught:
        check_target(target)
    assert caught.value.kind == "input"


def test_payloads_must_be_small_json_objects():
    assert to_json({"é": 1}, 100, "A poll") == '{"é":1}'
    for bad in ([1, 2], {"x": object()}, {"x": float("nan")}, {"x": "y" * 200}):
        with pytest.raises(ClassError) as caught:
            to_json(bad, 100, "A poll")
        assert caught.value.kind == "input"


def test_the_join_qr_code_is_dark_on_white_with_a_quiet_zone():
    link = join_link("http://192.168.1.20:8501/", "abc23")
    assert link == "http://192.168.1.20:8501/class?code=ABC23"
    svg = qr_svg(link, scale=6)
    root = ET.fromstring(svg)
    modules = segno.make(link, error="m").symbol_size(scale=1, border=0)[0]
    assert int(root.get("width")) == int(root.get("height")) == (modules + 2 * 4) * 6
    assert 'fill="#fff"' in svg and 'stroke="#000"' in svg
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # no remote resource
    with pytest.raises(ValueError):
        qr_svg(link, scale=0)
