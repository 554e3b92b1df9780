"""The ground every class-mode call stands on: settings, the engine (schema brought up to date on
first use), one small transaction per call, finding a live class, and checking the teacher's
secret and a student's token.

`StoreBase` holds no class state: only the URL, the clock and the limits. Secrets and tokens are
kept as SHA-256 digests, compared in constant time.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

from sqlalchemy import Connection, Row, delete, insert, select, text
from sqlalchemy.exc import SQLAlchemyError

from explorer_core.classroom.database import WRITE, describe_url, dispose, engine_for, one_line
from explorer_core.classroom.records import (
    ClassError,
    ClassInfo,
    normalise_code,
)
from explorer_core.classroom.schema import classes, ended, join_attempts, members, upgrade
from explorer_core.runtime import whole_number_setting

# How long a closed or expired class's code still answers "closed"/"expired" (not "unknown").
ENDED_KEPT_S = 86400.0
RATE_WINDOW_S = 60.0  # the rate limit counts failed code lookups in this window
_UPGRADED: set[str] = set()  # URLs whose schema this process has brought up to date
_UPGRADE_LOCK = threading.Lock()


def digest(secret: str) -> str:
    """What the database keeps of a secret or token: its SHA-256, in hex (64 characters)."""
    return hashlib.sha256(str(secret).encode("utf-8")).hexdigest()


def default_data_dir() -> Path:
    """$EXPLORER_DATA_DIR, else ~/.local/share/embedding-explorer (XDG_DATA_HOME respected)."""
    if os.environ.get("EXPLORER_DATA_DIR"):
        return Path(os.environ["EXPLORER_DATA_DIR"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "embedding-explorer"


class _Expired(ClassError):
    """Raised inside a transaction for a class past its expiry; `call` then deletes it."""

    def __init__(self, code: str) -> None:
        super().__init__("expired", f"Class {code} has ended: classes last a limited time.")
        self.code = code


def call(method: Callable) -> Callable:
    """Public methods: expired classes are deleted on the way out, database failures become
    ClassError("db") with one line (never a traceback on a student's screen)."""

    @functools.wraps(method)
    def wrapper(self: StoreBase, *args, **kwargs):  # noqa: ANN202 - the method's own type
        try:
            try:
                return method(self, *args, **kwargs)
            except _Expired as err:
                self._end(err.code, "expired")
                raise
        except SQLAlchemyError as err:
            where = self.describe()
            raise ClassError("db", f"The class database ({where}) failed: {one_line(err)}") from err

    return wrapper


class StoreBase:
    """Settings, transactions and lookups shared by the teacher's and the students' calls."""

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        lifetime_s: float = 86400,
        member_limit: int = 200,
        join_tries_per_minute: int = 20,
    ) -> None:
        if lifetime_s <= 0 or member_limit < 1 or join_tries_per_minute < 1:
            raise ValueError("A class needs a positive lifetime, member limit and join tries.")
        self.url = url
        self.clock = clock
        self.lifetime_s = float(lifetime_s)
        self.member_limit = int(member_limit)
        self.join_tries_per_minute = int(join_tries_per_minute)

    @classmethod
    def from_settings(cls, data_dir: Path | None = None) -> Self:
        """The store the app uses: EXPLORER_CLASS_DB (a SQLAlchemy URL) when set, else the SQLite
        file classes.db in `data_dir` (default: `default_data_dir()`); a class lasts
        EXPLORER_CLASS_HOURS (24) and takes EXPLORER_CLASS_LIMIT (200) students."""
        url = os.environ.get("EXPLORER_CLASS_DB", "").strip()
        if not url:
            url = f"sqlite:///{Path(data_dir or default_data_dir()).resolve() / 'classes.db'}"
        hours = whole_number_setting("EXPLORER_CLASS_HOURS", 24)
        limit = whole_number_setting("EXPLORER_CLASS_LIMIT", 200)
        return cls(url, lifetime_s=hours * 3600.0, member_limit=limit)

    def describe(self) -> str:
        """ "SQLite /path/classes.db" or "PostgreSQL host:port/db" (never a password)."""
        try:
            return describe_url(self.url)
        except ClassError:
            return "an unreadable URL"

    @call
    def ping(self) -> None:
        """Connects (and brings the schema up to date); ClassError("db") when that fails."""
        with self._read() as conn:
            conn.execute(text("SELECT 1"))

    def dispose(self) -> None:
        """Closes this process's pooled connections to the database (tests, shutdown)."""
        dispose(self.url)
        with _UPGRADE_LOCK:
            _UPGRADED.discard(self.url)

    # --- transactions and lookups -------------------------------------------------------------

    def _engine(self):  # noqa: ANN202 - sqlalchemy Engine
        engine = engine_for(self.url)
        if self.url not in _UPGRADED:
            with _UPGRADE_LOCK:
                if self.url not in _UPGRADED:
                    upgrade(engine, now=self.clock())
                    _UPGRADED.add(self.url)
        return engine

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self._engine().connect().execution_options(**WRITE) as conn, conn.begin():
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._engine().connect() as conn, conn.begin():
            yield conn

    def _find(self, conn: Connection, code: str, *, lock: bool = False) -> Row:
        """The live class's row; ClassError unknown/closed/expired otherwise. `lock` holds the row
        until the transaction ends (PostgreSQL; SQLite's write transactions are serial anyway)."""
        query = select(classes).where(classes.c.code == code)
        row = conn.execute(query.with_for_update(key_share=True) if lock else query).first()
        if row is None:
            reason = conn.execute(
                select(ended.c.reason).where(ended.c.code == code, ended.c.until > self.clock())
            ).scalar()
            if reason == "closed":
                raise ClassError("closed", f"Class {code} has been closed by the teacher.")
            if reason == "expired":
                raise ClassError("expired", f"Class {code} has ended: classes last a limited time.")
            raise ClassError("unknown", f"There is no class with the code {code!r}; check it.")
        if row.expires <= self.clock():
            raise _Expired(code)
        return row

    def _teacher(self, conn: Connection, code: str, secret: str, *, lock: bool = False) -> Row:
        row = self._find(conn, normalise_code(code), lock=lock)
        if not hmac.compare_digest(digest(secret), row.secret_hash):
            raise ClassError("secret", f"This is not the teacher's key for class {row.code}.")
        return row

    def _member(self, conn: Connection, klass: Row, token: str) -> Row:
        row = conn.execute(
            select(members).where(
                members.c.token_hash == digest(token), members.c.class_id == klass.id
            )
        ).first()
        if row is None:
            raise ClassError("member", f"You are not in class {klass.code} any more: join again.")
        return row

    @staticmethod
    def _info(row: Row) -> ClassInfo:
        return ClassInfo(
            row.code, row.created, row.expires, bool(row.show_scores), row.member_limit
        )

    def _end(self, code: str, reason: str) -> None:
        """Deletes the class (its rows go with it: ON DELETE CASCADE) and remembers why."""
        now = self.clock()
        with self._write() as conn:
            conn.execute(delete(classes).where(classes.c.code == code))
            conn.execute(delete(ended).where(ended.c.code == code))
            conn.execute(insert(ended).values(code=code, reason=reason, until=now + ENDED_KEPT_S))

    @call
    def purge_expired(self) -> int:
        """Deletes every expired class (and forgets old ended codes and join attempts); returns
        how many classes went. Cheap (indexed on expiry); run when a class is created."""
        now = self.clock()
        with self._write() as conn:
            expired = classes.c.expires <= now
            dying = select(classes.c.code).where(expired)
            conn.execute(delete(ended).where((ended.c.until <= now) | ended.c.code.in_(dying)))
            conn.execute(
                insert(ended).from_select(
                    ["code", "reason", "until"],
                    select(
                        classes.c.code, text("'expired'"), classes.c.expires + ENDED_KEPT_S
                    ).where(expired),
                )
            )
            gone = conn.execute(delete(classes).where(expired)).rowcount
            conn.execute(delete(join_attempts).where(join_attempts.c.at <= now - RATE_WINDOW_S))
        return gone
