"""The event store: append-only logs per match, durable settings, migrations, refusing bad files."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import pytest

from gammoncam import store as store_module
from gammoncam.store import EventStore, StoreError, schema_version


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "matches.db"


@pytest.fixture
def store(db_path: Path):
    with EventStore(db_path) as s:
        yield s


def _payloads(events: list[dict]) -> list[dict]:
    """Events as they went in: without the store's seq and recorded_at."""
    return [{k: v for k, v in e.items() if k not in ("seq", "recorded_at")} for e in events]


# -- appending and reading ----------------------------------------------------------------------


def test_append_returns_seqs_and_events_read_back_in_order(store: EventStore) -> None:
    match = store.create_match({"length": 5, "white": "Ann", "black": "Bob"}, "Ann v Bob")
    sent = [
        {"type": "MatchStarted", "settings": {"length": 5}},
        {"type": "Rolled", "side": "white", "dice": [5, 2]},
        {"type": "Note", "text": "Ünïcode ✓", "nested": {"a": [1, None, 2.5, True]}},
    ]
    assert store.append(match, sent[:2]) == [1, 2]
    assert store.append(match, sent[2:]) == [3]
    got = store.events(match)
    assert [e["seq"] for e in got] == [1, 2, 3]
    assert _payloads(got) == sent
    assert all(e["recorded_at"].endswith("Z") and "T" in e["recorded_at"] for e in got)
    assert list(got[0])[:2] == ["seq", "type"]
    assert [e["seq"] for e in store.events(match, after=1)] == [2, 3]
    assert store.events(match, after=3) == []
    assert store.last_seq(match) == 3


def test_events_read_back_by_the_engine(store: EventStore) -> None:
    from engine.events import event_from_json

    match = store.create_match({}, "m")
    store.append(match, [{"type": "Doubled", "side": "white", "value": 2}])
    (event,) = [event_from_json(e) for e in store.events(match)]
    assert event.type == "Doubled" and dict(event.data) == {"side": "white", "value": 2}


def test_seqs_continue_without_gaps_across_appends_and_reopening(db_path: Path) -> None:
    with EventStore(db_path) as s:
        match = s.create_match({}, "m")
        assert s.append(match, []) == []
        assert s.append(match, [{"type": "A"}, {"type": "B"}]) == [1, 2]
    with EventStore(db_path) as s:
        assert s.append(match, [{"type": "C"}]) == [3]
        assert s.append(match, [{"type": "D"}] * 3) == [4, 5, 6]
        assert [e["seq"] for e in s.events(match)] == [1, 2, 3, 4, 5, 6]
        assert [e["type"] for e in s.events(match)] == list("ABCDDD")


def test_several_matches_keep_their_own_logs(store: EventStore) -> None:
    a = store.create_match({"length": 3}, "first")
    b = store.create_match({"length": 7, "white": "Cy"}, "second")
    assert a != b
    rng = random.Random(1)
    expected: dict[int, list[str]] = {a: [], b: []}
    for i in range(40):
        match = rng.choice([a, b])
        kinds = [f"E{i}.{j}" for j in range(rng.randint(1, 3))]
        first = len(expected[match]) + 1
        assert store.append(match, [{"type": k} for k in kinds]) == list(
            range(first, first + len(kinds))
        )
        expected[match] += kinds
    for match in (a, b):
        got = store.events(match)
        assert [e["type"] for e in got] == expected[match]
        assert [e["seq"] for e in got] == list(range(1, len(got) + 1))
    listed = store.matches()
    assert [m["id"] for m in listed] == [a, b]
    assert listed[0]["title"] == "first" and listed[1]["settings"] == {"length": 7, "white": "Cy"}
    assert [m["last_seq"] for m in listed] == [len(expected[a]), len(expected[b])]
    assert all(m["status"] == "active" and m["created"].endswith("Z") for m in listed)
    assert store.match(b) == listed[1]


def test_status_changes_but_the_log_does_not(store: EventStore) -> None:
    match = store.create_match({}, "m")
    store.append(match, [{"type": "MatchWon", "side": "white"}])
    store.set_status(match, "finished")
    assert store.match(match)["status"] == "finished"
    with pytest.raises(StoreError, match="unknown match status"):
        store.set_status(match, "paused")
    assert len(store.events(match)) == 1


def test_a_bad_event_rejects_the_whole_batch(store: EventStore) -> None:
    match = store.create_match({}, "m")
    store.append(match, [{"type": "A"}])
    bad_batches = [
        ([{"type": "B"}, {"side": "white"}], "no 'type'"),
        ([{"type": "B"}, {"type": ""}], "no 'type'"),
        ([{"type": "B"}, "Rolled"], "not a dict"),
        ([{"type": "B"}, {"type": "C", "dice": {5, 2}}], "not JSON"),
        ([{"type": "B"}, {"type": "C", "x": float("nan")}], "not JSON"),
        ([{"type": "B"}, {"type": "C", "seq": 9}], "'seq'"),
        ([{"type": "B", "recorded_at": "now"}], "'recorded_at'"),
    ]
    for batch, message in bad_batches:
        with pytest.raises(StoreError, match=message):
            store.append(match, batch)
    assert [e["type"] for e in store.events(match)] == ["A"]
    assert store.append(match, [{"type": "B"}]) == [2]


def test_unknown_matches_and_bad_settings_are_refused(store: EventStore) -> None:
    with pytest.raises(StoreError, match="no match 42"):
        store.append(42, [{"type": "A"}])
    with pytest.raises(StoreError, match="no match 42"):
        store.events(42)
    with pytest.raises(StoreError, match="no match 42"):
        store.match(42)
    with pytest.raises(StoreError, match="settings must be a dict"):
        store.create_match([("length", 5)], "m")  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="settings is not JSON"):
        store.create_match({"when": object()}, "m")
    assert store.matches() == []


def test_the_database_itself_refuses_edits_and_gaps(store: EventStore, db_path: Path) -> None:
    match = store.create_match({}, "m")
    store.append(match, [{"type": "A"}, {"type": "B"}])
    raw = sqlite3.connect(db_path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE events SET type = 'X' WHERE seq = 1")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM events WHERE seq = 2")
        with pytest.raises(sqlite3.IntegrityError, match="without gaps"):
            raw.execute("INSERT INTO events VALUES (?, 4, 'Z', '{}', 'now')", (match,))
    finally:
        raw.close()
    assert [e["type"] for e in store.events(match)] == ["A", "B"]


def test_closed_store_refuses_calls(db_path: Path) -> None:
    s = EventStore(db_path)
    match = s.create_match({}, "m")
    s.close()
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.append(match, [{"type": "A"}])
    with pytest.raises(StoreError, match="closed"):
        s.events(match)


# -- durability settings ------------------------------------------------------------------------


def test_wal_and_synchronous_full_are_set(store: EventStore, db_path: Path) -> None:
    pragmas = store.pragmas()
    assert pragmas["journal_mode"] == "wal"
    assert pragmas["synchronous"] == 2  # FULL
    assert pragmas["foreign_keys"] == 1
    assert pragmas["user_version"] == schema_version() == len(store_module.MIGRATIONS)
    raw = sqlite3.connect(db_path)  # WAL is a property of the file, seen by any connection
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        raw.close()


# -- schema migrations --------------------------------------------------------------------------


def _make_version_1_store(path: Path) -> None:
    """A store as gammoncam's schema version 1 wrote it (rollback journal, no status column)."""
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute(
        "CREATE TABLE matches (id INTEGER PRIMARY KEY, created TEXT NOT NULL,"
        " title TEXT NOT NULL, settings TEXT NOT NULL)"
    )
    raw.execute(
        "CREATE TABLE events (match_id INTEGER NOT NULL REFERENCES matches(id),"
        " seq INTEGER NOT NULL CHECK (seq >= 1), type TEXT NOT NULL, payload TEXT NOT NULL,"
        " recorded_at TEXT NOT NULL, PRIMARY KEY (match_id, seq)) WITHOUT ROWID"
    )
    raw.execute("PRAGMA user_version = 1")
    raw.execute(
        "INSERT INTO matches VALUES (7, '2024-05-01T10:00:00.000Z', 'old', '{\"length\":3}')"
    )
    raw.executemany(
        "INSERT INTO events VALUES (7, ?, ?, ?, '2024-05-01T10:00:01.000Z')",
        [(1, "MatchStarted", '{"settings":{"length":3}}'), (2, "Note", '{"text":"hi"}')],
    )
    raw.close()


def test_a_version_1_store_is_migrated_in_place(db_path: Path) -> None:
    _make_version_1_store(db_path)
    with EventStore(db_path) as s:
        assert s.pragmas()["user_version"] == schema_version() == 2
        assert s.pragmas()["journal_mode"] == "wal"
        (old,) = s.matches()
        assert old["id"] == 7 and old["title"] == "old" and old["settings"] == {"length": 3}
        assert old["status"] == "active"  # the column version 2 added
        assert _payloads(s.events(7)) == [
            {"type": "MatchStarted", "settings": {"length": 3}},
            {"type": "Note", "text": "hi"},
        ]
        assert s.append(7, [{"type": "Note", "text": "after"}]) == [3]
    raw = sqlite3.connect(db_path, isolation_level=None)
    try:  # version 2's triggers now guard the old log too
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM events WHERE seq = 1")
    finally:
        raw.close()


def test_a_failing_migration_leaves_the_store_at_its_version(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _make_version_1_store(db_path)

    def broken(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise sqlite3.OperationalError("disk on fire")

    monkeypatch.setattr(store_module, "MIGRATIONS", [*store_module.MIGRATIONS, broken])
    with pytest.raises(StoreError, match="disk on fire"):
        EventStore(db_path)
    raw = sqlite3.connect(db_path)
    try:  # version 2 was applied and committed; version 3 rolled back as a whole
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
        names = {r[0] for r in raw.execute("SELECT name FROM sqlite_master")}
        assert "half_done" not in names and "events_no_update" in names
    finally:
        raw.close()
    monkeypatch.undo()
    with EventStore(db_path) as s:
        assert s.last_seq(7) == 2


# -- files that are not (our) stores ------------------------------------------------------------


def _assert_refused_untouched(path: Path, message: str) -> None:
    before = path.read_bytes()
    with pytest.raises(StoreError, match=message):
        EventStore(path)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


def test_a_non_sqlite_file_is_refused_and_left_alone(db_path: Path) -> None:
    db_path.write_text("white: Ann\nblack: Bob\n" * 50)
    _assert_refused_untouched(db_path, "not an SQLite database")
    db_path.write_bytes(b"SQLite")  # a prefix of the magic is not a database either
    _assert_refused_untouched(db_path, "not an SQLite database")


def _store_with_pages(path: Path) -> bytearray:
    with EventStore(path) as s:  # closing checkpoints the WAL into the file
        match = s.create_match({}, "m")
        for _ in range(50):
            s.append(match, [{"type": "Note", "text": "x" * 200}] * 5)
    data = bytearray(path.read_bytes())
    assert len(data) >= 16 * 4096
    return data


def test_a_store_damaged_beyond_its_header_is_refused_and_left_alone(db_path: Path) -> None:
    data = _store_with_pages(db_path)
    rng = random.Random(3)
    data[4096:] = bytes(rng.randrange(256) for _ in range(len(data) - 4096))
    db_path.write_bytes(bytes(data))
    _assert_refused_untouched(db_path, r"is damaged \(.*malformed.*\.recover")


def test_a_store_with_one_lost_page_is_refused_at_open(db_path: Path) -> None:
    """The schema still reads; only the integrity check at open sees the hole in the log."""
    data = _store_with_pages(db_path)
    middle = (len(data) // 4096 // 2) * 4096
    data[middle : middle + 4096] = bytes(4096)
    db_path.write_bytes(bytes(data))
    _assert_refused_untouched(db_path, r"is damaged \(.*\.recover")


def test_another_programs_database_is_refused_and_left_alone(db_path: Path) -> None:
    raw = sqlite3.connect(db_path)
    raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    raw.commit()
    raw.close()
    _assert_refused_untouched(db_path, "another program")


def test_a_store_from_a_newer_gammoncam_is_refused_and_left_alone(db_path: Path) -> None:
    EventStore(db_path).close()
    raw = sqlite3.connect(db_path)
    raw.execute(f"PRAGMA user_version = {schema_version() + 1}")
    raw.close()
    _assert_refused_untouched(db_path, "newer gammoncam")


def test_paths_that_cannot_hold_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        EventStore(tmp_path)
    with pytest.raises(StoreError, match="no folder"):
        EventStore(tmp_path / "missing" / "matches.db")


def test_an_empty_file_becomes_a_store(db_path: Path) -> None:
    db_path.write_bytes(b"")
    with EventStore(db_path) as s:
        assert s.append(s.create_match({}, "m"), [{"type": "A"}]) == [1]


# -- threads ------------------------------------------------------------------------------------


def test_readers_see_whole_batches_while_one_thread_writes(store: EventStore) -> None:
    match = store.create_match({}, "m")
    rng = random.Random(7)
    sizes = [rng.randint(1, 5) for _ in range(120)]
    boundaries = {0}
    for size in sizes:
        boundaries.add(max(boundaries) + size)
    done = threading.Event()
    errors: list[BaseException] = []
    reads = [0]

    def writer() -> None:
        try:
            n = 0
            for size in sizes:
                seqs = store.append(match, [{"type": "Note", "i": n + j} for j in range(size)])
                assert seqs == list(range(n + 1, n + size + 1))
                n += size
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            done.set()

    def reader(incremental: bool) -> None:
        try:
            seen: list[dict] = []
            while True:
                finished = done.is_set()
                if incremental:
                    seen += store.events(match, after=seen[-1]["seq"] if seen else 0)
                else:
                    seen = store.events(match)
                reads[0] += 1
                assert [e["seq"] for e in seen] == list(range(1, len(seen) + 1))
                assert [e["i"] for e in seen] == list(range(len(seen)))
                assert len(seen) in boundaries, "a reader saw half a batch"
                if finished:
                    assert len(seen) == max(boundaries)
                    return
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=writer)]
    threads += [threading.Thread(target=reader, args=(i % 2 == 0,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert reads[0] > len(threads)  # the readers really ran alongside the writer


def test_two_stores_on_one_file_never_share_a_seq(db_path: Path) -> None:
    with EventStore(db_path) as first:
        match = first.create_match({}, "m")
    got: list[list[int]] = [[], []]

    def write(k: int) -> None:
        with EventStore(db_path) as s:
            for _ in range(30):
                got[k] += s.append(match, [{"type": "Note", "writer": k}])

    threads = [threading.Thread(target=write, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(got[0] + got[1]) == list(range(1, 61))
    with EventStore(db_path) as s:
        by_seq = {e["seq"]: e["writer"] for e in s.events(match)}
    assert all(by_seq[seq] == k for k in (0, 1) for seq in got[k])
