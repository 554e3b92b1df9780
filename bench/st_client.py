"""A browser-less Streamlit session: Streamlit's own websocket protocol, for load tests.

One `Session` is one browser tab. It connects to ``ws://HOST:PORT/_stcore/stream``, asks for a
page the way the browser does (a `rerun_script` BackMsg with a `ClientState`), and reads the
ForwardMsgs that come back: page hashes from `navigation`, widget ids from the deltas (a widget
made with ``key=K`` has the id ``$$ID-<hash>-K``) and the fragment each was drawn in, exception
elements, progress, markdown and text, the query string the app writes into the address bar
(`page_info_changed`: a later rerun or a reconnect sends it, as a reloaded tab does), and
`script_finished`, which ends a run. Like the browser, it sends the reruns of
``st.fragment(run_every=...)`` itself (`auto_rerun` / `stop_auto_rerun`), and like the
browser's widget manager, every rerun it sends carries the values this tab set before.

    async with Session("http://127.0.0.1:8501", page="attention", query="lang=en") as tab:
        seconds = await tab.open()       # connect + first run, until script_finished
        await tab.press("train.start")   # a button press: trigger_value=True, wait for the run
        tab.exceptions                    # texts of exception elements seen so far

The messages are the protobufs shipped in the streamlit wheel; nothing here imports the server.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

FINISHED = ForwardMsg.ScriptFinishedStatus
INTERRUPTED = FINISHED.FINISHED_EARLY_FOR_RERUN
TRIGGERS = ("trigger_value", "string_trigger_value", "chat_input_value", "json_trigger_value")


def stream_url(base_url: str) -> str:
    """``http://host:port/prefix`` -> ``ws://host:port/prefix/_stcore/stream``."""
    parts = urlsplit(base_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream"


def widget_key(widget_id: str) -> str | None:
    """The user key of a widget id: ``'$$ID-3f2a-train.start'`` -> ``'train.start'``; else None."""
    if not widget_id.startswith("$$ID-"):
        return None
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[2] != "None" else None


@dataclass
class RunResult:
    """One script run as the client saw it: seconds from request to `script_finished`."""

    seconds: float
    status: int  # a ForwardMsg.ScriptFinishedStatus


@dataclass
class _Seen:
    widgets: dict[str, str] = field(default_factory=dict)  # user key -> widget id
    pages: dict[str, str] = field(default_factory=dict)  # url path -> page script hash
    exceptions: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # progress, markdown, text, toasts; newest last
    fragments: dict[str, str] = field(default_factory=dict)  # widget key -> its fragment's id


class Session:
    """One simulated browser tab on a Streamlit server (use as ``async with``)."""

    def __init__(
        self,
        base_url: str,
        page: str = "",
        query: str = "",
        follow_fragments=True,
        fragment_every: float | None = None,
    ):
        self.url, self.page, self.query = base_url, page, query
        self.follow_fragments = follow_fragments
        self.fragment_every = fragment_every  # rerun fragments this often, not at the app's pace
        self.seen = _Seen()
        self.page_hash = ""
        self.started = 0  # script runs the server started (one `new_session` message each)
        self.finished = 0  # script runs finished (any status)
        self.fragment_reruns = 0  # auto reruns sent for st.fragment(run_every=...)
        self.fragment_runs: list[float] = []  # seconds from an auto rerun sent to its end
        self._auto_sent: float | None = None
        self._ws = None
        self._reader: asyncio.Task | None = None
        self._timers: dict[str, asyncio.Task] = {}
        self._done: asyncio.Queue[int] = asyncio.Queue()
        self.closed = asyncio.Event()
        self.dropped = False  # the server closed the socket under a request
        self._values: dict[str, WidgetState] = {}  # widget id -> the last value set (no trigger)

    # -- connection ---------------------------------------------------------------------------

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def connect(self) -> None:
        self._ws = await connect(
            stream_url(self.url),
            subprotocols=["streamlit"],
            max_size=None,
            open_timeout=60,
            ping_interval=None,  # like a browser: a busy server is slow, not gone
        )
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        """Vanish like a closed tab: stop fragment timers and drop the socket."""
        for task in self._timers.values():
            task.cancel()
        self._timers.clear()
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
        self.closed.set()

    @property
    def exceptions(self) -> list[str]:
        return self.seen.exceptions

    # -- requests -----------------------------------------------------------------------------

    async def open(self, timeout: float = 120) -> float:
        """Connect and run the first page; seconds from connecting to its `script_finished`."""
        start = time.perf_counter()
        await self.connect()
        await self.send_rerun(page_name=self.page)
        await self.wait_finished(timeout)
        return time.perf_counter() - start

    async def rerun(self, widgets=(), timeout: float = 120) -> RunResult:
        """Rerun the page (optionally with widget states) and wait until it has finished."""
        self._drain()
        start = time.perf_counter()
        await self.send_rerun(widgets)
        status = await self.wait_finished(timeout)
        return RunResult(time.perf_counter() - start, status)

    async def press(self, key: str, timeout: float = 120) -> RunResult:
        """Press the button made with ``key=key`` and wait for the run it triggers."""
        state = WidgetState(id=self.widget_id(key), trigger_value=True)
        return await self.rerun([state], timeout)

    def widget_id(self, key: str) -> str:
        try:
            return self.seen.widgets[key]
        except KeyError:
            raise KeyError(f"no widget with key {key!r} on page {self.page!r}") from None

    async def press_in_fragment(self, key: str, widgets=()) -> None:
        """Press the button made with ``key=key`` inside an ``st.fragment``, with `widgets` (other
        widget states of that fragment), as the browser does: a rerun of that fragment only.
        Returns once sent; the run's output arrives in `seen` like any other."""
        press = WidgetState(id=self.widget_id(key), trigger_value=True)
        fragment = self.seen.fragments.get(key, "")
        await self.send_rerun([*widgets, press], fragment_id=fragment, auto=False)

    async def send_rerun(
        self, widgets=(), fragment_id: str = "", page_name: str = "", auto: bool | None = None
    ) -> None:
        """Ask for a run; `auto` (default: whether a fragment is named) marks a fragment's timer
        rerun rather than a click inside it."""
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        state.page_name = page_name if not self.page_hash else ""
        state.fragment_id = fragment_id
        state.is_auto_rerun = bool(fragment_id) if auto is None else auto
        # subtle: the browser sends every widget's value with every rerun, a timer's too. A
        # fragment timer's rerun that carried none, arriving while a press with a radio's value
        # still waited for the running script, replaced the press's values (Streamlit merges
        # pending reruns and keeps only the old trigger): the answer reached the app as "no
        # choice" and was never counted (the class-of-ten test, 9 of 10 in CI)
        self._values.update((w.id, w) for w in widgets if w.WhichOneof("value") not in TRIGGERS)
        sent = {**self._values, **{w.id: w for w in widgets}}
        state.widget_states.widgets.extend(sent.values())
        await self._ws.send(msg.SerializeToString())

    async def wait_finished(self, timeout: float = 120) -> int:
        """The status of the next run that was not cut short by a newer rerun."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            status = await asyncio.wait_for(self._done.get(), max(left, 0.001))
            if status != INTERRUPTED:
                return status

    def _drain(self) -> None:
        while not self._done.empty():
            self._done.get_nowait()

    # -- what the server sends ----------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                msg = ForwardMsg()
                msg.ParseFromString(raw)
                self._handle(msg)
        except Exception:  # noqa: BLE001 - a dropped socket ends the session, nothing more
            pass
        finally:
            self.closed.set()

    def _handle(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "delta":
            self._delta(msg.delta)
        elif kind == "new_session":
            self.started += 1
        elif kind == "page_info_changed":  # the app set st.query_params: the address bar
            self.query = msg.page_info_changed.query_string
        elif kind == "navigation":
            nav = msg.navigation
            self.seen.pages = {p.url_pathname: p.page_script_hash for p in nav.app_pages}
            self.page_hash = nav.page_script_hash
        elif kind == "script_finished":
            self.finished += 1
            if self._auto_sent is not None and msg.script_finished != INTERRUPTED:
                self.fragment_runs.append(time.perf_counter() - self._auto_sent)
                self._auto_sent = None
            self._done.put_nowait(msg.script_finished)
        elif kind == "auto_rerun" and self.follow_fragments:
            frag, every = msg.auto_rerun.fragment_id, self.fragment_every or msg.auto_rerun.interval
            if frag not in self._timers:
                self._timers[frag] = asyncio.create_task(self._auto_rerun(frag, every))
        elif kind == "stop_auto_rerun":
            for frag in msg.stop_auto_rerun.fragment_ids or list(self._timers):
                task = self._timers.pop(frag, None)
                if task is not None:
                    task.cancel()

    def _delta(self, delta) -> None:  # noqa: ANN001 - a Delta protobuf
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind is None:
            return
        body = getattr(element, kind)
        if kind == "exception":
            self.seen.exceptions.append(f"{body.type}: {body.message}")
        elif kind == "progress":
            self.seen.texts.append(body.text)
        elif kind in ("markdown", "alert", "text", "toast"):
            self.seen.texts.append(body.body)
        widget_id = getattr(body, "id", "") if body.DESCRIPTOR.fields_by_name.get("id") else ""
        key = widget_key(widget_id) if isinstance(widget_id, str) else None
        if key:
            self.seen.widgets[key] = widget_id
            self.seen.fragments[key] = delta.fragment_id

    async def _auto_rerun(self, fragment_id: str, every: float) -> None:
        """What the browser does for ``st.fragment(run_every=every)``: a rerun each interval."""
        while not self.closed.is_set():
            await asyncio.sleep(every)
            try:
                await self.send_rerun(fragment_id=fragment_id)
            except Exception:  # noqa: BLE001 - the socket closed under the timer
                return
            self.fragment_reruns += 1
            if self._auto_sent is None:  # else the one before has not ended: time that one
                self._auto_sent = time.perf_counter()
