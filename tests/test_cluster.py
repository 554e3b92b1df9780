"""Two replicas behind nginx, started the documented way (`bash scripts/serve_cluster.sh 2`) on
ports this test picks: sticky routes by nginx's cookie, pages and the websocket through the proxy,
a lesson pack upload, a training run to its end, both replicas serving, and everything gone after
SIGTERM. The script and its children run in their own process group, killed even if a test fails.

Screenshots: artifacts/screenshots/cluster-*.png (look at them).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from explorer_core.files.lesson_pack import LabResult, TokenizerBundle, write_pack
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import new_tokenizer
from tests.browser import ROOT, BrowserSession, browser_session, require_chromium

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
UPLOAD = '[data-testid="stFileUploaderDropzoneInput"]'
LOG_LINE = re.compile(r'"(\w+) (\S+) [^"]*" (\d+) route=(\S+) upstream=(\S+)')


def free_block(count: int) -> int:
    """The first of `count` consecutive ports that are free on 127.0.0.1."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            first = probe.getsockname()[1]
        if first + count > 65535:
            continue
        socks = []
        try:
            for port in range(first, first + count):
                sock = socket.socket()
                socks.append(sock)
                sock.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for sock in socks:
                sock.close()
    raise RuntimeError("no block of free ports")


def get(url: str, route: str | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url)
    if route:
        request.add_header("Cookie", f"ee_route={route}")
    with urllib.request.urlopen(request, timeout=10) as resp:
        return resp.status, dict(resp.headers), resp.read().decode(errors="replace")


def healthy(url: str) -> bool:
    try:
        return get(f"{url}/_stcore/health")[2].strip() == "ok"
    except OSError:
        return False


@dataclass
class Cluster:
    url: str  # nginx
    replicas: list[str]  # "127.0.0.1:port" of each replica, as nginx's $upstream_addr names them
    run_dir: Path
    proc: subprocess.Popen

    def log(self) -> list[tuple[str, str, int, str, str]]:
        """(method, path, status, route, upstream) of each request nginx logged."""
        text = (self.run_dir / "access.log").read_text(encoding="utf-8", errors="replace")
        found = map(LOG_LINE.search, text.splitlines())
        return [(m[1], m[2], int(m[3]), m[4], m[5]) for m in found if m]

    def group_alive(self) -> bool:
        try:
            os.killpg(self.proc.pid, 0)
        except ProcessLookupError:
            return False
        return True

    def stop(self) -> None:
        """SIGTERM to the script (as Ctrl-C would); SIGKILL to its whole group if it lingers."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        deadline = time.monotonic() + 15
        while self.group_alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        if self.group_alive():
            os.killpg(self.proc.pid, signal.SIGKILL)


def start_cluster(run_dir: Path, replicas: int, env: dict[str, str]) -> Cluster:
    """`bash scripts/serve_cluster.sh REPLICAS` in its own process group; returns once nginx and
    every replica answer /_stcore/health (the caller stops it)."""
    port, first = free_block(1), free_block(max(replicas, 1))
    env = {**os.environ, "PORT": str(port), "ADDRESS": "127.0.0.1", "REPLICA_PORT": str(first),
           "RUN_DIR": str(run_dir), "EXPLORER_TORCH_THREADS": "1", **env}  # fmt: skip
    out = run_dir / "serve_cluster.out"
    with out.open("wb") as log:
        proc = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "serve_cluster.sh"), str(replicas)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    names = [f"127.0.0.1:{first + i}" for i in range(replicas)] + env.get(
        "MORE_SERVERS", ""
    ).split()
    cluster = Cluster(f"http://127.0.0.1:{port}", names, run_dir, proc)
    try:
        deadline = time.monotonic() + 240  # setup (pip) first, then the servers start
        while not all(healthy(url) for url in [cluster.url, *(f"http://{r}" for r in names)]):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the cluster did not start:\n" + out.read_text())
            time.sleep(0.5)
    except BaseException:
        cluster.stop()
        raise
    return cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    require_chromium()
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail("nginx is missing in CI: scripts/test.sh should have installed it")
        pytest.skip("Debian nginx is not installed (apt-get install -y nginx)")
    found = start_cluster(tmp_path_factory.mktemp("cluster"), 2, {})
    try:
        yield found
    finally:
        found.stop()


def route_to(cluster: Cluster, replica: str) -> str:
    """A route cookie value that nginx sends to `replica`."""
    for i in range(200):
        route = f"test-route-{i}"
        if get(f"{cluster.url}/_stcore/health", route)[1]["X-Upstream"] == replica:
            return route
    raise AssertionError(f"no route reaches {replica}")


@contextmanager
def session_on(cluster: Cluster, replica: str) -> Iterator[BrowserSession]:
    """A fresh browser whose route cookie pins it to `replica`."""
    route = route_to(cluster, replica)
    with browser_session(cluster.url) as browser:
        browser.context.add_cookies([{"name": "ee_route", "value": route, "url": cluster.url}])
        yield browser


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["x"], {}),
        (["-1"], {}),
        (["0"], {}),
        (["0"], {"MORE_SERVERS": "a b"}),
        (["0"], {"ENGINE_WORKERS": "two"}),
    ],  # fmt: skip
)
def test_bad_arguments_get_one_line_and_exit_2(args, env):
    """Checked before anything is installed or started (values that could start nothing even if
    the check broke)."""
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "serve_cluster.sh"), *args],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


@pytest.mark.browser
@pytest.mark.slow
def test_nginx_hands_out_a_route_and_keeps_it(cluster):
    status, headers, body = get(f"{cluster.url}/")
    assert status == 200 and "<html" in body.lower()
    route = re.match(r"ee_route=([0-9a-f]{32});", headers["Set-Cookie"])[1]
    assert headers["X-Upstream"] in cluster.replicas
    answers = {get(f"{cluster.url}/", route)[1]["X-Upstream"] for _ in range(6)}
    assert answers == {headers["X-Upstream"]}  # sticky
    assert "Set-Cookie" not in get(f"{cluster.url}/", route)[1]  # handed out once
    # different browsers spread over both replicas (64 random routes all on one: p = 2^-63)
    spread = {get(f"{cluster.url}/_stcore/health")[1]["X-Upstream"] for _ in range(64)}
    assert spread == set(cluster.replicas)


@pytest.mark.browser
@pytest.mark.slow
def test_lesson_pack_upload_through_nginx(cluster, tmp_path):
    tokenizer = new_tokenizer("char-bpe")
    trace = tokenizer.train(builtin_corpus("mixed")[:3000], 400)
    bundle = TokenizerBundle(tokenizer, "char-bpe, 400", LabResult(tuple(trace), "char-bpe", "x"))
    pack = tmp_path / "lesson.zip"
    pack.write_bytes(write_pack({"lang": "zh", "tok.train.algo": "char-bpe"}, bundle))
    with session_on(cluster, cluster.replicas[0]) as browser:
        browser.open("", query="lang=en", wait_text="Lesson pack")
        browser.page.set_input_files(UPLOAD, str(pack))
        browser.wait_idle("课程包已打开")  # the pack reached the session and switched language
        assert browser.exceptions() == []
        browser.screenshot("cluster-pack")
        browser.page.get_by_role("link", name="训练分词器").first.click()
        browser.wait_idle("已执行的合并次数")  # the Lab replays the pack's tokenizer
        assert browser.exceptions() == []
        assert browser.foreign_requests() == []
    uploads = [e for e in cluster.log() if e[1].startswith("/_stcore/upload_file")]
    assert uploads and all(e[4] == cluster.replicas[0] and e[2] < 300 for e in uploads), uploads


@pytest.mark.browser
@pytest.mark.slow
def test_training_run_through_nginx(cluster):
    with session_on(cluster, cluster.replicas[1]) as browser:
        query = "train.objective=finetune&train.fine_steps=10&train.budget=60"
        browser.open("train-model", query=query, wait_text="Train a sentence-embedding model")
        browser.page.locator(".st-key-train-start button").click()
        browser.page.get_by_text("Finished after").wait_for(timeout=240_000)
        browser.wait_idle("Your model")
        assert browser.exceptions() == []
        browser.page.get_by_text("Your model", exact=True).scroll_into_view_if_needed()
        browser.screenshot("cluster-train")


@pytest.mark.browser
@pytest.mark.slow
def test_both_replicas_served_sticky_websockets(cluster):
    deadline = time.monotonic() + 20  # nginx logs a websocket when it closes
    while True:
        sockets = [e for e in cluster.log() if e[1].startswith("/_stcore/stream")]
        if {e[4] for e in sockets} >= set(cluster.replicas) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert {e[4] for e in sockets if e[2] == 101} == set(cluster.replicas), sockets
    routes: dict[str, set[str]] = {}
    for _, _, status, route, upstream in cluster.log():
        if status < 500 and "," not in upstream:  # "a, b": nginx retried after a failure
            routes.setdefault(route, set()).add(upstream)
    assert all(len(upstreams) == 1 for upstreams in routes.values()), routes


@pytest.mark.browser
@pytest.mark.slow
def test_nginx_alone_in_front_of_other_machines(cluster, tmp_path):
    """`MORE_SERVERS="host:port ..." serve_cluster.sh 0`: this machine runs nginx only, for replicas
    on other machines (here the two replicas above stand in for two machines)."""
    front = start_cluster(tmp_path, 0, {"MORE_SERVERS": " ".join(cluster.replicas)})
    try:
        spread = {get(f"{front.url}/_stcore/health")[1]["X-Upstream"] for _ in range(64)}
        assert spread == set(cluster.replicas)
    finally:
        front.stop()
    assert not front.group_alive() and healthy(f"http://{cluster.replicas[0]}")


def replica_environments(cluster: Cluster) -> list[dict[str, str]]:
    """The environment of each `streamlit run` in the script's process group."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            group = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[2])
            if group == cluster.proc.pid and b"streamlit" in (proc / "cmdline").read_bytes():
                pairs = (proc / "environ").read_bytes().split(b"\0")
                found.append(dict(p.decode().split("=", 1) for p in pairs if b"=" in p))
        except (OSError, IndexError, ValueError):
            continue
    return found


@pytest.mark.slow
def test_replicas_share_one_class_database(cluster):
    """Two replicas never keep a SQLite class store each: the script starts a PostgreSQL for the
    cluster (its password printed nowhere) and gives every replica its URL."""
    from explorer_core.classroom import ClassStore

    out = (cluster.run_dir / "serve_cluster.out").read_text()
    assert "Class mode: a PostgreSQL for this cluster" in out
    url = (cluster.run_dir / "class_db.url").read_text().strip()
    assert url.split("@")[0].rsplit(":", 1)[1] not in out
    assert [env.get("EXPLORER_CLASS_DB") for env in replica_environments(cluster)] == [url, url]
    store = ClassStore(url)
    try:
        info, _ = store.create_class()
        assert store.info(info.code) == info
    finally:
        store.dispose()


@pytest.mark.browser
@pytest.mark.slow
def test_sigterm_stops_every_process(cluster):
    class_db = (cluster.run_dir / "class_db.url").read_text().strip()  # gone after the stop
    cluster.proc.send_signal(signal.SIGTERM)
    assert cluster.proc.wait(timeout=30) != 0  # the script ends, reporting the signal
    deadline = time.monotonic() + 15
    while cluster.group_alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not cluster.group_alive(), "a replica or nginx outlived the script"
    assert not healthy(cluster.url)
    assert not any(healthy(f"http://{r}") for r in cluster.replicas)
    port = int(class_db.rsplit(":", 1)[1].split("/")[0])
    with socket.socket() as probe:  # the cluster's PostgreSQL (its own session) stopped too
        assert probe.connect_ex(("127.0.0.1", port)) != 0


@pytest.mark.browser
@pytest.mark.slow
def test_engine_workers_train_the_replicas_runs(tmp_path):
    """`ENGINE_WORKERS=1 serve_cluster.sh 1`: a scheduler and a worker start beside the replica,
    which gets EXPLORER_ENGINE; a run pressed in the browser trains on that worker, and Ctrl-C
    (SIGTERM) stops the engine with everything else."""
    from distributed import Client

    from tests.browser import free_port
    from tests.engine import children

    require_chromium()
    if not Path(NGINX).exists():
        pytest.skip("Debian nginx is not installed (apt-get install -y nginx)")
    port = free_port()
    found = start_cluster(tmp_path, 1, {"ENGINE_WORKERS": "1", "ENGINE_PORT": str(port)})
    try:
        with Client(f"tcp://127.0.0.1:{port}", timeout=60, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=120)
            with session_on(found, found.replicas[0]) as browser:
                query = "train.objective=finetune&train.fine_steps=6&train.budget=60"
                browser.open(
                    "train-model", query=query, wait_text="Train a sentence-embedding model"
                )
                browser.page.locator(".st-key-train-start button").click()
                ended = browser.page.get_by_text("Finished after").or_(
                    browser.page.get_by_text("Training failed")
                )
                ended.first.wait_for(timeout=120_000)
                text = browser.page.inner_text("body")
                assert "Finished after" in text, text[-3000:]
                assert browser.exceptions() == []
            tasks = client.run_on_scheduler(
                lambda dask_scheduler: [str(k) for k in dask_scheduler.task_prefixes]
            )
            assert any("explorer-run" in k for k in tasks), tasks
        assert "sends its runs to the engine at" in (tmp_path / "serve_cluster.out").read_text()
    finally:
        pids = children(found.proc.pid)
        found.stop()
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids), "a process outlived the script"
