"""`LMTrainConfig`: one frozen, validated description of a small decoder trained in place.

The defaults are tuned to learn visibly in a minute on two CPU cores (bench/decoder_lm.py): loss
below the bigram line and samples made of real words. Sizes use transformers' names; the model
itself is `explorer_core.bert.causal_lm.BertForCausalLM` with GPT-2's switches.
"""

from __future__ import annotations

from dataclasses import dataclass

LANGS = ("en", "zh", "both")  # both: the English and Chinese texts interleaved ("mixed" corpus)
DEFAULT_PROMPTS = {"en": "The model", "zh": "模型", "both": "The model"}


@dataclass(frozen=True)
class LMTrainConfig:
    lang: str = "en"  # one of LANGS: which built-in corpus to read
    seconds: float | None = 60.0  # wall-clock budget; None: stop after `steps` only
    steps: int | None = None  # step budget; with both set, whichever comes first
    seed: int = 0  # model init, batches and samples all come from it
    # --- the model: GPT-2's layers, small enough for two CPU cores ---
    hidden_size: int = 96
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    block_size: int = 64  # the longest context; also GPT-2's n_positions
    vocab_size: int = 384  # byte-level BPE: 256 bytes + 128 merges learned from the corpus
    dropout: float = 0.1  # the corpus is small (~30 KB): without it the decoder memorises
    # --- the optimiser ---
    batch_size: int = 16
    learning_rate: float = 6e-3  # AdamW; a small model tolerates a large step
    weight_decay: float = 0.1  # AdamW's decoupled decay, on matrices only (not norms, biases)
    warmup_steps: int = 20  # the learning rate grows linearly over these steps
    # the original Transformer's "embedding × √d_model"; GPT-2 itself does not scale
    scale_embedding: bool = True
    tie_word_embeddings: bool = True  # the output layer is the embedding matrix (GPT-2)
    # --- what the run reports ---
    eval_every: int = 50  # held-out loss every this many steps (and at the start and end)
    sample_every: int = 200  # a generated sample every this many steps (and at the end)
    sample_prompt: str | None = None  # None: DEFAULT_PROMPTS[lang]
    sample_tokens: int = 30  # new tokens per sample
    heldout_fraction: float = 0.1  # the corpus's tail kept out of training, for the loss

    def __post_init__(self) -> None:
        if self.lang not in LANGS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)}, got {self.lang!r}")
        if self.seconds is None and self.steps is None:
            raise ValueError("give a budget: seconds, steps or both")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be more than 0, got {self.seconds}")
        whole = ("hidden_size", "num_hidden_layers", "num_attention_heads", "block_size",
                 "batch_size", "eval_every", "sample_every", "sample_tokens")  # fmt: skip
        for name in whole + (("steps",) if self.steps is not None else ()):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        if self.hidden_size % self.num_attention_heads:
            raise ValueError(
                f"hidden_size ({self.hidden_size}) must be divisible by num_attention_heads "
                f"({self.num_attention_heads}) so every head gets the same width"
            )
        if not isinstance(self.vocab_size, int) or not 257 <= self.vocab_size <= 8192:
            raise ValueError(
                "vocab_size must be between 257 (the 256 bytes and one merge) and 8192, "
                f"got {self.vocab_size!r}"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")
        if not self.learning_rate > 0 or self.weight_decay < 0 or self.warmup_steps < 0:
            raise ValueError(
                "learning_rate must be above 0, weight_decay and warmup_steps 0 or more"
            )
        if not 0.0 < self.heldout_fraction < 0.5:
            raise ValueError(f"heldout_fraction must be in (0, 0.5), got {self.heldout_fraction}")
        if self.sample_prompt is not None and not self.sample_prompt.strip():
            raise ValueError("sample_prompt must hold some text, or be None for the default")

    @property
    def prompt(self) -> str:
        """The prompt samples start from."""
        return self.sample_prompt if self.sample_prompt is not None else DEFAULT_PROMPTS[self.lang]
