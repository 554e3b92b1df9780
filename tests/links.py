"""Open a page from a link in AppTest, and read what the page says its link is.

Helpers for the link tests (tests/test_query_params*.py) and for any test that opens a page with
`?key=value` set or checks which widgets are bound to the URL.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT


def open_with(page: str, params: dict[str, str], state: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / page), default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def widget(at: AppTest, key: str):
    """The widget keyed `key`, whatever its kind."""
    for kind in ("text_input", "text_area", "number_input", "selectbox", "slider",
                 "select_slider", "toggle", "radio", "button_group"):  # fmt: skip
        found = [w for w in at.get(kind) if getattr(w, "key", None) == key]
        if found:
            return found[0]
    raise AssertionError(f"no widget keyed {key!r}")


def assert_bound(at: AppTest, keys: tuple[str, ...]) -> None:
    for key in keys:
        assert widget(at, key).proto.query_param_key == key, key


def link_text(at: AppTest) -> str:
    """The text of the sidebar's "link to this view" box."""
    codes = [el for el in at.sidebar.code]
    assert codes, "the page shows a link box"
    return codes[-1].value
