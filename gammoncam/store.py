"""The event store: each match is an append-only log of events in SQLite, the source of truth.

State is a fold of the events, so this file is the only thing a restart needs. The store is
generic over events: it keeps JSON dicts with a ``"type"`` (what ``Event.to_json()`` makes) and
numbers them 1..n per match without gaps. Nothing is ever edited or deleted: a correction is a
new event (``Undone``, ``PositionCorrected``) appended to the log, and the database refuses
UPDATE and DELETE on the events table.

Durability: WAL journal, ``synchronous=FULL``; :meth:`EventStore.append` returns only after its
transaction is committed and fsync'd. Threads: one writer connection behind a lock (appends are
serialised; ``BEGIN IMMEDIATE`` also serialises writers in other processes) and a pool of
read-only connections, so web threads read while the service appends.

Schema: ``PRAGMA user_version`` is the number of :data:`MIGRATIONS` applied; opening a store
applies the missing ones in order, each in its own transaction. A file that is not an SQLite
database, is damaged, belongs to another program or to a newer gammoncam raises
:class:`StoreError` and is left exactly as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SQLITE_MAGIC = b"SQLite format 3\x00"
RESERVED_KEYS = ("seq", "recorded_at")  # the store adds these to every event it returns
STATUSES = ("active", "finished", "abandoned")
BUSY_TIMEOUT_S = 10.0
MAX_IDLE_READERS = 8


class StoreError(Exception):
    """The store cannot do what was asked: an unreadable or foreign file, a closed store, an
    unknown match or an event it cannot keep. The message says which, in one line."""


def _v1_tables(db: sqlite3.Connection) -> None:
    """Version 1: matches and their events."""
    db.execute(
        "CREATE TABLE matches ("
        " id INTEGER PRIMARY KEY,"
        " created TEXT NOT NULL,"
        " title TEXT NOT NULL,"
        " settings TEXT NOT NULL)"
    )
    db.execute(
        "CREATE TABLE events ("
        " match_id INTEGER NOT NULL REFERENCES matches(id),"
        " seq INTEGER NOT NULL CHECK (seq >= 1),"
        " type TEXT NOT NULL,"
        " payload TEXT NOT NULL,"
        " recorded_at TEXT NOT NULL,"
        " PRIMARY KEY (match_id, seq)"
        ") WITHOUT ROWID"
    )


def _v2_status_and_append_only(db: sqlite3.Connection) -> None:
    """Version 2: a status per match; the database itself keeps the log append-only and gapless."""
    statuses = ", ".join(f"'{s}'" for s in STATUSES)
    db.execute(
        "ALTER TABLE matches ADD COLUMN status TEXT NOT NULL DEFAULT 'active'"
        f" CHECK (status IN ({statuses}))"
    )
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events"
        " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events"
        " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER events_seq_gapless BEFORE INSERT ON events"
        " WHEN NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM events"
        "                  WHERE match_id = NEW.match_id)"
        " BEGIN SELECT RAISE(ABORT, 'event seqs run 1..n per match without gaps'); END"
    )


Migration = Callable[[sqlite3.Connection], None]

# MIGRATIONS[i] takes a store from user_version i to i + 1. Append only; never edit a released one.
MIGRATIONS: list[Migration] = [_v1_tables, _v2_status_and_append_only]


def schema_version() -> int:
    """The user_version a store has once every migration is applied."""
    return len(MIGRATIONS)


def _now() -> str:
    """UTC, ISO 8601 with milliseconds and a Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _dumps(value: Any, what: str) -> str:
    try:
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False
        )
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not JSON: {exc}") from exc


def _check_file(path: Path) -> None:
    """Refuse, before SQLite touches it, a path that cannot be or hold an event store."""
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not an event store file")
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise StoreError(f"cannot create {path}: there is no folder {path.parent}") from None
        return
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from exc
    if head and head != SQLITE_MAGIC:  # an empty file is an empty database
        raise StoreError(f"{path} is not an SQLite database; left untouched")


class EventStore:
    """Matches and their append-only event logs in one SQLite file.

    ``EventStore(path)`` creates the file if it is missing and migrates an older schema; it
    raises :class:`StoreError` (and leaves the file alone) for anything else. Use it as a
    context manager or call :meth:`close`. Safe to share between threads.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        _check_file(self.path)
        self._write_lock = threading.Lock()
        self._pool_lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._closed = False
        self._writer = self._connect()
        try:
            self._prepare(self._writer)
        except sqlite3.Error as exc:
            self._writer.close()
            raise StoreError(self._unusable(exc)) from exc
        except BaseException:
            self._writer.close()
            raise

    # -- connections --------------------------------------------------------------------------

    def _connect(self, *, readonly: bool = False) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from exc
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA synchronous = FULL")
            if readonly:
                db.execute("PRAGMA query_only = ON")
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(self._unusable(exc)) from exc
        return db

    def _unusable(self, exc: sqlite3.Error) -> str:
        """One line on why the file cannot be opened, with the way out when it is damaged."""
        if getattr(exc, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
            return self._damaged(str(exc))
        return f"{self.path} is not a usable event store: {exc}"

    def _damaged(self, detail: str) -> str:
        return (
            f"{self.path} is damaged ({detail}); left untouched: move it aside to start a new"
            f" store, or try `sqlite3 {self.path} .recover`"
        )

    def _prepare(self, db: sqlite3.Connection) -> None:
        """Check the file (reads only), then switch on WAL and migrate (the first writes)."""
        problems = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise StoreError(self._damaged(problems[0]))
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} has schema version {version}; this gammoncam knows up to"
                f" {len(MIGRATIONS)} (a newer gammoncam wrote it); left untouched"
            )
        if version == 0:
            tables = db.execute("SELECT name FROM sqlite_master").fetchall()
            if tables:
                raise StoreError(
                    f"{self.path} is an SQLite database of another program"
                    f" (it holds {tables[0][0]!r}), not a gammoncam event store; left untouched"
                )
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: cannot use the WAL journal (got {mode!r})")
        self._migrate(db)

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        while True:
            db.execute("BEGIN IMMEDIATE")
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version >= len(MIGRATIONS):
                    db.execute("COMMIT")
                    return
                MIGRATIONS[version](db)
                db.execute(f"PRAGMA user_version = {version + 1}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the event store {self.path} is closed")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The writer connection inside BEGIN IMMEDIATE .. COMMIT (durable once this exits)."""
        with self._write_lock:
            self._check_open()
            db = self._writer
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                    db.execute("COMMIT")
                finally:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: write failed: {exc}") from exc

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection from the pool (made when none is idle)."""
        with self._pool_lock:
            self._check_open()
            db = self._idle.pop() if self._idle else None
        if db is None:
            db = self._connect(readonly=True)
        try:
            yield db
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: read failed: {exc}") from exc
        finally:
            with self._pool_lock:
                if self._closed or len(self._idle) >= MAX_IDLE_READERS:
                    db.close()
                else:
                    self._idle.append(db)

    # -- writing ------------------------------------------------------------------------------

    def create_match(self, settings: Mapping[str, Any], title: str) -> int:
        """Add a match (status "active", no events yet) and return its id."""
        if not isinstance(settings, Mapping):
            raise StoreError(f"match settings must be a dict, not {type(settings).__name__}")
        if not isinstance(title, str):
            raise StoreError(f"a match title must be a string, not {type(title).__name__}")
        settings_json = _dumps(dict(settings), "the match settings")
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO matches (created, title, settings) VALUES (?, ?, ?)",
                (_now(), title, settings_json),
            )
            match_id = cursor.lastrowid
        assert match_id is not None
        return match_id

    def append(self, match_id: int, events: Sequence[Mapping[str, Any]]) -> list[int]:
        """Append events to a match's log in one transaction and return their seqs.

        Each event is a JSON dict with a non-empty string ``"type"``; the keys ``"seq"`` and
        ``"recorded_at"`` are the store's. Either all of ``events`` are kept or none (a bad
        event raises :class:`StoreError` before anything is written). Returns only once the
        commit is durable on disk.
        """
        rows = [self._row(i, event) for i, event in enumerate(events)]
        with self._transaction() as db:
            self._require_match(db, match_id)
            last = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()[0]
            seqs = list(range(last + 1, last + 1 + len(rows)))
            recorded_at = _now()
            db.executemany(
                "INSERT INTO events (match_id, seq, type, payload, recorded_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (match_id, seq, kind, payload, recorded_at)
                    for seq, (kind, payload) in zip(seqs, rows, strict=True)
                ],
            )
        return seqs

    @staticmethod
    def _row(index: int, event: Mapping[str, Any]) -> tuple[str, str]:
        if not isinstance(event, Mapping):
            raise StoreError(f"event {index} is a {type(event).__name__}, not a dict")
        kind = event.get("type")
        if not isinstance(kind, str) or not kind:
            raise StoreError(f"event {index} has no 'type' (a non-empty string)")
        clash = [key for key in RESERVED_KEYS if key in event]
        if clash:
            raise StoreError(f"event {index} ({kind}) sets {clash[0]!r}, which the store assigns")
        payload = {key: value for key, value in event.items() if key != "type"}
        return kind, _dumps(payload, f"event {index} ({kind})")

    def set_status(self, match_id: int, status: str) -> None:
        """Mark a match "active", "finished" or "abandoned" (its log is not touched)."""
        if status not in STATUSES:
            raise StoreError(f"unknown match status {status!r}; one of {', '.join(STATUSES)}")
        with self._transaction() as db:
            self._require_match(db, match_id)
            db.execute("UPDATE matches SET status = ? WHERE id = ?", (status, match_id))

    def _require_match(self, db: sqlite3.Connection, match_id: int) -> None:
        if isinstance(match_id, bool) or not isinstance(match_id, int):
            raise StoreError(f"a match id is an int, not {match_id!r}")
        if db.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
            raise StoreError(f"no match {match_id} in {self.path}")

    # -- reading ------------------------------------------------------------------------------

    def events(self, match_id: int, after: int = 0) -> list[dict[str, Any]]:
        """The match's events with seq > ``after``, in order.

        Each is ``{"seq": n, "type": ..., **payload, "recorded_at": "...Z"}`` (what
        ``engine.events.event_from_json`` reads back).
        """
        with self._reading() as db:
            rows = db.execute(
                "SELECT seq, type, payload, recorded_at FROM events"
                " WHERE match_id = ? AND seq > ? ORDER BY seq",
                (match_id, after),
            ).fetchall()
            if not rows:
                self._require_match(db, match_id)
        return [
            {"seq": seq, "type": kind, **json.loads(payload), "recorded_at": recorded_at}
            for seq, kind, payload, recorded_at in rows
        ]

    def last_seq(self, match_id: int) -> int:
        """The seq of the match's newest event (0 before the first)."""
        with self._reading() as db:
            self._require_match(db, match_id)
            return db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()[0]

    _MATCH_COLUMNS = (
        "SELECT id, created, title, settings, status,"
        " (SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = matches.id)"
        " FROM matches"
    )

    @staticmethod
    def _match_dict(row: Sequence[Any]) -> dict[str, Any]:
        match_id, created, title, settings, status, last_seq = row
        return {
            "id": match_id,
            "created": created,
            "title": title,
            "settings": json.loads(settings),
            "status": status,
            "last_seq": last_seq,
        }

    def matches(self) -> list[dict[str, Any]]:
        """Every match, oldest first: id, created, title, settings (dict), status, last_seq."""
        with self._reading() as db:
            rows = db.execute(f"{self._MATCH_COLUMNS} ORDER BY id").fetchall()
        return [self._match_dict(row) for row in rows]

    def match(self, match_id: int) -> dict[str, Any]:
        """One match as :meth:`matches` lists it."""
        with self._reading() as db:
            self._require_match(db, match_id)
            row = db.execute(f"{self._MATCH_COLUMNS} WHERE id = ?", (match_id,)).fetchone()
        return self._match_dict(row)

    def pragmas(self) -> dict[str, Any]:
        """The writer connection's journal_mode, synchronous (2 = FULL), foreign_keys and
        user_version, read back from SQLite (for health checks and tests)."""
        with self._write_lock:
            self._check_open()
            return {
                name: self._writer.execute(f"PRAGMA {name}").fetchone()[0]
                for name in ("journal_mode", "synchronous", "foreign_keys", "user_version")
            }

    # -- closing ------------------------------------------------------------------------------

    def close(self) -> None:
        """Close every connection; later calls raise :class:`StoreError`. Idempotent."""
        with self._write_lock, self._pool_lock:
            if self._closed:
                return
            self._closed = True
            idle, self._idle = self._idle, []
            for db in idle:
                db.close()
            self._writer.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
