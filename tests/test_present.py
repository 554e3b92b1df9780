"""Presentation mode (?present=1 or the toggle): no sidebar, top navigation, large type/charts."""

from __future__ import annotations

import json

from explorer_core.ui.present import PRESENT_CSS
from tests.charts import figures
from tests.conftest import app_test
from tests.links import open_with


def keyed(elements, key: str) -> list:  # noqa: ANN001 - an AppTest element list
    return [el for el in elements if getattr(el, "key", None) == key]


def test_present_1_in_the_url_opens_presentation_mode_and_stays_in_the_url():
    at = open_with("app.py", {"present": "1", "lang": "zh"})
    assert at.session_state["present"] is True
    assert at.query_params["present"] == "1"
    assert not keyed(at.sidebar.get("button_group"), "lang"), "no shell controls in the sidebar"
    assert keyed(at.main.get("button_group"), "lang"), "the language switch moves above the page"
    styles = [el.proto.body for el in at.get("html")]
    assert PRESENT_CSS.strip() in [s.strip() for s in styles], "the projector style is applied"
    assert at.title[0].value.startswith("嵌入探索器")
    assert not at.sidebar.children, "nothing in the sidebar: Streamlit then draws none at all"
    assert [c for c in at.main.code if "present=1" not in c.value and "lang=zh" in c.value], (
        "the link box moves above the page"
    )


def test_leaving_presentation_mode_brings_the_sidebar_back_and_drops_the_parameter():
    at = open_with("app.py", {"present": "1"})
    at.toggle(key="present").set_value(False).run()
    assert not at.exception
    assert "present" not in at.query_params
    assert keyed(at.sidebar.get("button_group"), "lang")
    assert keyed(at.sidebar.get("button_group"), "app.image_format")
    assert not [el for el in at.get("html") if "stSidebar" in el.proto.body]


def test_without_the_parameter_the_app_is_not_in_presentation_mode():
    at = open_with("app.py", {"present": "0"})
    assert at.session_state["present"] is False and "present" not in at.query_params


def test_charts_carry_the_download_format_and_grow_in_presentation_mode():
    normal = app_test("lessons/embed_positions.py", state={"app.image_format": "svg"}, timeout=120)
    big = app_test("lessons/embed_positions.py", state={"present": True}, timeout=120)
    assert not normal.exception and not big.exception
    configs = [json.loads(el.proto.config) for el in normal.get("plotly_chart")]
    assert configs and all(c["toImageButtonOptions"]["format"] == "svg" for c in configs)
    small_specs, big_specs = figures(normal), figures(big)
    assert len(small_specs) == len(big_specs)
    for small, large in zip(small_specs, big_specs, strict=True):
        assert small["layout"]["font"]["size"] == 14 and large["layout"]["font"]["size"] == 20
        assert large["layout"]["height"] > small["layout"]["height"]


def test_chart_buttons_speak_the_page_language():
    """plotly.js knows only English: a Chinese page ships its button texts with each chart."""
    chinese = app_test("lessons/embed_positions.py", state={"lang": "zh"}, timeout=120)
    english = app_test("lessons/embed_positions.py", state={"lang": "en"}, timeout=120)
    for el in chinese.get("plotly_chart"):
        config = json.loads(el.proto.config)
        words = config["locales"][config["locale"]]["dictionary"]
        assert words["Download plot as a PNG"] == "下载图表（PNG）"
        assert words["Download plot"] == "下载图表（SVG）"  # the camera's text for SVG
    assert all("locale" not in json.loads(el.proto.config) for el in english.get("plotly_chart"))
