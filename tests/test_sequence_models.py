"""explorer_core.sequence: our cells and runners equal torch's, gates and limits are what they
claim, the seeds hold, and the gradient over distance agrees with finite differences."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from explorer_core.sequence.attention import SelfAttentionLayer
from explorer_core.sequence.compare import MODELS, ComparisonConfig, compare_models
from explorer_core.sequence.config import AttentionConfig, NGramConfig, RecurrentConfig
from explorer_core.sequence.cost import count_steps, path_lengths
from explorer_core.sequence.gradients import gradient_over_distance, last_state_jacobian
from explorer_core.sequence.gru_cell import GRUCell
from explorer_core.sequence.lstm_cell import LSTMCell
from explorer_core.sequence.ngram import NGramWindowModel
from explorer_core.sequence.recall import RecallConfig, recall_table
from explorer_core.sequence.recurrent import FusedRecurrent, RecurrentModel
from explorer_core.sequence.rnn_cell import RNNCell

BATCH, LENGTH, INPUT, HIDDEN = 13, 7, 5, 7  # odd sizes, so a shape mix-up fails
TORCH = {"rnn": torch.nn.RNN, "lstm": torch.nn.LSTM, "gru": torch.nn.GRU}


def gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def inputs(seed: int = 1, length: int = LENGTH, width: int = INPUT) -> torch.Tensor:
    return torch.randn(BATCH, length, width, generator=gen(seed))


@pytest.mark.parametrize("kind", ["rnn", "lstm", "gru"])
@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("num_layers", [1, 2])
def test_runner_equals_torch_given_the_same_weights(kind, bidirectional, num_layers):
    with torch.random.fork_rng():
        torch.manual_seed(3)
        theirs = TORCH[kind](INPUT, HIDDEN, num_layers=num_layers, bidirectional=bidirectional,
                             batch_first=True)  # fmt: skip
    ours = RecurrentModel(RecurrentConfig(kind, INPUT, HIDDEN, num_layers, bidirectional), gen())
    ours.load_torch_state(theirs.state_dict())
    x = inputs()
    got = ours(x)
    assert got.hidden_states.shape == (BATCH, LENGTH, HIDDEN * (2 if bidirectional else 1))
    torch.testing.assert_close(got.hidden_states, theirs(x)[0], rtol=0, atol=1e-6)
    assert got.sequential_steps == LENGTH * num_layers


def test_relu_rnn_equals_torch_and_sigmoid_is_the_tutorials_formula():
    with torch.random.fork_rng():
        theirs = torch.nn.RNN(INPUT, HIDDEN, nonlinearity="relu", batch_first=True)
    ours = RecurrentModel(RecurrentConfig("rnn", INPUT, HIDDEN, nonlinearity="relu"), gen())
    ours.load_torch_state(theirs.state_dict())
    x = inputs()
    torch.testing.assert_close(ours(x).hidden_states, theirs(x)[0], rtol=0, atol=1e-6)
    cell = RNNCell(INPUT, HIDDEN, gen(), nonlinearity="sigmoid")
    U, V, b = cell.weight_hh, cell.weight_ih, cell.bias_ih + cell.bias_hh
    h1 = cell.step(x[:, 0])
    h2 = cell.step(x[:, 1], h1)
    expected = torch.sigmoid(h1.h @ U.T + x[:, 1] @ V.T + b)  # h_i = σ(U h_(i-1) + V x_i + b)
    torch.testing.assert_close(h2.h, expected, rtol=0, atol=1e-6)


@pytest.mark.parametrize(
    "ours_class, theirs_class",
    [(RNNCell, torch.nn.RNNCell), (LSTMCell, torch.nn.LSTMCell), (GRUCell, torch.nn.GRUCell)],
)
def test_each_cell_equals_torchs_cell_weights_by_the_same_names(ours_class, theirs_class):
    with torch.random.fork_rng():
        theirs = theirs_class(INPUT, HIDDEN)
    ours = ours_class(INPUT, HIDDEN, gen())
    ours.load_state_dict(theirs.state_dict())  # weight_ih, weight_hh, bias_ih, bias_hh
    x, step, state = inputs(), None, None
    for t in range(LENGTH):
        step = ours.step(x[:, t], step)
        state = theirs(x[:, t], state)
    h = state[0] if isinstance(state, tuple) else state
    torch.testing.assert_close(step.h, h, rtol=0, atol=1e-6)
    if isinstance(state, tuple):
        torch.testing.assert_close(step.c, state[1], rtol=0, atol=1e-6)


def test_lstm_gates_are_fractions_and_gru_gates_too():
    lstm = RecurrentModel(RecurrentConfig("lstm", INPUT, HIDDEN, bidirectional=True), gen())
    with torch.no_grad():
        records = lstm(inputs() * 5).records
    for name in ("l0.i", "l0.f", "l0.o", "l0.i_reverse", "l0.f_reverse", "l0.o_reverse"):
        gate = records[name]
        assert gate.shape == (BATCH, LENGTH, HIDDEN)
        assert float(gate.min()) >= 0 and float(gate.max()) <= 1
    assert float(records["l0.g"].abs().max()) <= 1
    # c_t = f c_(t-1) + i g, step by step
    f, i, g, c = (records[f"l0.{k}"] for k in "figc")
    torch.testing.assert_close(c[:, 1], f[:, 1] * c[:, 0] + i[:, 1] * g[:, 1])
    with torch.no_grad():
        gru = RecurrentModel(RecurrentConfig("gru", INPUT, HIDDEN), gen())(inputs()).records
    assert all(0 <= float(gru[k].min()) and float(gru[k].max()) <= 1 for k in ("l0.r", "l0.z"))


def test_fused_recurrent_is_the_same_function():
    ours = RecurrentModel(RecurrentConfig("gru", INPUT, HIDDEN, 2, True), gen())
    x = inputs()
    torch.testing.assert_close(FusedRecurrent(ours)(x).hidden_states, ours(x).hidden_states,
                               rtol=0, atol=1e-6)  # fmt: skip


def test_torch_weights_that_do_not_fit_are_refused():
    ours = RecurrentModel(RecurrentConfig("lstm", INPUT, HIDDEN), gen())
    theirs = torch.nn.LSTM(INPUT, HIDDEN, bidirectional=True)
    with pytest.raises(ValueError, match="weight_ih_l0_reverse"):
        ours.load_torch_state(theirs.state_dict())


def changed_at(x: torch.Tensor, position: int) -> torch.Tensor:
    y = x.clone()
    y[:, position] += 1.0
    return y


def test_ngram_output_ignores_tokens_beyond_its_window_and_the_rnn_does_not():
    """n = 3: h_6 reads [x_4 ; x_5] only. Changing x_3 (3 back, more than n - 1 = 2) leaves it;
    changing x_4 (2 back) moves it; the RNN's h_6 moves even for x_0."""
    ngram = NGramWindowModel(NGramConfig(INPUT, HIDDEN, n=3), gen())
    rnn = RecurrentModel(RecurrentConfig("rnn", INPUT, HIDDEN), gen())
    x, last = inputs(), LENGTH - 1
    with torch.no_grad():
        h = ngram(x).hidden_states[:, last]
        for far in range(last - 2):  # positions 0 .. 3: more than n - 1 back
            assert torch.equal(ngram(changed_at(x, far)).hidden_states[:, last], h)
        for near in (last - 2, last - 1):
            assert not torch.allclose(ngram(changed_at(x, near)).hidden_states[:, last], h)
        assert torch.equal(ngram(changed_at(x, last)).hidden_states[:, last], h)  # not x_t itself
        h_rnn = rnn(x).hidden_states[:, last]
        assert not torch.allclose(rnn(changed_at(x, 0)).hidden_states[:, last], h_rnn)


def test_same_seed_same_numbers_and_the_global_rng_is_left_alone():
    ids = [101, 2000, 2003, 1037, 4937]
    before = torch.random.get_rng_state()
    first = compare_models(ids, ComparisonConfig(seed=4))
    assert torch.equal(torch.random.get_rng_state(), before)
    again = compare_models(ids, ComparisonConfig(seed=4))
    other = compare_models(ids, ComparisonConfig(seed=5))
    assert list(first) == list(MODELS)
    for name in MODELS:
        assert torch.equal(first[name].hidden_states, again[name].hidden_states)
        assert first[name].gradient == again[name].gradient
        assert not torch.equal(first[name].hidden_states, other[name].hidden_states)
    assert first["birnn"].hidden_states.shape == (5, 32)
    assert first["rnn"].hidden_states.shape == (5, 16)


def tiny_models() -> dict[str, torch.nn.Module]:
    g = gen(7)
    return {
        "rnn": RecurrentModel(RecurrentConfig("rnn", 3, 2), g),
        "lstm": RecurrentModel(RecurrentConfig("lstm", 3, 2, num_layers=2), g),
        "gru": RecurrentModel(RecurrentConfig("gru", 3, 2, bidirectional=True), g),
        "ngram": NGramWindowModel(NGramConfig(3, 2, n=3), g),
        "attention": SelfAttentionLayer(AttentionConfig(4, 2, "sinusoidal"), g),
    }


@pytest.mark.parametrize("name", ["rnn", "lstm", "gru", "ngram", "attention"])
def test_gradient_over_distance_equals_finite_differences(name):
    """Central differences (float64, ε = 1e-6) of h_L in every input coordinate give the same
    Jacobian, hence the same norm per distance."""
    model = tiny_models()[name].double()
    width = 4 if name == "attention" else 3
    x = torch.randn(1, 5, width, generator=gen(2), dtype=torch.float64)
    result = gradient_over_distance(model, x)
    assert result.distances == (0, 1, 2, 3, 4) and len(result.norms) == 5
    eps, numeric = 1e-6, torch.zeros_like(last_state_jacobian(model, x))  # (d, L, E)
    with torch.no_grad():
        for t in range(5):
            for j in range(width):
                up, down = x.clone(), x.clone()
                up[0, t, j] += eps
                down[0, t, j] -= eps
                diff = model(up).hidden_states[0, -1] - model(down).hidden_states[0, -1]
                numeric[:, t, j] = diff / (2 * eps)
    torch.testing.assert_close(last_state_jacobian(model, x), numeric, rtol=1e-6, atol=1e-8)
    by_distance = numeric.pow(2).sum(dim=(0, 2)).sqrt().flip(0)
    torch.testing.assert_close(torch.tensor(result.norms, dtype=torch.float64), by_distance,
                               rtol=1e-6, atol=1e-8)  # fmt: skip
    if name == "ngram":  # the window: 0 at distance 0 (it predicts x_t) and beyond n - 1 = 2
        assert result.norms[0] == 0 and result.norms[3] == result.norms[4] == 0


def test_steps_are_counted_from_the_run_and_paths_follow_the_wiring():
    rnn = RecurrentModel(RecurrentConfig("rnn", 4, 4), gen())
    attention = SelfAttentionLayer(AttentionConfig(4, 1), gen())
    for length in (16, 64):
        assert count_steps("rnn", rnn, length, 4).sequential_steps == length
        assert count_steps("rnn", rnn, length, 4).longest_path == length
        assert count_steps("attention", attention, length, 4).sequential_steps == 1
        assert count_steps("attention", attention, length, 4).longest_path == 1
    ngram = NGramWindowModel(NGramConfig(4, 4, n=3), gen())
    assert path_lengths(ngram, 5) == (0, 0, 1, 1, 0)


def test_attention_without_positions_cannot_see_order():
    layer = SelfAttentionLayer(AttentionConfig(HIDDEN + 1, 2), gen())
    x = inputs(width=HIDDEN + 1)
    order = torch.tensor([3, 0, 6, 1, 5, 2, 4])
    with torch.no_grad():
        torch.testing.assert_close(
            layer(x[:, order]).hidden_states, layer(x).hidden_states[:, order]
        )


def test_a_tiny_recall_run_is_seeded_and_reports_every_pair():
    config = RecallConfig(distances=(2, 3), models=("ngram", "gru", "attention"), steps=3,
                          batch_size=4, targets=3, eval_sentences=8)  # fmt: skip
    before = torch.random.get_rng_state()
    first, again = recall_table(config), recall_table(config)
    assert torch.equal(torch.random.get_rng_state(), before)
    assert [(r.model, r.k) for r in first] == [(m, k) for m in config.models for k in (2, 3)]
    assert [r.accuracy for r in first] == [r.accuracy for r in again]
    assert all(0 <= r.accuracy <= 1 and r.chance == 1 / 8 for r in first)
    assert all(len(r.losses) == 3 and r.final_loss == r.losses[-1] for r in first)


def test_recall_trains_our_own_loop_too_and_the_window_model_is_at_chance_beyond_its_window():
    """fused=False trains our Python-loop cells; the n-gram window (n = 2: one token of context)
    has nothing to go on at k = 3, so it cannot beat chance by much on 8 symbols."""
    config = RecallConfig(distances=(3,), models=("rnn", "ngram"), steps=40, batch_size=8,
                          targets=4, eval_sentences=64, ngram_n=2, fused=False)  # fmt: skip
    rnn, ngram = recall_table(config)
    assert len(rnn.losses) == 40 and rnn.final_loss < rnn.losses[0]
    assert ngram.accuracy < 0.25


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: RecurrentConfig(kind="transformer"), "kind"),
        (lambda: RecurrentConfig(kind="lstm", nonlinearity="sigmoid"), "only the simple RNN"),
        (lambda: RecurrentConfig(hidden_size=0), "hidden_size"),
        (lambda: NGramConfig(n=1), "n must be at least 2"),
        (lambda: AttentionConfig(hidden_size=6, num_attention_heads=4), "divisible"),
        (lambda: RecallConfig(distances=(0,)), "distances"),
        (lambda: ComparisonConfig(n=1), "n >= 2"),
    ],
)
def test_configs_refuse_bad_values_with_a_sentence(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_configs_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        RecurrentConfig().hidden_size = 3  # type: ignore[misc]
