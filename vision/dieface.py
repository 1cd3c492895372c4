"""A small learned die-face classifier, for the faces the pip reader (:mod:`vision.pips`) refuses.

The pip reader's fitted face square (centre, turn, side in the board-plane read window) is cut
out at :data:`CROP` of its side (inside the face: the pips reach 0.36 of the side from the
centre), resampled to :data:`GRID` x :data:`GRID` lightness, and normalised: the face level
(median) subtracted, divided by the spread, and turned so that the pips are the lighter side
(pips are the face's minority: the mean lies on their side of the median). A linear
discriminant (shared covariance, class means; trained by :func:`fit` on rendered dice of the
tuning seeds, every crop in its eight turns and mirrors and small shifts) scores the six values;
a value is taken only when it is the pip reader's best layout too (its ``guess``) and the best
score leads the second by the model's margin or more (set by the training so that no tuning
die, nor a face where there is no die, is read wrong when its setup is left out of the fit).

The model is a few KB of numbers in ``dieface.npz`` next to this module, made by
``python -m bench.bench_dice --base 700000 --more-bases 1000 --setups 80 --frames 5 --cache DIR
--train vision/dieface.npz`` (the frames come from the scene renderer; see :func:`fit`) with the
pip reader of commit 1de1ee3 (the faces it fits are the crops). A refit with the pip reader of
2b76b8f (blurred templates) read a held-out 5 as 4 at a lead of 4.15, just over the floor
:data:`MARGIN`: refit only with a higher floor, and check the held-out frames of ``bench_vision``
as well as ``bench_dice``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

GRID = 12  # crop side in samples
CROP = 0.9  # crop side / face side
MARGIN = 4.0  # least lead of the best discriminant score over the second, whatever the model says
MODEL = Path(__file__).with_name("dieface.npz")


def face_crop(L: np.ndarray, cx: float, cy: float, angle: float, side: float,
              shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray | None:
    """The normalised :data:`GRID` x :data:`GRID` crop (flattened, float32) of the face square
    at (``cx``, ``cy``), turned ``angle`` radians, ``side`` pixels of ``L``; None when flat.
    ``shift``: the crop's offset in face sides (augmentation)."""
    s = CROP * side / GRID  # L pixels per sample
    c, n = np.cos(angle), np.sin(angle)
    h = (GRID - 1) / 2.0
    # sample (u, v) -> L (x, y): centre + R @ ((u - h) * s, (v - h) * s) + shift
    ox = cx + shift[0] * side
    oy = cy + shift[1] * side
    A = np.array([[c * s, -n * s, ox - (c * h - n * h) * s],
                  [n * s, c * s, oy - (n * h + c * h) * s]], np.float32)
    crop = cv2.warpAffine(L.astype(np.float32), A, (GRID, GRID),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    return normalise(crop)


def normalise(crop: np.ndarray) -> np.ndarray | None:
    """Face level 0, spread 1, pips positive; None when the crop is flat."""
    med = float(np.median(crop))
    f = crop.astype(np.float32).ravel() - med
    sd = float(f.std())
    if sd < 1.0:
        return None
    if float(f.mean()) < 0:
        f = -f
    return f / sd


def variants(crop: np.ndarray) -> list[np.ndarray]:
    """The crop (flattened) in its four turns and their mirrors."""
    g = crop.reshape(GRID, GRID)
    out = []
    for k in range(4):
        r = np.rot90(g, k)
        out += [r.ravel(), r[:, ::-1].ravel()]
    return out


@lru_cache(maxsize=1)
def _model() -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    if not MODEL.exists():
        return None
    with np.load(MODEL) as z:
        return (z["W"].astype(np.float32), z["b"].astype(np.float32),
                np.maximum(z["margin"].astype(np.float32), MARGIN))


def scores(feat: np.ndarray) -> np.ndarray | None:
    """The six values' discriminant scores of one normalised crop (None: no model)."""
    m = _model()
    if m is None:
        return None
    return m[0] @ feat + m[1]


def classify(feat: np.ndarray | None, guess: int | None, margin: float | None = None
             ) -> tuple[int | None, float]:
    """(value or None, lead of the best score over the second) of one normalised crop; a value
    only when it is ``guess`` too (the pip reader's best layout) and leads by ``margin`` (None:
    the model's own for that value, at least :data:`MARGIN`)."""
    m = _model()
    if feat is None or m is None:
        return None, 0.0
    s = m[0] @ feat + m[1]
    o = np.argsort(s, kind="stable")
    lead = float(s[o[-1]] - s[o[-2]])
    v = int(o[-1]) + 1
    if margin is None:
        margin = float(m[2][v - 1])
    return (v if lead >= margin and v == guess else None), lead


def fit(feats: np.ndarray, labels: np.ndarray, shrink: float = 0.1) -> tuple[np.ndarray,
                                                                           np.ndarray]:
    """Linear discriminant (W: 6 x features, b: 6) of normalised crops ``feats`` (rows) with
    values ``labels`` (1..6): class means, the pooled covariance shrunk ``shrink`` toward its
    mean variance, equal priors."""
    d = feats.shape[1]
    mus = np.stack([feats[labels == v].mean(0) for v in range(1, 7)])
    resid = feats - mus[labels - 1]
    S = resid.T @ resid / max(len(feats) - 6, 1)
    S = (1 - shrink) * S + shrink * float(np.trace(S)) / d * np.eye(d)
    Si = np.linalg.inv(S)
    W = mus @ Si
    b = -0.5 * np.einsum("kd,kd->k", W, mus)
    return W.astype(np.float32), b.astype(np.float32)


def train(records: list[tuple[np.ndarray, int, int, int | None]], folds: int = 5,
          slack: float = 0.5, shrink: float = 0.1
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """(W, b, margins, counts) from ``records`` = (normalised crop, value 1..6 or 0: no flat
    die there, group: the setup it came from, the pip reader's best layout or None). The fit
    uses the dice in all their turns and mirrors. A value is taken only when it is the pip
    reader's best layout too (:func:`classify`); each value's margin is the largest lead of a
    wrong read as that value (of another value, or where there is no die) when each group's
    fold is left out of the fit, plus ``slack``, and at least :data:`MARGIN`."""
    feats = np.stack([r[0] for r in records]).astype(np.float32)
    labels = np.array([r[1] for r in records])
    groups = np.array([r[2] for r in records]) % folds
    guesses = np.array([-1 if r[3] is None else r[3] for r in records])

    def fit_on(idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keep = idx[labels[idx] > 0]
        X = np.stack([v for i in keep for v in variants(feats[i])])
        y = np.repeat(labels[keep], 8)
        return fit(X, y, shrink)

    worst = np.zeros(6)
    right: list[tuple[int, float]] = []
    for k in range(folds):
        W, b = fit_on(np.nonzero(groups != k)[0])
        for i in np.nonzero(groups == k)[0]:
            s = W @ feats[i] + b
            o = np.argsort(s, kind="stable")
            v = int(o[-1]) + 1
            if v != guesses[i]:
                continue
            lead = float(s[o[-1]] - s[o[-2]])
            if v != labels[i]:
                worst[v - 1] = max(worst[v - 1], lead)
            else:
                right.append((v, lead))
    margins = np.maximum(worst + slack, MARGIN).astype(np.float32)
    W, b = fit_on(np.arange(len(records)))
    counts = {"dice": int((labels > 0).sum()), "no_die": int((labels == 0).sum()),
              "right_taken_cv": sum(ld >= margins[v - 1] for v, ld in right)}
    return W, b, margins, counts
