"""Follow the teacher: the teacher's page and view as a target, and a student's page taking it.

A target is what a "Link to this view" carries, less the language (each student keeps theirs):
the page's URL path and its declared settings (`ui/settings.py`) that differ from their defaults,
as a query string, e.g. `attention?attn.layer=3&attn.head=5`. A student who follows gets those
values, checked against each setting's kind and range, put into the session; the values they
replace are kept, so "Back to my own view" puts them back. A student's own work (the trained
tokenizer and model, an uploaded or pasted corpus) is not a view setting: following never
touches it, and a pasted corpus is never sent.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import streamlit as st

from explorer_core.ui.nav import PAGES
from explorer_core.ui.settings import PAGES as PAGE_SETTINGS
from explorer_core.ui.settings import Setting
from explorer_core.ui.state import URL_SEEDED, url_text

WORK_KEYS = frozenset({"tok.train.paste"})  # a learner's own corpus: never sent, never replaced
MAX_TEXT = 200  # characters of a text setting a target carries (a sentence, not a corpus)
BEFORE_KEY = "class.follow.before"  # (page file, {key: the value following replaced})
LAST_PAGE_KEY = "class.follow.page"  # url path of the page this session last ran


def remember_page(url_path: str) -> None:
    """The shell calls this each run: the page the teacher would bring the class to."""
    st.session_state[LAST_PAGE_KEY] = url_path


def page_file(url_path: str) -> str | None:
    return next((spec.file for spec in PAGES if spec.url_path == url_path), None)


def page_title_key(url_path: str) -> str | None:
    return next((spec.title for spec in PAGES if spec.url_path == url_path), None)


def target_here() -> str:
    """The teacher's current page and view as a target ("attention?attn.layer=3")."""
    url_path = st.session_state.get(LAST_PAGE_KEY, "")
    settings = PAGE_SETTINGS.get(page_file(url_path) or "", {})
    params = {}
    for key, setting in settings.items():
        if key in WORK_KEYS or key not in st.session_state:
            continue
        value = st.session_state[key]
        if value == setting.value() or (isinstance(value, str) and len(value) > MAX_TEXT):
            continue
        params[key] = url_text(value)
    query = urlencode(params)
    return f"{url_path}?{query}" if query else url_path


def parse(target: str) -> tuple[str, dict[str, Any]]:
    """A target's page url path and its settings as typed values (unknown or bad ones dropped).

    >>> parse("attention?attn.layer=3&attn.text=A+dog.&nope=1")[0]
    'attention'
    """
    parts = urlsplit(target)
    url_path = parts.path.strip("/")
    settings = PAGE_SETTINGS.get(page_file(url_path) or "", {})
    values = {}
    for key, text in parse_qsl(parts.query, keep_blank_values=True):
        setting = settings.get(key)
        if setting is None or key in WORK_KEYS:
            continue
        value = typed(setting, text)
        if value is not None:
            values[key] = value
    return url_path, values


def typed(setting: Setting, text: str) -> Any:
    """`text` as a value of the setting's kind, inside its range or choices; None when it is not.

    >>> typed(Setting("a", 2, span=(1, 6)), "5"), typed(Setting("a", 2, span=(1, 6)), "9")
    (5, None)
    >>> typed(Setting("b", False), "true"), typed(Setting("c", "x", choices=("x", "y")), "z")
    (True, None)
    """
    kind = type(setting.example)
    try:
        if kind is bool:
            value: Any = {"true": True, "false": False}[text]
        elif kind in (int, float):
            value = kind(text)
        else:
            value = text[:MAX_TEXT]
    except (KeyError, ValueError):
        return None
    if setting.choices is not None:
        codes = {str(choice): choice for choice in setting.choices}
        return codes.get(str(value))
    if setting.span is not None and not setting.span[0] <= value <= setting.span[1]:
        return None
    return value


def go(target: str) -> None:
    """Open the teacher's view: its settings into the session (the replaced ones kept), then
    switch to its page. Nothing else of the session changes."""
    url_path, values = parse(target)
    file = page_file(url_path)
    if file is None:
        return
    before = {key: st.session_state[key] for key in values if key in st.session_state}
    st.session_state[BEFORE_KEY] = (file, before)
    _put(values)
    # subtle: a widget bound to the URL (bind="query-params") takes the page's URL value when the
    # page opens; without it in the URL it would keep the student's old value
    st.switch_page(file, query_params={key: url_text(value) for key, value in values.items()})


def _put(values: dict[str, Any]) -> None:
    for key, value in values.items():
        st.session_state[key] = value
        if URL_SEEDED + key in st.session_state:  # a hand-synced control's shadow copy too
            st.session_state[URL_SEEDED + key] = value


def can_go_back() -> bool:
    return bool(st.session_state.get(BEFORE_KEY, (None, {}))[1])


def go_back() -> None:
    """Put back what following replaced, on the page it was replaced on."""
    file, before = st.session_state.pop(BEFORE_KEY, (None, {}))
    _put(before)
    if file:
        st.switch_page(file, query_params={key: url_text(value) for key, value in before.items()})
