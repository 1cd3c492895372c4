"""The match checker: matches GNU Backgammon plays against itself are clean; the same files with one
error each are reported at the right game, move number and side; each cube, score and result
rule on small hand-written files; random matches from tests/matchgen.py are clean.
"""

from __future__ import annotations

import re

import pytest

from engine import Side
from engine.check import Problem, check_mat, check_match
from engine.matfile import MatFileError, write_mat
from tests.engine.selfplay import MATCHES, exported
from tests.matchgen import random_match

WHITE, BLACK = Side.WHITE, Side.BLACK


def _texts() -> list[str]:
    return [exported(*m)[0] for m in MATCHES]


@pytest.mark.parametrize(("seed", "length"), MATCHES)
def test_gnubg_self_play_is_clean(seed: int, length: int) -> None:
    assert check_mat(exported(seed, length)[0]) == []


def test_random_matches_are_clean() -> None:
    for seed in range(16):
        record = random_match(seed, (0, 1, 3, 5)[seed % 4], jacoby=seed % 8 == 0,
                              raccoons=seed % 3 == 0)
        assert check_match(record) == [], seed
        assert check_mat(write_mat(record)) == [], seed


# -- one injected error each, in gnubg's own files -----------------------------------------------

_ROLL = re.compile(r"^(\s*(\d+)\) )(\d)(\d): (.*?)\s*$")


def _lines_with_games(text: str) -> list[tuple[int, int, str]]:
    """(index, game number, line) for every line of a game."""
    game = 0
    out = []
    for i, line in enumerate(text.splitlines()):
        found = re.match(r"^\s*Game (\d+)\s*$", line)
        if found:
            game = int(found[1])
        elif game:
            out.append((i, game, line))
    return out


def _left_roll(text: str, moves: int) -> tuple[int, int, int, re.Match[str]]:
    """The first left-column roll of two different dice played with ``moves`` single-die moves
    and no bear-off: (line index, game, move number, match of its left column)."""
    for i, game, line in _lines_with_games(text):
        found = _ROLL.match(line[:33])
        if found and found[3] != found[4]:
            hops = found[5].split()
            if len(hops) == moves and all(not h.endswith("/0") for h in hops):
                return i, game, int(found[2]), found
    raise AssertionError("no such roll in gnubg's matches")


def _replace_line(text: str, index: int, new: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[index] = new + "\n"
    return "".join(lines)


def _first(problems: list[Problem]) -> tuple[int, int, Side | None]:
    assert problems, "the injected error was not found"
    return problems[0].game, problems[0].move, problems[0].side


def test_an_illegal_play_is_found_where_it_is() -> None:
    text = _texts()[0]
    i, game, move, found = _left_roll(text, 2)
    hops = found[5].split()
    src, dst = hops[0].rstrip("*").split("/")
    wrong = f"{src}/{int(dst) - 1}" if int(dst) > 1 else f"{int(src) - 1}/{dst}"
    line = text.splitlines()[i]
    changed = line.replace(found[5], " ".join([wrong, *hops[1:]]), 1)
    problems = check_mat(_replace_line(text, i, changed))
    assert _first(problems) == (game, move, WHITE)
    assert "illegal" in problems[0].message or "closed" in problems[0].message


def test_an_unused_die_is_found_where_it_is() -> None:
    text = _texts()[1]
    i, game, move, found = _left_roll(text, 2)
    line = text.splitlines()[i]
    kept = found[5].split()[0]
    changed = line[: found.start(5)] + kept.ljust(len(found[5])) + line[found.end(5):]
    problems = check_mat(_replace_line(text, i, changed))
    assert _first(problems) == (game, move, WHITE)
    assert "both dice" in problems[0].message


def test_a_wrong_score_line_is_found_in_its_game() -> None:
    text = _texts()[0]
    for i, game, line in _lines_with_games(text):
        score = re.match(r"^( \S+ : )(\d+)(\s.*)$", line)
        if game == 2 and score:
            wrong = f"{score[1]}{int(score[2]) + 1}{score[3]}"
            problems = check_mat(_replace_line(text, i, wrong))
            assert [(p.game, p.move, p.side) for p in problems] == [(2, 0, None)]
            assert "score line" in problems[0].message
            return
    raise AssertionError("no second game")


def test_a_wrong_wins_line_is_found_after_its_last_move() -> None:
    text = _texts()[1]
    number = 0
    for i, game, line in _lines_with_games(text):
        numbered = re.match(r"^\s*(\d+)\)", line)
        number = int(numbered[1]) if numbered else number
        wins = re.search(r"Wins (\d+) points?", line)
        if wins and "Drops" not in text.splitlines()[i - 1]:  # a bear-off or a drop on the line
            n = int(wins[1])
            changed = line[: wins.start()] + f"Wins {n + 1} points" + line[wins.end():]
            problems = check_mat(_replace_line(text, i, changed))
            assert [(p.game, p.move) for p in problems] == [(game, number)]
            assert f"Wins {n + 1} points, but" in problems[0].message
            return
    raise AssertionError("no Wins line")


def test_a_take_after_a_drop_is_found() -> None:
    for text in _texts():
        lines = text.splitlines()
        for i, game, line in _lines_with_games(text):
            drop = re.match(r"^\s*(\d+)\)\s+(Doubles => \d+\s+)?Drops", line)
            if drop:
                n = int(drop[1])
                right = drop[2] is not None  # "Doubles => 2   Drops": black dropped
                at = i + 1 if right else i  # after the drop's Wins line, or its own line
                take = f"{n + 1:3d})" + " " * 29 + " Takes" if right else f"{n + 1:3d})  Takes"
                changed = "\n".join([*lines[: at + 1], take, *lines[at + 1:]]) + "\n"
                problems = check_mat(changed)
                who = BLACK if right else WHITE
                assert [(p.game, p.move, p.side) for p in problems] == [(game, n + 1, who)]
                assert problems[0].message == "a take after the drop"
                return
    raise AssertionError("no drop in gnubg's matches")


# -- the rules one by one, on small hand-written files -------------------------------------------

HEAD = " {length} point match\n\n Game 1\n A : {w}                          B : {b}\n"


def _mat(body: str, length: int = 3, w: int = 0, b: int = 0) -> str:
    return HEAD.format(length=length, w=w, b=b) + body


OPENING = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"


@pytest.mark.parametrize(("body", "where", "words"), [
    (OPENING + "  2)                             Doubles => 2\n",
     (1, 2, BLACK), "only white could double"),
    (OPENING + "  2)  Doubles => 4                Takes\n", (1, 2, WHITE), "the cube goes to 2"),
    (OPENING + "  2)  Doubles => 2                Takes\n  3) 64: 24/18 13/9 "
     "              Doubles => 4\n  4)  Drops                       Wins 2 points\n", None, ""),
    (OPENING + "  2)  Doubles => 2                Takes\n  3)  Doubles => 4\n",
     (1, 3, WHITE), "black owns the cube"),
    (OPENING + "  2)  Takes\n", (1, 2, WHITE), "a take without a double"),
    (OPENING + "  2)  Doubles => 2                Beavers => 4\n",
     (1, 2, BLACK), "a beaver in match play"),
    ("  1) 33: 8/5 8/5 6/3 6/3\n", (1, 1, WHITE), "an opening roll cannot be a double"),
    (OPENING + "  2)  Doubles => 2                Takes\n  3) 64: 24/18 13/9\n  4) 52: 13/8 13/11",
     (1, 4, WHITE), "it was black's turn"),
    (OPENING + "  2)  Doubles => 2                Drops\n                                  "
     "Wins 1 point\n", (1, 2, BLACK), "black wins, but the game was white's"),
    (OPENING + "  2)  Doubles => 2                Drops\n      Wins 2 points\n",
     (1, 2, WHITE), "Wins 2 points, but a dropped cube of 2 is worth 1 point"),
    (OPENING + "  2)  Doubles => 2                Takes\n  3) 64: 24/18 13/9\n"
     "      Wins 3 points\n", (1, 3, WHITE),  # black resigned: a gammon at 2 is 4, not 3
     "Wins 3 points, but a resignation of a gammon with the cube at 2 is worth 4 points"),
])
def test_cube_and_result_rules(body: str, where: tuple | None, words: str) -> None:
    problems = check_mat(_mat(body, length=1 if "Drops" in body else 3))
    if where is None:
        assert problems == []
    else:
        assert _first(problems) == where, problems
        assert words in problems[0].message


def test_no_double_in_the_crawford_game() -> None:
    text = _mat(OPENING + "  2)  Doubles => 2                Drops\n      Wins 1 point\n\n"
                " Game 2\n A : 1                          B : 0\n" + OPENING +
                "  2)  Doubles => 2                Drops\n      Wins 1 point\n", length=2)
    problems = check_mat(text)
    assert _first(problems) == (2, 2, WHITE)
    assert problems[0].message == "no doubling in the Crawford game"


def test_match_end_and_resignations() -> None:
    resigned = OPENING + "  2)  Doubles => 2                Takes\n" \
                         "  3) 64: 24/18 13/9                                 Wins 4 points\n"
    # black resigns a gammon with the cube at 2 (gnubg writes the Wins line in white's column)
    text = _mat(resigned.replace("                                 Wins 4 points",
                                 "\n      Wins 4 points"), length=5)
    assert [str(p) for p in check_mat(text)] == [
        "game 1, move 3: the match stops at 4-0: nobody reached 5"]
    over = _mat(OPENING + "  2)  Doubles => 2                Drops\n      Wins 1 point\n\n"
                " Game 2\n A : 1                          B : 0\n" + OPENING, length=1)
    assert [(p.game, p.message) for p in check_mat(over)] == [
        (2, "game 2 is played after the match ended 1-0")]


def test_problem_text_and_unreadable_files() -> None:
    assert str(Problem(2, 7, BLACK, "x")) == "game 2, move 7 (black): x"
    assert str(Problem(3, 0, None, "y")) == "game 3: y"
    with pytest.raises(MatFileError):
        check_mat("not a match file\n")


def test_records_the_referee_could_project() -> None:
    record = next(r for r in map(random_match, range(40), [1] * 40)
                  if r.games[-1].result in ("single", "gammon", "backgammon"))
    game = record.games[-1]
    last_roll = max(k for k, a in enumerate(game.actions) if a.kind.value == "roll")
    del game.actions[last_roll]  # the bear-off is gone, the Wins stays
    problems = check_match(record)
    assert problems and problems[0].game == game.number
    assert problems[0].message.endswith("but the game is not over")
