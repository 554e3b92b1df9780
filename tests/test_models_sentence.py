"""The sentence pipeline: read from sentence-transformers' files (or a documented default), and
every pooling mode, Dense and Normalize equal to sentence-transformers 6.2 on MiniLM's real hidden
states, up to full `SentenceTransformer.encode` with and without a prompt."""

from __future__ import annotations

import pytest
import torch

from explorer_core.models import ModelRefused, SentencePipeline, read_pipeline
from explorer_core.models.pipeline import POOLING_MODES
from explorer_core.models.sentence import (
    finish,
    load_dense,
    pool,
    prompt_length,
    sentence_vectors,
)
from tests.model_folders import minilm_cache, tiny_model, write_json, write_sentence_files

SENTENCES = ["A man is playing a guitar.", "A person plays the guitar.", "好", "Hi there"]
MODES = list(POOLING_MODES)


def st_modules():
    from sentence_transformers.sentence_transformer.modules import Dense, Normalize, Pooling

    return Pooling, Normalize, Dense


@pytest.fixture(scope="module")
def minilm(tmp_path_factory):
    """MiniLM's hidden states for SENTENCES (right padded), from transformers' AutoModel."""
    from transformers import AutoModel, AutoTokenizer

    _, folder = minilm_cache(tmp_path_factory.mktemp("minilm"))
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).eval()
    batch = tokenizer(SENTENCES, padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state  # (4, T, 384)
    return {"folder": folder, "tokenizer": tokenizer, "model": model, "hidden": hidden,
            "mask": batch["attention_mask"]}  # fmt: skip


def left_padded(hidden, mask):
    """The same rows with their padding moved to the left (as decoder tokenizers pad)."""
    rows, masks = [], []
    for row, keep in zip(hidden, mask, strict=True):
        real = int(keep.sum())
        rows.append(torch.cat([row[real:], row[:real]]))
        masks.append(torch.cat([keep[real:], keep[:real]]))
    return torch.stack(rows), torch.stack(masks)


def st_pool(mode, hidden, mask, include_prompt=True, prompt_len=None):
    Pooling, _, _ = st_modules()
    features = {"token_embeddings": hidden, "attention_mask": mask}
    if prompt_len is not None:
        features["prompt_length"] = prompt_len
    module = Pooling(hidden.size(-1), pooling_mode=mode, include_prompt=include_prompt)
    return module(features)["sentence_embedding"]


# -- pooling parity -------------------------------------------------------------------------------


@pytest.mark.parametrize("prompt", [0, 2], ids=["no-prompt", "prompt-left-out"])
@pytest.mark.parametrize("padding", ["right", "left"])
@pytest.mark.parametrize("mode", MODES)
def test_every_mode_equals_sentence_transformers(minilm, mode, padding, prompt):
    """Every mode on MiniLM's hidden states, right and left padded, with and without a prompt of
    two positions left out (include_prompt=False)."""
    hidden, mask = minilm["hidden"], minilm["mask"]
    if padding == "left":
        hidden, mask = left_padded(hidden, mask)
    pipeline = SentencePipeline(pooling_modes=(mode,), include_prompt=not prompt)
    ours = pool(pipeline, hidden, mask, prompt_length=prompt)
    theirs = st_pool(mode, hidden, mask, include_prompt=not prompt, prompt_len=prompt or None)
    torch.testing.assert_close(ours, theirs, atol=1e-6, rtol=0)
    if prompt and mode in ("cls", "mean", "weightedmean"):  # the prompt changes these
        assert not torch.allclose(ours, pool(SentencePipeline(pooling_modes=(mode,)), hidden, mask))


def test_concatenated_modes_and_normalize(minilm):
    _, Normalize, _ = st_modules()
    hidden, mask = minilm["hidden"], minilm["mask"]
    pipeline = SentencePipeline(pooling_modes=("cls", "mean", "max"), normalize=True)
    pooled = pool(pipeline, hidden, mask)
    assert pooled.shape == (4, 3 * 384)
    torch.testing.assert_close(
        pooled, st_pool(("cls", "mean", "max"), hidden, mask), atol=1e-6, rtol=0
    )
    theirs = Normalize()({"sentence_embedding": pooled.clone()})["sentence_embedding"]
    torch.testing.assert_close(finish(pipeline, pooled), theirs, atol=1e-6, rtol=0)


def test_worked_example_of_the_module():
    hidden = torch.tensor([[[1.0], [2.0], [6.0], [100.0]]])
    mask = torch.tensor([[1, 1, 1, 0]])
    got = {
        m: round(pool(SentencePipeline(pooling_modes=(m,)), hidden, mask).item(), 3) for m in MODES
    }
    assert got == {"cls": 1.0, "max": 6.0, "mean": 3.0, "mean_sqrt_len_tokens": 5.196,
                   "weightedmean": 3.833, "lasttoken": 6.0}  # fmt: skip


def test_dense_equals_sentence_transformers(minilm, tmp_path):
    """MiniLM, mean pooling, a Dense layer to 16 (tanh), then Normalize: module by module and as
    a full SentenceTransformer.encode."""
    from sentence_transformers import SentenceTransformer

    _, _, Dense = st_modules()
    generator = torch.Generator().manual_seed(0)
    dense = Dense(
        384,
        16,
        activation_function=torch.nn.Tanh(),
        init_weight=torch.randn(16, 384, generator=generator) / 20,
        init_bias=torch.randn(16, generator=generator),
    )
    _, folder = minilm_cache(tmp_path, normalize=False)
    (folder / "2_Dense").mkdir()
    dense.save(str(folder / "2_Dense"))
    modules = read_json(folder / "modules.json")
    modules.append({"idx": 2, "name": "2", "path": "2_Dense",
                    "type": "sentence_transformers.models.Dense"})  # fmt: skip
    modules.append({"idx": 3, "name": "3", "path": "3_Normalize",
                    "type": "sentence_transformers.models.Normalize"})  # fmt: skip
    write_json(folder / "modules.json", modules)
    pipeline = read_pipeline(folder)
    assert [(d.in_features, d.out_features, d.activation) for d in pipeline.dense] == [
        (384, 16, "tanh")]  # fmt: skip
    assert pipeline.normalize
    pooled = pool(pipeline, minilm["hidden"], minilm["mask"])
    theirs = dense({"sentence_embedding": pooled})["sentence_embedding"]
    no_norm = SentencePipeline(dense=pipeline.dense)
    ours = finish(no_norm, pooled, load_dense(folder, pipeline))
    torch.testing.assert_close(ours, theirs, atol=1e-6, rtol=0)
    theirs = SentenceTransformer(str(folder), device="cpu").encode(
        SENTENCES, convert_to_tensor=True, batch_size=len(SENTENCES)
    )
    ours = ours_encode(minilm, folder, SENTENCES)
    assert ours.shape == (4, 16)
    torch.testing.assert_close(ours, theirs, atol=1e-6, rtol=0)


def read_json(path):
    import json

    return json.loads(path.read_text(encoding="utf-8"))


# -- full SentenceTransformer.encode --------------------------------------------------------------


def ours_encode(minilm, folder, texts, prompt=""):
    pipeline = read_pipeline(folder)
    tokenizer = minilm["tokenizer"]
    batch = tokenizer([prompt + t for t in texts], padding=True, truncation=True,
                      max_length=pipeline.max_seq_length, return_tensors="pt")  # fmt: skip
    with torch.no_grad():
        hidden = minilm["model"](**batch).last_hidden_state
    length = 0
    if prompt:
        ids = tokenizer(prompt)["input_ids"]
        length = prompt_length(ids, set(tokenizer.all_special_ids))
    dense = load_dense(folder, pipeline)
    return sentence_vectors(pipeline, hidden, batch["attention_mask"], length, dense)


@pytest.mark.parametrize(("pooling", "normalize"), [("mean", True), ("cls", False)])
def test_full_encode_equals_sentence_transformer(minilm, tmp_path, pooling, normalize):
    from sentence_transformers import SentenceTransformer

    _, folder = minilm_cache(tmp_path, pooling=pooling, normalize=normalize)
    theirs = SentenceTransformer(str(folder), device="cpu").encode(
        SENTENCES, convert_to_tensor=True, batch_size=len(SENTENCES)
    )
    torch.testing.assert_close(ours_encode(minilm, folder, SENTENCES), theirs, atol=1e-6, rtol=0)


def test_full_encode_with_a_prompt_left_out(minilm, tmp_path):
    from sentence_transformers import SentenceTransformer

    _, folder = minilm_cache(tmp_path, pooling="mean", include_prompt=False,
                             prompts={"query": "query: "})  # fmt: skip
    pipeline = read_pipeline(folder)
    assert (pipeline.include_prompt, pipeline.prompt("query")) == (False, "query: ")
    model = SentenceTransformer(str(folder), device="cpu")
    theirs = model.encode(SENTENCES, prompt_name="query", convert_to_tensor=True,
                          batch_size=len(SENTENCES))  # fmt: skip
    ours = ours_encode(minilm, folder, SENTENCES, prompt="query: ")
    torch.testing.assert_close(ours, theirs, atol=1e-6, rtol=0)


def test_the_hub_name_through_sentence_transformer_is_our_folder(minilm, tmp_path):
    """SentenceTransformer resolves the Hub name from the same hand-made cache: its CLS vectors
    (written only into that snapshot's pooling config) equal ours from `locate`'s folder."""
    from sentence_transformers import SentenceTransformer

    from explorer_core.models import locate
    from tests.model_folders import MINILM_REPO

    cache, _ = minilm_cache(tmp_path, pooling="cls", normalize=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_CACHE", str(cache))
        folder = locate(MINILM_REPO).folder
        theirs = SentenceTransformer(MINILM_REPO, cache_folder=str(cache), device="cpu",
                                     local_files_only=True).encode(
            SENTENCES, convert_to_tensor=True, batch_size=len(SENTENCES))  # fmt: skip
    torch.testing.assert_close(ours_encode(minilm, folder, SENTENCES), theirs, atol=1e-6, rtol=0)


# -- reading the files ----------------------------------------------------------------------------


def test_minilm_files_say_mean_and_normalize(minilm):
    pipeline = read_pipeline(minilm["folder"])
    assert (pipeline.pooling_mode, pipeline.normalize, pipeline.max_seq_length) == (
        "mean",
        True,
        256,
    )
    assert pipeline.source == (
        "modules.json",
        "1_Pooling/config.json",
        "config_sentence_transformers.json",
        "sentence_bert_config.json",
    )
    assert not pipeline.is_default and pipeline.notes == ()


def test_no_files_is_the_documented_default_and_says_so(tmp_path):
    tiny_model(tmp_path / "plain")
    pipeline = read_pipeline(tmp_path / "plain")
    assert (pipeline.pooling_modes, pipeline.normalize, pipeline.is_default) == (
        ("mean",),
        False,
        True,
    )
    assert "mean pooling without normalisation" in pipeline.notes[0]


def test_new_style_pooling_prompts_and_similarity(tmp_path):
    folder = tmp_path / "m"
    tiny_model(folder)
    write_sentence_files(folder, pooling=["cls", "mean"], legacy=False,
                         prompts={"query": "query: ", "document": ""})  # fmt: skip
    config = read_json(folder / "config_sentence_transformers.json")
    write_json(folder / "config_sentence_transformers.json",
               {**config, "default_prompt_name": "query", "similarity_fn_name": "dot"})  # fmt: skip
    pipeline = read_pipeline(folder)
    assert pipeline.pooling_mode == "cls+mean"
    assert (pipeline.default_prompt_name, pipeline.prompt(), pipeline.similarity_fn_name) == (
        "query", "query: ", "dot")  # fmt: skip


E5_CARD = '---\nlanguage: [en]\n---\nEach input text should start with "query: " or "passage: ".\n'
BGE_CARD = (
    "---\nlanguage: zh\n---\nAdd `为这个句子生成表示以用于检索相关文章：` before the query.\n"
)


@pytest.mark.parametrize(("card", "prompts"), [
    (E5_CARD, {"query": "query: ", "passage": "passage: "}),
    (BGE_CARD, {"query": "为这个句子生成表示以用于检索相关文章："}),
])  # fmt: skip
def test_card_prefixes_become_offered_prompts_with_a_note(tmp_path, card, prompts):
    folder = tmp_path / "m"
    tiny_model(folder, card=card)
    write_sentence_files(folder)
    pipeline = read_pipeline(folder)
    assert dict(pipeline.prompts) == prompts and pipeline.default_prompt_name is None
    assert len(pipeline.notes) == 1 and "not added unless you choose one" in pipeline.notes[0]
    write_sentence_files(folder, prompts={"query": "query: "})  # the files' prompts win, no note
    assert read_pipeline(folder).notes == ()


def _module(kind, path):
    return {"idx": 1, "name": "1", "path": path, "type": f"sentence_transformers.models.{kind}"}


REFUSALS = [
    ([_module("LSTM", "1_LSTM")], "has a LSTM step"),
    ([_module("Pooling", "../../etc")], "points outside its folder"),
    ([_module("Normalize", "2_Normalize")], "puts Normalize after Transformer"),
    ([], "has no Pooling step"),
    ([_module("Pooling", "1_Pooling"), _module("Dense", "2_Dense")], "has no config.json"),
]


@pytest.mark.parametrize(("after", "expected"), REFUSALS, ids=[r[1] for r in REFUSALS])
def test_unsupported_pipelines_are_refused_in_one_line(tmp_path, after, expected):
    folder = tmp_path / "m"
    tiny_model(folder)
    first = {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}
    write_json(folder / "modules.json", [first, *after])
    with pytest.raises(ModelRefused) as info:
        read_pipeline(folder)
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_dense_with_an_untrusted_activation_is_refused(tmp_path):
    folder = tmp_path / "m"
    tiny_model(folder)
    write_sentence_files(folder, normalize=False)
    modules = read_json(folder / "modules.json") + [_module("Dense", "2_Dense")]
    write_json(folder / "modules.json", modules)
    write_json(folder / "2_Dense" / "config.json", {"in_features": 8, "out_features": 4,
               "activation_function": "mypackage.Evil"})  # fmt: skip
    with pytest.raises(ModelRefused, match="uses activation 'mypackage.Evil'"):
        read_pipeline(folder)


def test_prompt_length_drops_only_a_trailing_special_token():
    assert prompt_length([101, 23032, 1024, 102], {101, 102}) == 3
    assert prompt_length([5, 6], {101, 102}) == 2


def test_a_card_that_only_mentions_a_query_gets_no_prompts(tmp_path):
    folder = tmp_path / "m"
    tiny_model(folder, card='---\nlanguage: en\n---\nType a query: "cats" and see.\n')
    write_sentence_files(folder)
    pipeline = read_pipeline(folder)
    assert (pipeline.prompts, pipeline.notes) == ((), ())


def test_a_default_prompt_that_is_not_among_the_prompts_is_dropped_with_a_note(tmp_path):
    folder = tmp_path / "m"
    tiny_model(folder)
    write_sentence_files(folder, prompts={"query": "query: "})
    config = read_json(folder / "config_sentence_transformers.json")
    write_json(
        folder / "config_sentence_transformers.json", {**config, "default_prompt_name": "qa"}
    )
    pipeline = read_pipeline(folder)
    assert pipeline.default_prompt_name is None and pipeline.prompt() == ""
    assert pipeline.notes == ("the default prompt 'qa' is not among the prompts: none is used",)
