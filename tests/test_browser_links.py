"""A link reopens a view in a fresh browser: the widgets show the link's values, the URL keeps them,
and the sidebar's link box holds a link that reopens the same view.

Screenshot: artifacts/screenshots/links-attention.png (look at it).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUERY = (
    "attn.mode=pair&attn.a=Links+reopen+views.&attn.b=Teachers+share+them."
    "&attn.layer=3&attn.head=5&attn.view=masks&lang=en"
)


def url_params(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(url).query).items()}


def selectbox_value(browser, label: str) -> str:
    return browser.page.get_by_role("combobox", name=label).input_value()


def test_a_link_reopens_the_attention_view(browser):
    browser.open("attention", query=QUERY, wait_text="Which keys each query may look at")
    page = browser.page
    assert page.get_by_role("textbox", name="Sentence A (segment 0)").input_value() == (
        "Links reopen views."
    )
    assert page.get_by_role("textbox", name="Sentence B (segment 1)").input_value() == (
        "Teachers share them."
    )
    assert selectbox_value(browser, "Layer") == "3"
    assert selectbox_value(browser, "Head") == "5"
    params = url_params(page.url)
    assert params["attn.layer"] == "3" and params["attn.view"] == "masks"
    assert params["attn.a"] == "Links reopen views."
    link = browser.view_link()
    assert "attn.head=5" in link and "attn.mode=pair" in link and link.startswith("http")
    browser.screenshot("links-attention")

    # the browser writes a bound widget's new value into the URL
    box = page.get_by_role("textbox", name="Sentence A (segment 0)")
    box.fill("A new sentence.")
    box.press("Enter")
    browser.wait_idle()
    assert url_params(page.url)["attn.a"] == "A new sentence."
    assert "A+new+sentence." in browser.view_link()

    # a hand-synced control writes its code, and keeps the bound values the browser wrote
    page.locator('[data-testid="stMain"] button', has_text="All layers × heads").click()
    browser.wait_idle()
    params = url_params(page.url)
    assert params["attn.view"] == "overview" and params["attn.a"] == "A new sentence."
    assert params["attn.layer"] == "3"

    # the language switch keeps codes in the URL, not the translated labels
    page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle()
    params = url_params(page.url)
    assert params["lang"] == "zh" and params["attn.view"] == "overview"
    assert params["attn.mode"] == "pair" and params["attn.a"] == "A new sentence."
    browser.screenshot("links-attention-zh")
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []
