"""GNU Backgammon SGF: what we write loads into Debian's gnubg program (apt package ``gnubg``:
its Python loads SGF, the PyPI build's cannot) as the same match, dice, plays, cube actions and
score; and our nodes are the ones gnubg itself saves for the same match.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from engine.matfile import read_mat
from engine.record import MatchRecord
from engine.sgf import write_sgf
from tests.engine.gnubgmatch import differences
from tests.engine.selfplay import MATCHES, exported
from tests.matchgen import random_match

GNUBG = Path("/usr/games/gnubg")  # Debian package: gnubg

LOADER = """\
import json, os
import gnubg
gnubg.command("set threads 1")
out = {}
for path in json.load(open(os.environ["SGF_FILES"])):
    gnubg.command("load match " + path)
    out[path] = gnubg.match(0, 0)
with open(os.environ["SGF_OUT"], "w") as fh:
    json.dump(out, fh)
"""


def _records() -> list[MatchRecord]:
    records = [random_match(seed, (0, 1, 2, 3, 5, 7)[seed % 6], jacoby=seed % 4 == 0,
                            raccoons=seed % 3 == 0, money_games=4) for seed in range(55)]
    records += [read_mat(exported(*m)[0]) for m in MATCHES]
    # "]" escaped as SGF wants; a backslash is escaped too (as gnubg writes it) but gnubg's
    # loader keeps both backslashes in a player's name, so none is used here
    odd = random_match(99, 3, names=("Ann ]Jr", "Ben [Co]"))
    odd.event, odd.place = "Club [night]", "Café"
    return [*records, odd]


def _load_in_gnubg(paths: list[Path], tmp: Path) -> dict[str, dict]:
    assert GNUBG.exists(), (
        f"{GNUBG} is missing: the SGF test needs Debian's GNU Backgammon program "
        "(apt-get install -y gnubg)")
    (tmp / "files.json").write_text(json.dumps([str(p) for p in paths]))
    (tmp / "load.py").write_text(LOADER)
    env = {**os.environ, "SGF_FILES": str(tmp / "files.json"), "SGF_OUT": str(tmp / "out.json")}
    run = subprocess.run([str(GNUBG), "-t", "-q", "-p", str(tmp / "load.py")], env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    assert (tmp / "out.json").exists(), f"gnubg failed ({run.returncode}): {run.stderr[-2000:]}"
    return json.loads((tmp / "out.json").read_text())


def test_sgf_loads_into_gnubg_as_written(tmp_path: Path) -> None:
    records = _records()
    paths = []
    for n, record in enumerate(records):
        path = tmp_path / f"m{n}.sgf"
        path.write_text(write_sgf(record))
        paths.append(path)
    loaded = _load_in_gnubg(paths, tmp_path)
    failures = []
    for path, record in zip(paths, records, strict=True):
        problems = differences(record, loaded[str(path)])
        if problems:
            failures.append(f"{path.name} ({record.length} points): {problems[:3]}")
    assert not failures, "\n".join(failures)
    kinds = {a.kind.value for r in records for g in r.games for a in g.actions}
    assert {"beaver", "raccoon", "drop", "take", "resign", "reject"} <= kinds


def _gnubg_shape(sgf: str) -> list[tuple[list[str], list[str]]]:
    """Per game: the root's match properties and the nodes' first property (no analysis)."""
    games = []
    for game in re.findall(r"\(;FF.*?\)\n", sgf, re.S):
        root = game.split("\n;", 1)[0]
        props = re.findall(r"(?:MI|PW|PB|DT|EV|PC|RU|RE)(?:\[(?:\\.|[^\]])*\])+", root)
        nodes = re.findall(r"\n;((?:[BW]\[[^\]]*\])|(?:PL\[.\]DI\[\d\d\]))", game)
        games.append((props, nodes))
    return games


@pytest.mark.parametrize(("seed", "length"), MATCHES)
def test_nodes_are_the_ones_gnubg_saves(seed: int, length: int) -> None:
    mat, sgf = exported(seed, length)
    ours = write_sgf(read_mat(mat))
    assert _gnubg_shape(ours) == _gnubg_shape(sgf)
    assert ours.count("(;FF[4]GM[6]") == len(read_mat(mat).games)
