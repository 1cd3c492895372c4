"""``gammoncam export`` and ``gammoncam check`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from engine.matfile import read_mat, write_mat
from gammoncam.service import MatchService
from gammoncam.store import EventStore
from tests.engine.selfplay import exported
from tests.gammoncam.test_cli import EXE
from tests.refereematch import referee_match


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120)


def _recorded_match(db: Path) -> int:
    with EventStore(db) as store:
        svc = MatchService(store)
        svc.command({"command": "new_match", "length": 3, "white": "Ann", "black": "Bob"})
        svc.command({"command": "opening_roll", "white": 6, "black": 1})
        svc.command({"command": "play", "play": "13/7 8/7"})
        svc.command({"command": "roll", "dice": [5, 5]})
        assert svc.match_id is not None
        return svc.match_id


def test_export_from_the_store_in_every_format(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    mid = _recorded_match(db)
    mat = run("export", str(mid), "--db", str(db), "--format", "mat")
    assert mat.returncode == 0, mat.stderr
    record = read_mat(mat.stdout)
    assert (record.white, record.black, record.length) == ("Ann", "Bob", 3)
    first = record.games[0].actions[0]
    assert (first.dice, first.notation) == ((6, 1), "13/7 8/7")
    sgf = run("export", str(mid), "--db", str(db), "--format", "sgf")
    assert sgf.returncode == 0 and "GM[6]" in sgf.stdout and "PW[Ann]" in sgf.stdout
    out = tmp_path / "m.json"
    js = run("export", str(mid), "--db", str(db), "--format", "json", "--out", str(out))
    assert js.returncode == 0 and js.stdout == ""
    log = json.loads(out.read_text())
    assert [e["type"] for e in log["events"]][:3] == ["MatchStarted", "GameStarted",
                                                      "OpeningRolled"]
    # the JSON export is itself a log that exports again
    again = run("export", str(out), "--format", "mat")
    assert again.returncode == 0 and again.stdout == mat.stdout


def test_export_bad_inputs_give_one_line_and_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    for args in (["export", "9", "--db", str(tmp_path / "none.db")],
                 ["export", str(junk)],
                 ["export", str(tmp_path / "missing.jsonl")]):
        out = run(*args)
        assert out.returncode == 2, args
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_check_passes_a_gnubg_match_and_reports_an_injected_error(tmp_path: Path) -> None:
    text, _sgf = exported(1, 3)
    good = tmp_path / "good.mat"
    good.write_text(text)
    out = run("check", str(good))
    assert out.returncode == 0, out.stdout + out.stderr
    # the same match with the first game's score line wrong
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if " : 0" in line)
    lines[k] = lines[k].replace(" : 0", " : 1", 1)
    bad = tmp_path / "bad.mat"
    bad.write_text("\n".join(lines) + "\n")
    out = run("check", str(bad), "--json")
    assert out.returncode == 1
    problems = json.loads(out.stdout)
    assert problems and problems[0]["game"] == 1 and problems[0]["move"] == 0


def test_check_unreadable_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "x.mat"
    bad.write_text("this is not a match file\n 5) what\n")
    out = run("check", str(bad))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    out = run("check", str(tmp_path / "absent.mat"))
    assert out.returncode == 2


def test_export_of_a_referee_match_equals_the_writer(tmp_path: Path) -> None:
    ref = referee_match(11, 5)
    log = tmp_path / "e.jsonl"
    log.write_text("".join(json.dumps(e.to_json()) + "\n" for e in ref.all_events))
    out = run("export", str(log), "--format", "mat")
    assert out.returncode == 0, out.stderr
    assert ref.record is not None and out.stdout == write_mat(ref.record)
