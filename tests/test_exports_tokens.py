"""Downloads of the Text → tokens → ids and Token embeddings pages: the bytes behind each button
(clicked in AppTest, see tests/downloads.py) parse back to the numbers the page computed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from explorer_core.files.export import projector_tsv
from explorer_core.files.tables import projector_metadata, token_table
from explorer_core.tokenization import Token
from tests.conftest import app_test
from tests.downloads import buttons, download_bytes, read_csv, read_projector, recording


@pytest.mark.slow
def test_token_table_ids_and_comparison_downloads_match_the_page(minilm_dir):
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    with recording():
        at = app_test("lessons/tokenizer_encode.py", timeout=180)
    assert not at.exception
    assert {"tok.encode.dl.table", "tok.encode.dl.ids", "tok.encode.dl.compare"} <= set(buttons(at))
    text = at.session_state["tok.encode.text"]
    bert_ids = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt").encode(text)
    table = read_csv(download_bytes(at, "tok.encode.dl.table"))
    assert table["id"].tolist() == bert_ids == at.dataframe[0].value.iloc[:, 2].tolist()
    assert list(table.columns[:4]) == ["position", "token", "id", "bytes"]
    for _, row in table.iterrows():  # offsets point at the characters each token covers
        assert text[row["start"] : row["end"]] == row["text"]
    record = json.loads(download_bytes(at, "tok.encode.dl.ids"))
    assert record["text"] == text and record["ids"] == bert_ids
    assert record["tokens"] == table["token"].tolist() and "BERT" in record["tokenizer"]
    compare = read_csv(download_bytes(at, "tok.encode.dl.compare"))
    shown = at.dataframe[1].value
    assert compare["tokens"].tolist() == shown.iloc[:, 1].tolist()
    np.testing.assert_allclose(compare["per_char"], shown.iloc[:, 2].astype(float))


def test_token_table_has_offsets_bytes_and_specials():
    tokens = [Token(2, "[CLS]", b"[CLS]", 0, 0, True), Token(7, "猫", "猫".encode(), 0, 1)]
    frame = token_table(tokens, "猫", {7: 4})
    assert frame["bytes"].tolist() == ["5b 43 4c 53 5d", "e7 8c ab"]
    assert frame["special"].tolist() == [True, False] and frame["count"].tolist() == [0, 4]
    assert frame["text"].tolist() == ["", "猫"]


def test_projector_metadata_lists_who_each_neighbour_belongs_to():
    labels = {1: "king", 2: "queen", 3: "prince"}
    meta = projector_metadata([1, 2, 3], [True, False, False], labels, [1], [[2, 3]], [[0.7, 0.5]])
    assert meta["in_sentence"].tolist() == ["yes", "no", "no"]
    assert meta["neighbour_of"].tolist() == ["", "king #1 0.700", "king #2 0.500"]
    _, tsv = projector_tsv(np.zeros((3, 2)), meta)
    assert tsv.decode().splitlines()[0] == "token\tid\tin_sentence\tneighbour_of"  # a header row


@pytest.mark.slow
def test_embedding_rows_and_projector_files_are_minilms_exact_rows(minilm_dir):
    from explorer_core.bert.embeddings import load_word_embedding_matrix

    with recording():
        at = app_test("lessons/embed_tokens.py", timeout=120)
    assert not at.exception
    keys = {"emb.tokens.dl.window", "emb.tokens.dl.rows_csv", "emb.tokens.dl.rows_json",
            "emb.tokens.dl.map", "emb.tokens.dl.neighbours"}  # fmt: skip
    assert keys <= set(buttons(at))
    weight = load_word_embedding_matrix(minilm_dir).double().numpy()
    ids = at.dataframe[0].value.iloc[:, 2].tolist()
    rows = read_csv(download_bytes(at, "emb.tokens.dl.rows_csv"))
    assert rows["id"].tolist() == ids
    np.testing.assert_array_equal(rows.filter(regex=r"^d\d+$").to_numpy(), weight[ids])
    record = json.loads(download_bytes(at, "emb.tokens.dl.rows_json"))
    assert record["ids"] == ids and record["dim"] == 384 and "MiniLM" in record["model"]
    np.testing.assert_array_equal(np.array(record["vectors"]), weight[ids])
    vectors, meta = read_projector(download_bytes(at, "emb.tokens.dl.map"))
    assert meta[0] == ["token", "id", "in_sentence", "neighbour_of"]
    point_ids = [int(row[1]) for row in meta[1:]]
    np.testing.assert_array_equal(vectors, weight[point_ids])  # full 384-d rows, bit for bit
    assert vectors.shape[1] == 384
    in_sentence = {row[0] for row in meta[1:] if row[2] == "yes"}
    assert {"king", "queen", "castle"} <= in_sentence
    assert any("king #" in row[3] for row in meta[1:] if row[0] == "queen")
    neighbours = read_csv(download_bytes(at, "emb.tokens.dl.neighbours"))
    pd.testing.assert_frame_equal(
        neighbours,
        at.dataframe[-1].value.set_axis(neighbours.columns, axis=1),
        check_dtype=False,
        atol=1e-6,
    )
    window = read_csv(download_bytes(at, "emb.tokens.dl.window"))
    assert (
        window["one_hot"].sum() == 1 and window.loc[window["one_hot"] == 1, "row"].item() == ids[1]
    )
