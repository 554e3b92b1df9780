"""`python -m explorer_core embed --model DIR|NAME --text TEXT...`: sentence vectors.

--model: a checkpoint folder `train` wrote, `minilm`, or a model the user brings: a transformers
folder of any family `explorer_core.bert.families` runs (anywhere on this machine), or a Hub name
found in the Hugging Face cache. Such a model is opened by `models.opened.open_model` (every check
but the allowed-folder rule, which is the server's) and gives its authors' vectors: its pooling,
normalisation and default prompt (`opened.embed`, = SentenceTransformer's `encode`).

One text: its vector. Several: one vector per line, or, for exactly two texts, their cosine
(--vectors prints the vectors instead). `--device auto|cpu|cuda` runs a checkpoint there (auto:
CUDA when available); a brought model runs on the CPU.

    $ python -m explorer_core embed --model out/ --text "a cat" "a kitten"
    cosine 0.8123
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from explorer_core.cli.train import add_device_argument


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "embed", help="sentence vectors (or a cosine) from a trained checkpoint"
    )
    parser.add_argument("--model", required=True,
                        help="a checkpoint folder, minilm, a model folder or a cached Hub "
                             "name")  # fmt: skip
    parser.add_argument("--text", required=True, nargs="+", help="one or more texts")
    parser.add_argument("--vectors", action="store_true", help="print vectors even for two texts")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_device_argument(parser)
    parser.set_defaults(func=run)


def _vectors(name: str, texts: list[str], device_name: str):
    """(N, H) vectors of `texts` from --model: a checkpoint's (not normalised), or a brought
    model's as its authors' pipeline makes them."""
    from explorer_core.training.checkpoint import is_checkpoint, load_checkpoint
    from explorer_core.training.devices import resolve_device

    device = resolve_device(device_name)  # --device cuda without a GPU fails first, whatever
    if name != "minilm" and Path(name).is_dir() and is_checkpoint(name):
        ckpt = load_checkpoint(name)
        ckpt.model.to(device)
        return ckpt.embed(texts, normalize=False)
    from explorer_core.cli.inspect import reference
    from explorer_core.models.opened import embed, open_model

    if name == "minilm":
        from explorer_core.bert.pretrained import minilm_path

        name = str(minilm_path())
    return embed(open_model(reference(name), anywhere=True), texts)


def run(args: argparse.Namespace) -> int:
    import torch.nn.functional as F

    texts = list(args.text)
    if any(not t.strip() for t in texts):
        return _fail("a --text is empty: every --text must hold some text")
    try:
        vectors = _vectors(args.model, texts, args.device)
    except (ValueError, OSError) as err:
        return _fail(" ".join(str(err).split()))
    if len(texts) == 2 and not args.vectors:
        cosine = float(F.cosine_similarity(vectors[0], vectors[1], dim=0))
        print(json.dumps({"cosine": cosine}) if args.json else f"cosine {cosine:.4f}")
        return 0
    rows = [[round(x, 6) for x in row] for row in vectors.tolist()]
    if args.json:
        print(json.dumps({"texts": texts, "vectors": rows}, ensure_ascii=False))
    else:
        for text, row in zip(texts, rows, strict=True):
            print(f"{text}\t" + " ".join(f"{x:.4f}" for x in row))
    return 0
