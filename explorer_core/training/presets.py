"""Model presets sized for a 2-core laptop CPU: Tiny, Small, and the Chinese tutorial's model.

A preset fixes the architecture; the vocabulary size comes from the tokenizer the learner chose, so
`Preset.config(vocab_size, pad_token_id)` turns a preset into a `BertConfig`.

Parameter counts (weights + biases, embeddings included) for a vocabulary of 4,000 tokens:

    tiny      hidden 128, 2 layers, 4 heads, FFN 512            ~0.92 M
    small     hidden 256, 4 layers, 4 heads, FFN 1024           ~4.2 M
    tutorial  as small, with the tutorial's choices (below)      ~4.2 M

The tutorial preset is the architecture of the Chinese tutorial this app grew from: pre-LN blocks
(LayerNorm before attention and before the feed-forward layer, as in GPT-2), fixed sinusoidal
positions followed by a LayerNorm on the embeddings, a ReLU feed-forward layer, no segment
(token type) embedding, and mean pooling. BERT's own choices are post-LN, learned positions, GELU
and two segment embeddings: putting the two presets side by side shows what each choice costs.

>>> PRESETS["tiny"].config(vocab_size=4000).hidden_size
128
>>> PRESETS["tutorial"].config(vocab_size=4000).bert_compatible
False
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer_core.bert.config import BertConfig
from explorer_core.runtime import meminfo_bytes


@dataclass(frozen=True)
class Preset:
    name: str = "tiny"
    description: str = ""
    hidden_size: int = 128
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    intermediate_size: int = 512
    hidden_act: str = "gelu"
    max_position_embeddings: int = 128  # STS sentences are short; 128 tokens covers a pair
    type_vocab_size: int = 2
    position_embedding_type: str = "learned"
    norm_placement: str = "post"
    embedding_layer_norm: bool = True
    hidden_dropout_prob: float = 0.1
    attention_probs_dropout_prob: float = 0.1
    pooling: str = "mean"
    # training defaults that suit the size (the page and the CLI start from these)
    learning_rate: float = 1e-3  # small models from scratch like a larger step than BERT's 1e-4
    batch_size: int = 32

    def config(self, vocab_size: int, pad_token_id: int = 0) -> BertConfig:
        """The `BertConfig` of this preset for a tokenizer with `vocab_size` ids."""
        if not isinstance(vocab_size, int) or vocab_size < 1:
            raise ValueError(f"vocab_size must be a positive whole number, got {vocab_size!r}")
        return BertConfig(
            vocab_size=vocab_size,
            hidden_size=self.hidden_size,
            num_hidden_layers=self.num_hidden_layers,
            num_attention_heads=self.num_attention_heads,
            intermediate_size=self.intermediate_size,
            hidden_act=self.hidden_act,
            hidden_dropout_prob=self.hidden_dropout_prob,
            attention_probs_dropout_prob=self.attention_probs_dropout_prob,
            max_position_embeddings=self.max_position_embeddings,
            type_vocab_size=self.type_vocab_size,
            layer_norm_eps=1e-12 if self.norm_placement == "post" else 1e-5,
            pad_token_id=pad_token_id,
            position_embedding_type=self.position_embedding_type,
            norm_placement=self.norm_placement,
            embedding_layer_norm=self.embedding_layer_norm,
        )


TINY = Preset(
    name="tiny",
    description="About 1M parameters with a 4k vocabulary; the loss drops visibly within a minute.",
)
SMALL = Preset(
    name="small",
    description="About 4M parameters with a 4k vocabulary; minutes per epoch on a laptop CPU.",
    hidden_size=256,
    num_hidden_layers=4,
    num_attention_heads=4,
    intermediate_size=1024,
    learning_rate=5e-4,
)
TUTORIAL = Preset(
    name="tutorial",
    description=(
        "The Chinese tutorial's model: pre-LN, fixed sinusoidal positions with LayerNorm, ReLU, "
        "no segment embedding, mean pooling."
    ),
    hidden_size=256,
    num_hidden_layers=4,
    num_attention_heads=4,
    intermediate_size=1024,
    hidden_act="relu",
    type_vocab_size=0,
    position_embedding_type="sinusoidal",
    norm_placement="pre",
    embedding_layer_norm=True,
    learning_rate=5e-4,
)

PRESETS: dict[str, Preset] = {p.name: p for p in (TINY, SMALL, TUTORIAL)}

# Fine-tuning a pretrained model (MiniLM, a saved checkpoint): Sentence-BERT's small steps. Its
# weights already place sentences well; a large step would wash that out in a few batches.
PRETRAINED_FINETUNE = {"learning_rate": 2e-5, "batch_size": 16}
PRETRAINED_STEPS = 100  # without a budget: ~4 passes over the 385 built-in training pairs
# ...or fewer: MiniLM takes 0.5-3 s a step on 2 shared CPU cores, and a run should end in 3 min
PRETRAINED_SECONDS = 150.0

# The recipe of `train sts` (training/jobs.py); here, torch-free, so that `--help` and the docs
# can quote it (tests/test_defaults_documented.py checks that they do).
PRETRAIN_SHARE = 0.4  # of the time budget spent on pre-training when there is a corpus
DEFAULT_STEPS = 300
# Recipe chosen with bench/sts_quality.py --steps 1000 (what 180 s buys on 2 idle cores) on the
# official train/dev/test splits of the STS-B en+zh subset (1,000 train pairs per language); the
# TF-IDF character baseline scores test 0.713 / 0.715, dev 0.743 / 0.731 (en / zh). Spearman, mean
# of the seeds shown, test en / zh | dev en / zh:
#   57 merges, cosine + in-batch negatives (the old default, seed 0)  0.716 0.734 | 0.711 0.738
#   57 merges, CoSENT + in-batch negatives (seed 0)                    0.745 0.746 | 0.721 0.740
#   200 merges, CoSENT + in-batch negatives (seeds 0-5)                0.739 0.740 | 0.770 0.740
#   150 merges, CoSENT + in-batch negatives (seeds 1, 2)               0.745 0.742 | 0.774 0.752
#   600 merges, CoSENT + in-batch negatives (seeds 1, 2)               0.717 0.750 | 0.745 0.747
#   600 merges, CoSENT, no in-batch negatives (seeds 1, 2)           0.691 0.726 | 0.736 0.737
# Also tried, no better: learning rate 5e-4 / 2e-3, batch 16 / 64, dropout 0, weight decay 0.1,
# one layer, CoSENT scale 40, in-batch scale 40 or positives from score 3.5, 0 / 1,000 merges.
# A few merges keep a char-BPE close to characters, like the baseline's character 1-2 grams (a
# test word never seen in training still shares most of its pieces with training words), while
# frequent English words and syllables become one token; CoSENT only asks that the cosines be in
# the gold order, which is what Spearman measures.
CHAR_MERGES = 150  # merges on top of the training text's characters when vocab_size is None
SCRATCH_LOSS = "cosent"  # fine-tuning loss from scratch; a pretrained start keeps the cosine loss
OTHER_ALGO_VOCAB = 4000  # vocab_size None with another algorithm
IN_BATCH_NEGATIVES = True  # also rank pairs scored >= 4 against the rest of the batch


def get_preset(name: str) -> Preset:
    """The preset called `name` (one of `PRESETS`)."""
    if name not in PRESETS:
        raise ValueError(f"Unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    return PRESETS[name]


def count_parameters(config: BertConfig, *, pooler: bool = True) -> int:
    """Number of weights and biases of a BERT encoder with `config`, computed from the shapes.

    Embeddings: words V*H, learned positions P*H, segments S*H, LayerNorm 2H. Each layer: Q, K, V
    and output projections 4(H*H + H), two LayerNorms 4H, feed-forward 2*H*I + I + H.
    Pooler H*H + H.

    >>> count_parameters(PRESETS["tiny"].config(vocab_size=4000))
    941952
    """
    h, i = config.hidden_size, config.intermediate_size
    emb = config.vocab_size * h + config.type_vocab_size * h
    if config.position_embedding_type == "learned":
        emb += config.max_position_embeddings * h
    if config.embedding_layer_norm:
        emb += 2 * h
    layer = 4 * (h * h + h) + 4 * h + 2 * h * i + i + h
    total = emb + config.num_hidden_layers * layer
    if config.norm_placement == "pre":
        total += 2 * h  # the final LayerNorm after the last pre-LN block
    if pooler:
        total += h * h + h
    return total


def training_memory_bytes(config: BertConfig, batch_size: int, length: int) -> int:
    """A rough upper estimate of the memory one training step of `config` needs, in bytes.

    Weights, gradients and AdamW's two moments: 4 copies of every parameter (fp32). Activations
    kept for the backward pass, per layer: about 16 (B, T, H) tensors, 2 (B, T, I) and 3 attention
    maps (B, heads, T, T); the siamese step runs both sentences, so B counts rows, not pairs.

    >>> round(training_memory_bytes(PRESETS["tiny"].config(4000), 64, 64) / 2**20)
    142
    """
    params = count_parameters(config)
    b, t, h = batch_size, length, config.hidden_size
    per_layer = 16 * b * t * h + 2 * b * t * config.intermediate_size
    per_layer += 3 * b * config.num_attention_heads * t * t
    activations = config.num_hidden_layers * per_layer + 4 * b * t * h
    return 4 * (4 * params + activations)


def available_memory_bytes() -> int | None:
    """Memory the system could give now (Linux MemAvailable), or None when unknown."""
    return meminfo_bytes("MemAvailable")


def check_fits_in_memory(
    config: BertConfig, batch_size: int, length: int, limit: int | None = None
) -> None:
    """Raise ValueError when a training step would need more than half of `limit` bytes.

    `limit` defaults to the memory available now; half of it leaves room for the app itself.
    """
    limit = limit if limit is not None else available_memory_bytes()
    need = training_memory_bytes(config, batch_size, length)
    if limit is not None and need > limit // 2:
        raise ValueError(
            f"This configuration needs about {need / 2**30:.1f} GB to train, more than this "
            f"machine can spare ({limit / 2**30:.1f} GB free): make it smaller"
        )
