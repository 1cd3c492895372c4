"""Footage truth without pixels, and scoring a replay against the truth.

:func:`truth_frames` walks the scene renderer's animation of a self-played game (the same states
``tests.scenes.footage`` renders) and gives each frame's truth, fast: no image is drawn. A
:class:`TruthSource` serves such frames through the frame-source interface, with the frame
number painted into a tiny image, and :func:`truth_read` / :func:`truth_settle` turn them into
exact observations and the settle gate's answer: the tracking logic can be tested on whole games
before (and apart from) the real vision.

:func:`score` compares a referee's event log with a game's truth: per turn (dice and resulting
position), illegal plays flagged, false flags, cube actions and the result.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.observation import Cube, Dice, Observation
from engine.position import Position
from vision.sources import Frame, FrameSource, SourceError, SourceTimeout


def truth_frames(seed: int, variant: str = "normal", max_turns: int = 200,
                 rules: str | None = None, **animate: Any
                 ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(game truth JSON, per-frame truth) of footage ``seed``/``variant``, without rendering;
    ``rules`` names a variant's game (``tests.scenes.variantplay``), ``animate`` passes the
    footage options (``opening``, ``both_pairs``) on."""
    from tests.scenes.footage import Animator, make_game
    from tests.scenes.scene import random_setup

    game = make_game(seed, variant, max_turns, rules)
    setup = random_setup(seed, 320, 240)
    frames = []
    for i, (state, info) in enumerate(Animator(setup, game, seed, **animate).run()):
        moving = bool(info.get("dice_moving"))
        dice = None
        if state.dice and not moving:
            pair = state.dice[state.active_dice]
            dice = {"values": [d.up_value() for d in pair.dice], "owner": pair.owner,
                    "cocked": pair.cocked}
        frames.append({
            "i": i, "turn": info.get("turn"), "phase": info["phase"],
            "settled": not state.hands and not state.held and not moving,
            "hand": bool(state.hands), "position": state.position.to_json(), "dice": dice,
            "cube": {"owner": state.cube.owner, "value": state.cube.value},
        })
    return game.to_json(), frames


def observation_of(t: dict[str, Any]) -> Observation:
    """An exact observation of one frame's truth."""
    d = t["dice"]
    dice = Dice(tuple(d["values"]), d["owner"], bool(d["cocked"])) if d else None
    c = t["cube"]
    obs = Observation.exact(Position.from_json(t["position"]), dice=dice,
                            cube=Cube(c["owner"], c["value"]))
    return Observation(regions=obs.regions, dice=dice, cube=obs.cube, hand=t["hand"],
                       settled=t["settled"], floor=obs.floor)


def _encode(i: int) -> np.ndarray:
    img = np.zeros((2, 2, 3), np.uint8)
    img[0, 0] = (i & 255, (i >> 8) & 255, (i >> 16) & 255)
    return img


def _decode(image: np.ndarray) -> int:
    b, g, r = (int(v) for v in image[0, 0])
    return b | (g << 8) | (r << 16)


def truth_read(frames: Sequence[dict[str, Any]]):  # noqa: ANN201 - a ReadFn
    def read(image: np.ndarray, profile: Any) -> Observation:
        return observation_of(frames[_decode(image)])

    return read


def truth_settle(frames: Sequence[dict[str, Any]]):  # noqa: ANN201 - a SettleFn
    def settle(frame: Frame) -> bool:
        return bool(frames[_decode(frame.image)]["settled"])

    return settle


@dataclass
class TruthSource(FrameSource):
    """Frames 0..n-1 of a truth list; ``outages`` maps a frame number to seconds of camera loss
    that begin there (reads time out, reopening fails, until it is over)."""

    frames: Sequence[dict[str, Any]] = ()
    live_camera: bool = False
    period: float = 0.0
    outages: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__("truth", grey=None)
        self.live = self.live_camera
        self.pos = 0
        self.down_until = 0.0
        self.opens = 0

    def open(self) -> None:
        if time.monotonic() < self.down_until:
            raise SourceError("no camera found")
        self.opens += 1
        self.opened = True

    def read(self, timeout: float | None = None) -> Frame | None:
        if not self.opened:
            raise SourceError("not open")
        if self.pos >= len(self.frames):
            return None
        if self.pos in self.outages:
            self.down_until = time.monotonic() + self.outages.pop(self.pos)
        if time.monotonic() < self.down_until:
            time.sleep(0.01)
            raise SourceTimeout("no frame in time")
        if self.period:
            time.sleep(self.period)
        i = self.pos
        self.pos += 1
        return self._frame(_encode(i), i * 1 / 6)

    def close(self) -> None:
        self.opened = False


def true_points(game: dict[str, Any]) -> int:
    """The game's value from its final position. The renderer's self-play looks for a
    backgammon in the loser's own home board instead of the winner's (seed 5 double_take says
    backgammon, 6 points, where the position is a gammon): counted here by the rules."""
    res = game["result"]
    if res["how"] not in ("single", "gammon", "backgammon"):
        return int(res["points"])
    cube = int(res["points"]) // {"single": 1, "gammon": 2, "backgammon": 3}[res["how"]]
    pos = Position.from_json(game["final_position"])
    winner = res["winner"]
    loser_sign = -1 if winner == "white" else 1
    if (pos.off_black if winner == "white" else pos.off_white) > 0:
        return cube
    home = range(0, 6) if winner == "white" else range(18, 24)
    bar = pos.bar_black if winner == "white" else pos.bar_white
    back = bar > 0 or any(pos.points[i] * loser_sign > 0 for i in home)
    return cube * (3 if back else 2)


def score(events: Sequence[dict[str, Any]], game: dict[str, Any]) -> dict[str, Any]:
    """Compare a referee's events (JSON) with a game's truth."""
    truth = [t for t in game["turns"] if t["dice"]]
    moved: list[dict[str, Any]] = []
    flags_in_turn: dict[int, int] = {}
    cube: list[str] = []
    won = None
    for e in events:
        if e["type"] == "Moved":
            moved.append(e)
        elif e["type"] == "IllegalMoveFlagged":
            flags_in_turn[len(moved)] = flags_in_turn.get(len(moved), 0) + 1
        elif e["type"] in ("Doubled", "Taken", "Dropped"):
            cube.append(e["type"])
        elif e["type"] == "GameWon" and won is None:
            won = e
    exact, wrong = 0, []
    for k, t in enumerate(truth):
        m = moved[k] if k < len(moved) else None
        ok = (m is not None and m["side"] == t["player"]
              and sorted(m["dice"]) == sorted(t["dice"])
              and m["position"] == t["position_after"])
        exact += ok
        if not ok:
            wrong.append({"turn": t["turn"], "truth": (t["player"], t["dice"], t["play"]),
                          "seen": None if m is None else (m["side"], m["dice"], m["play"])})
    illegal = [k for k, t in enumerate(truth) if t["illegal"]]
    flagged = [k for k in illegal if flags_in_turn.get(k)]
    false_flags = sum(n for k, n in flags_in_turn.items() if k not in illegal)
    want_cube: list[str] = []
    for t in game["turns"]:
        if t["cube_action"] == "double/take":
            want_cube += ["Doubled", "Taken"]
        elif t["cube_action"] == "double/drop":
            want_cube += ["Doubled", "Dropped"]
    res = dict(game["result"])
    res["points"] = true_points(game)
    result_ok = won is not None and won["side"] == res["winner"] and \
        won["points"] == res["points"]
    return {
        "turns": len(truth), "exact": exact, "extra_moves": max(0, len(moved) - len(truth)),
        "wrong": wrong, "illegal": len(illegal), "flagged": len(flagged),
        "false_flags": false_flags, "cube_ok": cube == want_cube, "cube": cube,
        "result_ok": result_ok, "result": res, "won": won,
    }
