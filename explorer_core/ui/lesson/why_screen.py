"""The guided lesson's last screen, "why attention": the lesson's own sentence through an RNN and
one attention layer (the Sequence models page's numbers, `ui.sequence.calls`): sequential steps
and the longest path for its L, and ‖∂h_L/∂x_t‖ by distance for both."""

from __future__ import annotations

import pandas as pd

from explorer_core.sequence.compare import ComparisonConfig
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.lesson.frame import Lesson
from explorer_core.ui.sequence import calls as seq
from explorer_core.viz import sequence as viz

SEED, WINDOW = 0, 3  # the Sequence models page's defaults: the same numbers there


def screen_why(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    ids = tuple(lesson.row.ids)
    length = len(ids)
    vocab_size = max(ComparisonConfig().vocab_size, max(ids) + 1)  # a taught or opened model's
    run = seq.comparison(ids, min(WINDOW, length + 1), SEED, vocab_size)
    counts = seq.step_counts(length)
    names = {"rnn": t("seq.model.rnn"), "attention": t("seq.model.attention")}
    left.dataframe(pd.DataFrame({
        t("seq.steps.col.model"): [names[c.model] for c in counts],
        t("seq.steps.col.steps"): [c.sequential_steps for c in counts],
        t("seq.steps.col.path"): [c.longest_path for c in counts],
    }), hide_index=True)  # fmt: skip
    rnn, attention = run.gradients["rnn"], run.gradients["attention"]
    left.markdown(t("lesson.why.numbers", n=length, rnn=f"{rnn[-1]:.1e}",
                    attn=f"{attention[-1]:.1e}"))  # fmt: skip
    series = {names[m]: (list(range(length)), list(run.gradients[m])) for m in names}
    fig = viz.lines_figure(series, title=t("lesson.why.title", n=length), x_title=t("seq.grad.x"),
                           y_title=t("seq.grad.y"), log_y=True)  # fmt: skip
    show_chart(fig, "lesson.chart.why", right)
    source = t("lesson.why.tokens") + " " + lesson.source  # the source line names the model
    right.caption(t("lesson.why.caption", n=length, seed=SEED) + " " + source)
