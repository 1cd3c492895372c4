"""Crash safety: the recorder is SIGKILLed at random moments and restarted from the store.

After every kill: each seq the child acknowledged is in the store, the fold of the log up to that
seq is the state the child had when it acknowledged it, and the restarted child, folding the same
log, reports the state the parent folds. At the end the log equals the one an uninterrupted run
of the same script writes: resuming changed nothing.
"""

from __future__ import annotations

import io
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from engine.events import event_from_json
from engine.referee import CommandError, Phase, Referee
from gammoncam.store import EventStore
from tests.gammoncam import crash_child

ROOT = Path(__file__).resolve().parents[2]
SEED = 1729
KILLS = 24
# The kill lands after a random number of the child's acknowledged writes (counted, so a loaded
# machine cannot starve the test of writes), then a random fraction of a write's time.
MAX_ACKS_BEFORE_KILL = 30
MAX_JITTER_S = 0.02
ACKS_TIMEOUT_S = 20.0
READY_TIMEOUT_S = 20.0

Acks = dict[tuple[int, int], str]  # (match id, seq) -> digest of the child's snapshot


def _normal(value: Any) -> Any:
    """As it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value, sort_keys=True))


def _complete_lines(path: Path) -> list[str]:
    """Lines the child finished writing (a kill can cut the last one short)."""
    text = path.read_text(encoding="utf-8")
    return text.split("\n")[:-1]


def _wait_ready(proc: subprocess.Popen[bytes], out: Path, err: Path) -> tuple[int, Any]:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        for line in _complete_lines(out):
            if line.startswith("ready "):
                _, match_id, snapshot = line.split(" ", 2)
                return int(match_id), json.loads(snapshot)
        if proc.poll() is not None:
            raise AssertionError(
                f"child exited ({proc.returncode}) before ready: {err.read_text()}"
            )
        time.sleep(0.002)
    raise AssertionError("child not ready in time")


def _acks(out: Path) -> Acks:
    acks: Acks = {}
    for line in _complete_lines(out):
        if line.startswith("ack "):
            _, match_id, seq, digest = line.split(" ")
            acks[int(match_id), int(seq)] = digest
    return acks


def _read_store(db: Path) -> tuple[int, Any, dict[int, list[dict[str, Any]]]]:
    """The newest match's id, its folded snapshot and every match's log, as a restart sees them."""
    if not db.exists():
        return 0, _normal(Referee().snapshot()), {}
    with EventStore(db) as store:
        logs = {m["id"]: store.events(m["id"]) for m in store.matches()}
    newest = max(logs, default=0)
    ref = Referee.from_events(logs[newest]) if newest else Referee()
    return newest, _normal(ref.snapshot()), logs


def _check_acks(logs: dict[int, list[dict[str, Any]]], acks: Acks) -> None:
    """Every acknowledged seq is stored, and folding up to it gives the child's state then."""
    for match_id in {m for m, _ in acks}:
        log = logs.get(match_id, [])
        assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
        wanted = {seq: d for (m, seq), d in acks.items() if m == match_id}
        assert max(wanted) <= len(log), f"match {match_id}: acknowledged events were lost"
        ref = Referee()
        for event in log[: max(wanted)]:
            ref.apply(event_from_json(event))
            if event["seq"] in wanted:
                assert crash_child.digest(ref.snapshot()) == wanted[event["seq"]], (
                    f"match {match_id} seq {event['seq']}: the fold differs from the live state"
                )


def _content(logs: dict[int, list[dict[str, Any]]]) -> dict[int, list[dict[str, Any]]]:
    """The logs without the store's timestamps (and without matches that have no events yet)."""
    return {
        m: [{k: v for k, v in e.items() if k != "recorded_at"} for e in log]
        for m, log in logs.items()
        if log
    }


def _wait_acks(proc: subprocess.Popen[bytes], out: Path, count: int) -> None:
    """Until the child has acknowledged ``count`` writes in this run (or stopped: checked after)."""
    deadline = time.monotonic() + ACKS_TIMEOUT_S
    while time.monotonic() < deadline and proc.poll() is None:
        if sum(line.startswith("ack ") for line in _complete_lines(out)) >= count:
            return
        time.sleep(0.001)


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    db = tmp_path / "matches.db"
    all_acks: Acks = {}
    expected = _read_store(db)[:2]
    for kill in range(KILLS + 1):  # the last start only checks the resume after the last kill
        out, err = tmp_path / f"run{kill}.out", tmp_path / f"run{kill}.err"
        with out.open("wb") as out_file, err.open("wb") as err_file:
            proc = subprocess.Popen(
                [sys.executable, "-m", "tests.gammoncam.crash_child", str(db), str(SEED)],
                cwd=ROOT,
                stdout=out_file,
                stderr=err_file,
            )
        try:
            assert _wait_ready(proc, out, err) == expected, f"restart {kill} resumed elsewhere"
            if kill < KILLS:
                _wait_acks(proc, out, rng.randint(0, MAX_ACKS_BEFORE_KILL))
                time.sleep(rng.uniform(0.0, MAX_JITTER_S))
            assert proc.poll() is None, f"child stopped on its own: {err.read_text()}"
            proc.send_signal(signal.SIGKILL)
            assert proc.wait(timeout=10) == -signal.SIGKILL
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        acks = _acks(out)
        all_acks.update(acks)
        newest, snapshot, logs = _read_store(db)
        _check_acks(logs, acks)  # this run's acks: stored, and the fold matches each
        for match_id, seq in all_acks:  # every earlier run's acks: still stored
            assert seq <= len(logs[match_id]), f"match {match_id} seq {seq} lost after kill {kill}"
        expected = (newest, snapshot)
    _check_acks(logs, all_acks)
    assert len(all_acks) > 10 * KILLS, "the child hardly wrote anything between kills"
    assert len(logs) > 1, "the kills never landed in a second match"

    # The same script, never interrupted, writes the same log.
    reference = tmp_path / "reference.db"
    total = sum(len(log) for log in logs.values())
    crash_child.run(str(reference), SEED, io.StringIO(), stop_after=total)
    assert _content(_read_store(reference)[2]) == _content(logs)


def test_a_referee_folded_from_the_store_acts_like_the_live_one(tmp_path: Path) -> None:
    """A referee rebuilt from the stored log (a restart) is in the live referee's state and
    answers the next command with exactly the same events: checked before every undo (where
    the log must say how much to take back) and at one step in eight otherwise."""
    sample = random.Random(SEED)
    checked = {"undo": 0, "other": 0}
    with EventStore(tmp_path / "matches.db") as store:
        for number in range(1, 16):
            settings = crash_child.match_settings(SEED, number)
            match_id = store.create_match(settings, "m")
            live = Referee()
            last = 0
            while live.phase != Phase.MATCH_OVER and last < 1000:
                before = _normal(live.snapshot())
                rng = random.Random(f"{SEED}:{match_id}:{last}")
                cmd, events = crash_child.step(live, rng, settings)
                sent = [e.to_json() for e in events]
                kind = "undo" if cmd["command"] == "undo" else "other"
                if kind == "undo" or sample.random() < 1 / 8:
                    restarted = Referee.from_events(store.events(match_id))
                    assert _normal(restarted.snapshot()) == before, f"match {match_id} seq {last}"
                    try:
                        again = [e.to_json() for e in restarted.command(cmd)]
                    except CommandError as exc:
                        raise AssertionError(f"after seq {last}: {cmd} refused: {exc}") from exc
                    assert again == sent, f"match {match_id}, after seq {last}: {cmd}"
                    checked[kind] += 1
                last = store.append(match_id, sent)[-1]
    assert checked["undo"] >= 20 and checked["other"] >= 100, checked
