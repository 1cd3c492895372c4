"""The light over the whole playing area as one smooth field, fitted to every free pixel of the
calibration frame's point strips at once.

A pixel of an empty point shows its paint times the light where it lies (the renderer's and a
camera's light is a product: a gradient, a vignette, glare, a shadow band). So, in log BGR,
``log x = paint(kind, strip pixel, channel) + light(board place)``, with one paint per point
kind (the same on every point of that kind) and the light a smooth function of the place on the
board: Gaussian bumps on a grid over the board plus a plane, fitted by ridge least squares,
alternating with the paints' means. Every point lends its evidence to its neighbours', both
kinds alike, so a light point whose paint clips in a bright spot, or one covered by checkers,
takes the light its surroundings show; a point-by-point reading (against its kind's mean,
smoothed along the row) missed bright spots by up to 20 % (tuning 700000: a green_oak board's
glare read 1.28 where it is 1.6, its white checkers missed on the cream points there).

What depends on the place along a strip alike on every point of a row (a gradient from the
edge to the bar) cannot be told from paint: the paints keep it, as before.
"""

from __future__ import annotations

import numpy as np

SATURATED = 250  # a channel this bright (or this dark, ``DARK``) says nothing of the light
DARK = 12
GRID_X = 7  # bumps across the board (its 12 columns and the bar) ...
GRID_Y = 5  # ... and from the top edge to the bottom edge
RIDGE = 1.0  # ridge weight per bump, in units of a strip row's pixel weight
ROUNDS = 6  # alternations of paints and light
TIE_ROWS = True  # a point colour's paint is the same in both rows of the board (kinds 0 and 2,
# 1 and 3, in strip coordinates), which tells the light from the top edge to the bottom one
MIN_ROW = 6  # free, unsaturated pixels a strip row needs to say something of the light


def board_places(cols: np.ndarray, top: np.ndarray, L: int) -> tuple[np.ndarray, np.ndarray]:
    """(24, L) board x (columns, the bar about a column wide) and y (0 at the top edge, 2 at
    the bottom edge) of every row of the point strips (a strip runs from its edge inward)."""
    x = np.asarray(cols, np.float64) + (np.asarray(cols) >= 6)
    r = (np.arange(L) + 0.5) / L
    y = np.where(np.asarray(top)[:, None], r[None, :], 2.0 - r[None, :])
    return np.broadcast_to(x[:, None], y.shape).copy(), y


def _basis(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(..., K) the field's basis at board places: a constant, a plane and Gaussian bumps."""
    cx = np.linspace(0.0, 12.0, GRID_X)
    cy = np.linspace(0.0, 2.0, GRID_Y)
    sx, sy = cx[1] - cx[0], cy[1] - cy[0]
    bx = np.exp(-0.5 * ((x[..., None] - cx) / sx) ** 2)  # (..., GX)
    by = np.exp(-0.5 * ((y[..., None] - cy) / sy) ** 2)  # (..., GY)
    bumps = (bx[..., :, None] * by[..., None, :]).reshape(x.shape + (-1,))
    return np.concatenate([np.ones(x.shape + (1,)), (x / 12.0)[..., None], (y / 2.0)[..., None],
                           bumps], -1)


def fit_light(bgr: np.ndarray, free: np.ndarray, kinds: np.ndarray, cols: np.ndarray,
              top: np.ndarray) -> np.ndarray:
    """(n, L) the light along each of the ``n`` point strips ``bgr`` (n, L, SW, 3; their free
    pixels ``free`` (n, L, SW); kinds, board columns, top row or not) as a factor of mean 1:
    the fitted field at each strip row."""
    n, L = bgr.shape[:2]
    x, y = board_places(cols, top, L)
    B = _basis(x, y)  # (n, L, K)
    v = bgr.astype(np.float64)
    ok = free[..., None] & (v < SATURATED) & (v > DARK)  # (n, L, SW, 3)
    lx = np.log(np.maximum(v, 1.0))
    light = np.zeros((n, L))
    beta = np.zeros(B.shape[-1])
    kinds = np.asarray(kinds) % 2 if TIE_ROWS else np.asarray(kinds)
    for _ in range(ROUNDS):
        resid = np.zeros((n, L))
        wt = np.zeros((n, L))
        for k in np.unique(kinds):
            ids = np.flatnonzero(kinds == k)
            d = lx[ids] - light[ids][:, :, None, None]
            cnt = ok[ids].sum(0)
            paint = np.where(ok[ids], d, 0.0).sum(0) / np.maximum(cnt, 1)  # (L, SW, 3)
            usable = ok[ids] & (cnt > 1)[None]  # a paint seen on one strip says nothing
            e = np.where(usable, lx[ids] - paint[None], 0.0)
            resid[ids] = e.sum((2, 3))
            wt[ids] = usable.sum((2, 3))
        w = np.where(wt >= MIN_ROW, wt, 0.0)
        mean = resid / np.maximum(wt, 1)
        A = B.reshape(-1, B.shape[-1])
        ww = w.ravel()
        lhs = A.T @ (A * ww[:, None]) + RIDGE * np.median(ww[ww > 0]) * np.eye(A.shape[1]) \
            if (ww > 0).any() else np.eye(A.shape[1])
        beta = np.linalg.solve(lhs, A.T @ (ww * mean.ravel()))
        light = (B @ beta)
        light -= light.mean()
    return np.exp(light).astype(np.float32)
