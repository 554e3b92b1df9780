"""Downloads of the Position encodings and Embedding sum pages: the bytes behind each button
(clicked in AppTest, see tests/downloads.py) parse back to the numbers of the core functions."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import torch

from explorer_core.analysis import positions as pa
from explorer_core.bert.positional import sinusoidal_table
from explorer_core.files.tables import grid_frame, series_frame
from tests.conftest import app_test
from tests.downloads import buttons, download_bytes, read_csv, recording

SMALL = {"emb.pos.length": 32, "emb.pos.dim": 16, "emb.pos.trained": 16, "emb.pos.base": 100}


def test_sinusoidal_table_similarity_and_rope_downloads_match_the_formulas():
    with recording():
        at = app_test("lessons/embed_positions.py", state={**SMALL, "emb.pos.rope": True})
    assert not at.exception
    keys = ("table", "similarity", "rotation", "spectrum", "decay")
    assert {f"emb.pos.dl.{k}" for k in keys} <= set(buttons(at))
    table = read_csv(download_bytes(at, "emb.pos.dl.table"), index_col="position")
    assert list(table.columns[:2]) == ["dim_0", "dim_1"] and table.shape == (32, 16)
    np.testing.assert_array_equal(table.to_numpy(), sinusoidal_table(32, 16, 100.0).double())
    sim = read_csv(download_bytes(at, "emb.pos.dl.similarity"), index_col="query")
    np.testing.assert_array_equal(sim.to_numpy(), pa.sinusoidal_similarity(32, 16, 100.0).double())
    pair = at.session_state["emb.pos.pair"]
    rotation = read_csv(download_bytes(at, "emb.pos.dl.rotation"))
    path = pa.rope_pair_path(pair, 16, 100.0, 32)
    np.testing.assert_array_equal(rotation["x"], path["x"].double())
    assert rotation["theta"].nunique() == 1 and rotation["theta"][0] == float(path["theta"])
    spectrum = read_csv(download_bytes(at, "emb.pos.dl.spectrum"))
    np.testing.assert_array_equal(spectrum["wavelength"], pa.rope_spectrum(16, 100.0)["wavelength"])
    decay = read_csv(download_bytes(at, "emb.pos.dl.decay"))
    assert decay["offset"].tolist() == list(range(33)) and decay["score"][0] == 1.0


def test_rotary_table_is_labelled_by_pair():
    with recording():
        at = app_test("lessons/embed_positions.py", state={**SMALL, "emb.pos.scheme": "rotary"})
    table = read_csv(download_bytes(at, "emb.pos.dl.table"), index_col="position")
    assert table.shape == (32, 8) and table.columns[-1] == "pair_7"
    np.testing.assert_allclose(table.to_numpy(), pa.rope_cos_table(32, 16, 100.0), atol=1e-7)


def test_grid_and_series_frames_round_trip():
    matrix = torch.arange(6.0).reshape(2, 3)
    frame = grid_frame(matrix, "query", "key_")
    back = pd.read_csv(io.StringIO(frame.to_csv()), index_col="query")
    np.testing.assert_array_equal(back.to_numpy(), matrix.numpy())
    assert (
        series_frame({"a": torch.tensor([1, 2]), "s": torch.tensor(0.5)})["s"].tolist() == [0.5] * 2
    )


def test_embedding_sum_parts_and_tables_match_the_page():
    state = {"emb.sum.a": "The cat sat.", "emb.sum.b": "It slept.", "emb.sum.pick": 2,
             "emb.sum.dims": 8}  # fmt: skip
    with recording():
        at = app_test("lessons/embed_sum.py", state=state, timeout=120)
    assert not at.exception
    keys = {"emb.sum.dl.table", "emb.sum.dl.parts", "emb.sum.dl.ln", "emb.sum.dl.output"}
    assert keys <= set(buttons(at))
    shown = at.dataframe[0].value
    table = read_csv(download_bytes(at, "emb.sum.dl.table"))
    assert table["id"].tolist() == shown.iloc[:, 2].tolist()
    np.testing.assert_allclose(table.iloc[:, 4:].to_numpy(), shown.iloc[:, 4:].to_numpy(float))
    parts = json.loads(download_bytes(at, "emb.sum.dl.parts"))
    assert parts["ids"] == table["id"].tolist() and parts["segments"] == table["segment"].tolist()
    total = np.array(parts["token"]) + np.array(parts["position"]) + np.array(parts["segment"])
    np.testing.assert_allclose(np.array(parts["sum"]), total, atol=1e-6)  # the sum is the sum
    out = np.array(parts["output"])
    ln = read_csv(download_bytes(at, "emb.sum.dl.ln"))
    np.testing.assert_allclose(ln["x"], np.array(parts["sum"])[2, :8], atol=1e-6)
    np.testing.assert_allclose(ln["output"], out[2, :8], atol=1e-6)
    np.testing.assert_allclose(ln.to_numpy(), at.dataframe[1].value.to_numpy(float), atol=1e-9)
    layer1 = read_csv(download_bytes(at, "emb.sum.dl.output"))
    np.testing.assert_array_equal(layer1.filter(regex=r"^d\d+$").to_numpy(), out)
