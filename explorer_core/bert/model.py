"""BERT's encoder, layer by layer, with transformers' names so real checkpoints load unchanged.

    BertModel
    ├── embeddings   token + position + segment, LayerNorm        (explorer_core.bert.embeddings)
    ├── encoder.layer[N]   one BertLayer per layer (explorer_core.bert.layer); ALBERT: 1, shared
    │   ├── attention   self-attention, dense, residual, LayerNorm (explorer_core.bert.attention)
    │   ├── intermediate  dense H -> I, GELU (GeGLU: H -> 2I, act(input) ⊙ gate)
    │   └── output      dense I -> H, residual, LayerNorm
    └── pooler       dense + tanh on the first token ([CLS]); None without one

Post-LN (BERT): x = LN(x + sublayer(x)). Pre-LN (GPT-2, ModernBERT): x = x + sublayer(LN(x)),
with one more LayerNorm after the last layer. `BertModel.from_transformers` loads a checkpoint of
any family in `explorer_core.bert.families` (folder with config.json and model.safetensors, or a
model in memory); the family's switches live in `BertConfig`, the names stay BERT's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

import torch
from torch import Tensor, nn

from explorer_core.bert.attention import (
    CellArithmetic,
    additive_mask,
    allowed_keys,
    cell_arithmetic,
    layer_mask,
)
from explorer_core.bert.config import BertConfig
from explorer_core.bert.embeddings import BertEmbeddings
from explorer_core.bert.families import weights_to_ours
from explorer_core.bert.layer import ACTIVATIONS, BertIntermediate, BertLayer, BertOutput
from explorer_core.bert.weights import load_weights, read_transformers

__all__ = [
    "ACTIVATIONS", "BertConfig", "BertEncoder", "BertIntermediate", "BertLayer", "BertModel",
    "BertModelOutput", "BertOutput", "BertPooler",
]  # fmt: skip


@dataclass
class BertModelOutput:
    """BertModel's outputs; the tuples have one entry per layer (hidden_states: one more)."""

    last_hidden_state: Tensor  # (B, T, H)
    pooler_output: Tensor | None  # (B, H): tanh(dense(h_[CLS])); None for a model without pooler
    hidden_states: tuple[Tensor, ...] | None = None  # embeddings, then each layer: (B, T, H)
    attentions: tuple[Tensor, ...] | None = None  # (B, heads, T, T) per layer
    scores: tuple[Tensor, ...] | None = None  # (B, heads, T, T) per layer, pre-softmax, masked


class BertEncoder(nn.Module):
    """The stack of layers; under pre-LN a final LayerNorm follows the last one.

    With `shared_layers` (ALBERT) `layer` holds the *same* BertLayer num_hidden_layers times: one
    set of weights, applied again and again.
    """

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        if config.shared_layers:
            shared = BertLayer(config)
            self.layer = nn.ModuleList([shared] * config.num_hidden_layers)
        else:
            self.layer = nn.ModuleList(
                BertLayer(config, index) for index in range(config.num_hidden_layers)
            )
        self.LayerNorm = None
        if config.norm_placement == "pre":
            self.LayerNorm = nn.LayerNorm(
                config.hidden_size, eps=config.layer_norm_eps, bias=config.norm_bias
            )

    def forward(
        self,
        hidden_states: Tensor,
        attention_mask: Tensor | None = None,
        position_ids: Tensor | None = None,
        output_attentions: bool = False,
        output_hidden_states: bool = False,
        output_scores: bool = False,
        local_mask: Tensor | None = None,
    ) -> tuple[Tensor, list[Tensor], list[Tensor], list[Tensor]]:
        """-> (last hidden state, hidden states, weights, scores), the lists empty unless asked.

        `attention_mask` is the global layers' additive mask, `local_mask` the local layers'
        (the same keys, then only those within the window; see attention.layer_mask).
        """
        states, weights, scores = [hidden_states], [], []
        for layer in self.layer:
            mask = attention_mask if layer.window is None else local_mask
            result = layer(hidden_states, mask, position_ids, output_attentions, output_scores)
            hidden_states = result.output
            states.append(hidden_states)
            weights.append(result.weights)
            scores.append(result.scores)
        if self.LayerNorm is not None:
            hidden_states = self.LayerNorm(hidden_states)
            states[-1] = hidden_states  # as GPT-2 and ModernBERT: the last entry is normalised
        return (
            hidden_states,
            states if output_hidden_states else [],
            weights if output_attentions else [],
            scores if output_scores else [],
        )


class BertPooler(nn.Module):
    """BERT's sentence vector for NSP and classification: tanh(dense(h_[CLS]))."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.activation = nn.Tanh()

    def forward(self, hidden_states: Tensor) -> Tensor:
        return self.activation(self.dense(hidden_states[:, 0]))  # (B, H)


@torch.no_grad()
def init_bert_weights(module: nn.Module, std: float, generator: torch.Generator) -> None:
    """BERT's initialisation: N(0, std) for dense weights, zero biases, LayerNorm 1 and 0."""
    for sub in module.modules():
        if isinstance(sub, nn.Linear):
            nn.init.normal_(sub.weight, 0.0, std, generator=generator)
            if sub.bias is not None:
                nn.init.zeros_(sub.bias)
        elif isinstance(sub, nn.LayerNorm):
            nn.init.ones_(sub.weight)
            if sub.bias is not None:
                nn.init.zeros_(sub.bias)
        elif isinstance(sub, nn.Embedding):  # relative-position tables inside attention
            nn.init.normal_(sub.weight, 0.0, std, generator=generator)


class BertModel(nn.Module):
    """The BERT encoder. `BertModel(config, seed=0)` is a fresh, seeded, untrained model.

    `initialize=False` skips BERT's seeded start, for a model whose every weight is loaded next
    (`from_transformers`: 43 normal draws for MiniLM, ~0.15 s of a page's first visit).
    """

    def __init__(self, config: BertConfig, seed: int = 0, *, initialize: bool = True) -> None:
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        self.encoder = BertEncoder(config)
        self.pooler = BertPooler(config) if config.add_pooling_layer else None
        if not initialize:
            return
        generator = torch.Generator().manual_seed(seed)
        init_bert_weights(self.encoder, config.initializer_range, generator)
        if self.pooler is not None:
            init_bert_weights(self.pooler, config.initializer_range, generator)
        self.embeddings.init_weights(generator)

    def _check(self, input_ids: Tensor, attention_mask: Tensor | None) -> None:
        if input_ids.dim() != 2:
            raise ValueError(f"input_ids must be (batch, length), got {tuple(input_ids.shape)}")
        length, limit = input_ids.shape[1], self.config.max_tokens
        if length == 0:
            raise ValueError("the input is empty: give at least one token")
        if self.config.position_embedding_type == "learned" and length > limit:
            raise ValueError(f"{length} tokens is longer than this model's maximum of {limit}")
        if attention_mask is not None and attention_mask.shape != input_ids.shape:
            raise ValueError("attention_mask must have the same shape as input_ids")

    def forward(
        self,
        input_ids: Tensor,
        attention_mask: Tensor | None = None,
        token_type_ids: Tensor | None = None,
        output_attentions: bool = False,
        output_hidden_states: bool = False,
        output_scores: bool = False,
        causal: bool | None = None,
        position_ids: Tensor | None = None,
    ) -> BertModelOutput:
        """input_ids (B, T) -> BertModelOutput; attention_mask (B, T) is 1 for tokens, 0 for pad.

        `causal` None: the config's (a decoder sees only earlier keys); True or False overrides it
        (an encoder's weights under a decoder's mask, for comparison)."""
        self._check(input_ids, attention_mask)
        causal = self.config.causal if causal is None else causal
        embedded = self.embeddings(input_ids, token_type_ids, position_ids)  # (B, T, H)
        if attention_mask is not None and bool(attention_mask.all()):
            attention_mask = None  # nothing padded: skip the mask (the fused kernel runs faster)
        length = input_ids.shape[1]
        allowed = allowed_keys(attention_mask, length, causal=causal)
        mask = additive_mask(allowed, embedded.dtype)  # (B, 1, T|1, T) or None
        local = None  # the local layers' mask (ModernBERT): the same keys, within the window
        if self.config.local_attention is not None:
            local = layer_mask(allowed, length, self.config.local_attention // 2, embedded.dtype)
        last, states, weights, scores = self.encoder(
            embedded, mask, position_ids, output_attentions, output_hidden_states, output_scores,
            local_mask=local,
        )  # fmt: skip
        return BertModelOutput(
            last_hidden_state=last,
            pooler_output=self.pooler(last) if self.pooler is not None else None,
            hidden_states=tuple(states) if output_hidden_states else None,
            attentions=tuple(weights) if output_attentions else None,
            scores=tuple(scores) if output_scores else None,
        )

    @torch.no_grad()
    def explain_cell(
        self,
        input_ids: Tensor,
        *,
        layer: int,
        head: int,
        query: int,
        key: int,
        attention_mask: Tensor | None = None,
        token_type_ids: Tensor | None = None,
        causal: bool | None = None,
    ) -> CellArithmetic:
        """The arithmetic behind one weight of the first sentence in the batch (see attention)."""
        self._check_layer(layer)
        ids = input_ids[:1]
        mask_row = attention_mask[:1] if attention_mask is not None else None
        out = self(ids, mask_row, token_type_ids[:1] if token_type_ids is not None else None,
                   output_hidden_states=True, causal=causal)  # fmt: skip
        return self.cell_from_states(out.hidden_states, layer=layer, head=head, query=query,
                                     key=key, attention_mask=mask_row, causal=causal)  # fmt: skip

    @torch.no_grad()
    def cell_from_states(
        self,
        hidden_states: tuple[Tensor, ...],
        *,
        layer: int,
        head: int,
        query: int,
        key: int,
        attention_mask: Tensor | None = None,
        causal: bool | None = None,
    ) -> CellArithmetic:
        """`explain_cell` from a run's `hidden_states` (`output_hidden_states=True`, its first
        sentence): one layer's arithmetic and no forward pass, so every other cell of the same
        sentence costs one layer, not the whole model (12 layers of 768 on a BERT-base)."""
        self._check_layer(layer)
        hidden = hidden_states[layer][:1]  # (1, T, H): the layer's input (layer < L: no final LN)
        width = hidden.shape[1]
        mask_row = attention_mask[:1] if attention_mask is not None else None
        attention = self.encoder.layer[layer].attention
        causal = self.config.causal if causal is None else causal
        allowed = allowed_keys(mask_row, width, causal=causal)
        return cell_arithmetic(
            attention.self,
            attention.attention_input(hidden),
            layer_mask(allowed, width, attention.self.window, hidden.dtype),
            head=head,
            query=query,
            key=key,
        )

    def _check_layer(self, layer: int) -> None:
        if not 0 <= layer < self.config.num_hidden_layers:
            raise ValueError(f"layer must be 0 .. {self.config.num_hidden_layers - 1}, got {layer}")

    @classmethod
    def from_transformers(cls, source: str | os.PathLike | nn.Module) -> BertModel:
        """Load any supported family (bert/families.py: BERT, RoBERTa, XLM-R, DistilBERT, ALBERT,
        ELECTRA, ModernBERT): a folder (config.json + model.safetensors, or a sharded
        model.safetensors.index.json) or a transformers model in memory.

        Only safetensors files are read (never pickles). Task heads are left out; any other
        unknown or missing weight is an error naming it. The result is in eval mode.
        """
        config, weights = read_transformers(source)
        ours = weights_to_ours(config, weights)
        if config.add_pooling_layer and not any(name.startswith("pooler.") for name in ours):
            config = replace(config, add_pooling_layer=False)  # saved without (e.g. ...ForMaskedLM)
        model = cls(config, initialize=False)  # load_weights fails on any weight it does not set
        load_weights(model, ours)
        return model.eval()
