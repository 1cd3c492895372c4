"""One-shot reading of a single photo with no profile: find the board, take the empty board's
look from the points themselves (per pixel, the median over the six strips of each kind: most
points are empty at most places), split what differs from it into the two checker sets (the
lighter is white), and read with that provisional profile. The orientation is the one the board
was found in (long side horizontal); a reader that numbers points must try all four."""

from __future__ import annotations

import warnings
from dataclasses import replace

import cv2
import numpy as np

from engine.observation import Observation
from vision.appearance import Background, ColourModel, to_lab
from vision.cluster import two_clusters
from vision.geometry import BoardShape, Layout
from vision.profile import BoardProfile
from vision.read import read
from vision.strips import N_STRIPS, frame_maps, sample, strip_kinds, strip_specs

from .discount import Stack, count_stacks, with_faint_discs
from .edges import fit_long_edges, fit_row_ends
from .find import Found, find_playing_area
from .learn import SIGMA_FLOOR
from .refine import refine_corners

DISC_INNER = 0.6  # share of a disc's radius whose pixels are its colour (rims and shadows left out)
SETS_APART = 25.0  # Lab distance between the two disc clusters' centres for two checker sets
DISC_P = 0.95  # probability given to a stack the discs show
FOREGROUND = 22.0  # Lab distance from the empty-board template that counts as "something there"


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
    lab = to_lab(frame)
    h, w = lab.shape[:2]
    pix, means = [], []
    for x, y, r in d:
        k = max(1, int(r * DISC_INNER))
        yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
        keep = yy ** 2 + xx ** 2 <= k * k
        ys, xs = np.clip(int(y) + yy[keep], 0, h - 1), np.clip(int(x) + xx[keep], 0, w - 1)
        p = lab[ys, xs]
        pix.append(p)
        means.append(np.median(p, 0))
    lbl, centres = two_clusters(np.float32(means))
    if np.linalg.norm(centres[0] - centres[1]) < SETS_APART:
        return None
    light = int(np.argmax(centres[:, 0]))
    sets = [np.concatenate([p for p, k in zip(pix, lbl, strict=True) if (k == light) == want])
            for want in (True, False)]
    return ColourModel.fit(sets[0]), ColourModel.fit(sets[1])


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
        mask = np.zeros((*frame.shape[:2], 3), np.uint8)
        for x, y, r in discs:
            cv2.circle(mask, (int(round(x)), int(round(y))), int(round(r * 1.1)), (255, 255, 255),
                       -1)
        covered = sample(mask, maps, N_STRIPS)[..., 0] > 127
        labn[covered] = np.nan
    means = np.zeros((8,) + lab.shape[1:], np.float32)
    for k in range(8):
        idx = np.nonzero(kinds == k)[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-covered pixels: plain median
            m = np.nanmedian(labn[idx], axis=0)
        means[k] = np.where(np.isnan(m), np.median(lab[idx], axis=0), m)
    resid = lab[:24] - means[kinds[:24]]
    dist = np.linalg.norm(resid, axis=-1)
    fg = dist > FOREGROUND
    px = lab[:24][fg]
    if len(px) < 50:
        px = lab[:24].reshape(-1, 3)
    # two checker sets: k-means on Lab, the lighter cluster is white
    lbl, centres = two_clusters(px)
    light = int(np.argmax(centres[:, 0]))
    white = ColourModel.fit(px[lbl == light].astype(np.uint8))
    black = ColourModel.fit(px[lbl != light].astype(np.uint8))
    sets = disc_colours(frame, corners, discs)
    if sets is not None:
        white, black = sets
    bgpx = resid[~fg]
    sigma = 1.4826 * np.median(np.abs(bgpx - np.median(bgpx, 0)), 0) * 1.5
    bg = Background(means, np.maximum(sigma.astype(np.float32), SIGMA_FLOOR))
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
        found = find_playing_area(frame)
        q, shape = refine_corners(frame, found.corners), shape_of(found)
        if found.discs is not None:
            discs = with_faint_discs(frame, found.discs)
            q = fit_long_edges(q, found.bar, discs)
            q = fit_long_edges(fit_row_ends(q, found.bar, discs), found.bar, discs)
    else:
        q, shape = refine_corners(frame, corners), None
    prof = provisional_profile(frame, q, shape, None if corners is not None else found.discs)
    obs = read(frame, prof)
    if corners is None:
        prof.meta["pattern"] = round(found.score, 3)
        if discs is not None:
            obs = with_disc_counts(obs, count_stacks(frame, q, found.bar, discs))
    return obs, prof


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
