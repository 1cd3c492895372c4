"""What the calibrated reader remembers from one settled frame to the next.

A settled board is read frame after frame, and most settled frames show the same dice and cube
as the one before (the checkers move while the dice lie; the cube moves only on a double). The
dice reader keeps its own memory of its read windows (:class:`vision.dice.DiceMemory`); the
cube's is here: the three strips the cube finder searches (the bar and both trays, one remap of
the frame) are compared with the last read frame's as 4 x 4 pixel block means, and when no
block mean moved more than :data:`SAME_LEVEL` (camera noise moves one by a level or two, a cube
turned or moved by tens) the last cube is the answer, without the square search or the digits.

``REMEMBER = False`` (or :func:`forget` before each read) reads every frame afresh: the
benchmarks compare the two on recorded footage (``bench.bench_vision --footage``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from engine.observation import Cube

from . import cube as cube_reader
from .cube_field import REFUSED_KEY, field_cube, field_picture
from .dice import kit_for as dice_kit

REMEMBER = True  # reuse the last frame's cube when its strips did not change
SAME_LEVEL = 8  # grey levels: the most a 4 x 4 block mean of the strips may move
FIELD_LEVEL = 16  # the field's strip: MJPG noise moves its block means by up to ~10 (a half
# of the settled frames of a footage game moved 8 or more); a cube put down, by tens
SAME_CUBE = 0.8  # a centred square this clear beside the board's clearest centred cube is it
CUBE_KEY = "cube_memory"


@dataclass
class CubeMemory:
    """The last read frame's cube strips (block means) and the cube read there."""

    blocks: np.ndarray | None = None
    reading: cube_reader.CubeReading | None = None  # on the bar and trays
    field_blocks: np.ndarray | None = None  # the field's strip, when the bar and trays are
    field: cube_reader.CubeReading | None = None  # empty, and the offered cube read there
    centre_best: float = 0.0  # the clearest centred cube's square read on this board


def _blocks(pic: np.ndarray) -> np.ndarray:
    h, w = pic.shape[:2]
    return cv2.resize(pic, (max(w // 4, 1), max(h // 4, 1)),
                      interpolation=cv2.INTER_AREA).astype(np.int16)


def same_picture(a: np.ndarray | None, b: np.ndarray, level: float = SAME_LEVEL) -> bool:
    """Whether block means ``b`` are ``a``'s within ``level`` each (None: nothing to compare)."""
    return a is not None and a.shape == b.shape and int(np.abs(a - b).max()) <= level


def remembered_reading(frame: np.ndarray, profile: Any) -> cube_reader.CubeReading | None:
    """:func:`vision.cube.read_cube`, with the last frame's reading of the bar and trays when
    they show the same picture; when they show no cube or an unsure one, the field (the
    offered cube) likewise, with the last frame's field reading while the field's strip shows
    the same picture."""
    if not REMEMBER:
        return cube_reader.read_cube(frame, profile)
    pic = cube_reader.strips_picture(frame, profile)  # the cube reader's own, read once
    blocks = _blocks(pic)
    mem = profile._cache.get(CUBE_KEY)
    if mem is None:
        mem = profile._cache[CUBE_KEY] = CubeMemory()
    if not same_picture(mem.blocks, blocks):
        mem.blocks, mem.reading = blocks, cube_reader.read_cube(frame, profile, pic,
                                                                field=False)
        mem.field_blocks = None
        if mem.reading is not None and mem.reading.owner == "center":
            mem.centre_best = max(mem.centre_best, mem.reading.score)
    if not _unsure(mem):
        return mem.reading
    field = field_picture(frame, profile)  # no cube or an unsure one there: the field too
    fblocks = _blocks(field)
    if not same_picture(mem.field_blocks, fblocks, FIELD_LEVEL):
        mem.field_blocks, mem.field = fblocks, field_cube(frame, profile, field)
    return mem.field or mem.reading


def _unsure(mem: CubeMemory) -> bool:
    """:func:`vision.cube.unsure`, but a centred cube on a weak square as clear as this board's
    clearest centred cube (``SAME_CUBE`` of it) is that cube: sure (a board whose centred cube
    always reads weak would have its field searched on every changed frame)."""
    r = mem.reading
    if r is not None and r.owner == "center" and r.score >= SAME_CUBE * mem.centre_best:
        return False
    return cube_reader.unsure(r)


def remembered_cube(frame: np.ndarray, profile: Any) -> Cube | None:
    """:func:`vision.cube.observe_cube`, or the last frame's cube when the strips it is looked
    for in show the same picture."""
    return cube_reader.cube_observation(remembered_reading(frame, profile))


def forget(profile: Any) -> None:
    """Drop everything remembered for ``profile``: the next read reads afresh."""
    profile._cache.pop(CUBE_KEY, None)
    profile._cache.pop(REFUSED_KEY, None)
    if "dice_kit" in profile._cache:
        dice_kit(profile).memory.forget()
