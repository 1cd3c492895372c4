"""What GNU Backgammon's ``match()`` should show for a ``MatchRecord``, and the comparison.

gnubg calls white (the .mat's left column, SGF's W) "X" and black "O". Plays are compared by the
position they reach (gnubg's move tuples replayed with ``engine.record.apply_steps``); a beaver or
raccoon is a double in gnubg, accepted by a take it adds when the roll follows; a roll followed by
its roller's resignation is gnubg's "set" (dice without a play).
"""

from __future__ import annotations

from typing import Any

from engine import Side, Step
from engine.moves import can_move
from engine.record import GameRecord, Kind, MatchRecord, apply_steps

LETTER = {Side.WHITE: "X", Side.BLACK: "O"}
SIDE = {"X": Side.WHITE, "O": Side.BLACK}


def _expected_records(game: GameRecord) -> list[tuple]:
    out: list[tuple] = []
    pos = game.start
    offer = None
    acts = game.actions
    for k, a in enumerate(acts):
        nxt = acts[k + 1] if k + 1 < len(acts) else None
        who = LETTER[a.side]
        if a.kind is Kind.ROLL:
            assert a.dice is not None
            if offer is not None and offer.kind is not Kind.DOUBLE:
                out.append(("take", LETTER[offer.side.other]))
            offer = None
            resigns = nxt is not None and nxt.kind is Kind.RESIGN and nxt.side is a.side
            if not a.steps and resigns and can_move(pos, a.side, a.dice):
                out.append(("set", who, tuple(a.dice)))
                continue
            pos = apply_steps(pos, a.side, a.steps)
            out.append(("move", who, tuple(a.dice), pos.key()))
        elif a.kind in (Kind.DOUBLE, Kind.BEAVER, Kind.RACCOON):
            out.append(("double", who))
            offer = a
        elif a.kind in (Kind.TAKE, Kind.DROP):
            out.append((a.kind.value, who))
            offer = None
        elif a.kind is Kind.RESIGN and nxt is not None and nxt.kind is Kind.ACCEPT:
            out.append(("resign", who))
    return out


def expected(record: MatchRecord) -> list[dict[str, Any]]:
    games = []
    for g in record.games:
        resigned = any(a.kind is Kind.ACCEPT for a in g.actions)
        games.append({"score": (g.score_white, g.score_black),
                      "winner": LETTER[g.winner] if g.winner else None,
                      "points": g.points, "resigned": resigned,
                      "records": _expected_records(g)})
    return games


def _gnubg_records(game: GameRecord, records: list[dict]) -> list[tuple]:
    out: list[tuple] = []
    pos = game.start
    for r in records:
        action, who = r["action"], r.get("player")
        if action == "move":
            steps = [Step(src, dst, 0, False) for src, dst in r.get("move") or ()]
            pos = apply_steps(pos, SIDE[who], steps)
            out.append(("move", who, tuple(r["dice"]), pos.key()))
        elif action == "set":
            out.append(("set", who, tuple(r["dice"])))
        else:
            out.append((action, who))
    return out


def seen(record: MatchRecord, match: dict) -> list[dict[str, Any]]:
    """gnubg's ``match()`` in the shape of ``expected``."""
    games = []
    for g, theirs in zip(record.games, match["games"], strict=False):
        info = theirs["info"]
        games.append({"score": (info["score-X"], info["score-O"]), "winner": info.get("winner"),
                      "points": info.get("points-won", 0), "resigned": info.get("resigned", False),
                      "records": _gnubg_records(g, theirs["game"])})
    return games


def final_score(match: dict) -> tuple[int, int]:
    last = match["games"][-1]["info"]
    score = {"X": last["score-X"], "O": last["score-O"]}
    if last.get("winner"):
        score[last["winner"]] += last["points-won"]
    return score["X"], score["O"]


def differences(record: MatchRecord, match: dict) -> list[str]:
    """Where gnubg's reading of ``record`` differs from it (empty: none)."""
    problems = []
    info = match["match-info"]
    if (info["X"]["name"], info["O"]["name"], info["match-length"]) != \
            (record.white, record.black, record.length):
        problems.append(f"match info {info}")
    for key, ours in (("event", record.event), ("place", record.place)):
        if info.get(key, "") != ours:
            problems.append(f"{key}: gnubg {info.get(key)!r}, ours {ours!r}")
    if record.date:
        year, month, day = (int(x) for x in record.date.split("-"))
        if tuple(info.get("date", ())) != (day, month, year):
            problems.append(f"date: gnubg {info.get('date')}, ours {record.date}")
    if len(match["games"]) != len(record.games):
        problems.append(f"{len(match['games'])} games in gnubg, {len(record.games)} here")
    for n, (ours, theirs) in enumerate(zip(expected(record), seen(record, match),
                                           strict=False), 1):
        for key in ("score", "winner", "points", "resigned"):
            if ours[key] != theirs[key]:
                problems.append(f"game {n} {key}: ours {ours[key]}, gnubg {theirs[key]}")
        for k, (a, b) in enumerate(zip(ours["records"], theirs["records"], strict=False)):
            if a != b:
                problems.append(f"game {n} record {k}: ours {a[:3]}, gnubg {b[:3]}")
                break
        if len(ours["records"]) != len(theirs["records"]):
            problems.append(f"game {n}: {len(ours['records'])} records here, "
                            f"{len(theirs['records'])} in gnubg")
    if match["games"] and final_score(match) != record.final_score():
        problems.append(f"final score: gnubg {final_score(match)}, ours {record.final_score()}")
    return problems
