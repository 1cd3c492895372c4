"""Jellyfish .mat files against GNU Backgammon (PyPI ``gnubg``): what we write, gnubg imports as
the same match; what gnubg exports, we read and write back byte for byte; other programs'
variants read the same; malformed files raise ``MatFileError`` with a line number, nothing else.
"""

from __future__ import annotations

import functools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Side
from engine.check import check_match
from engine.matfile import MatFileError, MatWriteError, read_mat, write_mat
from engine.record import GameRecord, Kind, MatchRecord, apply_steps
from tests.engine.gnubgmatch import differences
from tests.engine.selfplay import MATCHES, exported, import_mat
from tests.matchgen import Odds, random_match

LENGTHS = (0, 1, 2, 3, 5, 7)
RANDOM_MATCHES = 55
# gnubg's .mat import loses the rolls of every later game once a beaver was dropped (its
# "beaver pending" flag outlives the game), so the matches it imports have no dropped beavers;
# our own round trip and the SGF test keep them
NO_BEAVER_DROPS = Odds(drop_beaver=0.0, beaver=0.5, raccoon=0.6)


@functools.cache
def _random(seed: int, beaver_drops: bool = True) -> MatchRecord:
    """The seed's random match (cached: the tests only read it)."""
    length = LENGTHS[seed % len(LENGTHS)]
    odds = None if beaver_drops else NO_BEAVER_DROPS
    return random_match(seed, length, jacoby=seed % 4 == 0, raccoons=seed % 3 == 0, odds=odds,
                        money_games=4)


def _summary(record: MatchRecord) -> list[tuple]:
    """What a record says, game by game: plays as the positions they reach, dice, cube, results.

    A rejected resignation is left out: no .mat has a place for it (gnubg does not record it);
    a resignation is compared by what it won (a .mat says points, not single/gammon/backgammon).
    """
    out = []
    for g in record.games:
        pos = g.start
        acts = []
        for a, b in zip(g.actions, [*g.actions[1:], None], strict=True):
            if a.kind is Kind.REJECT or b is not None and b.kind is Kind.REJECT:
                continue
            if a.kind is Kind.ROLL:
                pos = apply_steps(pos, a.side, a.steps)
                acts.append((a.kind, a.side, a.dice, pos.key(), a.illegal))
            else:
                acts.append((a.kind, a.side, None if a.kind is Kind.RESIGN else a.value))
        out.append((g.number, g.score_white, g.score_black, g.crawford, g.first, g.winner,
                    g.points, g.result, acts))
    return out


def _features(record: MatchRecord) -> Counter[str]:
    seen: Counter[str] = Counter()
    for g in record.games:
        kinds = [a.kind for a in g.actions]
        seen.update(k.value for k in kinds)
        seen[g.result] += 1
        seen["crawford game"] += g.crawford
        for a, b in zip(g.actions, g.actions[1:], strict=False):
            seen["roll then resign"] += a.kind is Kind.ROLL and not a.steps and \
                b.kind is Kind.RESIGN
            seen["dance"] += a.kind is Kind.ROLL and not a.steps and b.kind is not Kind.RESIGN
            seen["dropped beaver"] += a.kind is Kind.BEAVER and b.kind is Kind.DROP
    return seen


def test_random_matches_import_into_gnubg_as_written() -> None:
    seen: Counter[str] = Counter()
    failures = []
    for seed in range(RANDOM_MATCHES):
        record = _random(seed, beaver_drops=False)
        seen.update(_features(record))
        seen[f"length {record.length}"] += 1
        problems = differences(record, import_mat(write_mat(record), record))
        if problems:
            failures.append(f"seed {seed} ({record.length} points): {problems[:3]}")
    assert not failures, "\n".join(failures)
    for feature in ("double", "take", "drop", "beaver", "raccoon", "resign", "reject",
                    "roll then resign", "dance", "crawford game", "gammon", "backgammon"):
        assert seen[feature] >= 2, (feature, seen)
    assert all(seen[f"length {n}"] >= 9 for n in LENGTHS), seen


def test_random_matches_read_back_as_written() -> None:
    # the matches gnubg imports, and money sessions with dropped beavers besides
    records = [_random(seed, beaver_drops=False) for seed in range(RANDOM_MATCHES)]
    with_drops = [_random(seed) for seed in range(0, 60, len(LENGTHS))]
    assert sum(_features(r)["dropped beaver"] for r in with_drops) >= 2
    for seed, record in enumerate(records + with_drops):
        text = write_mat(record)
        back = read_mat(text)
        assert (back.length, back.white, back.black, back.date) == \
            (record.length, record.white, record.black, record.date)
        assert _summary(back) == _summary(record), seed
        assert write_mat(back) == text, seed
        assert [a.notation for g in back.games for a in g.actions if a.kind is Kind.ROLL] == \
            [a.notation for g in record.games for a in g.actions if a.kind is Kind.ROLL]


@pytest.mark.parametrize(("seed", "length"), MATCHES)
def test_gnubg_exports_are_written_back_byte_for_byte(seed: int, length: int) -> None:
    text = exported(seed, length)[0]
    record = read_mat(text)
    assert record.games and record.games[-1].winner is not None
    assert write_mat(record) == text
    # and our reading of gnubg's file is gnubg's own reading of it
    assert differences(record, import_mat(text, record)) == []


def test_players_mapping_left_column_is_white_and_gnubgs_x() -> None:
    record = read_mat(exported(*MATCHES[0])[0])
    first = record.games[0].actions[0]
    text_first_line = next(line for line in exported(*MATCHES[0])[0].splitlines()
                           if line.strip().startswith("1)"))
    left_moves_first = not text_first_line.startswith("  1)" + " " * 29)
    assert first.side is (Side.WHITE if left_moves_first else Side.BLACK)
    match = import_mat(write_mat(record), record)
    assert match["match-info"]["X"]["name"] == record.white == "Alice"
    assert match["games"][0]["game"][0]["player"] == ("X" if first.side is Side.WHITE else "O")


def test_header_rule_tags_and_money_session() -> None:
    record = random_match(7, 0, jacoby=True)
    record.event, record.place = "Club night", "Café Bar"
    text = write_mat(record)
    assert text.splitlines()[:4] == ['; [Site "Café Bar"]', '; [Event "Club night"]',
                                     '; [EventDate "2026.03.01"]', '; [Jacoby "On"]']
    assert "\n 0 point match\n\n Game 1\n" in text
    back = read_mat(text)
    assert (back.event, back.place, back.date, back.jacoby) == \
        ("Club night", "Café Bar", "2026-03-01", True)
    no_crawford = random_match(8, 5, crawford=False)
    assert '; [Crawford "Off"]' in write_mat(no_crawford)
    assert not read_mat(write_mat(no_crawford)).crawford
    assert not any(g.crawford for g in read_mat(write_mat(no_crawford)).games)


# -- other programs' variants ---------------------------------------------------------------


def _xg_like(record: MatchRecord) -> str:
    """The record as another program might write it: standard notation (bar/off, 13/7(2),
    24/13), wider columns, one item per line where it falls, CRLF, a BOM, XG's header tags,
    "???" for a roll before a resignation, "Cannot Move", "Wins ... and the match"."""
    lines = ["\ufeff; [Site \"eXtreme Gammon\"]", '; [Match ID "1234"]',
             f'; [Player 1 "{record.white}"]', f'; [Player 2 "{record.black}"]',
             '; [EventDate "2026.03.01"]', '; [EventTime "20.15"]', '; [Variation "Backgammon"]',
             f'; [Crawford "{"On" if record.crawford else "Off"}"]', '; [CubeLimit "1024"]', "",
             f"{record.length} point match", ""]
    for g in record.games:
        lines += ["", f" Game {g.number}", f" {record.white} : {g.score_white}".ljust(38)
                  + f"{record.black} : {g.score_black}"]
        _xg_game(g, lines, record.length, g is record.games[-1])
    return "\r\n".join(lines) + "\r\n"


def _xg_game(g: GameRecord, lines: list[str], length: int, last: bool) -> None:
    number = 0
    open_left = False
    for k, a in enumerate(g.actions):
        nxt = g.actions[k + 1] if k + 1 < len(g.actions) else None
        if a.kind is Kind.ROLL:
            assert a.dice is not None
            if a.steps:
                play = a.notation
            else:
                play = "???" if nxt is not None and nxt.kind is Kind.RESIGN else "Cannot Move"
            item = f"{a.dice[0]}{a.dice[1]}: {play}"
        elif a.kind in (Kind.DOUBLE, Kind.BEAVER, Kind.RACCOON):
            word = {Kind.DOUBLE: "Doubles", Kind.BEAVER: "Beavers", Kind.RACCOON: "Raccoons"}
            item = f" {word[a.kind]} => {a.value}"
        elif a.kind in (Kind.TAKE, Kind.DROP):
            item = " Takes" if a.kind is Kind.TAKE else " Drops"
        elif a.kind is Kind.WIN:
            end = " and the match" if last and length else ""
            pad = 6 if a.side is Side.WHITE else 38
            lines.append(" " * pad + f"Wins {a.value} point{'s' * (a.value != 1)}{end}")
            open_left = False
            continue
        else:
            continue
        if a.side is Side.WHITE:
            number += 1
            lines.append(f"{number:3d}) {item}")
            open_left = True
        elif open_left:
            lines[-1] = lines[-1].ljust(38) + item
            open_left = False
        else:
            number += 1
            lines.append(f"{number:3d})".ljust(38) + item)


def test_other_programs_variants_read_the_same() -> None:
    for seed in range(0, RANDOM_MATCHES, 3):
        record = _random(seed)
        back = read_mat(_xg_like(record))
        assert _summary(back) == _summary(record), seed
        assert check_match(back) == []


HAND_TYPED = """\
5 point match

Game 1
Ann : 0     Ben : 0
1)  31: 8/5 6/5		42: 8/4 6/4
2)  66: 24/18(2) 13/7(2)   Doubles => 2
3)  Takes                  54: 13/9 13/8
4)  61: 13/7 8/7           21: 24/22 22/21
5)  43: 8/4* 7/4           62: bar/23 9/3
"""


def test_hand_typed_file() -> None:
    record = read_mat(HAND_TYPED)
    assert (record.length, record.white, record.black) == (5, "Ann", "Ben")
    acts = record.games[0].actions
    assert [(a.side, a.kind) for a in acts[:6]] == [
        (Side.WHITE, Kind.ROLL), (Side.BLACK, Kind.ROLL), (Side.WHITE, Kind.ROLL),
        (Side.BLACK, Kind.DOUBLE), (Side.WHITE, Kind.TAKE), (Side.BLACK, Kind.ROLL)]
    assert [a.notation for a in acts if a.kind is Kind.ROLL] == [
        "8/5 6/5", "8/4 6/4", "24/18(2) 13/7(2)", "13/9 13/8", "13/7 8/7", "24/21",
        "8/4* 7/4", "bar/23 9/3"]
    assert acts[4].line == 7 and acts[3].value == 2
    problems = check_match(record)
    assert [str(p) for p in problems] == ["game 1, move 5: the match stops at 0-0: nobody "
                                          "reached 5"]


# -- malformed files ------------------------------------------------------------------------

GOOD = write_mat(random_match(11, 1))


@pytest.mark.parametrize(("text", "line", "words"), [
    ("", 1, "no 'N point match'"),
    ("; [Site \"x\"]\nhello\n", 2, "no 'N point match'"),
    (" 3 point match\n\n 1) 31: 8/5 6/5\n", 3, "expected 'Game 1'"),
    (" 3 point match\n Game 1\n\n  1) 31: 8/5 6/5\n", 4, "score line"),
    (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5 hello\n", 4, "'hello'"),
    (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 27/21\n", 4, "27 is not a point"),
    (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5  8/7\n      Wins many\n", 5,
     "needs a number"),
    (" 3 point match\n Game 1\n A : 0   B : 0\n  1)  Doubles => x\n", 4, "cube value"),
    (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 13/8\n", 4, "a move without dice"),
    (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 71: 13/6\n", 4, "cannot read '71:'"),
    ("; [Variation \"Nackgammon\"]\n 3 point match\n", 1, "variation"),
    (" 3 point match\n Game 1\n A : 0   B : 0\n; Set Pos=abc\n", 4, "Set Pos"),
])
def test_malformed_files_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(MatFileError) as info:
        read_mat(text)
    assert info.value.line == line
    assert words in str(info.value)
    assert str(info.value).startswith(f"line {line}: ")


_junk = st.text(alphabet=st.sampled_from(list("0123456789/:*() =>\n\tabcdWinsTakeDrop;[]\"-?")),
                max_size=12)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cuts=st.lists(st.tuples(st.integers(0, len(GOOD)), st.integers(0, 12),
                               st.one_of(_junk, st.text(max_size=6))), min_size=1, max_size=4))
def test_mutated_files_read_or_raise_matfileerror(cuts: list[tuple[int, int, str]]) -> None:
    text = GOOD
    for at, drop, junk in cuts:
        text = text[:at] + junk + text[at + drop:]
    try:
        record = read_mat(text)
    except MatFileError as exc:
        assert exc.line >= 1
        return
    check_match(record)  # whatever was read can be checked, without an exception
    try:  # and written, unless a play cannot be held (then the error names where), and reads back
        written = write_mat(record)
    except MatWriteError as exc:
        assert exc.game >= 1 and str(exc).startswith(f"game {exc.game}, move {exc.move}: ")
        return
    assert write_mat(read_mat(written)) == written
