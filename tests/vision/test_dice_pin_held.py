"""In a game that pins (Plakoto), a point counted with both colours holds a pin: the pinned checker
lies under its pinner and adds no slot to the counted checkers' mask
(:data:`vision.dice.PIN_HELD`). Held-out footage Plakoto 900002 turn 82: a die lying in a
pinned point's second slot was under the mask of two checkers and never looked at. Here a die
is laid just past a rendered pin (tuning seed 1001's board)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from tests.scenes.dataset import random_state
from tests.scenes.dice import Die
from tests.scenes.scene import DicePair, Scene, State, random_setup
from tests.scenes.variantplay import play_variant
from vision import dice as dm
from vision import read


def _pin_scene(seed: int = 1001) -> tuple[object, np.ndarray, list, tuple[float, float], int]:
    """(profile, frame, counts, the die's frame pixel, its value): a Plakoto board with a lone
    pin (one checker under one) and a die just past its pinner, toward the point's tip."""
    setup = random_setup(seed, 960, 540)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    prof.meta["pins"] = True
    game = play_variant(seed, "plakoto")
    pos = next(t.after for t in game.turns if t.after is not None
               and any(abs(t.after.points[i]) == 1 and abs(t.after.pinned_at(i)) == 1
                       for i in range(24) if t.after.pinned_at(i)))
    i = next(i for i in range(24) if pos.pinned_at(i) and abs(pos.points[i]) == 1
             and abs(pos.pinned_at(i)) == 1)
    g = setup.geo
    x, y, _layer = g.stack_slots(i + 1, 2)[0]
    tip = 1.0 if y < 0 else -1.0
    die = Die(4, x, y + tip * 0.95 * g.d, yaw=20.0, size=15.0)
    st = random_state(setup, seed * 100, pos)
    st.hands, st.held, st.settled = [], [], True
    st.dice = [DicePair((4, 4), "white", [die])]
    img, tr = scene.render(st)
    regions = list(read(img, prof).regions)
    counts = [max(r, key=r.get) if r else None for r in regions]
    c = tr["dice_pairs"][0]["centers_px"][0]
    return prof, img, counts, (float(c[0]), float(c[1])), i


def _read_at(prof: object, img: np.ndarray, counts: list, c: tuple[float, float]) -> object:
    dm.kit_for(prof).memory.forget()
    dm.kit_for(prof).held = None
    reads = dm.read_dice(img, prof, counts)
    dm.kit_for(prof).memory.forget()
    near = [r for r in reads if np.hypot(r.frame_xy[0] - c[0], r.frame_xy[1] - c[1]) < 12]
    return near[0] if near else None


def test_a_die_past_a_pin_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    prof, img, counts, c, i = _pin_scene()
    assert counts[i] is not None and counts[i][0] > 0 and counts[i][1] > 0  # read as a pin
    r = _read_at(prof, img, counts, c)
    assert r is not None and r.value == 4
    monkeypatch.setattr(dm, "PIN_HELD", False)
    assert _read_at(prof, img, counts, c) is None  # (under two checkers' mask: never seen)
