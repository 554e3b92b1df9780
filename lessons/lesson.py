"""Guided lesson: one sentence followed through real MiniLM (or the model this session opened
from this machine), one concept per screen, with Previous and Next. text → bytes → tokens → ids →
one-hot → vector → + position → attention → one layer → pooled → cosine → why attention.
Each screen links to the page that teaches its step in detail."""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core.analysis import lesson as core
from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.ui.i18n import CATALOGUE, current_language, t
from explorer_core.ui.lesson import calls as data
from explorer_core.ui.lesson import screens
from explorer_core.ui.lesson.frame import Lesson, variant
from explorer_core.ui.lesson.notice import chinese_notice
from explorer_core.ui.nav import PAGES
from explorer_core.ui.settings import MODEL_REF, OPENED, choices, defaults
from explorer_core.ui.state import bound, init, leave_to_widget, share_link, url_synced

TOTAL = len(core.STEPS)
SENTENCES = ("text", "other", "third")  # lesson.<name>, defaults from lesson.default_<name>
DEEPER = {  # step -> url path of the page that teaches it (see lessons/home.py STAGES)
    "text": "text-to-ids", "bytes": "text-to-ids", "tokens": "text-to-ids", "ids": "text-to-ids",
    "onehot": "token-embeddings", "vector": "token-embeddings", "position": "embedding-sum",
    "attention": "attention", "layer": "inside-the-encoder", "pooled": "similarity",
    "cosine": "similarity", "why": "sequence-models",
}  # fmt: skip
DEFAULTS = defaults("lessons/lesson.py")  # declared in explorer_core/ui/settings.py


def follow_language() -> None:
    """A sentence still at another language's default switches to this language's default."""
    for name in SENTENCES:
        key = f"lesson.{name}"
        others = {CATALOGUE[lang][f"lesson.default_{name}"] for lang in CATALOGUE}
        if st.session_state.get(key) in others - {DEFAULTS[key]}:
            st.session_state[key] = DEFAULTS[key]


init(DEFAULTS)
follow_language()
LINKED = ("lesson.step", "lesson.text", "lesson.other", "lesson.third", "lesson.layer",
          "lesson.head", "lesson.model")  # fmt: skip


def move(delta: int) -> None:
    step = int(st.session_state.get("lesson.step") or 1)
    st.session_state["lesson.step"] = min(max(step + delta, 1), TOTAL)


def deeper(name: str, where) -> None:  # noqa: ANN001 - a column
    spec = next(p for p in PAGES if p.url_path == DEEPER[name])
    label = t("lesson.deeper", page=t(spec.title))
    try:
        where.page_link(spec.file, label=label, icon=":material/arrow_forward:")
    except StreamlitAPIException:  # the page runs alone (tests): no navigation to link into
        where.markdown(f"→ {label}")


def opened_ref() -> str:
    """The model this session opened ("" for none), and on the session's first pass a link's
    `?model=` and `?lesson.model=`. Called above the fragment too: a link that opens the lesson
    on its opened model shows no MiniLM + 中文 notice, not even on its first pass."""
    if st.query_params.get(MODEL_REF) or st.session_state.get(MODEL_REF):
        from explorer_core.ui.models.picker import take_url_ref  # torch: only with one opened

        take_url_ref()
    ref = str(st.session_state.get(MODEL_REF) or "").strip()
    if ref:
        url_synced("lesson.model", choices("lesson.model"))  # translated labels: URL codes
    return ref


def model_choice(where) -> str:  # noqa: ANN001 - a container
    """The model the lesson runs (`calls.model_key`). Once this session opened a model (another
    page's model box, or `?model=` in a link), a control offers it next to MiniLM."""
    ref = opened_ref()
    base = data.model_key(current_language())  # MiniLM, or MiniLM + 中文 for a Chinese lesson
    if not ref:
        return base
    from explorer_core.ui.models.picker import keep_ref_in_url

    names = {data.MINILM: t("lesson.model.minilm") if base == data.MINILM else t("taught.name"),
             OPENED: t("lesson.model.opened", model=ref)}  # fmt: skip
    choice = where.segmented_control(
        t("lesson.model"), choices("lesson.model"), key="lesson.model",
        format_func=lambda code: names[code],
    ) or DEFAULTS["lesson.model"]  # fmt: skip
    keep_ref_in_url(choice)
    return data.model_key(current_language(), choice, ref)


def model_row(text: str, model: str, body):  # noqa: ANN001, ANN201 - a container; (row, sizes, limit)
    """The sentence's tokens, the texts' fields and the tokens the model reads; one line on the
    page (and the run stops) when the model is not installed or may not be opened."""
    try:
        data.ready(model)
        return data.tokens(text, model), data.sizes(model), data.position_limit(model)
    except (ImportError, PretrainedUnavailable):
        body.warning(t("lesson.no_model"))
    except data.OPENED_ERRORS as err:
        body.warning(t("models.refused", reason=refusal(err)))
    st.stop()


def refusal(err: BaseException) -> str:
    from explorer_core.ui.models.sources import first_line  # torch: an opened model was asked

    return first_line(err)


# ---- the frame of every screen: step title, Previous / steps / Next, the screen, the sentences.
# One fragment: Previous / Next, the step buttons, the layer and head pickers, a clicked cell and
# the sentences rerun only the lesson, not the app's shell around it.
@st.fragment
def lesson_page() -> None:
    init(DEFAULTS)  # a fragment rerun: keys of widgets the last run did not draw are gone
    title = st.empty()
    chooser, nav, body, footer = st.container(), st.container(), st.container(), st.container()
    model = model_choice(chooser)
    with footer.expander(t("lesson.sentences"), icon=":material/edit:"):
        text = st.text_input(t("lesson.text"), max_chars=3000, **bound("lesson.text", DEFAULTS))
        other = st.text_input(t("lesson.other"), max_chars=3000, **bound("lesson.other", DEFAULTS))
        third = st.text_input(t("lesson.third"), max_chars=3000, **bound("lesson.third", DEFAULTS))
    back_col, jump_col, next_col = nav.columns([1, 4, 1], vertical_alignment="center")
    leave_to_widget("lesson.step", DEFAULTS["lesson.step"])
    step = jump_col.segmented_control(
        t("lesson.jump"), list(range(1, TOTAL + 1)), key="lesson.step", bind="query-params",
        default=DEFAULTS["lesson.step"], required=True, label_visibility="collapsed",
        help=t("lesson.jump"),
    ) or 1  # fmt: skip
    back_col.button(t("lesson.prev"), icon=":material/arrow_back:", key="lesson.prev",
                    on_click=move, args=(-1,), disabled=step <= 1, width="stretch")  # fmt: skip
    next_col.button(t("lesson.next"), icon=":material/arrow_forward:", key="lesson.next",
                    on_click=move, args=(1,), disabled=step >= TOTAL, width="stretch")  # fmt: skip
    name = core.STEPS[step - 1]
    title.title(t("lesson.progress", step=step, total=TOTAL, name=t(f"lesson.step.{name}")))
    nav.progress(step / TOTAL)
    linked = (*LINKED, MODEL_REF) if data.is_opened(model) else LINKED
    link = share_link(linked, defaults=DEFAULTS)  # before any st.stop: error views keep a link

    if not text.strip():
        body.warning(t("lesson.empty"))
        st.stop()
    row, sizes, limit = model_row(text, model, body)
    if len(row.ids) > limit:
        too_long = t(variant("lesson.too_long", model), n=len(row.ids), limit=limit, **sizes)
        if step >= core.POSITION_STEP:
            body.error(too_long)
            st.stop()
        body.warning(too_long)
    left, right = body.columns([2, 3], gap="large")
    left.markdown(t(variant(f"lesson.{name}.body", model), **sizes))
    deeper(name, left)
    source = t(variant("lesson.source", model), **sizes)
    lesson = Lesson(text, other, third, row, limit, source, DEFAULTS, body, model, sizes)
    try:
        screens.show(name, lesson, left, right)  # one concept per screen
    except (ImportError, PretrainedUnavailable):  # the model's weights, read by this screen
        body.warning(t("lesson.no_model"))
        st.stop()
    except data.OPENED_ERRORS as err:  # an opened model that could not be opened again
        body.warning(t("models.refused", reason=refusal(err)))
        st.stop()
    share_link(linked, link, DEFAULTS)


opened_chosen = bool(opened_ref()) and st.session_state.get("lesson.model") == OPENED
if current_language() == "zh" and not opened_chosen:
    chinese_notice()  # MiniLM + 中文 not built yet: one line, and a button that builds it
lesson_page()
