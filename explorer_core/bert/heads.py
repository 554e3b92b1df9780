"""BERT's two pre-training tasks on top of the encoder: masked language model and next sentence.

    BertForPreTraining
    ├── bert                       BertModel (explorer_core.bert.model)
    └── cls
        ├── predictions            MLM head: dense + GELU + LayerNorm, then the decoder
        │   └── decoder            H -> vocab, its weight *is* the word-embedding matrix (tied)
        └── seq_relationship       NSP head: pooled [CLS] vector -> 2 logits

MLM: cross-entropy of the vocabulary logits against the original token at each selected position
(label -100 elsewhere: no loss there). NSP: cross-entropy of the 2 logits against
`next_sentence_label` (0: B follows A, 1: B is a random sentence; transformers' convention).
The total loss is their sum. Names are transformers', so state dicts load both ways.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.bert.config import BertConfig
from explorer_core.bert.model import ACTIVATIONS, BertModel, BertModelOutput, init_bert_weights
from explorer_core.bert.weights import load_weights, read_transformers

IGNORE_INDEX = -100  # label of a position without loss (PyTorch's and transformers' convention)
TIED = {  # parameter -> the one it shares storage with
    "cls.predictions.decoder.weight": "bert.embeddings.word_embeddings.weight",
    "cls.predictions.decoder.bias": "cls.predictions.bias",
}


class BertPredictionHeadTransform(nn.Module):
    """dense H -> H, activation, LayerNorm: the MLM head's own small layer before the decoder."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.transform_act_fn = ACTIVATIONS[config.hidden_act]
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, hidden_states: Tensor) -> Tensor:
        return self.LayerNorm(self.transform_act_fn(self.dense(hidden_states)))  # (..., H)


class BertLMPredictionHead(nn.Module):
    """Vocabulary logits: transform, then the decoder tied to the word embeddings, plus a bias."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.transform = BertPredictionHeadTransform(config)
        self.decoder = nn.Linear(config.hidden_size, config.vocab_size)
        self.bias = nn.Parameter(torch.zeros(config.vocab_size))
        self.decoder.bias = self.bias  # one bias under both of transformers' names

    def forward(self, hidden_states: Tensor) -> Tensor:
        return self.decoder(self.transform(hidden_states))  # (..., V)


class BertPreTrainingHeads(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.predictions = BertLMPredictionHead(config)
        self.seq_relationship = nn.Linear(config.hidden_size, 2)


@dataclass
class BertForPreTrainingOutput:
    """Losses (None when their labels were not given) and logits of both tasks."""

    loss: Tensor | None  # mlm_loss + nsp_loss (whichever were computed)
    mlm_loss: Tensor | None
    nsp_loss: Tensor | None
    prediction_logits: Tensor  # (B, T, V), or (N, V) at the N labelled positions only
    seq_relationship_logits: Tensor  # (B, 2): [B follows A, B is random]
    masked_positions: Tensor | None  # (B, T) bool when logits are only at labelled positions
    encoder: BertModelOutput


class BertForPreTraining(nn.Module):
    """BERT with its MLM and NSP heads. `BertForPreTraining(config, seed=0)` is fresh and seeded."""

    def __init__(self, config: BertConfig, seed: int = 0) -> None:
        super().__init__()
        self.config = config
        self.bert = BertModel(config, seed=seed)
        self.cls = BertPreTrainingHeads(config)
        generator = torch.Generator().manual_seed(seed + 1)  # heads: their own stream
        init_bert_weights(self.cls, config.initializer_range, generator)
        self.tie_weights()

    def tie_weights(self) -> None:
        """The decoder's weight is the word-embedding matrix: one (V, H) table, two uses."""
        self.cls.predictions.decoder.weight = self.bert.embeddings.word_embeddings.weight

    def forward(
        self,
        input_ids: Tensor,
        attention_mask: Tensor | None = None,
        token_type_ids: Tensor | None = None,
        labels: Tensor | None = None,
        next_sentence_label: Tensor | None = None,
        *,
        masked_logits_only: bool = False,
        output_attentions: bool = False,
    ) -> BertForPreTrainingOutput:
        """Both heads and, given labels, both losses (labels -100 are ignored).

        `masked_logits_only=True` (needs `labels`) computes the vocabulary logits only where a
        label is set: the same loss, because the other positions add nothing to it, and about
        6x fewer decoder rows at BERT's 15%.
        """
        out = self.bert(
            input_ids, attention_mask, token_type_ids, output_attentions=output_attentions
        )
        sequence = out.last_hidden_state  # (B, T, H)
        selected = None
        if masked_logits_only:
            if labels is None:
                raise ValueError("masked_logits_only needs labels to know which positions count")
            selected = labels != IGNORE_INDEX  # (B, T)
            sequence = sequence[selected]  # (N, H): only the labelled positions
        prediction_logits = self.cls.predictions(sequence)  # (B, T, V) or (N, V)
        nsp_logits = self.cls.seq_relationship(out.pooler_output)  # (B, 2)
        mlm_loss = nsp_loss = None
        if labels is not None:
            targets = labels[selected] if selected is not None else labels.reshape(-1)
            mlm_loss = F.cross_entropy(
                prediction_logits.reshape(-1, self.config.vocab_size),
                targets,
                ignore_index=IGNORE_INDEX,
            )
        if next_sentence_label is not None:
            nsp_loss = F.cross_entropy(
                nsp_logits, next_sentence_label.reshape(-1), ignore_index=IGNORE_INDEX
            )
        present = [loss for loss in (mlm_loss, nsp_loss) if loss is not None]
        return BertForPreTrainingOutput(
            loss=present[0] + present[1] if len(present) == 2 else next(iter(present), None),
            mlm_loss=mlm_loss,
            nsp_loss=nsp_loss,
            prediction_logits=prediction_logits,
            seq_relationship_logits=nsp_logits,
            masked_positions=selected,
            encoder=out,
        )

    @classmethod
    def from_transformers(cls, source: str | os.PathLike | nn.Module) -> BertForPreTraining:
        """Load a transformers BertForPreTraining (folder with safetensors, or in memory)."""
        config, weights = read_transformers(source)
        for tied, source_name in TIED.items():  # save_pretrained writes a tied tensor only once
            if tied not in weights and source_name in weights:
                weights[tied] = weights[source_name]
        model = cls(config)
        load_weights(model, weights)
        model.tie_weights()
        return model.eval()
