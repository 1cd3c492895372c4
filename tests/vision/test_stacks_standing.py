"""Borne-off checkers standing on edge in a tray (vision/stacks.py ``_standing_tops``): the top
maps, built for every checker at once, are exactly those of the checkers drawn one at a time
(a one-shot photo builds them for each photo; the pure speed-up must not change a read)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.geometry import BoardShape, Layout
from vision.pose import Pose
from vision.stacks import MAX_STACK, TRAY_HALF, TRAY_START, TRAY_STEP, _standing_tops
from vision.strips import SW, TRAY_BOTTOM, TRAY_TOP, strip_length, strip_specs


def _one_at_a_time(lay, nmax, spec, pose, step, start, half):
    """The top maps drawn checker by checker (the first checker over a pixel keeps it)."""
    L = strip_length(lay)
    r = lay.d / 2
    u = np.linspace(-half, half, 2 * SW + 1)
    dv = np.linspace(-0.5, 0.5, 5) * step
    hs = np.linspace(0.0, 1.0, int(lay.d) + 1)
    top = r + np.sqrt(np.maximum(r * r - u * u, 0.0))
    H = top[None, :] * hs[:, None]
    t = np.full((L, SW), -1, np.int16)
    tops = [t.copy()]
    for k in range(nmax):
        v = start + (k + 0.5) * step + dv
        x = np.broadcast_to(spec.x + u[None, None, :], (len(v), len(hs), len(u)))
        y = np.broadcast_to(spec.y0 + spec.direction * v[:, None, None], x.shape)
        g = pose.lift(np.stack([x, y], -1), np.broadcast_to(H[None], x.shape))
        col = np.floor((g[..., 0] - spec.x) / spec.width * SW + SW / 2).astype(np.int64)
        row = np.floor((g[..., 1] - spec.y0) * spec.direction / (lay.H / 2) * L).astype(np.int64)
        ok = (col >= 0) & (col < SW) & (row >= 0) & (row < L)
        m = np.zeros((L, SW), bool)
        m[row[ok], col[ok]] = True
        t[m & (t < 0)] = k
        tops.append(t.copy())
    return tops


@pytest.mark.parametrize("shape", [BoardShape(), BoardShape(aspect=0.8, bar=0.1)])
@pytest.mark.parametrize("where", [(0.5, 0.5, 3.0), (0.1, 1.4, 1.6), (0.9, -0.3, 1.2)])
def test_standing_tops_are_the_checkers_drawn_one_at_a_time(shape, where):
    lay = Layout(shape)
    fx, fy, fh = where  # the camera over the board (fractions of its width / height)
    pose = Pose((fx * lay.W, fy * lay.H), fh * lay.W)
    step, start, half = lay.d * TRAY_STEP, lay.d * TRAY_START, lay.d * TRAY_HALF
    specs = strip_specs(lay)
    hit = 0
    for tray in (TRAY_TOP, TRAY_BOTTOM):
        for nmax in (0, 1, 4, MAX_STACK):
            got = _standing_tops(lay, nmax, specs[tray], pose, step, start, half)
            want = _one_at_a_time(lay, nmax, specs[tray], pose, step, start, half)
            assert len(got) == len(want) == nmax + 1
            for g, w in zip(got, want, strict=True):
                assert g.dtype == w.dtype and g.shape == w.shape
                assert np.array_equal(g, w)
            hit += int((got[-1] >= 0).sum())
    assert hit > 0  # the checkers cover strip pixels: the maps compared are not all empty
