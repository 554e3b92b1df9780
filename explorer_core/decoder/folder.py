"""A trained decoder on disk, as a GPT-2 folder any Hugging Face tool opens.

    DIR/config.json              GPT-2's (n_embd, n_layer, ...) plus our `explorer_decoder` switches
    DIR/model.safetensors        GPT2LMHeadModel's weight names (bert/causal_lm.py writes them)
    DIR/tokenizer.json           the byte-level BPE as `tokenizers` reads it: the same ids
    DIR/explorer_tokenizer.json  the same tokenizer in our own format (tokenization.load_tokenizer)
    DIR/tokenizer_config.json    tells AutoTokenizer to use tokenizer.json as it is

`transformers.GPT2LMHeadModel.from_pretrained(DIR)` gives our logits (to 1e-5) and
`AutoTokenizer.from_pretrained(DIR)` our ids; `load_decoder(DIR)` gives back exactly our model
and tokenizer; the app's "open a model" path opens DIR as family gpt2.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from explorer_core.bert.causal_lm import BertForCausalLM
from explorer_core.tokenization import load_tokenizer
from explorer_core.tokenization.base import Tokenizer


def save_decoder(
    model: BertForCausalLM, tokenizer: Tokenizer, directory: str | os.PathLike
) -> Path:
    """Write the folder described in the module docstring; return it."""
    folder = model.save_gpt2(directory)
    tokenizer.save(folder)  # explorer_tokenizer.json and tokenizer.json
    settings = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "model_max_length": model.config.max_position_embeddings,
        "clean_up_tokenization_spaces": False,
    }
    (folder / "tokenizer_config.json").write_text(json.dumps(settings, indent=2) + "\n",
                                                  encoding="utf-8")  # fmt: skip
    return folder


def load_decoder(directory: str | os.PathLike) -> tuple[BertForCausalLM, Tokenizer]:
    """(model in eval mode, tokenizer) of a folder `save_decoder` wrote (or any GPT-2 folder
    with safetensors and a tokenizer this app reads). ValueError with a sentence otherwise."""
    folder = Path(directory)
    if not (folder / "config.json").is_file():
        raise ValueError(f"{folder} is not a saved decoder: it has no config.json")
    model = BertForCausalLM.from_transformers(folder)
    if (folder / "explorer_tokenizer.json").is_file():
        tokenizer = load_tokenizer(folder)
    else:
        from explorer_core.tokenization.hf_file import load_tokenizer_file

        tokenizer = load_tokenizer_file(folder)
    return model, tokenizer
