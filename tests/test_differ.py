"""How encoders differ: the parameter split of our encoder, built on the meta device from each
family's config alone, adds up to the tensors transformers saved, and the switches read right."""

from __future__ import annotations

import json
import math

import pytest
from safetensors import safe_open

from explorer_core.analysis.differ import parameter_split, switches, vocab_kind
from explorer_core.bert.families import FAMILIES, config_from_transformers
from tests import opened_models


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("differ")
    return {f: opened_models.model_folder(f, root / f, pooling=None) for f in FAMILIES}


def saved_parameters(folder) -> int:  # noqa: ANN001 - a Path
    with safe_open(str(folder / "model.safetensors"), "pt") as handle:
        return sum(math.prod(handle.get_slice(k).get_shape()) for k in handle.keys()
                   if not k.endswith(("position_ids", "token_type_ids")))  # fmt: skip


@pytest.mark.parametrize("family", FAMILIES)
def test_the_split_adds_up_to_the_saved_tensors(folders, family):
    config = config_from_transformers(json.loads((folders[family] / "config.json").read_text()))
    split = parameter_split(config)
    assert sum(split.values()) == saved_parameters(folders[family])
    assert split["embeddings"] > 0 and split["attention"] > 0 and split["feed_forward"] > 0


def test_each_family_s_switches(folders):
    configs = {f: json.loads((folders[f] / "config.json").read_text()) for f in FAMILIES}
    read = {f: switches(config_from_transformers(data)) for f, data in configs.items()}
    assert read["roberta"].positions == "learned+offset" and read["roberta"].position_offset == 2
    assert read["roberta"].token_types == 1 and read["distilbert"].token_types == 0
    assert read["albert"].shared_layers and read["albert"].embedding_size == 16
    assert read["electra"].embedding_size == 24 and read["bert"].embedding_size == 32
    modern = read["modernbert"]
    assert (modern.norm, modern.norm_bias, modern.ffn) == ("pre", False, "geglu")
    assert modern.rope_bases == (160000.0, 10000.0) and modern.window == 2
    assert read["albert"].ffn == "tanh-gelu" and read["bert"].ffn == "gelu"
    kinds = {f: vocab_kind(folders[f]) for f in FAMILIES}
    assert kinds["roberta"] == kinds["modernbert"] == "byte-bpe"
    assert kinds["xlm-roberta"] == kinds["albert"] == "unigram" and kinds["bert"] == "wordpiece"
