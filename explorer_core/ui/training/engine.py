"""Where this server's training runs go: its own worker processes, or a distributed engine.

One setting, the scheduler's address: `EXPLORER_ENGINE=tcp://10.0.0.5:8786`, or in
`.streamlit/secrets.toml`::

    [explorer]
    engine = "tcp://10.0.0.5:8786"

Unset (the default): every run is a `training.worker.TrainingRun` on this server, and no engine
package is imported. Set: every run is a `training.engine.EngineRun` on the engine's workers,
through one client per server process (`st.cache_resource`, shared by its sessions); a run this
server planned for its CPU runs on the worker's GPU where the worker has one (`engine_plan`).

When the engine cannot be reached the run is refused with one line, not trained here: a server
told to send its runs away is sized for pages (a replica of the classroom cluster), and thirty
runs falling back onto it would stall every page while the outage went unnoticed. The next press
of Train tries to connect again.
"""

from __future__ import annotations

import os
from dataclasses import replace

import streamlit as st

from explorer_core.training.run import TrainingPlan
from explorer_core.training.worker import TrainingRun
from explorer_core.ui.i18n import t

SETTING = "EXPLORER_ENGINE"  # = training.engine.SETTING (not imported: that loads the engine)
SECRETS_SECTION, SECRETS_KEY = "explorer", "engine"


def setting() -> str:
    """EXPLORER_ENGINE, else `[explorer] engine` in .streamlit/secrets.toml, else "" (none)."""
    if os.environ.get(SETTING, "").strip():
        return os.environ[SETTING].strip()
    try:
        return str(st.secrets.get(SECRETS_SECTION, {}).get(SECRETS_KEY, "")).strip()
    except Exception:  # noqa: BLE001 - no secrets file, or an unreadable one: no engine
        return ""


@st.cache_resource(max_entries=1, show_spinner=False)
def _connection(address: str) -> list:
    """[the server's one distributed.Client of the engine] (a failure is not cached: the next
    call retries). # subtle: in a list, since a Client is awaitable and Streamlit's cache takes
    an awaitable result for an async function's."""
    from explorer_core.training.engine import connect

    return [connect(address)]


def new_run(plan: TrainingPlan, max_snapshots: int, expire_after: float) -> TrainingRun | str:
    """A run of `plan` where the setting says; a translated one-line refusal if the engine is
    configured but cannot be reached."""
    address = setting()
    if not address:
        return TrainingRun(plan, max_snapshots=max_snapshots, expire_after=expire_after)
    from explorer_core.training.engine import EngineRun, EngineUnreachable

    try:
        client = _connection(address)[0]
        if client.status != "running" or not client.ncores():
            _connection.clear()  # lost since it was cached: connect afresh once
            client = _connection(address)[0]
    except EngineUnreachable as err:
        return t("train.refused.engine", reason=str(err))
    except Exception as err:  # noqa: BLE001 - e.g. the scheduler went away mid-call
        _connection.clear()
        return t("train.refused.engine", reason=" ".join(str(err).split()) or type(err).__name__)
    return EngineRun(engine_plan(plan), client, max_snapshots=max_snapshots,
                     expire_after=expire_after)  # fmt: skip


def engine_plan(plan: TrainingPlan) -> TrainingPlan:
    """`plan` as it goes to the engine: a run planned for this server's CPU because this server
    has no GPU (the page offers the choice only where torch sees one) runs on whatever the
    worker has ("auto": its GPU if it has one). A device chosen on a server with a GPU stays."""
    if getattr(plan, "device", None) != "cpu" or _cuda_here():
        return plan
    return replace(plan, device="auto")


def _cuda_here() -> bool:
    import torch  # only on the engine path: the plan's process has loaded it already

    return torch.cuda.is_available()
