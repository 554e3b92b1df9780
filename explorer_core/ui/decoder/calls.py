"""The Decoder page's run and model: the session's run (`training.lm_job.LMPlan` in the Train
section's worker, admission and queue: `ui.training.run`), its records split for the charts,
and the trained decoder read back from its folder (cached per folder, read-only).

State: the run lives in `st.session_state[DECODER_RUN_KEY]`; the last decoder that finished or
was stopped in `st.session_state[RESULT_KEY]` (its folder and what it was). A new run, or a
refused one, never touches the decoder already trained: it is replaced only when the next run
has saved its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core.decoder import (
    LMRecord,
    LMSample,
    LMTrainConfig,
    load_decoder,
    next_token_distribution,
)
from explorer_core.decoder import generate as generate_text
from explorer_core.files import export
from explorer_core.training.lm_job import LMPlan, LMStart, need_bytes, new_folder
from explorer_core.ui.settings import MODEL_REF, OPENED
from explorer_core.ui.training import run as runs
from explorer_core.ui.training.run import DECODER_RUN_KEY

RESULT_KEY = "dec.result"  # {"folder", "lang", "seed", "seconds", "step", "run"} or absent
BARS = 15  # next tokens drawn
ENCODER_PAGE = "lessons/encoder.py"


@dataclass(frozen=True)
class Progress:
    """A run's records, by kind."""

    start: LMStart | None
    evals: list[Any]  # LMRecord, oldest first
    samples: list[Any]  # LMSample, oldest first


def current_run() -> Any:
    return runs.current_run(DECODER_RUN_KEY)


def poll() -> int | None:
    """The run's place: 0 training, k waiting, None neither (see `ui.training.run.poll_run`)."""
    return runs.poll_run(DECODER_RUN_KEY)


def start(config: LMTrainConfig) -> str | None:
    """Ask admission for a run of `config`; None when it started or waits, else why not."""
    plan = LMPlan(config, out=str(new_folder(config.lang, config.seed)))
    return runs.submit_run(DECODER_RUN_KEY, plan, need_bytes(config))


def stop() -> None:
    runs.stop_run(DECODER_RUN_KEY)


def progress(run: Any) -> Progress:
    records = run.records() if run is not None else []
    start_record = next((r for r in records if isinstance(r, LMStart)), None)
    return Progress(start_record, [r for r in records if isinstance(r, LMRecord)],
                    [r for r in records if isinstance(r, LMSample)])  # fmt: skip


def sync() -> bool:
    """A run that ended with its folder saved becomes the session's decoder, once; True then."""
    run = current_run()
    if run is None or run.status().state not in ("finished", "stopped"):
        return False
    if st.session_state.get(RESULT_KEY, {}).get("run") == id(run):
        return False
    folder = Path(run.plan.out)
    if not (folder / "config.json").is_file():
        return False
    found = progress(run)
    last = found.evals[-1] if found.evals else None
    st.session_state[RESULT_KEY] = {
        "folder": str(folder), "lang": run.plan.config.lang, "seed": run.plan.config.seed,
        "seconds": float(last.seconds) if last else 0.0, "step": int(last.step) if last else 0,
        "run": id(run),
    }  # fmt: skip
    return True


def result() -> dict | None:
    """The session's trained decoder (its folder still on disk), or None."""
    found = st.session_state.get(RESULT_KEY)
    if found and (Path(found["folder"]) / "config.json").is_file():
        return found
    return None


@st.cache_resource(max_entries=4, show_spinner=False)
def decoder(folder: str) -> tuple[Any, Any]:
    """(model, tokenizer) of a saved decoder, once per folder (eval mode, read-only)."""
    model, tokenizer = load_decoder(folder)
    return model.eval(), tokenizer


@st.cache_data(max_entries=32, show_spinner=False)
def bars(folder: str, prompt: str, temperature: float, top_k: int, top_p: float) -> dict:
    """The `BARS` most likely next tokens: labels, raw and kept probabilities; ValueError from
    the core for a prompt or setting it refuses."""
    model, tokenizer = decoder(folder)
    dist = next_token_distribution(model, tokenizer, prompt, temperature=temperature,
                                   top_k=top_k or None, top_p=top_p)  # fmt: skip
    return top_bars(dist, BARS)


def top_bars(dist: Any, n: int) -> dict:
    """The `n` tokens with the highest raw probability, most likely first."""
    raw, kept = list(map(float, dist.probabilities)), list(map(float, dist.adjusted))
    order = sorted(range(len(raw)), key=lambda i: (-raw[i], i))[:n]
    return {"labels": [visible(dist.tokens[i]) for i in order], "raw": [raw[i] for i in order],
            "kept": [kept[i] for i in order]}  # fmt: skip


WHITESPACE = str.maketrans({" ": "␣", "\n": "↵", "\t": "⇥"})


def visible(token: str) -> str:
    r"""A token with its whitespace shown, so " s" and "s" differ on a bar's label.

    >>> visible(" the"), visible("\n")
    ('␣the', '↵')
    """
    return token.translate(WHITESPACE)


@st.cache_data(max_entries=32, show_spinner=False)
def continuation(
    folder: str, prompt: str, new_tokens: int, temperature: float, top_k: int, top_p: float,
    seed: int,
) -> str:  # fmt: skip
    model, tokenizer = decoder(folder)
    return generate_text(model, tokenizer, prompt, max_new_tokens=new_tokens,
                         temperature=temperature, top_k=top_k or None, top_p=top_p,
                         seed=seed)  # fmt: skip


def folder_zip(folder: str) -> bytes:
    """The saved decoder's folder as zip bytes (files at the archive's root)."""
    root = Path(folder)
    files = {p.relative_to(root).as_posix(): p.read_bytes()
             for p in sorted(root.rglob("*")) if p.is_file()}  # fmt: skip
    return export.zip_bytes(files)


def open_on_encoder(folder: str) -> bool:
    """Inside the encoder, "Encoder against decoder", on this decoder ("a model on this
    machine": the folder lies under the always-allowed `models.settings.trained_dir()`): the
    choice is set, then the page switches. False when it cannot switch from here (# subtle:
    `st.switch_page` raises while a widget bound to the URL holds a value from the link, e.g.
    `?dec.seconds=3`); the caller then offers a link, and the choice is already made."""
    st.session_state[MODEL_REF] = folder
    st.session_state["enc.source"] = OPENED
    st.session_state["enc.view"] = "decoder"
    try:
        st.switch_page(ENCODER_PAGE)
    except StreamlitAPIException:
        return False
    return True  # not reached: switch_page ends this run
