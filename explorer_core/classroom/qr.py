"""The join link a teacher shows on the projector, and its QR code as SVG, drawn in memory by
`segno` (pure Python, no network): dark modules on white with the standard 4-module quiet zone,
so phone cameras find it even on a dim projector.
"""

from __future__ import annotations

import io
from urllib.parse import quote, urlencode

import segno

from explorer_core.classroom.records import normalise_code

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks


def join_link(base_url: str, code: str, *, page: str = "class", param: str = "code") -> str:
    """The address a student opens to join: the app's base URL, the class page, the code.

    >>> join_link("http://192.168.1.20:8501/", "abc23")
    'http://192.168.1.20:8501/class?code=ABC23'
    >>> join_link("https://school.example/explorer", "ABC23", page="", param="class")
    'https://school.example/explorer/?class=ABC23'
    """
    base = str(base_url).rstrip("/")
    return f"{base}/{quote(page)}?{urlencode({param: normalise_code(code)})}"


def qr_svg(text: str, *, scale: int = 10) -> str:
    """`text` as a QR code in an SVG document (`scale` pixels per module), ready for st.html.

    >>> svg = qr_svg("http://192.168.1.20:8501/class?code=ABC23", scale=4)
    >>> svg.startswith("<svg") and 'stroke="#000"' in svg and 'fill="#fff"' in svg
    True
    """
    if scale < 1:
        raise ValueError(f"A QR code needs at least 1 pixel per module, got scale={scale}.")
    code = segno.make(str(text), error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out, kind="svg", scale=scale, border=QUIET_ZONE, dark="#000", light="#fff",
        xmldecl=False, svgns=True, title="Join link",
    )  # fmt: skip
    return out.getvalue().decode("utf-8")


def qr_png(text: str, *, scale: int = 10) -> bytes:
    """`text` as a QR code in a PNG image (`scale` pixels per module), for st.image.

    # subtle: st.html sanitises its markup and drops an inline <svg>; an image always shows.

    >>> qr_png("http://192.168.1.20:8501/?class=ABC23", scale=2)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    if scale < 1:
        raise ValueError(f"A QR code needs at least 1 pixel per module, got scale={scale}.")
    out = io.BytesIO()
    segno.make(str(text), error="m", micro=False).save(
        out, kind="png", scale=scale, border=QUIET_ZONE, dark="#000", light="#fff"
    )
    return out.getvalue()
