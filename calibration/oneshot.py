"""One-shot reading of a single photo with no profile: find the board, take the empty board's
look from the points themselves (per pixel, the median over the six strips of each kind: most
points are empty at most places), split what differs from it into the two checker sets (the
lighter is white), and read with that provisional profile. The orientation is the one the board
was found in (long side horizontal); a reader that numbers points must try all four. A board
small in the frame is looked for again in a crop about it (:mod:`calibration.zoom`); a row whose
first checkers are too few to place its edge has its discs looked for again square-on
(:mod:`calibration.rectdiscs`). The empty look may lie under a dimmer light than its kind's
median (:mod:`calibration.shadowbg`: a hand's shadow), and the stacks are counted from the discs
with red checkers that show no grey edge found by their red one
(:func:`calibration.discount.with_chroma_discs`)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from engine.observation import Observation
from vision.appearance import _BIN_VOLUME, BINS, Background, ColourModel, bin_index, to_lab
from vision.cluster import two_clusters
from vision.cube import observe_cube
from vision.dice import read_dice_oneshot
from vision.geometry import BoardShape, Layout
from vision.profile import BoardProfile
from vision.read import read
from vision.strips import N_STRIPS, frame_maps, sample, strip_kinds, strip_specs

from .discount import Stack, count_stacks, with_chroma_discs, with_faint_discs
from .edgeline import EdgeImage
from .edges import MIN_COLS, first_columns, fit_long_edges, fit_row_ends
from .find import (
    Found,
    pattern_score,
    point_aside,
    work_lab,
)
from .learn import SIGMA_FLOOR
from .rectdiscs import rectified_discs
from .refine import refine_corners
from .relearn import adds_up, read_again
from .shadowbg import ShadowBackground
from .zoom import find_zoomed

DISC_INNER = 0.6  # share of a disc's radius whose pixels are its colour (rims and shadows left out)
SETS_APART = 25.0  # Lab distance between the two disc clusters' centres for two checker sets
DISC_P = 0.95  # probability given to a stack the discs show
DICE_READINGS = "oneshot_dice"  # the profile's cache key of every die read_oneshot read
ASIDE_GAIN = 1.2  # a board a point aside, refitted, must score this many times better
FOREGROUND = 22.0  # Lab distance from the empty-board template that counts as "something there"
CHROMA = True  # red checkers with no grey edge looked for by their red one, for counting
# (:func:`calibration.discount.with_chroma_discs`)
RELEARN = True  # see :mod:`calibration.relearn`
SHADOWS = True  # the empty look may lie under a dimmer light (:mod:`calibration.shadowbg`)


def disc_colours(frame: np.ndarray, corners: np.ndarray, discs: np.ndarray | None
                 ) -> tuple[ColourModel, ColourModel] | None:
    """The two checker sets' colour models from the checker discs inside the playing area:
    k-means (two) on the discs' inner colours, the lighter cluster white; None when the discs
    do not show two sets."""
    if discs is None or len(discs) < 4:
        return None
    quad = np.asarray(corners, np.float32).reshape(-1, 1, 2)
    inside = [cv2.pointPolygonTest(quad, (float(x), float(y)), False) > 0 for x, y, _ in discs]
    d = discs[np.asarray(inside, bool)]
    if len(d) < 4:
        return None
    pix, means = _inner_pixels(frame, d)
    lbl, centres = two_clusters(np.float32(means))
    if np.linalg.norm(centres[0] - centres[1]) < SETS_APART:
        return None
    light = int(np.argmax(centres[:, 0]))
    sets = [np.concatenate([p for p, k in zip(pix, lbl, strict=True) if (k == light) == want])
            for want in (True, False)]
    return colour_model(sets[0]), colour_model(sets[1])


def _inner_pixels(frame: np.ndarray, d: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Each disc's inner pixels (Lab, uint8; a disc DISC_INNER of its radius about its centre,
    clipped to the frame) and their per-channel medians (n, 3): every disc's pixels gathered
    and converted at once, the medians of discs of one size taken together (the same values
    as a disc at a time)."""
    h, w = frame.shape[:2]
    ks = np.maximum(1, (d[:, 2] * DISC_INNER).astype(int))
    offs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    ys, xs = [], []
    for (x, y, _r), k in zip(d, ks, strict=True):
        if k not in offs:
            yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
            keep = yy ** 2 + xx ** 2 <= k * k
            offs[k] = (yy[keep], xx[keep])
        oy, ox = offs[k]
        ys.append(np.clip(int(y) + oy, 0, h - 1))
        xs.append(np.clip(int(x) + ox, 0, w - 1))
    n = np.array([len(v) for v in ys])
    lab = to_lab(frame[np.concatenate(ys), np.concatenate(xs)][:, None]).reshape(-1, 3)
    ends = np.cumsum(n)
    pix = np.split(lab, ends[:-1])
    means = np.zeros((len(d), 3))
    for k in np.unique(ks):
        sel = np.nonzero(ks == k)[0]
        P = np.stack([pix[i] for i in sel])  # (discs, pixels, 3)
        m = len(pix[sel[0]])
        lo, hi = (m - 1) // 2, m // 2
        part = np.partition(P, [lo, hi], axis=1)
        means[sel] = (part[:, lo].astype(np.float64) + part[:, hi].astype(np.float64)) / 2.0
    return pix, means


def colour_model(lab_pixels: np.ndarray, smooth: float = 0.8, floor: float = 1e-4
                 ) -> ColourModel:
    """``ColourModel.fit`` (the same histogram, smoothing and floor) with the 3-D Gaussian
    smoothing done as three small matrix products instead of a convolution per histogram line
    (about 40 times faster)."""
    px = lab_pixels.reshape(-1, 3)
    hist = np.bincount(bin_index(px), minlength=BINS ** 3).astype(np.float32)
    hist = hist.reshape(BINS, BINS, BINS)
    if smooth > 0:
        k = cv2.getGaussianKernel(5, smooth).ravel().astype(np.float32)
        i = np.arange(BINS)
        off = i[None, :] - i[:, None] + 2  # np.convolve(v, k, "same"): out[i] = sum k[j-i+2] v[j]
        M = np.where((off >= 0) & (off < 5), k[np.clip(off, 0, 4)], 0).astype(np.float32)
        hist = np.einsum("ia,abc->ibc", M, hist)
        hist = np.einsum("jb,abc->ajc", M, hist)
        hist = np.einsum("kc,abc->abk", M, hist)
    hist = hist / max(hist.sum(), 1.0)
    hist = hist * (1 - floor) + floor / hist.size
    return ColourModel(np.log(hist.ravel() / _BIN_VOLUME).astype(np.float32))


def _nanmedian0(a: np.ndarray) -> np.ndarray:
    """``np.nanmedian(a, axis=0)`` for a short first axis, without the masked-array path: the
    rows put in order by an odd-even transposition network (NaNs as +inf, last as a sort puts
    them; whole rows at a time, where a sort along the first axis sorts each column alone)."""
    nan = np.isnan(a)
    rows = list(np.where(nan, np.inf, a))
    for p in range(len(rows)):
        for i in range(p % 2, len(rows) - 1, 2):
            rows[i], rows[i + 1] = np.minimum(rows[i], rows[i + 1]), np.maximum(rows[i],
                                                                                rows[i + 1])
    s = np.stack(rows)
    n = (~nan).sum(0)
    lo = np.take_along_axis(s, np.maximum((n - 1) // 2, 0)[None], 0)[0]
    hi = np.take_along_axis(s, np.maximum(n // 2, 0)[None], 0)[0]
    return np.where(n > 0, 0.5 * (lo + hi), np.nan)


def _median_columns(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=0)`` of a tall (pixels, channels) array, each channel's median
    taken along a contiguous row (the same values)."""
    return np.median(np.ascontiguousarray(a.T), axis=1)


def provisional_profile(frame: np.ndarray, corners: np.ndarray,
                        shape: BoardShape | None = None,
                        discs: np.ndarray | None = None) -> BoardProfile:
    shape = shape or BoardShape()
    lay = Layout(shape)
    specs = strip_specs(lay)
    Hm = cv2.getPerspectiveTransform(lay.corners().astype(np.float32),
                                     np.asarray(corners, np.float32))
    maps = frame_maps(lay, specs, Hm)
    strips = sample(frame, maps, N_STRIPS)
    lab = to_lab(strips.reshape(-1, strips.shape[2], 3)).reshape(strips.shape).astype(np.float32)
    kinds = strip_kinds(lay)
    # the empty look: per pixel, the median over the strips of a kind where no disc was found
    labn = lab.copy()
    if discs is not None and len(discs):
        mask = np.zeros(frame.shape[:2], np.uint8)
        for x, y, r in discs:
            cv2.circle(mask, (int(round(x)), int(round(y))), int(round(r * 1.1)), 255, -1)
        covered = cv2.remap(mask, maps[0], maps[1], cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).reshape(strips.shape[:3]) > 127
        labn[covered] = np.nan
    means = np.zeros((8,) + lab.shape[1:], np.float32)
    for k in range(8):
        idx = np.nonzero(kinds == k)[0]
        m = _nanmedian0(labn[idx])
        gap = np.isnan(m)
        if gap.any():  # pixels every strip of the kind had a disc over: the plain median
            m[gap] = np.median(lab[idx][:, gap], axis=0)
        means[k] = m
    resid = lab[:24] - means[kinds[:24]]
    dist = np.linalg.norm(resid, axis=-1)
    fg = dist > FOREGROUND
    sets = disc_colours(frame, corners, discs)
    if sets is not None:
        white, black = sets
    else:  # two checker sets: k-means on what differs from the empty look, the lighter white
        px = lab[:24][fg]
        if len(px) < 50:
            px = lab[:24].reshape(-1, 3)
        lbl, centres = two_clusters(px)
        light = int(np.argmax(centres[:, 0]))
        white = colour_model(px[lbl == light].astype(np.uint8))
        black = colour_model(px[lbl != light].astype(np.uint8))
    bgpx = resid[~fg]
    sigma = 1.4826 * _median_columns(np.abs(bgpx - _median_columns(bgpx))) * 1.5
    bg = (ShadowBackground if SHADOWS else Background)(
        means, np.maximum(sigma.astype(np.float32), SIGMA_FLOOR))
    h, w = frame.shape[:2]
    return BoardProfile(image_size=(w, h), corners=np.asarray(corners, np.float64),
                        shape=shape, white=white, black=black, background=bg,
                        meta={"method": "one-shot"})


def shape_of(found: Found) -> BoardShape:
    """The board's proportions as found: the bar's width and the playing area's aspect (from the
    quad's sides; exact for a camera straight above)."""
    q = found.corners
    across = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])
    down = np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])
    return BoardShape(aspect=float(down / across), bar=float(found.bar))


def read_oneshot(frame: np.ndarray, corners: np.ndarray | None = None
                 ) -> tuple[Observation, BoardProfile]:
    """Read a photo with no profile (``corners``, when given, skip the finder). Raises
    BoardNotFound."""
    discs = None
    if corners is None:
        found = find_zoomed(frame)
        q, shape = refine_corners(frame, found.corners), shape_of(found)
        if found.discs is not None:
            discs = with_faint_discs(frame, found.discs, seen=found.work)
            edges = EdgeImage(frame)
            q = fit_long_edges(q, found.bar, discs, edges)
            if min(first_columns(q, found.bar, discs)) < MIN_COLS:
                # a row's edge the first checkers do not place: look again square-on
                discs = rectified_discs(frame, q, found.bar, discs)
                q = fit_long_edges(q, found.bar, discs, edges)
            q = fit_long_edges(fit_row_ends(q, found.bar, discs), found.bar, discs, edges)
            q = _point_aside(frame, q, found.bar, discs)
    else:
        q, shape = refine_corners(frame, corners), None
    prof = provisional_profile(frame, q, shape, None if corners is not None else found.discs)
    # the points first (a moving frame's read skips the dice and the cube), then the dice with
    # the points as the discs count them (where checkers lie), once
    obs = read(frame, prof, settled=False)
    for_dice = obs
    stacks = None
    if corners is None:
        prof.meta["pattern"] = round(found.score, 3)
        if discs is not None:
            read_obs = obs
            stacks = count_stacks(frame, q, found.bar, discs)
            obs = for_dice = with_disc_counts(read_obs, stacks)
            if CHROMA:
                more = with_chroma_discs(frame, q, discs)
                if len(more) > len(discs):
                    stacks = count_stacks(frame, q, found.bar, more)
                    obs = with_disc_counts(read_obs, stacks)
    if RELEARN and not adds_up(obs):
        # a read whose checkers do not add up is wrong somewhere: the board's look learned
        # from its sure regions, and read again (:mod:`calibration.relearn`)
        again = read_again(frame, prof, obs)
        obs = again if stacks is None else with_disc_counts(again, stacks)
    # the dice reader is given the points as the grey-edged discs count them: a red stack the
    # red-edge discs count (dices6's top 7) leaves a cocked phantom at its second checker's
    # edge in the dice reader's stack mask (refused, never wrong)
    dice, prof._cache[DICE_READINGS] = read_dice_oneshot(frame, prof, list(for_dice.regions))
    return replace(obs, dice=dice, cube=observe_cube(frame, prof), settled=True), prof


def _point_aside(frame: np.ndarray, q: np.ndarray, bar: float, discs: np.ndarray
                 ) -> np.ndarray:
    """``q``, or the quad a whole point aside (:func:`calibration.find.point_aside`) with its
    edges fitted to the checkers again, when the pattern model then scores it ASIDE_GAIN times
    better (a real photo's board a point aside, refitted, scored 1.14 times its right place;
    tuning renders' boards found a point off 1.09, 1.29 and 1.53 times theirs)."""
    lab = work_lab(frame)
    aside = point_aside(frame, q, bar, lab)
    if aside is q:
        return q
    moved = fit_long_edges(fit_row_ends(aside, bar, discs), bar, discs)
    a, b = pattern_score(frame, q, lab), pattern_score(frame, moved, lab)
    return moved if b > ASIDE_GAIN * a else q


def with_disc_counts(obs: Observation, stacks: dict[tuple[bool, int], Stack]) -> Observation:
    """``obs`` with the points the discs show a stack on read from the discs (their count; their
    colour, or the reader's where the discs do not tell the sets apart)."""
    regions = list(obs.regions)
    best = obs.best_counts()
    for (top, col), st in stacks.items():
        i = 12 + col if top else 11 - col
        white = st.white
        if white is None:
            b = best[i]
            if b is None or b == (0, 0):
                continue
            white = b[0] >= b[1]
        counts = (st.count, 0) if white else (0, st.count)
        regions[i] = {counts: DISC_P}
    return replace(obs, regions=regions)
