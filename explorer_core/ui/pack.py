"""The lesson pack on the home page: download the session's state, upload a pack to restore it.

Building the bytes and reading a pack are in `explorer_core.files.lesson_pack` (no streamlit); this
module collects the session's settings and shared work, and applies a checked pack to the session
inside the uploader's on_change callback. Callbacks run before the page draws its widgets, so
setting widget keys there is allowed; a pack that fails any check changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from explorer_core.files.pack_settings import is_plain, storable_settings
from explorer_core.ui import settings as declared
from explorer_core.ui.export import download
from explorer_core.ui.i18n import t
from explorer_core.ui.state import SHARED_MODEL, SHARED_TOKENIZER, SHARED_TOKENIZER_NAME, URL_SEEDED

UPLOAD_KEY = "home.pack.upload"
DOWNLOAD_KEY = "home.pack.download"
RESULT_KEY = "_pack.result"  # ("ok", summary) or ("error", reason) of the last upload
LAB_KEY = "tok.train.result"  # the Tokenizer Lab's (tokenizer, trace, algo, corpus label)
FILE_NAME = "embedding-explorer-lesson.zip"


def allowed_settings() -> frozenset[str]:
    """The keys a pack stores and restores: the settings the pages declare (ui/settings.py)."""
    return declared.declared_keys()


def page_examples() -> dict[str, Any]:
    """A value of each declared setting's kind ("" for a text): what a pack's value must fit."""
    return declared.examples()


def with_shadows(state: Mapping[str, Any]) -> dict[str, Any]:
    """`state` plus the last value of each hand-synced URL control that is not in it.

    # subtle: Streamlit forgets the value of a url_synced widget once a run does not draw it
    # (e.g. on the home page, where the pack is downloaded); state.url_synced keeps a shadow
    # copy under URL_SEEDED + key, which is the value the page will show again.

    >>> with_shadows({"_url_seeded.attn.view": "masks", "_url_seeded.lang": "zh", "lang": "en"})
    {'_url_seeded.attn.view': 'masks', '_url_seeded.lang': 'zh', 'lang': 'en', 'attn.view': 'masks'}
    """
    out = dict(state)
    for key, value in state.items():
        if isinstance(key, str) and key.startswith(URL_SEEDED):
            out.setdefault(key.removeprefix(URL_SEEDED), value)
    return out


def session_settings(state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The session's storable settings (see explorer_core.files.pack_settings)."""
    state = st.session_state.to_dict() if state is None else state
    return storable_settings(with_shadows(state), allowed=allowed_settings())


def _bundle(state: Mapping[str, Any]):  # noqa: ANN202 - a lesson_pack.TokenizerBundle or None
    from explorer_core.files.lesson_pack import LabResult, TokenizerBundle

    tokenizer = state.get(SHARED_TOKENIZER)
    if tokenizer is None:
        return None
    lab = None
    result = state.get(LAB_KEY)
    if result is not None and result[0] is tokenizer:  # the Lab's result is the shared tokenizer
        _, trace, algo, label = result
        lab = LabResult(tuple(trace), str(algo), str(label))
    name = str(state.get(SHARED_TOKENIZER_NAME) or tokenizer.algo)
    return TokenizerBundle(tokenizer, name, lab)


def _checkpoint(state: Mapping[str, Any]):  # noqa: ANN202 - a checkpoint.Checkpoint or None
    """The shared model as a Checkpoint; any object with the contract (ui/state.py) will do."""
    shared = state.get(SHARED_MODEL)
    if shared is None:
        return None
    from explorer_core.training.checkpoint import Checkpoint

    ckpt = getattr(shared, "checkpoint", None)
    if isinstance(ckpt, Checkpoint):
        return ckpt
    try:
        return Checkpoint(model=shared.model, tokenizer=shared.tokenizer, label=str(shared.label))
    except (AttributeError, ValueError):
        return None


def pack_from_state(state: Mapping[str, Any]) -> bytes:
    """A lesson pack of the session values in `state` (settings, shared tokenizer and model)."""
    from explorer_core.files.lesson_pack import write_pack

    settings = with_shadows(state)
    return write_pack(settings, _bundle(state), _checkpoint(state), allowed=allowed_settings())


def pack_builder() -> Callable[[], bytes]:
    """A function that builds this session's pack when the download button is clicked.

    # subtle: Streamlit calls a download button's data function outside the script run, where
    # st.session_state reads as empty; the session's values are taken now, the bytes built then.
    """
    state = st.session_state.to_dict()
    return lambda: pack_from_state(state)


def apply_pack(pack: Any) -> dict[str, Any]:
    """Put a checked `LessonPack` into the session; returns what was restored (for the message).

    Settings replace the session's values; the pack's tokenizer and model replace the shared
    ones. Parts the pack does not hold stay as they are.
    """
    restored = 0
    for key, value in pack.settings.items():
        if key in st.session_state and not is_plain(st.session_state[key]):
            continue  # the session keeps an object there: not a setting after all
        st.session_state[key] = value
        # subtle: a hand-synced URL control (state.url_synced) keeps a shadow copy that init()
        # brings back when Streamlit drops a widget's value; it must not revive the old value
        if URL_SEEDED + key in st.session_state:
            st.session_state[URL_SEEDED + key] = value
        restored += 1
    summary: dict[str, Any] = {"settings": restored, "tokenizer": None, "model": None}
    if pack.tokenizer is not None:
        bundle = pack.tokenizer
        st.session_state[SHARED_TOKENIZER] = bundle.tokenizer
        st.session_state[SHARED_TOKENIZER_NAME] = bundle.name or bundle.tokenizer.algo
        if bundle.lab is not None:
            lab = bundle.lab
            st.session_state[LAB_KEY] = (bundle.tokenizer, list(lab.trace), lab.algo, lab.label)
            k = int(pack.settings.get("tok.train.k", len(lab.trace)))
            st.session_state["tok.train.k"] = min(max(0, k), len(lab.trace))  # on the scrubber
            st.session_state["tok.train.play"] = False
        else:
            st.session_state.pop(LAB_KEY, None)  # it showed another tokenizer
        summary["tokenizer"] = st.session_state[SHARED_TOKENIZER_NAME]
    if pack.model is not None:
        from explorer_core.training.choices import SharedModel

        st.session_state[SHARED_MODEL] = SharedModel(pack.model, "uploaded")
        summary["model"] = pack.model.label or "—"
    return summary


def restore(data: bytes) -> None:
    """Read `data` as a pack and apply it; the outcome goes to RESULT_KEY for the page to show.

    A file that fails any check leaves the session exactly as it was.
    """
    from explorer_core.files.lesson_pack import PackError, read_pack

    examples = page_examples() | {
        k: v for k, v in st.session_state.to_dict().items() if is_plain(v) and v is not None
    }
    try:
        pack = read_pack(data, examples=examples, allowed=allowed_settings())
    except PackError as err:
        st.session_state[RESULT_KEY] = ("error", (f"pack.err.{err.reason}", err.values))
        return
    except Exception as err:  # noqa: BLE001 - a damaged pack: the message says what is wrong
        detail = str(err) if isinstance(err, ValueError) else f"{type(err).__name__}: {err}"
        st.session_state[RESULT_KEY] = ("error", ("pack.err.damaged", {"detail": detail}))
        return
    st.session_state[RESULT_KEY] = ("ok", apply_pack(pack))


def on_upload() -> None:
    """The uploader's on_change callback: restore the uploaded pack (nothing when cleared)."""
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        st.session_state.pop(RESULT_KEY, None)
        return
    restore(file.getvalue())


def _contents() -> str:
    """What a pack downloaded now would hold, in words."""
    parts = [t("pack.has.settings", n=len(session_settings()))]
    if st.session_state.get(SHARED_TOKENIZER) is not None:
        name = (
            st.session_state.get(SHARED_TOKENIZER_NAME) or st.session_state[SHARED_TOKENIZER].algo
        )
        parts.append(t("pack.has.tokenizer", name=name))
    shared = st.session_state.get(SHARED_MODEL)
    if shared is not None:
        parts.append(t("pack.has.model", label=getattr(shared, "label", "")))
    return t("pack.contents", parts=t("pack.sep").join(parts))


def _show_result() -> None:
    outcome = st.session_state.get(RESULT_KEY)
    if outcome is None:
        return
    kind, detail = outcome
    if kind == "error":
        key, values = detail
        st.error(t("pack.bad", reason=t(key, **values)), icon=":material/error:")
        return
    parts = [t("pack.has.settings", n=detail["settings"])]
    if detail["tokenizer"]:
        parts.append(t("pack.has.tokenizer", name=detail["tokenizer"]))
    if detail["model"]:
        parts.append(t("pack.has.model", label=detail["model"]))
    st.success(t("pack.ok", parts=t("pack.sep").join(parts)), icon=":material/check_circle:")


def pack_section() -> None:
    """The home page's "Lesson pack" box: what it is for, download, upload with its outcome."""
    with st.container(border=True):
        st.subheader(t("pack.title"))
        st.markdown(t("pack.intro"))
        left, right = st.columns(2)
        with left:
            st.markdown(_contents())
            download(
                t("pack.download"), pack_builder(), FILE_NAME, "application/zip", DOWNLOAD_KEY,
                help=t("pack.download.help"),
            )  # fmt: skip
        with right:
            st.file_uploader(
                t("pack.upload"), type=["zip"], key=UPLOAD_KEY, on_change=on_upload,
                help=t("pack.upload.help"),
            )  # fmt: skip
            _show_result()
