"""The two Attend pages in a real browser, driven like a learner; screenshots to look at.

Screenshots go to artifacts/screenshots/attend-*.png (whole viewport and one per chart).
"""

from __future__ import annotations

import pytest

from tests.browser import PLOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def check_clean(browser) -> None:
    assert browser.exceptions() == []
    assert browser.foreign_requests() == []


def test_attention_page_views(browser):
    browser.open("attention", wait_text="One weight, step by step")
    browser.shoot_charts("attend-head", 3)
    browser.screenshot("attend-head")
    assert browser.page.get_by_text("looking at").count() > 0
    browser.page.locator("button", has_text="All layers").click()
    browser.wait_idle("Attention weights of every head")
    browser.shoot_charts("attend-overview", 1)
    browser.page.locator("button", has_text="Padded batch").click()
    browser.wait_idle("The batch the model sees")
    browser.page.locator("button", has_text="Masks").click()
    browser.wait_idle("Which keys each query may look at")
    browser.shoot_charts("attend-masks", 1)
    browser.screenshot("attend-masks")
    check_clean(browser)


def test_attention_sentence_pair_with_causal_mask(browser):
    browser.open("attention", wait_text="One weight, step by step")
    browser.page.locator("button", has_text="Sentence pair").click()
    browser.wait_idle("Sentence B (segment 1)")
    browser.page.get_by_text("Causal mask (decoder-style)").click()
    browser.wait_idle()
    browser.shoot_charts("attend-pair-causal", 3)
    browser.screenshot("attend-pair-causal")
    check_clean(browser)


def test_bert_inputs_page(browser):
    browser.open("bert-inputs", wait_text="Many draws: the shares converge")
    browser.shoot_charts("attend-inputs", 2)
    browser.screenshot("attend-inputs")
    table = browser.page.locator('[data-testid="stDataFrame"]').first
    browser.page.locator("button", has_text="Re-roll").click()
    browser.wait_idle()
    assert browser.page.get_by_role("spinbutton").first.input_value() == "1"
    browser.shoot_charts("attend-inputs-reroll", 2)
    table.scroll_into_view_if_needed()
    browser.page.get_by_text("The same example, the tutorial's way").scroll_into_view_if_needed()
    browser.screenshot("attend-inputs-tutorial")
    check_clean(browser)


def test_bert_inputs_pair_without_a_tab(browser):
    browser.open("bert-inputs", wait_text="Many draws: the shares converge")
    browser.page.locator("button", has_text="My own pairs").click()
    browser.wait_idle("One pair per line")
    area = browser.page.get_by_role("textbox", name="One pair per line")
    area.fill("A first sentence without any tab")
    area.press("Control+Enter")
    browser.wait_idle("has no tab")
    browser.screenshot("attend-inputs-no-tab")
    check_clean(browser)


def test_attend_pages_in_chinese(browser):
    browser.open("bert-inputs", wait_text="Many draws: the shares converge")
    browser.page.locator('[data-testid="stSidebar"] button', has_text="中文").click()
    browser.wait_idle("多次抽取")
    browser.shoot_charts("attend-inputs-zh", 2)
    browser.screenshot("attend-inputs-zh")
    browser.page.locator('[data-testid="stSidebarNav"] a', has_text="注意力").first.click()
    browser.wait_idle("一个权重，一步一步算")
    browser.shoot_charts("attend-head-zh", 3)
    browser.screenshot("attend-head-zh")
    check_clean(browser)


def cell_centre(browser, chart: int, query: int, key: int) -> tuple[float, float]:
    """Page coordinates of heatmap cell (query, key) of a chart (queries down, keys across)."""
    plot = browser.page.locator(PLOT).nth(chart)
    size = plot.locator(".js-plotly-plot").evaluate("el => el.data[0].y.length")  # token labels
    area = plot.locator(".nsewdrag").first
    area.scroll_into_view_if_needed()
    box = area.bounding_box()
    return (box["x"] + (key + 0.5) * box["width"] / size,
            box["y"] + (query + 0.5) * box["height"] / size)  # fmt: skip


def test_clicking_a_heatmap_cell_explains_that_weight_and_updates_the_link(browser):
    browser.open("attention", wait_text="One weight, step by step")
    browser.shoot_charts("attend-click-before", 3)
    page = browser.page
    # the default sentence: [CLS] the cat sat on the mat because it was tired . [SEP] (13 tokens)
    page.mouse.click(*cell_centre(browser, 0, query=3, key=2))
    browser.wait_idle("looking at")
    assert page.locator(".st-key-attn-query input").input_value() == "3 · sat"
    assert page.locator(".st-key-attn-key input").input_value() == "2 · cat"
    formula = page.locator("p", has_text="looking at").first
    assert [formula.locator("strong").nth(i).inner_text() for i in (0, 1)] == ["3 · sat", "2 · cat"]
    assert "attn.query=3" in page.url and "attn.key=2" in page.url
    link = browser.view_link()
    assert "attn.query=3" in link and "attn.key=2" in link
    # a change inside the fragment (the head) reaches the address bar and the link box too
    page.locator(".st-key-attn-head button").first.click()
    page.locator('[role="option"]').nth(4).click()
    browser.wait_idle("layer 1, head 5")
    assert "attn.head=5" in page.url
    link = browser.view_link()
    assert "attn.head=5" in link and "attn.query=3" in link
    browser.screenshot("attend-click-cell")
    check_clean(browser)


def test_clicking_the_lesson_attention_heatmap_shows_the_arithmetic(browser):
    browser.open("lesson", query="lesson.step=8", wait_text="who reads whom")
    browser.shoot_charts("lesson-click-before", 1)
    browser.page.mouse.click(*cell_centre(browser, 0, query=1, key=0))
    browser.wait_idle("looking at")
    formula = browser.page.locator("p", has_text="looking at").first
    assert formula.locator("strong").nth(0).inner_text().startswith("1 · ")
    assert formula.locator("strong").nth(1).inner_text() == "0 · [CLS]"
    browser.screenshot("lesson-click-cell")
    check_clean(browser)
