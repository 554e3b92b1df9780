"""Links that restore a view: every page reads its main settings from the URL query string.

Open a page with `?key=value` set, check the widgets show those values; and the other way: a
widget's value reaches the URL. Widgets with `bind="query-params"` are written to the URL by the
browser (checked in tests/test_browser_links.py); AppTest can only check they are bound to the
parameter named like their key (`proto.query_param_key`). Option widgets with translated labels
are synced by hand (`state.url_synced`), so their URL value is a code and AppTest sees it.
"""

from __future__ import annotations

from tests.links import assert_bound, link_text, open_with


def test_tokenizer_encode_opens_from_a_link():
    params = {"tok.encode.text": "Links reopen views.", "tok.encode.source": "wordpiece",
              "tok.encode.specials": "true", "tok.encode.compare": "false"}  # fmt: skip
    at = open_with("lessons/tokenizer_encode.py", params)
    assert at.text_area(key="tok.encode.text").value == "Links reopen views."
    assert at.selectbox(key="tok.encode.source").value == "wordpiece"
    assert at.toggle(key="tok.encode.specials").value is True
    assert at.toggle(key="tok.encode.compare").value is False
    assert_bound(at, ("tok.encode.text", "tok.encode.specials", "tok.encode.compare"))
    assert "tok.encode.source=wordpiece" in link_text(at)
    assert "Links+reopen+views." in link_text(at)
    at.selectbox(key="tok.encode.source").set_value("unigram").run()
    assert at.query_params["tok.encode.source"] == "unigram"  # a code, not the shown label


def test_attention_opens_from_a_link():
    params = {"attn.mode": "pair", "attn.a": "A cat.", "attn.b": "A dog.", "attn.layer": "3",
              "attn.head": "5", "attn.view": "masks", "attn.causal": "true"}  # fmt: skip
    at = open_with("lessons/attention.py", params)
    assert at.session_state["attn.mode"] == "pair"
    assert at.text_input(key="attn.a").value == "A cat."
    assert at.text_input(key="attn.b").value == "A dog."
    assert at.selectbox(key="attn.layer").value == 3
    assert at.selectbox(key="attn.head").value == 5
    assert at.toggle(key="attn.causal").value is True
    assert at.session_state["attn.view"] == "masks"
    assert_bound(at, ("attn.a", "attn.b", "attn.layer", "attn.head", "attn.causal"))
    assert "attn.layer=3" in link_text(at) and "attn.mode=pair" in link_text(at)
    at.session_state["attn.view"] = "overview"
    at.run()
    assert at.query_params["attn.view"] == "overview"


def test_tokenizer_train_opens_from_a_link_and_keeps_the_probe_after_training():
    params = {"tok.train.lang": "en", "tok.train.algo": "wordpiece", "tok.train.vocab": "300",
              "tok.train.probe": "unhappiness"}  # fmt: skip
    at = open_with("lessons/tokenizer_train.py", params)
    assert at.session_state["tok.train.lang"] == "en"
    assert at.selectbox(key="tok.train.algo").value == "wordpiece"
    assert at.number_input(key="tok.train.vocab").value == 300
    assert_bound(at, ("tok.train.vocab",))
    at.button(key="tok.train.go").click().run()
    assert not at.exception
    assert at.text_input(key="tok.train.probe").value == "unhappiness"
    assert_bound(at, ("tok.train.probe",))
    assert "tok.train.probe=unhappiness" in link_text(at)
    at.selectbox(key="tok.train.algo").set_value("unigram").run()
    assert at.query_params["tok.train.algo"] == "unigram"


def test_a_pasted_corpus_stays_out_of_the_url():
    at = open_with("lessons/tokenizer_train.py", {"tok.train.source": "paste"})
    at.text_area(key="tok.train.paste").set_value("a long private corpus " * 50).run()
    assert at.query_params["tok.train.source"] == "paste"
    assert "tok.train.paste" not in at.query_params
    assert "private" not in link_text(at)


def test_embed_tokens_opens_from_a_link():
    params = {"emb.tokens.text": "A queen.", "emb.tokens.source": "fresh", "emb.tokens.dim": "32",
              "emb.tokens.seed": "7", "emb.tokens.k": "3"}  # fmt: skip
    at = open_with("lessons/embed_tokens.py", params)
    assert at.text_input(key="emb.tokens.text").value == "A queen."
    assert at.session_state["emb.tokens.source"] == "fresh"
    assert at.select_slider(key="emb.tokens.dim").value == 32
    assert at.number_input(key="emb.tokens.seed").value == 7
    assert at.slider(key="emb.tokens.k").value == 3
    assert_bound(at, ("emb.tokens.text", "emb.tokens.dim", "emb.tokens.seed", "emb.tokens.k"))
    assert "emb.tokens.seed=7" in link_text(at)


def test_embed_sum_opens_from_a_link():
    params = {"emb.sum.a": "One.", "emb.sum.b": "Two.", "emb.sum.dims": "20",
              "emb.sum.overview": "false"}  # fmt: skip
    at = open_with("lessons/embed_sum.py", params)
    assert at.text_input(key="emb.sum.a").value == "One."
    assert at.text_input(key="emb.sum.b").value == "Two."
    assert at.slider(key="emb.sum.dims").value == 20
    assert at.toggle(key="emb.sum.overview").value is False
    assert_bound(at, ("emb.sum.a", "emb.sum.b", "emb.sum.dims", "emb.sum.overview"))
    at.session_state["emb.sum.source"] = "fresh"
    at.run()
    assert at.query_params["emb.sum.source"] == "fresh"


def test_embed_positions_opens_from_a_link():
    params = {"emb.pos.length": "256", "emb.pos.dim": "32", "emb.pos.base": "1000",
              "emb.pos.clip": "8", "emb.pos.trained": "128", "emb.pos.scheme": "rotary",
              "emb.pos.rope": "false"}  # fmt: skip
    at = open_with("lessons/embed_positions.py", params)
    assert at.slider(key="emb.pos.length").value == 256
    assert at.select_slider(key="emb.pos.dim").value == 32
    assert at.select_slider(key="emb.pos.base").value == 1000
    assert at.slider(key="emb.pos.clip").value == 8
    assert at.slider(key="emb.pos.trained").value == 128
    assert at.session_state["emb.pos.scheme"] == "rotary"
    assert at.toggle(key="emb.pos.rope").value is False
    assert_bound(at, ("emb.pos.length", "emb.pos.dim", "emb.pos.base", "emb.pos.rope"))
    assert "emb.pos.scheme=rotary" in link_text(at)
    assert "emb.pos.length=256" in link_text(at)


def test_bert_inputs_opens_from_a_link():
    params = {"inputs.text": "Masks hide words.", "inputs.seed": "42", "inputs.draws": "100",
              "inputs.nsp_source": "zh", "inputs.nsp_seed": "3",
              "inputs.max_len": "32"}  # fmt: skip
    at = open_with("lessons/bert_inputs.py", params)
    assert at.text_input(key="inputs.text").value == "Masks hide words."
    assert at.number_input(key="inputs.seed").value == 42
    assert at.select_slider(key="inputs.draws").value == 100
    assert at.session_state["inputs.nsp_source"] == "zh"
    assert at.number_input(key="inputs.nsp_seed").value == 3
    assert at.slider(key="inputs.max_len").value == 32
    keys = ("inputs.text", "inputs.seed", "inputs.draws", "inputs.nsp_seed", "inputs.max_len")
    assert_bound(at, keys)
    assert "inputs.seed=42" in link_text(at)


def test_similarity_opens_from_a_link():
    params = {"sim.a": "A dog runs.", "sim.b": "A puppy runs.", "sim.pooling": "cls",
              "sim.view": "neighbours", "sim.model": "minilm", "sim.query": "Stocks fell.",
              "sim.k": "3"}  # fmt: skip
    at = open_with("lessons/similarity.py", params)
    assert at.text_input(key="sim.a").value == "A dog runs."
    assert at.text_input(key="sim.b").value == "A puppy runs."
    assert at.session_state["sim.pooling"] == "cls"
    assert at.session_state["sim.view"] == "neighbours"
    assert at.session_state["sim.model"] == "minilm"
    assert at.text_input(key="sim.query").value == "Stocks fell."
    assert at.slider(key="sim.k").value == 3
    assert_bound(at, ("sim.a", "sim.b", "sim.query", "sim.k"))
    assert "sim.view=neighbours" in link_text(at)
    at.session_state["sim.view"] = "pairs"
    at.run()
    assert at.query_params["sim.view"] == "pairs"


def test_train_model_opens_from_a_link_and_a_preset_brings_its_sizes():
    from explorer_core.training.presets import PRESETS

    params = {"train.preset": "small", "train.objective": "finetune", "train.edit": "true",
              "train.seed": "9", "train.fine_steps": "120", "train.budget": "30"}  # fmt: skip
    at = open_with("lessons/train_model.py", params)
    assert at.selectbox(key="train.preset").value == "small"
    assert at.number_input(key="train.hidden").value == PRESETS["small"].hidden_size
    assert at.radio(key="train.objective").value == "finetune"
    assert at.toggle(key="train.edit").value is True
    assert at.number_input(key="train.seed").value == 9
    assert at.number_input(key="train.fine_steps").value == 120
    assert at.number_input(key="train.budget").value == 30
    assert_bound(at, ("train.edit", "train.seed", "train.fine_steps", "train.budget"))
    assert "train.preset=small" in link_text(at)
    at.selectbox(key="train.preset").set_value("tiny").run()
    assert at.query_params["train.preset"] == "tiny"


def test_train_model_link_keeps_hand_edited_model_sizes_over_the_preset():
    from explorer_core.training.presets import PRESETS

    params = {"train.preset": "small", "train.edit": "true", "train.hidden": "48",
              "train.layers": "3", "train.heads": "4", "train.lr": "0.002"}  # fmt: skip
    at = open_with("lessons/train_model.py", params)
    assert at.number_input(key="train.hidden").value == 48  # not the preset's own size
    assert at.number_input(key="train.layers").value == 3
    assert at.number_input(key="train.heads").value == 4
    assert at.number_input(key="train.lr").value == 0.002
    assert at.number_input(key="train.ffn").value == PRESETS["small"].intermediate_size
    assert_bound(at, ("train.hidden", "train.layers", "train.heads", "train.ffn", "train.batch"))
    assert "train.hidden=48" in link_text(at) and "train.layers=3" in link_text(at)


def test_the_link_leaves_out_defaults_and_carries_the_language():
    at = open_with("app.py", {"lang": "zh"})
    assert link_text(at) == "?lang=zh"
    at = open_with("lessons/attention.py", {"attn.layer": "2"})
    assert link_text(at) == "?lang=en&attn.layer=2"  # no long default sentence in the link


def test_an_unknown_code_in_the_url_is_ignored():
    at = open_with("lessons/attention.py", {"attn.view": "nonsense", "attn.mode": "pair"})
    assert at.session_state["attn.view"] == "head"
    assert at.query_params["attn.view"] == "head"
    assert at.session_state["attn.mode"] == "pair"


def test_a_hand_synced_control_survives_a_page_switch():
    at = open_with("app.py", {})
    at.switch_page("lessons/attention.py").run()
    at.session_state["attn.view"] = "masks"
    at.run()
    at.switch_page("lessons/home.py").run()
    at.switch_page("lessons/attention.py").run()
    assert not at.exception
    assert at.session_state["attn.view"] == "masks"
