"""The Train page's settings: data, model size, objective and budget, and the plan they make.

Each panel reads its own widgets (keys "train.*", remembered in session state and kept in the
URL by the page) and draws; `plan_panel` turns them into a `TrainingPlan` through
`training.choices`, and says how much memory the run will hold on the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from explorer_core.inputs.sts_format import SentencePair
from explorer_core.inputs.whole_word import segmenter_available
from explorer_core.tokenization import Tokenizer
from explorer_core.training.choices import (
    TrainChoices,
    build_plan,
    model_config,
    run_memory_bytes,
)
from explorer_core.training.presets import PRESETS, count_parameters
from explorer_core.training.run import TrainingPlan
from explorer_core.ui.i18n import t
from explorer_core.ui.state import bound, set_before_widgets
from explorer_core.ui.training import calls as ui
from explorer_core.ui.training.run import MAX_SNAPSHOTS

Parts = dict[str, list[SentencePair]]

SIZE_KEYS = {"train.hidden": "hidden_size", "train.layers": "num_hidden_layers",
             "train.heads": "num_attention_heads", "train.ffn": "intermediate_size",
             "train.batch": "batch_size", "train.lr": "learning_rate"}  # fmt: skip
STEPS = (1, 100_000)  # the range of either phase's step count


def preset_sizes(name: str) -> dict[str, Any]:
    """The size widgets' values of preset `name` (key -> value)."""
    preset = PRESETS[name]
    return {key: getattr(preset, field) for key, field in SIZE_KEYS.items()}


def reset_sizes() -> None:
    """Bring the size widgets to the chosen preset's values (the preset's on_change callback)."""
    set_before_widgets(preset_sizes(st.session_state["train.preset"]))


def data_panel(source: str, active: bool) -> tuple[Parts, str, str]:
    """(pairs by split, a key naming the data, its display name); st.stop() while none."""
    parts = ui.builtin_parts()
    if source != "upload":
        st.caption(t("train.data.builtin_counts", **{k: len(v) for k, v in parts.items()}))
        return parts, "builtin", t("train.data.builtin")
    file = st.file_uploader(
        t("train.data.file"), type=["tsv", "csv", "txt"], key="train.data_file",
        help=t("train.data.file_help"), disabled=active,
    )  # fmt: skip
    if file is None:
        st.info(t("train.data.wait"))
        st.stop()
    try:
        parts, used, malformed = ui.uploaded_pairs(file.getvalue(), file.name)
    except ValueError as err:
        st.error(t("train.data.bad", reason=str(err)))
        st.stop()
    counts = {name: len(parts[name]) for name in ("train", "dev", "test")}
    st.caption(t("train.data.counts", used=used, malformed=malformed, **counts))
    return parts, f"upload-{file.file_id}", file.name


def model_panel(active: bool, defaults: Mapping[str, Any]) -> str:
    """Preset and (behind a toggle) every size; returns the preset's name."""
    preset = st.selectbox(
        t("train.preset"), tuple(PRESETS), key="train.preset", on_change=reset_sizes,
        format_func=lambda p: t(f"train.preset.{p}"), disabled=active,
    )  # fmt: skip
    st.caption(t(f"train.desc.{preset}"))
    if not st.toggle(t("train.edit"), disabled=active, **bound("train.edit", defaults)):
        return preset
    fields = (("train.hidden", (8, 1024), 8), ("train.layers", (1, 12), 1),
              ("train.heads", (1, 16), 1), ("train.ffn", (8, 4096), 8),
              ("train.max_length", (8, 256), 1), ("train.batch", (1, 512), 1),
              ("train.lr", (1e-5, 0.5), None), ("train.seed", (0, 1_000_000), 1))  # fmt: skip
    cols = st.columns(4) + st.columns(4)
    for col, (key, span, step) in zip(cols, fields, strict=True):
        extra = {"format": "%.5f"} if step is None else {"step": step}
        col.number_input(t(key), **extra, **bound(key, defaults, span=span))
    return preset


def objective_panel(
    objectives: tuple[str, ...], active: bool, defaults: Mapping[str, Any], fixed: bool = False
) -> str:
    """Objective, step counts and the time budget; returns the objective. `fixed`: a class
    experiment has set them (`ui.training.class_run.fix_settings`), so they are locked too."""
    objective = st.radio(
        t("train.objective"), objectives, key="train.objective", horizontal=True,
        disabled=active, format_func=lambda o: t(f"train.objective.{o}"),
    )  # fmt: skip
    keys = {
        "pretrain+finetune": ("train.pre_steps", "train.fine_steps"),
        "finetune": ("train.fine_steps",),
        "pretrain": ("train.pre_steps",),
    }[objective]
    spans = {"train.pre_steps": STEPS, "train.fine_steps": STEPS, "train.budget": (0, 3600)}
    for col, key in zip(st.columns(3), (*keys, "train.budget"), strict=False):
        col.number_input(t(key), disabled=fixed, **bound(key, defaults, span=spans[key]))
    # pre-training: whole-word masking (Chinese words by jieba) or 15% of the tokens
    if "train.pre_steps" in keys:
        st.toggle(t("train.whole_word"), help=t("train.whole_word.help"), disabled=active,
                  **bound("train.whole_word", defaults))  # fmt: skip
    return objective


def plan_panel(
    preset: str, objective: str, tokenizer: Tokenizer, parts: Parts
) -> tuple[TrainingPlan, int] | None:
    """(the plan, the memory its run holds) from the widgets' values, or None with the reason."""
    state = st.session_state
    try:
        choices = TrainChoices(
            preset=preset, objective=objective, max_length=int(state["train.max_length"]),
            pretrain_steps=int(state["train.pre_steps"]),
            finetune_steps=int(state["train.fine_steps"]),
            time_budget=float(state["train.budget"]) or None, seed=int(state["train.seed"]),
            whole_word=bool(state.get("train.whole_word")) and objective != "finetune",
            **{field: state[key] for key, field in SIZE_KEYS.items()},
        )  # fmt: skip
        if choices.whole_word and not segmenter_available():
            st.error(t("train.whole_word.missing"))
            return None
        config = model_config(choices, tokenizer)
        need = run_memory_bytes(config, choices.batch_size, choices.max_length, MAX_SNAPSHOTS)
        st.caption(t("train.size", params=f"{count_parameters(config):,}", mb=need // 2**20))
        return build_plan(choices, tokenizer, parts, ui.corpus_text()), need
    except ValueError as err:
        st.error(t("train.bad_config", reason=str(err)))
        return None
