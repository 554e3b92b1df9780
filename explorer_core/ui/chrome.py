"""Streamlit's own words on screen, in the UI language.

Streamlit writes some texts itself, in English only, with no setting to change them:
- the file uploader's "Upload" button and its "50MB per file • TXT" line: a style sheet hides the
  drawn text (font size 0) and shows the catalogue's text in its place (::after); the size limit
  is the server's own;
- button names and tooltips ("Fullscreen", "Download as CSV", "Search", "Help for …"), the
  select boxes' "Choose an option" and the "Skip to main content" link: a small script in the
  page puts the catalogue's words (texts/chrome.py) in their place, as Streamlit draws them.
  Screen readers read the translated names too. Switching back to English restores the originals.
"""

from __future__ import annotations

import json

import streamlit as st

from explorer_core.ui.i18n import CATALOGUE, DEFAULT_LANGUAGE, current_language, t

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


# subtle: only exact matches are replaced, in attributes Streamlit sets (aria-label, the plotly
# button names in data-title, placeholder, title) and in tooltips and the skip link, never inside
# the page's own text (markdown, HTML, charts): a token or sentence reading "Search" stays as is.
# The watcher skips what cannot hold Streamlit's words: a chart's SVG (Inside the encoder's dot
# plots add ~2000 nodes per token change, each one searched), and every change while the page is
# in English (nothing to translate once the originals are restored): its searches showed in
# Chromium's profile of every chart change.
CHROME_SCRIPT = """
(() => {
  const words = __WORDS__, templates = __TEMPLATES__;
  const ATTRS = ["aria-label", "data-title", "placeholder", "title"];
  const TEXTS = '[data-testid="stTooltipContent"] p, [data-testid="stSkipToContent"]';
  const OWN = '[data-testid="stMarkdownContainer"], [data-testid="stHtml"], .main-svg';
  const STREAMLITS = '[data-testid="stTooltipIcon"], [data-testid="stHeaderActionElements"], '
    + '[data-testid="stTooltipContent"]';  // Streamlit's own controls inside markdown
  const DRAWN = '.main-svg';  // a chart's own drawing: thousands of nodes, none of Streamlit's
  const app = window.explorerChrome || (window.explorerChrome = {});
  app.words = words;
  app.templates = templates;
  // English: once the originals are back (below), new nodes hold nothing to translate
  app.idle = Object.keys(words).length === 0 && templates.length === 0;
  const say = (text) => {
    if (Object.hasOwn(app.words, text)) return app.words[text];
    for (const [before, after, zhBefore, zhAfter] of app.templates) {
      const fits = text.length > before.length + after.length;
      if (fits && text.startsWith(before) && text.endsWith(after))
        return zhBefore + text.slice(before.length, text.length - after.length) + zhAfter;
    }
    return text;
  };
  // the English original is kept in data-en-*, the text written in data-shown-*: a value that
  // is neither was written by Streamlit since, and is the new original
  const put = (el, name, read, write) => {
    const now = read(), shown = el.getAttribute("data-shown-" + name);
    const english = shown !== null && now === shown ? el.getAttribute("data-en-" + name) : now;
    const wanted = say(english);
    if (wanted === english) {
      el.removeAttribute("data-en-" + name);
      el.removeAttribute("data-shown-" + name);
    } else {
      el.setAttribute("data-en-" + name, english);
      el.setAttribute("data-shown-" + name, wanted);
    }
    if (now !== wanted) write(wanted);
  };
  const mendElement = (el) => {
    if (el.closest(OWN) && !el.closest(STREAMLITS)) return;
    for (const attr of ATTRS) {
      if (el.hasAttribute(attr))
        put(el, attr, () => el.getAttribute(attr), (v) => el.setAttribute(attr, v));
    }
    if (el.matches(TEXTS) && el.childNodes.length === 1 && el.firstChild.nodeType === 3) {
      const node = el.firstChild;
      put(el, "text", () => node.nodeValue, (v) => { node.nodeValue = v; });
    }
  };
  app.mend = (root) => {
    if (root.nodeType !== 1) root = root.parentElement;
    if (!root || root.closest(DRAWN)) return;
    mendElement(root);
    const selector = ATTRS.map((a) => "[" + a + "]").join(",") + "," + TEXTS;
    for (const el of root.querySelectorAll(selector)) mendElement(el);
  };
  if (!app.observer) {
    app.observer = new MutationObserver((records) => {
      if (app.idle) return;
      for (const r of records) {
        if (r.type === "childList") r.addedNodes.forEach((n) => app.mend(n));
        else app.mend(r.target);
      }
    });
    app.observer.observe(document.body, {
      subtree: true, childList: true, characterData: true,
      attributes: true, attributeFilter: ATTRS,
    });
  }
  app.mend(document.body);
})();
"""


def chrome_words(english: dict[str, str], other: dict[str, str]) -> tuple[dict, list]:
    """({English word: word}, [[before, after, other before, other after]]) for the chrome
    keys, from two catalogues; entries with a "{label}" become templates.

    >>> chrome_words({"chrome.a": "Help", "chrome.b": "Help for {label}"},
    ...              {"chrome.a": "说明", "chrome.b": "“{label}”的说明"})
    ({'Help': '说明'}, [['Help for ', '', '“', '”的说明']])
    """
    words, templates = {}, []
    for key, text in english.items():
        if not key.startswith("chrome."):
            continue
        if "{label}" in text:
            templates.append([*text.split("{label}", 1), *other[key].split("{label}", 1)])
        else:
            words[text] = other[key]
    return words, templates


def chrome_script(language: str) -> str:
    """The page script that shows Streamlit's own words in `language` (English: restores them)."""
    english = CATALOGUE[DEFAULT_LANGUAGE]
    words, templates = chrome_words(english, CATALOGUE[language])
    if language == DEFAULT_LANGUAGE:
        words, templates = {}, []
    return CHROME_SCRIPT.replace("__WORDS__", json.dumps(words, ensure_ascii=False)).replace(
        "__TEMPLATES__", json.dumps(templates, ensure_ascii=False)
    )


def translate_streamlit_texts() -> None:
    """Show Streamlit's own English texts in the UI language (in English: as they are)."""
    st.html(f"<script>{chrome_script(current_language())}</script>", unsafe_allow_javascript=True)
    if current_language() == DEFAULT_LANGUAGE:
        return
    limit_mb = st.get_option("server.maxUploadSize")
    st.html(uploader_css(t("app.upload.button"), t("app.upload.limit", mb=limit_mb)))
