"""A saved decoder is a GPT-2 folder: transformers opens it with our logits and our token ids,
greedy decoding equals GPT2LMHeadModel.generate(do_sample=False), and load_decoder gives back
exactly our model and tokenizer."""

from __future__ import annotations

import pytest
import torch
import transformers

from explorer_core.decoder import generate, load_decoder, save_decoder
from tests.decoder_models import decoder, tokenizer

AWKWARD = ["", "a", " ", "  two  spaces ", "the cat sat.", "猫坐在垫子上。", "emoji 😀🎉",
           "café ü", "e\u0301", "tab\tand\nnewline", "mixed 猫 cat 😀"]  # fmt: skip


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "scaled"])
def saved(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("decoder")
    model, tok = decoder(scale_embedding=request.param), tokenizer()
    save_decoder(model, tok, folder)
    return model, tok, folder


@pytest.mark.parametrize("text", AWKWARD)
def test_autotokenizer_gives_our_ids(saved, text):
    _, tok, folder = saved
    theirs = transformers.AutoTokenizer.from_pretrained(folder)
    assert theirs(text, add_special_tokens=False)["input_ids"] == tok.encode(text)
    assert theirs.decode(tok.encode(text)) == text


def test_transformers_gives_our_logits(saved):
    model, tok, folder = saved
    theirs = transformers.GPT2LMHeadModel.from_pretrained(folder).eval()
    ids = torch.tensor([tok.encode("the cat sat on the mat. 猫坐")[:20]])
    with torch.no_grad():
        torch.testing.assert_close(theirs(ids).logits, model(ids), atol=1e-5, rtol=0)


def test_greedy_equals_transformers_generate(saved):
    model, tok, folder = saved
    theirs = transformers.GPT2LMHeadModel.from_pretrained(folder).eval()
    prompt = "the dog"
    ids = torch.tensor([tok.encode(prompt)])
    out = theirs.generate(
        ids, attention_mask=torch.ones_like(ids), pad_token_id=0, do_sample=False,
        max_new_tokens=10, min_new_tokens=10,
    )  # fmt: skip
    assert generate(model, tok, prompt, max_new_tokens=10, top_k=1) == tok.decode(
        out[0, ids.shape[1] :].tolist()
    )


def test_load_decoder_gives_back_our_model_and_tokenizer(saved):
    model, tok, folder = saved
    back, back_tok = load_decoder(folder)
    assert back.config == model.config and not back.training
    text = "mixed 猫 cat 😀"
    assert back_tok.encode(text) == tok.encode(text)
    ids = torch.tensor([tok.encode(text)])
    with torch.no_grad():
        torch.testing.assert_close(back(ids), model(ids), atol=1e-5, rtol=0)
    assert generate(back, back_tok, "the", max_new_tokens=6, seed=2) == generate(
        model, tok, "the", max_new_tokens=6, seed=2
    )


def test_a_folder_without_a_decoder_is_a_sentence(tmp_path):
    with pytest.raises(ValueError, match="is not a saved decoder"):
        load_decoder(tmp_path)
