"""AppTest of the Sequence models page: every view in English and Chinese, the numbers equal the
core's, the Predict-first question and its class poll, the recall run, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer_core.analysis import quiz, quiz_poll
from explorer_core.sequence.compare import ComparisonConfig, compare_models
from explorer_core.sequence.recall import RecallConfig
from explorer_core.ui.sequence import calls
from tests.charts import figure_with_title, figures, plot_array
from tests.conftest import app_test
from tests.translation import untranslated

PAGE = "lessons/sequence_models.py"
# a run of seconds: 5 models × 2 distances, a handful of steps (the page's default takes ~1 min)
TINY = RecallConfig(distances=(5, 10), steps=3, batch_size=4, eval_sentences=8, hidden_size=8,
                    targets=4, seed=3)  # fmt: skip


@pytest.fixture(scope="module")
def page():
    """One AppTest shared by the tests below; each test sets what it needs."""
    at = app_test(PAGE)
    assert not at.exception
    return at


def core_views(at, n: int = 3, seed: int = 0):  # noqa: ANN001, ANN201 - an AppTest; the core's
    ids = calls.sentence(at.session_state["seq.text"], chinese_ui=False).ids
    return compare_models(list(ids), ComparisonConfig(n=n, seed=seed))


def test_hidden_states_are_the_cores_with_gates_and_the_window(page):
    page.session_state["seq.view"] = "states"
    page.run()
    assert not page.exception and not page.error
    charts = figures(page)
    assert len(charts) == 3  # the six models in one chart, the gate strips in one, the window
    views = core_views(page)
    grid = figure_with_title(page, "Hidden states h_1")
    assert len(grid["data"]) == 6  # a heatmap per model, each on its own axes and scale
    rnn = next(trace for trace in grid["data"] if trace["name"].startswith("RNN: h_1"))
    z = np.array(plot_array(rnn["z"]))
    assert np.allclose(z, views["rnn"].hidden_states.numpy(), atol=1e-6)
    assert rnn["zmax"] == pytest.approx(np.abs(z).max()) and rnn["zmin"] == -rnn["zmax"]
    axes = {trace["xaxis"] for trace in grid["data"]} | {trace["yaxis"] for trace in grid["data"]}
    assert len(axes) == 12
    assert grid["layout"]["xaxis5"]["title"]["text"] == "hidden unit"  # the bottom row's
    left, right = grid["data"][:2]  # side by side, each with its colour bar at its right
    assert left["colorbar"]["x"] < 0.5 < right["colorbar"]["x"] and rnn["y"][1] == "1 · cat"
    birnn = next(trace for trace in grid["data"] if trace["name"].startswith("Bidirectional RNN"))
    assert np.array(plot_array(birnn["z"])).shape == (11, 32)  # 2d wide
    gates = figure_with_title(page, "Gates per token")
    lstm, gru = gates["data"]
    assert lstm["name"].startswith("LSTM gates") and gru["name"].startswith("GRU gates")
    assert len(lstm["y"]) == 4 and len(gru["y"]) == 3 and lstm["zmin"] == gru["zmin"] == -1
    for trace, kind, names in ((lstm, "lstm", calls.LSTM_GATES), (gru, "gru", calls.GRU_GATES)):
        core = [views[kind].records[f"l0.{g}"].mean(dim=-1).numpy() for g in names]
        assert np.allclose(np.array(plot_array(trace["z"])), np.stack(core), atol=1e-6), kind
    window = figure_with_title(page, "What position t can read")["data"][0]
    window = np.array(plot_array(window["z"]))
    assert window[5].tolist() == [0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0]  # t = 5 reads 3 and 4
    assert any("seed 0" in c.value for c in page.caption)


def test_steps_view_counts_steps_and_paths_and_times_them(page):
    page.session_state["seq.view"] = "steps"
    page.run()
    assert not page.exception
    frame = page.dataframe[0].value
    assert list(frame.iloc[:, 1]) == [16] * 3 + [64] * 3 + [256] * 3
    assert list(frame.iloc[:, 2]) == [16, 16, 1, 64, 64, 1, 256, 256, 1]  # sequential steps
    assert list(frame.iloc[:, 3]) == [16, 16, 1, 64, 64, 1, 256, 256, 1]  # longest path
    assert (frame.iloc[:, 4] > 0).all()
    chart = figure_with_title(page, "measured on this server now")
    assert chart["layout"]["yaxis"]["type"] == "log" and len(chart["data"]) == 3
    assert any("Measured on this server at" in c.value for c in page.caption)


def test_gradient_view_draws_the_cores_norms_and_says_training_is_not_run_yet(page):
    page.session_state["seq.view"] = "gradient"
    page.session_state["seq.predict"] = False
    page.run()
    assert not page.exception
    (chart,) = figures(page)
    views = core_views(page)
    by_name = {trace["name"]: trace for trace in chart["data"]}
    assert set(by_name) == {"RNN", "LSTM", "GRU", "Self-attention"}
    rnn = [y for y in plot_array(by_name["RNN"]["y"])]
    assert rnn == pytest.approx(list(views["rnn"].gradient.norms), rel=1e-6)
    assert chart["layout"]["yaxis"]["type"] == "log"
    assert any("Run the recall task" in i.value for i in page.info)


def test_predict_first_hides_the_gradient_until_reveal_and_is_a_class_poll(page):
    page.session_state["seq.view"] = "gradient"
    page.session_state["seq.predict"] = True
    page.run()
    assert not page.exception and not figures(page)
    (radio,) = [r for r in page.radio if ".answer." in r.key]
    assert radio.options == ["RNN", "LSTM", "GRU", "Self-attention"]
    views = core_views(page)
    question = quiz.reach_question({m: views[m].gradient.norms[-1] for m in calls.GRADIENT_MODELS},
                                   distance=10)  # fmt: skip
    radio.set_value(question.answer).run()
    page.button("seq.reveal").click().run()
    assert not page.exception and page.success and len(figures(page)) == 1
    labels = ["RNN", "LSTM", "GRU", "Self-attention · 自注意力"]
    poll = quiz_poll.check(quiz_poll.reach_poll(question, labels))
    assert poll["kind"] == "reach" and quiz_poll.is_right(poll, question.answer)
    assert not quiz_poll.is_right(poll, "rnn" if question.answer != "rnn" else "lstm")
    page.session_state["seq.predict"] = False


def test_recall_run_trains_in_a_thread_and_draws_accuracy_by_k(page, monkeypatch):
    monkeypatch.setattr(calls, "RECALL", TINY)
    page.session_state["seq.view"] = "recall"
    page.run()
    assert not page.exception and any("press the button" in i.value for i in page.info)
    page.button("seq.recall.start").click().run()
    assert not page.exception
    run = calls.recall_run()
    run.thread.join(timeout=120)
    assert run.finished and not run.error and len(run.results) == 10
    page.run()
    chart = figure_with_title(page, "Recall the token k steps back")
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["n-gram window", "RNN", "LSTM", "GRU", "Self-attention", "chance"]
    accuracy = plot_array(chart["data"][0]["y"])
    assert accuracy == [r.accuracy for r in run.results if r.model == "ngram"]
    assert any("What this run showed" in c.value for c in page.caption)
    page.session_state["seq.view"] = "gradient"
    page.run()
    trained = figure_with_title(page, "Before and after training")
    assert len(trained["data"]) == 8  # four models, before (dashed) and after
    assert trained["data"][0]["line"]["dash"] == "dash"


def test_chinese_page_cuts_the_chinese_default_into_characters():
    at = app_test(PAGE, state={"lang": "zh"})
    assert not at.exception and not at.error
    assert at.title[0].value.startswith("注意力之前")
    assert at.session_state["seq.text"] == "猫坐在垫子上，因为它累了。"
    grid = figure_with_title(at, "隐藏状态")
    titled = {trace["name"].split("：")[0]: trace for trace in grid["data"]}
    labels = titled["循环网络 RNN"]["y"]
    assert len(labels) == 13 and labels[4] == "4 · 子" and labels[6] == "6 · ，"
    # MiniLM's vocabulary lacks most Chinese characters (MiniLM + 中文 is not built in tests)
    assert any("[UNK]" in i.value and "MiniLM + 中文" in i.value for i in at.info)
    assert not untranslated(at), untranslated(at)
    for view in ("steps", "gradient", "recall"):
        at.session_state["seq.view"] = view
        at.run()
        assert not at.exception, view
        assert not untranslated(at), (view, untranslated(at))


@pytest.mark.parametrize(
    ("state", "where", "says"),
    [({"seq.text": "   "}, "warning", "empty"),
     ({"seq.text": "cat", "seq.window": 5}, "error", "reads 4 tokens but the sentence has only 1")],
    ids=["empty", "window-longer-than-text"],
)  # fmt: skip
def test_bad_input_gives_one_line_not_a_traceback(state, where, says):
    at = app_test(PAGE, state=state)
    assert not at.exception, [e.message for e in at.exception]
    lines = getattr(at, where)
    assert len(lines) == 1 and says in lines[0].value, [w.value for w in lines]
    assert not figures(at)


def test_a_window_as_long_as_the_text_is_fine():
    at = app_test(PAGE, state={"seq.text": "the cat", "seq.window": 3})
    assert not at.exception and not at.error
    window = plot_array(figure_with_title(at, "What position t can read")["data"][0]["z"])
    assert window == [[0, 0], [1, 0]]  # "cat" reads "the"; "the" reads nothing
    assert all("NaN" not in json.dumps(f) for f in figures(at))
