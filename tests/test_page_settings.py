"""The declared settings (explorer_core/ui/settings.py) are what the pages actually bind.

Each page runs in AppTest, in its default view and in the views behind its switches; every
widget it draws with a key must be a declared setting of that page (or of the app), and every
declared setting must be in the session after the run (`init` gave it its default), of its
declared kind. So a widget added to a page without a declaration, or a declaration left behind
by a removed widget, fails here, and the lesson pack (which stores exactly the declared keys)
stays complete.
"""

from __future__ import annotations

import pytest

from explorer_core.files.pack_settings import SHELL_KEYS, fits
from explorer_core.ui import settings
from explorer_core.ui.nav import available_pages
from tests.conftest import app_test

# widgets that hold a setting; buttons, downloads and uploads are actions, never settings
SETTING_WIDGETS = (
    "text_input", "text_area", "number_input", "selectbox", "multiselect", "slider",
    "select_slider", "toggle", "checkbox", "radio", "button_group",
)  # fmt: skip
ANSWER = ".answer."  # Predict-first answers (ui/quiz.py): a learner's guess, not a setting
CLASS = "class."  # class mode's join form and panel (ui/classroom): a person's seat, never a
# setting a link or lesson pack may carry (a pack must not hand out a nickname or a class)

# each page's default view, then the views behind its switches
VIEWS = {
    "lessons/attention.py": [{"attn.mode": "pair"}, {"attn.mode": "batch", "attn.view": "masks"},
                           {"attn.view": "overview", "attn.source": "fresh"}],
    "lessons/encoder.py": [{"enc.view": v, "enc.source": "fresh"}
                           for v in ("mixing", "stack", "contexts", "decoder")]
                          + [{"enc.view": "contexts", "enc.set": "own", "enc.source": "fresh"}],
    "lessons/similarity.py": [{"sim.view": "neighbours"}, {"sim.view": "pairs"}],
    "lessons/embed_tokens.py": [{"emb.tokens.source": "fresh"}],
    "lessons/embed_sum.py": [{"emb.sum.source": "fresh"}],
    "lessons/embed_positions.py": [{"emb.pos.scheme": "relative"}],
    "lessons/bert_inputs.py": [{"inputs.nsp_source": "own"}],
    "lessons/train_model.py": [{"train.edit": True},
                               {"train.tok": "vocab", "train.data": "upload"}],
    "lessons/tokenizer_train.py": [{"tok.train.source": "paste"}],
    "lessons/lesson.py": [{"lesson.step": 8}],
    "lessons/sequence_models.py": [{"seq.view": "steps"}, {"seq.view": "recall"},
                                   {"seq.view": "gradient", "seq.predict": True}],
}  # fmt: skip
CASES = [
    (spec.file, state) for spec in available_pages() for state in [{}, *VIEWS.get(spec.file, [])]
]


def test_every_page_has_a_declaration_table():
    files = {spec.file for spec in available_pages()}
    assert files == set(settings.PAGES), files ^ set(settings.PAGES)


def bound_keys(at) -> set[str]:  # noqa: ANN001 - an AppTest
    keys = {w.key for kind in SETTING_WIDGETS for w in at.get(kind) if getattr(w, "key", None)}
    return {k for k in keys if not k.startswith(("$$", CLASS)) and ANSWER not in k}


@pytest.mark.parametrize(("page", "state"), CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_the_page_binds_exactly_its_declared_settings(page, state):
    # the home page runs inside the app (it links other pages), with the app's sidebar
    at = app_test("app.py" if page == "lessons/home.py" else page, state=state, timeout=180)
    assert not at.exception, [e.message for e in at.exception]
    own = settings.PAGES[page]
    undeclared = bound_keys(at) - set(own) - set(settings.APP) - SHELL_KEYS  # SHELL: the screen
    undeclared -= set(settings.WIDGET_MIRRORS)  # copied into a declared setting (the model box)
    assert not undeclared, f"{page} binds settings it does not declare: {sorted(undeclared)}"
    missing = [key for key in own if key not in at.session_state]
    assert not missing, f"{page} declares settings it never sets: {missing}"
    wrong = {
        k: at.session_state[k] for k, s in own.items() if not fits(at.session_state[k], s.example)
    }
    assert not wrong, f"{page}: values of another kind than declared: {wrong}"


def test_declarations_are_consistent():
    for key, setting in settings.declared().items():
        if setting.choices is not None and setting.text is None:
            assert setting.default in setting.choices, key
        if setting.span is not None:
            low, high = setting.span
            assert low <= setting.default <= high, key
    with pytest.raises(ValueError, match="either"):
        settings.Setting("x.y")
