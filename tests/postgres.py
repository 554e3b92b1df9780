"""A real, private PostgreSQL for tests: `running_postgres()` starts one in a temporary folder on a
free port and yields its SQLAlchemy URL; `new_database(url)` adds an empty database beside it.

    from tests.postgres import new_database, running_postgres

    with running_postgres() as url:          # postgresql+psycopg://postgres@127.0.0.1:PORT/explorer
        two = ClassStore(new_database(url))  # an empty database of its own

For the test suite, conftest's session fixture `postgres_url` runs one server for the whole run,
and a fixture parametrised over DATABASES gets an empty database per test from `database_url`.

Debian's server binaries (`apt-get install postgresql`) live in /usr/lib/postgresql/<version>/bin,
not on PATH; the newest version found is used (or $PG_BIN, or pg_ctl on PATH). `initdb` refuses
to run as root, so as root the server runs as the `postgres` user (`runuser`) in a folder anyone
may write; as a normal user it runs as that user. Trust authentication on 127.0.0.1 only, and no
fsync: the data is thrown away. When the server cannot start, RuntimeError carries the last lines
of its log, so the test fails and says why (never a silent skip).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.browser import free_port

USER = "postgres"  # the database superuser initdb creates (-U); also the OS user when root


def pg_bin_dir() -> Path:
    """The folder of pg_ctl/initdb: $PG_BIN, the newest /usr/lib/postgresql/*/bin, or PATH."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = [p.parent for p in Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")]
    found = [p for p in found if p.parent.name.isdigit()]
    if found:
        return max(found, key=lambda p: int(p.parent.name))
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError(
        "PostgreSQL's server programs (pg_ctl, initdb) were not found: install Debian's "
        "'postgresql' package (scripts/test.sh does) or set PG_BIN to their folder."
    )


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no server log was written)"


def _run(argv: list[str], log: Path) -> None:
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", USER, "--"] if as_root else []
    try:
        done = subprocess.run(prefix + argv, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise RuntimeError(f"PostgreSQL test server: {argv[0]} could not run: {err}") from err
    if done.returncode != 0:
        raise RuntimeError(
            f"PostgreSQL test server: {' '.join(argv[:1])} failed ({done.returncode}):\n"
            f"{done.stdout[-2000:]}{done.stderr[-2000:]}\n--- server log ---\n{_tail(log)}"
        )


@contextmanager
def running_postgres(database: str = "explorer", port: int | None = None) -> Iterator[str]:
    """A private PostgreSQL server for the duration of the block; yields the URL of `database`
    (created empty). `port`: a free one when None. The server stops and its folder is deleted at
    the end."""
    bin_dir = pg_bin_dir()
    folder = Path(tempfile.mkdtemp(prefix="explorer-pg-"))
    folder.chmod(0o777)  # as root, the postgres user writes here
    data, log, port = folder / "data", folder / "server.log", port or free_port()
    started = False
    try:
        _run([str(bin_dir / "initdb"), "-D", str(data), "--auth=trust", "-U", USER, "-E", "UTF8",
              "--no-sync", "--no-instructions"], log)  # fmt: skip
        options = (
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log),
              "-w", "-t", "60", "start"], log)  # fmt: skip
        started = True
        _run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", USER,
              database], log)  # fmt: skip
        yield f"postgresql+psycopg://{USER}@127.0.0.1:{port}/{database}"
    finally:
        if started:
            try:
                _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], log)
            except RuntimeError:
                _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], log)
        shutil.rmtree(folder, ignore_errors=True)


def new_database(url: str) -> str:
    """A new empty database on the server of `url`; returns its URL (same user, host, port)."""
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(
        host=parsed.host, port=parsed.port, user=parsed.username, dbname=parsed.database,
        autocommit=True,
    ) as conn:  # fmt: skip
        conn.execute(f'CREATE DATABASE "{name}"')
    return parsed.set(database=name).render_as_string(hide_password=False)


DATABASES = ["sqlite", "postgresql"]  # params of a fixture that runs a test on both


def database_url(request, folder: Path) -> str:  # noqa: ANN001 - pytest's FixtureRequest
    """An empty class database for a fixture parametrised over DATABASES: a SQLite file in
    `folder`, or a new database on the run's PostgreSQL (conftest's `postgres_url`)."""
    if request.param == "sqlite":
        return f"sqlite:///{folder / 'data' / 'classes.db'}"
    return new_database(request.getfixturevalue("postgres_url"))
