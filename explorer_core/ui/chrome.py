"""Streamlit's own words on screen, in the UI language.

Streamlit writes a few texts itself, in English only: the file uploader's "Upload" button and its
"50MB per file • TXT" line. In another language they are replaced by the catalogue's text.
# subtle: Streamlit offers no setting for them, so a style sheet hides the drawn text (font size 0)
# and shows the catalogue's text in its place (::after). The size limit is the server's own.
"""

from __future__ import annotations

import json

import streamlit as st

from explorer_core.ui.i18n import DEFAULT_LANGUAGE, current_language, t

DROPZONE = '[data-testid="stFileUploaderDropzone"]'
BUTTON_TEXT = (
    f'{DROPZONE} [data-testid="stBaseButton-secondary"] [data-testid="stMarkdownContainer"] p'
)
LIMIT_TEXT = '[data-testid="stFileUploaderDropzoneInstructions"] span'


def uploader_css(button: str, limit: str) -> str:
    """Style that shows `button` and `limit` instead of Streamlit's English uploader texts.

    >>> 'content: "上传"' in uploader_css("上传", "每个文件不超过 50 MB")
    True
    """
    rules = []
    for selector, text, size in ((BUTTON_TEXT, button, "0.875rem"), (LIMIT_TEXT, limit, "0.8rem")):
        rules.append(f"{selector} {{ font-size: 0; }}")
        quoted = json.dumps(text, ensure_ascii=False)  # "..." with \" and \\: a valid CSS string
        rules.append(f"{selector}::after {{ content: {quoted}; font-size: {size}; }}")
    return "<style>\n" + "\n".join(rules) + "\n</style>"


def translate_streamlit_texts() -> None:
    """Replace Streamlit's English uploader texts when the UI language is not English."""
    if current_language() == DEFAULT_LANGUAGE:
        return
    limit_mb = st.get_option("server.maxUploadSize")
    st.html(uploader_css(t("app.upload.button"), t("app.upload.limit", mb=limit_mb)))
