"""The class experiment's table and chart: Spearman by tokenizer, one point per run.

Frames first (the leaderboard and the summary, also the CSV export), the figure second. Every
text arrives as an argument, so the teacher's panel can pass English or Chinese.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict

import pandas as pd
import plotly.graph_objects as go

from explorer_core.analysis.experiment import (
    ExperimentResult,
    ExperimentSummary,
    board_score,
    head_to_head,
    summarise,
)
from explorer_core.viz.common import CATEGORICAL, style

LANG_OFFSET = 0.2  # languages side by side within a tokenizer's slot on the x axis
JITTER = 0.03  # the k-th run of a group sits at (k mod 5 - 2) x JITTER from the group's centre
REFERENCE_DASHES = ("dash", "dot", "dashdot")  # one per reference line (baseline, MiniLM, ...)
HOVER = {"nickname": "nickname", "seed": "seed", "steps": "steps", "seconds": "seconds"}


def tokenizer_label(algorithm: str, vocab_size: int) -> str:
    """The x axis' name of a tokenizer.

    >>> tokenizer_label("char-bpe", 1000)
    'char-bpe 1000'
    """
    return f"{algorithm} {vocab_size}"


def results_frame(results: Sequence[ExperimentResult], sort: bool = True) -> pd.DataFrame:
    """One row per run (`ExperimentResult.to_row`); with `sort`, the best `board_score` (mean
    test Spearman over the languages) first: the leaderboard, runs without one last.

    >>> r = [ExperimentResult("a", "word", 99, "tiny", 5, 1.0, 0, {}, {"en": 0.2}, {}),
    ...      ExperimentResult("b", "word", 99, "tiny", 5, 1.0, 1, {}, {"en": 0.4}, {})]
    >>> results_frame(r)["nickname"].tolist()
    ['b', 'a']
    """
    frame = pd.DataFrame([r.to_row() for r in results])
    if not sort or frame.empty:
        return frame
    score = pd.Series([board_score(r) for r in results], frame.index, dtype=float)
    order = score.sort_values(ascending=False, na_position="last", kind="stable").index
    return frame.loc[order].reset_index(drop=True)


def summary_frame(summary: Sequence[ExperimentSummary]) -> pd.DataFrame:
    """One row per (algorithm, vocab size, split, language): n, mean, sd, min, max, [UNK] and
    the seeds of the runs ("0, 1, 2").

    >>> r = [ExperimentResult("", "word", 99, "tiny", 5, 1.0, seed, {}, {"en": rho}, {})
    ...      for seed, rho in ((0, 0.2), (1, 0.4))]
    >>> summary_frame(summarise(r))[["algorithm", "n", "seeds"]].values.tolist()
    [['word', 2, '0, 1']]
    """
    columns = ["algorithm", "vocab_size", "split", "lang", "n", "mean", "sd", "min", "max",
               "unk_share", "seeds"]  # fmt: skip
    rows = [asdict(s) | {"seeds": ", ".join(map(str, s.seeds))} for s in summary]
    return pd.DataFrame(rows, columns=columns)


def spread_frame(results: Sequence[ExperimentResult], split: str = "test") -> pd.DataFrame:
    """The spread over seeds, compact enough for a sidebar: per tokenizer (algorithm and size)
    and language, "mean ± sd" of Spearman on `split`, the runs, min, max and their seeds.

    >>> r = [ExperimentResult("", "word", 99, "tiny", 5, 1.0, seed, {}, {"en": rho}, {})
    ...      for seed, rho in ((0, 0.2), (1, 0.4))]
    >>> spread_frame(r).values.tolist()
    [['word 99', 'en', '0.300 ± 0.141', 2, 0.2, 0.4, '0, 1']]
    """
    rows = [
        {"tokenizer": tokenizer_label(s.algorithm, s.vocab_size), "lang": s.lang,
         "mean_sd": f"{s.mean:.3f} ± {s.sd:.3f}", "n": s.n, "min": round(s.min, 3),
         "max": round(s.max, 3), "seeds": ", ".join(map(str, s.seeds))}
        for s in summarise(results) if s.split == split
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["tokenizer", "lang", "mean_sd", "n", "min", "max", "seeds"])


def head_to_head_lines(
    results: Sequence[ExperimentResult], template: str, lang_names: Mapping[str, str],
    split: str = "test",
) -> list[str]:  # fmt: skip
    """One sentence per pair of tokenizers and language (`template` with lang, higher, lower,
    wins, seeds; the page translates it): sentences wrap in a projector's narrow side column,
    where a table's last column (the count that matters) scrolls out of sight.

    >>> r = [ExperimentResult("", a, 9, "tiny", 5, 1.0, s, {}, {"en": x}, {})
    ...      for a, s, x in (("word", 0, 0.2), ("bpe", 0, 0.4), ("word", 1, 0.1), ("bpe", 1, 0.3))]
    >>> head_to_head_lines(r, "{lang}: {higher} > {lower}, {wins} of {seeds}", {"en": "English"})
    ['English: bpe 9 > word 9, 2 of 2']
    """
    return [
        template.format(lang=lang_names.get(h.lang, h.lang), higher=tokenizer_label(*h.first),
                        lower=tokenizer_label(*h.second), wins=h.wins, seeds=h.seeds)
        for h in head_to_head(results, split)
    ]  # fmt: skip


def _runs_trace(
    results: Sequence[ExperimentResult], split: str, slots: Mapping[tuple[str, int], int],
    lang: str, x0: float, colour: str, name: str, hover: Mapping[str, str],
) -> go.Scatter:  # fmt: skip
    """One point per run of `lang`, jittered deterministically within its tokenizer's slot."""
    xs, ys, data, seen = [], [], [], {}
    for r in results:
        rho = getattr(r, f"{split}_spearman").get(lang)
        if rho is None:
            continue
        key = (r.algorithm, r.vocab_size)
        k = seen[key] = seen.get(key, -1) + 1
        xs.append(slots[key] + x0 + (k % 5 - 2) * JITTER)
        ys.append(rho)
        data.append([r.nickname or "-", r.seed, r.steps, r.seconds,
                     tokenizer_label(*key)])  # fmt: skip
    template = (
        f"%{{customdata[4]}}<br>{name}: %{{y:.3f}}<br>{hover['nickname']}: %{{customdata[0]}}"
        f"<br>{hover['seed']}: %{{customdata[1]}}<br>{hover['steps']}: %{{customdata[2]}}"
        f"<br>{hover['seconds']}: %{{customdata[3]:.0f}}<extra></extra>"
    )
    return go.Scatter(
        x=xs, y=ys, mode="markers", name=name, legendgroup=lang, customdata=data,
        marker=dict(color=colour, size=8, opacity=0.6), hovertemplate=template,
    )  # fmt: skip


def experiment_figure(
    results: Sequence[ExperimentResult],
    *,
    title: str,
    x_title: str,
    y_title: str,
    split: str = "test",
    lang_names: Mapping[str, str] | None = None,
    references: Mapping[str, Mapping[str, float | None]] | None = None,
    mean_name: str = "mean ± sd",
    hover_names: Mapping[str, str] | None = None,
) -> go.Figure:
    """Spearman on `split` by tokenizer: each run a point, coloured by language, with the
    tokenizer's mean ± sd beside them, and a horizontal line per reference and language.

    `references` maps a shown name (e.g. "Lexical baseline", "MiniLM") to {lang: Spearman};
    `lang_names` and `hover_names` (keys nickname, seed, steps, seconds) translate the rest.
    Traces, in order: per language its runs, then its means; then the reference lines.
    """
    lang_names, hover = dict(lang_names or {}), {**HOVER, **(hover_names or {})}
    summary = [s for s in summarise(results) if s.split == split]
    slots = {key: i for i, key in enumerate(dict.fromkeys((s.algorithm, s.vocab_size)
                                                          for s in summary))}  # fmt: skip
    references = references or {}
    # a reference's languages count too: before the first run ends, the lines are the chart
    langs = sorted(
        {s.lang for s in summary}
        | {lang for values in references.values() for lang, v in values.items() if v is not None}
    )
    fig = go.Figure()
    for i, lang in enumerate(langs):
        x0 = (i - (len(langs) - 1) / 2) * 2 * LANG_OFFSET
        colour, name = CATEGORICAL[i % len(CATEGORICAL)], lang_names.get(lang, lang)
        means = [s for s in summary if s.lang == lang]
        if not means:  # a reference's language that no run has reached yet
            continue
        fig.add_trace(_runs_trace(results, split, slots, lang, x0, colour, name, hover))
        fig.add_trace(go.Scatter(
            x=[slots[(s.algorithm, s.vocab_size)] + x0 + 3 * JITTER for s in means],
            y=[s.mean for s in means], mode="markers", name=f"{name}: {mean_name}",
            legendgroup=lang, error_y=dict(type="data", array=[s.sd for s in means]),
            marker=dict(color=colour, size=12, symbol="diamond", line=dict(width=1)),
            customdata=[[tokenizer_label(s.algorithm, s.vocab_size), s.n, s.sd] for s in means],
            hovertemplate=f"%{{customdata[0]}}<br>{name}: %{{y:.3f}} ± %{{customdata[2]:.3f}}"
            " (n = %{customdata[1]})<extra></extra>",
        ))  # fmt: skip
    span = [-0.5, max(len(slots), 1) - 0.5]
    fig.add_traces(_reference_traces(references, langs, lang_names, span))
    style(fig, title=title, x_title=x_title, y_title=y_title, height=460)
    fig.update_xaxes(tickvals=list(slots.values()),
                     ticktext=[tokenizer_label(*key) for key in slots], range=span,
                     showgrid=False, zeroline=False)  # fmt: skip  # slots, not a number line
    return fig


def _reference_traces(
    references: Mapping[str, Mapping[str, float | None]], langs: Sequence[str],
    lang_names: Mapping[str, str], span: list[float],
) -> list[go.Scatter]:  # fmt: skip
    """A horizontal line across the chart per reference and language (in the language's colour,
    one dash pattern per reference), in the legend and with its value on hover."""
    traces = []
    for j, (ref, values) in enumerate(references.items()):
        for i, lang in enumerate(langs):
            value = values.get(lang)
            if value is None:
                continue
            label = f"{ref} ({lang_names.get(lang, lang)})"
            traces.append(go.Scatter(
                x=span, y=[value, value], mode="lines", name=label, legendgroup=lang,
                line=dict(color=CATEGORICAL[i % len(CATEGORICAL)],
                          dash=REFERENCE_DASHES[j % len(REFERENCE_DASHES)], width=1.5),
                hovertemplate=f"{label}: %{{y:.3f}}<extra></extra>",
            ))  # fmt: skip
    return traces
