"""AppTest of the home page's lesson pack: build a pack from one session, upload it into another.

The pack's bytes come from `ui.pack.pack_from_state` over the first session's state: the
download button builds them from the same function on click, and AppTest cannot click a
download button. The upload goes through the real uploader (`file_uploader(...).upload`), so
its on_change callback restores the pack exactly as in a browser.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest
import torch
from streamlit.testing.v1 import AppTest

from explorer_core.bert.model import BertModel
from explorer_core.files.export import zip_bytes
from explorer_core.files.lesson_pack import write_pack
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import new_tokenizer
from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.choices import SharedModel
from explorer_core.training.presets import Preset
from explorer_core.ui import pack as ui
from explorer_core.ui.state import SHARED_MODEL, SHARED_TOKENIZER, SHARED_TOKENIZER_NAME
from tests.conftest import ROOT

TEXTS = ["The cat sat on the mat.", "猫坐在垫子上。", "emoji 🙂 ok"]
TINY = Preset(name="t", hidden_size=32, num_hidden_layers=1, num_attention_heads=4,
              intermediate_size=37, max_position_embeddings=32)  # fmt: skip


def open_app(state: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    return at.run()


def upload(at: AppTest, data: bytes, name: str = "lesson.zip") -> AppTest:
    return at.file_uploader(key=ui.UPLOAD_KEY).upload(name, data, "application/zip").run()


@pytest.fixture(scope="module")
def teacher() -> tuple[dict, bytes]:
    """The teacher's session after training a character BPE in the Lab; its state and pack."""
    at = open_app()
    at.switch_page("lessons/tokenizer_train.py").run()
    for key, value in {
        "algo": "char-bpe",
        "vocab": 450,
        "lang": "en",
        "probe": "猫 and cat",
    }.items():
        at.session_state[f"tok.train.{key}"] = value
    at.button(key="tok.train.go").click().run()
    assert not at.exception and at.success
    at.switch_page("lessons/attention.py").run()
    at.session_state["attn.view"] = "masks"  # a hand-synced control on another page
    at.run()
    at.switch_page("lessons/home.py").run()
    state = at.session_state.to_dict()
    return state, ui.pack_from_state(state)


def test_home_offers_the_pack_in_both_languages():
    for lang, title in (("en", "Lesson pack"), ("zh", "课程包")):
        at = open_app({"lang": lang})
        assert not at.exception
        assert title in [h.value for h in at.subheader]
        assert [b.key for b in at.get("download_button")] == [ui.DOWNLOAD_KEY]
        assert at.file_uploader(key=ui.UPLOAD_KEY).allowed_type == [".zip"]


def test_the_pack_holds_the_settings_of_pages_the_teacher_left(teacher):
    state, data = teacher
    pack = ui_read(data)
    assert pack.settings["tok.train.algo"] == "char-bpe"  # from the url_synced shadow
    assert pack.settings["attn.view"] == "masks"
    assert pack.settings["tok.train.probe"] == "猫 and cat"
    assert not {ui.UPLOAD_KEY, ui.DOWNLOAD_KEY, "tok.train.go"} & set(pack.settings)
    assert pack.tokenizer.tokenizer.algo == "char-bpe" and pack.tokenizer.lab is not None
    assert ui.pack_from_state(state) == data  # the same session, the same file


def ui_read(data: bytes):
    from explorer_core.files.lesson_pack import read_pack

    return read_pack(data)


def test_a_student_session_restores_the_state_and_the_lab_shows_it(teacher):
    state, data = teacher
    at = open_app()
    at.switch_page("lessons/tokenizer_train.py").run()  # the student saw the Lab's defaults first
    assert at.session_state["tok.train.algo"] == "byte-bpe"
    at.switch_page("lessons/home.py").run()
    upload(at, data)
    assert not at.exception and not at.error
    (message,) = at.success
    assert "Character BPE, 450 tokens" in message.value and "settings" in message.value
    lab_tokenizer = state[SHARED_TOKENIZER]
    restored = at.session_state[SHARED_TOKENIZER]
    assert restored is not lab_tokenizer
    assert [restored.encode(t) for t in TEXTS] == [lab_tokenizer.encode(t) for t in TEXTS]
    assert at.session_state[SHARED_TOKENIZER_NAME] == state[SHARED_TOKENIZER_NAME]

    at.switch_page("lessons/tokenizer_train.py").run()
    assert not at.exception
    assert at.selectbox(key="tok.train.algo").value == "char-bpe"  # not the old shadow
    assert at.session_state["tok.train.probe"] == "猫 and cat"
    assert "Trained Character BPE" in at.success[0].value
    scrubber = at.slider(key="tok.train.k")  # the merge scrubber, replayed without training
    assert scrubber.max == len(lab_tokenizer.merges)
    scrubber.set_value(5).run()
    assert not at.exception and at.session_state["tok.train.k"] == 5
    at.switch_page("lessons/attention.py").run()
    assert at.session_state["attn.view"] == "masks"


def test_a_bad_file_changes_nothing_and_says_why(teacher):
    _, data = teacher
    tokenizer = new_tokenizer("word")
    tokenizer.train("the cat sat on the mat", 20)
    before = {SHARED_TOKENIZER: tokenizer, SHARED_TOKENIZER_NAME: "mine", "attn.layer": 2}
    at = open_app(before)
    upload(at, b"not a zip at all", "notes.zip")
    assert not at.exception and not at.success
    assert "nothing was changed" in at.error[0].value and "not a zip" in at.error[0].value
    assert at.session_state[SHARED_TOKENIZER] is tokenizer
    assert at.session_state[SHARED_TOKENIZER_NAME] == "mine"
    assert at.session_state["attn.layer"] == 2

    files = members(write_pack({"attn.layer": 3}, None))
    manifest = json.loads(files["manifest.json"])
    files["manifest.json"] = json.dumps({**manifest, "version": 9}).encode()
    upload(at, zip_bytes(files), "from-the-future.zip")
    assert "newer version of the app" in at.error[0].value and "format 9" in at.error[0].value
    assert at.session_state["attn.layer"] == 2

    at = open_app({**before, "lang": "zh"})
    upload(at, data[: len(data) // 2], "cut.zip")  # a download cut off halfway
    assert "没有做任何改动" in at.error[0].value and not at.success
    assert at.session_state["attn.layer"] == 2 and at.session_state[SHARED_TOKENIZER] is tokenizer


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


@pytest.mark.slow
def test_a_pack_with_a_model_restores_it_for_the_other_pages():
    tokenizer = new_tokenizer("byte-bpe")
    tokenizer.train(builtin_corpus("mixed")[:3000], 300)
    vocab = BertVocab.of(tokenizer)
    model = BertModel(TINY.config(vocab.size, vocab.pad_id), seed=1)
    ckpt = Checkpoint(model, tokenizer, "mean", "Tiny, 3 steps", max_length=32)
    data = write_pack({"sim.a": "一只猫"}, None, ckpt)
    at = open_app()
    upload(at, data)
    assert not at.exception and "Tiny, 3 steps" in at.success[0].value
    shared = at.session_state[SHARED_MODEL]
    assert isinstance(shared, SharedModel) and shared.source == "uploaded"
    assert torch.allclose(shared.checkpoint.embed(TEXTS), ckpt.embed(TEXTS), atol=1e-6)
    assert at.session_state["sim.a"] == "一只猫"
    at.switch_page("lessons/similarity.py").run()
    assert not at.exception


def _builder_script() -> None:
    import streamlit as st

    from explorer_core.ui import pack

    st.session_state.setdefault("attn.layer", 3)
    st.session_state["_test.build"] = pack.pack_builder()


def test_the_download_builds_the_pack_outside_the_script_run():
    """Streamlit calls the download's data function after the run, where st.session_state reads
    as empty: the builder must carry the session's values itself."""
    from explorer_core.files.lesson_pack import read_pack

    at = AppTest.from_function(_builder_script, default_timeout=60).run()
    assert not at.exception
    data = at.session_state["_test.build"]()  # called here, outside any script run
    assert read_pack(data).settings == {"attn.layer": 3}
