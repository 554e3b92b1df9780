"""A class experiment's runs: which tokenizer each run trains with.

Issue 22's experiment asks "which tokenizer makes the better model?". Every run trains the same
model on the same pairs; only the tokenizer changes. The teacher picks algorithms and vocabulary
sizes, and run number `index` gets the pair `assign_round_robin` gives it (sizes vary fastest, so
the first runs cover one algorithm's sizes, then the next algorithm's). `train_tokenizer` trains
that tokenizer exactly as `train sts` does (`jobs.get_tokenizer`), so a student's run on the Train
page and the teacher's `experiment tokenizers` command use the same recipe; `with_tokenizer` puts
it into a plan the page already built. The results side lives in `analysis.experiment`.

>>> assign_round_robin(3, ["char-bpe", "wordpiece"], [1000, 2000])
('wordpiece', 2000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import ALGORITHMS, Tokenizer
from explorer_core.training.base_models import FRESH_INITS
from explorer_core.training.jobs import StsJob, get_tokenizer
from explorer_core.training.jobs import build_plan as build_sts_plan
from explorer_core.training.run import TrainingPlan

SNAPSHOT_EVERY = 25  # the Train page's before/after views (as `choices.TrainChoices`)

__all__ = [
    "ALGORITHMS",
    "assign_round_robin",
    "check_grid",
    "controlled_plan",
    "train_tokenizer",
    "with_tokenizer",
]


def check_grid(algorithms: Sequence[str], vocab_sizes: Sequence[int | None]) -> None:
    """Raise ValueError unless every algorithm is known and every size is positive (or None).

    >>> check_grid(["char-bpe"], [0])
    Traceback (most recent call last):
    ...
    ValueError: A vocabulary size must be a positive whole number (or None for the default), not 0
    """
    if not algorithms or not vocab_sizes:
        raise ValueError("The experiment needs at least one algorithm and one vocabulary size")
    for algo in algorithms:
        if algo not in ALGORITHMS:
            raise ValueError(
                f"Unknown tokenizer algorithm {algo!r}; choose from {', '.join(ALGORITHMS)}"
            )
    for size in vocab_sizes:
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
            raise ValueError(
                "A vocabulary size must be a positive whole number (or None for the default), "
                f"not {size!r}"
            )


def assign_round_robin(
    index: int, algorithms: Sequence[str], vocab_sizes: Sequence[int | None]
) -> tuple[str, int | None]:
    """The (algorithm, vocabulary size) of run number `index` (0, 1, 2, ... in order of joining).

    The grid is algorithms x sizes, sizes varying fastest; run `index` takes cell
    `index mod cells`, so with k runs per cell every cell gets k runs before any gets k + 1.

    >>> [assign_round_robin(i, ["char-bpe", "byte-bpe"], [300, None])[1] for i in range(5)]
    [300, None, 300, None, 300]
    >>> [assign_round_robin(i, ["char-bpe", "byte-bpe"], [300, None])[0] for i in range(5)]
    ['char-bpe', 'char-bpe', 'byte-bpe', 'byte-bpe', 'char-bpe']
    """
    check_grid(algorithms, vocab_sizes)
    if index < 0:
        raise ValueError(f"The run index counts from 0, not {index}")
    cell = index % (len(algorithms) * len(vocab_sizes))
    return algorithms[cell // len(vocab_sizes)], vocab_sizes[cell % len(vocab_sizes)]


def train_tokenizer(
    algorithm: str, vocab_size: int | None, texts: Sequence[str], lowercase: bool = True
) -> Tokenizer:
    """A tokenizer of `algorithm` trained on `texts`, as `train sts --tokenizer-algo` trains one.

    `vocab_size` None is `train sts`'s default: the text's characters + `jobs.CHAR_MERGES`
    merges for char-BPE, `jobs.OTHER_ALGO_VOCAB` for the others. ValueError (a sentence) when
    the size is too small for the text's characters, or the algorithm is unknown.
    """
    check_grid([algorithm], [vocab_size])
    # subtle: StsJob treats vocab_size 0 as "default"; check_grid has refused 0 already
    job = StsJob(train=Path(), out=Path(), tokenizer_algo=algorithm, vocab_size=vocab_size,
                 lowercase=lowercase)  # fmt: skip
    return get_tokenizer(job, list(texts))


def with_tokenizer(
    plan: TrainingPlan,
    algorithm: str,
    vocab_size: int | None,
    texts: Sequence[str] | None = None,
) -> TrainingPlan:
    """`plan` with a fresh tokenizer of `algorithm` and a model config sized for it.

    The tokenizer is trained on `texts` (default: the plan's training sentences, as the CLI
    does); the model config keeps every size but the vocabulary (and [PAD]'s id). A plan that
    starts from a pretrained model or the session's model keeps its own tokenizer: ValueError.
    The memory estimate of the page's plan was made for the old vocabulary; with a much larger
    one, recompute it (`choices.run_memory_bytes(new.model_config, ...)`).
    """
    if plan.init not in FRESH_INITS or plan.base_model is not None:
        raise ValueError("A run that continues a trained model keeps that model's tokenizer")
    if texts is None:
        texts = [s for p in plan.train_pairs for s in (p.sentence1, p.sentence2)]
    tokenizer = train_tokenizer(algorithm, vocab_size, texts)
    vocab = BertVocab.of(tokenizer)
    config = replace(plan.model_config, vocab_size=vocab.size, pad_token_id=vocab.pad_id)
    return replace(plan, tokenizer=tokenizer, model_config=config)


def controlled_plan(
    preset: str, steps: int, seed: int, tokenizer: Tokenizer, parts: dict[str, list]
) -> TrainingPlan:
    """The plan of one run of a controlled experiment: `train sts`'s recipe (`jobs.build_plan`,
    what `experiment tokenizers` runs) for `preset`, fine-tuning fresh weights on `parts["train"]`
    for exactly `steps` steps (no time budget: a run sharing the cores with others still trains
    them all), with `seed`. The Train page runs this plan for a student in a class experiment,
    whatever the student's own settings; it adds snapshots and more evaluations for its views,
    which read the model and leave the training as it is.

    >>> from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
    >>> parts = split_pairs(builtin_sts_pairs())
    >>> tok = train_tokenizer("byte-bpe", 300, ["a few words", "in two lines"])
    >>> plan = controlled_plan("tiny", 150, 2, tok, parts)
    >>> fine = plan.finetune
    >>> (plan.pretrain, fine.steps, fine.time_budget, fine.seed, fine.max_length, plan.name)
    (None, 150, None, 2, 64, 'tiny')
    """
    job = StsJob(train=Path(), out=Path(), preset=preset, steps=int(steps), seed=int(seed),
                 device="cpu")  # fmt: skip
    plan = build_sts_plan(job, tokenizer, parts)
    assert plan.pretrain is None and plan.finetune.time_budget is None, "steps alone stop it"
    fine = replace(plan.finetune, snapshot_every=SNAPSHOT_EVERY,
                   eval_every=min(plan.finetune.eval_every, max(5, int(steps) // 10)))  # fmt: skip
    return replace(plan, finetune=fine)
