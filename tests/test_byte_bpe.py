"""Byte-level BPE: the textbook example, merges equal to Hugging Face's, lossless round trips."""

from __future__ import annotations

import json
import os
import random

import pytest

from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import load_tokenizer
from explorer_core.tokenization.base import display_bytes
from explorer_core.tokenization.byte_bpe import BYTE_TO_UNICODE, ByteBPETokenizer
from explorer_core.tokenization.pretokenize import pretokenize

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

TEXTBOOK = "hi! This apple belongs to him"
AWKWARD = [
    "",
    "a",
    "你",
    "😀",
    "👩‍👩‍👧 family",
    "e\u0301 cafe\u0301 n\u0303",
    "   spaces   and\ttabs\t\t\nnewlines\n\n\n",
    "\r\n\x00\x7f",
    "中文 mixed with English, 数字 123 and ¥€£!",
    "I'm here, you'll see; it's 'quoted'.",
]
TIE_TEXT = "ab ab cd cd ef ef gh gh ij ij kl kl mn mn op op"


def test_textbook_example():
    """'hi' occurs in "hi", " This" and " him": (104, 105) has count 3, more than any other pair,
    so it becomes 256 and every 'h','i' inside a chunk is replaced."""
    assert pretokenize(TEXTBOOK) == ["hi", "!", " This", " apple", " belongs", " to", " him"]
    tok = ByteBPETokenizer()
    first = tok.train(TEXTBOOK, 257)[0]
    assert (first.rank, first.left, first.right, first.new_id, first.count) == (0, 104, 105, 256, 3)
    assert (first.left_bytes, first.right_bytes) == (b"h", b"i")
    assert tok.chunk_ids(TEXTBOOK, steps=1) == [
        [256], [33], [32, 84, 256, 115], [32, 97, 112, 112, 108, 101],
        [32, 98, 101, 108, 111, 110, 103, 115], [32, 116, 111], [32, 256, 109],
    ]  # fmt: skip


def hf_train(text: str, vocab_size: int):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )  # fmt: skip
    hf.train_from_iterator([text], trainer)
    return hf


def merge_strings(tok: ByteBPETokenizer) -> list[list[str]]:
    gpt2 = lambda raw: "".join(BYTE_TO_UNICODE[b] for b in raw)  # noqa: E731
    return [[gpt2(m.left_bytes), gpt2(m.right_bytes)] for m in tok.merges]


def hf_merges(hf) -> list[list[str]]:
    merges = json.loads(hf.to_str())["model"]["merges"]
    return [m if isinstance(m, list) else m.split(" ") for m in merges]


CORPORA = {
    "english": lambda: builtin_corpus("en")[:12_000],
    "chinese": lambda: builtin_corpus("zh")[:4_000],
    "mixed": lambda: builtin_corpus("en")[:3_000] + builtin_corpus("zh")[:2_000],
    "emoji": lambda: "😀😀 😃😀 I ❤️ tea 🍵🍵, 你好😀! " * 20,
    "ties": lambda: TIE_TEXT,
}


@pytest.mark.parametrize("name", list(CORPORA))
@pytest.mark.parametrize("vocab_size", [260, 300, 700])
def test_merges_equal_hugging_face(name, vocab_size):
    text = CORPORA[name]()
    tok = ByteBPETokenizer()
    tok.train(text, vocab_size)
    hf = hf_train(text, vocab_size)
    assert merge_strings(tok) == hf_merges(hf)
    hf_vocab = hf.get_vocab()
    assert set(tok.vocab) == set(hf_vocab)  # same strings; merged tokens also get the same ids
    assert {s: i for s, i in tok.vocab.items() if i >= 256} == {
        s: i for s, i in hf_vocab.items() if i >= 256
    }


def test_tokenizer_json_encodes_the_same_ids(tmp_path):
    from tokenizers import Tokenizer as HFTokenizer

    tok = ByteBPETokenizer()
    tok.train(CORPORA["mixed"](), 600)
    folder = tok.save(tmp_path / "tok")
    hf = HFTokenizer.from_file(str(folder / "tokenizer.json"))
    for text in AWKWARD + [CORPORA["mixed"]()[:500]]:
        ids = tok.encode(text)
        assert hf.encode(text).ids == ids, text
        assert hf.decode(ids) == text
    again = load_tokenizer(folder)
    assert isinstance(again, ByteBPETokenizer)
    assert again.merges == tok.merges
    assert again.encode(AWKWARD[-2]) == tok.encode(AWKWARD[-2])


@pytest.fixture(scope="module")
def mixed_tok() -> ByteBPETokenizer:
    tok = ByteBPETokenizer()
    tok.train(CORPORA["mixed"](), 500)
    return tok


@pytest.mark.parametrize("text", AWKWARD)
def test_round_trip(mixed_tok, text):
    ids = mixed_tok.encode(text)
    assert mixed_tok.decode(ids) == text
    tokens = mixed_tok.explain(text)
    assert [t.id for t in tokens] == ids
    assert b"".join(t.raw for t in tokens) == text.encode("utf-8")
    assert all(0 <= t.start < t.end <= len(text) for t in tokens)


def test_training_is_deterministic():
    text = CORPORA["mixed"]()
    a, b = ByteBPETokenizer(), ByteBPETokenizer()
    assert a.train(text, 400) == b.train(text, 400)
    assert a.candidates(10) == b.candidates(10)


def test_chunk_ids_after_k_merges(mixed_tok):
    text = "the tokenizer 分词器 works"
    k_max = len(mixed_tok.merges)
    assert mixed_tok.chunk_ids(text, steps=0) == [list(c.encode()) for c in pretokenize(text)]
    lengths = [sum(map(len, mixed_tok.chunk_ids(text, steps=k))) for k in (0, 10, 100, k_max)]
    assert lengths == sorted(lengths, reverse=True) and lengths[0] > lengths[-1]
    assert sum(mixed_tok.chunk_ids(text, steps=k_max), []) == mixed_tok.encode(text)
    with pytest.raises(ValueError, match="between 0 and"):
        mixed_tok.chunk_ids(text, steps=k_max + 1)


def test_candidates_explain_each_step(mixed_tok):
    for k in (0, 5, 50):
        rows = mixed_tok.candidates(k)
        merge = mixed_tok.merges[k]
        assert (rows[0].left, rows[0].right, rows[0].count) == (
            merge.left,
            merge.right,
            merge.count,
        )
        assert all(r.count <= rows[0].count for r in rows)
        assert len({(r.left, r.right) for r in rows}) == len(rows) == 5


def test_training_stats_match_the_encoded_corpus(mixed_tok):
    text = CORPORA["mixed"]()
    curve = mixed_tok.stats.tokens_after()
    assert len(curve) == len(mixed_tok.merges) + 1
    assert sum(curve[0]) == len(text.encode("utf-8"))
    assert sum(curve[-1]) == len(mixed_tok.encode(text))
    assert sum(mixed_tok.stats.chars) == len(text)


def test_partial_characters_are_shown_as_bytes():
    """At k = 0 "你" (e4 bd a0) is three byte tokens; none is shown as a replacement character."""
    tok = ByteBPETokenizer()
    tok.train("你好 你们 你" * 5, 300)
    tokens = tok.explain("你", steps=0)
    assert [t.display for t in tokens] == ["⟨e4⟩…", "⟨bd⟩…", "⟨a0⟩…"]
    assert all(t.start == 0 and t.end == 1 for t in tokens)
    partial = [m for m in tok.merges if display_bytes(m.new_bytes).endswith("…")]
    assert partial and "\ufffd" not in tok.token_display(partial[0].new_id)


def test_bad_input():
    tok = ByteBPETokenizer()
    with pytest.raises(ValueError, match="at least 256"):
        tok.train("abc", 255)
    with pytest.raises(ValueError, match="empty"):
        tok.train("", 300)
    with pytest.raises(ValueError, match="not in the vocabulary"):
        tok.decode([300])
    with pytest.raises(ValueError, match="byte-level BPE"):
        ByteBPETokenizer.from_dict({"merges": "nonsense"})


@pytest.mark.parametrize("seed", range(25))
def test_merges_equal_hugging_face_on_random_tie_heavy_text(seed):
    """Short words over a two- or three-letter alphabet: nearly every step is a tie, and training
    runs until no pair is left. Our tie-break (HF's byte numbering) gives HF's merges, in order."""
    rng = random.Random(seed)
    letters = "ab" if seed % 2 else "abc"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 12))) for _ in range(40)]
    text = " ".join(words)
    tok = ByteBPETokenizer()
    tok.train(text, 420)
    assert merge_strings(tok) == hf_merges(hf_train(text, 420))


SPACES = " \t\n\r\x0b\x0c\x1c\x1d\x85\xa0\u2028\u3000"  # Unicode whitespace, odd ones too
AWKWARD = [*SPACES, *"aZ9é中。!-", "'s", "'ll", "🙂", "\u0301"]


@pytest.mark.parametrize("seed", range(3))
def test_chunk_counts_equal_counting_every_chunk(seed):
    """Training counts chunks per distinct whitespace-led segment (`chunk_counts`): the same
    counts as cutting the whole text, whatever the whitespace (Unicode separators, runs across
    lines, text that starts or ends with spaces), and the reordered pattern cuts the same chunks."""
    from collections import Counter

    from explorer_core.tokenization.pretokenize import CHUNK_REGEX, chunk_counts

    rng = random.Random(seed)
    words = ["".join(rng.choice(AWKWARD) for _ in range(rng.randint(0, 12))) for _ in range(60)]
    texts = [builtin_corpus("mixed"), builtin_corpus("en")]
    texts += ["".join(rng.choice(AWKWARD) for _ in range(rng.randint(0, 40))) for _ in range(500)]
    texts += [" ".join(rng.choice(words) for _ in range(300)) for _ in range(20)]  # repeats
    for text in texts:
        assert CHUNK_REGEX.findall(text) == pretokenize(text), repr(text)
        assert chunk_counts(text) == Counter(pretokenize(text)), repr(text)
