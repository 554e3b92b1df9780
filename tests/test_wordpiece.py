"""WordPiece: the score-based trainer, greedy longest-match encoding, and exact BERT parity.

Parity references: transformers' `BertTokenizer(vocab=path)` on the real MiniLM (bert-base-uncased)
vocabulary, the packaged MiniLM tokenizer.json, and `tokenizers`' BertNormalizer/BertPreTokenizer.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import normalizers, pre_tokenizers

from explorer_core.tokenization import load_tokenizer
from explorer_core.tokenization.bert_basic import basic_tokenize, normalize, pre_tokenize
from explorer_core.tokenization.bert_unicode import CONTROL_FLIPS, MARK_FLIPS, PUNCT_FLIPS
from explorer_core.tokenization.wordpiece import WordPieceTokenizer
from explorer_core.tokenization.wordpiece_trainer import train_wordpiece

TEXTS = [
    "Hello, World!",
    "Héllo naïve café ÉCOLE Ångström",
    "我爱北京天安门。自然语言处理很有趣！",
    "emoji 😀👍🏽 ok 🇫🇷",
    "a" * 150,
    "b" * 100,
    "12,345.67 numbers 3.14 2024-01-01",
    "MiXeD CaSe WoRdS iPhone",
    "  spaces\t\ttabs\nnewlines  \r\n",
    "",
    " ",
    "[CLS] hi [SEP] there [MASK] [mask] [UNK]",
    "ΟΔΟΣ Σ σ ς İstanbul ß ﬁ Ⅻ",
    "don't stop-believing (really) [ok] {x} <y>",
    "\u00a0nbsp\u2028line\x00nul\ufffd\u200bzw",
    "unaffable antidisestablishmentarianism supercalifragilistic",
    "e\u0301 combining a\u0308 o\u0323\u0302",
    "混合 mixed 文本 text, with 中文 punctuation：“引号”",
    "\U0002b825x\U0002b925 rare CJK 𠀀",
]


@pytest.fixture(scope="module")
def vocab_path(minilm_dir):
    return minilm_dir / "vocab.txt"


def test_textbook_first_merge_breaks_the_score_tie_by_count():
    """Every pair of "hug"x10 "pug"x5 "pun"x12 "bun"x4 scores 1/31 (e.g. (p, ##u): 17/(17·31));
    the documented tie-break picks the pair seen most often, (p, ##u) with 17."""
    _, steps = train_wordpiece({"hug": 10, "pug": 5, "pun": 12, "bun": 4}, 3)
    first = steps[0]
    assert (first.left, first.right, first.merged) == ("p", "##u", "pu")
    assert (first.pair_count, first.left_count, first.right_count) == (17, 17, 31)
    assert first.score == pytest.approx(1 / 31)


def _textbook(words: dict[str, int], merges: int) -> list[tuple[str, str]]:
    """Recount every pair and symbol at every step: slow, obviously right, same tie-break."""
    split = {w: [w[0]] + ["##" + c for c in w[1:]] for w in words}
    out = []
    for _ in range(merges):
        pairs, symbols = Counter(), Counter()
        for w, syms in split.items():
            for s in syms:
                symbols[s] += words[w]
            for pair in itertools.pairwise(syms):
                pairs[pair] += words[w]
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p] / (symbols[p[0]] * symbols[p[1]]), -pairs[p], p))
        out.append(best)
        merged = best[0] + best[1].removeprefix("##")
        for w, syms in split.items():
            new, k = [], 0
            while k < len(syms):
                if tuple(syms[k : k + 2]) == best:
                    new.append(merged)
                    k += 2
                else:
                    new.append(syms[k])
                    k += 1
            split[w] = new
    return out


def test_incremental_trainer_equals_the_textbook_recount():
    text = "the cat sat on the mat with the hat that thin theme thought unthinkable " * 3
    words = Counter(text.split())
    _, steps = train_wordpiece(words, 40)
    assert [(s.left, s.right) for s in steps] == _textbook(dict(words), len(steps))
    for s in steps:
        assert s.score == pytest.approx(s.pair_count / (s.left_count * s.right_count))


def test_trained_vocab_layout():
    tok = WordPieceTokenizer()
    text = "the cat sat on the mat with the hat " * 5 + "that thin theme"
    tok.train(text, 40)
    assert tok.vocab_size == 40
    assert list(tok.vocab)[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert sorted(tok.vocab.values()) == list(range(40))
    tok.train(text, 500)  # every word became one piece before 500: training stops early
    assert tok.vocab_size < 500 and "theme" in tok.vocab


def test_greedy_longest_match_and_unk():
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4}
    vocab.update({"un": 5, "##aff": 6, "##able": 7, "a": 8, "unaff": 9, "##a": 10})
    tok = WordPieceTokenizer.from_dict({"vocab": vocab, "lowercase": True})
    # longest first: "unaff" beats "un" + "##aff"
    assert [t.text for t in tok.explain("Unaffable")] == ["unaff", "##able"]
    assert [t.text for t in tok.explain("ab")] == ["[UNK]"]  # "##b" missing: the whole word
    assert tok.encode("a" * 100) == [8] + [10] * 99
    assert tok.encode("a" * 101) == [1]  # longer than max_input_chars_per_word


def test_explain_spans_point_into_the_original_text():
    tok = WordPieceTokenizer.from_dict(
        {
            "vocab": {
                "[PAD]": 0,
                "[UNK]": 1,
                "[CLS]": 2,
                "[SEP]": 3,
                "[MASK]": 4,
                "cafe": 5,
                "!": 6,
                "你": 7,
            },
            "lowercase": True,
        }
    )
    text = "Café! 你 zz"
    tokens = tok.explain(text, add_special_tokens=True)
    assert [(t.text, text[t.start : t.end]) for t in tokens] == [
        ("[CLS]", ""),
        ("cafe", "Café"),
        ("!", "!"),
        ("你", "你"),
        ("[UNK]", "zz"),
        ("[SEP]", ""),
    ]


@pytest.mark.parametrize("lowercase", [True, False])
def test_from_vocab_matches_transformers_bert_tokenizer(vocab_path, lowercase):
    from transformers import BertTokenizer

    ours = WordPieceTokenizer.from_vocab(vocab_path, lowercase=lowercase)
    ref = BertTokenizer(vocab=str(vocab_path), do_lower_case=lowercase)
    rng = random.Random(0)
    noise = ["".join(chr(rng.randrange(32, 0x3000)) for _ in range(25)) for _ in range(200)]
    for text in TEXTS + noise:
        assert ours.encode(text) == ref.encode(text, add_special_tokens=False), text
        assert ours.encode(text, add_special_tokens=True) == ref.encode(text), text
    pair = ref("A man plays.", "Un homme joue de la guitare !")
    ids, types = ours.encode_pair("A man plays.", "Un homme joue de la guitare !")
    assert (ids, types) == (pair["input_ids"], pair["token_type_ids"])


def test_from_vocab_matches_the_packaged_minilm_tokenizer_json(minilm_dir):
    ours = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt")
    ref = HFTokenizer.from_file(str(minilm_dir / "tokenizer.json"))
    ref.no_truncation()
    ref.no_padding()
    for text in TEXTS:
        assert ours.encode(text, add_special_tokens=True) == ref.encode(text).ids, text


def test_real_vocab_round_trip_through_save_and_hf_json(vocab_path, tmp_path):
    ours = WordPieceTokenizer.from_vocab(vocab_path)
    assert ours.vocab_size == 30522 and ours.special_tokens["[CLS]"] == 101
    loaded = load_tokenizer(ours.save(tmp_path))
    hf = HFTokenizer.from_file(str(tmp_path / "tokenizer.json"))
    for text in TEXTS:
        assert loaded.encode(text) == ours.encode(text)
        assert hf.encode(text, add_special_tokens=False).ids == ours.encode(text)
    assert ours.decode(ours.encode("unaffable tokens"), skip_special_tokens=True) == (
        "unaffable tokens"
    )


def _flip_samples() -> list[str]:
    cps = {a for a, b in MARK_FLIPS + CONTROL_FLIPS + PUNCT_FLIPS} | {
        b for a, b in MARK_FLIPS + CONTROL_FLIPS + PUNCT_FLIPS
    }
    cps |= set(range(0, 0x3100)) | set(range(0xF8F0, 0xFB10)) | set(range(0x1F300, 0x1F700, 7))
    cps |= {0x2B81F, 0x2B820, 0x2B91F, 0x2B920}  # where the two BERT CJK tables disagree
    return [chr(c) for c in sorted(cps) if not 0xD800 <= c < 0xE000]


@pytest.mark.parametrize("lowercase", [True, False])
def test_basic_tokenization_equals_tokenizers_per_character(lowercase):
    """Our Python port agrees with the Rust BertNormalizer + BertPreTokenizer character by
    character, including where Python's newer Unicode tables would disagree (the flip tables)."""
    norm = normalizers.BertNormalizer(lowercase=lowercase, handle_chinese_chars=True)
    pre = pre_tokenizers.BertPreTokenizer()
    for char in _flip_samples():
        text = "a" + char + "b"
        normalized = "".join(c for c, _ in normalize(text, lowercase=lowercase))
        assert normalized == norm.normalize_str(text), hex(ord(char))
        words = [w for w, _, _ in pre_tokenize([(c, i) for i, c in enumerate(normalized)])]
        assert words == [w for w, _ in pre.pre_tokenize_str(normalized)], hex(ord(char))


def test_basic_tokenize_keeps_offsets():
    assert basic_tokenize("Héllo, 世界!", lowercase=True) == [
        ("hello", 0, 5),
        (",", 5, 6),
        ("世", 7, 8),
        ("界", 8, 9),
        ("!", 9, 10),
    ]


def test_trained_tokenizer_matches_its_tokenizer_json(tmp_path):
    tok = WordPieceTokenizer(lowercase=False)
    tok.train("Tokenizers cut text into pieces. 分词器把文本切成词元。" * 3, 120)
    hf = HFTokenizer.from_str(tok.to_hf_json())
    for text in TEXTS:
        assert hf.encode(text, add_special_tokens=False).ids == tok.encode(text), text
        assert hf.encode(text).ids == tok.encode(text, add_special_tokens=True), text


def test_bad_input_gives_a_sentence():
    with pytest.raises(ValueError, match="at least"):
        WordPieceTokenizer().train("abc def", 6)
    with pytest.raises(ValueError, match="no words"):
        WordPieceTokenizer().train("   ", 100)
    with pytest.raises(ValueError, match="Cannot read"):
        WordPieceTokenizer.from_vocab("/nonexistent/vocab.txt")
