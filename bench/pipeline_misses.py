"""Why a turn was missed: the reads of its settled frames against the footage's truth.

``bench.bench_pipeline`` keeps every settled frame's read; for each turn the replay got wrong
:func:`classify` looks at the reads of that turn's frames (the renderer's truth says which
frames belong to it and what they show) and names the first cause it finds:

- ``after a miss``: the record never reached the turn's start (its position with its side to
  move: ``bench.pipeline_score``), because a play before it was recorded wrong or not at all; a
  turn reached again after a resync (a position set from the board, two plays inferred) is
  classed on its own (without the aligned score: the turn before was missed);
- ``settle``: no settled, hand-free read of the board after the play;
- ``checkers``: every read of the board after the play clearly misreads a region (the truth's
  count at least MARGIN less likely than the region's best reading), the regions named; or
  ("weak") the roll was read and another play of it fits the fused reads as well;
- ``dice misread``: a read gave other values than the roll and fewer than two gave the roll;
- ``dice unread``: fewer than two reads gave the roll, and the play does not tell the roll
  (several rolls make it, or a dance), or the board alone does not single the play out
  (another roll's play fits the fused reads within MARGIN);
- ``cube``: the turn has a cube action and no read shows the cube where it went;
- ``tracking``: the reads were good enough (the board after the play read right, the roll
  read or told by the play, the cube seen): the tracker decided wrong.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.inference import misfits
from engine.moves import legal_plays
from engine.observation import Observation
from engine.position import Position, Side
from vision.turns import merged

CLASSES = ["tracking", "dice unread", "dice misread", "checkers", "cube", "settle",
           "after a miss"]


def rolls_making(before: Position, after: Position, side: Side) -> list[tuple[int, int]]:
    """The rolls one of whose legal plays takes ``before`` to ``after`` for ``side``."""
    out = []
    for a in range(1, 7):
        for b in range(a, 7):
            if any(p.after == after for p in legal_plays(before, side, (b, a))):
                out.append((b, a))
    return out


def _good(obs: Observation | None) -> bool:
    """A read the stable reader may use (a hand read counts when it hides no region)."""
    return obs is not None and obs.settled and obs.board_found and (
        not obs.hand or all(r is not None for r in obs.regions))


def classify(turn: dict[str, Any], frames: list[dict[str, Any]], flags: list[bool],
             reads: dict[int, Observation], previous_missed: bool,
             dice_only: bool = False) -> tuple[str, str]:
    """(class, detail) of one missed turn (see the module's docstring); ``dice_only``: the
    play was recorded right, the dice wrong."""
    if previous_missed:
        return "after a miss", ""
    lo, hi = turn["frames"]
    after_json = turn["position_after"]
    mine = [(f, reads.get(f["i"])) for f in frames[lo:hi + 1]
            if f["i"] < len(flags) and flags[f["i"]]]
    mine = [(f, o) for f, o in mine if _good(o)]
    shows = [o for f, o in mine if f["position"] == after_json and not f["hand"]]
    if not shows:
        return "settle", "no settled read of the board after the play"
    after = Position.from_json(after_json)
    fits = [o for o in shows if misfits(o, after) == 0] or (shows if dice_only else [])
    if not fits:
        bad: Counter[int] = Counter()
        for o in shows:
            for i, (region, want) in enumerate(zip(o.regions, _counts(after), strict=False)):
                if region and max(region, key=region.__getitem__) != want:
                    bad[i] += 1
        where = ", ".join(f"{_name(i)} read {_best(shows[-1], i)} not {_counts(after)[i]}"
                          for i, _ in bad.most_common(3))
        return "checkers", where
    roll = sorted(turn["dice"])
    dice = [o.dice for f, o in mine if f["dice"] and not f["dice"]["cocked"]]
    right = sum(1 for d in dice if d is not None and sorted(d.values) == roll)
    wrong = [tuple(d.values) for d in dice
             if d is not None and len(d.values) == 2 and sorted(d.values) != roll]
    side = Side(turn["player"])
    before = Position.from_json(turn["position_before"])
    fused = merged(fits)
    if right < 2:
        if wrong:
            return "dice misread", f"read {Counter(wrong).most_common(1)[0][0]} not {roll}"
        told = rolls_making(before, after, side) if after != before else []
        if len(told) != 1:
            what = "a dance" if after == before else f"{len(told)} rolls make the play"
            return "dice unread", f"{right} of {len(dice)} reads gave {roll}; {what}"
        rival = _rival(fused, before, after, side, None)
        if rival:
            return "dice unread", f"{right} of {len(dice)} reads gave {roll}; the board " \
                                  f"alone fits {rival} as well"
    elif after != before:
        rival = _rival(fused, before, after, side, (roll[1], roll[0]))
        if rival:
            return "checkers", f"weak: {rival} fits as well as the play"
    if turn.get("cube_action"):
        start = (frames[lo]["cube"]["owner"], frames[lo]["cube"]["value"])
        moved = [(f, o) for f, o in mine
                 if (f["cube"]["owner"], f["cube"]["value"]) != start]
        if not any(o.cube is not None and o.cube.owner == f["cube"]["owner"]
                   for f, o in moved):
            return "cube", f"{turn['cube_action']}: the cube never read where it went"
    return "tracking", ""


def _rival(obs: Observation, before: Position, after: Position, side: Side,
           roll: tuple[int, int] | None) -> str | None:
    """Another play's result (of ``roll``, or of any roll) that ``obs`` fits within MARGIN of
    ``after`` (or the position before): the reads do not single the play out."""
    from engine.inference import EVERY_ROLL
    from engine.phase import MARGIN

    fit = obs.log_likelihood(after)
    if obs.log_likelihood(before) > fit - MARGIN:
        return "the position before"
    for r in [roll] if roll else EVERY_ROLL:
        for p in legal_plays(before, side, r):
            if p.after not in (after, before) and obs.log_likelihood(p.after) > fit - MARGIN:
                return f"{r[0]}-{r[1]} {p.notation}"
    return None


def _counts(pos: Position) -> list[tuple[int, int]]:
    from engine.observation import expected_counts

    return expected_counts(pos)


def _best(obs: Observation, i: int) -> Any:
    region = obs.regions[i]
    return max(region, key=region.__getitem__) if region else None


def _name(i: int) -> str:
    return f"point {i + 1}" if i < 24 else ["white bar", "black bar", "white tray",
                                             "black tray"][i - 24]


def classify_game(game: dict[str, Any], frames: list[dict[str, Any]], flags: list[bool],
                  reads: dict[int, Observation], sc: dict[str, Any],
                  events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each missed turn of ``sc["wrong"]`` with its class and detail (``events``: the
    replay's, to tell a turn recorded with the right position and wrong dice)."""
    turns = {t["turn"]: t for t in game["turns"] if t["dice"]}
    order = [t["turn"] for t in game["turns"] if t["dice"]]
    moved = [e for e in events if e["type"] == "Moved"]

    def right_play(w: dict[str, Any]) -> bool:
        k = order.index(w["turn"])
        t = turns[w["turn"]]
        return k < len(moved) and moved[k]["side"] == t["player"] and \
            moved[k]["position"] == t["position_after"]

    # a turn recorded with the right position and the wrong dice does not put the record off
    missed = {w["turn"] for w in sc["wrong"] if not right_play(w)}
    out = []
    for w in sc["wrong"]:
        if "reached" in w:  # paired by position (bench.pipeline_score): judged on its own
            prev, dice_only = not w["reached"], bool(w["right_play"])
        else:
            k = order.index(w["turn"])
            prev, dice_only = k > 0 and order[k - 1] in missed, right_play(w)
        cls, detail = classify(turns[w["turn"]], frames, flags, reads, prev,
                               dice_only=dice_only)
        out.append({**w, "class": cls, "detail": detail})
    return out


def unflagged(game: dict[str, Any], frames: list[dict[str, Any]], flags: list[bool],
              reads: dict[int, Observation], events: list[dict[str, Any]],
              sc: dict[str, Any] | None = None) -> list[str]:
    """Why each illegal play the replay did not flag went unflagged: "after a miss" when the
    record was off before it (``sc``, from ``bench.pipeline_score``: the record never reached
    the turn's start; without it: an earlier play recorded wrong), "dice unread" when no read of
    its frames gave the roll (a flag needs the roll: the referee cannot judge a play without
    it), else "tracking"."""
    moved: list[dict[str, Any]] = []
    flagged_at: set[int] = set()
    for e in events:
        if e["type"] == "Moved":
            moved.append(e)
        elif e["type"] == "IllegalMoveFlagged":
            flagged_at.add(len(moved))
    out = []
    turns = [t for t in game["turns"] if t["dice"]]
    for k, t in enumerate(turns):
        if not t["illegal"]:
            continue
        if sc is not None:
            if t["turn"] in sc["flagged_turns"]:
                continue
            if t["turn"] not in sc["reached"]:
                out.append("after a miss")
                continue
        elif k in flagged_at:
            continue
        elif any(j >= len(moved) or moved[j]["position"] != turns[j]["position_after"]
                 for j in range(k)):
            out.append("after a miss")
            continue
        lo, hi = t["frames"]
        roll = sorted(t["dice"])
        got = sum(1 for f in frames[lo:hi + 1]
                  if f["i"] < len(flags) and flags[f["i"]] and reads.get(f["i"]) is not None
                  and reads[f["i"]].dice is not None
                  and sorted(reads[f["i"]].dice.values) == roll)
        out.append("dice unread" if got == 0 else "tracking")
    return out


__all__ = ["CLASSES", "classify", "classify_game", "rolls_making", "unflagged"]
