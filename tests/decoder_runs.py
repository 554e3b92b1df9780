"""A tiny decoder trained once per test process and copied, as a GPT-2 folder, into the install's
trained-models folder (models.settings.trained_dir), for the Decoder and Inside the encoder page
tests; and the session value the Decoder page keeps for it."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import time
from functools import lru_cache
from pathlib import Path

TINY = dict(hidden_size=32, num_hidden_layers=1, num_attention_heads=4, block_size=24,
            vocab_size=300, batch_size=8, eval_every=5, sample_every=5)  # fmt: skip


def tiny_config(**changes):
    from explorer_core.decoder import LMTrainConfig

    return LMTrainConfig(**{"lang": "en", "seconds": None, "steps": 10, **TINY, **changes})


def tiny_decoder_folder() -> Path:
    """10 steps of a hidden-32 decoder on the English corpus, saved (atomically, as the page's
    worker saves it) into trained_dir()/decoder-en-s0-tiny. Trained once per test process and
    copied back in for each test (conftest removes what a test leaves in trained_dir())."""
    from explorer_core.models.settings import trained_dir

    folder = trained_dir() / "decoder-en-s0-tiny"
    if not folder.is_dir():
        shutil.copytree(_trained_once(), folder)
    return folder


@lru_cache(maxsize=1)
def _trained_once() -> Path:
    from explorer_core.decoder import save_decoder, train_lm
    from explorer_core.training.lm_job import save_atomically

    result = train_lm(tiny_config())
    temporary = tempfile.mkdtemp(prefix="explorer-tiny-decoder-")
    atexit.register(shutil.rmtree, temporary, ignore_errors=True)
    where = Path(temporary) / "decoder-en-s0-tiny"
    return save_atomically(result.model, result.tokenizer, where, save_decoder)


def decoder_result(folder: Path | None = None) -> dict:
    """What the Decoder page keeps in st.session_state["dec.result"] for a trained decoder."""
    folder = folder or tiny_decoder_folder()
    return {"folder": str(folder), "lang": "en", "seed": 0, "seconds": 1.0, "step": 10,
            "run": -1}  # fmt: skip


def wait_for_decoder(at, timeout: float = 180.0):
    """Re-run the page (as its polling fragment would) until the session's decoder run ended."""
    deadline = time.monotonic() + timeout
    run = at.session_state["dec.run"]
    while (run.running or run.status().state == "idle") and time.monotonic() < deadline:
        time.sleep(0.5)
        at.run()
    assert not run.running, "the decoder run did not end in time"
    return at.run()
