"""A model on this machine, in a real browser (issue 35): a Hub-name ModernBERT from a Hugging Face
cache and a RoBERTa folder, in English and Chinese, on every model page, opened by URL; a BERT
folder with a Chinese WordPiece on the Chinese pages; one model picked by typing its Hub name into
the box, followed by another page opened from the navigation; and refused references as one
warning line. The server is this module's own, started with EXPLORER_MODEL_DIRS and HF_HUB_CACHE
on folders built in a temporary directory (tests/opened_models.py). Screenshots to look at:
artifacts/screenshots/opened-<page>-<model>-<lang>.png.
"""

from __future__ import annotations

import re

import pytest

from tests import opened_models
from tests.browser import PLOT, browser_session, require_chromium, streamlit_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HUB_NAME = "someone/tiny-modernbert"
MODELS = {"modernbert": HUB_NAME, "roberta": "tiny-roberta", "bert": "tiny-bert-zh"}
PAGES = {  # short name -> (url path, query that opens the model's view)
    "tokens": ("token-embeddings", "emb.tokens.source=opened"),
    "sum": ("embedding-sum", "emb.sum.source=opened"),
    "positions": ("position-encodings", ""),
    "attention": ("attention", "attn.source=opened"),
    "encoder": ("inside-the-encoder", "enc.source=opened"),
    "families": ("inside-the-encoder", "enc.source=opened&enc.view=families"),
    "similarity": ("similarity", "sim.model=opened&sim.pooling=own"),
}
# pages whose model view is further down: scroll to this heading (by language)
SECTION = {
    "positions": {"en": "A real model's own positions", "zh": "一个真实模型自己的位置编码"},
    "similarity": {"en": "Two sentences", "zh": "两个句子"},  # each model's cosine, by name
}
DRAWN = {"families": '[data-testid="stDataFrame"]'}  # a table, not a chart
# the sum page writes each value into its cells at plotly's fitted size (11 px), on every source
SMALL_CELL_TEXT = {"sum"}
WARNING = '[data-testid="stAlertContentWarning"]'
LAPTOP = {("attention", "modernbert", "zh"), ("positions", "roberta", "en")}  # 1440 × 900
BOX = ".st-key-models-box"  # the selectbox keyed "models.box"


@pytest.fixture(scope="module")
def opened_url(tmp_path_factory):
    """A server of this module's own that may open the three models built here."""
    require_chromium()
    root = tmp_path_factory.mktemp("opened")
    opened_models.cache_entry(root / "hub", HUB_NAME, "modernbert", pooling="cls")
    for family in ("roberta", "bert"):
        opened_models.model_folder(family, root / "models" / MODELS[family])
    env = {"EXPLORER_MODEL_DIRS": str(root / "models"), "HF_HUB_CACHE": str(root / "hub")}
    with streamlit_server(env=env) as url:
        yield url, root / "models"


@pytest.fixture(scope="module")
def browser(opened_url):
    with browser_session(opened_url[0], width=1280, height=720) as session:
        yield session


def reference(family: str, models) -> str:  # noqa: ANN001 - a Path
    return HUB_NAME if family == "modernbert" else str(models / MODELS[family])


def main_text_outside_box(page) -> str:  # noqa: ANN001 - a Playwright Page
    """The page's text without the model box (which shows the reference it was given)."""
    return page.evaluate(f"""() => {{
        const main = document.querySelector('[data-testid="stMain"]').cloneNode(true);
        main.querySelectorAll('{BOX}').forEach(box => box.remove());
        return main.innerText;
    }}""")


def scroll_to(locator) -> None:  # noqa: ANN001 - a Playwright Locator
    """Scroll so that `locator`'s first element is at the top of the window."""
    locator.first.evaluate("e => e.scrollIntoView({block: 'start'})")
    locator.page.wait_for_timeout(300)


def visit(browser, page: str, family: str, lang: str, models) -> None:  # noqa: ANN001
    """Open `page` on the model by URL; check it drew without an exception or a warning and
    names the model; save the viewport, then each chart alone (in a tall window: a chart taller
    than the viewport is cut in a screenshot, as Streamlit scrolls inside its own container)."""
    path, query = PAGES[page]
    ref = reference(family, models)
    size = {"width": 1440, "height": 900} if (page, family, lang) in LAPTOP else None
    browser.page.set_viewport_size(size or {"width": 1280, "height": 720})
    browser.open(path, "&".join(q for q in (query, f"model={ref}", f"lang={lang}") if q))
    drawn = DRAWN.get(page, f"{PLOT} .main-svg")
    browser.page.locator(drawn).first.wait_for(timeout=60_000)
    where = (page, family, lang)
    assert browser.exceptions() == [], where
    warnings = browser.page.locator(WARNING).all_inner_texts()
    assert warnings == [], (where, warnings)
    assert MODELS[family] in main_text_outside_box(browser.page), where
    if page in SECTION:
        scroll_to(browser.page.get_by_text(SECTION[page][lang]))
    elif page in DRAWN:
        scroll_to(browser.page.locator(DRAWN[page]))
    name = f"opened-{page}-{family}-{lang}" + ("-laptop" if size else "")
    browser.screenshot(name)
    if page not in SMALL_CELL_TEXT and page not in DRAWN:
        assert browser.small_chart_text() == [], where
    browser.page.set_viewport_size({"width": 1280, "height": 1800})
    charts = browser.page.locator(PLOT)
    for i in range(charts.count()):
        charts.nth(i).locator(".main-svg").first.wait_for(timeout=60_000)
        browser.shoot(charts.nth(i), f"{name}-chart{i}")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("family", ["modernbert", "roberta"])
def test_every_model_page_opens_the_model_by_url(browser, opened_url, family, lang):
    for page in PAGES:
        visit(browser, page, family, lang, opened_url[1])


@pytest.mark.parametrize("page", ["tokens", "attention"])
def test_a_chinese_wordpiece_folder_on_the_chinese_pages(browser, opened_url, page):
    visit(browser, page, "bert", "zh", opened_url[1])


def test_a_hub_name_typed_into_the_box_is_the_model_of_every_page(browser):
    browser.page.set_viewport_size({"width": 1280, "height": 720})
    browser.open("attention", "attn.source=opened&lang=en")
    assert "model=" not in browser.page.url
    box = browser.page.locator(BOX)
    box.locator("input").click()
    browser.page.keyboard.type(HUB_NAME, delay=20)
    browser.page.keyboard.press("Enter")
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=60_000)
    browser.wait_idle()
    assert browser.exceptions() == []
    assert re.search(r"[?&]model=someone(%2F|/)tiny-modernbert", browser.page.url)
    assert HUB_NAME in main_text_outside_box(browser.page)
    browser.screenshot("opened-typed-attention-modernbert-en")
    nav = browser.page.locator('[data-testid="stSidebarNav"] a[href$="/position-encodings"]')
    nav.click()
    browser.page.wait_for_url(re.compile(r"/position-encodings"))
    browser.wait_idle()
    browser.page.locator(f"{PLOT} .main-svg").first.wait_for(timeout=60_000)
    assert browser.exceptions() == []
    assert HUB_NAME in main_text_outside_box(browser.page)
    scroll_to(browser.page.get_by_text(SECTION["positions"]["en"]))
    browser.screenshot("opened-typed-positions-modernbert-en")


@pytest.mark.parametrize("ref", ["/etc", "nobody/missing"])
def test_a_refused_reference_is_one_warning_line(browser, ref):
    browser.page.set_viewport_size({"width": 1280, "height": 720})
    browser.open("inside-the-encoder", f"enc.source=opened&model={ref}&lang=en")
    assert browser.exceptions() == []
    warnings = browser.page.locator(WARNING).all_inner_texts()
    assert len(warnings) == 1 and "cannot be opened here" in warnings[0], warnings
    assert "\n" not in warnings[0].strip()
    browser.screenshot(f"opened-refused-{ref.strip('/').replace('/', '-')}-en")
