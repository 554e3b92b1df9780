"""Downloads of the Similarity and Train pages: the bytes behind each button (clicked in AppTest,
see tests/downloads.py) parse back to the numbers of the core functions."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from explorer_core.files.tables import training_log, training_log_record
from explorer_core.training.loop import EvalRecord, TrainStep
from tests.conftest import app_test
from tests.downloads import buttons, download_bytes, read_projector, recording
from tests.models import GUITAR, small, tiny_shared, wait_for_end

SIM = "lessons/similarity.py"
LINES = [*GUITAR, "今天股市大幅下跌。"]


def read_csv(data: bytes, **kwargs) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(data), encoding="utf-8-sig", **kwargs)


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    from explorer_core.analysis.similarity import TextEncoder
    from explorer_core.bert.model import BertModel
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    tokenizer = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)
    return TextEncoder(BertModel.from_transformers(minilm_dir), tokenizer)


def test_matrix_and_projector_files_hold_minilms_sentence_vectors(minilm):
    from explorer_core.analysis.similarity import cosine_matrix

    with recording():
        at = app_test(SIM, state={"sim.list": "\n".join(LINES)})
    assert not at.exception
    assert {"sim.dl.pair", "sim.dl.matrix", "sim.dl.projector"} <= set(buttons(at))
    pair = json.loads(download_bytes(at, "sim.dl.pair"))
    assert (pair["a"], pair["b"], pair["pooling"]) == (*GUITAR, "mean")
    assert f"{pair['cosine']['minilm']:.3f}" == at.metric[0].value  # the number on the page
    np.testing.assert_allclose(pair["cosine"]["minilm"], minilm.cosine(*GUITAR), atol=1e-6)
    matrix = read_csv(download_bytes(at, "sim.dl.matrix"), index_col="sentence")
    assert matrix.index.tolist() == LINES == matrix.columns.tolist()  # Chinese kept, full text
    expected = minilm.embed(LINES)
    np.testing.assert_allclose(matrix.to_numpy(), cosine_matrix(expected), atol=1e-6)
    vectors, meta = read_projector(download_bytes(at, "sim.dl.projector"))
    assert meta == [["sentence", "model"]] + [[line, "MiniLM (pretrained)"] for line in LINES]
    assert vectors.shape == (3, 384)
    np.testing.assert_allclose(vectors, expected, atol=1e-6)
    np.testing.assert_allclose(vectors @ vectors.T, matrix.to_numpy(), atol=1e-6)  # float32


def test_neighbours_file_is_the_ranking_of_the_chart(minilm):
    with recording():
        state = {"sim.list": "\n".join(LINES), "sim.view": "neighbours", "sim.k": 3,
                 "sim.query": "Someone plays an instrument."}  # fmt: skip
        at = app_test(SIM, state=state)
    assert not at.exception
    table = read_csv(download_bytes(at, "sim.dl.neighbours"))
    assert table["rank"].tolist() == [1, 2, 3] and table["sentence"][0] in GUITAR
    assert table["cosine"].is_monotonic_decreasing
    query = minilm.embed(["Someone plays an instrument."])[0]
    lines = minilm.embed(LINES)
    cosines = lines[table["index"] - 1] @ query  # the core rounds to 4 decimals, as on the chart
    np.testing.assert_allclose(table["cosine"], cosines, atol=5e-5)


def test_pairs_file_holds_every_dev_pair_with_gold_and_predicted():
    from explorer_core.analysis.similarity import TextEncoder, pair_cosines
    from explorer_core.ui.state import SHARED_MODEL
    from explorer_core.ui.training.calls import PARTS_KEY

    shared, parts = tiny_shared()
    state = {SHARED_MODEL: shared, PARTS_KEY: ("built-in", parts), "sim.view": "pairs",
             "sim.model": "trained"}  # fmt: skip
    with recording():
        at = app_test(SIM, state=state)
    assert not at.exception
    frame = read_csv(download_bytes(at, "sim.dl.pairs"))
    dev = parts["dev"]
    assert len(frame) == len(dev) and frame["sentence1"].tolist() == [p.sentence1 for p in dev]
    assert frame["gold"].tolist() == [p.score for p in dev]
    encoder = TextEncoder(shared.model, shared.tokenizer, 24)
    cos = pair_cosines(encoder, [(p.sentence1, p.sentence2) for p in dev])
    np.testing.assert_allclose(frame["cosine"], cos, atol=1e-6)
    np.testing.assert_allclose(frame["predicted"], np.clip(5 * frame["cosine"], 0, 5))


def test_training_log_keeps_every_record_and_nulls():
    records = [TrainStep("pretrain", 1, 0.1, 1e-3, 7.5, mlm_loss=6.8, nsp_loss=0.7),
               TrainStep("finetune", 1, 0.2, 1e-3, 0.2, sim_loss=0.2),
               EvalRecord("finetune", 1, 0.3, dev_spearman=0.41)]  # fmt: skip
    log = training_log(records)
    assert log["loss"]["loss"].tolist() == [7.5, 0.2]
    assert log["loss"]["phase"].tolist() == ["pretrain", "finetune"]
    assert np.isnan(log["loss"]["sim_loss"][0]) and log["loss"]["sim_loss"][1] == 0.2
    assert log["eval"]["dev_spearman"].tolist() == [0.41]
    record = json.loads(json.dumps(training_log_record(records)))
    assert record["loss"][0]["sim_loss"] is None and record["eval"][0]["step"] == 1


@pytest.mark.slow
def test_train_page_offers_the_whole_log_of_its_run():

    with recording():
        at = small(app_test("lessons/train_model.py"), pre=2, fine=4)
        at.button(key="train.start").click().run()
        wait_for_end(at)
    assert not at.exception
    keys = {"train.dl.loss", "train.dl.eval", "train.dl.log", "train.dl.scores", "train.download"}
    assert keys <= set(buttons(at))
    records = at.session_state["train.run"].records()
    steps = [r for r in records if isinstance(r, TrainStep)]
    loss = read_csv(download_bytes(at, "train.dl.loss"))
    assert len(loss) == len(steps) == 6  # 2 pre-training + 4 fine-tuning steps, none thinned
    assert loss["loss"].tolist() == [r.loss for r in steps]
    assert loss["phase"].tolist() == ["pretrain"] * 2 + ["finetune"] * 4
    log = json.loads(download_bytes(at, "train.dl.log"))
    evals = read_csv(download_bytes(at, "train.dl.eval"))
    assert len(log["eval"]) == len(evals) == sum(isinstance(r, EvalRecord) for r in records)
    assert [row["mlm_loss"] for row in log["loss"]] == [r.mlm_loss for r in steps]
    scores = read_csv(download_bytes(at, "train.dl.scores"))
    assert scores["split"].tolist() == ["dev", "test"]  # codes, whatever the UI language
    shown = next(d.value for d in at.dataframe if "pairs" in d.value.columns)  # not the comparison
    np.testing.assert_allclose(scores.iloc[:, 2:].to_numpy(float),
                               shown.iloc[:, 2:].to_numpy(float))  # fmt: skip
