"""Train the model: data, tokenizer, preset, objective; a run in a worker process (it may wait its
turn in the server's queue) with live curves; the result next to the lexical baseline; checkpoint
download and upload."""

from __future__ import annotations

import streamlit as st

from explorer_core.tokenization import ALGORITHMS
from explorer_core.training.choices import OBJECTIVES
from explorer_core.training.presets import PRESETS
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import defaults
from explorer_core.ui.state import (
    SHARED_TOKENIZER,
    init,
    set_before_widgets,
    share_link,
    url_synced,
)
from explorer_core.ui.training import calls as ui
from explorer_core.ui.training import class_run
from explorer_core.ui.training import run as runs
from explorer_core.ui.training.chinese import chinese_kind
from explorer_core.ui.training.comparison import STARTS, comparison_panel, start_panel
from explorer_core.ui.training.form import (
    SIZE_KEYS,
    data_panel,
    model_panel,
    objective_panel,
    plan_panel,
    preset_sizes,
)
from explorer_core.ui.training.panels import (
    DRAWN_KEY,
    progress_panel,
    result_panel,
    tokenizer_panel,
)

DEFAULTS = defaults("lessons/train_model.py") | {
    "train.tok": "lab" if SHARED_TOKENIZER in st.session_state else "train",
}  # declared in explorer_core/ui/settings.py; a Lab tokenizer is the default when shared
init(DEFAULTS)
LINKED = ("train.kind", "train.data", "train.tok", "train.algo", "train.vocab_size", "train.preset",
          "train.objective", "train.edit", "train.max_length", "train.seed", "train.pre_steps",
          "train.fine_steps", "train.budget", "train.whole_word", "train.start_from",
          *SIZE_KEYS)  # fmt: skip

# subtle: a widget's value is dropped when a run does not draw it (another tokenizer source);
# writing it back keeps the learner's choice. Only for widgets not bound to the URL: Streamlit
# keeps a bound one's value itself (sizes, steps, seed, vocabulary size), and a bound widget
# whose value was written here in the run that draws it logged "created with a default value
# but also had its value set via the Session State API" (train.vocab_size, on every rerun).
for key in ("train.algo", "train.lower"):
    st.session_state[key] = st.session_state[key]

# translated labels: kept in the URL as codes; a preset from a link brings its sizes
url_synced("train.kind", ("model", "chinese"))
url_synced("train.data", ("builtin", "upload"))
url_synced("train.objective", OBJECTIVES)
url_synced("train.start_from", STARTS)  # "taught" before it is built: start_panel falls back
if url_synced("train.preset", tuple(PRESETS)):
    set_before_widgets(preset_sizes(st.session_state["train.preset"]))


just_ended = ui.sync_run()
place = runs.poll_run()  # 0: this session's run trains, k: waits k-th in the queue, None: neither
active = place is not None
st.session_state[DRAWN_KEY] = "waiting" if place else ("active" if active else "")
st.title(t("train.title"))
kind = st.segmented_control(
    t("train.kind"), ("model", "chinese"), key="train.kind",
    format_func=lambda k: t(f"train.kind.{k}"),
) or "model"  # fmt: skip
if kind == "chinese":  # the install's MiniLM + 中文 (ui/training/chinese.py)
    share_link(LINKED, defaults=DEFAULTS)
    chinese_kind()
    st.stop()
st.markdown(t("train.intro"))
fixed = class_run.fix_settings(active)  # a controlled class experiment sets (and locks) the rest
locked = active or fixed is not None

# 1) data
st.subheader(t("train.data.head"))
source = st.segmented_control(
    t("train.data"), ("builtin", "upload"), key="train.data", disabled=locked,
    format_func=lambda s: t(f"train.data.{s}"),
) or "builtin"  # fmt: skip
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
parts, data_key, data_name = data_panel(source, locked)

# 2) tokenizer
st.subheader(t("train.tok.head"))
sentences = [s for p in parts["train"] for s in (p.sentence1, p.sentence2)]
corpus = ui.corpus_text() + "\n" + "\n".join(sentences)
text, trainer = class_run.tokenizer_recipe(fixed, sentences, corpus)  # a controlled one: its own
class_run.apply_assignment(active, text, trainer)  # in a class experiment: its tokenizer
tokenizer = tokenizer_panel(ALGORITHMS, text, active, DEFAULTS, trainer)

# 3) model
st.subheader(t("train.model.head"))
preset = model_panel(locked, DEFAULTS)

# 4) objective and budget
st.subheader(t("train.objective.head"))
objective = objective_panel(OBJECTIVES, locked, DEFAULTS, fixed=fixed is not None)
if tokenizer is None:
    planned = None
elif fixed is not None:  # the experiment's own plan, whatever the widgets say
    planned = class_run.controlled_plan(fixed, tokenizer, parts)
else:
    planned = plan_panel(preset, objective, tokenizer, parts)
planned = start_panel(planned, locked)  # fresh, this session's model, MiniLM, MiniLM + 中文

left, right = st.columns(2)
if left.button(
    t("train.start"), key="train.start", type="primary", icon=":material/play_arrow:",
    disabled=active or planned is None, width="stretch",
):  # fmt: skip
    refusal = runs.start_run(*planned, parts=parts, data_name=data_name)
    if refusal is None:
        st.rerun()  # redraw with Train disabled and Stop (or Cancel) enabled
    st.error(refusal)
right.button(
    t("train.cancel") if place else t("train.stop"), key="train.stop",
    icon=":material/stop:", on_click=runs.stop_run, disabled=not active, width="stretch",
)  # fmt: skip

if just_ended:
    class_run.post_result(st.session_state[ui.PARTS_KEY][1])  # in a class: to the leaderboard
class_run.result_card()  # in a class: the place, score and board of the run posted last
st.subheader(t("train.run.head"))
st.fragment(run_every=runs.poll_every(place))(progress_panel)(parts, data_key)
result_panel(parts, data_key, active)
comparison_panel(parts, data_key)
share_link(LINKED, link, DEFAULTS)
