"""AppTest of every model page with a model the user brought: a tiny model of each family (with
a real tokenizer of its family) opened from an allowed folder or the Hugging Face cache, in both
languages. What the pages show is checked against transformers' own numbers where it is a
number (attention weights, the sum entering layer 1), and each refusal is one line on the page.
"""

from __future__ import annotations

import html
import json

import numpy as np
import pytest
import torch

from explorer_core.bert.families import FAMILIES
from tests import opened_models
from tests.charts import figure_with_title, figures, plot_array
from tests.conftest import app_test

pytestmark = pytest.mark.slow

PAGES = {
    "lessons/attention.py": "attn.source",
    "lessons/encoder.py": "enc.source",
    "lessons/embed_tokens.py": "emb.tokens.source",
    "lessons/embed_sum.py": "emb.sum.source",
}
HUB_NAME = "someone/tiny-modernbert"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("allowed")
    return {f: opened_models.model_folder(f, root / f) for f in FAMILIES}


@pytest.fixture(autouse=True)
def allowed(folders, tmp_path_factory, monkeypatch):
    cache = tmp_path_factory.getbasetemp() / "hub-cache"
    if not (cache / ("models--" + HUB_NAME.replace("/", "--"))).is_dir():
        opened_models.cache_entry(cache, HUB_NAME, "modernbert", pooling="cls")
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(folders["bert"].parent))
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    from explorer_core.ui.models import calls, differ

    calls._scan.clear()  # the lists are cached for a while: another test's folders are not ours
    differ.rows.clear()


def opened(page: str, ref: str, lang: str = "en", **state):  # noqa: ANN201 - an AppTest
    at = app_test(page, state={PAGES.get(page, "x"): "opened", "model": ref, "lang": lang,
                               **state})  # fmt: skip
    assert not at.exception, [e.message for e in at.exception]
    return at


def captions(at) -> str:  # noqa: ANN001
    return " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("page", PAGES)
def test_every_model_page_shows_every_family(folders, page, family):
    lang = "zh" if FAMILIES.index(family) % 2 else "en"
    at = opened(page, str(folders[family]), lang)
    assert not at.error, [e.value for e in at.error]
    assert family in captions(at)  # the folder's name is the model's label
    assert figures(at)


@pytest.mark.parametrize("family", ["roberta", "modernbert", "albert"])
def test_attention_weights_are_transformers_own(folders, family):
    from transformers import AutoModel

    at = opened("lessons/attention.py", str(folders[family]), **{
        "attn.view": "head", "attn.layer": 2, "attn.head": 3, "attn.mode": "single"})  # fmt: skip
    weights = np.array(plot_array(figures(at)[0]["data"][0]["z"]), dtype=float)
    from explorer_core.models.opened import open_model

    model = open_model(str(folders[family]))
    ids, _ = model.tokenizer.encode_with_specials(at.session_state["attn.text"], limits=False)
    reference = AutoModel.from_pretrained(folders[family], attn_implementation="eager").eval()
    with torch.no_grad():
        attentions = reference(torch.tensor([ids]), output_attentions=True).attentions
    np.testing.assert_allclose(weights, attentions[1][0, 2].numpy(), atol=1e-5)


def test_the_sum_page_names_what_each_family_does_otherwise(folders):
    infos = {f: " ".join(i.value for i in opened("lessons/embed_sum.py", str(folders[f])).info)
             for f in ("roberta", "modernbert", "albert", "distilbert")}  # fmt: skip
    assert (
        "one segment row" in infos["roberta"] and "counts from the padding id" in infos["roberta"]
    )
    assert "rotary positions" in infos["modernbert"] and "no segment" in infos["modernbert"]
    assert "16 → 32" in infos["albert"]
    assert "no segment embedding" in infos["distilbert"]


def test_the_sum_page_lays_a_pair_out_with_the_models_template(folders):
    at = opened("lessons/embed_sum.py", str(folders["roberta"]),
                **{"emb.sum.a": "a cat", "emb.sum.b": "a dog"})  # fmt: skip
    tokens = list(at.dataframe[0].value.iloc[:, 1])
    assert tokens[0] == "<s>" and tokens.count("</s>") == 3  # <s> A </s></s> B </s>
    assert tokens[-1] == "</s>"


def test_inside_the_encoder_marks_local_layers_and_lists_the_families(folders):
    at = opened("lessons/encoder.py", HUB_NAME, **{"enc.layer": 2})
    assert any("local" in i.value and "±2" in i.value for i in at.info)
    at = opened("lessons/encoder.py", HUB_NAME, "zh", **{"enc.view": "families"})
    table = at.dataframe[0].value  # a column per model, a row per switch
    assert {folders[f].name for f in FAMILIES} | {HUB_NAME} <= set(table.columns)
    assert table.loc["家族", HUB_NAME] == "modernbert" and table.loc["窗口", HUB_NAME] != "—"
    assert table.loc["嵌入 E → H", folders["albert"].name] == "16 → 32"


def test_similarity_shows_the_model_pooled_as_its_authors_do(folders):
    at = opened("lessons/similarity.py", HUB_NAME, **{"sim.pooling": "own"})
    assert any(HUB_NAME in m.label for m in at.metric)
    assert "cls, normalised" in captions(at)


def test_position_encodings_shows_the_models_own_scheme(folders):
    at = opened("lessons/embed_positions.py", str(folders["roberta"]))
    assert "reads row 2" in captions(at)
    at = opened("lessons/embed_positions.py", HUB_NAME, "zh")
    assert figure_with_title(at, "局部层")  # the window of a local layer


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: (d / "config.json").write_text(json.dumps({"model_type": "bert"})),
         "weights"),
        (lambda d: (d / "pytorch_model.bin").write_bytes(b"x") or (d / "config.json").write_text(
            json.dumps({"model_type": "bert"})), "safe_serialization"),
        (lambda d: (d / "config.json").write_text(json.dumps({"model_type": "gpt2"})),
         "bert"),
    ],
)  # fmt: skip
def test_a_folder_that_cannot_be_opened_says_why_in_one_line(folders, make, expected):
    bad = folders["bert"].parent / f"bad-{expected}"
    bad.mkdir(exist_ok=True)
    make(bad)
    at = opened("lessons/attention.py", str(bad))
    (warning,) = at.warning
    assert expected in warning.value and "\n" not in warning.value.split(": ", 1)[1]


@pytest.mark.parametrize("ref", ["nobody/missing", "/etc", "../../etc"])
def test_names_and_paths_that_may_not_be_opened_are_refused(ref):
    at = opened("lessons/encoder.py", ref)
    assert len(at.warning) == 1 and "cannot be opened here" in at.warning[0].value


@pytest.mark.parametrize("family", ["roberta", "modernbert", "distilbert"])
def test_attention_on_a_pair_uses_the_models_template(folders, family):
    state = {"attn.mode": "pair", "attn.a": "a cat", "attn.b": "a dog", "attn.view": "head"}
    at = opened("lessons/attention.py", str(folders[family]), **state)
    assert not at.error
    axis = figures(at)[0]["data"][0]["x"]
    # the labels come HTML-escaped (plotly reads "<s>" as a tag): what the browser shows
    labels = [html.unescape(str(x)) for x in (axis if isinstance(axis, list) else plot_array(axis))]
    if family == "roberta":
        assert "<s>" in labels[0] and sum("</s>" in x for x in labels) == 3
    else:
        assert "[CLS]" in labels[0] and sum("[SEP]" in x for x in labels) == 2


def test_the_page_says_which_code_cut_the_text(folders):
    at = opened("lessons/embed_tokens.py", str(folders["xlm-roberta"]))
    line = next(c.value for c in at.caption if "Who cut the text" in c.value)
    assert "Unigram" in line or "unigram" in line
    assert "Run by Hugging Face tokenizers" in line and "Precompiled" in line
    at = opened("lessons/embed_tokens.py", str(folders["roberta"]), "zh")
    line = next(c.value for c in at.caption if "谁切分了文本" in c.value)
    assert "Hugging Face tokenizers" not in line  # every step of RoBERTa's is ours


def test_the_token_map_names_byte_level_pieces_by_their_bytes(folders):
    """RoBERTa's vocabulary strings are GPT-2's byte alphabet ("Ġthe", "æĪ"): the map of the
    sentence's neighbours shows them decoded (" the", a cut character as ⟨e6 88⟩…)."""
    at = opened("lessons/embed_tokens.py", str(folders["roberta"]), **{"emb.tokens.k": 30})
    (pca,) = [f for f in figures(at) if f["layout"]["xaxis"]["title"]["text"].startswith("princ")]
    labels = [str(x) for trace in pca["data"] for x in trace.get("text") or []]
    assert len(labels) > 30 and " the" in labels
    assert not any(c in label for label in labels for c in "ĠĊ"), labels


def test_the_sum_page_draws_roberta_s_markers_as_written(folders):
    """plotly reads "<s>" as a strike-through tag: the rows' labels come escaped, so the
    browser draws "0: <s> (A)" rather than a struck-through "(A)" and an empty "</s>" row."""
    at = opened("lessons/embed_sum.py", str(folders["roberta"]), **{"emb.sum.overview": True})
    rows = [str(y) for f in figures(at) for trace in f["data"] for y in trace.get("y") or []]
    assert "0: &lt;s&gt; (A)" in rows and not any("<" in row for row in rows)
