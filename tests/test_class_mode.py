"""Class mode through the app (AppTest): start and join by link, the join form, polls asked from a
page's "Predict first" question, reveal, follow the teacher, the experiment's leaderboard, and
every way it can go wrong in one line. Each test has its own SQLite class database."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from explorer_core.classroom import ClassStore
from tests.links import open_with


@pytest.fixture
def class_db(tmp_path, monkeypatch):
    """A fresh SQLite class database for this test (the app reads EXPLORER_CLASS_DB)."""
    url = f"sqlite:///{tmp_path / 'classes.db'}"
    monkeypatch.setenv("EXPLORER_CLASS_DB", url)
    store = ClassStore(url)
    yield store
    store.dispose()


def open_app(params: dict[str, str] | None = None, state: dict | None = None) -> AppTest:
    """The app opened from a link with `params` (no exception on the way)."""
    return open_with("app.py", params or {}, state)


def start_class() -> AppTest:
    teacher = open_app({"class": "new"})
    assert teacher.session_state["class.seat"].teacher
    return teacher


def everything_said(at: AppTest) -> str:
    parts = [*at.markdown, *at.text, *at.caption, *at.info, *at.success, *at.warning, *at.error]
    return "\n".join(str(p.value) for p in parts)


def button(at: AppTest, key: str):
    found = [b for b in at.button if b.key == key]
    assert found, f"no button {key}: {[b.key for b in at.button]}"
    return found[0]


def test_a_class_starts_from_a_link_and_students_join_by_link(class_db):
    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    assert teacher.query_params["class"] == seat.code
    assert teacher.query_params["teacher"] == seat.secret
    assert seat.code in everything_said(teacher)
    assert "Nobody has joined yet." in everything_said(teacher)

    ann = open_app({"class": seat.code.lower(), "name": "  Ann\u200b "})
    mine = ann.session_state["class.seat"]
    assert (mine.code, mine.nickname, mine.teacher) == (seat.code, "Ann", False)
    assert ann.query_params["seat"] == mine.token and "name" not in ann.query_params
    assert "teacher" not in ann.query_params  # a student's link never carries the secret

    teacher.run()
    assert "Joined: 1" in everything_said(teacher)
    assert any(t.value == "Ann" for t in teacher.sidebar.text)


def test_a_nickname_made_of_markup_shows_as_text(class_db):
    seat = start_class().session_state["class.seat"]
    evil = "<b>x</b><img src=x>"
    student = open_app({"class": seat.code, "name": evil})
    assert student.session_state["class.seat"].nickname == evil
    assert any(evil in t.value for t in student.text)  # st.text: never parsed as markup
    assert all(evil not in m.value for m in student.markdown)


def test_the_join_form_opens_on_a_linked_code_and_says_what_went_wrong(class_db):
    seat = start_class().session_state["class.seat"]
    open_app({"class": seat.code, "name": "Ann"})
    form = open_app({"class": seat.code})
    assert form.text_input(key="class.join.code").value == seat.code
    form.text_input(key="class.join.name").input("ann")  # taken, whatever the case
    form.button[[b.label for b in form.button].index("Join")].click().run()
    assert "Choose another nickname" in everything_said(form)
    assert "class.seat" not in form.session_state

    form.text_input(key="class.join.code").input("ZZZZZ")
    form.text_input(key="class.join.name").input("Bea")
    form.button[[b.label for b in form.button].index("Join")].click().run()
    assert "There is no class with the code ZZZZZ" in everything_said(form)
    assert not form.exception


def test_a_closed_class_and_a_full_class_each_say_so_in_one_line(class_db, monkeypatch):
    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    student = open_app({"class": seat.code, "name": "Ann"})
    button(teacher, "class.t.close").click().run()
    button(teacher, "class.t.close_sure").click().run()
    assert "class.seat" not in teacher.session_state
    assert "The class is closed" in everything_said(teacher)
    student.run()
    assert "class.seat" not in student.session_state
    assert "is gone" in everything_said(student)
    late = open_app({"class": seat.code, "name": "Bea"})
    assert "closed by its teacher" in everything_said(late) or "no class" in everything_said(late)

    monkeypatch.setenv("EXPLORER_CLASS_LIMIT", "1")
    small = ClassStore.from_settings()
    info, _ = small.create_class()
    small.join(info.code, "One")
    full = open_app({"class": info.code, "name": "Two"})
    assert "is full (1 students)" in everything_said(full)


def test_an_unreachable_database_leaves_the_app_working(monkeypatch):
    monkeypatch.setenv("EXPLORER_CLASS_DB", "postgresql+psycopg://nobody@127.0.0.1:9/none")
    at = open_app({"class": "new"})
    said = everything_said(at)
    assert "Class mode is unavailable right now" in said
    assert at.title[0].value == "Embedding Explorer"  # the home page drew as always
    assert "class.seat" not in at.session_state


def test_a_poll_from_a_page_reaches_a_student_and_the_reveal_grades_it(class_db):
    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    ann = open_app({"class": seat.code, "name": "Ann"})
    teacher.switch_page("lessons/bert_inputs.py").run()
    teacher.toggle(key="inputs.predict").set_value(True).run()
    button(teacher, "inputs.ask_class").click().run()
    assert "your class sees this question now" in everything_said(teacher)
    poll_id = class_db.pulse(seat.code).poll_id
    poll = class_db.poll(seat.code, poll_id)
    assert poll.payload["kind"] == "mask" and poll.payload["answer"]

    ann.run()  # the student's bar (its own fragment reruns every 3 s in a browser)
    said = everything_said(ann)
    assert "Question from your teacher" in said
    items = poll.payload["items"]
    truth = poll.payload["answer"].split(",")
    for (pos, _), kind in zip(items, truth, strict=True):
        ann.get("button_group")  # the segmented controls of the mask poll
        control = [w for w in ann.get("button_group") if w.key == f"class.s.answer.{poll_id}.{pos}"]
        control[0].set_value(kind)
    button(ann, f"class.s.answer.{poll_id}.send").click().run()
    assert "Your answer is in" in everything_said(ann)
    assert class_db.tally(seat.code, poll_id).answered == 1

    teacher.run()
    assert "1 of 1 answered" in everything_said(teacher)
    button(teacher, "class.t.reveal").click().run()
    ann.run()
    assert "Right!" in everything_said(ann)
    assert class_db.scores(seat.code) == [("Ann", 1)]


def test_students_follow_the_teacher_and_keep_their_own_work(class_db):
    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    own = "my own corpus, pasted in the Tokenizer Lab"
    ann = open_app({"class": seat.code, "name": "Ann"}, state={"tok.train.paste": own})
    teacher.switch_page("lessons/attention.py").run()
    teacher.session_state["attn.layer"] = 3
    teacher.run()
    button(teacher, "class.t.bring").click().run()
    pulse = class_db.pulse(seat.code)
    assert pulse.follow_target.startswith("attention") and "attn.layer=3" in pulse.follow_target
    assert seat.secret not in pulse.follow_target and "teacher" not in pulse.follow_target

    ann.run()
    assert "Your teacher is showing Attention" in everything_said(ann)
    button(ann, "class.s.go").click().run()
    assert not ann.exception, [e.message for e in ann.exception]
    assert ann.session_state["attn.layer"] == 3
    assert ann.session_state["tok.train.paste"] == own
    assert any(e.value.startswith("Attention") for e in ann.title)


def test_start_acts_in_its_own_click_and_refuses_a_bad_form(class_db):
    """Start and Stop are callbacks: they act at the start of the click's run, whatever kind of
    run that is, so the same run already draws the experiment (or why it did not start)."""
    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    teacher.text_input(key="class.t.exp.seeds").input("0, x")
    button(teacher, "class.t.exp.start").click().run()
    assert class_db.pulse(seat.code).experiment_id is None
    assert any("seed" in w.value.lower() for w in teacher.warning), everything_said(teacher)
    teacher.text_input(key="class.t.exp.seeds").input("0")
    teacher.text_input(key="class.t.exp.vocabs").input("12x")
    button(teacher, "class.t.exp.start").click().run()
    assert class_db.pulse(seat.code).experiment_id is None
    assert any("100" in w.value for w in teacher.warning), everything_said(teacher)
    teacher.text_input(key="class.t.exp.vocabs").input("300")
    button(teacher, "class.t.exp.start").click().run()
    assert not teacher.exception, [e.message for e in teacher.exception]
    assert class_db.pulse(seat.code).experiment_id is not None
    assert "is on: each student's next training run" in everything_said(teacher)
    button(teacher, "class.t.exp.stop").click().run()
    assert class_db.pulse(seat.code).experiment_id is None
    assert "Start the experiment" in [b.label for b in teacher.button]


def test_the_experiment_assigns_tokenizers_and_fills_the_leaderboard(class_db):
    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    teacher.multiselect(key="class.t.exp.algos").set_value(["char-bpe", "wordpiece"])
    teacher.text_input(key="class.t.exp.vocabs").input("300")
    button(teacher, "class.t.exp.start").click().run()
    assert class_db.pulse(seat.code).experiment_id is not None

    ann = open_app({"class": seat.code, "name": "Ann"})
    ann.switch_page("lessons/train_model.py").run()
    assert not ann.exception, [e.message for e in ann.exception]
    assert ann.session_state["train.algo"] == "char-bpe"
    # 300 cannot hold the characters of the training sentences (what the experiment trains its
    # tokenizer on, as `experiment tokenizers`): raised to the smallest hundred that can
    from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
    from explorer_core.tokenization.base import VocabTooSmall
    from explorer_core.training.experiment import train_tokenizer

    size = ann.session_state["train.vocab_size"]
    sentences = [s for p in split_pairs(builtin_sts_pairs())["train"]
                 for s in (p.sentence1, p.sentence2)]  # fmt: skip
    assert size % 100 == 0 and size > 300
    train_tokenizer("char-bpe", size, sentences)
    with pytest.raises(VocabTooSmall):
        train_tokenizer("char-bpe", size - 100, sentences)
    assert "Assigned by the class experiment: char-bpe" in everything_said(ann)
    assert "the smallest that works" in everything_said(ann)
    bea = open_app({"class": seat.code, "name": "Bea"})
    bea.switch_page("lessons/train_model.py").run()
    assert bea.session_state["train.algo"] == "wordpiece"  # round robin

    row = {"algorithm": "char-bpe", "vocab_size": 300, "preset": "tiny", "steps": 40,
           "seconds": 12.5, "seed": 0, "dev_spearman_en": 0.61, "test_spearman_en": 0.58,
           "test_spearman_zh": 0.55, "unk_share_zh": 0.0}  # fmt: skip
    class_db.post_result(seat.code, ann.session_state["class.seat"].token, row)
    teacher.run()
    assert "Leaderboard · runs: 1" in everything_said(teacher)
    board = next(d.value for d in teacher.dataframe if "nickname" in d.value.columns)
    assert board.iloc[0]["nickname"] == "Ann" and board.iloc[0]["test en"] == pytest.approx(0.58)
    assert board.iloc[0]["seed"] == 0 and board.iloc[0]["steps"] == 40
    assert "Head to head" not in everything_said(teacher)  # one tokenizer: no pair yet

    class_db.post_result(seat.code, bea.session_state["class.seat"].token,
                         row | {"algorithm": "wordpiece", "test_spearman_en": 0.5,
                                "test_spearman_zh": None})  # fmt: skip
    teacher.run()
    said = everything_said(teacher)
    assert "Head to head, seed by seed" in said
    assert "English: **char-bpe 300** above wordpiece 300 with **1 of 1** seeds" in said
    assert "Chinese: " not in said  # Bea has no Chinese score: no pair there


def test_a_controlled_experiment_trains_the_teachers_settings_not_the_students(class_db):
    """Ann set her own budget, seed, sizes and objective; the experiment's preset, steps and seed
    win, the widgets say so (locked), and her run trains exactly the teacher's steps. The
    board then shows the fixed settings and the spread over seeds."""
    from tests.models import wait_for_end

    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    ann = open_app({"class": seat.code, "name": "Ann"})
    ann.switch_page("lessons/train_model.py").run()
    ann.toggle(key="train.edit").set_value(True).run()
    for key, value in {"train.budget": 30, "train.seed": 7, "train.hidden": 64}.items():
        ann.number_input(key=key).set_value(value)
    ann.radio(key="train.objective").set_value("pretrain+finetune").run()
    assert ann.session_state["train.seed"] == 7 and not ann.exception

    teacher.multiselect(key="class.t.exp.algos").set_value(["byte-bpe"])
    teacher.text_input(key="class.t.exp.vocabs").input("300")
    teacher.number_input(key="class.t.exp.steps").set_value(6)
    teacher.text_input(key="class.t.exp.seeds").input("4, 5").run()
    assert "2 runs cover the grid (1 tokenizers × 2 seeds)" in everything_said(teacher)
    button(teacher, "class.t.exp.start").click().run()
    assert not teacher.exception, [e.message for e in teacher.exception]

    ann.run()
    assert not ann.exception, [e.message for e in ann.exception]
    state = ann.session_state
    assert (state["train.preset"], state["train.fine_steps"], state["train.budget"],
            state["train.seed"], state["train.objective"], state["train.hidden"],
            state["train.edit"]) == ("tiny", 6, 0, 4, "finetune", 128, False)  # fmt: skip
    assert ann.selectbox(key="train.preset").disabled
    assert ann.number_input(key="train.fine_steps").disabled
    assert ann.number_input(key="train.budget").disabled
    assert "exactly **6** fine-tuning steps" in everything_said(ann)
    assert "vocabulary **300**, seed **4**, 6 steps" in everything_said(ann)  # the class bar
    ann.button(key="train.start").click().run()
    assert not ann.exception, [e.message for e in ann.exception]
    plan = state["train.run"].plan
    assert (plan.pretrain, plan.finetune.steps, plan.finetune.time_budget, plan.seed) == (
        None, 6, None, 4)  # fmt: skip
    # the tokenizer of `experiment tokenizers`: trained on the training pairs' sentences alone
    from explorer_core.training.experiment import train_tokenizer

    sentences = [s for p in plan.train_pairs for s in (p.sentence1, p.sentence2)]
    assert plan.tokenizer.vocab == train_tokenizer("byte-bpe", 300, sentences).vocab
    wait_for_end(ann)
    assert not ann.exception, [e.message for e in ann.exception]
    [posted] = class_db.results(seat.code)
    assert (posted["algorithm"], posted["preset"], posted["steps"], posted["seed"]) == (
        "byte-bpe", "tiny", 6, 4)  # fmt: skip

    bea = open_app({"class": seat.code, "name": "Bea"})
    bea.switch_page("lessons/train_model.py").run()
    assert bea.session_state["train.seed"] == 5  # the grid's next cell: the same tokenizer
    assert bea.session_state["train.algo"] == "byte-bpe"

    teacher.run()
    said = everything_said(teacher)
    assert "Controlled experiment: every run trains preset **tiny** for exactly **6**" in said
    spread = next(d.value for d in teacher.dataframe if "mean ± sd" in d.value.columns)
    assert spread.iloc[0][["runs", "seeds"]].tolist() == [1, "4"]
    assert spread.iloc[0]["mean ± sd"].endswith("± 0.000")  # one run: no spread yet

    button(teacher, "class.t.exp.stop").click().run()  # Ann's own settings come back
    ann.run()
    assert (
        state["train.budget"],
        state["train.seed"],
        state["train.objective"],
        state["train.hidden"],
        state["train.edit"],
    ) == (30, 7, "pretrain+finetune", 64, True)
    assert not ann.number_input(key="train.fine_steps").disabled


def test_a_students_result_stays_on_her_train_page_with_its_place_score_and_board(class_db):
    """Issue 37: "Your result is on the class leaderboard" was a toast, gone in seconds. Now the
    Train page keeps a card: her place of how many runs (the board's order: mean test Spearman
    over the languages, higher first), her score, her run, and the board behind a switch. The
    place follows the runs posted after hers; a newer experiment's board drops the card."""
    from explorer_core.analysis.experiment import ExperimentResult, board_score
    from explorer_core.training.controlled import ExperimentSettings
    from tests.models import wait_for_end

    teacher = start_class()
    seat = teacher.session_state["class.seat"]
    class_db.start_experiment(seat.code, seat.secret, ["byte-bpe"], [300],
                              ExperimentSettings("tiny", 6, (4, 5)))  # fmt: skip
    kid = class_db.join(seat.code, "Kid")
    class_db.assignment(seat.code, kid.token)
    row = {"algorithm": "byte-bpe", "vocab_size": 300, "preset": "tiny", "steps": 6,
           "seconds": 3.0, "seed": 4}  # fmt: skip
    class_db.post_result(seat.code, kid.token, row | {"test_spearman_en": -0.99})  # below hers
    ann = open_app({"class": seat.code, "name": "Ann"})
    ann.switch_page("lessons/train_model.py").run()
    ann.button(key="train.start").click().run()
    wait_for_end(ann)
    assert not ann.exception, [e.message for e in ann.exception]
    posted = next(r for r in class_db.results(seat.code) if r["nickname"] == "Ann")
    score = board_score(ExperimentResult.from_row(posted))
    said = everything_said(ann)
    assert "Your result is on the class leaderboard: place **1** of 2 runs." in said
    assert f"**{score:.3f}**" in said and "Your run: byte-bpe, vocabulary" in said
    assert f"seed {posted['seed']}, 6 steps" in said

    ann.run()  # later runs of the page: the card stays (the toast was once)
    assert "place **1** of 2 runs" in everything_said(ann)
    ann.toggle(key="class.s.board").set_value(True).run()
    board = next(d.value for d in ann.dataframe if "nickname" in d.value.columns)
    assert board["nickname"].tolist() == ["Ann", "Kid"]

    bea = class_db.join(seat.code, "Bea")
    class_db.assignment(seat.code, bea.token)
    class_db.post_result(seat.code, bea.token, row | {"test_spearman_en": 0.99})  # above hers
    ann.run()
    assert "place **2** of 3 runs" in everything_said(ann)

    class_db.start_experiment(seat.code, seat.secret, ["word"], [300], ExperimentSettings())
    ann.run()
    assert "Your result is on the class leaderboard" not in everything_said(ann)
    assert not ann.exception, [e.message for e in ann.exception]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_class_pages_speak_both_languages(class_db, lang):
    teacher = open_app({"class": "new", "lang": lang})
    seat = teacher.session_state["class.seat"]
    student = open_app({"class": seat.code, "name": "Ann", "lang": lang})
    head = {"en": "Your class", "zh": "你的课堂"}[lang]
    assert head in everything_said(teacher)
    assert {"en": "Leave the class", "zh": "退出课堂"}[lang] in [b.label for b in student.button]


def test_guessing_room_codes_is_slowed_down(class_db):
    """A browser that types wrong codes one after another is told to wait, in one line."""
    form = open_app()
    join = [b.label for b in form.button].index("Join")
    for i in range(21):
        form.text_input(key="class.join.code").input(f"ZZZ{i:02d}")
        form.text_input(key="class.join.name").input("Guesser")
        form.button[join].click().run()
    assert "Too many wrong codes from here" in everything_said(form)
    assert not form.exception
