"""Downloads in a real browser: clicking a button on the Token embeddings page (in Chinese) saves
the file the page built, with its name, and the bytes parse back to MiniLM's rows.

Screenshot: artifacts/screenshots/exports-embed-tokens-zh.png (look at it).
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUERY = "lang=zh&emb.tokens.text=The+king+and+the+queen.&emb.tokens.k=3&emb.tokens.pick=4"


def save(browser, label: str):
    """Click the download button called `label`; the saved file's name and bytes."""
    page = browser.page
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name=label).click()
    download = info.value
    with open(download.path(), "rb") as handle:
        return download.suggested_filename, handle.read()


def test_token_embedding_files_download_in_chinese(browser, minilm_dir):
    from explorer_core.bert.embeddings import load_word_embedding_matrix

    browser.open("token-embeddings", query=QUERY, wait_text="哪些词元彼此靠近")
    assert not browser.exceptions()
    page = browser.page
    assert page.get_by_role("combobox", name="要查看的词元").input_value().startswith("4: queen")
    weight = load_word_embedding_matrix(minilm_dir).double().numpy()
    name, data = save(browser, "词元、编号和向量（JSON）")
    record = json.loads(data)
    assert name == "embedding-rows.json" and record["tokens"][4] == "queen"
    np.testing.assert_array_equal(np.array(record["vectors"]), weight[record["ids"]])
    name, data = save(browser, "下载为 Embedding Projector 文件")
    assert name == "token-map-projector.zip"
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        vectors = archive.read("token-map-vectors.tsv").decode().splitlines()
        meta = archive.read("token-map-metadata.tsv").decode().splitlines()
    assert meta[0] == "token\tid\tin_sentence\tneighbour_of" and len(meta) == len(vectors) + 1
    ids = [int(line.split("\t")[1]) for line in meta[1:]]
    parsed = np.array([line.split("\t") for line in vectors], dtype=np.float64)
    np.testing.assert_array_equal(parsed, weight[ids])
    page.get_by_role("button", name="近邻表（CSV）").scroll_into_view_if_needed()
    browser.screenshot("exports-embed-tokens-zh")
    assert not browser.exceptions()
