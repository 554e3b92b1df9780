"""Train the model: data, tokenizer, preset, objective; a background run with live curves; the
result next to the lexical baseline; checkpoint download and upload."""

from __future__ import annotations

import streamlit as st

from explorer_core.tokenization import ALGORITHMS
from explorer_core.training.choices import (
    OBJECTIVES,
    TrainChoices,
    build_plan,
    estimate_training_bytes,
    model_config,
)
from explorer_core.training.presets import PRESETS, count_parameters
from explorer_core.ui import training as ui
from explorer_core.ui.i18n import t
from explorer_core.ui.state import SHARED_TOKENIZER, bound, init, share_link, url_synced
from explorer_core.ui.train_panels import progress_panel, result_panel, tokenizer_panel

SIZE_KEYS = {"train.hidden": "hidden_size", "train.layers": "num_hidden_layers",
             "train.heads": "num_attention_heads", "train.ffn": "intermediate_size",
             "train.batch": "batch_size", "train.lr": "learning_rate"}  # fmt: skip
DEFAULTS = {
        "train.data": "builtin",
        "train.tok": "lab" if SHARED_TOKENIZER in st.session_state else "train",
        "train.algo": "wordpiece",
        "train.vocab_size": 2000, "train.lower": True, "train.preset": "tiny",
        "train.edit": False, "train.max_length": 48, "train.objective": "pretrain+finetune",
        "train.pre_steps": 100, "train.fine_steps": 300, "train.budget": 90, "train.seed": 0,
        **{key: getattr(PRESETS["tiny"], field) for key, field in SIZE_KEYS.items()},
}  # fmt: skip
init(DEFAULTS)
LINKED = ("train.data", "train.tok", "train.algo", "train.vocab_size", "train.preset",
          "train.objective", "train.edit", "train.max_length", "train.seed", "train.pre_steps",
          "train.fine_steps", "train.budget", *SIZE_KEYS)  # fmt: skip
STEPS = (1, 100_000)  # the range of either phase's step count

# subtle: a widget's value is dropped when a run does not draw it (edit toggle off, another
# objective or tokenizer source); writing each value back keeps the learner's choice.
for key in (*SIZE_KEYS, "train.max_length", "train.seed", "train.pre_steps", "train.algo",
            "train.vocab_size", "train.lower"):  # fmt: skip
    st.session_state[key] = st.session_state[key]


def _reset_sizes() -> None:
    preset = PRESETS[st.session_state["train.preset"]]
    for key, field in SIZE_KEYS.items():
        st.session_state[key] = getattr(preset, field)


# translated labels: kept in the URL as codes; a preset from a link brings its sizes
url_synced("train.data", ("builtin", "upload"))
url_synced("train.objective", OBJECTIVES)
if url_synced("train.preset", tuple(PRESETS)):
    _reset_sizes()


ui.sync_run()
running = ui.is_running()
st.title(t("train.title"))
st.markdown(t("train.intro"))

# 1) data
st.subheader(t("train.data.head"))
source = st.segmented_control(
    t("train.data"), ("builtin", "upload"), key="train.data", disabled=running,
    format_func=lambda s: t(f"train.data.{s}"),
) or "builtin"  # fmt: skip
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
parts = ui.builtin_parts()
if source == "upload":
    file = st.file_uploader(
        t("train.data.file"), type=["tsv", "csv", "txt"], key="train.data_file",
        help=t("train.data.file_help"), disabled=running,
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
    data_key, data_name = f"upload-{file.file_id}", file.name
else:
    st.caption(t("train.data.builtin_counts", **{k: len(v) for k, v in parts.items()}))
    data_key, data_name = "builtin", t("train.data.builtin")

# 2) tokenizer
st.subheader(t("train.tok.head"))
sentences = [s for p in parts["train"] for s in (p.sentence1, p.sentence2)]
corpus = ui.corpus_text() + "\n" + "\n".join(sentences)
tokenizer = tokenizer_panel(ALGORITHMS, corpus, running, DEFAULTS)

# 3) model
st.subheader(t("train.model.head"))
preset = st.selectbox(
    t("train.preset"), tuple(PRESETS), key="train.preset", on_change=_reset_sizes,
    format_func=lambda p: t(f"train.preset.{p}"), disabled=running,
)  # fmt: skip
st.caption(t(f"train.desc.{preset}"))
if st.toggle(t("train.edit"), disabled=running, **bound("train.edit", DEFAULTS)):
    cols = st.columns(4)
    cols[0].number_input(
        t("train.hidden"), step=8, **bound("train.hidden", DEFAULTS, span=(8, 1024))
    )
    cols[1].number_input(t("train.layers"), **bound("train.layers", DEFAULTS, span=(1, 12)))
    cols[2].number_input(t("train.heads"), **bound("train.heads", DEFAULTS, span=(1, 16)))
    cols[3].number_input(t("train.ffn"), step=8, **bound("train.ffn", DEFAULTS, span=(8, 4096)))
    cols = st.columns(4)
    cols[0].number_input(
        t("train.max_length"), **bound("train.max_length", DEFAULTS, span=(8, 256))
    )
    cols[1].number_input(t("train.batch"), **bound("train.batch", DEFAULTS, span=(1, 512)))
    cols[2].number_input(
        t("train.lr"), format="%.5f", **bound("train.lr", DEFAULTS, span=(1e-5, 0.5))
    )
    cols[3].number_input(t("train.seed"), **bound("train.seed", DEFAULTS, span=(0, 1_000_000)))

# 4) objective and budget
st.subheader(t("train.objective.head"))
objective = st.radio(
    t("train.objective"), OBJECTIVES, key="train.objective", horizontal=True, disabled=running,
    format_func=lambda o: t(f"train.objective.{o}"),
)  # fmt: skip
cols = iter(st.columns(3))
if objective == "pretrain+finetune":
    next(cols).number_input(t("train.pre_steps"), **bound("train.pre_steps", DEFAULTS, span=STEPS))
next(cols).number_input(t("train.fine_steps"), **bound("train.fine_steps", DEFAULTS, span=STEPS))
next(cols).number_input(t("train.budget"), **bound("train.budget", DEFAULTS, span=(0, 3600)))

plan = None
if tokenizer is not None:
    state = st.session_state
    try:
        choices = TrainChoices(
            preset=preset, objective=objective, max_length=int(state["train.max_length"]),
            pretrain_steps=int(state["train.pre_steps"]),
            finetune_steps=int(state["train.fine_steps"]),
            time_budget=float(state["train.budget"]) or None, seed=int(state["train.seed"]),
            **{field: state[key] for key, field in SIZE_KEYS.items()},
        )  # fmt: skip
        config = model_config(choices, tokenizer)
        need = estimate_training_bytes(config, choices.batch_size, choices.max_length)
        st.caption(t("train.size", params=f"{count_parameters(config):,}", mb=need // 2**20))
        plan = build_plan(choices, tokenizer, parts, ui.corpus_text())
    except ValueError as err:
        st.error(t("train.bad_config", reason=str(err)))

left, right = st.columns(2)
if left.button(
    t("train.start"), key="train.start", type="primary", icon=":material/play_arrow:",
    disabled=running or plan is None, width="stretch",
):  # fmt: skip
    if ui.start_run(plan, parts, data_name):
        st.rerun()  # redraw with Train disabled and Stop enabled
    st.warning(t("train.already"))
right.button(
    t("train.stop"), key="train.stop", icon=":material/stop:", on_click=ui.stop_run,
    disabled=not running, width="stretch",
)  # fmt: skip

st.subheader(t("train.run.head"))
st.fragment(run_every=1.0 if running else None)(progress_panel)(parts, data_key)
result_panel(parts, data_key, running)
share_link(LINKED, link, DEFAULTS)
