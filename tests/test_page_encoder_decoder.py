"""AppTest of Inside the encoder's "Encoder against decoder": the objectives side by side, a
causal mean's shares, and a trained decoder (the session's, or opened as a model on this
machine) with its own weights and its sentence vectors."""

from __future__ import annotations

import numpy as np
import pytest

from explorer_core.analysis.objectives import objective_rows
from explorer_core.inputs.vocab import BertVocab
from tests.charts import chart_array, figure_with_title
from tests.conftest import app_test
from tests.decoder_runs import decoder_result, tiny_decoder_folder

PAGE = "lessons/encoder.py"
FRESH = {"enc.source": "fresh", "enc.view": "decoder"}


def test_an_encoder_is_said_to_be_borrowed_and_the_objectives_match_the_core():
    from explorer_core.ui.encoder import calls

    at = app_test(PAGE, state=FRESH)
    assert not at.exception
    assert any("trained as an encoder" in i.value for i in at.info)
    assert any("No decoder has been trained" in i.value for i in at.info)  # no table, no error
    source = calls.model_source("fresh")
    ids = calls.sentence(source, at.text_input(key="enc.text").value).ids
    vocab = BertVocab.of(source.tokenizer)
    rows = objective_rows(ids, vocab_size=vocab.size, special_ids=vocab.special_ids,
                          mask_id=vocab.mask_id, seed=0)  # fmt: skip
    drawn = chart_array(figure_with_title(at, "carry a loss")["data"][0]["z"])
    np.testing.assert_array_equal(drawn, np.array([r.loss for r in rows], dtype=float))
    assert drawn[1].sum() == len(ids) - 1 and drawn[2].sum() == len(ids)
    seen = figure_with_title(at, "may look at")["data"]
    assert chart_array(seen[1]["z"]).sum() == len(ids) * (len(ids) + 1) / 2  # causal: j <= i
    assert chart_array(seen[0]["z"]).sum() == len(ids) ** 2


def test_the_shares_of_a_causal_mean_are_the_cores_and_fall_along_the_sentence():
    from explorer_core.decoder import causal_mean_shares

    at = app_test(PAGE, state=FRESH)
    bars = chart_array(figure_with_title(at, "mean-pooled")["data"][0]["y"]).astype(float)
    np.testing.assert_allclose(bars, causal_mean_shares(len(bars)))
    assert np.all(np.diff(bars) < 0) and abs(bars.sum() - 1) < 1e-9
    assert any("read the whole sentence" in c.value for c in at.caption)


def test_the_sessions_decoder_pools_next_to_the_encoders_mean():
    at = app_test(PAGE, state={**FRESH, "dec.result": decoder_result()})
    assert not at.exception
    table = next(d.value for d in at.dataframe if "gold (0–5)" in d.value.columns)
    assert list(table.columns[3:]) == ["decoder: mean", "decoder: weighted mean (SGPT)",
                                       "decoder: last token", "encoder: mean"]  # fmt: skip
    assert len(table) == 10 and table.iloc[:, 3:].abs().le(1.0 + 1e-6).all().all()
    assert not (table["decoder: mean"] == table["decoder: last token"]).all()


def test_a_decoder_opened_from_this_machine_shows_its_own_weights():
    from explorer_core.ui.settings import MODEL_REF

    folder = tiny_decoder_folder()
    at = app_test(PAGE, state={"enc.source": "opened", MODEL_REF: str(folder),
                               "enc.view": "decoder", "enc.text": "the model is", "enc.edit":
                               "the model was"})  # fmt: skip
    assert not at.exception, [e.message for e in at.exception]
    assert any("is a decoder" in s.value for s in at.success)
    # its own mask: with the causal mask the rows before the edit do not move
    causal = chart_array(figure_with_title(at, "Causal mask")["data"][0]["z"])
    assert causal.shape[0] >= 2
    # it is listed on the picker (the trained-models folder is always allowed)
    assert str(folder) in at.selectbox(key="models.box").options or any(
        str(folder) in o for o in at.selectbox(key="models.box").options
    )


@pytest.mark.parametrize("view", ["layer", "mixing", "stack", "contexts", "families"])
def test_every_view_of_the_page_runs_on_an_opened_decoder(view):
    from explorer_core.ui.settings import MODEL_REF

    state = {"enc.source": "opened", MODEL_REF: str(tiny_decoder_folder()), "enc.view": view,
             "enc.text": "the model is"}  # fmt: skip
    at = app_test(PAGE, state=state)
    assert not at.exception, [e.message for e in at.exception]
