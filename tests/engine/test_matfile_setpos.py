"""A position set mid-game (the camera's correction, the referee's "set position", the board a
play let stand left) in the .mat: an eXtreme Gammon ``; Set Pos=`` line with the reason after it,
which GNU Backgammon (PyPI ``gnubg``, the oracle) imports: every play before and after it lands
where the referee recorded it, and our reader reads it back. The logs are the engine's own: a
referee fed exact camera observations until it sets the board itself."""

from __future__ import annotations

import json

import pytest

from engine.corrections import (
    CAMERA,
    PLAY,
    REFEREE,
    find_sets,
    game_sets,
    played_boards,
    with_corrections,
)
from engine.events import event_from_json
from engine.export import export_match
from engine.gnubgid import parse_position_id
from engine.matfile import read_mat, set_pos_line, write_mat
from engine.moves import Step, legal_plays
from engine.observation import Observation
from engine.position import BLACK, WHITE, Position, Side
from engine.record import MatchRecord, apply_steps
from engine.referee import Phase, Referee
from engine.resync import SET_RUNS
from engine.transcript import transcript
from vision.turns import TrackedObservation

from .refhelp import new_match, opening

gnubg = pytest.importorskip("gnubg")
from .selfplay import import_mat  # noqa: E402 - needs gnubg


def _after(pos: Position, side: Side, roll: tuple[int, int], notation: str) -> Position:
    return next(p.after for p in legal_plays(pos, side, roll) if p.notation == notation)


def _seen(pos: Position, run: int) -> TrackedObservation:
    obs = Observation.exact(pos)
    return TrackedObservation(obs.regions, floor=obs.floor, run=run)


def camera_corrected() -> tuple[Referee, Position]:
    """A match whose referee missed three plays: the camera sets the board (a PositionCorrected
    marked as the camera's, with its reason), then the game goes on with two more plays."""
    ref = new_match(length=7)
    opening(ref, 3, 1)
    ref.command({"command": "play", "play": "8/5 6/5"})
    ref.command({"command": "roll", "dice": [6, 4]})
    ref.command({"command": "play", "play": "24/14"})
    p1 = _after(ref.position, WHITE, (6, 5), "24/13")
    p2 = _after(p1, BLACK, (4, 2), "8/4 6/4")
    end = _after(p2, WHITE, (3, 1), "8/5 6/5")  # three plays on: nothing explains it
    for run in range(1, SET_RUNS + 1):
        ref.observe(_seen(end, run))
    assert ref.log[-1].type == "PositionCorrected" and ref.log[-1]["source"] == CAMERA
    assert ref.position == end and ref.phase == Phase.ROLL
    for dice in ((5, 5), (2, 1)):
        _roll_and_play(ref, dice)
    return ref, end


def _roll_and_play(ref: Referee, dice: tuple[int, int]) -> None:
    assert ref.turn is not None
    play = legal_plays(ref.position, ref.turn, dice)[0]
    ref.command({"command": "roll", "dice": list(dice)})
    ref.command({"command": "play", "position": play.after.to_json()})


def _json_log(ref: Referee) -> list[dict]:
    return [json.loads(json.dumps(e.to_json())) for e in ref.all_events]


def _our_plays(record: MatchRecord) -> list[tuple]:
    """(side, dice, position after) of every play, the positions set mid-game honoured."""
    return played_boards(record)


def _gnubg_plays(match: dict) -> list[tuple]:
    """The same from GNU Backgammon's import: its moves replayed, its set boards taken (after
    ``Set Pos`` gnubg puts its player 0, the .mat's left column, white, on roll)."""
    out = []
    for g in match["games"]:
        pos = Position.from_json(json.loads(json.dumps(_START)))
        for r in g["game"]:
            if r["action"] == "set" and "board" in r:
                pos = parse_position_id(r["board"], WHITE)
            elif r["action"] == "move":
                side = WHITE if r["player"] == "X" else BLACK
                steps = [Step(a, b, 0, False) for a, b in r.get("move") or ()]
                pos = apply_steps(pos, side, steps)
                out.append((side, tuple(sorted(r["dice"])), pos))
    return out


_START = Referee().rules.start.to_json()


def _gnubg_sets(match: dict) -> list[dict]:
    return [r for g in match["games"] for r in g["game"] if r["action"] == "set"]


def test_a_camera_correction_is_a_set_pos_line_gnubg_imports_with_every_play_in_place() -> None:
    ref, end = camera_corrected()
    events = _json_log(ref)
    text = export_match("mat", ref.record, events)
    fix = next(e for e in ref.log if e.type == "PositionCorrected")
    lines = [ln for ln in text.splitlines() if ln.startswith("; Set Pos=")]
    assert len(lines) == 1
    assert "the camera set the position" in lines[0] and fix["reason"] in lines[0]
    record = with_corrections(ref.record, events)
    ours = _our_plays(record)
    side = ours[2][0]
    assert len(ours) == 4 and ours[2][2] == legal_plays(end, side, (5, 5))[0].after
    match = import_mat(text, record)
    assert _gnubg_plays(match) == ours
    # the plays alone (no Set Pos) put gnubg's checkers elsewhere after the correction
    assert _gnubg_plays(import_mat(write_mat(ref.record), record))[2:] != ours[2:]
    assert {"board", "cube", "cube-owner"} <= {k for r in _gnubg_sets(match) for k in r}
    back = read_mat(text)  # and our reader: the same plays, the same board set
    assert _our_plays(back) == ours
    (at, (s,)), = game_sets(back.games[0]).items()
    assert (at, s.position, s.source, s.reason) == (2, end, CAMERA, fix["reason"])


def test_the_correction_ends_the_line_between_white_and_black() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    ref.command({"command": "play", "play": "8/5 6/5"})
    ref.command({"command": "roll", "dice": [6, 4]})
    ref.command({"command": "play", "play": "24/14"})
    ref.command({"command": "roll", "dice": [6, 5]})
    ref.command({"command": "play", "play": "24/13"})  # white's, then black's play missed:
    pos = _after(ref.position, BLACK, (4, 2), "8/4 6/4")
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "black",
                 "source": "camera", "reason": "the side to move was off by one"})
    _roll_and_play(ref, (5, 5))  # black again
    events = _json_log(ref)
    text = export_match("mat", ref.record, events)
    body = text.splitlines()
    k = next(i for i, ln in enumerate(body) if ln.startswith("; Set Pos="))
    # white's 6-5 (the play before) closes its line; black's 5-5 starts a line of its own in
    # the right column, the left one empty
    assert body[k - 1].startswith("  2) 65: 24/18 18/13")
    assert body[k + 1].startswith("  3)") and body[k + 1][4:33].strip() == ""
    assert body[k + 1][33:].strip().startswith("55:")
    record = with_corrections(ref.record, events)
    assert _gnubg_plays(import_mat(text, record)) == _our_plays(record)


def test_an_owned_cube_is_kept_by_the_set_pos_line() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    ref.command({"command": "play", "play": "8/5 6/5"})
    ref.command({"command": "double"})
    ref.command({"command": "take"})
    ref.command({"command": "roll", "dice": [6, 4]})
    ref.command({"command": "play", "play": "24/14"})
    pos = _after(_after(ref.position, WHITE, (6, 5), "24/13"), BLACK, (2, 1), "13/11 6/5")
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "white",
                 "source": "camera", "reason": "the board could not be reached by any play"})
    ref.command({"command": "roll", "dice": [4, 3]})
    ref.command({"command": "play", "play": "13/9 13/10"})
    events = _json_log(ref)
    text = export_match("mat", ref.record, events)
    line = next(ln for ln in text.splitlines() if ln.startswith("; Set Pos="))
    assert ref.cube_owner is WHITE  # black doubled, white took
    assert line[36:40] == "/-1 "  # white (the left column) owns a cube of 2 = 2^1
    match = import_mat(text, with_corrections(ref.record, events))
    sets = _gnubg_sets(match)
    assert {"cube": 2} in [{k: v for k, v in r.items() if k == "cube"} for r in sets]
    assert any(r.get("cube-owner") == "X" for r in sets)  # gnubg's X: white
    assert _gnubg_plays(match) == _our_plays(with_corrections(ref.record, events))


def test_set_pos_line_for_a_white_cube_and_its_reading() -> None:
    from engine.corrections import SetPosition

    pos = Referee().rules.start
    line = set_pos_line(SetPosition(pos, WHITE, 4, WHITE, REFEREE, "fixed by hand"))
    assert line.startswith("; Set Pos=") and line[36:40] == "/-2 "
    text = (" 3 point match\n\n Game 1\n White : 0                          Black : 0\n"
            f"{line}\n  1) 31: 8/5 6/5\n")
    (at, (s,)), = game_sets(read_mat(text).games[0]).items()
    assert (at, s.position, s.cube_value, s.cube_owner, s.reason) == (0, pos, 4, WHITE,
                                                                      "fixed by hand")


def test_an_illegal_play_let_stand_that_moved_the_opponent_sets_the_board_after_it() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    ref.command({"command": "play", "play": "8/5 6/5"})
    ref.command({"command": "roll", "dice": [6, 4]})
    before = ref.position
    # black plays 24/14 and knocks white's 6-point checker onto the bar by hand
    board = dict(before.to_json())
    board["points"] = list(_after(before, BLACK, (6, 4), "24/14").points)
    board["points"][5] -= 1
    board["bar"] = {"white": 1, "black": 0}
    got = ref.command({"command": "play", "position": board})
    assert got and got[-1].type == "IllegalMoveFlagged"
    ref.command({"command": "let_stand"})
    ref.command({"command": "roll", "dice": [3, 1]})
    ref.command({"command": "play", "play": "bar/22 6/5"})
    events = _json_log(ref)
    (sets,) = find_sets(events).values()
    (s,) = [s for v in sets.values() for s in v]
    assert s.source == PLAY and s.position.bar_white == 1
    text = export_match("mat", ref.record, events)
    record = with_corrections(ref.record, events)
    assert _gnubg_plays(import_mat(text, record)) == _our_plays(record)


def test_transcript_shows_the_camera_correction_and_its_reason() -> None:
    ref, end = camera_corrected()
    text = transcript(_json_log(ref))
    fix = next(e for e in ref.log if e.type == "PositionCorrected")
    line = next(ln for ln in text.splitlines() if "camera" in ln)
    assert "set the position" in line and fix["reason"] in line
    assert "XGID=" in text


def test_a_log_without_corrections_is_written_as_before() -> None:
    ref = new_match(length=3)
    opening(ref, 3, 1)
    ref.command({"command": "play", "play": "8/5 6/5"})
    events = [event_from_json(e) for e in _json_log(ref)]
    assert find_sets(events) == {}
    assert export_match("mat", ref.record, _json_log(ref)) == write_mat(ref.record)


def test_gammoncam_check_goes_on_from_a_set_position() -> None:
    """``check`` reads the Set Pos line as the board the next plays start from: the plays after a
    camera correction are no problems; set a board they cannot be played from, and they are."""
    from engine.check import check_mat
    from engine.corrections import SetPosition

    ref, end = camera_corrected()
    text = export_match("mat", ref.record, _json_log(ref))
    unfinished = ["the match stops at 0-0: nobody reached 7"]  # the only problem: it goes on
    assert [p.message for p in check_mat(text)] == unfinished
    # the same line setting a board without white's 13-point: white's 55 13/8(4) is now a problem
    data = end.to_json()
    data["points"][5] += data["points"][12]
    data["points"][12] = 0
    other = set_pos_line(SetPosition(Position.from_json(data), source=CAMERA))
    moved = "\n".join(other if ln.startswith("; Set Pos=") else ln for ln in text.splitlines())
    problems = check_mat(moved)
    assert [(p.move, p.side) for p in problems if p.side is not None] == [(2, WHITE)]
