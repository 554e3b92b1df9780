"""The benchmarks' browser-less session (bench/st_client.py) against a real Streamlit server, on a
script of its own: what it sends must be what a browser sends, or the load figures measure the
client instead of the app."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import free_port

pytestmark = pytest.mark.slow

# A fragment polled every 0.2 s whose every run takes 1 s: a press nearly always waits behind a
# running script, and the timer's reruns pile up behind the press
SCRIPT = """
import time
from pathlib import Path

import streamlit as st

@st.fragment(run_every=0.2)
def bar():
    time.sleep(1.0)
    choice = st.radio("choice", ["a", "b"], index=None, key="choice")
    if st.button("send", key="send"):
        with Path(OUT).open("a") as out:
            out.write(f"{choice}\\n")

bar()
"""


@pytest.fixture
def server(tmp_path):
    out = tmp_path / "answers.txt"
    script = tmp_path / "poll.py"
    script.write_text(f"OUT = {str(out)!r}\n{SCRIPT}", encoding="utf-8")
    port = free_port()
    env = {**os.environ, "STREAMLIT_SERVER_HEADLESS": "true",
           "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}  # fmt: skip
    command = [str(Path(sys.executable).with_name("streamlit")), "run", str(script),
               "--server.port", str(port), "--server.address", "127.0.0.1"]  # fmt: skip
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.3)
        yield url, out
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_press_keeps_its_values_when_the_fragments_timer_reruns_behind_it(server):
    """Streamlit merges a rerun that waits with the ones that arrive after it and keeps only the
    old trigger; a browser's timer rerun carries every widget's value, so a radio's choice
    survives. The client's must too (without it: "None", and a class poll lost answers)."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    from bench.st_client import Session

    url, out = server

    async def answer_three_times() -> None:
        async with Session(url) as tab:
            await tab.open()
            for _ in range(3):
                while "send" not in tab.seen.widgets:
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.3)  # inside a fragment run: the press waits behind it
                choice = WidgetState(id=tab.widget_id("choice"), string_value="b")
                await tab.press_in_fragment("send", [choice])
                await asyncio.sleep(2.5)  # the timer's reruns pile up behind the press

    asyncio.run(answer_three_times())
    assert out.read_text(encoding="utf-8").split() == ["b", "b", "b"]
