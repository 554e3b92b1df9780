"""Session-state keys shared between pages, and the one way pages initialise their own.

Keys are prefixed by page ("tok.algo", "attn.layer"); keys under "shared." carry work from one page
to another (the tokenizer trained in the Tokenizer Lab, the model trained on the Train page).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

SHARED_TOKENIZER = "shared.tokenizer"  # the tokenizer trained in the Tokenizer Lab, or absent
SHARED_TOKENIZER_NAME = "shared.tokenizer_name"  # a short label for it ("byte-bpe, 1000 tokens")
SHARED_MODEL = "shared.model"  # the model trained on the Train page, or absent


def ensure_shell() -> None:
    """Make sure the page runs inside app.py's navigation, even on a fresh server's first request.

    # subtle: Streamlit starts in its legacy "pages directory" mode when a `pages/` folder exists,
    # and stays there until some run calls st.navigation. A first request for a direct link such as
    # /attention would run pages/attention.py alone: no shell, no language switch, no runtime
    # settings. Leaving that mode and rerunning sends the request through app.py instead.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def init(defaults: Mapping[str, Any]) -> None:
    """Give each key its default unless the session already holds a value for it.

    Every page calls this first, so each page also runs on its own (direct links, AppTest).
    """
    ensure_shell()
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)


# Contract of st.session_state[SHARED_MODEL] (set by the Train page when a model exists): an object
# with attributes `model` (an explorer_core.model.BertModel in eval mode, the encoder), `tokenizer`
# (an explorer_core Tokenizer whose ids index that model's vocabulary) and `label` (a short string
# for captions, e.g. "trained in this session: Tiny, 240 steps"). Pages must work when it is absent.
# The Train page stores an explorer_core.train_setup.SharedModel, which also has `snapshots`: a
# tuple of training_run.ModelSnapshot (phase, step, `.model()` -> BertModel); the first (step 0)
# is the model before training, the last ("final") the trained one, for before/after views. Use
# getattr(shared, "snapshots", ()) since other code may set a plain object.
