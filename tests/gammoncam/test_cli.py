"""The command line as a user runs it: the installed ``gammoncam`` script in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import STANDARD, WHITE, legal_plays
from engine.xgid import parse_xgid

START_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
EXE = shutil.which("gammoncam") or str(Path(sys.executable).parent / "gammoncam")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_plays_lists_every_legal_play_with_the_xgid_it_leaves() -> None:
    out = run("plays", START_52, "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    expected = {p.notation: p.after for p in legal_plays(STANDARD.start, WHITE, (5, 2))}
    assert {r["play"] for r in rows} == set(expected)
    for r in rows:
        after = parse_xgid(r["xgid"])
        assert after.position == expected[r["play"]]
        assert after.turn is WHITE.other and after.dice is None


def test_plays_reads_one_xgid_per_line_from_stdin() -> None:
    other = "XGID=-b----E-C---eE---c-e----B-:0:0:1:66:0:0:0:0:10"
    out = run("plays", "--json", stdin=f"{START_52}\n\n{other}\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 2
    assert "13/11 13/8" in {r["play"] for r in json.loads(lines[0])}
    assert "24/18(2) 13/7(2)" in {r["play"] for r in json.loads(lines[1])}


@pytest.mark.parametrize(
    "bad",
    [
        "XGID=nonsense",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0",
        "",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:5x:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ],
)
def test_plays_rejects_a_bad_xgid_with_one_line_and_exit_2(bad: str) -> None:
    out = run("plays", bad, "--json")
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr
    assert lines[0].startswith("gammoncam: ")


def test_judge_accepts_a_legal_play_and_names_it() -> None:
    rows = json.loads(run("plays", START_52, "--json").stdout)
    target = next(r for r in rows if r["play"] == "13/11 13/8")
    out = run("judge", START_52, target["xgid"], "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"legal": True, "play": "13/11 13/8", "reasons": []}


def test_judge_explains_an_illegal_play() -> None:
    # 13/6 with 5-2 is 7 pips... legal; 13/5 is 8 pips: not what 5-2 allows
    after = "XGID=-b---AE-C---eD---c-e----B-:0:0:-1:00:0:0:0:0:10"
    out = run("judge", START_52, after, "--json")
    assert out.returncode == 0, out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["legal"] is False and verdict["play"] is None
    assert verdict["reasons"] and any("13" in r for r in verdict["reasons"])


def test_judge_rejects_a_malformed_xgid() -> None:
    out = run("judge", START_52, "XGID=zz", "--json")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
