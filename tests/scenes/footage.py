"""Game footage: a self-played game as a fixed camera sees it, frame by frame, at a few frames per
second — idle board, dice tumbling, dice settled, hands moving checkers, settled board, dice
picked up; cube offers and takes; illegal plays (corrected or left standing); dances.

The opening is one die each by default (each player throws into their own right-hand half; a
tie is picked up and thrown again; ``opening="both_dice"`` shows the first player rolling both,
as earlier footage did); now and then (``both_pairs``) the previous roller's dice still lie when
the next player rolls, so both pairs are on the board. Games of the regional variants
(``rules``: Plakoto with its pins, Fevga, Long Nardi, ...) come from ``variantplay``.

:func:`game_frames` yields (State, frame truth) for a game; :func:`write_game` renders them to
a video file plus one truth JSON (the setup, per-turn and per-frame truth).

Per-frame truth: ``settled`` is true when nothing moves and no hand is over the board (cocked
dice at rest count as settled); ``position`` is what lies on the board (a checker in a hand is
not in it: see ``held``); ``dice`` is the pair on the board once it has come to rest, else null
(``dice_moving`` says they are tumbling); ``cube`` is {owner, value, face}; an offered cube has
``offered: true`` and the doubler's opponent as owner.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine import Position

from .dice import Cube
from .hands import SKINS, SLEEVES, Hand
from .opening import OPENINGS, place_opening, region_of
from .scene import (
    CubeState,
    DicePair,
    Held,
    Scene,
    Setup,
    State,
    place_cube,
    place_dice,
    random_setup,
)
from .selfplay import Game, Loc, Turn, apply_loc_step, play_game
from .variantplay import apply_pin_step, play_variant, variant_rules


class Animator:
    """Turns a :class:`Game` into a sequence of states for one setup."""

    def __init__(self, setup: Setup, game: Game, seed: int, fps: float = 6.0,
                 opening: str = "one_die_each", both_pairs: float = 0.2) -> None:
        if opening not in OPENINGS:
            raise ValueError(f"opening must be one of {', '.join(OPENINGS)}, not {opening!r}")
        self.opening = opening
        self.both_pairs = both_pairs
        self.xrng = random.Random(seed * 7919 + 4)  # the newer choices, apart from ``rng``
        self.opening_down = False  # the opening's two dice lie there for the winner to play
        self.left_pair = False  # the previous roller's dice still lie on the board
        self.step = apply_pin_step if variant_rules(game.rules).pins else apply_loc_step
        self.setup = setup
        self.geo = setup.geo
        self.game = game
        self.rng = random.Random(seed)
        self.nrng = np.random.default_rng(seed)
        self.fps = fps
        self.frames: list[tuple[State, dict[str, Any]]] = []
        self.offered = False  # a cube offer stands (until taken; a drop ends the game with it)
        r = self.rng
        self.looks = {
            side: dict(skin=r.choice(SKINS), sleeve=r.choice(SLEEVES), left=r.random() < 0.15)
            for side in ("white", "black")
        }

    # -- geometry of locations --------------------------------------------------------------

    def loc_xy(self, pos: Position, loc: Loc, taking: bool) -> tuple[float, float, float]:
        """Where the checker to take from (or put at) ``loc`` lies: (x, y, base height)."""
        g = self.geo
        kind, v = loc
        if kind == "pt":
            n = abs(pos.points[v])
            k = n - 1 if taking else n
            x, y, layer = g.stack_slots(v + 1, k + 1)[k]
            return x, y, layer * g.thick
        if kind == "bar":
            white = v == "white"
            n = pos.bar_white if white else pos.bar_black
            k = n - 1 if taking else n
            x, y, layer = g.bar_slots(white, k + 1)[k]
            return x, y, g.frame_h + layer * g.thick
        white = v == "white"
        n = pos.off_white if white else pos.off_black
        k = max(n - 1, 0) if taking else n
        x, y = g.off_slots(white, k + 1)[k]
        return x, y, 0.0

    def hand(self, side: str, x: float, y: float, pose: str = "pinch", height: float = 55.0
             ) -> Hand:
        lk = self.looks[side]
        toward = (90.0 if side == "white" else 270.0) + self.rng.gauss(0, 10)
        return Hand(x, y, toward, height, pose, lk["skin"], lk["sleeve"], 190.0, lk["left"], 1.0)

    # -- emitting frames ---------------------------------------------------------------------

    def emit(self, state: State, phase: str, turn: Turn | None, **extra: Any) -> None:
        st = replace(state, dice=list(state.dice), hands=list(state.hands),
                     held=list(state.held), frame_seed=len(self.frames))
        info = {"phase": phase, "turn": None if turn is None else turn.index, **extra}
        if self.offered:
            info["offered"] = True
        self.frames.append((st, info))

    def run(self) -> list[tuple[State, dict[str, Any]]]:
        g = self.game
        pos = g.turns[0].before if g.turns else Position.empty()
        state = State(pos, cube=place_cube(self.setup, self.nrng, "center", 1))
        for _ in range(4):
            self.emit(state, "idle", None)
        if self.opening == "one_die_each" and g.opening and g.turns:
            state = self.opening_roll(state)
        for turn in g.turns:
            state = self.turn(state, turn)
        for _ in range(6):
            self.emit(state, "game_over", None, result=g.to_json()["result"])
        return self.frames

    def turn(self, state: State, turn: Turn) -> State:
        side = turn.player
        other = "black" if side == "white" else "white"
        r = self.rng
        g = self.geo
        for _ in range(r.randint(1, 2)):
            self.emit(state, "idle", turn)
        if turn.cube_action in ("double/take", "double/drop"):
            state = self.double(state, turn, side, other)
            if turn.cube_action == "double/drop":
                return state
        if turn.cube_action == "resign":
            h = self.hand(side, 0.0, (g.H / 2 + 40) * (1 if side == "white" else -1), "flat")
            state.hands = [h]
            for _ in range(2):
                self.emit(state, "resign", turn)
            state.hands = []
            return state
        if self.opening_down:  # the winner plays the opening's two dice
            self.opening_down = False
            self.emit(state, "dice_settled", turn)
        else:
            # roll (a cocked roll first, then a proper one)
            if turn.cocked_reroll and not self.left_pair:
                state = self.roll(state, turn, cocked=True)
                state = self.pick_dice(state, turn, "reroll")
            state = self.roll(state, turn, cocked=False)
            for _ in range(3):
                self.emit(state, "dice_settled", turn)
            if self.left_pair:
                state = self.pick_left_pair(state, turn, other)
        if turn.illegal and turn.illegal["corrected"]:
            state = self.move(state, turn, turn.illegal["steps"], "moving")
            for _ in range(3):
                self.emit(state, "settled_illegal", turn)
            # the opponent asks for a correction: the checkers go back, then the legal play
            state = self.move(state, turn, [(b, a, False) for a, b, _ in
                                            reversed(turn.illegal["steps"])], "correcting",
                              back=turn.before)
            for _ in range(2):
                self.emit(state, "settled_corrected", turn)
        if turn.steps:
            state = self.move(state, turn, turn.steps, "moving")
        state.position = turn.after
        for _ in range(3):
            self.emit(state, "settled", turn)
        nxt = self.game.turns[turn.index + 1] if turn.index + 1 < len(self.game.turns) else None
        if nxt is not None and nxt.cube_action is None and state.dice and \
                self.xrng.random() < self.both_pairs:
            self.left_pair = True  # the next player rolls beside these dice
            return state
        return self.pick_dice(state, turn, "dice_pickup")

    def opening_roll(self, state: State) -> State:
        """One die each, ties thrown again; the winner's two dice stay for the first play unless
        the winner rolls anew (``Game.reroll``)."""
        g = self.geo
        r = self.xrng
        for k, (w, b) in enumerate(self.game.opening):
            pair = place_opening(self.setup, self.nrng, w, b, state.position)
            starts = [np.array([g.W * 0.3, g.H / 2 + 30]), np.array([-g.W * 0.3, -g.H / 2 - 30])]
            n = r.randint(2, 3)
            for j in range(n):
                t = (j + 1) / (n + 1)
                flying = []
                for d, start in zip(pair.dice, starts, strict=True):
                    xy = start + (np.array([d.x, d.y]) - start) * t
                    flying.append(replace(d, value=r.randint(1, 6), x=float(xy[0]),
                                          y=float(xy[1]), yaw=r.uniform(0, 360),
                                          cock=r.uniform(20, 70),
                                          base=float(40 * (1 - t) * abs(math.sin(3 * t)) + 1)))
                state.dice = [DicePair((w, b), None, flying)]
                self.emit(state, "opening_rolling", None, dice_moving=True)
            state.dice = [pair]
            for _ in range(3):
                self.emit(state, "opening_settled", None, opening=k)
            if w == b or self.game.reroll:
                hands = [self.hand(side, d.x, d.y, "pinch", 45.0)
                         for side, d in zip(("white", "black"), pair.dice, strict=True)]
                state.hands = hands
                self.emit(state, "opening_pickup", None)
                state.dice, state.hands = [], []
                self.emit(state, "idle", None)
            else:
                self.opening_down = True
        return state

    def pick_left_pair(self, state: State, turn: Turn, owner: str) -> State:
        """The previous roller takes their dice up once the new roll has settled."""
        old = state.dice[0].dice[0]
        state.hands = [self.hand(owner, old.x, old.y, "pinch", 45.0)]
        self.emit(state, "dice_pickup_previous", turn)
        state.dice = state.dice[1:]
        state.active_dice = 0
        state.hands = []
        self.left_pair = False
        self.emit(state, "dice_settled", turn)
        return state

    def roll(self, state: State, turn: Turn, cocked: bool) -> State:
        side = turn.player
        r = self.rng
        keep = state.dice[:1] if self.left_pair else []
        avoid = [(d.x, d.y) for p in keep for d in p.dice] or None
        pair = place_dice(self.setup, self.nrng, turn.dice, side, state.position,
                          cocked=(cocked, cocked and r.random() < 0.5), avoid=avoid)
        sgn = 1.0 if side == "white" else -1.0
        start = np.array([sgn * self.geo.W * 0.3, sgn * (self.geo.H / 2 + 30)])
        if side == "black":
            start[0] = -self.geo.W * 0.3
        n = r.randint(2, 4)
        for k in range(n):
            t = (k + 1) / (n + 1)
            flying = []
            for d in pair.dice:
                xy = start + (np.array([d.x, d.y]) - start) * t
                flying.append(replace(d, value=r.randint(1, 6), x=float(xy[0]), y=float(xy[1]),
                                      yaw=r.uniform(0, 360), cock=r.uniform(20, 70),
                                      base=float(40 * (1 - t) * abs(math.sin(3 * t)) + 1)))
            state.dice = [*keep, DicePair(turn.dice, side, flying)]
            state.active_dice = len(keep)
            self.emit(state, "dice_rolling", turn, dice_moving=True)
        state.dice = [*keep, pair]
        if cocked:
            for _ in range(2):
                self.emit(state, "dice_cocked", turn)
        return state

    def pick_dice(self, state: State, turn: Turn, phase: str) -> State:
        if state.dice:
            d = state.dice[0].dice[0]
            state.hands = [self.hand(turn.player, d.x, d.y, "pinch", 45.0)]
            self.emit(state, phase, turn)
            state.dice = []
            state.hands = [self.hand(turn.player, d.x * 0.7, d.y * 0.3 + (
                200 if turn.player == "white" else -200), "closed", 70.0)]
            self.emit(state, phase, turn)
            state.hands = []
        return state

    def move(self, state: State, turn: Turn, steps: list[tuple[Loc, Loc, bool]], phase: str,
             back: Position | None = None) -> State:
        """Animate steps one by one; ``back`` (for a correction) is the position to end in."""
        side = turn.player
        pos = state.position
        for src, dst, _hit in steps:
            sx, sy, sh = self.loc_xy(pos, src, True)
            state.hands = [self.hand(side, sx, sy, "pinch", sh + 22)]
            state.held = []
            self.emit(state, phase, turn)
            lifted = self.step(pos, side, src, None)
            dx, dy, dh = self.loc_xy(lifted, dst, False)
            n = 2 if math.hypot(dx - sx, dy - sy) > 120 else 1
            state.position = lifted
            for k in range(n):
                t = (k + 0.5) / n
                x, y = sx + (dx - sx) * t, sy + (dy - sy) * t
                state.hands = [self.hand(side, x, y, "pinch", 48.0)]
                state.held = [Held(side, x, y, 30.0, region_of(src))]
                self.emit(state, phase, turn)
            state.hands = [self.hand(side, dx, dy, "pinch", dh + 24)]
            state.held = [Held(side, dx, dy, dh + 4.0, region_of(src))]
            self.emit(state, phase, turn)
            pos = self.step(pos, side, src, dst)
            state.position = pos
            state.held = []
        if back is not None:
            state.position = back
        state.hands = [self.hand(side, state.hands[0].x * 0.8 if state.hands else 0.0,
                                 (self.geo.H / 2 + 10) * (1 if side == "white" else -1),
                                 "closed", 70.0)]
        self.emit(state, phase, turn)
        state.hands = []
        return state

    def double(self, state: State, turn: Turn, side: str, other: str) -> State:
        cube_now = state.cube.cube
        new = turn.cube_value if turn.cube_action == "double/take" else (
            state.cube.value * 2 if state.cube.value > 1 else 2)
        if cube_now is not None:
            state.hands = [self.hand(side, cube_now.x, cube_now.y, "pinch", 50.0)]
            self.emit(state, "doubling", turn)
        sgn = -1.0 if other == "black" else 1.0
        offered = Cube(new, float(self.geo.W * 0.25), float(sgn * self.geo.H * 0.12),
                       0.0 if other == "white" else 180.0, 26.0, 0.0)
        state.cube = CubeState(other, new, offered)
        self.offered = True
        state.hands = [self.hand(side, offered.x, offered.y, "pinch", 50.0)]
        self.emit(state, "doubling", turn)
        state.hands = []
        for _ in range(3):
            self.emit(state, "double_offered", turn)
        if turn.cube_action == "double/take":
            state.hands = [self.hand(other, offered.x, offered.y, "pinch", 50.0)]
            self.emit(state, "taking", turn)
            self.offered = False
            state.cube = place_cube(self.setup, self.nrng, other, new)
            state.hands = []
            self.emit(state, "taken", turn)
        else:
            state.hands = [self.hand(other, 0.0, sgn * (self.geo.H / 2 + 20), "flat", 60.0)]
            for _ in range(2):
                self.emit(state, "dropped", turn)
            state.hands = []
        return state


def frame_truth(scene_truth: dict[str, Any], info: dict[str, Any], i: int, fps: float,
                state: State) -> dict[str, Any]:
    t = {
        "i": i,
        "t": round(i / fps, 3),
        "turn": info.get("turn"),
        "phase": info["phase"],
        "settled": bool(not state.hands and not state.held and not info.get("dice_moving")),
        "hand": scene_truth["hand"],
        "position": scene_truth["position"],
        "dice": None if info.get("dice_moving") else scene_truth["dice"],
        "dice_moving": bool(info.get("dice_moving", False)),
        "cube": {k: scene_truth["cube"][k] for k in ("owner", "value", "face")
                 if k in scene_truth["cube"]},
        "held": scene_truth["held"],
    }
    if info.get("offered"):
        t["cube"]["offered"] = True
    if "result" in info:
        t["result"] = info["result"]
    return t


def game_frames(
    seed: int,
    variant: str = "normal",
    width: int = 1280,
    height: int = 720,
    style: str | None = None,
    fps: float = 6.0,
    max_turns: int = 200,
    harsh: float = 0.6,
    fill: tuple[float, float] = (0.65, 0.95),
    noise: float | None = None,
    roll: float | None = None,
    tilt: float | None = None,
    opening: str = "one_die_each",
    rules: str | None = None,
    both_pairs: float = 0.2,
) -> tuple[Scene, Game, Iterator[tuple[np.ndarray, dict[str, Any]]]]:
    """(scene, game, iterator of (image, frame truth)) for a game from ``seed``; a fixed
    tournament camera frames the board larger than random stills do (``fill``). ``rules`` names
    a variant (``variantplay``) whose game is rendered instead of standard self-play (then
    ``variant`` must be "normal")."""
    game = make_game(seed, variant, max_turns, rules)
    setup = random_setup(seed, width, height, style=style, harsh=harsh, fill=fill, roll=roll,
                         tilt=tilt)
    if noise is not None:  # e.g. a quiet sensor for small committed demo videos
        setup.light = replace(setup.light, noise=noise, jpeg=0, motion=0.0)
    scene = Scene(setup)
    frames = Animator(setup, game, seed, fps, opening=opening, both_pairs=both_pairs).run()

    def it() -> Iterator[tuple[np.ndarray, dict[str, Any]]]:
        for i, (state, info) in enumerate(frames):
            img, truth = scene.render(state)
            yield img, frame_truth(truth, info, i, fps, state)

    return scene, game, it()


def make_game(seed: int, variant: str = "normal", max_turns: int = 200,
              rules: str | None = None) -> Game:
    """The self-played game footage shows: standard with a scenario, or a variant's game."""
    if rules is None or variant_rules(rules).name == "backgammon":
        return play_game(seed, variant, max_turns)
    if variant != "normal":
        raise ValueError(f"footage scenario {variant!r} is for standard backgammon only")
    return play_variant(seed, rules, max_turns)


def write_game(
    out: Path,
    seed: int,
    variant: str = "normal",
    width: int = 1280,
    height: int = 720,
    style: str | None = None,
    fps: float = 6.0,
    codec: str = "mp4v",
    frames_dir: bool = False,
    max_turns: int = 200,
    name: str = "game",
    harsh: float = 0.6,
    noise: float | None = None,
    roll: float | None = None,
    tilt: float | None = None,
    fill: tuple[float, float] = (0.65, 0.95),
    opening: str = "one_die_each",
    rules: str | None = None,
    both_pairs: float = 0.2,
) -> dict[str, Any]:
    """Render a game to ``out/NAME.mp4`` (mp4v) or ``.avi`` (MJPG) and ``out/NAME.json``."""
    out.mkdir(parents=True, exist_ok=True)
    scene, game, it = game_frames(seed, variant, width, height, style, fps, max_turns, harsh,
                                  fill=fill, noise=noise, roll=roll, tilt=tilt, opening=opening,
                                  rules=rules, both_pairs=both_pairs)
    ext = "avi" if codec.upper() == "MJPG" else "mp4"
    video = out / f"{name}.{ext}"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*codec), fps, (width, height))
    if not writer.isOpened():
        raise RuntimeError(f"OpenCV cannot write {codec} video to {video}")
    truths = []
    try:
        for img, t in it:
            writer.write(img)
            if frames_dir:
                (out / "frames").mkdir(exist_ok=True)
                cv2.imwrite(str(out / "frames" / f"{t['i']:05d}.jpg"), img,
                            [cv2.IMWRITE_JPEG_QUALITY, 92])
            truths.append(t)
    finally:
        writer.release()
    first = scene.truth(State(game.turns[0].before if game.turns else Position.empty()), None)
    setup_t = {k: first[k] for k in ("style", "board_corners_px", "orientation_deg", "camera",
                                     "board_fill", "board_mm", "table", "props", "lighting")}
    doc = {
        "format": "gammoncam-footage/1",
        "video": video.name,
        "fps": fps,
        "width": width,
        "height": height,
        "seed": seed,
        "variant": variant,
        "rules": game.rules,
        "opening": opening,
        "setup": setup_t,
        "game": game.to_json(),
        "frames": truths,
    }
    for t in doc["game"]["turns"]:
        idx = [f["i"] for f in truths if f["turn"] == t["turn"]]
        t["frames"] = [min(idx), max(idx)] if idx else None
    (out / f"{name}.json").write_text(json.dumps(doc, separators=(",", ":")))
    return doc
