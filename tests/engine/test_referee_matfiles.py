"""The referee's own records as match files: >= 50 random whole matches played through its
commands export as .mat that GNU Backgammon imports identically (dice, plays, cube actions,
results, final score) and as SGF that Debian's gnubg program loads identically, and the checker
finds nothing wrong with them."""

from __future__ import annotations

import functools
from pathlib import Path

from engine.check import check_match
from engine.matfile import read_mat, write_mat
from engine.record import MatchRecord
from engine.sgf import write_sgf
from tests.engine.gnubgmatch import differences
from tests.engine.selfplay import import_mat
from tests.engine.test_sgf import _load_in_gnubg
from tests.refereematch import referee_match

LENGTHS = (0, 1, 3, 5, 7)
MATCHES = 50


@functools.cache
def _records() -> list[MatchRecord]:
    out = []
    for seed in range(MATCHES):
        ref = referee_match(1000 + seed, LENGTHS[seed % len(LENGTHS)], jacoby=seed % 4 == 0,
                            raccoons=int(seed % 3 == 0))
        assert ref.record is not None
        out.append(ref.record)
    return out


def test_the_random_matches_use_every_kind_of_action() -> None:
    kinds = {a.kind.value for r in _records() for g in r.games for a in g.actions}
    assert {"roll", "double", "take", "drop", "beaver", "resign", "reject", "win"} <= kinds
    assert any(g.crawford for r in _records() for g in r.games)
    assert sum(1 for r in _records() if r.length) >= 35


def test_referee_records_import_into_gnubg_as_mat() -> None:
    failures = []
    for n, record in enumerate(_records()):
        text = write_mat(record)
        problems = differences(record, import_mat(text, record))
        if problems:
            failures.append(f"match {n} ({record.length} points): {problems[:3]}")
        again = read_mat(text)
        assert again.final_score() == record.final_score()
    assert not failures, "\n".join(failures)


def test_referee_records_load_into_gnubg_as_sgf(tmp_path: Path) -> None:
    paths = []
    for n, record in enumerate(_records()):
        path = tmp_path / f"r{n}.sgf"
        path.write_text(write_sgf(record))
        paths.append(path)
    loaded = _load_in_gnubg(paths, tmp_path)
    failures = [f"{p.name}: {problems[:3]}" for p, r in zip(paths, _records(), strict=True)
                if (problems := differences(r, loaded[str(p)]))]
    assert not failures, "\n".join(failures)


def test_referee_records_pass_the_checker() -> None:
    for n, record in enumerate(_records()):
        assert check_match(record) == [], f"match {n}"
        assert check_match(read_mat(write_mat(record))) == [], f"match {n} via .mat"


def test_an_illegal_play_let_stand_is_written_as_played_and_the_checker_finds_it() -> None:
    from engine import STANDARD, WHITE
    from engine.record import apply_steps
    from engine.referee import Referee

    ref = Referee()
    ref.command({"command": "new_match", "length": 3})
    ref.command({"command": "opening_roll", "white": 3, "black": 1})
    # 13/9 6/5: five pips with 3-1
    pts = list(STANDARD.start.points)
    pts[12] -= 1
    pts[8] += 1
    pts[5] -= 1
    pts[4] += 1
    seen = STANDARD.start.__class__(tuple(pts))
    ref.command({"command": "play", "position": seen.to_json()})
    assert ref.phase == "flagged"
    ref.command({"command": "let_stand"})
    assert ref.record is not None
    action = ref.record.games[0].actions[0]
    assert action.illegal and action.notation == "13/9 6/5"
    back = read_mat(write_mat(ref.record))
    replayed = apply_steps(STANDARD.start, WHITE, back.games[0].actions[0].steps)
    assert replayed == seen
    problems = [p for p in check_match(back) if "the match stops" not in p.message]
    assert [(p.game, p.move, p.side) for p in problems] == [(1, 1, WHITE)]
    assert "13/9 6/5 is illegal" in problems[0].message
