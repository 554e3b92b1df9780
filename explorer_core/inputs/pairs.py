"""Next-sentence-prediction pairs and BERT's pair layout, beside the from-scratch tutorial's view.

BERT's input for a pair of sentences A and B (transformers' convention; the rows are built by
`explorer_core.inputs.rows`):

    tokens          [CLS]  A1  A2  [SEP]  B1  B2  B3  [SEP]  [PAD]
    token_type_ids    0     0   0    0     1   1   1    1      0
    attention_mask    1     1   1    1     1   1   1    1      0
    NSP label       0 when B really follows A (IsNext), 1 when B is a random sentence (NotNext)

Pairs come from lines "A<TAB>B" or from consecutive lines of a corpus; half of them (a coin per
pair, as BERT's own data script) get B replaced by the B of another pair. A seed fixes every draw.

The tutorial many learners start from (codertimo/BERT-pytorch) writes the same thing differently:
a word-level vocabulary with <pad>=0, <unk>=1, <eos>=2, <sos>=3, <mask>=4; `<sos> A <eos> B <eos>`;
segment labels 1 for A, 2 for B and 0 for padding; MLM target 0 (= <pad>) where nothing is
predicted; and is_next 1 for IsNext. `tutorial_example` builds that view for the page.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.inputs.rows import build_rows

IS_NEXT, NOT_NEXT = 0, 1  # transformers' NSP labels
TUTORIAL_SPECIALS = ("<pad>", "<unk>", "<eos>", "<sos>", "<mask>")  # ids 0..4 in the tutorial


@dataclass(frozen=True)
class NspExample:
    a: str
    b: str
    label: int  # IS_NEXT (0) or NOT_NEXT (1)
    source: int  # index of the pair A came from
    b_source: int  # index of the pair B came from (== source when IsNext)


def parse_tab_pairs(lines: Iterable[str]) -> list[tuple[str, str]]:
    """Lines "A<TAB>B" -> [(A, B)]; blank lines are skipped, a line without a tab is an error.

    >>> parse_tab_pairs(["a cat sat\\tit purred", "", "rain fell\\tthe street shone"])
    [('a cat sat', 'it purred'), ('rain fell', 'the street shone')]
    """
    pairs = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if "\t" not in line:
            raise ValueError(f"line {number} has no tab between sentence A and sentence B")
        a, b = (part.strip() for part in line.split("\t", 1))
        if not a or not b:
            raise ValueError(f"line {number} has an empty sentence on one side of the tab")
        pairs.append((a, b))
    return pairs


def lines_without_tab(lines: Iterable[str]) -> list[int]:
    """1-based numbers of the non-blank lines that have no tab (so cannot be "A<TAB>B").

    >>> lines_without_tab(["a\\tb", "", "just one sentence"])
    [3]
    """
    return [n for n, line in enumerate(lines, start=1) if line.strip() and "\t" not in line]


def consecutive_pairs(text: str) -> list[tuple[str, str]]:
    """Each line with the line after it, within one text (a blank line starts a new text).

    >>> consecutive_pairs("one\\ntwo\\nthree\\n\\nfour\\nfive")
    [('one', 'two'), ('two', 'three'), ('four', 'five')]
    """
    pairs, previous = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line:
            previous = None
            continue
        if previous is not None:
            pairs.append((previous, line))
        previous = line
    return pairs


def make_nsp_examples(
    pairs: Sequence[tuple[str, str]], *, seed: int, not_next_probability: float = 0.5
) -> list[NspExample]:
    """Keep B (IsNext) or swap in another pair's B (NotNext), a seeded coin per pair.

    The other pair is drawn uniformly among all pairs except this one.
    """
    if len(pairs) < 2:
        raise ValueError("next-sentence prediction needs at least two sentence pairs")
    rng = random.Random(seed)
    examples = []
    for i, (a, b) in enumerate(pairs):
        if rng.random() < not_next_probability:
            j = rng.randrange(len(pairs) - 1)
            j += j >= i  # skip pair i itself
            examples.append(NspExample(a, pairs[j][1], NOT_NEXT, i, j))
        else:
            examples.append(NspExample(a, b, IS_NEXT, i, i))
    return examples


def nsp_batch(
    examples: Sequence[NspExample],
    encode: Callable[[str], list[int]],
    *,
    cls_id: int,
    sep_id: int,
    pad_id: int,
    max_length: int,
) -> dict[str, Tensor]:
    """Tensors for BertForPreTraining: input_ids, token_type_ids, attention_mask (B, T) and
    next_sentence_label (B,). `encode` turns a sentence into ids without special tokens; the rows
    are padded to `max_length` (`explorer_core.inputs.rows.build_rows`)."""
    rows = build_rows(
        [encode(ex.a) for ex in examples], [encode(ex.b) for ex in examples],
        cls_id=cls_id, sep_id=sep_id, pad_id=pad_id, max_length=max_length, padding="max_length",
    )  # fmt: skip
    labels = torch.tensor([ex.label for ex in examples], dtype=torch.long)
    return {**rows.as_dict(), "next_sentence_label": labels}


@dataclass(frozen=True)
class TutorialExample:
    """The tutorial's four tensors for one pair (lists of length `seq_len`), with its tokens."""

    tokens: list[str]  # what each position holds after masking, as vocabulary strings
    bert_input: list[int]
    bert_label: list[int]  # the original id where a word was chosen for prediction, else 0
    segment_label: list[int]  # 1 for <sos> A <eos>, 2 for B <eos>, 0 for padding
    is_next: int  # 1 IsNext, 0 NotNext: the opposite of transformers' labels


def tutorial_vocab(words: Iterable[str]) -> dict[str, int]:
    """The tutorial's WordVocab: its 5 specials, then words by frequency (ties alphabetical).

    >>> tutorial_vocab("b a b c".split())
    {'<pad>': 0, '<unk>': 1, '<eos>': 2, '<sos>': 3, '<mask>': 4, 'b': 5, 'a': 6, 'c': 7}
    """
    counts: dict[str, int] = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    ordered = sorted(counts, key=lambda w: (-counts[w], w))
    stoi = {token: i for i, token in enumerate(TUTORIAL_SPECIALS)}
    for word in ordered:
        stoi.setdefault(word, len(stoi))
    return stoi


def _tutorial_random_word(
    words: Sequence[str], stoi: Mapping[str, int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """The tutorial's `random_word`: per word, 15% chosen; of those 80% <mask>, 10% random, 10%
    kept; label = the word's id when chosen, 0 otherwise."""
    unk, mask, ids, labels = stoi["<unk>"], stoi["<mask>"], [], []
    for word in words:
        prob = rng.random()
        if prob < 0.15:
            prob /= 0.15
            if prob < 0.8:
                ids.append(mask)
            elif prob < 0.9:
                ids.append(rng.randrange(len(stoi)))
            else:
                ids.append(stoi.get(word, unk))
            labels.append(stoi.get(word, unk))
        else:
            ids.append(stoi.get(word, unk))
            labels.append(0)
    return ids, labels


def tutorial_example(
    a: str | Sequence[str],
    b: str | Sequence[str],
    stoi: Mapping[str, int],
    *,
    seq_len: int,
    seed: int,
    is_next: bool = True,
) -> TutorialExample:
    """One pair in the tutorial's format, masked with `seed`.

    `a` and `b` are texts (split on whitespace, as the tutorial does) or lists of words (e.g. from
    `WordLevelTokenizer`, which also splits off punctuation); `stoi` is the word -> id vocabulary.
    """
    missing = [s for s in TUTORIAL_SPECIALS if s not in stoi]
    if missing:
        raise ValueError(f"the vocabulary lacks the tutorial's special tokens {missing}")
    if seq_len < 4:
        raise ValueError(f"seq_len must be at least 4, got {seq_len}")
    rng = random.Random(seed)
    a_words = a.split() if isinstance(a, str) else list(a)
    b_words = b.split() if isinstance(b, str) else list(b)
    a_ids, a_labels = _tutorial_random_word(a_words, stoi, rng)
    b_ids, b_labels = _tutorial_random_word(b_words, stoi, rng)
    pad, sos, eos = stoi["<pad>"], stoi["<sos>"], stoi["<eos>"]
    t1, t2 = [sos, *a_ids, eos], [*b_ids, eos]
    labels = ([pad, *a_labels, pad] + [*b_labels, pad])[:seq_len]
    segment = ([1] * len(t1) + [2] * len(t2))[:seq_len]
    ids = (t1 + t2)[:seq_len]
    fill = seq_len - len(ids)
    itos = {i: s for s, i in stoi.items()}
    ids = ids + [pad] * fill
    return TutorialExample(
        tokens=[itos.get(i, "<unk>") for i in ids],
        bert_input=ids,
        bert_label=labels + [pad] * fill,
        segment_label=segment + [pad] * fill,
        is_next=1 if is_next else 0,
    )
