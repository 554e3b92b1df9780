"""A decoder: the same encoder under the causal mask, with a language-model head on top.

    BertForCausalLM
    ├── bert      BertModel with `causal=True` (GPT-2: pre-LN, learned positions, a final LN)
    └── lm_head   H -> vocab, no bias; its weight *is* the word-embedding matrix when tied

logits[b, i] scores every token of the vocabulary as the one that follows position i; the loss is
the cross-entropy of logits[:, :-1] against input_ids[:, 1:] (every position predicts its next
token, and the causal mask keeps that token out of its sight). transformers calls this model
`BertLMHeadModel` (BERT as a decoder) and `GPT2LMHeadModel`; the newer families `...ForCausalLM`.

GPT-2 folders both ways: `from_transformers(folder)` reads a GPT2LMHeadModel's config.json and
safetensors; `to_gpt2()` gives the config.json dict and state dict that GPT2LMHeadModel loads
with the same logits, hidden states and attention weights.

# subtle: GPT-2 never scales its token vectors. With `scale_embedding` on, the saved `wte` is our
# matrix × √H (what really enters block 0), so GPT-2's input is ours; the output layer must stay
# the unscaled matrix, so the saved folder is untied (`tie_word_embeddings: false`, `lm_head` =
# ours). Our own switches are kept under the extra key `explorer_decoder`, which transformers
# ignores and `from_transformers` reads back, so loading restores exactly the model that was saved.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.bert.config import BertConfig
from explorer_core.bert.family_weights import weights_to_gpt2
from explorer_core.bert.model import BertModel
from explorer_core.bert.weights import load_weights, read_transformers

OWN_KEY = "explorer_decoder"  # config.json: our switches GPT-2 does not have
GPT2_ACTIVATIONS = {"gelu_new": "gelu_new", "gelu": "gelu", "relu": "relu", "silu": "silu"}


GPT2_SWITCHES: dict[str, Any] = {  # what makes our encoder GPT-2 (bert/families.py reads them)
    "model_type": "gpt2", "causal": True, "norm_placement": "pre", "hidden_act": "gelu_new",
    "type_vocab_size": 0, "embedding_layer_norm": False, "add_pooling_layer": False,
    "layer_norm_eps": 1e-5, "position_embedding_type": "learned",
}  # fmt: skip


def decoder_config(**fields: Any) -> BertConfig:
    """A GPT-2-shaped `BertConfig`: GPT2_SWITCHES, then `fields` (sizes, scale_embedding, ...).

    >>> decoder_config(hidden_size=64, num_attention_heads=4).causal
    True
    """
    return BertConfig(**{**GPT2_SWITCHES, **fields})


def check_gpt2_shape(config: BertConfig) -> None:
    """Raise ValueError unless GPT2LMHeadModel can hold this architecture."""
    wanted = {
        "position_embedding_type": "learned", "norm_placement": "pre", "type_vocab_size": 0,
        "embedding_layer_norm": False, "causal": True, "embedding_size": None,
        "shared_layers": False, "norm_bias": True, "attention_bias": True, "mlp_bias": True,
        "first_attention_norm": True, "ffn_type": "mlp", "local_attention": None,
        "pad_aware_positions": False, "add_pooling_layer": False,
    }  # fmt: skip
    wrong = [f"{k}={getattr(config, k)!r}" for k, v in wanted.items() if getattr(config, k) != v]
    if wrong:
        raise ValueError(f"GPT-2 cannot hold this model: it has {', '.join(wrong)}")


class BertForCausalLM(nn.Module):
    """A decoder. `BertForCausalLM(config, seed=0)` is fresh and seeded; `model(ids)` -> logits."""

    def __init__(self, config: BertConfig, seed: int = 0, *, initialize: bool = True) -> None:
        super().__init__()
        if not config.causal:
            raise ValueError("a causal language model needs causal=True in its config")
        self.config = config
        self.bert = BertModel(config, seed, initialize=initialize)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        if config.tie_word_embeddings:
            self.lm_head.weight = self.bert.embeddings.word_embeddings.weight
        elif initialize:
            generator = torch.Generator().manual_seed(seed + 1)  # the head: its own stream
            std = config.initializer_range
            with torch.no_grad():
                nn.init.normal_(self.lm_head.weight, 0.0, std, generator=generator)

    def forward(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """input_ids (B, T) -> logits (B, T, V): position i scores the token after it."""
        hidden = self.bert(input_ids, attention_mask).last_hidden_state  # (B, T, H)
        return self.lm_head(hidden)  # (B, T, V)

    def loss(self, input_ids: Tensor) -> Tensor:
        """Mean next-token cross-entropy (nats) over every position of every row, (B, T)."""
        logits = self(input_ids[:, :-1])  # (B, T-1, V): no target after the last token
        targets = input_ids[:, 1:]  # (B, T-1)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))

    # ---- GPT-2 folders -------------------------------------------------------------------------

    def to_gpt2(self) -> tuple[dict[str, Any], dict[str, Tensor]]:
        """(config.json dict, state dict) of the GPT2LMHeadModel that computes what we compute."""
        config = self.config
        check_gpt2_shape(config)
        if config.hidden_act not in GPT2_ACTIVATIONS:
            raise ValueError(f"GPT-2 has no activation {config.hidden_act!r}")
        state = {k: v.detach().clone() for k, v in self.bert.state_dict().items()}
        word = "embeddings.word_embeddings.weight"
        if config.scale_embedding:
            state[word] = state[word] * math.sqrt(config.hidden_size)  # what enters block 0
        weights = weights_to_gpt2(config, state)
        tied = config.tie_word_embeddings and not config.scale_embedding
        if not tied:
            weights["lm_head.weight"] = self.lm_head.weight.detach().clone()
        data = {
            "model_type": "gpt2", "architectures": ["GPT2LMHeadModel"],
            "vocab_size": config.vocab_size, "n_positions": config.max_position_embeddings,
            "n_embd": config.hidden_size, "n_layer": config.num_hidden_layers,
            "n_head": config.num_attention_heads, "n_inner": config.intermediate_size,
            "activation_function": GPT2_ACTIVATIONS[config.hidden_act],
            "resid_pdrop": config.hidden_dropout_prob, "embd_pdrop": config.hidden_dropout_prob,
            "attn_pdrop": config.attention_probs_dropout_prob,
            "layer_norm_epsilon": config.layer_norm_eps,
            "initializer_range": config.initializer_range, "scale_attn_weights": True,
            "tie_word_embeddings": tied, "bos_token_id": None, "eos_token_id": None,
            "pad_token_id": config.pad_token_id,
            OWN_KEY: {"scale_embedding": config.scale_embedding,
                      "tie_word_embeddings": config.tie_word_embeddings},
        }  # fmt: skip
        return data, weights

    def save_gpt2(self, directory: str | os.PathLike) -> Path:
        """Write config.json and model.safetensors (GPT2LMHeadModel's names) into `directory`."""
        from safetensors.torch import save_file

        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        data, weights = self.to_gpt2()
        (folder / "config.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        contiguous = {name: tensor.contiguous() for name, tensor in weights.items()}
        save_file(contiguous, str(folder / "model.safetensors"), metadata={"format": "pt"})
        return folder

    @classmethod
    def from_transformers(cls, source: str | os.PathLike | nn.Module) -> BertForCausalLM:
        """Load a GPT2LMHeadModel (folder with safetensors, or in memory), our own switches
        (`explorer_decoder` in config.json) restored. The result is in eval mode."""
        from explorer_core.bert.families import weights_to_ours

        config, weights = read_transformers(source)
        if config.model_type != "gpt2":
            raise ValueError(f"a {config.model_type} model is not a decoder; open it as an encoder")
        own = _own_switches(source)
        head = weights.get("lm_head.weight")
        word = weights.get("transformer.wte.weight", weights.get("wte.weight"))
        if own.get("scale_embedding"):
            tie = bool(own.get("tie_word_embeddings", True))
            config = replace(config, scale_embedding=True, tie_word_embeddings=tie)
            word = head if tie else word / math.sqrt(config.hidden_size)
        elif head is None:
            config = replace(config, tie_word_embeddings=True)  # saved once: tied
        ours = weights_to_ours(config, weights)
        ours["embeddings.word_embeddings.weight"] = word
        model = cls(config, initialize=False)
        load_weights(model.bert, ours)
        if not config.tie_word_embeddings:
            model.lm_head.weight.data.copy_(head)
        return model.eval()


def _own_switches(source: str | os.PathLike | nn.Module) -> dict[str, Any]:
    if isinstance(source, nn.Module):
        return dict(source.config.to_dict().get(OWN_KEY) or {})
    data = json.loads((Path(source) / "config.json").read_text(encoding="utf-8"))
    return dict(data.get(OWN_KEY) or {})
