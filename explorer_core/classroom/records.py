"""What the class store hands out (frozen dataclasses), its one error type, and the pure helpers
behind it: nickname cleaning, room codes, the experiment's round-robin and the follow target check.

Nothing here touches a database; `store.ClassStore` builds these records from rows.
"""

from __future__ import annotations

import itertools
import json
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from explorer_core.training.controlled import SEED_RANGE

# Room codes: 5 characters without look-alikes (no I/1/L, O/0): 31**5 = 28.6 million codes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
NICKNAME_LENGTH = 24
ANSWER_LENGTH = 200  # an answer is a choice or a short word, not an essay
TARGET_LENGTH = 500
PAYLOAD_BYTES = 16_000  # a poll's JSON: a question, a few choices, maybe a sentence to look at
RESULT_BYTES = 4_000  # a leaderboard row's JSON: a few numbers and names

# Why a call failed, for the UI to pick its message; str(error) is an English sentence.
KINDS = (
    "unknown",  # no class has this code
    "closed",  # the teacher ended the class
    "expired",  # the class outlived its lifetime (EXPLORER_CLASS_HOURS)
    "full",  # member_limit students have joined
    "nickname",  # empty after cleaning, or taken in this class
    "secret",  # the teacher's secret does not match
    "rate",  # too many wrong codes from one client in a minute
    "poll",  # no such question, or it is no longer open for answers
    "member",  # the student's token is unknown (they left, or the class was closed)
    "experiment",  # no experiment is running
    "input",  # a payload, result or follow target the store refuses (too large, not JSON, a URL)
    "db",  # the database cannot be reached
)


class ClassError(ValueError):
    """A class-mode call that cannot be done, with `kind` (one of KINDS) for the UI.

    >>> err = ClassError("full", "This class is full (3 students).")
    >>> err.kind, str(err)
    ('full', 'This class is full (3 students).')
    """

    def __init__(self, kind: str, message: str) -> None:
        assert kind in KINDS, kind
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class ClassInfo:
    code: str
    created: float  # seconds since the epoch (the store's clock)
    expires: float
    show_scores: bool  # may students see the scoreboard?
    member_limit: int


@dataclass(frozen=True)
class Member:
    member_id: int
    nickname: str
    token: str  # the student's own secret: resume, leave, answer; only its hash is stored


@dataclass(frozen=True)
class RosterRow:
    member_id: int
    nickname: str
    joined_at: float


@dataclass(frozen=True)
class Poll:
    poll_id: int
    payload: dict  # as the teacher's page gave it, "answer" included
    asked_at: float
    revealed: bool

    def for_student(self) -> dict:
        """The payload without its "answer" until the poll is revealed.

        >>> Poll(1, {"q": "2+2?", "answer": "4"}, 0.0, False).for_student()
        {'q': '2+2?'}
        >>> Poll(1, {"q": "2+2?", "answer": "4"}, 0.0, True).for_student()["answer"]
        '4'
        """
        if self.revealed:
            return dict(self.payload)
        return {k: v for k, v in self.payload.items() if k != "answer"}


@dataclass(frozen=True)
class Pulse:
    """What a student's page reads every few seconds (one indexed SELECT of the class row)."""

    poll_id: int | None  # the current question, if any
    revealed: bool  # has the teacher revealed the current question's answer?
    follow_seq: int  # grows by one at each "bring everyone here"
    follow_target: str | None  # "attention?layer=2&head=3"
    experiment_id: int | None  # the running experiment, if any
    closed: bool  # the class is over (closed, expired or unknown): stop polling
    show_scores: bool = False


@dataclass(frozen=True)
class PollTally:
    poll_id: int
    counts: dict[str, int]  # answer value -> how many students gave it
    answered: int
    joined: int


@dataclass(frozen=True)
class Assignment:
    """A student's cell of the experiment's grid, and the settings every run shares.

    An experiment started before the controlled settings (schema version 2) fixed only the
    tokenizer: its assignments have seed, preset and steps None (`controlled` is False).
    """

    algorithm: str
    vocab_size: int | None  # None: the student picks the size
    seed: int | None = None
    preset: str | None = None  # training.presets.PRESETS
    steps: int | None = None  # fine-tuning steps, exactly (training.controlled)

    @property
    def controlled(self) -> bool:
        return self.steps is not None


def clean_nickname(text: str) -> str:
    """A nickname as shown to the class: NFC, without control or invisible format characters
    (categories Cc, Cf, Zl, Zp), whitespace collapsed to single spaces, at most 24 characters.

    HTML stays literal text (escaping is the page's job). Raises ClassError("nickname") when
    nothing is left.

    >>> clean_nickname("  A\\u200bda \\tLovelace\\n")
    'Ada Lovelace'
    >>> clean_nickname("Cafe\\u0301")  # e + combining accent -> one character
    'Café'
    >>> clean_nickname("<img src=x onerror=f()>")
    '<img src=x onerror=f()>'
    >>> clean_nickname("\\u200d\\u2028 ")
    Traceback (most recent call last):
    ...
    explorer_core.classroom.records.ClassError: Please type a nickname (letters or digits).
    """
    text = unicodedata.normalize("NFC", str(text))
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Zl", "Zp") or char.isspace():
            kept.append(" ")  # line breaks and tabs become spaces, then collapse
        elif category not in ("Cc", "Cf"):
            kept.append(char)
    cleaned = " ".join("".join(kept).split())[:NICKNAME_LENGTH].strip()
    if not cleaned:
        raise ClassError("nickname", "Please type a nickname (letters or digits).")
    return cleaned


def nickname_key(nickname: str) -> str:
    """The form two nicknames are compared in: "Ada" and "ADA" are the same person.

    >>> nickname_key("Straße") == nickname_key("STRASSE")
    True
    """
    return nickname.casefold()


def new_code() -> str:
    """A random room code from CODE_ALPHABET (the store retries when one is taken)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """What a student typed, as a code: spaces dropped, upper case.

    >>> normalise_code(" abc 23 ")
    'ABC23'
    """
    return "".join(str(code).split()).upper()


def combinations(
    algorithms: list[str], vocab_sizes: list[int | None], seeds: Sequence[int | None] = (None,)
) -> list[Assignment]:
    """Every seed × algorithm × vocabulary size: the round-robin's cycle. The seed varies
    slowest, so the first students cover every tokenizer once (seed 0) before any tokenizer gets
    a second seed: a class smaller than the grid still compares every tokenizer.

    The n-th student (from 0) to ask for an assignment gets `nth_run(cycle, n)`.

    >>> [(a.algorithm, a.vocab_size) for a in combinations(["bpe", "wordpiece"], [500, None])]
    [('bpe', 500), ('bpe', None), ('wordpiece', 500), ('wordpiece', None)]
    >>> [(a.algorithm, a.seed) for a in combinations(["bpe", "wordpiece"], [500], [0, 1])]
    [('bpe', 0), ('wordpiece', 0), ('bpe', 1), ('wordpiece', 1)]
    """
    if not algorithms:
        raise ClassError("input", "Pick at least one tokenizer algorithm for the experiment.")
    sizes = list(vocab_sizes) or [None]
    for size in sizes:
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
            raise ClassError(
                "input", f"A vocabulary size must be a positive whole number: {size!r}."
            )
    return [Assignment(str(a), s, seed) for seed in seeds for a in algorithms for s in sizes]


def nth_run(cycle: Sequence[Sequence], seq: int) -> tuple[str, int | None, int | None]:
    """The `seq`-th student's (algorithm, vocabulary size, seed), counting from 0, in an
    experiment whose grid is `cycle` (`combinations` as stored: [algorithm, size, seed] rows).

    Inside the grid, its `seq`-th run. A class larger than the grid goes on through the
    tokenizers in the same order with new seeds, the next whole numbers after the teacher's
    largest (from 0 up, skipping the teacher's, past SEED_RANGE's top): a repeat of a seed would
    only repeat a result, since the same seed gives the same run. A grid stored without seeds
    (schema version 2) repeats itself.

    >>> grid = [["bpe", 500, 4], ["wp", 500, 4], ["bpe", 500, 1], ["wp", 500, 1]]
    >>> [nth_run(grid, i) for i in (3, 4, 7)]
    [('wp', 500, 1), ('bpe', 500, 5), ('wp', 500, 6)]
    >>> nth_run([["bpe", None]], 5)
    ('bpe', None, None)
    """
    rows = [tuple((*row, None)[:3]) for row in cycle]
    if seq < len(rows) or rows[0][2] is None:
        return rows[seq % len(rows)]
    seeds = list(dict.fromkeys(row[2] for row in rows))
    cells = len(rows) // len(seeds)
    extra, cell = divmod(seq - len(rows), cells)
    low, high = SEED_RANGE
    upward = itertools.chain(range(max(seeds) + 1, high + 1), range(low, high + 1))
    fresh = (seed for seed in upward if seed not in seeds)
    return (*rows[cell][:2], next(itertools.islice(fresh, extra, None)))


def check_target(target: str) -> str:
    """A follow target: a page path inside the app plus its query string, never another site.

    >>> check_target("/attention?layer=2&head=3")
    'attention?layer=2&head=3'
    >>> check_target("https://example.com/")
    Traceback (most recent call last):
    ...
    explorer_core.classroom.records.ClassError: Students can only be brought to a page of this app.
    """
    text = str(target).strip().lstrip("/")
    parts = urlsplit(text)
    bad = (
        parts.scheme
        or parts.netloc
        or "\\" in text
        or any(c.isspace() or unicodedata.category(c) in ("Cc", "Cf") for c in text)
    )
    if bad or str(target).strip().startswith("//") or len(text) > TARGET_LENGTH:
        raise ClassError("input", "Students can only be brought to a page of this app.")
    return text


def to_json(value: dict, limit: int, what: str) -> str:
    """`value` as compact JSON, refused when it is not a JSON object or longer than `limit` bytes.

    >>> to_json({"b": 1, "a": [1, 2]}, 100, "A poll")
    '{"b":1,"a":[1,2]}'
    """
    if not isinstance(value, dict):
        raise ClassError("input", f"{what} must be a JSON object (a dict).")
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ClassError("input", f"{what} must hold only JSON values: {err}.") from err
    if len(text.encode("utf-8")) > limit:
        raise ClassError("input", f"{what} is too large ({limit} bytes of JSON at most).")
    return text
