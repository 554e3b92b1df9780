"""MiniLM + 中文 in the app: the Train page's "Teach MiniLM Chinese", its build in a worker process
(installed where every page reads it), and the guided lesson in Chinese before and after.

The taught model here is the small one of tests/taught.py (the real recipe, 2 steps), or one built
by pressing Build with the recipe cut to a few pairs and steps (`tiny_plan`).
"""

from __future__ import annotations

import re
import time

import pytest

from explorer_core.files import taught_model
from explorer_core.inputs.parallel import builtin_parallel_pairs
from explorer_core.training.multilingual import DistillPlan, MultilingualConfig
from explorer_core.ui.training import chinese
from tests.conftest import app_test

TRAIN, LESSON = "lessons/train_model.py", "lessons/lesson.py"
HANZI = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(autouse=True)
def no_build_left_behind():
    """The build board and the admission queue are the server's (one per test process): a test
    that fails while its build still runs must not leave it to the next test, which would find
    Build disabled and its own build never started."""
    yield
    from explorer_core.ui.training import run as runs

    shared = chinese.board()
    if shared.run is not None:
        shared.run.kill()  # a run that has ended: nothing to do
        runs.admission().cancel(chinese.OWNER)
        shared.run, shared.starter = None, ""


def texts(at) -> str:
    return "\n".join(x.value for x in (*at.markdown, *at.caption, *at.info, *at.success))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_train_page_explains_and_offers_the_build_when_not_built(lang):
    at = app_test(TRAIN, state={"train.kind": "chinese", "lang": lang}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    shown = texts(at)
    assert "MSE(" in shown and "GB 2312" in shown  # the loss and the new rows are explained
    assert ("distillation" in shown) if lang == "en" else ("蒸馏" in shown)
    assert f"{len(builtin_parallel_pairs()):,}" in shown  # the data line counts the pairs
    assert at.info and ("not been built" in at.info[0].value or "还没有构建" in at.info[0].value)
    start, stop = at.button(key="train.zh.start"), at.button(key="train.zh.stop")
    assert not start.disabled and stop.disabled
    assert not at.dataframe  # no before/after table before a build


def test_train_page_shows_the_built_model_before_and_after(taught):
    at = app_test(TRAIN, state={"train.kind": "chinese"}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert "is built on this install (2 steps" in at.success[0].value
    assert at.button(key="train.zh.start").label == "Build again"
    assert len(at.get("plotly_chart")) == 3  # the installed model's own curves (its log)
    table = at.dataframe[0].value.set_index("Measure")
    before, untaught, after = table.columns
    unk = table.loc["Chinese tokens that are [UNK]"]
    assert float(unk[before].rstrip("%")) > 50  # MiniLM as it was: most Chinese is [UNK]
    assert float(unk[after].rstrip("%")) <= 0.5  # the target: at most 0.5%
    assert table.loc["Vocabulary size", before] == "30,522"
    assert int(table.loc["Vocabulary size", after].replace(",", "")) > 36_000
    english = table.loc["English dev Spearman"].astype(float)
    assert english[after] == pytest.approx(english[before], abs=0.02)  # 2 steps: English kept


def tiny_plan(out: str) -> DistillPlan:
    config = MultilingualConfig(steps=3, batch_size=8, eval_every=1)
    return DistillPlan(config, pairs=tuple(builtin_parallel_pairs()[:24]), device="cpu", out=out)


def wait_built(at, timeout: float = 300) -> None:
    """Rerun the page until the build has ended (AppTest does not poll fragments itself)."""
    deadline = time.monotonic() + timeout
    while chinese.building() and time.monotonic() < deadline:
        time.sleep(0.5)
        at.run()
    assert not chinese.building(), "the build did not end"
    at.run()


@pytest.mark.slow
def test_build_runs_in_a_worker_installs_the_model_and_draws_its_curves(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(chinese, "plan", lambda: tiny_plan(str(taught_model.folder())))
    at = app_test(TRAIN, state={"train.kind": "chinese"}, timeout=120)
    assert taught_model.built_folder() is None
    at.button(key="train.zh.start").click().run()
    assert not at.exception, [e.message for e in at.exception]
    run = chinese.current_build()
    assert run is not None and run.pid is not None  # a worker process, not the page's thread
    assert not at.button(key="train.zh.stop").disabled  # this session started it: it may stop it
    wait_built(at)
    assert run.status().state == "finished" and run.result() is None  # nothing carried back
    assert taught_model.built_folder() is not None
    done = [s.value for s in at.success]
    assert "is built on this install (3 steps" in done[0] and "Done" in done[-1]
    charts = {c.proto.id for c in at.get("plotly_chart")}
    assert len(charts) == 3  # Spearman per language, [UNK] share, the two losses
    assert at.dataframe  # the before/after table
    # another session sees the model, and cannot stop a build it did not start
    other = app_test(TRAIN, state={"train.kind": "chinese"}, timeout=120)
    assert other.button(key="train.zh.stop").disabled
    assert "is built on this install" in other.success[0].value


def test_chinese_lesson_without_the_model_says_how_to_build_it():
    at = app_test(LESSON, state={"lang": "zh", "lesson.step": 3}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert "MiniLM + 中文" in at.info[0].value and "[UNK]" in at.info[0].value
    assert at.button(key="lesson.zh.build").label == "构建 MiniLM + 中文"
    english = app_test(LESSON, state={"lang": "en", "lesson.step": 3}, timeout=120)
    assert not any(b.key == "lesson.zh.build" for b in english.button)


@pytest.mark.parametrize("step", [3, 4, 5, 8, 9, 10])
def test_chinese_lesson_reads_chinese_with_the_taught_model(taught, step):
    at = app_test(LESSON, state={"lang": "zh", "lesson.step": step}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert not any(b.key == "lesson.zh.build" for b in at.button)
    assert "MiniLM + 中文" in at.caption[-1].value  # the caption names the model
    shown = "\n".join(str(d.value.to_dict()) for d in at.dataframe)
    assert "[UNK]" not in shown  # no token, no table row, no neighbour is unknown
    assert not at.info  # the "n of m tokens are [UNK]" note is gone
    if step in (3, 4):
        tokens = at.dataframe[0].value.iloc[:, 1].tolist()
        assert tokens == ["[CLS]", "猫", "坐", "在", "垫", "子", "上", "。", "[SEP]"]
    if step == 4:  # new characters come after MiniLM's 30,522 ids; old ones keep theirs
        ids = at.dataframe[0].value.iloc[:, 2].tolist()
        assert ids[1] >= 30_522 and ids[6] == 1742  # 猫 is new, 上 was in MiniLM's vocabulary
        assert "37,264" in at.caption[-1].value or re.search(r"3\d,\d{3} 项", at.caption[-1].value)


def test_english_lesson_keeps_minilm_when_the_taught_model_exists(taught):
    at = app_test(LESSON, state={"lang": "en", "lesson.step": 4}, timeout=120)
    ids = at.dataframe[0].value.iloc[:, 2].tolist()
    assert ids == [101, 1996, 4937, 2938, 2006, 1996, 2341, 18900, 1012, 102]
    assert "all-MiniLM-L6-v2 (6 layers" in at.caption[-1].value


@pytest.mark.slow
def test_lesson_build_button_builds_and_the_lesson_switches(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(chinese, "plan", lambda: tiny_plan(str(taught_model.folder())))
    at = app_test(LESSON, state={"lang": "zh", "lesson.step": 3}, timeout=120)
    assert at.dataframe[0].value.iloc[:, 1].tolist().count("[UNK]") == 4
    at.button(key="lesson.zh.build").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.get("progress") and "MiniLM + 中文" in at.get("progress")[0].proto.text
    wait_built(at)
    assert not any(b.key == "lesson.zh.build" for b in at.button)
    tokens = at.dataframe[0].value.iloc[:, 1].tolist()
    assert "[UNK]" not in tokens and "猫" in tokens
    assert HANZI.search(at.caption[-1].value)


def test_a_queued_build_can_be_cancelled_and_started_again(monkeypatch, tmp_path):
    """With every training slot taken the build waits; Stop takes it out of the queue, and the
    page offers Build again instead of waiting for a request that is gone."""
    from explorer_core.training.admission import Admission, FakeJob
    from explorer_core.ui.training import run as runs

    gate = Admission(max_runs=1)
    gate.submit("someone else", FakeJob(), need=0)  # the one slot trains another run
    monkeypatch.setattr(runs, "admission", lambda: gate)
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(chinese, "plan", lambda: tiny_plan(str(taught_model.folder())))
    at = app_test(TRAIN, state={"train.kind": "chinese"}, timeout=120)
    at.button(key="train.zh.start").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert chinese.building() and gate.place(chinese.OWNER) == 1
    assert "number 1 in the queue" in at.get("progress")[0].proto.text
    assert at.button(key="train.zh.start").disabled
    at.button(key="train.zh.stop").click().run()
    at.run()
    assert gate.place(chinese.OWNER) is None and not chinese.building()
    assert not at.button(key="train.zh.start").disabled
    assert chinese.current_build().pid is None  # it never trained
