"""Files for download: CSV, JSON, Embedding Projector TSV, zips, and the chart download settings."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pandas as pd
import pytest
import torch

from explorer_core.files import export
from explorer_core.ui.export import chart_config, presented
from explorer_core.viz.common import heatmap


def test_csv_reads_back_with_chinese_and_a_byte_order_mark():
    frame = pd.DataFrame({"token": ["猫", "the", "a,b", 'say "hi"'], "id": [7, 1996, 3, 4]})
    data = export.frame_csv(frame)
    assert data.startswith(b"\xef\xbb\xbf")  # spreadsheet programs need it to read UTF-8
    back = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig")
    pd.testing.assert_frame_equal(back, frame)


def test_json_turns_tensors_arrays_and_numpy_scalars_into_plain_values():
    weights = torch.softmax(torch.randn(2, 3, 3, generator=torch.Generator().manual_seed(0)), -1)
    value = {"tokens": ["[CLS]", "猫"], "w": weights, "n": np.int64(3), "x": np.float32(0.5)}
    back = json.loads(export.json_bytes(value).decode("utf-8"))
    assert back["tokens"] == ["[CLS]", "猫"] and back["n"] == 3 and back["x"] == 0.5
    assert np.array_equal(np.asarray(back["w"], dtype=np.float32), weights.numpy())
    assert "猫" in export.json_bytes(value).decode("utf-8")  # not \\u escaped


def test_projector_files_follow_the_projector_format():
    vectors = np.array([[0.1, -2.5, 3.0], [1e-8, 0.0, 7.25]])
    one = pd.DataFrame({"token": ["the", "猫"]})
    vec_tsv, meta_tsv = export.projector_tsv(vectors, one)
    rows = [line.split("\t") for line in vec_tsv.decode().splitlines()]
    assert np.array_equal(np.array(rows, dtype=np.float64), vectors)  # exact: repr round-trips
    assert meta_tsv.decode().splitlines() == ["the", "猫"]  # one column: no header row
    two = pd.DataFrame({"token": ["a\tb", "c\nd"], "id": [1, 2]})
    _, meta_tsv = export.projector_tsv(vectors, two)
    assert meta_tsv.decode().splitlines() == ["token\tid", "a\\tb\t1", "c\\nd\t2"]


@pytest.mark.parametrize(
    ("vectors", "rows", "message"),
    [(np.zeros(3), 3, "2-D"), (np.zeros((2, 3)), 3, "2 vectors but 3 metadata rows")],
)
def test_projector_refuses_mismatched_input(vectors, rows, message):
    with pytest.raises(ValueError, match=message):
        export.projector_tsv(vectors, pd.DataFrame({"token": ["x"] * rows}))


def test_zip_is_deterministic_and_holds_the_files():
    files = {"b.txt": "二", "a.bin": b"\x00\x01"}
    first, second = export.zip_bytes(files), export.zip_bytes(dict(reversed(files.items())))
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        assert archive.namelist() == ["a.bin", "b.txt"]
        assert archive.read("b.txt").decode() == "二"


def test_projector_zip_names_its_two_files_after_the_stem():
    data = export.projector_zip(np.eye(2), pd.DataFrame({"token": ["x", "y"]}), "minilm")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist() == ["minilm-metadata.tsv", "minilm-vectors.tsv"]


@pytest.mark.parametrize(
    ("parts", "stem"),
    [(("attention", "layer 3", "head 2"), "attention-layer-3-head-2"), (("a/../b",), "a-..-b"),
     (("嵌入", "MiniLM"), "嵌入-MiniLM"), (("",), "export"), (("  ",), "export")],
)  # fmt: skip
def test_file_stems_are_safe(parts, stem):
    assert export.file_stem(*parts) == stem
    assert "/" not in stem


def test_labelled_matrix_keeps_repeated_tokens_apart():
    frame = export.labelled_matrix(np.eye(2), ["the", "the"], ["the", "cat"])
    assert list(frame.index) == ["0:the", "1:the"] and list(frame.columns) == ["0:the", "1:cat"]
    with pytest.raises(ValueError, match="does not match"):
        export.labelled_matrix(np.eye(2), ["a"], ["b", "c"])


def test_chart_config_downloads_in_the_chosen_format_at_double_scale():
    config = chart_config("attn.chart.head", "svg")
    assert config["toImageButtonOptions"] == {
        "format": "svg", "filename": "attn.chart.head", "scale": 2,
    }  # fmt: skip
    assert config["displayModeBar"] is True and config["displaylogo"] is False


def test_presented_charts_are_larger_and_leave_the_original_alone():
    fig = heatmap(np.eye(3), title="t", x_title="x", y_title="y", value_title="v", height=400)
    big = presented(fig)
    assert big.layout.font.size == 20 and big.layout.height == 500
    assert big.layout.xaxis.tickfont.size == 18 and big.layout.yaxis.title.font.size == 20
    assert fig.layout.font.size == 14 and fig.layout.height == 400
