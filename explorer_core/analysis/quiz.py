"""Predict, then reveal: questions built from the real data a page shows, and their grading.

Five kinds of question, one per page:

- `merge_question`: which pair does BPE merge next? Options are the best candidate pairs counted
  before merge k + 1, shuffled with a seed (so their order does not give the winner away); the
  answer is the pair merge k + 1 actually merged.
- `mask_question`: for each token BERT *selected* in one masking draw, was it replaced by [MASK],
  by a random token, or kept? The answers are the draw's own kinds.
- `attention_question`: which token does this head's query look at most? The answer is the argmax
  of the weight row (every position within `TIE` of the maximum counts, and ties are reported).
- `update_question`: in this layer, which adds the bigger update to this token, attention or the
  feed-forward network? The answer compares the lengths of the two sublayers' outputs.
- `reach_question`: whose last state feels the sentence's first token most: an RNN, an LSTM, a
  GRU or attention? The answer is the largest ‖∂h_L/∂x_1‖ (explorer_core.sequence.gradients).

A session's score is a plain mapping {page: (right, asked)}; `record` adds one graded question at
most once (re-grading the same question id changes nothing). No streamlit here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

MASK_KINDS = (
    "mask",
    "random",
    "keep",
)  # masking's kind codes 1, 2, 3 (explorer_core.inputs.masking)
TIE = 1e-6  # attention weights closer than this to the row's maximum count as the maximum
MAX_MASK_ITEMS = 12  # a long sentence asks about its first 12 selected tokens only


@dataclass(frozen=True)
class MergeQuestion:
    """Which of `options` (left, right) pairs merges at step `step` + 1?"""

    step: int  # merges already applied (k); the question is about merge k + 1
    options: tuple[tuple[str, str], ...]  # shuffled candidate pairs, shown without counts
    answer: int  # index into options of the pair that merged
    count: int  # how often that pair occurred when it won
    runner_up: int  # the count of the best other candidate (0 if none)

    @property
    def tie(self) -> bool:
        """True when another candidate had the same count: the tie-break decided."""
        return self.runner_up == self.count


def merge_question(
    candidates: Sequence[tuple[str, str, int]], step: int, seed: int = 0, top: int = 5
) -> MergeQuestion:
    """A question from the candidates before merge `step` + 1, winner first: (left, right, count).

    The order of the options is a seeded shuffle of the best `top` (same seed and step, same
    order). Worked example: candidates ("t","h",9), ("h","e",7), ("e","r",7) before merge 3: the
    answer is ("t","h"), 9 times, ahead of 7; no tie.

    >>> q = merge_question([("t", "h", 9), ("h", "e", 7), ("e", "r", 7)], step=2)
    >>> q.options[q.answer], q.count, q.runner_up, q.tie
    (('t', 'h'), 9, 7, False)
    """
    if len(candidates) < 2:
        raise ValueError("a question needs at least two candidate pairs")
    best = list(candidates[:top])
    pairs = [(str(left), str(right)) for left, right, _ in best]
    order = list(range(len(pairs)))
    random.Random(f"merge-{seed}-{step}").shuffle(order)
    return MergeQuestion(
        step=step,
        options=tuple(pairs[i] for i in order),
        answer=order.index(0),
        count=int(best[0][2]),
        runner_up=int(best[1][2]),
    )


def grade_merge(question: MergeQuestion, choice: int | None) -> bool:
    """True when `choice` (an index into the options) is the pair that merged."""
    return choice == question.answer


@dataclass(frozen=True)
class MaskQuestion:
    """For each selected position, which of MASK_KINDS happened to it in the draw?"""

    positions: tuple[int, ...]  # selected positions asked about, in order
    tokens: tuple[str, ...]  # the original token at each of those positions
    truth: tuple[str, ...]  # what really happened there ("mask", "random" or "keep")
    selected: int  # how many positions the draw selected in all (may exceed the asked ones)


def mask_question(
    tokens: Sequence[str], kinds: Sequence[int], limit: int = MAX_MASK_ITEMS
) -> MaskQuestion:
    """The question about one draw: kinds per position are masking's codes (1 mask, 2 random,
    3 keep; 0 not selected, 4 special). Raises ValueError when nothing was selected.

    >>> q = mask_question(["[CLS]", "the", "cat", "sat", "[SEP]"], [4, 1, 0, 3, 4])
    >>> q.positions, q.tokens, q.truth
    ((1, 3), ('the', 'sat'), ('mask', 'keep'))
    """
    if len(tokens) != len(kinds):
        raise ValueError(f"{len(tokens)} tokens but {len(kinds)} kinds")
    chosen = [i for i, kind in enumerate(kinds) if 1 <= kind <= 3]
    if not chosen:
        raise ValueError("this draw selected no token: draw again")
    asked = chosen[:limit]
    return MaskQuestion(
        positions=tuple(asked),
        tokens=tuple(tokens[i] for i in asked),
        truth=tuple(MASK_KINDS[kinds[i] - 1] for i in asked),
        selected=len(chosen),
    )


def grade_mask(question: MaskQuestion, guesses: Sequence[str | None]) -> tuple[bool, ...]:
    """Right or wrong per asked position (no guess is wrong).

    >>> q = MaskQuestion((1, 3), ("the", "sat"), ("mask", "keep"), 2)
    >>> grade_mask(q, ["mask", "mask"])
    (True, False)
    """
    if len(guesses) != len(question.truth):
        raise ValueError(f"{len(question.truth)} positions but {len(guesses)} guesses")
    return tuple(g == truth for g, truth in zip(guesses, question.truth, strict=True))


def always_mask(question: MaskQuestion) -> int:
    """How many positions "always guess [MASK]" gets right in this draw (80% on average)."""
    return question.truth.count("mask")


@dataclass(frozen=True)
class AttentionQuestion:
    """Which key does `query` attend to most? `options` are key positions that may be seen."""

    query: int
    options: tuple[int, ...]  # key positions offered (the ones the query may attend to)
    answers: tuple[int, ...]  # the argmax position(s); more than one on a tie
    weight: float  # the largest weight of the row

    @property
    def tie(self) -> bool:
        return len(self.answers) > 1


def attention_question(
    row: Sequence[float], query: int, allowed: Sequence[bool] | None = None, tie: float = TIE
) -> AttentionQuestion:
    """The question for one weight row (the query's weights over every key).

    >>> q = attention_question([0.1, 0.6, 0.3], query=2)
    >>> q.answers, q.weight, q.tie
    ((1,), 0.6, False)
    >>> attention_question([0.4, 0.4, 0.2], query=0).answers
    (0, 1)
    """
    weights = [float(w) for w in row]
    keep = [True] * len(weights) if allowed is None else [bool(a) for a in allowed]
    options = tuple(i for i, ok in enumerate(keep) if ok)
    if not options:
        raise ValueError("this query may not attend to any key")
    top = max(weights[i] for i in options)
    answers = tuple(i for i in options if top - weights[i] <= tie)
    return AttentionQuestion(query, options, answers, top)


def grade_attention(question: AttentionQuestion, choice: int | None) -> bool:
    """True when `choice` (a key position) is one of the most attended keys."""
    return choice in question.answers


UPDATE_OPTIONS = ("attention", "ffn")  # the two sublayers of an encoder layer


@dataclass(frozen=True)
class UpdateQuestion:
    """Which sublayer adds the bigger update to one token in one layer: attention or the FFN?"""

    attention: float  # ‖attention output‖ of the token (after W_O, before the residual)
    ffn: float  # ‖feed-forward output‖ of the token (after the down-projection)
    options: tuple[str, ...] = UPDATE_OPTIONS

    @property
    def answer(self) -> str:
        """The sublayer with the longer update (attention on an exact tie)."""
        return "attention" if self.attention >= self.ffn else "ffn"


def update_question(attention: float, ffn: float) -> UpdateQuestion:
    """The question for one token in one layer, from the lengths of the two updates.

    >>> update_question(3.2, 7.9).answer, update_question(2.0, 2.0).answer
    ('ffn', 'attention')
    """
    if attention < 0 or ffn < 0:
        raise ValueError("an update's length cannot be negative")
    return UpdateQuestion(float(attention), float(ffn))


def grade_update(question: UpdateQuestion, choice: str | None) -> bool:
    """True when `choice` ("attention" or "ffn") names the sublayer with the bigger update."""
    return choice == question.answer


@dataclass(frozen=True)
class ReachQuestion:
    """Which model's last hidden state h_L feels the first token x_1 most (‖∂h_L/∂x_1‖)?"""

    norms: tuple[tuple[str, float], ...]  # (model, ‖∂h_L/∂x_1‖), in the order the page asks
    distance: int  # L - 1: how many tokens lie between x_1 and h_L's position

    @property
    def options(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.norms)

    @property
    def answer(self) -> str:
        """The model with the largest norm (the first listed on an exact tie)."""
        return max(self.norms, key=lambda pair: pair[1])[0]


def reach_question(norms: Mapping[str, float], distance: int) -> ReachQuestion:
    """The question for one sentence, from each model's gradient at the largest distance.

    >>> reach_question({"rnn": 1e-9, "lstm": 2e-5, "attention": 0.06}, 40).answer
    'attention'
    """
    if len(norms) < 2 or any(value < 0 for value in norms.values()):
        raise ValueError("give two models or more, each with a norm of zero or more")
    if distance < 1:
        raise ValueError("the first token must lie before the last: give two tokens or more")
    return ReachQuestion(tuple((name, float(v)) for name, v in norms.items()), distance)


def grade_reach(question: ReachQuestion, choice: str | None) -> bool:
    """True when `choice` names the model whose h_L feels x_1 most."""
    return choice == question.answer


Score = Mapping[str, tuple[int, int]]  # page -> (right, asked)


def record(
    score: Score, graded: AbstractSet[str], page: str, question_id: str, right: int, asked: int
) -> tuple[dict[str, tuple[int, int]], frozenset[str]]:
    """The score and the set of graded questions after grading `question_id` on `page`.

    A question already graded counts once (a second Reveal, or coming back to it, changes nothing).

    >>> s, g = record({}, frozenset(), "tok", "k=3", 1, 1)
    >>> record(s, g, "tok", "k=3", 1, 1)[0], record(s, g, "tok", "k=4", 0, 1)[0]
    ({'tok': (1, 1)}, {'tok': (1, 2)})
    """
    if not 0 <= right <= asked:
        raise ValueError(f"right answers ({right}) must lie between 0 and the asked ({asked})")
    done = f"{page}|{question_id}"
    if done in graded:
        return dict(score), frozenset(graded)
    before_right, before_asked = score.get(page, (0, 0))
    new_score = {**score, page: (before_right + right, before_asked + asked)}
    return new_score, frozenset(graded) | {done}


def total(score: Score) -> tuple[int, int]:
    """(right, asked) over every page.

    >>> total({"tok": (1, 2), "attn": (3, 3)})
    (4, 5)
    """
    return sum(r for r, _ in score.values()), sum(a for _, a in score.values())
