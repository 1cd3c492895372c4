"""A readable match transcript in the .mat style for every variant, and .mat for Portes/Tavla.

No match file format holds Plakoto, Fevga or Nardi games (GNU Backgammon and eXtreme Gammon play
only backgammon), so these matches live in the JSON event log and are shown as this transcript,
a projection of the log laid out like a Jellyfish .mat: header tags, `` N point match``, per game
`` Game N`` with the variant named (``Plakoto``), the score line, numbered lines of two 27-wide
columns (white left, black right) of ``dice: play`` in the mover's own numbering, and the end:
``Wins N points`` (``by the mother`` when a Plakoto mother was pinned) or ``Draw``. A pin is
written as a hit (``*``). A position set mid-game (the referee's or the camera's correction) is a
line of its own saying who set it and why, with the board as an XGID position field and whose
turn it is. Undone events are left out (the referee's effective log).

``export_mat`` writes Portes and Uzun Tavla matches (standard movement) through
``engine.matfile.write_mat``, with a ``[Variant]`` comment tag (GNU Backgammon ignores it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from .corrections import with_corrections
from .events import Event, event_from_json
from .position import Position
from .referee import Referee
from .rules import STANDARD, Rules, by_name, game_rules
from .xgid import format_position

WIDTH = 27


def _title(rules: Rules) -> str:
    return " ".join(w.capitalize() for w in rules.name.split())


def _effective(events: Iterable[Event | Mapping[str, Any]]) -> tuple[Referee, list[Event]]:
    evs = [e if isinstance(e, Event) else event_from_json(e) for e in events]
    start = next((e for e in evs if e.type == "MatchStarted"), None)
    if start is None:
        raise ValueError("the log has no MatchStarted event")
    rules = by_name(str(start["settings"].get("variant", "backgammon")))
    ref = Referee.from_events(evs, rules)
    return ref, list(ref.log)


def transcript(events: Iterable[Event | Mapping[str, Any]]) -> str:
    """The match of an event log as readable text (see the module doc)."""
    ref, log = _effective(events)
    assert ref.settings is not None
    s = ref.settings
    match = ref.match_rules
    out: list[str] = [f'; [Variant "{_title(match)}"]\n']
    if s.event:
        out.append(f'; [Event "{s.event}"]\n')
    length = f" {s.length} point match" if s.length else " money session"
    out.append(f"\n{length}\n\n")
    line: list[str] = []
    number = 0

    def flush() -> None:
        nonlocal number
        if line:
            number += 1
            left = line[0] if len(line) > 0 else ""
            right = line[1] if len(line) > 1 else ""
            out.append(f"{number:3d}) {left:<{WIDTH}} {right}".rstrip() + "\n")
            line.clear()

    def put(side: str, text: str) -> None:
        if side == "white":
            flush()
            line.extend([text])
        else:
            if not line:
                line.append("")
            line.append(text)
            flush()

    for e in log:
        t = e.type
        if t == "GameStarted":
            flush()
            number = 0
            game = int(e["number"])
            rules = game_rules(match, game)
            out.append(f" Game {game} ({_title(rules)})\n")
            left = f"{s.white} : {e['score_white']}"
            out.append(f" {left:<31}{s.black} : {e['score_black']}\n")
        elif t == "PositionCorrected":
            flush()
            out.append(f"      {_correction(e)}\n")
        elif t == "Moved":
            a, b = sorted(e["dice"], reverse=True)
            play = e["play"] + (" (illegal, let stand)" if e.get("illegal") else "")
            put(e["side"], f"{a}{b}: {play}".rstrip())
        elif t in ("Doubled", "Beavered", "Raccooned"):
            word = {"Doubled": "Doubles", "Beavered": "Beavers", "Raccooned": "Raccoons"}[t]
            put(e["side"], f" {word} => {e['value']}")
        elif t in ("Taken", "Dropped"):
            put(e["side"], " Takes" if t == "Taken" else " Drops")
        elif t == "GameWon":
            flush()
            if e.get("side") is None:
                out.append("      Draw" + (" (both mothers pinned)"
                                           if e.get("result") == "draw" and ref.rules.mother
                                           else "") + "\n\n")
            else:
                n = int(e["points"])
                how = " by the mother" if e.get("result") == "mother" else ""
                col = "" if e["side"] == "white" else " " * (WIDTH + 6)
                out.append(f"{col}      Wins {n} point{'s' if n != 1 else ''}{how}\n\n")
        elif t == "MatchWon":
            out.append(f" {e['side'].capitalize()} wins the match "
                       f"{e['score_white']}-{e['score_black']}\n")
    flush()
    return "".join(out)


def _correction(e: Event) -> str:
    """A position set mid-game in plain words: who set it, why, the board (its XGID position
    field) and whose turn."""
    who = "The camera set the position" if e.get("source") == "camera" else \
        "The referee set the position"
    why = " ".join(str(e.get("reason") or "").split())
    board = format_position(Position.from_json(e["position"]))
    turn = f", {e['turn']} to play" if e.get("turn") else ""
    return f"{who}{': ' + why if why else ''} (XGID={board}{turn})"


def mat_holds(rules: Rules) -> bool:
    """Whether a .mat can hold this variant's games: backgammon's movement and start, one game
    type all match long (Portes, Uzun Tavla, short nardi), so GNU Backgammon reads it right."""
    return not (rules.rotation or rules.hooks or not rules.opposed
                or rules.start != STANDARD.start)


def export_mat(events: Iterable[Event | Mapping[str, Any]]) -> str:
    """A Portes or Uzun Tavla match as a .mat (``engine.matfile``); ValueError for a variant
    whose movement is not backgammon's (Plakoto, Fevga, Nardi, a Tavli rotation)."""
    from .matfile import write_mat

    ref, log = _effective(events)
    rules = ref.match_rules
    if not mat_holds(rules):
        raise ValueError(f"{rules.name} cannot be written as a .mat: use the transcript")
    assert ref.record is not None
    record = replace(with_corrections(ref.record, log), rules=STANDARD)
    return f'; [Variant "{_title(rules)}"]\n' + write_mat(record)
