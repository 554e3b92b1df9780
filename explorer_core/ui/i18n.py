"""The text catalogue: every string a page shows comes from here, in English and Chinese.

Each text module holds two dicts, `EN` and `ZH`, with the same keys (prefixed by page, e.g.
"tok.title"): the shell's in `explorer_core/ui/texts/`, each lesson family's beside its views, in
the family's modules named `texts` or `texts_*` (e.g. `ui/attention/texts_inputs.py`). They are
merged into one catalogue per language at import. A test fails when a key is missing in either
language or defined twice.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from pathlib import Path

import streamlit as st

from explorer_core.ui import texts

LANGUAGES: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANGUAGE = "en"
LANG_KEY = "lang"


def text_modules() -> list[str]:
    """The dotted names of every text module, the shell's and each family's, sorted by name."""
    names = [f"{texts.__name__}.{info.name}" for info in pkgutil.iter_modules(texts.__path__)]
    ui_folder = Path(texts.__file__).parents[1]
    for family in pkgutil.iter_modules([str(ui_folder)]):
        if family.ispkg and family.name != "texts":
            names += [
                f"explorer_core.ui.{family.name}.{info.name}"
                for info in pkgutil.iter_modules([str(ui_folder / family.name)])
                if info.name == "texts" or info.name.startswith("texts_")
            ]
    return sorted(names)


def load_catalogues() -> dict[str, dict[str, str]]:
    """Merge every text module into {language: {key: text}}; duplicate keys are an error."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for name in text_modules():
        module = importlib.import_module(name)
        for lang, table in (("en", module.EN), ("zh", module.ZH)):
            clash = merged[lang].keys() & table.keys()
            if clash:
                raise ValueError(f"{name} redefines keys {sorted(clash)}")
            merged[lang].update(table)
    return merged


CATALOGUE: Mapping[str, Mapping[str, str]] = load_catalogues()


def pick_language(query_value: str | None, browser_locale: str | None) -> str:
    """The language a new session starts in: the URL's `lang=`, else the browser's, else English.

    >>> pick_language("zh", "en-US"), pick_language(None, "zh-CN"), pick_language("xx", None)
    ('zh', 'zh', 'en')
    """
    if query_value in LANGUAGES:
        return query_value
    prefix = (browser_locale or "").split("-")[0].lower()
    return prefix if prefix in LANGUAGES else DEFAULT_LANGUAGE


def language_switch(label_visibility: str = "visible") -> None:
    """The 中文 / English switch, kept in the URL as `?lang=zh|en` so a link reopens in it.

    A new session starts in the language of `?lang=`, else the browser's, else English.
    # subtle: Streamlit's own widget-to-URL binding writes the displayed label ("中文"), not the
    # code, so the URL is synced by hand.
    """
    if LANG_KEY not in st.session_state:
        st.session_state[LANG_KEY] = pick_language(st.query_params.get(LANG_KEY), st.context.locale)
    st.segmented_control(
        t("app.language"),
        list(LANGUAGES),
        format_func=LANGUAGES.get,
        key=LANG_KEY,
        required=True,
        label_visibility=label_visibility,
    )
    if st.query_params.get(LANG_KEY) != current_language():
        st.query_params[LANG_KEY] = current_language()


def current_language() -> str:
    lang = st.session_state.get(LANG_KEY, DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def t(key: str, **values: object) -> str:
    """The text for `key` in the current language, with `{name}` fields filled from `values`."""
    table = CATALOGUE[current_language()]
    if key not in table:
        raise KeyError(f"text key {key!r} is missing from the catalogue")
    text = table[key]
    return text.format(**values) if values else text
