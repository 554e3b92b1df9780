"""The Decoder page's panels: the settings (a validated `LMTrainConfig`), the live run (a polled
fragment: status, loss against ln V and the bigram, samples newest first), and the trained
decoder (next-token bars under temperature, top-k, top-p; a continuation; the saved folder and
its zip). Widget keys "dec.*"; the maths is `explorer_core.decoder`'s, the figures
`viz.decoder`'s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core.decoder import LMTrainConfig
from explorer_core.ui.decoder import calls
from explorer_core.ui.export import download, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind
from explorer_core.ui.state import url_synced
from explorer_core.ui.throttle import script_slot
from explorer_core.viz import decoder as viz

LANGS = ("en", "zh", "both")
# more often than the core's defaults (50, 200): a minute on a loaded classroom server is ~250
# steps, and the curve should have points and the samples should visibly move (a sample is
# 30 tokens of a tiny model: cheaper than a training step's batch)
EVAL_EVERY, SAMPLE_EVERY = 10, 25
OPEN_KEY = "dec.open_link"  # True: "Open it on Inside the encoder" could not switch; a link


def settings_panel(locked: bool) -> LMTrainConfig | None:
    """The run's settings; None (with the reason shown) when the core refuses them."""
    st.subheader(t("dec.settings.head"))
    url_synced("dec.lang", LANGS)  # translated labels: kept in the URL as codes
    lang = st.segmented_control(t("dec.lang"), LANGS, key="dec.lang", disabled=locked,
                                format_func=lambda v: t(f"dec.lang.{v}")) or "en"  # fmt: skip
    left, right = st.columns(2)
    seconds = left.number_input(t("dec.seconds"), step=5.0, help=t("dec.seconds.help"),
                                disabled=locked, **bind("dec.seconds"))  # fmt: skip
    seed = right.number_input(t("dec.seed"), step=1, help=t("dec.seed.help"), disabled=locked,
                              **bind("dec.seed"))  # fmt: skip
    left, right = st.columns(2)
    scale = left.toggle(t("dec.scale"), help=t("dec.scale.help"), disabled=locked,
                        **bind("dec.scale"))  # fmt: skip
    tie = right.toggle(t("dec.tie"), help=t("dec.tie.help"), disabled=locked, **bind("dec.tie"))
    try:
        config = LMTrainConfig(
            lang=lang, seconds=float(seconds), seed=int(seed), scale_embedding=bool(scale),
            tie_word_embeddings=bool(tie), eval_every=EVAL_EVERY, sample_every=SAMPLE_EVERY,
        )  # fmt: skip
    except ValueError as err:
        st.error(t("dec.bad_settings", reason=str(err)))
        return None
    st.caption(t("dec.sizes", layers=config.num_hidden_layers, hidden=config.hidden_size,
                 heads=config.num_attention_heads, block=config.block_size,
                 vocab=config.vocab_size))  # fmt: skip
    return config


def buttons(config: LMTrainConfig | None, place: int | None) -> None:
    """Train (asks admission) and Stop (or Cancel while waiting)."""
    active = place is not None
    left, right = st.columns(2)
    if left.button(t("dec.start"), key="dec.start", type="primary", icon=":material/play_arrow:",
                   disabled=active or config is None, width="stretch"):  # fmt: skip
        refusal = calls.start(config)
        if refusal is None:
            st.rerun()  # redraw with Train disabled and Stop enabled
        st.error(refusal)
    right.button(t("dec.cancel") if place else t("dec.stop"), key="dec.stop",
                 icon=":material/stop:", on_click=calls.stop, disabled=not active,
                 width="stretch")  # fmt: skip


def progress_panel() -> None:
    """The run's status, loss chart and samples (a fragment polled once a second)."""
    with script_slot():
        _progress()


def _progress() -> None:
    run = calls.current_run()
    if run is None:
        st.info(t("dec.none"))
        return
    place = calls.poll()
    status = run.status()
    if status.state == "idle":
        st.progress(0.0, text=t("dec.queue", place=place or 1))
        return
    found = calls.progress(run)
    _status_line(status, found, run.plan.config.seconds)
    if found.evals:
        frame = viz.lm_loss_frame(found.evals)
        start = found.start
        names = {"loss": t("dec.loss.model"), "uniform": t("dec.loss.uniform"),
                 "bigram": t("dec.loss.bigram")}  # fmt: skip
        fig = viz.lm_loss_figure(
            frame, uniform=start.uniform_loss if start else None,
            bigram=start.bigram_loss if start else None, names=names,
            title=t("dec.loss.title"), x_title=t("dec.axis.step"), y_title=t("dec.axis.loss"),
        )  # fmt: skip
        show_chart(fig, "dec.loss_chart")
        if start is not None:
            st.caption(t("dec.loss.caption", uniform=start.uniform_loss, bigram=start.bigram_loss))
    samples(found.samples, run.plan.config.prompt)
    if status.state != "running" and calls.sync():
        st.rerun(scope="app")  # the run just ended: redraw the page with the trained decoder


def _status_line(status: Any, found: calls.Progress, seconds: float | None) -> None:
    spent = round(status.seconds)
    if status.state == "running":
        if not found.evals:
            st.progress(0.0, text=t("dec.state.starting"))
            return
        total = round(seconds) if seconds else "?"
        line = t("dec.state.running", step=found.evals[-1].step, s=spent, total=total)
        st.progress(min(1.0, status.fraction), text=line)
    elif status.state == "failed":
        st.error(t("dec.state.failed", error=status.error))
    else:
        st.progress(1.0, text=t(f"dec.state.{status.state}", s=spent))


def samples(found: list, prompt: str) -> None:
    """The samples, newest first, each under its step and time."""
    st.markdown(f"**{t('dec.samples.head')}**")
    if not found:
        st.caption(t("dec.samples.none"))
        return
    box = st.container(height=260, key="dec.samples")
    for sample in reversed(found):
        box.markdown(f"`{t('dec.sample', step=sample.step, s=sample.seconds)}`")
        box.text(sample.text)
    st.caption(t("dec.samples.caption", prompt=prompt))


def model_panel(locked: bool) -> None:
    """The trained decoder: next-token bars, a continuation, the saved folder and its zip."""
    st.subheader(t("dec.model.head"))
    found = calls.result()
    if found is None:
        st.info(t("dec.model.none"))
        return
    folder = found["folder"]
    try:
        calls.decoder(folder)
    except (OSError, ValueError) as err:
        st.error(t("dec.model.broken", reason=str(err).splitlines()[0] if str(err) else err))
        return
    st.caption(t("dec.model.label", name=Path(folder).name, s=found["seconds"], step=found["step"]))
    prompt = st.text_input(t("dec.prompt"), max_chars=500, **bind("dec.prompt"))
    cols = st.columns(3)
    temperature = cols[0].slider(t("dec.temperature"), step=0.05, help=t("dec.temperature.help"),
                                 **bind("dec.temperature"))  # fmt: skip
    top_k = cols[1].slider(t("dec.top_k"), step=1, help=t("dec.top_k.help"), **bind("dec.top_k"))
    top_p = cols[2].slider(t("dec.top_p"), step=0.05, help=t("dec.top_p.help"),
                           **bind("dec.top_p"))  # fmt: skip
    if not prompt.strip():
        st.warning(t("dec.prompt.empty"))
    else:
        _bars(folder, prompt, float(temperature), int(top_k), float(top_p))
    _save(folder)


def _bars(folder: str, prompt: str, temperature: float, top_k: int, top_p: float) -> None:
    try:
        drawn = calls.bars(folder, prompt, temperature, top_k, top_p)
    except ValueError as err:
        st.warning(t("dec.bad_sampling", reason=str(err)))
        return
    names = {"raw": t("dec.bars.raw"), "kept": t("dec.bars.kept"), "cut": t("dec.bars.cut")}
    fig = viz.distribution_figure(drawn["labels"], drawn["raw"], drawn["kept"], names=names,
                                  title=t("dec.bars.title", prompt=prompt.strip()[-40:]),
                                  x_title=t("dec.bars.x"))  # fmt: skip
    show_chart(fig, "dec.bars_chart")
    cut = sum(1 for k in drawn["kept"] if k <= 0)
    st.caption(t("dec.bars.caption", n=len(drawn["labels"]), temperature=f"{temperature:g}",
                 k=top_k or "–", p=f"{top_p:g}", cut=cut, shown=len(drawn["labels"])))  # fmt: skip
    left, right = st.columns([1, 3])
    new_tokens = left.number_input(t("dec.new_tokens"), step=10, **bind("dec.new_tokens"))
    if left.button(t("dec.generate"), key="dec.generate", icon=":material/edit_note:"):
        seed = int(st.session_state.get("dec.seed", 0))
        try:
            text = calls.continuation(folder, prompt, int(new_tokens), temperature, top_k, top_p,
                                      seed)  # fmt: skip
        except ValueError as err:
            st.warning(t("dec.bad_sampling", reason=str(err)))
            return
        right.markdown(t("dec.generated", seed=seed))
        right.text(prompt + text)


def _save(folder: str) -> None:
    st.markdown(f"**{t('dec.save.head')}**")
    st.caption(t("dec.saved", folder=folder))
    row = st.container(horizontal=True)
    download(t("dec.download"), lambda: calls.folder_zip(folder), f"{Path(folder).name}.zip",
             "application/zip", "dec.download", row, help=t("dec.download.help"))  # fmt: skip
    if row.button(t("dec.open"), key="dec.open", icon=":material/stacks:"):
        st.session_state[OPEN_KEY] = not calls.open_on_encoder(folder)
    if st.session_state.get(OPEN_KEY):  # the switch was refused: the choice is made, a link
        try:
            st.page_link(calls.ENCODER_PAGE, label=t("dec.open.link"), icon=":material/stacks:")
        except StreamlitAPIException:  # the page runs alone (tests): nothing to link into
            st.caption(t("dec.open.link"))
