"""A wider look for calibration, when the finder's answer is doubtful.

The finder (:mod:`calibration.find`) takes the checkers' dominant radius from the touching
pairs of discs and builds its checker grid at that radius. On a variant's start (Plakoto, Long
Nardi: each side's fifteen in one pyramid) few checkers lie apart, and the texture's small
discs (a wood grain, the points' pale triangles, a score sheet's writing) outvote them: the grid
is built at a radius no checker has and leads the refinement to a quad well off the board (tuning
renders 700000-16, Plakoto's start at 960x540: 3 refused, 6 more 4-51 % of the diagonal off),
while the board's own quad scores clearly better on the point pattern (0.67-0.79 against
0.39-0.57 at the MID grid).

Calibration runs once per session and knows no better than the pattern score either, so when
the finder's quad scores under :data:`SURE` it looks wider: the checker grid at every other
disc radius the detector tried (the best candidates over all radii refined), and the long
edges' search, each refined as the finder refines (thorough); the best pattern score wins
(the finder's own quad included, so the wider look can only raise the score).
"""

from __future__ import annotations

import numpy as np

from .discs import Checkers, Discs, detect, touching_pairs
from .find import (
    COARSE,
    MID,
    MIN_SCORE,
    BoardNotFound,
    Found,
    Look,
    _refine,
    first_look,
    from_edges,
    pattern_score,
    upright,
)
from .grid import best_grid

SURE = 0.62  # a found quad scoring at least this (MID grid) is taken as it is
GAIN = 0.03  # a quad of the wider look must score this much more than the found one ...
SPREAD = 0.1  # ... and at most this much less than the wider look's best
KEEP = 3  # quads of the wider look given at most
OUTSIDE = 0.05  # a quad with a corner further off the frame (share of its size) is no board
DISTINCT = 0.005  # quads whose corners all lie within this share of the frame are one
RADII_TRIED = 3  # radii whose best grid candidates are refined (besides the finder's)
PER_RADIUS = 2  # grid candidates kept per radius before the best are picked
OTHER = 0.15  # a radius this far (log) from the finder's is another


def checkers_at(d: Discs, radius: float) -> Checkers | None:
    """The discs as :func:`calibration.discs.checkers` takes them, at a given ``radius`` (its
    touching pairs of about that size give the axis); None when fewer than three pairs have
    it."""
    pairs = touching_pairs(d)
    if len(pairs) < 3:
        return None
    P = np.asarray(pairs)
    pr = d.r[P].mean(1)
    sel = np.abs(np.log(pr / radius)) < 0.25
    if sel.sum() < 3:
        return None
    v = d.xy[P[sel, 1]] - d.xy[P[sel, 0]]
    th = np.arctan2(v[:, 1], v[:, 0])
    a = float(np.angle(np.exp(4j * th).sum())) / 4
    keep = np.abs(np.log(d.r / radius)) < 0.3
    return Checkers(d.take(keep), radius, a, int(sel.sum()))


def _grid_seeds(look: Look) -> list[tuple[float, float, np.ndarray]]:
    """The best checker-grid candidates (score, bar, working quad) over the radii the detector
    tried other than the finder's, :data:`RADII_TRIED` of them, best first."""
    from .discs import RADII

    d = detect(look.gray, None, grads=look.grads)
    r0 = look.ch.radius if look.ch is not None else None
    seeds: list[tuple[float, float, np.ndarray]] = []
    for r in RADII:
        if r0 is not None and abs(np.log(r / r0)) < OTHER:
            continue
        ch = checkers_at(d, r)
        if ch is not None:
            seeds += best_grid(look.lab, ch, PER_RADIUS)
    seeds.sort(key=lambda t: -t[0])
    return seeds[:RADII_TRIED]


def wider(frame: np.ndarray, found: Found | None) -> tuple[bool, list[Found]]:
    """Other quads for ``frame`` than ``found`` (the finder's answer, frame pixels; None when it
    found none), best first, and whether ``found`` is still worth checking: when ``found``
    scores under :data:`SURE`, the wider look's quads that score :data:`GAIN` more than it and
    at most :data:`SPREAD` under the best of them, at most :data:`KEEP` (all refined at the MID
    grid in the whole frame: the finder's quad may come from a crop, where its score is
    another); ``found`` is worth checking unless it scores more than SPREAD under their best.

    The pattern score does not rank quads a few per cent of the diagonal apart reliably (tuning
    700000's Plakoto start: 4.2 % off scored 0.725, 1.0 % off less), so the caller checks the
    quads within SPREAD; nor does the position check rank quads far apart at a variant's start
    (its 22 empty points learn their look from the frame and read back empty wherever the quad
    lies: tuning 700002, the finder's quad 51 % off passed it)."""
    if found is not None and pattern_score(frame, found.corners) >= SURE:
        return True, []
    try:
        look = first_look(frame)
    except BoardNotFound:
        return True, []
    s, lab = look.s, look.lab
    s0 = -1.0
    if found is not None:  # refined here as the others are (it may come from a crop)
        s0 = _refine(lab, found.corners * s, found.bar, (1.0, 0.5), MID, True)[2]
    quads: list[tuple[float, np.ndarray]] = []
    for _sc, bar, q in _grid_seeds(look):
        q, bar, _ = _refine(lab, q, bar, (4.0, 2.0, 1.0), COARSE, True)
        quads.append((bar, q))
    try:
        _sc, bar, q = from_edges(look.gray, lab, True)
        quads.append((bar, q))
    except BoardNotFound:
        pass
    discs = None if found is None else found.discs
    h, w = lab.shape[:2]
    lo, hi = -OUTSIDE * np.array([w, h]), (1 + OUTSIDE) * np.array([w, h])
    out: list[Found] = []
    for bar, q in quads:
        q, bar, sc = _refine(lab, q, bar, (0.5,), MID, True)
        # a quad off the frame is scored on the reflected border (tuning 700000's standard
        # start: two quads 175 % of the diagonal off scored 0.70, the board 0.58)
        if (q < lo).any() or (q > hi).any():
            continue
        if sc > max(s0 + GAIN, MIN_SCORE):
            out.append(Found(upright(q) / s, bar, sc, discs, None))
    out.sort(key=lambda f: -f.score)
    tol = DISTINCT * float(max(frame.shape[:2]))
    kept: list[Found] = []
    for f in out:
        if f.score >= out[0].score - SPREAD and all(
                np.abs(f.corners - k.corners).max() > tol for k in kept):
            kept.append(f)
    return (not out or s0 >= out[0].score - SPREAD), kept[:KEEP]
