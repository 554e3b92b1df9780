"""Real tokenizer.json files built offline, one per model family, for tests/test_hf_tokenizer_file*.

Each builder trains a tiny tokenizer with Hugging Face `tokenizers` (or SentencePiece, converted by
transformers' own converters, for a genuine Precompiled charsmap) on the built-in corpora and sets
it up as that family's real file is: normalizer, pre-tokenizer, added tokens and their switches,
post-processor template and decoder. `build(name, folder)` writes `folder/tokenizer.json`.
"""

from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path

from tokenizers import (
    AddedToken,
    Regex,
    Tokenizer,
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
    trainers,
)

ROOT = Path(__file__).resolve().parents[1]
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
ROBERTA_SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]

# every awkward input the pages may meet
AWKWARD = [
    "",
    "a",
    " ",
    "Hello, world! The quick brown fox.",
    "  leading and trailing spaces  ",
    "many     spaces\tand\ttabs\nand\n\nnewlines\r\n",
    "我爱北京天安门，天安门上太阳升。",
    "我 爱 北 京",
    "中文English混合mixed文本123",
    "👍 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 ❤️",
    "café naïve résumé Ünïcödé ÀÉÎÕÜ",
    "cafe\u0301 nai\u0308ve e\u0301\u0323 combining",
    "مرحبا بالعالم",
    "नमस्ते दुनिया",
    "x" * 120,
    "supercalifragilisticexpialidocious" * 4,
    "control\x00\x07\x1b\x7f chars \u200b zero\u200dwidth \ufeff bom",
    "The [MASK] sat on the mat. [CLS] [SEP] [PAD] [UNK]",
    "The <mask> sat. <s> </s> <pad> <unk> a<mask>b",
    "Ǆ ǅ ǆ İstanbul ΣΑΣ straße ﬁne ｆｕｌｌ",
    "don't I'm we're they've he'll 's",
    "1234567890 3.14159 1,000,000",
    "``quoted'' text",
    "\u3000ideographic\u3000space\u2028line\u2029para",
    "tab\tonly",
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年" * 50,  # one long chunk
]

PAIR = "And a second sentence, 第二句 [SEP] <mask>."


@lru_cache(maxsize=1)
def corpus_lines() -> tuple[str, ...]:
    folder = ROOT / "explorer_core" / "resources"
    text = (folder / "corpus_en.txt").read_text("utf-8") + "\n"
    text += (folder / "corpus_zh.txt").read_text("utf-8")
    extra = "café naïve résumé Ünïcödé مرحبا بالعالم नमस्ते दुनिया 👍 ❤️ straße İstanbul"
    return tuple(line for line in text.splitlines() if line.strip()) + (extra,)


def _wordpiece(lowercase: bool, strip_accents: bool | None, chinese: bool) -> Tokenizer:
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=chinese, strip_accents=strip_accents,
        lowercase=lowercase,
    )  # fmt: skip
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(
        vocab_size=1200, special_tokens=BERT_SPECIALS, show_progress=False
    )
    tok.train_from_iterator(corpus_lines(), trainer)
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0",
        pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    tok.decoder = decoders.WordPiece(prefix="##")
    return tok


def _byte_bpe(specials: list[str], mask: str) -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=900,
        special_tokens=specials,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(corpus_lines(), trainer)
    tok.add_special_tokens([AddedToken(mask, lstrip=True, rstrip=False, normalized=False)])
    tok.decoder = decoders.ByteLevel()
    return tok


def roberta() -> Tokenizer:
    """RoBERTa: byte-level BPE, no prefix space, <mask> swallows the space before it."""
    tok = _byte_bpe(ROBERTA_SPECIALS, "<mask>")
    tok.post_processor = processors.RobertaProcessing(
        ("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>")),
        trim_offsets=True, add_prefix_space=False,
    )  # fmt: skip
    return tok


def modernbert() -> Tokenizer:
    """ModernBERT-like: NFC, byte-level BPE, [CLS] A [SEP] B [SEP] template, non-special added
    tokens for space runs (normalized, as OLMo's vocabulary has them)."""
    tok = _byte_bpe(["<|endoftext|>", "[UNK]", "[CLS]", "[SEP]", "[PAD]"], "[MASK]")
    tok.normalizer = normalizers.NFC()
    tok.add_tokens([AddedToken("   ", normalized=True), AddedToken("\t\t", normalized=True)])
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(
            single="[CLS]:0 $A:0 [SEP]:0", pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
            special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
        ),
    ])  # fmt: skip
    return tok


def _unigram(normalizer, prepend_scheme: str) -> Tokenizer:
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme=prepend_scheme)
    trainer = trainers.UnigramTrainer(
        vocab_size=1500, special_tokens=ROBERTA_SPECIALS, unk_token="<unk>", show_progress=False
    )
    tok.train_from_iterator(corpus_lines(), trainer)
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, normalized=False)])
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", tok.token_to_id("<s>")), ("</s>", tok.token_to_id("</s>"))],
    )  # fmt: skip
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme=prepend_scheme)
    return tok


def unigram_nfkc_first() -> Tokenizer:
    """XLM-R-like Unigram with an NFKC + space-run Sequence (no charsmap), prepend_scheme first."""
    normalizer = normalizers.Sequence([
        normalizers.NFKC(), normalizers.Strip(left=False, right=True),
        normalizers.Replace(Regex(" {2,}"), "▁"),
    ])  # fmt: skip
    return _unigram(normalizer, "first")


def unigram_nmt_always() -> Tokenizer:
    """Unigram whose normalizer is Nmt then NFKC: Nmt is not ours, so `tokenizers` runs it."""
    return _unigram(normalizers.Sequence([normalizers.Nmt(), normalizers.NFKC()]), "always")


_SPM_LAYOUTS = {  # XLM-R's own model: <unk> <s> </s> first (fairseq shifts them); ALBERT's ids
    "xlmr": {"unk_id": 0, "bos_id": 1, "eos_id": 2, "pad_id": -1},
    "albert": {"pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3, "pad_piece": "<pad>",
               "bos_piece": "[CLS]", "eos_piece": "[SEP]", "user_defined_symbols": ["[MASK]"]},
}  # fmt: skip


@lru_cache(maxsize=2)
def sentencepiece_model(layout: str) -> bytes:
    """A tiny SentencePiece unigram model (with its NFKC-based charsmap) with XLM-R's or
    ALBERT's special pieces."""
    import sentencepiece as spm

    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus_lines()), model_writer=out, vocab_size=1500,
        model_type="unigram", character_coverage=0.98, minloglevel=2, **_SPM_LAYOUTS[layout],
    )  # fmt: skip
    return out.getvalue()


class _SlowStub:
    """What transformers' converters read from a slow tokenizer."""

    def __init__(self, path: Path, ids: dict[str, int], **switches) -> None:
        self.vocab_file, self._ids = str(path), ids
        self.legacy, self.keep_accents, self.do_lower_case = True, False, True
        self.__dict__.update(switches)

    def convert_tokens_to_ids(self, token: str) -> int:
        return self._ids[token]


def _converted(name: str, folder: Path) -> Tokenizer:
    from transformers.convert_slow_tokenizer import AlbertConverter, XLMRobertaConverter

    path = folder / "spiece.model"
    path.write_bytes(sentencepiece_model(name.split("_")[0]))
    if name == "xlmr_precompiled":
        stub = _SlowStub(path, {"<s>": 0, "</s>": 2})
        tok = XLMRobertaConverter(stub).converted()
        tok.add_special_tokens([AddedToken(t, special=True) for t in ROBERTA_SPECIALS])
        tok.add_special_tokens([AddedToken("<mask>", lstrip=True, normalized=False)])
        return tok
    stub = _SlowStub(path, {"[CLS]": 2, "[SEP]": 3})
    tok = AlbertConverter(stub).converted()
    specials = ["<pad>", "<unk>", "[CLS]", "[SEP]"]
    tok.add_special_tokens([AddedToken(t, special=True) for t in specials])
    tok.add_special_tokens([AddedToken("[MASK]", lstrip=True, normalized=False)])
    return tok


BUILDERS = {
    "bert_uncased": lambda: _wordpiece(True, None, True),
    "bert_cased": lambda: _wordpiece(False, None, True),
    "bert_chinese": lambda: _wordpiece(True, False, True),  # lower-cases, keeps accents
    "bert_strip_only": lambda: _wordpiece(False, True, False),
    "roberta": roberta,
    "modernbert": modernbert,
    "unigram_nfkc_first": unigram_nfkc_first,
    "unigram_nmt_always": unigram_nmt_always,
}
CONVERTED = ("xlmr_precompiled", "albert_precompiled")
NAMES = (*BUILDERS, *CONVERTED)


def build(name: str, folder: Path) -> Path:
    """Write the `name` family's tokenizer.json into `folder`; return the file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    tok = _converted(name, folder) if name in CONVERTED else BUILDERS[name]()
    path = folder / "tokenizer.json"
    path.write_text(tok.to_str(), encoding="utf-8")
    return path


def same_as_tokenizers(ours, path: Path, texts=AWKWARD) -> bool:
    """Whether `ours` gives `tokenizers`' ids and type ids for the file at `path` on every text,
    alone and paired with PAIR; where `tokenizers` refuses (a truncation it cannot make), ours
    must raise a ValueError."""
    theirs = Tokenizer.from_file(str(path))
    for text in texts:
        for pair in (None, PAIR):
            try:
                expected = theirs.encode(text, pair)
            except Exception:  # tokenizers' own error type
                try:
                    ours.encode_with_specials(text, pair)
                except ValueError:
                    continue
                return False
            if ours.encode_with_specials(text, pair) != (expected.ids, expected.type_ids):
                return False
    return True


def edit(path: Path, change) -> Path:
    """Rewrite the JSON file at `path` with `change(doc)` (which edits the dict in place)."""
    doc = json.loads(path.read_text("utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def big_unigram(folder: Path, size: int = 250_002, seed: int = 0) -> Path:
    """An XLM-R-sized Unigram file: `size` pieces (corpus words and their parts, then seeded random
    strings over Latin, Cyrillic, CJK, Arabic and Devanagari letters), XLM-R's layout (<s> <pad>
    </s> <unk> first, <mask> last) and the genuine charsmap normalizer of `xlmr_precompiled`."""
    import random

    rng = random.Random(seed)
    words = {w for line in corpus_lines() for w in line.split()}
    pieces = {"▁" + w[:k] for w in words for k in range(1, len(w) + 1)}
    pieces |= {w[a:b] for w in words for a in range(len(w)) for b in range(a + 1, len(w) + 1)}
    letters = "abcdefghijklmnopqrstuvwxyzабвгдежзийклмнопрстуфхцчшщыэюя"
    letters += "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年مرحبابالعلمनमस्तेदुनिया"
    while len(pieces) < size - 5:
        piece = "".join(rng.choice(letters) for _ in range(rng.randint(1, 9)))
        pieces.add(("▁" if rng.random() < 0.4 else "") + piece)
    scored = [(p, -rng.uniform(2.0, 18.0)) for p in sorted(pieces)][: size - 5]
    vocab = [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0), *scored, ("<mask>", 0.0)]
    reference = Tokenizer.from_file(str(build("xlmr_precompiled", folder / "small")))
    tok = Tokenizer(models.Unigram(vocab, unk_id=3, byte_fallback=False))
    tok.normalizer = reference.normalizer
    tok.pre_tokenizer = reference.pre_tokenizer
    tok.decoder = reference.decoder
    tok.add_special_tokens([AddedToken(t, special=True) for t in ROBERTA_SPECIALS])
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, normalized=False)])
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", 0), ("</s>", 2)],
    )
    path = folder / "tokenizer.json"
    path.write_text(tok.to_str(), encoding="utf-8")
    return path
