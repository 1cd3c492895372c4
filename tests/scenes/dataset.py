"""Random still scenes with truth, and datasets of them.

:func:`random_scene` draws everything from one seed: a setup (style, camera, table, props,
light) and a state (a position from self-play or a scattered one with big stacks, dice — none,
one pair or both players' pairs, sometimes cocked — the cube in the middle or at an owner's
side, hands). The same seed always gives the same image.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine import Position

from .hands import SKINS, SLEEVES, Hand
from .scene import (
    Held,
    Scene,
    Setup,
    State,
    place_cube,
    place_dice,
    random_hand,
    random_setup,
    sub_rng,
)
from .selfplay import apply_loc_step, random_position, scattered_position


def random_state(setup: Setup, seed: int, position: Position | None = None) -> State:
    r = random.Random(seed * 7 + 1)
    rng = sub_rng(seed, "state")
    if position is None:
        position = scattered_position(r) if r.random() < 0.15 else random_position(r)
    state = State(position)
    u = r.random()
    roller = r.choice(["white", "black"])
    if u < 0.85:
        cocked = (r.random() < 0.08, r.random() < 0.04)
        state.dice.append(place_dice(setup, rng, (r.randint(1, 6), r.randint(1, 6)), roller,
                                     position, cocked))
        if u < 0.12:  # the other player's pair lying on their side too
            avoid = [(d.x, d.y) for d in state.dice[0].dice]
            other = "black" if roller == "white" else "white"
            state.dice.append(place_dice(setup, rng, (r.randint(1, 6), r.randint(1, 6)), other,
                                         position, avoid=avoid))
    if r.random() < 0.6:
        state.cube = place_cube(setup, rng, "center", 1)
    else:
        state.cube = place_cube(setup, rng, r.choice(["white", "black"]),
                                r.choice([2, 2, 2, 4, 4, 8, 16, 32, 64]))
    if r.random() < 0.3:
        state.hands.append(random_hand(rng, setup.geo))
        if r.random() < 0.15:
            state.hands.append(random_hand(rng, setup.geo))
    state.frame_seed = seed
    state.settled = not state.hands
    return state


def random_scene(seed: int, width: int = 1280, height: int = 720, style: str | None = None,
                 harsh: float = 1.0, position: Position | None = None, held: float = 0.0
                 ) -> tuple[Setup, State]:
    """A random setup and state; with probability ``held`` a checker is in a hand over the
    board (``hold_checker``; 0 by default, so existing seeds keep their images)."""
    setup = random_setup(seed, width, height, style=style, harsh=harsh)
    state = random_state(setup, seed, position)
    if held > 0 and sub_rng(seed, "held").random() < held:
        state = hold_checker(setup, state, sub_rng(seed, "held", 1))
    return setup, state


def render_sample(seed: int, width: int = 1280, height: int = 720, style: str | None = None,
                  harsh: float = 1.0, position: Position | None = None, held: float = 0.0
                  ) -> tuple[np.ndarray, dict[str, Any]]:
    """One random image and its truth."""
    setup, state = random_scene(seed, width, height, style, harsh, position, held)
    return Scene(setup).render(state)


def hold_checker(setup: Setup, state: State, rng: np.random.Generator) -> State:
    """Take the top checker of a random occupied point into a pinching hand held over the board
    near it: the position loses it, the truth lists it as held (side and the region it left)."""
    pos = state.position
    occupied = [i for i, n in enumerate(pos.points) if n]
    if not occupied:
        return state
    i = int(rng.choice(occupied))
    side = "white" if pos.points[i] > 0 else "black"
    g = setup.geo
    x, y, _ = g.stack_slots(i + 1, abs(pos.points[i]))[-1]
    x += float(rng.normal(0, 25))
    y *= float(rng.uniform(0.3, 0.8))
    h = float(rng.uniform(25, 60))
    toward = (90.0 if side == "white" else 270.0) + float(rng.normal(0, 12))
    hand = Hand(x, y, toward, h + 20, "pinch", str(rng.choice(SKINS)), str(rng.choice(SLEEVES)),
                float(rng.uniform(160, 230)), bool(rng.random() < 0.2), 1.0)
    state.position = apply_loc_step(pos, side, ("pt", i), None)
    state.held = [*state.held, Held(side, x, y, h, i)]
    state.hands = [*state.hands, hand]
    state.settled = False
    return state


def sample_seed(seed: int, i: int) -> int:
    return int(sub_rng(seed, "sample", i).integers(1 << 31))


def write_dataset(out: Path, n: int, seed: int, width: int = 1280, height: int = 720,
                  style: str | None = None, fmt: str = "jpg", harsh: float = 1.0,
                  held: float = 0.0) -> None:
    """``out/NNNNNN.jpg|png`` + ``out/NNNNNN.json`` per sample and ``out/index.jsonl``."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "index.jsonl").open("w") as index:
        for i in range(n):
            s = sample_seed(seed, i)
            img, truth = render_sample(s, width, height, style, harsh, held=held)
            name = f"{i:06d}"
            params = [cv2.IMWRITE_JPEG_QUALITY, 95] if fmt == "jpg" else []
            cv2.imwrite(str(out / f"{name}.{fmt}"), img, params)
            (out / f"{name}.json").write_text(json.dumps(truth, indent=1))
            index.write(json.dumps({"image": f"{name}.{fmt}", "truth": f"{name}.json",
                                    "seed": s, "style": truth["style"]}) + "\n")
