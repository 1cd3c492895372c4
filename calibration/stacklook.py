"""Checker tops learned from tall stacks.

The start of Plakoto or Long Nardi puts each side's fifteen checkers on one point: a pyramid of
five layers (5, 4, 3, 2, 1 with five to a row) and no checker alone in the first row, where the
disc model (``vision.discs.DiscModel.fit``) learns what a checker's top looks like. Every checker
of a pyramid still shows part of its top: the layers nearer the point's base show their base
side, those past the top their tip side, the top one all of it. So the tops are learned from the
parts each checker shows, each pixel put in the template cell it shows (relative to its own
checker's centre).

The layers stand a checker's thickness each above the board, and the camera sees them where its
ray meets the board's plane (``vision.pose``): a layer is drawn lifted by the pose and a little
larger, so its pixels go to the cells they show and its footprint is labelled where it is seen
(not where a flat drawing puts it, which would teach the empty look from a checker's lip).

Each side's stack stands in one board row (Plakoto and Long Nardi start them in different rows),
and a colour's tops in the other row are its stack's turned half round. Tops are kept as under
their row's mean light (each point's light is measured against the mean of its kind, a kind
being a triangle colour in one row), so the light of one row against the other is in the tops,
not in the points' gains: the standard start, whose checkers lie in both rows, learns tops up to
1.24 times brighter in one row than in the other (tuning 700003, green_oak: ivory 173 against
139, brown 64 against 54, BGR), and a lone white in the row without the white stack, lit as the
stack's row, read as an empty point. The rows' empty points show the same ratio (1.20 and 1.18
on 700003; on tuning 700000-11 the empty points' ratio is within 0.07 of the checkers'), so the
turned tops are put under their own row's light (``row_light``).
"""

from __future__ import annotations

import cv2
import numpy as np

from engine import Position
from engine.observation import expected_counts
from vision.discs import (
    CLIPPED,
    DISC,
    SHRINK,
    SIDE_SHRINK,
    SIGMA_FLOOR,
    TS,
    DiscModel,
    R,
    bgr_gains,
    lab_to_bgr,
    relight,
    unclipped,
)
from vision.geometry import Layout, stack_centres
from vision.pose import Pose
from vision.strips import SW, strip_length, strip_specs

THICK = 0.2  # a checker's thickness, in diameters (the scene boards' 8 mm of 40)
EDGE = 4  # strip pixels of a checker's visible part kept clear of the checkers on it (their
# sides; tuning seeds 700000-11, tall stacks: 1 px 1071, 2 px 1084, 4 px 1090 of 1152 right)
MIN_SAMPLES = 3  # first-row checkers of a colour below which its tops come from its stacks
ROW_LIGHT = True  # a row with no stack of a colour takes the other row's tops under its own
# light (``row_light``), not as they are
RADIAL = "unseen"  # rows whose tops are pooled by rings (``_rings``): "unseen" (a row without
# the colour's stack, whose tops are the turned ones), "all", or "" (none)
ROW_LIMIT = 1.6  # ... a factor kept within [1 / ROW_LIMIT, ROW_LIMIT]


def stack_maps(lay: Layout, pos: Position, pose: Pose | None, row_max: int | None = None,
               trays_right: bool = True) -> dict[int, tuple[int, np.ndarray, list[tuple]]]:
    """Per point strip holding one colour: (colour 1 white | 2 black, the (L, SW) map of which
    checker shows on top at every strip pixel (-1 none), and per checker its centre in strip
    pixels (row, column) and its scale (the lift makes a raised top look larger))."""
    rmax = row_max or lay.shape.row_max
    specs = strip_specs(lay, trays_right)
    L = strip_length(lay)
    k = SW / lay.pw  # strip pixels per canonical pixel
    rows = np.arange(L)[:, None] + 0.5
    cols = np.arange(SW)[None, :] + 0.5
    out: dict[int, tuple[int, np.ndarray, list[tuple]]] = {}
    for i, (w, b) in enumerate(expected_counts(pos)[:24]):
        n = w + b
        if not n or (w and b):
            continue
        s = specs[i]
        t = np.full((L, SW), -1, np.int16)
        centres = []
        for j, (dist, layer) in enumerate(stack_centres(n, rmax)):
            xy = np.array([s.x, s.y0 + s.direction * dist * lay.d])
            h = (layer + 1) * THICK * lay.d
            if pose is not None:
                seen = pose.lift(xy, h)
                scale = float(pose.height / max(pose.height - h, 1e-6))
            else:
                seen, scale = xy, 1.0
            cr = (seen[1] - s.y0) * s.direction * k
            cc = (seen[0] - s.x) * k + SW / 2
            r = lay.d / 2 * k * scale
            t[(rows - cr) ** 2 + (cols - cc) ** 2 <= (r * 0.97) ** 2] = j
            centres.append((cr, cc, scale))
        out[i] = (1 if w else 2, t, centres)
    return out


def label_stacks(labels: np.ndarray, maps: dict[int, tuple[int, np.ndarray, list[tuple]]]
                 ) -> np.ndarray:
    """The position's labels with each stack's footprint where the camera sees it added."""
    out = labels.copy()
    for i, (colour, t, _c) in maps.items():
        out[i][t >= 0] = colour
    return out


def stack_tops(model: DiscModel, lab: np.ndarray, kinds: np.ndarray, lay: Layout,
               maps: dict[int, tuple[int, np.ndarray, list[tuple]]], colours: set[int]) -> None:
    """Replace ``model``'s checker tops of ``colours`` (1 white, 2 black) by those the stacks'
    visible parts show (``lab``: the calibration strips, Lab (28, L, SW, 3)); in place."""
    gain = model.gain if model.gain is not None else np.ones(24, np.float32)
    L = lab.shape[1]
    rows = np.arange(L)[:, None] + 0.5
    cols = np.arange(SW)[None, :] + 0.5
    acc: dict[tuple[int, int, int], list[np.ndarray]] = {}
    side_cols: dict[tuple[int, int, int], list[int]] = {}
    for i, (colour, t, centres) in maps.items():
        if colour not in colours:
            continue
        unlit = relight(lab[i].astype(np.float32), 1.0 / gain[i])
        rowflag = int(kinds[i] >= 2)
        col = lay.point_place(i + 1)[0]
        side = int(col >= 6)
        for j, (cr, cc, scale) in enumerate(centres):
            seen_top = _top_cells(t, j, cr, cc, scale, rows, cols, lay)
            if seen_top is None:
                continue
            m, cell = seen_top
            acc.setdefault((colour - 1, rowflag, side), []).append(
                np.column_stack([cell, unlit[m]]))
            side_cols.setdefault((colour - 1, rowflag, side), []).append(col)
    for c in (0, 1):
        if c + 1 not in colours:
            continue
        parts = {key: np.concatenate(v) for key, v in acc.items() if key[0] == c}
        if not parts:
            continue
        everything = np.concatenate(list(parts.values()))
        gmean = everything[:, 1:].mean(0)
        gsig = np.maximum(everything[:, 1:].std(0), SIGMA_FLOOR)
        # a row with no stack of this colour takes the other row's tops turned half round:
        # its strips run the other way under the same light
        present = {rf for _, rf, _ in parts}
        pooled = {rowflag for rowflag in (0, 1)
                  if RADIAL == "all" or (RADIAL == "unseen" and rowflag not in present)}
        if len(present) == 1:
            (rf,) = present
            f = row_light(model, kinds) ** (1 if rf == 0 else -1) if ROW_LIGHT else 1.0
            for (_, _, side), p in list(parts.items()):
                parts[(c, 1 - rf, side)] = _turned(p)
                parts[(c, 1 - rf, side)][:, 1:] = relight(p[:, 1:], float(np.cbrt(f)))
                side_cols[(c, 1 - rf, side)] = side_cols[(c, rf, side)]
        sums = {}
        for rowflag in (0, 1):
            got = [p for (_, rf, _), p in parts.items() if rf == rowflag]
            sums[rowflag] = _cells(np.concatenate(got), rowflag in pooled)
        for rowflag in (0, 1):
            s1, s2, n = sums[rowflag]
            nn = n[:, None]
            m = np.where(nn > 0, s1 / np.maximum(nn, 1), gmean)
            var = np.where(nn > 1, s2 / np.maximum(nn, 1) - m * m, 0.0)
            var = (nn * np.maximum(var, 0) + SHRINK * gsig**2) / (nn + SHRINK)
            model.mean[c, rowflag] = m
            model.sigma[c, rowflag] = np.maximum(np.sqrt(var), SIGMA_FLOOR)
            if model.side_mean is None or model.side_cols is None:
                continue
            for side in (0, 1):
                p = parts.get((c, rowflag, side))
                if p is None:
                    model.side_mean[c, rowflag, side] = m
                    model.side_cols[c, rowflag, side] = 2.5 + 6 * side
                    continue
                t1, _t2, tn = _cells(p, rowflag in pooled)
                model.side_mean[c, rowflag, side] = (t1 + SIDE_SHRINK * m) / (
                    tn[:, None] + SIDE_SHRINK)
                model.side_cols[c, rowflag, side] = float(np.mean(side_cols[(c, rowflag, side)]))


def row_light(model: DiscModel, kinds: np.ndarray) -> float:
    """The light over the top row of points against the bottom row's (a BGR factor within
    ``ROW_LIMIT``): the empty looks' kind means (each triangle colour in each row, pixel by
    pixel from the board's edge) over the pixels unclipped in both rows, both colours summed;
    1.0 without empty looks. Lab colours scale by its cube root (``vision.discs.relight``)."""
    if model.bg_mean is None:
        return 1.0
    k24 = np.asarray(kinds[:24])
    refs = model.bg_mean[:24].astype(np.float32)
    top = bottom = 0.0
    for c in (0, 1):  # kinds c and 2 + c: one triangle colour, bottom row and top row
        if not ((k24 == c).any() and (k24 == 2 + c).any()):
            continue
        a = lab_to_bgr(refs[k24 == c].mean(0))
        b = lab_to_bgr(refs[k24 == 2 + c].mean(0))
        ok = ((a.max(-1) < CLIPPED) & (b.max(-1) < CLIPPED) & (a.min(-1) > 8)
              & (b.min(-1) > 8))
        top += float(b[ok].sum())
        bottom += float(a[ok].sum())
    if top <= 0 or bottom <= 0:
        return 1.0
    return float(np.clip(top / bottom, 1 / ROW_LIMIT, ROW_LIMIT))


_RING = np.rint(np.hypot(*(np.mgrid[0:TS, 0:TS] - R))).astype(np.int64).ravel()


def _rings(a: np.ndarray, high: bool = False) -> np.ndarray:
    """Per-cell sums ``a`` (TS*TS, k) pooled over the template's rings (cells at one whole
    distance from its centre): each cell gets its ring's sum (``high``: its ring's largest)."""
    out = np.empty_like(a)
    for r in np.unique(_RING):
        m = _RING == r
        out[m] = a[m].max(0) if high else a[m].sum(0)
    return out


def _turned(p: np.ndarray) -> np.ndarray:
    """Pixels ``p`` ((cell, L, a, b) rows) in the cells of a template turned half round."""
    out = p.copy()
    out[:, 0] = TS * TS - 1 - p[:, 0]
    return out


def _cells(p: np.ndarray, rings: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per template cell: the sum, the sum of squares and the count of the pixels ``p``
    ((cell, L, a, b) rows); ``rings``: those of the cell's ring (``_rings``)."""
    cell = p[:, 0].astype(np.int64)
    x = p[:, 1:].astype(np.float64)
    s1 = np.zeros((TS * TS, 3))
    s2 = np.zeros_like(s1)
    n = np.zeros(TS * TS)
    np.add.at(s1, cell, x)
    np.add.at(s2, cell, x * x)
    np.add.at(n, cell, 1)
    if rings:
        return _rings(s1), _rings(s2), _rings(n[:, None])[:, 0]
    return s1, s2, n


def stack_tops_bgr(model: DiscModel, bgr: np.ndarray, kinds: np.ndarray, lay: Layout,
                   maps: dict[int, tuple[int, np.ndarray, list[tuple]]]) -> None:
    """Give ``model`` BGR checker tops learned from the stacks' visible parts (``bgr``: the
    calibration strips, BGR (28, L, SW, 3)), as ``DiscModel.fit`` learns them from a first
    row: each pixel divided by its point's light along the strip, a clipped channel put back
    from the pixel's others and the colour's hue, a top seen only clipped as bright as that
    bound; with them the reader shows a colour's tops under each pixel's light clipped at
    white as the camera clips them (``DiscModel.tops_lit``) instead of relighting Lab means.
    White checkers are clipped: their Lab tops relit from a stack under a dim corner's light
    came out brighter than any lone white checker shows (tuning 700000, Plakoto: L 258 against
    243 from a standard start), and a lone white on a light point read as empty. For a start
    with every colour in stacks (Plakoto, Long Nardi); in place."""
    if model.bg_mean is None:
        return
    n24 = 24
    refs = model.bg_mean[:n24].astype(np.float32)
    k24 = np.asarray(kinds[:n24])
    kind_mean = {int(k): refs[k24 == k].mean(0) for k in np.unique(k24)}
    pcols = np.array([lay.point_place(i + 1)[0] for i in range(n24)])
    gain = bgr_gains(refs, kind_mean, k24, pcols)
    L = bgr.shape[1]
    rows = np.arange(L)[:, None] + 0.5
    cols = np.arange(SW)[None, :] + 0.5
    out = np.zeros((2, 2, 2, TS * TS, 3), np.float32)
    got: dict[int, list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]] = {0: [], 1: []}
    for i, (colour, t, centres) in maps.items():
        rowflag = int(kinds[i] >= 2)
        side = int(lay.point_place(i + 1)[0] >= 6)
        for j, (cr, cc, scale) in enumerate(centres):
            seen_top = _top_cells(t, j, cr, cc, scale, rows, cols, lay)
            if seen_top is None:
                continue
            m, cell = seen_top
            g = gain[i][np.nonzero(m)[0]][:, None]
            got[colour - 1].append((rowflag, side, cell, bgr[i][m].astype(np.float64), g))
    if not got[0] or not got[1]:
        return
    for c in (0, 1):
        px = np.concatenate([x for *_r, x, _g in got[c]])
        ok = px[(px.max(1) < CLIPPED) & (px.min(1) > 20)]
        hue = np.median(ok / ok.mean(1, keepdims=True), 0) if len(ok) > 20 else np.ones(3)

        def acc(sel: list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]], turn: bool,
                f: float, hue: np.ndarray = hue) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            s1 = np.zeros((TS * TS, 3))
            n = np.zeros((TS * TS, 1))
            lb = np.zeros((TS * TS, 3))
            for _rf, _side, cell, x, g in sel:
                cl = TS * TS - 1 - cell if turn else cell
                seen = (x < CLIPPED).any(1)
                np.add.at(s1, cl[seen], unclipped(x[seen], hue) / g[seen] * f)
                np.add.at(n, cl[seen], 1.0)
                np.maximum.at(lb, cl[~seen], CLIPPED / g[~seen] * hue / hue.min() * f)
            if RADIAL == "all" or (RADIAL == "unseen" and turn):
                s1, n, lb = _rings(s1), _rings(n), _rings(lb, True)
            return s1, n, lb

        present = {rf for rf, *_x in got[c]}
        for rowflag in (0, 1):
            # a row with no stack of this colour: the other row's tops turned half round
            turn = rowflag not in present
            sel = [x for x in got[c] if x[0] == (rowflag if not turn else 1 - rowflag)]
            # turned, under this row's light
            f = row_light(model, kinds) ** (1 if rowflag else -1) if turn and ROW_LIGHT else 1.0
            s1, n, lb = acc(sel, turn, f)
            m = np.where(n > 0, s1 / np.maximum(n, 1), lb)
            known = (n[:, 0] > 0) | (lb.max(1) > 0)
            m = np.where(known[:, None], np.maximum(m, lb),
                         m[known].mean(0) if known.any() else 128.0)
            for side in (0, 1):
                t1, tn, tlb = acc([x for x in sel if x[1] == side], turn, f)
                out[c, rowflag, side] = np.maximum((t1 + SIDE_SHRINK * m) / (tn + SIDE_SHRINK),
                                                   tlb)
    model.tops_bgr = out
    model.gain_bgr = gain


def _top_cells(t: np.ndarray, j: int, cr: float, cc: float, scale: float, rows: np.ndarray,
               cols: np.ndarray, lay: Layout) -> tuple[np.ndarray, np.ndarray] | None:
    """Where checker ``j`` of a stack's map ``t`` shows its top in the strip (the mask), away
    from the checkers lying on it (their sides, their shadows), and each such pixel's cell of
    the disc template; None when none shows."""
    vis = t == j
    if EDGE:
        above = cv2.dilate((t > j).astype(np.uint8), np.ones((3, 3), np.uint8),
                           iterations=int(EDGE)) > 0
        vis &= ~above
    dv = np.broadcast_to((rows - cr) / scale, vis.shape)
    du = np.broadcast_to((cols - cc) / scale, vis.shape)
    r = lay.d / 2 * DISC * SW / lay.pw
    m = vis & (dv * dv + du * du <= r * r)
    if not m.any():
        return None
    cell = ((np.clip(np.rint(dv[m]), -R, R) + R) * TS
            + np.clip(np.rint(du[m]), -R, R) + R).astype(np.int64)
    return m, cell
