"""`python -m explorer_core inspect ...`: every number inside the encoder for one text.

    python -m explorer_core inspect --model minilm|taught|DIR|NAME --text TEXT [--text-b TEXT]
        [--mask bert|causal] [--json]

--model: `minilm` (all-MiniLM-L6-v2), `taught` (MiniLM + 中文, once built on this install with
`python -m explorer_core train multilingual`), a model folder (one `train` wrote, or a
transformers folder of any family `explorer_core.bert.families` runs: BERT, RoBERTa, XLM-R,
DistilBERT, ALBERT, ELECTRA, ModernBERT; it may lie anywhere), or a Hub name found in this
machine's Hugging Face cache (`org/name`, never downloaded here). Such a model goes through
`models.opened.open_model`: safetensors only, no remote code, a known family, within
EXPLORER_MODEL_MAX_MB. --text-b makes a pair, laid out by the model's own template (BERT's
`[CLS] A [SEP] B [SEP]`, RoBERTa's `<s> A </s></s> B </s>`). --mask causal runs the same weights
under a decoder's mask (a gpt2 decoder's own; --mask bert lets it see every token).

With --json, one object: `tokens` (the model's token strings, special tokens included), `ids`,
`embeddings` (tokens × hidden: what enters layer 1) and `layers`, one object per layer, each field
a tokens × width list: `attention_output` (after W_O, before the residual), `attention_norm` (after
the first residual + LayerNorm; pre-LN: the stream after the first residual), `ffn_activation`
(after GELU), `ffn_output` (after the down-projection, before the residual), `output` (the layer's
output). Also `model`, `mask`, `norm_placement` and `final_norm` (pre-LN: the final LayerNorm's
output, else null), `family` (config.model_type) and `last_hidden_state` (tokens × hidden: what
the model's forward returns, ModernBERT's final_norm included). Token strings are the model's own
(`<s>`, `Ġcat`); ours and MiniLM's name the special roles `[CLS]`, `[SEP]`. Numbers carry 7
significant digits (float32's precision).
Without --json: a per-layer summary (norms, update ratios, the most active neurons of [CLS]).
Bad input: one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

MASKS = ("bert", "causal")
FIELDS = ("attention_output", "attention_norm", "ffn_activation", "ffn_output", "output")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("inspect", help="every number inside the encoder for one text")
    parser.add_argument("--model", required=True,
                        help="minilm, taught, a model folder, or a cached Hub name")  # fmt: skip
    parser.add_argument("--text", required=True, help="the text (sentence A)")
    parser.add_argument("--text-b", help="a second sentence: [CLS] A [SEP] B [SEP]")
    parser.add_argument(
        "--mask", choices=MASKS, default=None,
        help="bert (every token sees every token) or causal (a decoder's); default: the "
        "model's own (causal for a gpt2 decoder, bert otherwise)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def reference(name: str) -> str:
    """What `open_model` gets for --model: an existing folder as its absolute path (on the command
    line a folder may lie anywhere, and `out/` needs no `./`), anything else as a Hub name."""
    path = Path(name)
    return str(path.resolve()) if path.is_dir() else name


def load_model(name: str) -> tuple[Any, Any, str]:
    """(BertModel in eval mode, tokenizer, label) of --model; ValueError with a sentence."""
    from explorer_core.bert.model import BertModel
    from explorer_core.bert.weights import load_weights
    from explorer_core.files import taught_model
    from explorer_core.training import base_models
    from explorer_core.training.checkpoint import is_checkpoint, load_checkpoint

    if name == "taught":
        ckpt = taught_model.load()
        if ckpt is None:
            raise ValueError(
                "MiniLM + 中文 has not been built on this install: build it with "
                "`python -m explorer_core train multilingual` (or the Train page)"
            )
        return ckpt.model.eval(), ckpt.tokenizer, "MiniLM + 中文 (taught here)"
    if name == "minilm":
        described = base_models.describe(name)
        model = BertModel(described.config, initialize=False)
        load_weights(model, base_models.load_weights_of(name))
        return model.eval(), described.tokenizer, described.label
    if Path(name).is_dir() and is_checkpoint(name):
        ckpt = load_checkpoint(name)
        return ckpt.model.eval(), ckpt.tokenizer, ckpt.label or Path(name).name
    return open_any(name)


def open_any(name: str) -> tuple[Any, Any, str]:
    """A Hub name from this machine's cache, or a transformers folder of any family (anywhere:
    the user's own machine), through `open_model` with every check but the folder rule."""
    from explorer_core.models.opened import open_model

    opened = open_model(reference(name), anywhere=True)
    return opened.model.eval(), opened.tokenizer, opened.label


def encode(model: Any, tokenizer: Any, text: str, text_b: str | None) -> tuple[Any, Any]:
    """(input_ids (T,), token_type_ids (T,) or None) of one row, laid out by the model's own
    template where the tokenizer has one (RoBERTa's `<s> A </s></s> B </s>`); ValueError for bad
    text."""
    import torch

    from explorer_core.inputs.vocab import BertVocab

    for flag, value in (("--text", text), ("--text-b", text_b)):
        if value is not None and not value.strip():
            raise ValueError(f"{flag} is empty: give some text")
    if hasattr(tokenizer, "encode_with_specials"):
        ids, types = tokenizer.encode_with_specials(text, text_b, limits=False)
        ids, types = torch.tensor(ids), torch.tensor(types)
    else:
        pairs = None if text_b is None else [text_b]
        rows = BertVocab.of(tokenizer).encode(tokenizer, [text], pairs)
        ids, types = rows.input_ids[0], rows.token_type_ids[0]
    length, limit = len(ids), model.config.max_tokens
    if length > limit:
        raise ValueError(f"the text is {length} tokens, longer than this model's {limit}")
    return ids, types if model.config.type_vocab_size > 0 else None


def tokens_of(tokenizer: Any, ids: list[int]) -> list[str]:
    """The token strings: a model's own (`<s>`, `Ġcat`), else BERT's role names for ours."""
    from explorer_core.analysis.encoder import token_strings

    if hasattr(tokenizer, "encode_with_specials"):
        return [tokenizer.id_to_token(i) for i in ids]
    return token_strings(tokenizer, ids)


def _rows(tensor: Any) -> list[list[float]]:
    return [[float(f"{x:.7g}") for x in row] for row in tensor.tolist()]


def report(trace: Any, tokens: list[str], label: str, last: Any, family: str) -> dict[str, Any]:
    """The JSON object of a trace and the forward's last hidden state (see the docstring)."""
    return {
        "model": label,
        "family": family,
        "mask": "causal" if trace.causal else "bert",
        "norm_placement": "pre" if trace.final_norm is not None else "post",
        "tokens": tokens,
        "ids": trace.tokens_ids.tolist(),
        "embeddings": _rows(trace.embeddings),
        "layers": [
            {name: _rows(getattr(layer, name)) for name in FIELDS} for layer in trace.layers
        ],
        "final_norm": None if trace.final_norm is None else _rows(trace.final_norm),
        "last_hidden_state": _rows(last),
    }


def summary(trace: Any, tokens: list[str], label: str) -> str:
    """A readable per-layer summary: mean norms, update ratios, [CLS]'s top neurons."""
    from explorer_core.analysis.encoder import layer_grid, top_neurons, update_ratio

    grid = layer_grid(trace)
    order = "pre-LN" if trace.final_norm is not None else "post-LN"
    mask = "causal mask" if trace.causal else "BERT's mask (every token sees every token)"
    lines = [
        f"{label} · {len(tokens)} tokens · {mask} · {order}",
        "tokens: " + " ".join(tokens),
        f"embeddings: mean |h| {float(grid.norms[0].mean()):.3f}",
        "layer  mean|in|  attn/in  ffn/stream  mean|out|  moved(1-cos)  top neurons of "
        f"{tokens[0]} (index=value)",
    ]
    for layer in trace.layers:
        ratio, row = update_ratio(layer), layer.layer + 1
        neurons = " ".join(f"{n.index}={n.post:.2f}" for n in top_neurons(layer, 0, 3))
        lines.append(
            f"{row:>5}  {float(layer.input.norm(dim=-1).mean()):8.3f}  "
            f"{float(ratio.attention.mean()):7.3f}  {float(ratio.ffn.mean()):10.3f}  "
            f"{float(grid.norms[row].mean()):9.3f}  {float(grid.moved_cosine[row].mean()):12.3f}"
            f"  {neurons}"
        )
    return "\n".join(lines)


def last_hidden_state(model: Any, ids: Any, types: Any, causal: bool) -> Any:
    """(T, H): what the model's own forward returns (ModernBERT: after its final_norm)."""
    import torch

    with torch.no_grad():
        out = model(ids[None], None, None if types is None else types[None], causal=causal)
    return out.last_hidden_state[0]


def run(args: argparse.Namespace) -> int:
    from explorer_core.bert.trace import trace_encoder

    model, tokenizer, label = load_model(args.model)
    ids, types = encode(model, tokenizer, args.text, args.text_b)
    causal = model.config.causal if args.mask is None else args.mask == "causal"
    trace = trace_encoder(model, ids, token_type_ids=types, causal=causal)
    tokens = tokens_of(tokenizer, ids.tolist())
    if args.json:
        last = last_hidden_state(model, ids, types, causal)
        data = report(trace, tokens, label, last, model.config.model_type)
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(summary(trace, tokens, label))
    return 0
