"""This session's training run: asked of the server's admission, polled, stopped or cancelled.

The run (a `training.worker.TrainingRun`, a worker process, or with EXPLORER_ENGINE set a
`training.engine.EngineRun` on a distributed engine: see `ui.training.engine`) lives in
`st.session_state[RUN_KEY]`.
`start_run` asks the server's one `Admission` (a `st.cache_resource`, shared by every session
and thread-safe) for a slot: the run starts, waits in the first-come queue, or is refused with a
translated reason. Every poll (`poll_run`: the Train page's fragment once a second, the sidebar
line of any other page every 2 s) tells the run and the queue that the session is still here; a
session that stops polling loses its place and its run (see `training.admission`).
"""

from __future__ import annotations

import uuid

import streamlit as st

from explorer_core.inputs.datasets import SentencePair
from explorer_core.training.admission import Admission, Refused
from explorer_core.training.run import TrainingPlan
from explorer_core.training.worker import TrainingRun, warm_up
from explorer_core.ui.i18n import t
from explorer_core.ui.training import engine
from explorer_core.ui.training.calls import PARTS_KEY, RUN_KEY

OWNER_KEY = "train.owner"  # this session's name in the server's admission queue
DECODER_RUN_KEY = "dec.run"  # the Decoder page's run (ui.decoder): same queue, same name
RUN_KEYS = (RUN_KEY, DECODER_RUN_KEY)  # a session has at most one of them training or waiting
MAX_SNAPSHOTS = 6  # encoder copies a run keeps for the before/after views
KEEP_ALIVE_SECONDS = 2.0  # how often other pages poll a run (well inside its expiry)
# How often the Train page polls its run: every second while it trains (live curves); every 5 s
# while it waits (well inside the queue's 20 s expiry). Measured with 60 students pressing Train
# at once on 2 cores (bench/classroom_load.py --experiment --sessions 60): 58 waiting pages polled
# 58 times a second, and the server stalled (health up to 5 s, another page's rerun 120 s).
TRAINING_POLL_SECONDS, WAITING_POLL_SECONDS = 1.0, 5.0


def poll_every(place: int | None) -> float | None:
    """Seconds between the Train page's polls of this session's run: `place` as `poll_run`
    gives it (0 training, k waiting, None neither: no polling).

    >>> poll_every(None), poll_every(0), poll_every(3)
    (None, 1.0, 5.0)
    """
    if place is None:
        return None
    return WAITING_POLL_SECONDS if place else TRAINING_POLL_SECONDS


@st.cache_resource(show_spinner=False)
def admission() -> Admission:
    """The server's one gatekeeper for training runs: shared by every session, thread-safe.

    Settings come from the environment (EXPLORER_MAX_RUNS, EXPLORER_TRAIN_MEMORY_MB). It holds
    runs only while they train or wait; results stay in the session that asked.
    """
    warm_up()  # the first Train press should not wait for the workers' fork server to start
    return Admission.from_env()


def owner() -> str:
    """This browser session's name in the admission queue (random; never in a link)."""
    return st.session_state.setdefault(OWNER_KEY, uuid.uuid4().hex)


def current_run(key: str = RUN_KEY) -> TrainingRun | None:
    """The session's run under `key`: the Train page's (RUN_KEY) or the Decoder page's."""
    return st.session_state.get(key)


def poll_run(key: str = RUN_KEY) -> int | None:
    """Touch this session's run (the page is still here); its place: 0 training, k >= 1 waiting.

    None when the session has no run training or waiting under `key`.
    """
    run = current_run(key)
    if run is None:
        return None
    run.touch()
    if run.status().state not in ("idle", "running"):
        return None  # subtle: ended; the queue's place is the session's *other* run's, if any
    place = admission().touch(owner())
    if place is None and run.running:
        return 0  # e.g. admitted by a server that has since been reloaded
    return place


def start_estimate() -> float | None:
    """Seconds until this session's waiting run should start (`Admission.start_estimate`)."""
    return admission().start_estimate(owner())


def is_active(key: str | None = None) -> bool:
    """True while this session's run under `key` (None: any of RUN_KEYS) trains or waits."""
    for name in RUN_KEYS if key is None else (key,):
        run = current_run(name)
        if run is not None and (
            run.running or (run.status().state == "idle" and bool(admission().place(owner())))
        ):
            return True
    return False


def start_run(
    plan: TrainingPlan, need: int, parts: dict[str, list[SentencePair]], data_name: str
) -> str | None:
    """Ask for a run of `need` bytes; None when it started or waits, else why not (translated).

    The pairs (by split) are remembered so the Similarity page evaluates on the same data.
    """
    refusal = submit_run(RUN_KEY, plan, need)
    if refusal is None:
        st.session_state[PARTS_KEY] = (data_name, parts)
    return refusal


def submit_run(key: str, plan: object, need: int) -> str | None:
    """Any plan the worker runs (`TrainingRun`: the Train page's, the Decoder page's
    `training.lm_job.LMPlan`) asked of the one admission under the session's one name, kept in
    `st.session_state[key]`; None when it started or waits, else why not (translated). One run
    per session, whichever page started it."""
    if is_active():
        return t("train.already")
    gate = admission()
    run = engine.new_run(plan, MAX_SNAPSHOTS, gate.expire_after)  # here, or on the engine
    if isinstance(run, str):
        return run  # the engine is configured but cannot be reached
    try:
        gate.submit(owner(), run, need)
    except Refused as err:
        if err.reason == "busy":
            return t("train.already")
        return t("train.refused.budget", need=err.need // 2**20, budget=err.budget // 2**20)
    st.session_state[key] = run
    return None


def stop_run(key: str = RUN_KEY) -> None:
    """Stop a training run (the model is kept), or cancel a waiting one (nothing is kept)."""
    run = current_run(key)
    if run is None:
        return
    if run.running:
        run.stop()
    elif admission().cancel(owner()) or run.status().state == "idle":
        del st.session_state[key]


def keep_alive() -> None:
    """Any page: while this session's run trains or waits, a sidebar line polls it every 2 s.

    The Train page's own fragment polls too; this one keeps the run (and its place in the queue)
    alive while the learner reads another page, and says how far it is.
    """
    if is_active():
        with st.sidebar:
            st.fragment(run_every=KEEP_ALIVE_SECONDS)(_heartbeat)()


def _heartbeat() -> None:
    key = next((k for k in RUN_KEYS if is_active(k)), RUN_KEY)
    run, place = current_run(key), poll_run(key)
    if run is None or place is None:
        return
    if place:
        st.caption(t("train.keepalive.waiting", place=place))
    elif run.running:
        status = run.status()
        phase = t(f"train.phase.{status.phase}")
        st.caption(t("train.keepalive.running", phase=phase, step=status.step))


def server_counts() -> dict[str, int]:
    """The server's runs for the page: running, waiting, limit, MB used and budget (0: none)."""
    gate = admission()
    running, waiting, used = gate.counts()
    budget = gate.budget or 0
    return {"running": running, "waiting": waiting, "limit": gate.max_runs,
            "used": used // 2**20, "budget": budget // 2**20}  # fmt: skip
