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

from .scene import (
    Scene,
    Setup,
    State,
    place_cube,
    place_dice,
    random_hand,
    random_setup,
    sub_rng,
)
from .selfplay import random_position, scattered_position


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
                 harsh: float = 1.0, position: Position | None = None) -> tuple[Setup, State]:
    setup = random_setup(seed, width, height, style=style, harsh=harsh)
    return setup, random_state(setup, seed, position)


def render_sample(seed: int, width: int = 1280, height: int = 720, style: str | None = None,
                  harsh: float = 1.0, position: Position | None = None
                  ) -> tuple[np.ndarray, dict[str, Any]]:
    """One random image and its truth."""
    setup, state = random_scene(seed, width, height, style, harsh, position)
    return Scene(setup).render(state)


def sample_seed(seed: int, i: int) -> int:
    return int(sub_rng(seed, "sample", i).integers(1 << 31))


def write_dataset(out: Path, n: int, seed: int, width: int = 1280, height: int = 720,
                  style: str | None = None, fmt: str = "jpg", harsh: float = 1.0) -> None:
    """``out/NNNNNN.jpg|png`` + ``out/NNNNNN.json`` per sample and ``out/index.jsonl``."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "index.jsonl").open("w") as index:
        for i in range(n):
            s = sample_seed(seed, i)
            img, truth = render_sample(s, width, height, style, harsh)
            name = f"{i:06d}"
            params = [cv2.IMWRITE_JPEG_QUALITY, 95] if fmt == "jpg" else []
            cv2.imwrite(str(out / f"{name}.{fmt}"), img, params)
            (out / f"{name}.json").write_text(json.dumps(truth, indent=1))
            index.write(json.dumps({"image": f"{name}.{fmt}", "truth": f"{name}.json",
                                    "seed": s, "style": truth["style"]}) + "\n")
