"""Every chart and number as a file: the one way pages draw charts and offer downloads.

Charts: `show_chart` draws a plotly figure whose camera button (top right of the chart) saves it as
PNG or SVG, rendered by plotly.js in the browser (no server-side renderer). The sidebar's
"Chart downloads" switch picks the format for every chart. In presentation mode charts get larger
type and more height.

Numbers: `download_*` put a table (CSV), any tensor or record (JSON) or a set of vectors (the
TensorFlow Embedding Projector's TSV pair, zipped) behind a download button. The bytes are built
only when the button is clicked (a callable), so a page pays nothing for buttons nobody presses.
# subtle: such a callable runs later, in a server thread, outside the page script: it must not call
# t() or read st.session_state, and must bind the values it needs now (default arguments or
# functools.partial), not page variables the script reassigns after the button.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import streamlit as st

from explorer_core.ui.i18n import DEFAULT_LANGUAGE, current_language, t

if TYPE_CHECKING:  # subtle: the app's shell imports this module; pandas and plotly load with the
    import pandas as pd  # first page that draws a chart or table, not before the home page
    import plotly.graph_objects as go

IMAGE_FORMATS = ("png", "svg")
FORMAT_KEY = "app.image_format"
PRESENT_KEY = "present"  # set by explorer_core.ui.present
PRESENT_FONT = 20  # px: readable from the back of a lecture hall at 1280x720
PRESENT_GROWTH = 1.25  # charts get this much taller in presentation mode
CHART_LOCALE = "ui"  # the name under which a chart carries its translated button texts
PLOTLY_TOOLTIPS = {  # plotly.js's English tooltip -> catalogue key (what Streamlit's plotly shows)
    "Download plot as a PNG": "export.plotly.png",
    "Download plot": "export.plotly.svg",  # the camera button's text for any other format
    "Zoom": "export.plotly.zoom",
    "Pan": "export.plotly.pan",
    "Zoom in": "export.plotly.zoom_in",
    "Zoom out": "export.plotly.zoom_out",
    "Autoscale": "export.plotly.autoscale",
    "Reset axes": "export.plotly.reset",
    "Double-click to zoom back out": "export.plotly.double_click",
}


def image_format_switch() -> None:
    """The PNG / SVG choice for every chart's download (camera) button."""
    st.session_state.setdefault(FORMAT_KEY, "png")
    st.segmented_control(
        t("export.format"), IMAGE_FORMATS, key=FORMAT_KEY, format_func=str.upper,
        help=t("export.format.help"), required=True,
    )  # fmt: skip


def image_format() -> str:
    value = st.session_state.get(FORMAT_KEY, "png")
    return value if value in IMAGE_FORMATS else "png"


def chart_config(key: str, image: str, texts: dict[str, str] | None = None) -> dict[str, Any]:
    """plotly.js settings: the camera button saves `image` (png/svg) named after the chart key;
    `texts` ({plotly's English tooltip: translation}) relabels the chart's buttons.

    >>> chart_config("attn.chart.head", "svg")["toImageButtonOptions"]
    {'format': 'svg', 'filename': 'attn.chart.head', 'scale': 2}
    """
    from explorer_core.files import export

    config = {
        "displaylogo": False,
        "displayModeBar": True,  # always shown: the download button is there to be found
        "modeBarButtonsToRemove": ["lasso2d", "select2d"],
        "toImageButtonOptions": {"format": image, "filename": export.file_stem(key), "scale": 2},
    }
    if texts:  # a locale shipped with the chart: plotly.js has only English built in
        config["locale"] = CHART_LOCALE
        config["locales"] = {CHART_LOCALE: {"dictionary": texts}}
    return config


def button_texts() -> dict[str, str]:
    """The chart buttons' tooltips in the UI language (empty in English: plotly's own)."""
    if current_language() == DEFAULT_LANGUAGE:
        return {}
    return {english: t(key) for english, key in PLOTLY_TOOLTIPS.items()}


def presented(fig: go.Figure) -> go.Figure:
    """A copy of `fig` with projector-sized type and a taller plot area."""
    import plotly.graph_objects as go

    big = go.Figure(fig)
    height = big.layout.height
    big.update_layout(font=dict(size=PRESENT_FONT), title_font_size=PRESENT_FONT + 4)
    # subtle: Streamlit's chart theme sets tick labels to 12 px whatever the layout font says
    big.update_xaxes(tickfont_size=PRESENT_FONT - 2, title_font_size=PRESENT_FONT)
    big.update_yaxes(tickfont_size=PRESENT_FONT - 2, title_font_size=PRESENT_FONT)
    if height:
        big.update_layout(height=int(height * PRESENT_GROWTH))
    return big


def show_chart(
    fig: go.Figure, key: str, container: Any = None, *,
    on_click: Callable[..., None] | None = None, click_args: tuple = (),
) -> None:  # fmt: skip
    """Draw `fig` (in `container`, e.g. a column; default the page) with PNG/SVG download.

    `on_click(key, *click_args)` makes the chart clickable: it runs before the rerun that a click
    on a point or cell starts, and finds the clicked points in
    `st.session_state[key]["selection"]["points"]` (each with its `x`, `y`, and `z` for a heatmap).
    """
    where = container if container is not None else st
    if st.session_state.get(PRESENT_KEY):
        fig = presented(fig)
    config = chart_config(key, image_format(), button_texts())
    if on_click is None:
        where.plotly_chart(fig, key=key, config=config)
        return
    clicked = functools.partial(on_click, key, *click_args)  # plotly_chart passes no arguments
    where.plotly_chart(fig, key=key, config=config, on_select=clicked, selection_mode="points")


def download(
    label: str,
    data: bytes | str | Callable[[], bytes | str],
    file_name: str,
    mime: str,
    key: str,
    container: Any = None,
    help: str | None = None,  # noqa: A002 - Streamlit's own name
) -> None:
    """A download button that does not rerun the page when clicked."""
    where = container if container is not None else st
    where.download_button(
        label, data, file_name=file_name, mime=mime, key=key, help=help,
        on_click="ignore", icon=":material/download:",
    )  # fmt: skip


def download_csv(
    frame: pd.DataFrame | Callable[[], pd.DataFrame], stem: str, key: str, container: Any = None,
    label: str | None = None, index: bool = False,
) -> None:  # fmt: skip
    """A table as `<stem>.csv` (UTF-8 with BOM, opens right in spreadsheet programs)."""
    from explorer_core.files import export

    build = frame if callable(frame) else (lambda: frame)
    download(
        label or t("export.csv"), lambda: export.frame_csv(build(), index=index),
        f"{export.file_stem(stem)}.csv", "text/csv", key, container,
    )  # fmt: skip


def download_json(
    value: Any, stem: str, key: str, container: Any = None, label: str | None = None
) -> None:
    """Any record, tensor or list as `<stem>.json`; pass a callable to build it on click."""
    from explorer_core.files import export

    build = value if callable(value) else (lambda: value)
    download(
        label or t("export.json"), lambda: export.json_bytes(build()),
        f"{export.file_stem(stem)}.json", "application/json", key, container,
    )  # fmt: skip


def download_projector(
    vectors: Any, metadata: pd.DataFrame | Callable[[], pd.DataFrame], stem: str, key: str,
    container: Any = None,
) -> None:  # fmt: skip
    """Vectors + labels as the Embedding Projector's vectors.tsv and metadata.tsv, in one zip."""
    from explorer_core.files import export

    get_vectors = vectors if callable(vectors) else (lambda: vectors)
    get_meta = metadata if callable(metadata) else (lambda: metadata)
    stem = export.file_stem(stem)
    download(
        t("export.projector"), lambda: export.projector_zip(get_vectors(), get_meta(), stem),
        f"{stem}-projector.zip", "application/zip", key, container, help=t("export.projector.help"),
    )  # fmt: skip
