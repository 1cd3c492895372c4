"""One-shot reading of a single photo with no profile: find the board, take the empty board's
look from the points themselves (per pixel, the median over the six strips of each kind: most
points are empty at most places), split what differs from it into the two checker sets (the
lighter is white), and read with that provisional profile. The orientation is the one the board
was found in (long side horizontal); a reader that numbers points must try all four."""

from __future__ import annotations

import cv2
import numpy as np

from engine.observation import Observation
from vision.appearance import Background, ColourModel, to_lab
from vision.geometry import BoardShape, Layout
from vision.profile import BoardProfile
from vision.read import read
from vision.strips import N_STRIPS, frame_maps, sample, strip_kinds, strip_specs

from .find import Found, find_playing_area
from .learn import SIGMA_FLOOR
from .refine import refine_corners

FOREGROUND = 22.0  # Lab distance from the empty-board template that counts as "something there"


def provisional_profile(frame: np.ndarray, corners: np.ndarray,
                        shape: BoardShape | None = None) -> BoardProfile:
    shape = shape or BoardShape()
    lay = Layout(shape)
    specs = strip_specs(lay)
    Hm = cv2.getPerspectiveTransform(lay.corners().astype(np.float32),
                                     np.asarray(corners, np.float32))
    strips = sample(frame, frame_maps(lay, specs, Hm), N_STRIPS)
    lab = to_lab(strips.reshape(-1, strips.shape[2], 3)).reshape(strips.shape).astype(np.float32)
    kinds = strip_kinds(lay)
    means = np.zeros((8,) + lab.shape[1:], np.float32)
    for k in range(8):
        idx = np.nonzero(kinds == k)[0]
        means[k] = np.median(lab[idx], axis=0)
    resid = lab[:24] - means[kinds[:24]]
    dist = np.linalg.norm(resid, axis=-1)
    fg = dist > FOREGROUND
    px = lab[:24][fg]
    if len(px) < 50:
        px = lab[:24].reshape(-1, 3)
    # two checker sets: k-means on Lab, the lighter cluster is white
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, lbl, centres = cv2.kmeans(px.astype(np.float32), 2, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    lbl = lbl.ravel()
    light = int(np.argmax(centres[:, 0]))
    white = ColourModel.fit(px[lbl == light].astype(np.uint8))
    black = ColourModel.fit(px[lbl != light].astype(np.uint8))
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
    if corners is None:
        found = find_playing_area(frame)
        q, shape = refine_corners(frame, found.corners), shape_of(found)
    else:
        q, shape = refine_corners(frame, corners), None
    prof = provisional_profile(frame, q, shape)
    if corners is None:
        prof.meta["pattern"] = round(found.score, 3)
    return read(frame, prof), prof
