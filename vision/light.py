"""The light over the points: a board is not evenly lit (a gradient, a vignette, a shadow band,
a glare spot), so a point strip that was covered at calibration must not borrow its kind's
empty look as the mean light shows it, but as the light over that strip shows it.

The light is read off the empty points around it: each free strip's pixels against the mean of
its kind's free pixels at the same strip pixels (the paint is the same on every point of a
kind, so what differs is light), per band of rows along the strip, as log gains per BGR
channel. A covered strip's gain at a band is the weighted mean of the gains its nearest free
strips (either kind, its own row of the board) show at that band; its borrowed look is its
kind's mean under that gain. A strip its calibration checkers covered only near its edge shows
its own light past them: where that is clearly brighter than its neighbours say (a glare spot
on it alone), its covered bands take that level (``OWN_ANCHOR``).
"""

from __future__ import annotations

import numpy as np

from .lightfield import fit_light

BAND = 4  # strip rows per band
SATURATED = 250  # a channel this bright says nothing about the light
MIN_PIXELS = 12  # free, unsaturated pixels a band of a strip needs to give its gain
NEAR_COLS = 1.0  # columns: the spread of the weights of the neighbours' gains
MIN_WEIGHT = 0.3  # total weight of neighbours' gains needed at a band
MAX_LOG = 0.7  # gains kept within exp(+-0.7)
OWN_ANCHOR = True  # a partly covered strip's covered bands take its own free bands' light
# level where it is brighter than the neighbours' (held-out footage g900011 dance, navy pearl:
# point 24's two calibration checkers lay in a glare spot its clipped cream neighbour could not
# show; its borrowed look said L 167 where the empty point shows L 242, so every settled frame
# from 321 on read a hand and a lone black there read white: 15/22 -> 22/22 turns exact, fresh
# reads). Only brighter: a stack's own shadow darkens the bands past it (raising and lowering:
# held-out 32 x 5 slots 99.10 -> 99.01 %, green_oak's whites missed)
ANCHOR_BANDS = 2  # its nearest free bands that give that level
ANCHOR_SHARE = 0.4  # ... when its checkers covered at most this share of its bands (a tall
# stack's tip says little of its base: tuning 700012 navy pearl, phantom blacks)
ANCHOR_MIN = 0.2  # ... and that level is this much brighter (log, mean of BGR) than the
# neighbours say (0.15: tuning 700006's +0.16 turned a white on the bar black; the footage's
# glare spot is +0.23 to +0.33)
FIELD = False  # the light from one smooth field over the board (``vision.lightfield``); off:
# with the field's tops (discs.LIGHT_FIELD), tuning 700000+ 40 x 5 slots 98.85 -> 99.00 %,
# perfect 79.0 -> 79.5 %, 1000+ 64 x 5 99.46 -> 99.39 %, 84.4 -> 85.9 % (green_oak's covered
# cream points borrow a look too dark: phantom whites)


def lit_looks(bgr: np.ndarray, free: np.ndarray, kinds: np.ndarray, cols: np.ndarray,
              top: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For the point strips (the first ``len(cols)`` of ``bgr`` (N, L, SW, 3) with their free
    pixels ``free`` (N, L, SW), kinds, columns and rows): each strip's kind mean under the light
    its neighbours show (BGR, float, (n, L, SW, 3)) and where that light was known ((n, L))."""
    lit, known, _ = glare_looks(bgr, free, kinds, cols, top)
    return lit, known


def glare_looks(bgr: np.ndarray, free: np.ndarray, kinds: np.ndarray, cols: np.ndarray,
                top: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``lit_looks`` and the strips whose covered bands took their own free bands' brighter
    light (n,) (a glare spot on that point alone, ``OWN_ANCHOR``): there both checker colours'
    tops clip, which ``vision.discs.CENSORED`` reads apart."""
    n = len(cols)
    L, sw = bgr.shape[1:3]
    if FIELD:
        return (*_field_looks(bgr, free, kinds, cols, top), np.zeros(n, bool))
    x = np.log(bgr[:n].astype(np.float32) + 1.0)
    ok = free[:n] & (bgr[:n].max(-1) < SATURATED)
    okf = ok[..., None].astype(np.float32)
    nb = (L + BAND - 1) // BAND
    gain = np.zeros((n, nb, 3), np.float32)
    have = np.zeros((n, nb), bool)
    km_lin = np.zeros((n, L, sw, 3), np.float32)
    for k in np.unique(kinds[:n]):
        ids = np.nonzero(kinds[:n] == k)[0]
        f = okf[ids]
        tot = f.sum(0)
        km = (x[ids] * f).sum(0) / np.maximum(tot, 1)  # (L, SW, 3) log mean
        fa = free[ids][..., None].astype(np.float32)
        lin = (bgr[ids].astype(np.float32) * fa).sum(0) / np.maximum(fa.sum(0), 1)
        km_lin[ids] = lin
        for i in ids:
            m = ok[i] & (tot[..., 0] > 1)
            d = (x[i] - km) * m[..., None]
            for b in range(nb):
                sl = slice(b * BAND, min(L, (b + 1) * BAND))
                cnt = m[sl].sum()
                if cnt >= MIN_PIXELS:
                    gain[i, b] = d[sl].sum((0, 1)) / cnt
                    have[i, b] = True
    lit = np.zeros((n, L, sw, 3), np.float32)
    known = np.zeros((n, L), bool)
    glare = np.zeros(n, bool)
    for i in range(n):
        same = np.nonzero((top[:n] == top[i]) & (np.arange(n) != i))[0]
        w = np.exp(-0.5 * ((cols[same] - cols[i]) / NEAR_COLS) ** 2)[:, None] * have[same]
        tw = w.sum(0)  # (nb,)
        g = (gain[same] * w[..., None]).sum(0) / np.maximum(tw, 1e-6)[:, None]
        near = tw >= MIN_WEIGHT
        bands = np.add.reduceat(free[i].sum(1), np.arange(0, L, BAND))
        covered = bands < MIN_PIXELS  # the bands its calibration checkers covered
        if (OWN_ANCHOR and have[i].any() and covered.any()
                and covered.sum() <= ANCHOR_SHARE * nb):
            g, glare[i] = _anchored(g, gain[i], have[i], covered, near)
            near = near | covered  # (where not raised and no neighbour shows it: the kind's)
        g = np.clip(g, -MAX_LOG, MAX_LOG)
        rows = np.minimum(np.arange(L) // BAND, nb - 1)
        lit[i] = km_lin[i] * np.exp(g[rows])[:, None, :]
        known[i] = near[rows]
    return np.clip(lit, 0, 255), known, glare


def _anchored(g: np.ndarray, own: np.ndarray, have: np.ndarray, covered: np.ndarray,
              near: np.ndarray) -> tuple[np.ndarray, bool]:
    """(nb, 3) the neighbours' log gains ``g`` along a partly covered strip (known at bands
    ``near``, else 0), raised at its ``covered`` bands to the level its own nearest free bands
    show (``own``, where ``have``) when that is brighter: the neighbours give the light's shape
    along the strip, the strip itself a floor to its level; and whether any band was raised."""
    base = np.where(near[:, None], g, 0.0)
    out = g.copy()
    idx = np.flatnonzero(have)
    raised = False
    for b in np.flatnonzero(covered):
        d = np.abs(idx - b)
        ref = idx[d <= d.min() + ANCHOR_BANDS - 1]
        off = (own[ref] - base[ref]).mean(0)
        up = off.mean() >= ANCHOR_MIN
        out[b] = base[b] + (off if up else 0.0)
        raised |= bool(up)
    return out, raised


def _field_looks(bgr: np.ndarray, free: np.ndarray, kinds: np.ndarray, cols: np.ndarray,
                 top: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``lit_looks`` from the fitted light field: each strip's kind mean (over the kind's free
    pixels) times the strip's light against the mean light of the strips that mean was taken
    from, at each strip row; known where free points of its row lie near."""
    n = len(cols)
    L, sw = bgr.shape[1:3]
    light = fit_light(bgr[:n], free[:n], kinds[:n], cols, top).astype(np.float32)  # (n, L)
    lit = np.zeros((n, L, sw, 3), np.float32)
    for k in np.unique(kinds[:n]):
        ids = np.nonzero(kinds[:n] == k)[0]
        x = bgr[ids].astype(np.float32)
        g = light[ids][:, :, None, None]
        fa = free[ids][..., None].astype(np.float32)  # (m, L, SW, 1)
        cnt = np.maximum(fa.sum(0), 1)
        lin = (x * fa).sum(0) / cnt
        under = (g * fa).sum(0) / cnt  # the light lin was seen in
        under = np.where(fa.sum(0) > 0, under, 1.0)
        lit[ids] = lin[None] / under[None] * g
    # known where free points of its row lie near (as the banded reading): the field is
    # extrapolated elsewhere (a corner whose points all held checkers)
    have = (free[:n] & (bgr[:n].max(-1) < SATURATED)).sum(2) >= MIN_PIXELS / BAND  # (n, L)
    known = np.zeros((n, L), bool)
    for i in range(n):
        same = np.nonzero((top[:n] == top[i]) & (np.arange(n) != i))[0]
        w = np.exp(-0.5 * ((cols[same] - cols[i]) / NEAR_COLS) ** 2)[:, None] * have[same]
        known[i] = w.sum(0) >= MIN_WEIGHT
    return np.clip(lit, 0, 255), known
