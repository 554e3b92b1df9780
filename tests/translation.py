"""Finding text a page shows that is not translated: the static and the running check.

`hard_coded(source)` reads a page's code: a string literal with words in it, passed as the label,
body or help of a Streamlit element, bypassed the catalogue. `untranslated(at)` reads what a page
run in Chinese actually shows (titles, text, labels, help, table headers, chart titles, axes,
legends): text with no Chinese in it must be made of symbols, numbers and the names below.
"""

from __future__ import annotations

import ast
import json
import re

# Streamlit calls whose first argument (or label/help/... keyword) is shown to the learner.
SHOWN = frozenset(
    "title header subheader markdown caption text write info warning error success toast button "
    "toggle checkbox radio selectbox multiselect slider select_slider text_input text_area "
    "number_input file_uploader download_button metric expander tabs page_link popover "
    "segmented_control pills status spinner form_submit_button link_button".split()
)
SHOWN_KEYWORDS = frozenset({"label", "help", "placeholder", "body", "caption"})
WORDY = re.compile(r"[A-Za-z]{2,}|[\u3400-\u9fff]")
# Names that stay as they are in Chinese text: special tokens, model and file-format names.
KEEP = frozenset(
    "CLS SEP PAD MASK UNK BERT MiniLM PNG SVG CSV JSON TSV NSP MLM RoPE APE RPE BPE PCA "
    "WordPiece Unigram extra".split()
)
CJK = re.compile(r"[\u3400-\u9fff]")
MARKUP = re.compile(r"<[^>]*>|%\{[^}]*\}|\{[^}]*\}")


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # the constant parts of an f-string
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    return None


def hard_coded(source: str) -> list[tuple[int, str]]:
    """(line, text) of every worded string literal shown by a Streamlit call in `source`.

    >>> hard_coded('st.title(t("x.title"))\\nst.button("Go")\\ncol.metric("q", 1)')
    [(2, 'Go')]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in SHOWN:
            continue
        shown = node.args[:1] + [k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS]
        listed = node.args[0] if node.args else None
        if node.func.attr == "tabs" and isinstance(listed, ast.List | ast.Tuple):
            shown += list(listed.elts)
        for arg in shown:
            text = _literal(arg)
            if text and WORDY.search(text):
                found.append((node.lineno, text))
    return sorted(found)


def foreign(text: str) -> bool:
    """Whether `text`, shown in the Chinese UI, is untranslated English.

    >>> foreign("位置编码（positional encoding）"), foreign("[MASK]"), foreign("Layer 3")
    (False, False, True)
    """
    if CJK.search(text):
        return False
    words = re.findall(r"[A-Za-z]{3,}", MARKUP.sub(" ", text))
    return any(word not in KEEP for word in words)


def shown_texts(at) -> list[tuple[str, str]]:  # noqa: ANN001 - an AppTest
    """(where, text) for the learner-facing text of a page run (not the learner's own input)."""
    out: list[tuple[str, str]] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning",
                 "error", "success"):  # fmt: skip
        out += [(kind, el.value) for el in at.get(kind)]
    out += [("metric", el.label) for el in at.get("metric")]
    for kind in ("text_input", "text_area", "number_input", "selectbox", "slider",
                 "select_slider", "toggle", "radio", "button_group", "button", "checkbox",
                 "multiselect"):  # fmt: skip
        for el in at.get(kind):
            out += [(f"{kind} label", el.label), (f"{kind} help", getattr(el, "help", "") or "")]
    for frame in at.dataframe:
        out += [("table header", str(col)) for col in frame.value.columns]
    for el in at.get("plotly_chart"):
        spec = json.loads(el.proto.spec)
        layout = spec["layout"]
        out.append(("chart title", layout.get("title", {}).get("text", "")))
        for name, axis in layout.items():
            if name.startswith(("xaxis", "yaxis")) and isinstance(axis.get("title"), dict):
                out.append((f"chart {name}", axis["title"].get("text", "")))
        for trace in spec["data"]:
            out.append(("legend", trace.get("name") or ""))
            out.append(("hover", trace.get("hovertemplate") or ""))
    return [(where, text) for where, text in out if isinstance(text, str) and text]


def untranslated(at) -> list[tuple[str, str]]:  # noqa: ANN001 - an AppTest
    return [(where, text) for where, text in shown_texts(at) if foreign(text)]
