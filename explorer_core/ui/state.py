"""Session-state keys shared between pages, and the one way pages initialise their own.

Keys are prefixed by page ("tok.algo", "attn.layer"); keys under "shared." carry work from one page
to another (the tokenizer trained in the Tokenizer Lab, the model trained on the Train page).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from explorer_core.ui import present
from explorer_core.ui.i18n import LANG_KEY, current_language, t

SHARED_TOKENIZER = "shared.tokenizer"  # the tokenizer trained in the Tokenizer Lab, or absent
SHARED_TOKENIZER_NAME = "shared.tokenizer_name"  # a short label for it ("byte-bpe, 1000 tokens")
SHARED_MODEL = "shared.model"  # the model trained on the Train page, or absent
URL_SEEDED = "_url_seeded."  # + key: the last value of a url_synced control (and: ?key= was read)
INIT_GIVEN = "_init_given"  # keys init() gave their default, their widget not drawn since
PAGE_SET = "_page_set"  # keys set_before_widgets() wrote, their widget not drawn since


def init(defaults: Mapping[str, Any]) -> None:
    """Give each key its default unless the session already holds a value for it.

    Every page calls this first, so each page also runs on its own (direct links, AppTest).
    A control kept in the URL by `url_synced` gets back its last value when a page switch dropped
    it (Streamlit forgets the value of a widget a run does not draw; bound widgets keep theirs).
    """
    given = []
    for key, value in defaults.items():
        if key in st.session_state:
            continue
        if URL_SEEDED + key in st.session_state:
            value = st.session_state[URL_SEEDED + key]
        st.session_state[key] = value
        given.append(key)
    if given:
        st.session_state[INIT_GIVEN] = st.session_state.get(INIT_GIVEN, frozenset()) | set(given)


def bound(
    key: str, defaults: Mapping[str, Any], options: Sequence[Any] = (), *,
    span: tuple[float, float] | None = None, choices: Sequence[Any] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Widget arguments that keep `key` in the URL as `?key=value` (Streamlit's own binding).

    The widget's own default is the page's default for `key` (an `index` into `options` for a
    selectbox), because Streamlit drops the parameter when the value equals the widget's default:
    a link must reopen on the page's default then, not on the widget's (False, 0, "").
    `span` (a slider's or number box's min and max) and `choices` (a select_slider's options)
    are passed on too, after bringing a remembered value back inside them: a value restored
    from a lesson pack (or kept from a wider range) would otherwise make Streamlit raise.
    # subtle: a URL value wins over init()'s setdefault only on the session's first run, which is
    # the run that opens a link. Only for widgets whose URL text is not translated (no format_func
    # over translated labels); those use url_synced.
    # subtle: the default init() gave the key in this run is taken out before the widget is
    # drawn, and the widget puts it back from its own default (`leave_to_widget`). Left in,
    # Streamlit logged "created with a default value but also had its value set via the Session
    # State API" for the first such widget of every fresh server. A value the page set in this
    # run (`set_before_widgets`) draws its widget without a default, for the same reason.

    >>> bound("attn.layer", {"attn.layer": 2}, options=range(1, 7))
    {'key': 'attn.layer', 'bind': 'query-params', 'index': 1}
    >>> bound("emb.pos.clip", {"emb.pos.clip": 8}, span=(1, 32))
    {'key': 'emb.pos.clip', 'bind': 'query-params', 'value': 8, 'min_value': 1, 'max_value': 32}
    """
    default = defaults[key]
    if isinstance(default, int | float) and not isinstance(default, bool) and infinite_in_url(key):
        del st.query_params[key]
        st.rerun()  # the rerun starts from the mended URL, so the widget binds as usual
    args: dict[str, Any] = {"key": key, "bind": "query-params"}
    if options:
        args["index"] = list(options).index(default)
    else:
        args["value"] = default
    if span is not None:
        clamp_state(key, *span)
        args.update(min_value=span[0], max_value=span[1])
    if choices is not None:
        if key in st.session_state and st.session_state[key] not in choices:
            st.session_state[key] = default
        args["options"] = list(choices)
    leave_to_widget(key, default)
    if _page_set(key):  # the page's value, not the default: the widget's own "no default"
        args.pop("index", None)
        args.pop("value", None)
    return args


def leave_to_widget(key: str, default: Any) -> None:
    """Before a widget keyed `key` whose own default is `default`: when this run's init() put that
    very default there (of the same kind: 1 is not 1.0 nor True), take it out of st.session_state
    again, so the widget gives it back from its own default instead of Streamlit warning that
    both set it.

    # subtle: only init()'s value, and only before the widget's first draw since. A value a
    # callback or the page set is the widget's new value: taken out, the widget would fall back
    # to what the browser last sent.
    """
    given = st.session_state.get(INIT_GIVEN, frozenset())
    if key not in given:
        return
    st.session_state[INIT_GIVEN] = given - {key}
    value = st.session_state.get(key, ...)
    if type(value) is type(default) and value == default:
        del st.session_state[key]


def set_before_widgets(values: Mapping[str, Any]) -> None:
    """Give widgets that this run has not drawn yet the values the page chose (a class
    experiment's settings, a preset's sizes from a link). Only the keys whose value differs are
    written; `bound` then draws their widgets without a default of their own.

    # subtle: a widget given a default while its key was written through the Session State API
    # in the same run made Streamlit log "The widget with key ... was created with a default
    # value but also had its value set via the Session State API" (train.vocab_size for each
    # student in a class experiment). A rerun does not help: a value written before `st.rerun()`
    # is still this run's write in the next one.
    """
    state = st.session_state
    changed = {k: v for k, v in values.items() if k not in state or not _same(state[k], v)}
    if changed:
        state.update(changed)
        state[PAGE_SET] = state.get(PAGE_SET, frozenset()) | set(changed)


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same kind (a widget given 1.0 where it holds 1 would change its type)."""
    return type(a) is type(b) and a == b


def _page_set(key: str) -> bool:
    """True once after `set_before_widgets` wrote `key` (its widget is about to draw)."""
    written = st.session_state.get(PAGE_SET, frozenset())
    if key not in written:
        return False
    st.session_state[PAGE_SET] = written - {key}
    return True


def clamp_state(key: str, low: float, high: float) -> None:
    """Keep a widget's remembered number inside its current range (a shorter sentence, a narrower
    model, a pack from elsewhere) and of its kind (int or float): Streamlit raises when a slider's,
    number box's or selectbox's stored value falls outside it or mixes kinds with its range."""
    value = st.session_state.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    kind = float if isinstance(low, float) or isinstance(high, float) else int
    kept = kind(min(max(value, low), high))  # also of the widget's kind: 3 for 3.0, 0.5 for 1
    if kept != value or type(value) is not kind:
        st.session_state[key] = kept


def infinite_in_url(key: str) -> bool:
    """Whether `?key=` reads as an infinite number or NaN ("1e309", "inf", "nan").

    # subtle: Streamlit ignores other bad numbers in a link ("abc", out of range), but an
    # integer number_input bound to such a value raises OverflowError (int(inf)) while it is drawn.
    """
    text = st.query_params.get(key)
    try:
        return text is not None and not math.isfinite(float(text))
    except ValueError:
        return False


def url_synced(key: str, codes: Sequence[Any]) -> bool:
    """Keep an option widget's value in the URL as a stable code (`?key=code`), by hand.

    Call it after `init` and before the widget. On the session's first pass it takes a valid
    `?key=` into st.session_state[key]; on every pass it writes the current value to the URL.
    # subtle: Streamlit's own binding (`bind="query-params"`) writes the *displayed* label, which
    # changes with the UI language ("Single" / "单句"); this keeps the code ("single") instead.

    Example: with `?attn.mode=pair` in the URL, `url_synced("attn.mode", ("single", "pair"))`
    makes the widget keyed "attn.mode" open on "pair"; an unknown `?attn.mode=xx` is ignored.
    Returns True on the one pass that took the value from the URL (e.g. to apply a preset).
    """
    by_text = {str(code): code for code in codes}
    taken = False
    if URL_SEEDED + key not in st.session_state:
        wanted = st.query_params.get(key)
        if wanted in by_text:
            st.session_state[key] = by_text[wanted]
            taken = True
    value = st.session_state.get(key)
    st.session_state[URL_SEEDED + key] = value
    if str(value) not in by_text:
        st.query_params.pop(key, None)
    elif st.query_params.get(key) != str(value):
        st.query_params[key] = str(value)
    return taken


def url_text(value: Any) -> str:
    """A widget value the way Streamlit writes it into a URL.

    >>> url_text(True), url_text(12), url_text("the cat")
    ('true', '12', 'the cat')
    """
    return str(value).lower() if isinstance(value, bool) else str(value)


def view_link(keys: Iterable[str], defaults: Mapping[str, Any] | None = None) -> str:
    """The URL that reopens this page with the current values of `keys` and the UI language.

    Values equal to their entry in `defaults` are left out: the page opens on them anyway.
    """
    params = {LANG_KEY: current_language()}
    for key in keys:
        if key in st.session_state and st.session_state[key] != (defaults or {}).get(key, ...):
            params[key] = url_text(st.session_state[key])
    base = st.context.url or ""
    return f"{base}?{urlencode(params)}"


def link_slot() -> Any:
    """The place of the link box, nothing drawn in it yet (see `share_link`).

    For a page that draws its box only inside an `st.fragment`, so that a control in the fragment
    updates the box (a fragment cannot open the sidebar itself); the page then draws the box
    itself (`share_link(keys, slot, defaults)`) before any st.stop above the fragment.
    """
    presenting_slot = present.link_slot()
    return presenting_slot if presenting_slot is not None else st.sidebar.empty()


def share_link(
    keys: Iterable[str], slot: Any = None, defaults: Mapping[str, Any] | None = None
) -> Any:
    """Show the button that opens this view's link (an st.code: it has a copy button); return its
    slot.

    The button sits in the sidebar, or while presenting in the row above the page.

    Call it once before the page's first st.stop (so error views keep a link) and once more at the
    end with the returned slot: the second call redraws the box with the values the page just
    showed (on a link's first load, widgets below the first call take their URL value only then).
    """
    # subtle: behind a popover, not drawn open: the browser loads Streamlit's code-block component
    # (a syntax highlighter) the first time an st.code is shown, and evaluating it took ~0.4 s of
    # the first page's paint on this 2-core machine (Chromium's JS profiler, cold start). A closed
    # popover's body is not drawn, so that cost moves to the first click on the button.
    if slot is None:
        slot = link_slot()
    link = view_link(keys, defaults)
    with slot.container():  # no st.caption: page tests read a page's last caption
        with st.popover(t("link.title"), icon=":material/link:"):
            st.markdown(t("link.caption"))
            st.code(link, language=None, wrap_lines=True)
    return slot


# Contract of st.session_state[SHARED_MODEL] (set by the Train page when a model exists): an object
# with attributes `model` (an explorer_core.bert.model.BertModel in eval mode, the encoder),
# `tokenizer` (an explorer_core Tokenizer whose ids index that model's vocabulary) and `label`
# (a short string for captions, e.g. "trained in this session: Tiny, 240 steps"). Pages must work
# when it is absent.
# The Train page stores an explorer_core.training.choices.SharedModel, which also has `snapshots`: a
# tuple of training.run.ModelSnapshot (phase, step, `.model()` -> BertModel); the first (step 0)
# is the model before training, the last ("final") the trained one, for before/after views. Use
# getattr(shared, "snapshots", ()) since other code may set a plain object. An optional `mlm` (a
# BertForPreTraining whose `.bert` is `model`, or None) lets the Inside the encoder page draw a
# logit lens: a SharedModel has one when it was pre-trained and not fine-tuned after.
