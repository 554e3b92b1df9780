"""Training a unigram language model vocabulary, SentencePiece style.

1. Seed: every character, plus the most frequent substrings (up to `max_piece_len` characters, seen
   at least twice), ranked by frequency × length as SentencePiece's suffix-array seeding does.
2. EM: the E-step runs forward-backward over each distinct word's lattice to get each piece's
   expected count; the M-step sets p(piece) = expected count / total (maximum likelihood; pieces
   expected less than 0.5 times drop out). Two EM rounds per pruning step, as SentencePiece does.
3. Prune: for each piece, the log-likelihood lost if it were removed and its occurrences were cut
   into their next-best pieces instead; keep the 75 % of pieces that would cost the most.
4. Repeat until at most 110 % of the target is left, then keep the best-scoring pieces.

Single characters are never pruned (so every seen character stays a piece, as long as the target
leaves room for them: otherwise the rarest characters are left to byte fallback). Ties everywhere
break by the piece's code points, so training is deterministic.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from explorer_core.tokenization.unigram_lattice import build_lattice, expected_counts, viterbi

COVERAGE = 0.9995  # characters kept as pieces cover this share of the text (SentencePiece's)
SHRINK = 0.75  # fraction of pieces kept per pruning step (SentencePiece's shrinking_factor)
SUB_ITERATIONS = 2  # EM rounds per pruning step (SentencePiece's num_sub_iterations)
MIN_EXPECTED = 0.5  # pieces expected fewer times than this drop out in the M-step
UNK_SCORE = -1.0e4  # score of characters without a piece while training


@dataclass(frozen=True)
class UnigramRound:
    """One step of training: an EM round or a pruning step."""

    round: int  # 0-based step number
    kind: str  # "em" or "prune"
    vocab_size: int  # pieces after this step (without <unk> and byte pieces)
    log_likelihood: float  # corpus log-likelihood under the model before this step's update
    removed: int  # pieces dropped by this step
    removed_examples: tuple[str, ...]  # up to five of them (prune: cheapest first; em: A-Z)


def required_characters(words: Mapping[str, int], limit: int) -> list[str]:
    """The most frequent characters (ties by code point) covering `COVERAGE`, at most `limit`.

    >>> required_characters({"aab": 1000, "c": 1}, 10)
    ['a', 'b']
    """
    chars: Counter[str] = Counter()
    for word, count in words.items():
        for c in word:
            chars[c] += count
    total = sum(chars.values())
    chosen: list[str] = []
    covered = 0
    for char in sorted(chars, key=lambda c: (-chars[c], c)):
        if len(chosen) >= limit or covered >= COVERAGE * total:
            break
        chosen.append(char)
        covered += chars[char]
    return chosen


def seed_pieces(
    words: Mapping[str, int], required: list[str], seed_size: int, max_piece_len: int
) -> dict[str, float]:
    """Initial pieces scored by log-probability: the `required` characters and frequent substrings.

    Substrings rank by count × length: "▁hu" 5×3, "▁hug" 3×4, then "hu" and "▁h" tie at 5×2
    and "hu" wins on code points (▁ is U+2581).

    >>> sorted(seed_pieces({"▁hug": 3, "▁hut": 2}, ["▁", "h", "u", "g", "t"], 3, 4))
    ['g', 'h', 'hu', 't', 'u', '▁', '▁hu', '▁hug']
    """
    freq: Counter[str] = Counter()
    for word, count in words.items():
        n = len(word)
        for i in range(n):
            for end in range(i + 2, min(n, i + max_piece_len) + 1):
                freq[word[i:end]] += count
    ranked = sorted(
        ((s, c) for s, c in freq.items() if c >= 2), key=lambda sc: (-sc[1] * len(sc[0]), sc[0])
    )
    chars: Counter[str] = Counter()
    for word, count in words.items():
        for c in word:
            chars[c] += count
    chosen = {c: max(chars[c], MIN_EXPECTED) for c in required}  # unseen required: a little
    for s, c in ranked[:seed_size]:
        chosen[s] = c
    total = sum(chosen.values())
    return {s: math.log(c / total) for s, c in chosen.items()}


def _table(scores: Mapping[str, float]) -> tuple[dict[str, tuple[int, float]], list[str], int]:
    names = sorted(scores)
    table = {s: (i, scores[s]) for i, s in enumerate(names)}
    return table, names, max(len(s) for s in names)


def em_step(
    words: Mapping[str, int], scores: Mapping[str, float], required: set[str]
) -> tuple[dict[str, float], float]:
    """One EM round: new scores (log p) from expected counts, and the log-likelihood before it."""
    table, names, longest = _table(scores)
    counts: dict[int, float] = {}
    loglik = 0.0
    for word, weight in words.items():
        lattice = build_lattice(word, table, longest, (-1, UNK_SCORE))
        loglik += expected_counts(lattice, weight, counts)
    kept = {
        names[i]: c
        for i, c in counts.items()
        if i >= 0 and (c >= MIN_EXPECTED or names[i] in required)
    }
    for char in required:
        kept.setdefault(char, MIN_EXPECTED)  # subtle: keep unused required characters alive
    total = sum(kept.values())
    return {s: math.log(c / total) for s, c in kept.items()}, loglik


def prune_step(
    words: Mapping[str, int], scores: Mapping[str, float], required: set[str], keep: int
) -> tuple[dict[str, float], list[str]]:
    """Keep the `keep` pieces whose removal would cost the most likelihood; return the removed."""
    table, names, longest = _table(scores)
    freq: Counter[str] = Counter()
    inverted: Counter[str] = Counter()
    for word, weight in words.items():
        path = viterbi(build_lattice(word, table, longest, (-1, UNK_SCORE)))
        used = {p for _, _, p, _ in path}
        for _, _, piece, _ in path:
            if piece >= 0:
                freq[names[piece]] += weight
        for piece in used:
            if piece >= 0:
                inverted[names[piece]] += weight
    total = sum(freq.values())
    n_words = sum(words.values())
    loss: dict[str, float] = {}
    for piece in scores:
        if piece in required:
            continue
        if freq[piece] == 0:
            loss[piece] = 0.0  # never on a best path: free to remove
            continue
        loss[piece] = _removal_loss(piece, freq, total, inverted[piece] / n_words, table, longest)
    removable = sorted(loss, key=lambda s: (-loss[s], s))
    room = max(keep - len(required), 0)
    kept_names = set(required) | set(removable[:room])
    removed = sorted((s for s in removable[room:]), key=lambda s: (loss[s], s))
    return {s: scores[s] for s in scores if s in kept_names}, removed


def _removal_loss(
    piece: str,
    freq: Mapping[str, int],
    total: int,
    share: float,
    table: dict[str, tuple[int, float]],
    longest: int,
) -> float:
    """Likelihood lost when `piece` goes and its uses are cut into its next-best segmentation."""
    lattice = build_lattice(piece, table, longest, (-1, UNK_SCORE))
    lattice[0] = [node for node in lattice[0] if node[1] != len(piece)]  # the piece itself goes
    alternative = [piece[start:end] for start, end, _, _ in viterbi(lattice)]
    count = freq[piece]
    new_total = total + count * (len(alternative) - 1)
    logp_piece = math.log(count) - math.log(total)
    logp_alt = sum(math.log(freq.get(a, 0) + count) - math.log(new_total) for a in alternative)
    return share * (logp_piece - logp_alt)


def train_unigram(
    words: Mapping[str, int],
    target: int,
    *,
    always: str = "",
    max_piece_len: int = 8,
    seed_factor: int = 4,
) -> tuple[dict[str, float], list[UnigramRound]]:
    """Learn at most `target` pieces (scores = log p) from word counts; return them and the trace.

    Characters are kept as pieces, the most frequent first, until they cover `COVERAGE` of the
    text or fill half of what `always` leaves of `target`; the rarest characters are left to byte
    fallback. The characters of `always` are kept as pieces even when the text lacks them.
    """
    required = set(required_characters(words, max(target - len(always), 2) // 2)) | set(always)
    scores = seed_pieces(words, sorted(required), seed_factor * target, max_piece_len)
    rounds: list[UnigramRound] = []
    while True:
        for _ in range(SUB_ITERATIONS):
            new, loglik = em_step(words, scores, required)
            dropped = sorted(set(scores) - set(new))
            rounds.append(
                UnigramRound(len(rounds), "em", len(new), loglik, len(dropped), tuple(dropped[:5]))
            )
            scores = new
        if len(scores) <= max(target * 1.1, len(required)):
            break
        keep = max(int(len(scores) * SHRINK), int(target * 1.1))
        scores, removed = prune_step(words, scores, required, keep)
        rounds.append(
            UnigramRound(
                len(rounds),
                "prune",
                len(scores),
                rounds[-1].log_likelihood,
                len(removed),
                tuple(removed[:5]),
            )
        )
    final = sorted(scores, key=lambda s: (s not in always, s not in required, -scores[s], s))
    final = final[:target]
    return {s: scores[s] for s in final}, rounds
