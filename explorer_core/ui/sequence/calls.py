"""Cached calls of the Sequence models page: the sentence's tokens, the six models on it, the
timed steps, and the recall task trained in a thread of the server.

Every number comes from `explorer_core.sequence`; this module turns tensors into numpy arrays and
keeps them in Streamlit's caches (plain arguments, `max_entries`). The recall run takes tens of
seconds on a busy 2-core server (25 trainings), so it runs in one thread per config, shared by
every session (`RecallRuns`); the page polls its progress once a second.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np
import streamlit as st
import torch

from explorer_core.files import taught_model
from explorer_core.runtime import start_thread
from explorer_core.sequence import cost, ngram, recall
from explorer_core.sequence.attention import SelfAttentionLayer
from explorer_core.sequence.compare import MODELS, ComparisonConfig, compare_models
from explorer_core.sequence.config import AttentionConfig, RecurrentConfig
from explorer_core.sequence.recurrent import RecurrentModel
from explorer_core.ui.pretrained import minilm_tokenizer, taught_tokenizer

EMBEDDING_SIZE = ComparisonConfig().embedding_size  # 16: every model's input and hidden width
LSTM_GATES, GRU_GATES = ("i", "f", "g", "o"), ("r", "z", "n")
GRADIENT_MODELS = ("rnn", "lstm", "gru", "attention")  # the n-gram window has no long path
LENGTHS = (16, 64, 256)  # the steps view's sentence lengths (Vaswani et al. 2017, Table 1)
RECALL = recall.RecallConfig()  # the default run: 5 models × k = 5, 10, 20, 50, 100, seed 0


@dataclass(frozen=True)
class Sentence:
    ids: tuple[int, ...]
    labels: tuple[str, ...]  # "3 · cat": position and token text
    vocab_size: int  # of the tokenizer that cut it: the random embedding table's rows
    unknown: int  # tokens the vocabulary lacks ([UNK]: one shared row of the table)
    taught: bool  # cut by MiniLM + 中文's tokenizer (a Chinese UI, once it is built here)


def sentence(text: str, chinese_ui: bool) -> Sentence:
    """The text cut by the app's WordPiece: MiniLM's vocabulary, or in a Chinese UI MiniLM +
    中文's once it is built on this install (MiniLM's lacks most Chinese characters)."""
    taught = taught_tokenizer() if chinese_ui else None
    return _sentence(text, taught is not None, taught_model.stamp() if taught else None)


@st.cache_data(max_entries=32, show_spinner=False)
def _sentence(text: str, taught: bool, stamp: float | None) -> Sentence:
    tokenizer = taught_tokenizer() if taught else minilm_tokenizer()
    ids = tuple(tokenizer.encode(text))
    pieces = [tokenizer.id_to_token(x) for x in ids]
    labels = tuple(f"{i} · {piece}" for i, piece in enumerate(pieces))
    return Sentence(ids, labels, tokenizer.vocab_size, pieces.count("[UNK]"), taught)


@dataclass(frozen=True)
class Comparison:
    states: dict[str, np.ndarray]  # model -> (T, width)
    gradients: dict[str, np.ndarray]  # model -> (T,): ‖∂h_T/∂x_t‖ at distance 0 .. T - 1
    gates: dict[str, dict[str, np.ndarray]]  # "lstm" / "gru" -> gate -> (T,): mean over units
    window: list[list[bool]]  # (T, T): which tokens position t's n-gram window reads


@st.cache_data(max_entries=16, show_spinner=False)
def comparison(ids: tuple[int, ...], n: int, seed: int, vocab_size: int) -> Comparison:
    """The six models on one sentence from one seed (`compare_models`); ValueError on bad input."""
    views = compare_models(list(ids), ComparisonConfig(vocab_size, n=n, seed=seed))
    gates = {
        kind: {g: views[kind].records[f"l0.{g}"].mean(dim=-1).numpy() for g in names}
        for kind, names in (("lstm", LSTM_GATES), ("gru", GRU_GATES))
    }  # (T,) per gate: the mean over the d units
    return Comparison(
        {name: views[name].hidden_states.numpy() for name in MODELS},
        {name: np.asarray(views[name].gradient.norms) for name in MODELS},
        gates, ngram.readable(len(ids), n - 1),
    )  # fmt: skip


@st.cache_data(max_entries=1, ttl=600, show_spinner=False)
def step_times(lengths: tuple[int, ...] = LENGTHS) -> tuple[list[cost.StepTiming], float]:
    """Steps, path lengths and times measured on this server now (kept 10 minutes), and when."""
    return cost.timed_steps(lengths), time.time()


# ---- the recall task, trained in a thread ------------------------------------------------------


@dataclass
class RecallRun:
    """One run of the recall task; written by its thread, read by the pages."""

    config: recall.RecallConfig
    gradient_k: int  # the distance whose trained networks give the "after training" gradients
    results: list[recall.RecallResult] = field(default_factory=list)
    # model -> (‖∂h_L/∂x_t‖ before training, after), by distance, on one fresh sentence
    gradients: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    seconds: float = 0.0
    error: str = ""
    finished: bool = False
    thread: threading.Thread | None = None

    @property
    def total(self) -> int:
        return len(self.config.models) * len(self.config.distances)


class RecallRuns:
    """The server's recall runs by config: one thread each, whoever started it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.runs: dict[recall.RecallConfig, RecallRun] = {}

    def start(self, config: recall.RecallConfig) -> RecallRun:
        with self._lock:
            run = self.runs.get(config)
            if run is not None and not (run.finished and run.error):
                return run  # running, or done
            k = config.distances[1] if len(config.distances) > 1 else config.distances[0]
            run = self.runs[config] = RecallRun(config, k)
        run.thread = start_thread(_train, name="sequence-recall", args=(run,))
        return run


def _train(run: RecallRun) -> None:
    config, start = run.config, time.perf_counter()
    symbols = recall.sentences(config, run.gradient_k, 1, torch.Generator().manual_seed(1))[0]
    try:
        for name in config.models:
            for k in config.distances:
                net, result = recall.train_net(name, k, config)
                if k == run.gradient_k and name in GRADIENT_MODELS:
                    before = recall.net_gradient(recall.fresh_net(name, config), symbols)
                    after = recall.net_gradient(net, symbols)
                    run.gradients[name] = (np.asarray(before.norms), np.asarray(after.norms))
                run.results.append(result)
                run.seconds = time.perf_counter() - start
    except (RuntimeError, ValueError) as err:
        run.error = str(err).splitlines()[0] if str(err) else type(err).__name__
    finally:
        run.seconds = time.perf_counter() - start
        run.finished = True


@st.cache_resource(max_entries=1, show_spinner=False)
def recall_runs() -> RecallRuns:
    return RecallRuns()


def recall_config() -> recall.RecallConfig:
    """The page's run (tests replace RECALL with a tiny one)."""
    return RECALL


def recall_run() -> RecallRun | None:
    """This server's run of the page's config, started or finished, or None."""
    return recall_runs().runs.get(recall_config())


@st.cache_data(max_entries=16, show_spinner=False)
def step_counts(length: int) -> list[cost.StepCount]:
    """Sequential steps and the longest path of the RNN and of attention for L = `length`."""
    generator = torch.Generator().manual_seed(0)
    models = {
        "rnn": RecurrentModel(RecurrentConfig("rnn", EMBEDDING_SIZE, EMBEDDING_SIZE), generator),
        "attention": SelfAttentionLayer(AttentionConfig(EMBEDDING_SIZE, 1), generator),
    }
    return [cost.count_steps(name, m, length, EMBEDDING_SIZE) for name, m in models.items()]
