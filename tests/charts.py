"""Reading plotly charts out of an AppTest: the figures' JSON and their (possibly typed) arrays.

Plotly writes numeric arrays as {"dtype", "bdata" (base64), "shape"} in a chart's JSON and plain
lists otherwise; these helpers give the numbers either way.
"""

from __future__ import annotations

import base64
import json

import numpy as np


def figures(at) -> list[dict]:  # noqa: ANN001 - an AppTest
    """Every plotly chart of the page, as the figure JSON it sent, in page order."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def figure_with_title(at, fragment: str) -> dict:  # noqa: ANN001 - an AppTest
    """The first chart whose title contains `fragment`."""
    for spec in figures(at):
        if fragment in spec["layout"]["title"]["text"]:
            return spec
    raise AssertionError(f"no chart titled with {fragment!r}")


def _decoded(value: dict) -> np.ndarray:
    flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
    shape = value.get("shape")
    return flat.reshape([int(n) for n in str(shape).split(",")]) if shape else flat


def chart_array(value) -> np.ndarray:  # noqa: ANN001 - a list or a typed-array dict
    """A plotly array as numpy: typed {dtype, bdata, shape} decoded, a plain list converted."""
    if isinstance(value, dict) and "bdata" in value:
        return _decoded(value)
    return np.asarray(value)


def plot_array(value) -> list:  # noqa: ANN001 - a list or a typed-array dict
    """A plotly array as (nested) lists: typed arrays decoded, a plain list returned as it is."""
    if isinstance(value, dict) and "bdata" in value:
        return _decoded(value).tolist()
    return value
