"""Who counts as one guesser of class codes (found by the class load benchmark).

The store refuses every join, right code or not, from a client with 20 wrong codes in the last
minute. An early `seat.client_id()` used the browser's address, else `id(st.session_state)`: that
is Streamlit's one module-level proxy object, the same for every session of the process, so with
no address (a local browser, a proxy on the same host) 20 typos from anyone locked every student
out for a minute (measured over websockets). And the address alone is shared by a class behind
one school NAT. A guesser is now one browser session (with its address).
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from explorer_core.ui.classroom.seat import client_id

    st.session_state["cid"] = client_id()


def test_two_local_sessions_are_two_guessers(monkeypatch):
    from streamlit.runtime.context import ContextProxy

    # what Streamlit says for a peer on 127.0.0.1 (AppTest's own context is a MagicMock)
    monkeypatch.setattr(ContextProxy, "ip_address", property(lambda self: None))
    first, second = AppTest.from_function(_script).run(), AppTest.from_function(_script).run()
    assert not first.exception and not second.exception
    assert first.session_state["cid"] != second.session_state["cid"]


def test_two_sessions_behind_one_address_are_two_guessers(monkeypatch):
    from streamlit.runtime.context import ContextProxy

    monkeypatch.setattr(ContextProxy, "ip_address", property(lambda self: "203.0.113.7"))
    first, second = AppTest.from_function(_script).run(), AppTest.from_function(_script).run()
    assert first.session_state["cid"] != second.session_state["cid"]
    assert first.session_state["cid"].startswith("203.0.113.7/")
