"""This browser session's seat in a class: the store, the links that start or join one, the URL.

Links (every tool can make them):
- `/?class=new` starts a class; the address bar then reads `?class=CODE&teacher=SECRET` (the
  teacher's secret: that URL is the "teacher link" that reopens the panel on another device);
- `/?class=CODE` opens the join form; `/?class=CODE&name=NICK` joins at once with that nickname;
  a student's address bar then reads `?class=CODE&seat=TOKEN` (a reload keeps the seat).

The seat lives in st.session_state (never at module level: that is shared by every user of the
server); the class itself lives in the database (`explorer_core.classroom.ClassStore`), so a
student on one replica and the teacher on another are in one class. Every page run writes the
seat back into the URL, since switching pages drops query parameters.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

import streamlit as st

from explorer_core.classroom import ClassError, ClassStore
from explorer_core.classroom.records import normalise_code
from explorer_core.ui.classroom.gate import SEAT_KEY, URL_CLASS, current, notice

URL_TEACHER, URL_SEAT, URL_NAME = "teacher", "seat", "name"
NEW = "new"  # ?class=new starts a class
CLIENT_KEY = "class.client"  # this session's random name for the store's rate limit
SECRETS_SECTION = "classes"  # [connections.classes] url = "postgresql+psycopg://..." in secrets


@dataclass(frozen=True)
class Seat:
    """A teacher's (`secret`) or a student's (`token`, `nickname`) place in class `code`."""

    code: str
    secret: str | None = None
    token: str | None = None
    nickname: str = ""

    @property
    def teacher(self) -> bool:
        return self.secret is not None


@st.cache_resource(show_spinner=False, max_entries=4)
def _store(url: str) -> ClassStore:
    """One store per database URL per server process: a connection pool, no class state."""
    settings = ClassStore.from_settings()
    if not url:
        return settings
    return ClassStore(url, lifetime_s=settings.lifetime_s, member_limit=settings.member_limit)


def database_url() -> str:
    """EXPLORER_CLASS_DB, else `[connections.classes] url` in .streamlit/secrets.toml, else ""
    (the SQLite file in the app's data folder)."""
    url = os.environ.get("EXPLORER_CLASS_DB", "").strip()
    if url:
        return url
    try:
        return str(st.secrets.get("connections", {}).get(SECRETS_SECTION, {}).get("url", ""))
    except Exception:  # noqa: BLE001 - no secrets file, or an unreadable one: the default store
        return ""


def store() -> ClassStore:
    return _store(database_url())


def client_id() -> str:
    """Who counts as one guesser of room codes: this browser session (and its address).

    # subtle: not the address alone: a class behind one school NAT shares it, and a few typos
    # each would lock the whole room out for a minute.
    """
    session = st.session_state.setdefault(CLIENT_KEY, secrets.token_hex(8))
    address = getattr(st.context, "ip_address", None)
    return f"{address if isinstance(address, str) else '-'}/{session}"


def error_key(err: ClassError) -> str:
    """The text key that says `err` in the UI language ("class.err.unknown"...)."""
    if err.kind == "member":
        return "class.student.gone"
    known = {"unknown", "closed", "expired", "full", "nickname", "secret", "rate", "poll",
             "experiment", "input", "db"}  # fmt: skip
    return f"class.err.{err.kind}" if err.kind in known else "class.err.db"


def report(err: ClassError, code: str = "") -> None:
    """Say `err` once, in one line, in the UI language (never a traceback)."""
    limit = class_limit(code) if err.kind == "full" else 0
    notice(error_key(err), code=code, limit=limit, detail=str(err))


def class_limit(code: str) -> int:
    """How many students class `code` takes (for the "full" message)."""
    try:
        return store().info(code).member_limit
    except ClassError:
        return store().member_limit


def start_class() -> Seat | None:
    """A new class with this session as its teacher; None (and a notice) if that failed."""
    try:
        info, secret = store().create_class()
    except ClassError as err:
        report(err)
        return None
    seat = Seat(info.code, secret=secret)
    st.session_state[SEAT_KEY] = seat
    return seat


def join_class(code: str, nickname: str) -> Seat | None:
    """Join class `code` as `nickname`; None (and a notice) if that failed."""
    code = normalise_code(code)
    if not code:
        notice("class.err.empty_code")
        return None
    try:
        member = store().join(code, nickname, client=client_id())
    except ClassError as err:
        report(err, code)
        return None
    seat = Seat(code, token=member.token, nickname=member.nickname)
    st.session_state[SEAT_KEY] = seat
    return seat


def enter_from_url() -> str | None:
    """Act on the URL's class parameters once per session; return the code of a join form to
    offer (`?class=CODE` alone), else None. A seat already held wins over the URL."""
    params = st.query_params
    code = (params.get(URL_CLASS) or "").strip()
    if not code or current() is not None:
        return None
    if code.lower() == NEW:
        params.pop(URL_CLASS, None)
        start_class()
        return None
    code = normalise_code(code)
    if params.get(URL_TEACHER):
        _resume_teacher(code, params[URL_TEACHER])
    elif params.get(URL_SEAT):
        _resume_student(code, params[URL_SEAT])
    elif params.get(URL_NAME):
        name = params.pop(URL_NAME)
        if join_class(code, name) is None:
            return code
    else:
        return code
    return None


def _resume_teacher(code: str, secret: str) -> None:
    try:
        store().check_teacher(code, secret)
    except ClassError as err:
        forget_url()
        report(err, code)
        return
    st.session_state[SEAT_KEY] = Seat(code, secret=secret)


def _resume_student(code: str, token: str) -> None:
    try:
        member = store().member(code, token)
    except ClassError as err:
        forget_url()
        report(err, code)
        return
    if member is None:
        forget_url()
        notice("class.student.gone", code=code)
        return
    st.session_state[SEAT_KEY] = Seat(code, token=token, nickname=member.nickname)


def keep_in_url() -> None:
    """Write the seat into the URL (page switches drop query parameters)."""
    seat = current()
    if seat is None:
        return
    wanted = {URL_CLASS: seat.code}
    wanted[URL_TEACHER if seat.teacher else URL_SEAT] = seat.secret or seat.token or ""
    for key, value in wanted.items():
        if st.query_params.get(key) != value:
            st.query_params[key] = value
    for stale in (URL_NAME, URL_SEAT if seat.teacher else URL_TEACHER):
        st.query_params.pop(stale, None)


def forget_url() -> None:
    for key in (URL_CLASS, URL_TEACHER, URL_SEAT, URL_NAME):
        st.query_params.pop(key, None)


def forget() -> None:
    """This session leaves class mode (the class itself is untouched)."""
    st.session_state.pop(SEAT_KEY, None)
    forget_url()


def base_url(page_path: str = "") -> str:
    """The app's address as the browser sees it, without the page or the query.

    `st.context.url` is the address of the page shown ("http://host:8501/attention", or
    "http://host:8501" at home; behind a proxy maybe "https://school/explorer/attention").
    """
    return app_address(st.context.url or "", page_path)


def app_address(url: str, page_path: str) -> str:
    """The app's base address from a page's address and that page's url path.

    >>> app_address("http://127.0.0.1:8501", "")
    'http://127.0.0.1:8501/'
    >>> app_address("https://s.org/ee/attention", "attention")
    'https://s.org/ee/'
    """
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if page_path and path.endswith("/" + page_path):
        path = path[: -len(page_path) - 1]
    return f"{parts.scheme}://{parts.netloc}{path}/" if parts.netloc else "/"
