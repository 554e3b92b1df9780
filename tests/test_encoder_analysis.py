"""Reading the layer trace (analysis.encoder, analysis.contributions, analysis.contexts): known
answers worked by hand, the decompositions summing back to the model's own numbers, and what the
papers report, checked on the real all-MiniLM-L6-v2."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from explorer_core.analysis import contexts, contributions, encoder
from explorer_core.bert.model import BertConfig, BertModel
from explorer_core.bert.trace import EncoderTrace, trace_encoder
from explorer_core.inputs.vocab import BertVocab

SENTENCES = [
    "The cat sat on the mat because it was tired.",
    "I deposited money at the bank yesterday.",
    "Attention weights are not explanations, but they are a start.",
]


def tiny_model(**overrides) -> BertModel:
    values = dict(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37,
    )  # fmt: skip
    return BertModel(BertConfig(**{**values, **overrides}), seed=1).eval()


def tiny_ids(seed: int = 0) -> torch.Tensor:
    return torch.randint(1, 99, (7,), generator=torch.Generator().manual_seed(seed))


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    model = BertModel.from_transformers(minilm_dir)
    return model, WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)


def minilm_trace(minilm, sentence: str) -> EncoderTrace:
    model, tokenizer = minilm
    return trace_encoder(model, BertVocab.of(tokenizer).encode(tokenizer, [sentence]).input_ids[0])


# ---- one layer: update sizes, neurons ---------------------------------------------------------


def test_update_ratio_known_answer():
    """Input [3, 4] (norm 5) and attention output [0, 1]: 1 / 5 = 0.2. The FFN output [0, 2] on
    the stream [6, 8] (norm 10): 0.2."""
    layer = trace_encoder(tiny_model(hidden_size=2, num_attention_heads=1), tiny_ids()).layers[0]
    layer = replace(layer, input=torch.tensor([[3.0, 4.0]]),
                    attention_output=torch.tensor([[0.0, 1.0]]),
                    attention_norm=torch.tensor([[6.0, 8.0]]),
                    ffn_output=torch.tensor([[0.0, 2.0]]))  # fmt: skip
    ratio = encoder.update_ratio(layer)
    assert ratio.attention.tolist() == pytest.approx([0.2])
    assert ratio.ffn.tolist() == pytest.approx([0.2])


def test_update_ratio_on_a_real_trace_matches_the_definition():
    layer = trace_encoder(tiny_model(), tiny_ids()).layers[1]
    ratio = encoder.update_ratio(layer)
    assert ratio.attention.shape == ratio.ffn.shape == (7,)
    expected = layer.ffn_output.norm(dim=-1) / (layer.ffn_residual - layer.ffn_output).norm(dim=-1)
    torch.testing.assert_close(ratio.ffn, expected)


def test_top_neurons_sorted_with_ties_to_the_lower_index():
    """Activations [1, 3, 3, 0] -> neurons 1 and 2 (tied at 3, lower index first), then 0."""
    layer = trace_encoder(tiny_model(), tiny_ids()).layers[0]
    layer = replace(layer, ffn_activation=torch.tensor([[1.0, 3.0, 3.0, 0.0]]),
                    ffn_pre_activation=torch.tensor([[1.5, 3.5, 3.25, -1.0]]))  # fmt: skip
    top = encoder.top_neurons(layer, token=0, k=3)
    assert [(n.index, n.pre, n.post) for n in top] == [(1, 3.5, 3.0), (2, 3.25, 3.0),
                                                      (0, 1.5, 1.0)]  # fmt: skip
    with pytest.raises(ValueError, match="token must be 0 .. 0"):
        encoder.top_neurons(layer, token=1)
    with pytest.raises(ValueError, match="k must be"):
        encoder.top_neurons(layer, token=0, k=0)


# ---- layer by layer ---------------------------------------------------------------------------


def test_layer_grid_known_answer():
    """A token at [1, 0] moving to [0, 2]: norms 1, 2; it turned 1 - cos 90° = 1 and moved √5."""
    trace = trace_encoder(tiny_model(hidden_size=2, num_attention_heads=1, num_hidden_layers=1),
                          tiny_ids()[:1])  # fmt: skip
    moved = replace(trace.layers[0], output=torch.tensor([[0.0, 2.0]]))
    trace = replace(trace, embeddings=torch.tensor([[1.0, 0.0]]), layers=(moved,))
    grid = encoder.layer_grid(trace)
    assert grid.norms.tolist() == [[1.0], [2.0]]
    assert grid.moved_cosine.tolist() == [[0.0], [1.0]]
    assert grid.moved_l2[1].tolist() == pytest.approx([5**0.5])
    assert grid.pooled.tolist() == [[1.0, 0.0], [0.0, 2.0]]


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_layer_grid_rows_are_the_models_hidden_states(norm):
    model = tiny_model(norm_placement=norm)
    grid = encoder.layer_grid(trace_encoder(model, tiny_ids()))
    with torch.no_grad():
        states = model(tiny_ids()[None], output_hidden_states=True).hidden_states
    assert grid.norms.shape == grid.moved_l2.shape == (3, 7) and grid.pooled.shape == (3, 32)
    for row, state in enumerate(states):
        torch.testing.assert_close(grid.norms[row], state[0].norm(dim=-1), atol=1e-5, rtol=0)
        torch.testing.assert_close(grid.pooled[row], state[0].mean(dim=0), atol=1e-5, rtol=0)


# ---- encoder against decoder ------------------------------------------------------------------


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_edit_effect_causal_rows_before_the_edit_are_exactly_zero(norm):
    """Same weights, two masks. Causal: tokens 0..3 never see position 4, so their vectors are
    bit for bit the same in every layer. BERT's mask: every token sees the edit from layer 1 on."""
    model = tiny_model(norm_placement=norm)
    a = tiny_ids()
    b = a.clone()
    b[4] = (a[4] + 1) % 99
    causal = encoder.edit_effect(model, a, b, causal=True)
    assert causal.shape == (3, 7)
    assert torch.equal(causal[:, :4], torch.zeros(3, 4))  # exactly 0.0
    assert (causal[1:, 4:] > 0).all()
    assert torch.equal(causal[0, 5:], torch.zeros(2))  # embeddings: only the edited token moves
    both = encoder.edit_effect(model, a, b, causal=False)
    assert (both[1:] > 0).all() and both[0, 4] > 0


def test_edit_effect_on_minilm_and_a_length_change(minilm):
    model, tokenizer = minilm
    vocab = BertVocab.of(tokenizer)
    a = vocab.encode(tokenizer, ["the river bank was muddy"]).input_ids[0]
    b = vocab.encode(tokenizer, ["the money bank was muddy"]).input_ids[0]
    causal = encoder.edit_effect(model, a, b, causal=True)
    assert causal.shape == (7, len(a))
    assert torch.equal(causal[:, :2], torch.zeros(7, 2))
    assert (encoder.edit_effect(model, a, b)[1:] > 0).all()
    c = vocab.encode(tokenizer, ["the riverside bank was muddy and wet"]).input_ids[0]
    with pytest.raises(ValueError, match="number of tokens"):
        encoder.edit_effect(model, a, c)


# ---- who wrote into this vector (Kobayashi et al. 2020, 2021) ---------------------------------


@pytest.mark.parametrize("sentence", SENTENCES[:2])
def test_the_decompositions_sum_back_to_the_models_numbers_on_minilm(minilm, sentence):
    """(b) Σ_j Σ_h α f_h(x_j) + b_O = W_O's output; (c) Σ_j g_i(z_ij) + g_i(b_O) + β = LN1's
    output, to 1e-5 against the model's float32 numbers; in float64 the parts sum to
    γ ⊙ (r_i - mean r_i) / s_i + β with r_i = Σ_j z_ij + b_O to 1e-9 (the split is exact; the
    rest is float32 rounding)."""
    model, _ = minilm
    trace = minilm_trace(minilm, sentence)
    for module, layer in zip(model.encoder.layer, trace.layers, strict=True):
        mixed = contributions.mixed_vectors(module, layer)
        bias = module.attention.output.dense.bias.detach()
        torch.testing.assert_close((mixed.sum(1) + bias).float(), layer.attention_output,
                                   atol=1e-5, rtol=0)  # fmt: skip
        g, g_bias = contributions.residual_vectors(module, layer)
        rebuilt = g.sum(1) + g_bias + layer.ln1.beta.double()
        torch.testing.assert_close(rebuilt.float(), layer.ln1.after, atol=1e-5, rtol=0)
        z = contributions.mixed_vectors(module, layer) + torch.diag_embed(
            layer.input.double().T
        ).permute(1, 2, 0)
        r = z.sum(1) + bias.double()  # (T, H): the whole sum at each i, in float64
        s = (layer.ln1.before.double().var(-1, unbiased=False) + 1e-12).sqrt()[:, None]
        exact = layer.ln1.gamma.double() * (r - r.mean(-1, keepdim=True)) / s
        torch.testing.assert_close(rebuilt, exact + layer.ln1.beta.double(), atol=1e-9, rtol=0)
        shares = contributions.contributions(module, layer)
        for matrix in (shares.attention, shares.norm, shares.residual_norm):
            torch.testing.assert_close(matrix.sum(-1), torch.ones(len(trace.tokens_ids)))


def test_pre_ln_residual_decomposition_sums_to_the_stream():
    """Pre-LN: attention reads LN1(x), the residual adds the raw x; z_ij sums to the stream."""
    model = tiny_model(norm_placement="pre")
    trace = trace_encoder(model, tiny_ids())
    for module, layer in zip(model.encoder.layer, trace.layers, strict=True):
        z, bias = contributions.residual_vectors(module, layer)
        torch.testing.assert_close((z.sum(1) + bias).float(), layer.attention_residual,
                                   atol=1e-5, rtol=0)  # fmt: skip


def test_column_and_self_share_known_answers():
    m = torch.tensor([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]])
    assert contributions.column_share(m, [0, 2]) == pytest.approx((0.75 + 0.5 + 0.75) / 3)
    assert contributions.self_share(m) == 0.5


def test_cls_sep_fade_from_weights_to_norms_and_tokens_keep_themselves_on_minilm(minilm):
    """The papers' findings on all-MiniLM-L6-v2, every layer of three sentences:
    (a) attention weights put a large share on [CLS] + [SEP] (0.29-0.71 measured);
    (b) weighted by the norm of what is moved (Kobayashi 2020) that share fades to under half of
        (a) (0.04-0.18): [CLS] and [SEP] collect weight but send short vectors;
    (c) with the residual and LayerNorm (Kobayashi 2021) the diagonal dominates: each token keeps
        most of itself (0.47-0.75), against about 1/T on the diagonal of (a)."""
    model, _ = minilm
    for sentence in SENTENCES:
        trace = minilm_trace(minilm, sentence)
        specials = [0, len(trace.tokens_ids) - 1]
        for module, layer in zip(model.encoder.layer, trace.layers, strict=True):
            shares = contributions.contributions(module, layer)
            weights = contributions.column_share(shares.attention, specials)
            norms = contributions.column_share(shares.norm, specials)
            assert norms < weights / 2, (layer.layer, weights, norms)
            assert contributions.self_share(shares.residual_norm) > 0.4
            assert contributions.self_share(shares.residual_norm) > 3 * contributions.self_share(
                shares.attention
            )


# ---- logit lens -------------------------------------------------------------------------------


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_logit_lens_last_row_is_the_models_own_prediction(norm):
    from tests.encoder_models import ENGLISH, pretrained_here

    model, tokenizer = pretrained_here(norm)
    ids = BertVocab.of(tokenizer).encode(tokenizer, ENGLISH[:1]).input_ids
    trace = trace_encoder(model.bert, ids[0])
    lens = encoder.logit_lens(model, trace, k=3, tokenizer=tokenizer)
    layers = model.config.num_hidden_layers
    assert lens.ids.shape == lens.probs.shape == (layers + 1, ids.shape[1], 3)
    with torch.no_grad():
        logits = model(ids).prediction_logits[0]  # (T, V)
    expected = logits.softmax(-1).topk(3, dim=-1)
    assert torch.equal(lens.ids[-1], expected.indices)
    torch.testing.assert_close(lens.probs[-1], expected.values, atol=1e-5, rtol=0)
    assert (lens.probs[:, :, :-1] >= lens.probs[:, :, 1:]).all()
    assert lens.words[-1][0] == tuple(encoder.token_strings(tokenizer, expected.indices[0]))
    assert not any(word.startswith("#") and not word.startswith("##") for word in lens.words[-1][0])


def test_logit_lens_needs_an_mlm_head(minilm):
    trace = minilm_trace(minilm, SENTENCES[0])
    with pytest.raises(ValueError, match="no masked-language-model head"):
        encoder.logit_lens(minilm[0], trace)


# ---- two languages ----------------------------------------------------------------------------


@pytest.mark.slow
def test_layer_cosines_end_at_the_models_sentence_cosine():
    """On MiniLM + 中文 (a small one taught here): one cosine per layer, the last equal to the
    cosine the checkpoint's own embed() gives (mean pooling)."""
    from explorer_core.files import taught_model
    from explorer_core.training.checkpoint import load_checkpoint
    from tests.taught import taught_cache

    folder = taught_cache() / "models" / f"{taught_model.PREFIX}{taught_model.fingerprint()}"
    ckpt = load_checkpoint(folder)
    english, chinese = "A man is playing a guitar.", "一个男人在弹吉他。"
    cosines = encoder.layer_cosines(ckpt.model, ckpt.tokenizer, english, chinese)
    assert cosines.shape == (7,)
    assert float(cosines[-1]) == pytest.approx(ckpt.cosine(english, chinese), abs=1e-5)


# ---- one word, many contexts ------------------------------------------------------------------


def test_builtin_context_sets_have_10_to_20_sentences_holding_the_word():
    sets = contexts.builtin_context_sets()
    assert set(sets) == {"bank", "苹果", "打"}
    for word, found in sets.items():
        assert 10 <= len(found.sentences) <= 20 and len(found.senses) == len(found.sentences)
        assert all(word in sentence for sentence in found.sentences)
    assert set(sets["打"].senses) == {"phone", "basketball", "taxi"}
    with pytest.raises(ValueError, match="line 1"):
        contexts.parse_context_sets("bank\tonly two")


def test_word_positions_known_answer(minilm):
    _, tokenizer = minilm
    vocab = BertVocab.of(tokenizer)
    row = vocab.encode(tokenizer, ["the bank of the riverbank"]).input_ids[0].tolist()
    assert contexts.word_positions(tokenizer, row, "bank") == [2]
    assert contexts.word_positions(tokenizer, row, "river") == []  # only "river ##bank" there
    row = vocab.encode(tokenizer, ["we were playing"]).input_ids[0].tolist()
    assert len(contexts.word_positions(tokenizer, row, "playing")) >= 1


def test_many_contexts_on_minilm(minilm):
    """bank in 16 sentences: self-similarity above the anisotropy baseline at every layer, the
    two senses parting in the upper layers (same sense > other sense), standardising pulls the
    baseline to about 0, and the same seed gives the same numbers."""
    model, tokenizer = minilm
    found = contexts.builtin_context_sets()["bank"]
    result = contexts.many_contexts(model, tokenizer, found.sentences, "bank", senses=found.senses)
    assert result.self_similarity.shape == result.baseline.shape == (7,)
    assert result.cosines.shape == (7, 16, 16)
    assert (result.self_similarity > result.baseline).all()
    assert (result.within_sense[1:] > result.across_senses[1:]).all()
    again = contexts.many_contexts(model, tokenizer, found.sentences, "bank", senses=found.senses)
    assert torch.equal(result.baseline, again.baseline)
    z = contexts.many_contexts(model, tokenizer, found.sentences, "bank", standardize=True)
    assert z.standardized and (z.baseline.abs() < 0.05).all()
    assert (z.self_similarity > z.baseline).all()


def test_many_contexts_errors_are_one_readable_line(minilm):
    model, tokenizer = minilm
    with pytest.raises(ValueError, match=r"^'bank' is not in sentence 2: the cat sat\.$"):
        contexts.many_contexts(model, tokenizer, ["the bank", "the cat sat."], "bank")
    with pytest.raises(ValueError, match=r"unknown to this tokenizer \(\[UNK\]\)"):
        contexts.many_contexts(model, tokenizer, ["苹果", "我吃苹果"], "苹果")
    with pytest.raises(ValueError, match="at least two sentences"):
        contexts.many_contexts(model, tokenizer, ["the bank"], "bank")


def test_chinese_context_sets_run_on_the_taught_model():
    from explorer_core.files import taught_model
    from explorer_core.training.checkpoint import load_checkpoint
    from tests.taught import taught_cache

    folder = taught_cache() / "models" / f"{taught_model.PREFIX}{taught_model.fingerprint()}"
    ckpt = load_checkpoint(folder)
    for word in ("苹果", "打"):
        found = contexts.builtin_context_sets()[word]
        result = contexts.many_contexts(ckpt.model, ckpt.tokenizer, found.sentences, word,
                                        senses=found.senses)  # fmt: skip
        assert len(result.positions) == len(found.sentences)
        assert all(len(p) == len(word) for p in result.positions)  # one token per hanzi
