"""Built-in corpora and STS data, and the STS file loader."""

from __future__ import annotations

import doctest
from collections import Counter

import pytest

from explorer_core.inputs import datasets, sts_format
from explorer_core.inputs.datasets import (
    SentencePair,
    builtin_corpus,
    builtin_sts_pairs,
    corpus_paragraphs,
    load_sts_bytes,
    load_sts_file,
    split_pairs,
)
from explorer_core.tokenization.base import is_cjk


def test_doctests() -> None:
    assert doctest.testmod(datasets).failed == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_builtin_corpus_is_large_running_text(lang: str) -> None:
    text = builtin_corpus(lang)
    size = len(text.encode("utf-8"))
    assert 25_000 <= size <= 40_000
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) >= 300
    # one sentence or short paragraph per line: no giant lines
    assert max(len(line) for line in lines) < 300
    assert len(corpus_paragraphs(text)) >= 20


def test_chinese_corpus_is_mostly_chinese() -> None:
    text = builtin_corpus("zh")
    han = sum(is_cjk(ch) for ch in text)
    assert han / len(text) > 0.8


def test_mixed_interleaves_both_corpora() -> None:
    en = corpus_paragraphs(builtin_corpus("en"))
    zh = corpus_paragraphs(builtin_corpus("zh"))
    mixed = corpus_paragraphs(builtin_corpus("mixed"))
    assert sorted(mixed) == sorted(en + zh)
    assert mixed[:4] == [en[0], zh[0], en[1], zh[1]]


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="choose one of en, zh, mixed"):
        builtin_corpus("english")


def test_corpus_paragraphs_splits_on_blank_lines() -> None:
    assert corpus_paragraphs("x\ny\n  \nz") == ["x\ny", "z"]
    assert corpus_paragraphs("") == []


# --- STS files -------------------------------------------------------------------------------


def _write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_bytes(content.encode("utf-8"))
    else:
        path.write_bytes(content)
    return path


def test_sts_format_doctests() -> None:
    assert doctest.testmod(sts_format).failed == 0


def test_chinese_sts_format(tmp_path) -> None:
    path = _write(
        tmp_path,
        "simtrain_to05sts.txt",
        "1\t一个女人在跳舞。\t2\t一个女人在跳舞。\t5.0\n"
        "3\t一个男人在弹吉他。\t4\t一个人在切洋葱。\t0\n",
    )
    result = load_sts_file(path)
    assert result.format == "chinese-sts"
    assert result.malformed == 0
    assert result.pairs == (
        SentencePair("一个女人在跳舞。", "一个女人在跳舞。", 5.0, None, "zh"),
        SentencePair("一个男人在弹吉他。", "一个人在切洋葱。", 0.0, None, "zh"),
    )
    assert not result.has_splits


def test_table_tsv_with_split_column_and_extra_columns(tmp_path) -> None:
    path = _write(
        tmp_path,
        "pairs.tsv",
        "id\tsentence1\tgenre\tsentence2\tscore\tsplit\n"
        '7\t"Hi," he said.\tnews\tHe greeted us.\t3.5\ttrain\n'
        "8\tA cat sleeps.\tnews\tA cat naps.\t4.8\tvalidation\n"
        "9\tRain today.\tnews\tSun today.\t1\ttest\n",
    )
    result = load_sts_file(path)
    assert result.format == "table"
    # TSV fields are literal: the quotes belong to the sentence
    assert result.pairs[0] == SentencePair('"Hi," he said.', "He greeted us.", 3.5, "train", "en")
    assert [p.split for p in result.pairs] == ["train", "dev", "test"]
    assert [len(result.split(s)) for s in ("train", "dev", "test")] == [1, 1, 1]


def test_csv_with_quoted_commas_bom_and_crlf(tmp_path) -> None:
    text = (
        "sentence1,sentence2,score\r\n"
        '"Well, it rains.","It is raining, I think.",4.2\r\n'
        '"She said ""no"", twice.",She refused.,3\r\n'
    )
    path = _write(tmp_path, "pairs.csv", b"\xef\xbb\xbf" + text.encode("utf-8"))
    result = load_sts_file(path)
    assert result.format == "table"
    assert result.malformed == 0
    assert result.pairs[0].sentence1 == "Well, it rains."
    assert result.pairs[0].sentence2 == "It is raining, I think."
    assert result.pairs[1].sentence1 == 'She said "no", twice.'
    assert result.pairs[1].score == 3.0


def test_bilingual_table_gives_one_pair_per_language(tmp_path) -> None:
    path = _write(
        tmp_path,
        "bi.tsv",
        "split\tscore\tsentence1_en\tsentence2_en\tsentence1_zh\tsentence2_zh\n"
        "train\t4.4\tTwo trains.\tA pair of trains.\t两列火车。\t一对火车。\n"
        "dev\t1\tA cat.\tA car.\t一只猫。\n",  # the Chinese pair of this row is cut short
    )
    result = load_sts_file(path)
    assert [(p.lang, p.split, p.score) for p in result.pairs] == [
        ("en", "train", 4.4),
        ("zh", "train", 4.4),
        ("en", "dev", 1.0),
    ]
    assert result.pairs[1].sentence2 == "一对火车。"
    assert result.problems == ("line 3: expected at least 6 columns, found 5",)
    with pytest.raises(ValueError, match="neither supported format"):
        load_sts_bytes(b"score\tsentence1_en\tsentence2_zh\n3\ta\tb\n")


def test_crlf_chinese_sts(tmp_path) -> None:
    path = _write(tmp_path, "a.txt", "1\t天晴了\t2\t太阳出来了\t4\r\n3\t下雨\t4\t天晴\t1\r\n")
    result = load_sts_file(path)
    assert [p.score for p in result.pairs] == [4.0, 1.0]
    assert result.pairs[0].sentence2 == "太阳出来了"


def test_malformed_rows_are_counted_with_reasons(tmp_path) -> None:
    path = _write(
        tmp_path,
        "pairs.tsv",
        "sentence1\tsentence2\tscore\tsplit\n"
        "good one\tgood two\t2.5\ttrain\n"  # line 2: fine
        "only one field\n"  # line 3
        "a\tb\thigh\ttrain\n"  # line 4
        "a\tb\t7\ttrain\n"  # line 5
        "a\tb\t-0.5\ttrain\n"  # line 6
        "\tb\t3\ttrain\n"  # line 7
        "a\tb\tnan\ttrain\n"  # line 8
        "\n"  # blank lines are skipped, not malformed
        "a\tb\t3\tholdout\n",  # line 10
    )
    result = load_sts_file(path)
    assert len(result.pairs) == 1
    assert result.malformed == 7
    assert result.problems == (
        "line 3: expected at least 3 columns, found 1",
        "line 4: score 'high' is not a number",
        "line 5: score 7 is outside 0-5",
        "line 6: score -0.5 is outside 0-5",
        "line 7: sentence1 is empty",
    )  # only the first few reasons are kept


def test_chinese_sts_malformed_field_count(tmp_path) -> None:
    path = _write(
        tmp_path, "a.txt", "1\t好\t2\t很好\t4\n1\t好\t2\t很好\n1\t好\t2\t很好\t4\textra\n"
    )
    result = load_sts_file(path)
    assert result.malformed == 2
    assert result.problems[0] == "line 2: expected 5 tab-separated fields, found 4"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "is empty"),
        ("\n  \n", "is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
        (b"sentence1,sentence2,score\nfa\xe7ade,front,5\n", "not UTF-8"),
        ("hello world\nthis is prose\n", "neither supported format"),
        ("sentence1\tsentence2\tscore\n", "no usable sentence pair"),
        ("sentence1\tsentence2\tscore\na\tb\tx\n", "no usable sentence pair.*line 2"),
    ],
)
def test_unusable_files_raise_a_clear_value_error(tmp_path, content, message) -> None:
    path = _write(tmp_path, "bad.txt", content)
    with pytest.raises(ValueError, match=message):
        load_sts_file(path)


def test_missing_file_and_unknown_format(tmp_path) -> None:
    with pytest.raises(ValueError, match="Cannot read"):
        load_sts_file(tmp_path / "nope.tsv")
    with pytest.raises(ValueError, match="choose one of chinese-sts, table"):
        load_sts_bytes(b"x", format="json")


def test_forced_format(tmp_path) -> None:
    data = b"1\ta\t2\tb\t3\n"
    assert load_sts_bytes(data, format="chinese-sts").pairs[0].score == 3.0
    with pytest.raises(ValueError, match="no header naming"):
        load_sts_bytes(data, format="table")


def test_oversized_csv_field_is_malformed_not_a_crash() -> None:
    data = ('sentence1,sentence2,score\n"' + "x" * 200_000 + '",b,1\na,b,2\n').encode()
    result = load_sts_bytes(data)
    assert result.malformed == 1
    assert [p.score for p in result.pairs] == [2.0]


def _bucket(score: float) -> str:
    return "4-5" if score >= 4 else "2-3.5" if score >= 2 else "1-2" if score >= 0.8 else "0-0.5"


def test_builtin_sts_pairs_are_balanced_and_split_without_leaks() -> None:
    pairs = builtin_sts_pairs()
    assert len(pairs) >= 400
    langs = Counter(p.lang for p in pairs)
    assert abs(langs["en"] - langs["zh"]) <= 5
    splits = Counter(p.split for p in pairs)
    assert 0.65 <= splits["train"] / len(pairs) <= 0.75
    for name in ("dev", "test"):
        assert 0.12 <= splits[name] / len(pairs) <= 0.18
    # stratified: every split holds every score range in both languages
    cells = Counter((p.split, p.lang, _bucket(p.score)) for p in pairs)
    for split in ("train", "dev", "test"):
        for lang in ("en", "zh"):
            for bucket in ("4-5", "2-3.5", "1-2", "0-0.5"):
                assert cells[(split, lang, bucket)] >= 5, (split, lang, bucket)
    # no sentence appears in two splits
    seen: dict[str, str] = {}
    for p in pairs:
        for s in (p.sentence1, p.sentence2):
            assert seen.setdefault(s, p.split) == p.split, s
    assert len({(p.sentence1, p.sentence2) for p in pairs}) == len(pairs)


def test_builtin_chinese_pairs_are_chinese() -> None:
    for p in builtin_sts_pairs():
        assert p.lang == sts_format.guess_lang(p.sentence1 + p.sentence2)


def test_split_pairs_is_deterministic_and_keeps_given_splits() -> None:
    loose = [SentencePair(f"a{i}", f"b{i}", i % 6) for i in range(40)]
    fixed = [SentencePair("x", "y", 1.0, "test")]
    parts = split_pairs(loose + fixed, seed=3, dev_fraction=0.25)
    assert [len(parts[s]) for s in ("train", "dev", "test")] == [30, 10, 1]
    assert parts == split_pairs(loose + fixed, seed=3, dev_fraction=0.25)
    assert parts != split_pairs(loose + fixed, seed=4, dev_fraction=0.25)
    assert {p.split for p in parts["dev"]} == {"dev"}
    moved = {(p.sentence1, p.sentence2) for s in ("train", "dev") for p in parts[s]}
    assert moved == {(p.sentence1, p.sentence2) for p in loose}
    assert len(split_pairs(loose[:2], dev_fraction=0.1)["dev"]) == 1
    with pytest.raises(ValueError, match="dev_fraction"):
        split_pairs(loose, dev_fraction=1.0)
