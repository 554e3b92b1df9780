"""Language choice: ?lang=, else the browser language, else English; every page in Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer_core.ui.i18n import pick_language
from explorer_core.ui.nav import available_pages
from tests.conftest import ROOT, app_test
from tests.translation import foreign, hard_coded, untranslated

# Every file that draws: the shell, the pages and the UI layer (its text modules are the text).
DRAWING_FILES = sorted(
    [
        ROOT / "app.py",
        *(ROOT / "lessons").glob("*.py"),
        *(
            path
            for path in (ROOT / "explorer_core" / "ui").rglob("*.py")
            if not path.stem.startswith("texts") and path.parent.name != "texts"
        ),
    ]
)


@pytest.mark.parametrize(
    ("query", "locale", "expected"),
    [
        ("zh", "en-US", "zh"),  # the link wins over the browser
        ("en", "zh-CN", "en"),
        (None, "zh-CN", "zh"),
        (None, "zh", "zh"),
        (None, "en-GB", "en"),
        (None, "fr-FR", "en"),  # a language we do not have
        ("xx", None, "en"),
        (None, None, "en"),
    ],
)
def test_pick_language(query, locale, expected):
    assert pick_language(query, locale) == expected


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lang_query_parameter_selects_the_language_and_stays_in_the_url(lang):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    assert at.session_state["lang"] == lang
    assert at.query_params["lang"] == lang
    expected = {"en": "Embedding Explorer", "zh": "嵌入探索器 Embedding Explorer"}[lang]
    assert at.title[0].value == expected


@pytest.mark.slow
@pytest.mark.parametrize("spec", available_pages(), ids=lambda spec: spec.url_path or "home")
def test_every_page_runs_in_chinese(spec):
    """Every page, in Chinese, without exception (English is covered by each page's own tests)."""
    path = "app.py" if not spec.url_path else spec.file  # home only runs inside the navigation
    at = app_test(path, state={"lang": "zh"}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert at.title, "every page has a title"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in at.title[0].value), at.title[0].value
    assert not untranslated(at), untranslated(at)


@pytest.mark.parametrize("path", DRAWING_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_file_that_draws_hard_codes_a_shown_string(path):
    """Labels, text and help come from the catalogue: t("key"), never a literal with words."""
    assert not hard_coded(path.read_text(encoding="utf-8")), hard_coded(path.read_text())


def test_the_hard_coded_string_check_catches_what_it_should():
    source = (
        'st.header("Attention")\n'  # a literal heading
        'col.selectbox(t("x.k"), [1], help="Pick one")\n'  # literal help, in a column
        'st.tabs([t("x.a"), "模型"])\n'  # a literal tab name
        "st.markdown(f\"**{t('x.b')}**\")\n"  # markup around a catalogue text: fine
        'col.metric("q × k", 3)\n'  # a formula symbol: fine
    )
    assert [line for line, _ in hard_coded(source)] == [1, 2, 3]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Layer", True), ("Attention weight", True), ("层 layer", False), ("q × k", False),
     ("[CLS] [SEP]", False), ("%{x}<br>%{customdata}<extra></extra>", False), ("PNG", False),
     ("Loss: {value}", True)],
)  # fmt: skip
def test_untranslated_text_is_recognised(text, expected):
    assert foreign(text) is expected


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "state"),
    [("lessons/attention.py", {"attn.view": "masks", "attn.mode": "pair"}),
     ("lessons/attention.py", {"attn.view": "overview"}),
     ("lessons/embed_tokens.py", {"emb.tokens.map": True}),
     ("lessons/embed_positions.py", {"emb.pos.rope": True}),
     ("lessons/embed_sum.py", {"emb.sum.overview": True})],
    ids=["attention-masks", "attention-overview", "embed-map", "positions-rope", "sum-overview"],
)  # fmt: skip
def test_views_behind_switches_are_translated_too(page, state):
    at = app_test(page, state={"lang": "zh", **state}, timeout=180)
    assert not at.exception, [e.message for e in at.exception]
    assert not untranslated(at), untranslated(at)


@pytest.mark.slow
@pytest.mark.parametrize("algo", ["byte-bpe", "char-bpe", "wordpiece", "unigram", "word"])
def test_a_trained_tokenizer_is_shown_in_chinese(algo):
    """# subtle: AppTest formats a translated selectbox outside the script (in English), so a
    click in Chinese fails; the trained result goes into the session as the button would put it."""
    from explorer_core.inputs.datasets import builtin_corpus
    from explorer_core.tokenization import new_tokenizer

    tokenizer = new_tokenizer(algo)
    trace = tokenizer.train(builtin_corpus("mixed")[:4000], 600)
    result = (tokenizer, trace, algo, "内置语料")
    at = app_test("lessons/tokenizer_train.py", state={"lang": "zh", "tok.train.result": result})
    assert not at.exception, [e.message for e in at.exception]
    assert at.dataframe, "the merge table is shown"
    assert not untranslated(at), untranslated(at)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_streamlits_own_uploader_texts_follow_the_language(lang):
    from tests.links import open_with

    at = open_with("app.py", {"lang": lang})
    styles = [el.proto.body for el in at.get("html") if "stFileUploaderDropzone" in el.proto.body]
    if lang == "en":
        assert not styles  # Streamlit's own English stays
    else:
        assert len(styles) == 1
        assert 'content: "上传"' in styles[0] and 'content: "每个文件不超过 50 MB"' in styles[0]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_streamlits_own_button_names_and_tooltips_follow_the_language(lang):
    """The page script carries the catalogue's words for Streamlit's English (none in English)."""
    import json
    import re

    from tests.links import open_with

    at = open_with("app.py", {"lang": lang})
    scripts = [el.proto.body for el in at.get("html") if "explorerChrome" in el.proto.body]
    assert len(scripts) == 1, "one script, in every language (English restores the originals)"
    words = json.loads(re.search(r"const words = (\{.*?\}), templates", scripts[0]).group(1))
    if lang == "en":
        assert words == {}
    else:
        assert words["Fullscreen"] == "全屏" and words["Download as CSV"] == "下载为 CSV"
        assert words["Skip to main content"] == "跳到主要内容" and len(words) >= 15


def test_the_chrome_words_are_the_ones_streamlit_writes():
    """Each English chrome text (the part before "{label}") is a literal in Streamlit's frontend,
    so a Streamlit upgrade that renames one fails here instead of leaving English on screen."""
    import streamlit

    from explorer_core.ui.i18n import CATALOGUE

    bundle = "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in (Path(streamlit.__file__).parent / "static").rglob("*.js")
    )
    chrome = {k: v for k, v in CATALOGUE["en"].items() if k.startswith("chrome.")}
    assert len(chrome) >= 15
    for key, text in chrome.items():
        head = text.split("{label}")[0]
        forms = [f"`{head}", f'"{head}'] if "{label}" in text else [f"`{text}`", f'"{text}"']
        assert any(form in bundle for form in forms), (key, text)
