"""The match service: commands and observations recorded durably, broadcast, resumed."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.observation import Observation
from engine.referee import CommandError
from gammoncam.service import MatchService
from gammoncam.store import EventStore, StoreError


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    s = EventStore(tmp_path / "g.db")
    yield s
    s.close()


def test_command_is_stored_and_broadcast(store: EventStore) -> None:
    svc = MatchService(store)
    sub = svc.publisher.subscribe()
    svc.command({"command": "new_match", "length": 3, "white": "Ann", "black": "Bob"})
    svc.command({"command": "opening_roll", "white": 3, "black": 1})
    got = svc.command({"command": "play", "play": "8/5 6/5"})
    assert [e["type"] for e in got] == ["Moved"]
    assert got[0]["seq"] == store.last_seq(svc.match_id)
    snaps = [sub.get(timeout=1) for _ in range(3)]
    assert snaps[-1]["seq"] == got[0]["seq"] and snaps[-1]["turn"] == "black"
    assert snaps[-1]["position"]["points"][4] == 2  # white's 5-point made


def test_refused_command_changes_nothing(store: EventStore) -> None:
    svc = MatchService(store)
    svc.command({"command": "new_match", "length": 3})
    before = (svc.snapshot()["phase"], store.last_seq(svc.match_id))
    with pytest.raises(CommandError):
        svc.command({"command": "take"})
    assert (svc.snapshot()["phase"], store.last_seq(svc.match_id)) == before


def test_restart_resumes_the_active_match_exactly(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        svc = MatchService(store)
        svc.command({"command": "new_match", "length": 5})
        svc.command({"command": "opening_roll", "white": 6, "black": 5})
        svc.command({"command": "play", "play": "24/13"})
        before = svc.snapshot()
    with EventStore(tmp_path / "g.db") as store:
        again = MatchService(store).snapshot()
    for key in ("phase", "position", "turn", "score", "cube", "moves", "match_id", "seq"):
        assert again[key] == before[key], key
    assert again["boot_id"] != before["boot_id"]


def test_observation_records_the_play(store: EventStore) -> None:
    svc = MatchService(store)
    svc.command({"command": "new_match", "length": 3})
    svc.command({"command": "opening_roll", "white": 3, "black": 1})
    after = next(p for p in svc.referee.legal() if p.notation == "8/5 6/5").after
    got = svc.observe(Observation.exact(after))
    assert [e["type"] for e in got] == ["Moved"] and got[0]["play"] == "8/5 6/5"


def test_failed_append_loses_nothing_and_shows_nothing_unrecorded(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = MatchService(store)
    svc.command({"command": "new_match", "length": 3})
    svc.command({"command": "opening_roll", "white": 3, "black": 1})
    recorded = svc.snapshot()

    def broken(*args: object, **kwargs: object) -> list[int]:
        raise StoreError("disk full")

    monkeypatch.setattr(store, "append", broken)
    with pytest.raises(StoreError):
        svc.command({"command": "play", "play": "8/5 6/5"})
    assert svc.snapshot()["position"] == recorded["position"]
    assert svc.snapshot()["phase"] == "rolled"


def test_new_match_closes_the_previous_one(store: EventStore) -> None:
    svc = MatchService(store)
    svc.command({"command": "new_match", "length": 3})
    first = svc.match_id
    svc.command({"command": "new_match", "length": 1})
    assert svc.match_id != first
    statuses = {m["id"]: m["status"] for m in store.matches()}
    assert statuses[first] == "abandoned" and statuses[svc.match_id] == "active"
