"""What the Sequence models page adds to the core: the run's records, timed steps, the recall
task's networks and their gradients, the reach question."""

from __future__ import annotations

import pytest
import torch

from explorer_core.analysis import quiz
from explorer_core.sequence import cost, recall
from explorer_core.sequence.compare import ComparisonConfig, compare_models

IDS = [3, 17, 5, 9, 41, 2, 8]  # seven tokens of a vocabulary of 99: odd sizes catch mix-ups


def test_compare_keeps_each_runs_records_for_row_zero():
    views = compare_models(IDS, ComparisonConfig(vocab_size=99, embedding_size=6, n=3, seed=1))
    gates = {k: v for k, v in views["lstm"].records.items() if k.split(".")[1] in "ifgo"}
    assert set(gates) == {"l0.i", "l0.f", "l0.g", "l0.o"}
    assert all(v.shape == (7, 6) for v in gates.values())
    assert 0 <= float(views["lstm"].records["l0.f"].min()) <= 1.0
    assert views["attention"].records["weights"].shape == (1, 7, 7)  # heads, T, T
    assert torch.allclose(views["attention"].records["weights"].sum(-1), torch.ones(1, 7))
    assert {"l0.r", "l0.z", "l0.n"} <= set(views["gru"].records)


def test_timed_steps_count_steps_and_paths_and_time_every_model():
    rows = cost.timed_steps(lengths=(3, 5), width=4, repeat=1)
    assert [(r.model, r.length) for r in rows] == [
        (m, n) for n in (3, 5) for m in cost.TIMED
    ]  # fmt: skip
    assert [r.sequential_steps for r in rows] == [3, 3, 1, 5, 5, 1]
    assert [r.longest_path for r in rows] == [3, 3, 1, 5, 5, 1]
    assert all(r.seconds > 0 for r in rows)
    with pytest.raises(ValueError, match="width even"):
        cost.timed_steps(width=3)


TINY = recall.RecallConfig(distances=(2,), steps=2, batch_size=3, eval_sentences=5,
                           hidden_size=6, targets=3, seed=2)  # fmt: skip


def test_train_net_is_train_one_and_starts_from_fresh_net():
    net, result = recall.train_net("gru", 2, TINY)
    assert result.accuracy == recall.train_one("gru", 2, TINY).accuracy
    symbols = torch.tensor([1, 4, 0, 7, 3])
    before = recall.net_gradient(recall.fresh_net("gru", TINY), symbols)
    again = recall.net_gradient(recall.fresh_net("gru", TINY), symbols)
    after = recall.net_gradient(net, symbols)
    assert before == again and before.distances == (0, 1, 2, 3, 4)
    assert before.norms != after.norms  # two Adam steps moved the weights


def test_longest_recalled_reads_the_largest_k_that_reached_the_threshold():
    rows = [recall.RecallResult(m, k, acc, 0.125, 0.0, 0.0)
            for m, k, acc in (("rnn", 5, 0.9), ("rnn", 10, 0.6), ("rnn", 20, 0.1),
                              ("ngram", 5, 0.3))]  # fmt: skip
    assert recall.longest_recalled(rows) == {"rnn": 10, "ngram": None}


def test_reach_question_answers_the_largest_norm_and_refuses_bad_input():
    question = quiz.reach_question({"rnn": 1e-12, "lstm": 3e-6, "attention": 0.05}, 30)
    assert question.options == ("rnn", "lstm", "attention") and question.answer == "attention"
    assert quiz.grade_reach(question, "attention") and not quiz.grade_reach(question, "rnn")
    with pytest.raises(ValueError, match="two tokens"):
        quiz.reach_question({"rnn": 1.0, "attention": 1.0}, 0)
    with pytest.raises(ValueError, match="two models"):
        quiz.reach_question({"rnn": 1.0}, 3)
