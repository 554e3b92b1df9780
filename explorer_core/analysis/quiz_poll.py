"""A "Predict first" question as a class poll: plain JSON that carries its own data.

A poll is asked from the teacher's page and answered on every student's, whatever page or view
the student is on, in the student's own language. So the payload holds no words, only catalogue
keys with the values that fill them, and the choices a student picks from:

    {"kind": "merge" | "attention" | "mask" | "update" | "reach",
     "title": ["quiz.merge.title", {"rank": 13}],          # text key and its values
     "ask": ["quiz.merge.ask", {"rank": 13}],
     "choices": [["0", "t + h"], ["1", "e + r"], ...],      # (value, label); single-choice kinds
     "items": [["3", "cat"], ...],                          # mask: (position, token) asked about
     "answer": "1",                                         # the right value
     "answers": ["1"],                                      # every right value (attention ties)
     "explain": ["quiz.merge.answer.class", {...}]}         # shown with the reveal

A mask poll's value is the guesses of its items joined by commas ("mask,keep,random"); it is right
when every item is. Labels are the page's own token strings, never translated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from explorer_core.analysis.quiz import (
    MASK_KINDS,
    AttentionQuestion,
    MaskQuestion,
    MergeQuestion,
    ReachQuestion,
    UpdateQuestion,
)

KINDS = ("merge", "attention", "mask", "update", "reach")
MAX_LABEL = 40  # characters of a choice label kept in a poll (a token is short; a pasted one not)


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def merge_poll(question: MergeQuestion) -> dict[str, Any]:
    """Which pair merges next?

    >>> q = MergeQuestion(step=12, options=(("t", "h"), ("e", "r")), answer=1, count=9,
    ...                   runner_up=7)
    >>> poll = merge_poll(q)
    >>> poll["choices"], poll["answer"], poll["ask"]
    ([['0', 't + h'], ['1', 'e + r']], '1', ['quiz.merge.ask', {'rank': 13}])
    """
    rank = question.step + 1
    names = [_label(f"{left} + {right}") for left, right in question.options]
    values = {"rank": rank, "pair": names[question.answer], "count": question.count,
              "runner": question.runner_up}  # fmt: skip
    return {
        "kind": "merge",
        "title": ["quiz.merge.title", {"rank": rank}],
        "ask": ["quiz.merge.ask", {"rank": rank}],
        "choices": [[str(i), name] for i, name in enumerate(names)],
        "answer": str(question.answer),
        "answers": [str(question.answer)],
        "explain": ["quiz.merge.tie" if question.tie else "quiz.merge.ahead", values],
    }


def attention_poll(question: AttentionQuestion, labels: Sequence[str]) -> dict[str, Any]:
    """Which token does this head's query look at most? (Every tied maximum is right.)

    >>> q = AttentionQuestion(query=1, options=(0, 1, 2), answers=(2,), weight=0.61)
    >>> poll = attention_poll(q, ["[CLS]", "cat", "[SEP]"])
    >>> poll["ask"], poll["choices"][2], poll["answers"]
    (['quiz.attn.ask', {'query': 'cat'}], ['2', '[SEP]'], ['2'])
    """
    best = ", ".join(labels[i] for i in question.answers)
    return {
        "kind": "attention",
        "title": ["quiz.attn.title", {}],
        "ask": ["quiz.attn.ask", {"query": _label(labels[question.query])}],
        "choices": [[str(i), _label(labels[i])] for i in question.options],
        "answer": str(question.answers[0]),
        "answers": [str(i) for i in question.answers],
        "explain": ["class.poll.attn.answer", {"best": best, "weight": f"{question.weight:.3f}"}],
    }


def mask_poll(question: MaskQuestion) -> dict[str, Any]:
    """For each selected token: [MASK], a random token, or kept?

    >>> q = MaskQuestion(positions=(2, 5), tokens=("cat", "sat"), truth=("mask", "keep"),
    ...                  selected=2)
    >>> poll = mask_poll(q)
    >>> poll["items"], poll["answer"]
    ([['2', 'cat'], ['5', 'sat']], 'mask,keep')
    """
    truth = ",".join(question.truth)
    return {
        "kind": "mask",
        "title": ["quiz.mask.title", {}],
        "ask": ["quiz.mask.ask", {"n": question.selected}],
        "items": [
            [str(p), _label(tok)]
            for p, tok in zip(question.positions, question.tokens, strict=True)
        ],  # fmt: skip
        "answer": truth,
        "answers": [truth],
        "explain": ["class.poll.mask.answer", {"truth": truth}],
    }


def update_poll(
    question: UpdateQuestion, token: str, layer: int, labels: Sequence[str]
) -> dict[str, Any]:
    """Attention or the feed-forward: which adds more to `token` in `layer`? `labels` name the
    options in both languages at once ("attention · 注意力"): a poll carries no translated words.

    >>> q = UpdateQuestion(attention=3.2, ffn=7.9)
    >>> poll = update_poll(q, "bank", 2, ["attention · 注意力", "feed-forward · 前馈"])
    >>> poll["choices"][1], poll["answer"], poll["ask"]
    (['ffn', 'feed-forward · 前馈'], 'ffn', ['enc.quiz.ask', {'layer': 2, 'token': 'bank'}])
    """
    return {
        "kind": "update",
        "title": ["enc.quiz.title", {}],
        "ask": ["enc.quiz.ask", {"layer": layer, "token": _label(token)}],
        "choices": [[o, _label(n)] for o, n in zip(question.options, labels, strict=True)],
        "answer": question.answer,
        "answers": [question.answer],
        "explain": [
            "class.poll.enc.answer",
            {"attn": f"{question.attention:.2f}", "ffn": f"{question.ffn:.2f}"},
        ],
    }


def reach_poll(question: ReachQuestion, labels: Sequence[str]) -> dict[str, Any]:
    """Whose last state feels the first token most? `labels` name the options in both languages
    at once ("RNN · 循环网络"), as in `update_poll`.

    >>> q = ReachQuestion((("rnn", 1e-9), ("attention", 0.06)), distance=9)
    >>> poll = reach_poll(q, ["RNN", "attention · 注意力"])
    >>> poll["choices"][1], poll["answer"], poll["ask"]
    (['attention', 'attention · 注意力'], 'attention', ['seq.quiz.ask', {'distance': 9}])
    """
    best = dict(question.norms)[question.answer]
    names = dict(zip(question.options, labels, strict=True))
    return {
        "kind": "reach",
        "title": ["seq.quiz.title", {}],
        "ask": ["seq.quiz.ask", {"distance": question.distance}],
        "choices": [[o, _label(n)] for o, n in zip(question.options, labels, strict=True)],
        "answer": question.answer,
        "answers": [question.answer],
        "explain": [
            "class.poll.seq.answer",
            {"best": _label(names[question.answer]), "norm": f"{best:.2e}"},
        ],
    }


def check(payload: Any) -> dict[str, Any]:
    """The payload if it is a poll this module could have built; ValueError otherwise.

    >>> check({"kind": "merge"})
    Traceback (most recent call last):
    ...
    ValueError: A poll needs 'title', 'ask', 'answer' and 'answers'.
    """
    if not isinstance(payload, dict) or payload.get("kind") not in KINDS:
        raise ValueError(f"A poll is a dict whose kind is one of {', '.join(KINDS)}.")
    if not all(k in payload for k in ("title", "ask", "answer", "answers")):
        raise ValueError("A poll needs 'title', 'ask', 'answer' and 'answers'.")
    options = payload.get("items") if payload["kind"] == "mask" else payload.get("choices")
    if not isinstance(options, list) or not options:
        raise ValueError("A poll needs something to choose from.")
    return payload


def is_right(payload: dict[str, Any], value: str | None) -> bool:
    """Whether `value` answers the poll right.

    >>> is_right({"answers": ["2", "4"]}, "4"), is_right({"answers": ["2"]}, None)
    (True, False)
    """
    return value is not None and value in payload.get("answers", [payload.get("answer")])


def mask_value(guesses: Sequence[str | None]) -> str | None:
    """A mask poll's answer from its items' guesses; None until every item has one.

    >>> mask_value(["mask", "keep"]), mask_value(["mask", None])
    ('mask,keep', None)
    """
    if any(g not in MASK_KINDS for g in guesses):
        return None
    return ",".join(guesses)  # type: ignore[arg-type]


def value_label(payload: dict[str, Any], value: str) -> str:
    """What the teacher's chart calls an answer: the choice's label (a mask value as it is).

    >>> value_label({"kind": "merge", "choices": [["0", "t + h"]]}, "0")
    't + h'
    """
    labels = dict(map(tuple, payload.get("choices", [])))
    return str(labels.get(value, value))
