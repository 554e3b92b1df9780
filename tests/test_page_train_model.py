"""AppTest of the Train page: a short run to completion, Stop, bad files, bad zips, bad configs."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from tests.conftest import app_test
from tests.models import small, tiny_shared, wait_for_end

PAGE = "lessons/train_model.py"


def test_defaults_render_without_a_run():
    at = app_test(PAGE)
    assert not at.exception
    assert not at.button(key="train.start").disabled
    assert at.button(key="train.stop").disabled
    assert any("No run yet" in info.value for info in at.info)
    assert any("parameters" in c.value and "MB" in c.value for c in at.caption)


def test_short_run_finishes_publishes_and_feeds_the_similarity_page():
    from explorer_core.training.choices import SharedModel
    from explorer_core.ui.state import SHARED_MODEL
    from explorer_core.ui.training.calls import PARTS_KEY

    at = small(app_test(PAGE))
    at.button(key="train.start").click().run()
    assert not at.exception
    wait_for_end(at)
    assert not at.exception
    shared = at.session_state[SHARED_MODEL]
    assert isinstance(shared, SharedModel) and shared.source == "trained"
    assert "2 pre-training + 4 fine-tuning steps" in shared.label
    assert shared.snapshots[0].step == 0 and shared.snapshots[-1].phase == "final"
    assert at.get("progress")[0].proto.value == 100
    assert not at.button(key="train.start").disabled and at.button(key="train.stop").disabled
    # curves: MLM, NSP and similarity losses, dev Spearman with the lexical baseline
    specs = {json.loads(c.proto.spec)["layout"]["title"]["text"]: json.loads(c.proto.spec)
             for c in at.get("plotly_chart")}  # fmt: skip
    loss = specs["Training loss (log scale)"]
    assert [trace["name"] for trace in loss["data"]] == ["MLM loss", "NSP loss", "similarity loss"]
    assert loss["layout"]["xaxis"]["title"]["text"] and loss["layout"]["yaxis"]["title"]["text"]
    evals = specs["Dev Spearman at each evaluation"]
    assert [trace["name"] for trace in evals["data"]] == ["this model", "lexical baseline (TF-IDF)"]
    # a poll with no new records rebuilds no figure (the session's memo is drawn again)
    memo = at.session_state["train.figures"]
    assert memo["count"] == len(at.session_state["train.run"].records())
    at.run()
    curves = [c for c in at.get("plotly_chart") if c.key != "cmp.chart"]  # not the comparison
    assert at.session_state["train.figures"] is memo and len(curves) == 2
    # final dev/test Spearman next to the baseline on the same split
    table = next(d.value for d in at.dataframe if "pairs" in d.value.columns)  # not the comparison
    assert list(table.iloc[:, 0]) == ["dev", "test"]
    assert table.iloc[:, 2].between(-1, 1).all() and table.iloc[:, 3].between(-1, 1).all()
    # the Similarity page uses the result
    sim = app_test(
        "lessons/similarity.py",
        state={SHARED_MODEL: shared, PARTS_KEY: at.session_state[PARTS_KEY]},
    )
    assert not sim.exception
    assert "cosine: your model" in [m.label for m in sim.metric]


def test_pre_training_only_keeps_the_mlm_head_and_the_encoder_page_reads_it():
    """The logit lens needs a head that still fits the encoder: a model pre-trained and not
    fine-tuned after has one; a fine-tuned one says why it has none."""
    from explorer_core.ui.state import SHARED_MODEL

    at = small(app_test(PAGE), pre=3, objective="pretrain")
    assert not any(n.key == "train.fine_steps" for n in at.number_input)
    at.button(key="train.start").click().run()
    wait_for_end(at)
    assert not at.exception
    shared = at.session_state[SHARED_MODEL]
    assert "3 pre-training steps" in shared.label and "fine-tuning" not in shared.label
    assert shared.mlm is not None and shared.mlm.bert is shared.model
    lens_view = {"enc.source": "trained", "enc.view": "stack"}
    enc = app_test("lessons/encoder.py", state={**lens_view, SHARED_MODEL: shared})
    assert not enc.exception, [e.message for e in enc.exception]
    (lens,) = enc.dataframe
    assert len(lens.value) == shared.model.config.num_hidden_layers + 1  # embeddings + layers
    assert not any("logit lens" in i.value for i in enc.info)
    tuned = small(app_test(PAGE))  # pre-trained, then fine-tuned
    tuned.button(key="train.start").click().run()
    wait_for_end(tuned)
    other = tuned.session_state[SHARED_MODEL]
    assert other.mlm is None
    enc = app_test("lessons/encoder.py", state={**lens_view, SHARED_MODEL: other})
    assert any("fine-tuning moved its layers" in i.value for i in enc.info)


def test_stop_keeps_the_model_and_a_second_train_is_refused():
    from explorer_core.ui.state import SHARED_MODEL

    at = small(app_test(PAGE), fine=100_000, objective="finetune")
    at.button(key="train.start").click().run()
    run = at.session_state["train.run"]
    assert run.running
    assert at.button(key="train.start").disabled and not at.button(key="train.stop").disabled
    assert run.start() is False  # the guard behind the disabled button
    at.button(key="train.stop").click().run()
    wait_for_end(at)
    assert run.status().state == "stopped"
    assert at.session_state["train.run"] is run  # no second run was started
    shared = at.session_state[SHARED_MODEL]
    assert "stopped early" in shared.label
    assert any("Stopped after" in p.proto.text for p in at.get("progress"))


def test_uploaded_pairs_are_counted_and_bad_files_explained():
    at = app_test(PAGE)
    at.segmented_control(key="train.data").set_value("upload").run()
    assert any("Upload a file" in info.value for info in at.info)
    good = "sentence1\tsentence2\tscore\na cat\ta kitten\t4\na dog\ta car\t0.5\nbroken row\n"
    good += "x\ty\tseven\n" + "".join(f"s{i}\tt{i}\t{i % 6}\n" for i in range(20))
    at.file_uploader(key="train.data_file").upload("pairs.tsv", good.encode(), "text/plain")
    at.run()
    assert not at.exception
    assert any("22 usable pairs (2 malformed rows skipped)" in c.value for c in at.caption)
    at.file_uploader(key="train.data_file").upload("notes.txt", b"just some prose\nno scores\n")
    at.run()
    assert not at.exception
    assert any("neither supported format" in e.value for e in at.error)
    bad_rows = b"sentence1,sentence2,score\na,b,high\nc,,3\n"
    at.file_uploader(key="train.data_file").upload("bad.csv", bad_rows, "text/csv")
    at.run()
    assert any("no usable sentence pair (2 malformed rows" in e.value for e in at.error)
    assert not at.get("plotly_chart")


def test_vocab_txt_upload_becomes_the_tokenizer():
    at = app_test(PAGE)
    at.segmented_control(key="train.tok").set_value("vocab").run()
    assert any("Upload a vocab.txt" in info.value for info in at.info)
    vocab = "\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "cat", "##s", "dog"])
    at.file_uploader(key="train.vocab_file").upload("vocab.txt", vocab.encode(), "text/plain")
    at.run()
    assert not at.exception and not at.error
    assert any("vocab.txt, 9 ids" in c.value for c in at.caption)
    assert not at.button(key="train.start").disabled
    at.file_uploader(key="train.vocab_file").upload("vocab.txt", b"\xff\xfe\x00bad", "text/plain")
    at.run()
    assert any("vocab.txt cannot be used" in e.value for e in at.error)
    assert not any("/tmp" in e.value for e in at.error)
    assert at.button(key="train.start").disabled


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_bad_zips_keep_the_previous_model_and_a_good_zip_replaces_it():
    from explorer_core.ui.state import SHARED_MODEL
    from explorer_core.ui.training.calls import zip_bytes

    shared, _ = tiny_shared()
    at = app_test(PAGE, state={SHARED_MODEL: shared})
    assert any(shared.label in m.value for m in at.markdown)
    for name, data in (("x.zip", b"not a zip at all"), ("y.zip", _zip({"readme.txt": b"hi"}))):
        at.file_uploader(key="train.zip").upload(name, data, "application/zip")
        at.run()
        assert not at.exception
        assert any("previous model stays" in e.value for e in at.error)
        assert at.session_state[SHARED_MODEL] is shared
    at.file_uploader(key="train.zip").upload("good.zip", zip_bytes(shared), "application/zip")
    at.run()
    assert not at.exception and not at.error
    loaded = at.session_state[SHARED_MODEL]
    assert loaded is not shared and loaded.source == "uploaded"
    assert loaded.label == shared.label
    assert any("Loaded the checkpoint" in s.value for s in at.success)


def test_a_zip_in_the_old_layout_still_uploads(tmp_path):
    """A checkpoint downloaded before the standard layout (our config.json, tokenizer/, hf/)."""
    from explorer_core.training.checkpoint import checkpoint_to_zip
    from explorer_core.ui.state import SHARED_MODEL
    from tests.old_checkpoint import save_version_1

    shared, _ = tiny_shared()
    data = checkpoint_to_zip(save_version_1(shared.checkpoint, tmp_path / "old"))
    at = app_test(PAGE)
    at.file_uploader(key="train.zip").upload("old.zip", data, "application/zip")
    at.run()
    assert not at.exception and not at.error
    loaded = at.session_state[SHARED_MODEL]
    assert loaded.source == "uploaded" and loaded.label == shared.label


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"train.hidden": 32, "train.heads": 3}, "cannot be trained"),
        (
            {
                "train.hidden": 1024,
                "train.layers": 12,
                "train.ffn": 4096,
                "train.batch": 512,
                "train.max_length": 256,
            },
            "MB but only",
        ),  # fmt: skip
    ],
)
def test_invalid_or_too_large_config_is_refused(values, message):
    at = app_test(PAGE)
    at.toggle(key="train.edit").set_value(True).run()
    for key, value in values.items():
        at.number_input(key=key).set_value(value)
    at.run()
    assert not at.exception
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    assert at.button(key="train.start").disabled


def test_tokenizer_from_the_lab_is_used_or_its_absence_explained():
    from explorer_core.tokenization import new_tokenizer
    from explorer_core.ui.state import SHARED_TOKENIZER, SHARED_TOKENIZER_NAME

    at = app_test(PAGE)
    at.segmented_control(key="train.tok").set_value("lab").run()
    assert any("Tokenizer Lab" in w.value for w in at.warning)
    assert at.button(key="train.start").disabled
    tokenizer = new_tokenizer("wordpiece")
    tokenizer.train("a cat sat on the mat\nthe dog ran\n", 60)
    at = app_test(PAGE, state={SHARED_TOKENIZER: tokenizer, SHARED_TOKENIZER_NAME: "my lab one"})
    assert at.segmented_control(key="train.tok").value == "lab"
    assert any("my lab one" in c.value for c in at.caption)
    assert not at.button(key="train.start").disabled


def test_page_reads_in_chinese():
    at = app_test(PAGE, state={"lang": "zh"})
    assert not at.exception
    assert at.title[0].value == "训练一个句向量模型"
    assert at.button(key="train.start").label == "开始训练"


def test_preset_sizes_survive_hiding_the_editor():
    at = app_test(PAGE)
    at.toggle(key="train.edit").set_value(True).run()
    at.selectbox(key="train.preset").set_value("small").run()
    assert at.number_input(key="train.hidden").value == 256
    at.number_input(key="train.layers").set_value(3).run()
    at.toggle(key="train.edit").set_value(False).run()
    at.radio(key="train.objective").set_value("finetune").run()
    at.radio(key="train.objective").set_value("pretrain+finetune").run()
    assert not at.exception
    assert at.session_state["train.hidden"] == 256 and at.session_state["train.layers"] == 3
    assert at.number_input(key="train.pre_steps").value == 100
    assert any("parameters" in c.value for c in at.caption)


@pytest.fixture
def fresh_admission(monkeypatch):
    """The server's admission rebuilt from the environment the test sets, and dropped after."""
    from explorer_core.ui.training import run as training

    def make(**env):
        for name, value in env.items():
            monkeypatch.setenv(name, str(value))
        training.admission.clear()
        return training.admission()

    yield make
    training.admission.clear()


def test_a_run_beyond_the_limit_waits_in_the_queue_and_can_be_cancelled(fresh_admission):
    from explorer_core.training.admission import FakeJob

    gate = fresh_admission(EXPLORER_MAX_RUNS=1)
    other = FakeJob()
    assert gate.submit("another session", other, need=1) == 0  # the one slot is taken
    at = small(app_test(PAGE), fine=100_000, objective="finetune")
    at.button(key="train.start").click().run()
    assert not at.exception
    assert any("number 1 in the queue (1 of 1 runs training)" in p.proto.text
               for p in at.get("progress"))  # fmt: skip
    assert at.session_state["train.run"].status().state == "idle"  # not started
    assert any("estimated once a run like yours" in c.value for c in at.caption)  # none yet
    other.kind, other.so_far, other.left = at.session_state["train.run"].kind, 5.0, 12.4
    at.run()  # the run ahead is of the same kind and says 12.4 s left
    assert any("should start in about 12 s" in c.value for c in at.caption)
    assert at.button(key="train.start").disabled
    assert at.button(key="train.stop").label == "Cancel (leave the queue)"
    assert any("1 training (at most 1 at once), 1 waiting" in c.value for c in at.caption)
    at.button(key="train.stop").click().run()
    assert not at.exception and "train.run" not in at.session_state
    assert gate.counts()[:2] == (1, 0)
    assert any("No run yet" in info.value for info in at.info)
    assert not at.button(key="train.start").disabled
    # asked again, the run moves on by itself when the other one ends
    at.button(key="train.start").click().run()
    run = at.session_state["train.run"]
    other.running = False
    at.run()
    assert run.running and gate.place(at.session_state["train.owner"]) == 0
    assert at.button(key="train.stop").label.startswith("Stop")
    at.button(key="train.stop").click().run()
    wait_for_end(at)
    assert run.status().state == "stopped" and not at.exception


def test_a_run_larger_than_the_servers_budget_is_refused_with_a_message(fresh_admission):
    fresh_admission(EXPLORER_TRAIN_MEMORY_MB=100)
    at = small(app_test(PAGE))
    at.button(key="train.start").click().run()
    assert not at.exception
    assert any("The server cannot take this run" in e.value and "100 MB" in e.value
               for e in at.error), [e.value for e in at.error]  # fmt: skip
    assert "train.run" not in at.session_state


def test_the_queue_view_reads_in_chinese(fresh_admission):
    from explorer_core.training.admission import FakeJob
    from explorer_core.training.worker import TrainingRun
    from tests.translation import untranslated

    gate = fresh_admission(EXPLORER_MAX_RUNS=1)
    gate.submit("another session", FakeJob(), need=1)
    at = small(app_test(PAGE), fine=100_000, objective="finetune")
    at.button(key="train.start").click().run()
    run = at.session_state["train.run"]
    assert isinstance(run, TrainingRun) and run.status().state == "idle"
    state = {"lang": "zh", "train.run": run, "train.owner": at.session_state["train.owner"]}
    zh = app_test(PAGE, state=state)
    assert not zh.exception
    assert any("排在队列第 1 位" in p.proto.text for p in zh.get("progress"))
    assert zh.button(key="train.stop").label == "取消（离开队列）"
    assert not untranslated(zh), untranslated(zh)
