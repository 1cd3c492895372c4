"""The checker read of the last settled frames, reused strip by strip while the board is still.

A settled board is read frame after frame, and between two checker moves it lies still: the
strips the checkers are read from (all 28, one remap of the frame) show the same picture but
for camera and MJPG noise. Each strip's 4 x 4 pixel block means are compared with those of the
frame it was last evaluated in (not the last frame: slow drift adds up and is evaluated again),
and a strip none of whose block means moved more than :data:`SAME_LEVEL` grey levels keeps that
frame's evidence (its Lab pixels and disc LLRs); only the strips that changed (a checker put
down or taken up, a hand, a die) are evaluated again, and only the points among them are
scored again (``Counter.regions``: the others keep their likelihoods). When no
strip changed, the last read's regions, hand and base colours are the answer as they are.

A point whose empty look the profile learned from a read is evaluated again in the next frame
(with what was learned), as is a point read less sure than :data:`SURE`, and relearned checker
tops (``vision.lonetops``) drop the memory. The memory is kept per profile, for the read's
``pins`` argument and frame size it was made with, and only for settled frames of a profile
with disc templates.

``REMEMBER = False`` (or :func:`forget` before each read) reads every frame afresh: the
benchmarks compare the two on recorded footage (``bench.bench_vision --footage``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

REMEMBER = True  # reuse the evidence of strips that show the same picture as when evaluated
SAME_LEVEL = 16  # grey levels: the most a strip's 4 x 4 block mean may move (MJPG noise of a
# still board moves them by up to ~10-15; a checker put down or taken up, by 20 to 150)
SURE = 0.9  # a point read less sure than this is evaluated afresh every frame: a near tie
# kept would hold one side of it where fresh reads follow the frames (held-out footage
# g900011 illegal_corrected: a lone checker at 0.42-0.49 read right in 4 of 14 frames kept
# against 10 afresh)
STALE = -10_000  # a block mean no picture shows: the strip is evaluated again
MEMORY_KEY = "checker_memory"


@dataclass
class StripEvidence:
    """One read's per-strip evidence (see ``vision.read.disc_evidence``)."""

    lab: np.ndarray  # (28, P, 3) the strips in Lab
    Lw: np.ndarray  # (24, Q) the points' disc-pixel LLRs, white and black
    Lb: np.ndarray
    foreign: np.ndarray  # (24, Q) bool: disc pixels that fit nothing
    bar_Lw: np.ndarray  # (2, Qbar)
    bar_Lb: np.ndarray
    tray_any: np.ndarray  # (2, P)


@dataclass
class CheckerMemory:
    """Each strip's block means when last evaluated, the evidence then, and the last read."""

    blocks: np.ndarray  # (28, B) int16
    key: tuple
    evidence: StripEvidence
    read: tuple  # (regions, hand, base, confidence) of the last read
    points: list  # the last read's 24 point likelihoods before any was reported unseen


def strip_blocks(strips: np.ndarray) -> np.ndarray:
    """(N, B) int16 4 x 4 block means of each strip (``strips``: (N, L, SW, 3) BGR)."""
    n, L, sw, _ = strips.shape
    L4, w4 = L - L % 4, sw - sw % 4
    pic = np.ascontiguousarray(strips[:, :L4, :w4]).reshape(n * L4, w4, 3)
    b = cv2.resize(pic, (w4 // 4, n * L4 // 4), interpolation=cv2.INTER_AREA)
    return b.reshape(n, -1).astype(np.int16)


def changed_strips(a: np.ndarray, b: np.ndarray, level: float = SAME_LEVEL) -> np.ndarray:
    """(N,) bool: the strips whose block means moved more than ``level`` from ``a`` to ``b``."""
    return np.abs(a.astype(np.int32) - b).max(axis=1) > level


def recall(profile: Any, blocks: np.ndarray, key: tuple) -> tuple[CheckerMemory | None,
                                                                  np.ndarray | None]:
    """(the memory, the strips that changed since they were evaluated), or (None, None) when
    nothing made with ``key`` is remembered."""
    mem = profile._cache.get(MEMORY_KEY) if REMEMBER else None
    if mem is None or mem.key != key or mem.blocks.shape != blocks.shape:
        return None, None
    return mem, changed_strips(mem.blocks, blocks)


def remember(profile: Any, blocks: np.ndarray, key: tuple, evidence: StripEvidence,
             read: tuple, points: list, redone: np.ndarray | None, stale: list[int]) -> None:
    """Keep this read: the block means of the strips evaluated now (``redone``; None: all), the
    remembered ones of the others; ``stale``: strips to evaluate again next time."""
    if not REMEMBER:
        return
    mem = profile._cache.get(MEMORY_KEY)
    if redone is not None and mem is not None:
        blocks = np.where(redone[:, None], blocks, mem.blocks)
    blocks = blocks.copy()
    blocks[stale] = STALE
    profile._cache[MEMORY_KEY] = CheckerMemory(blocks, key, evidence, read, list(points))


def forget(profile: Any) -> None:
    """Drop what is remembered for ``profile``: the next read evaluates every strip afresh."""
    profile._cache.pop(MEMORY_KEY, None)
