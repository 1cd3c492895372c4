"""``calibrate(frame, position, corners=...) -> BoardProfile``: the board's pose (found, from
markers, or four taps), its orientation (which of the four ways round fits the known position
best) and its look; refuses when the frame does not show the position."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from engine import Position, PositionError
from engine.observation import expected_counts
from engine.xgid import XgidError, parse_xgid
from vision.discs import DiscModel
from vision.geometry import BoardShape
from vision.profile import BoardProfile
from vision.read import read
from vision.strips import strip_kinds

from .drift import reference_image
from .find import find_board
from .learn import ORIENTATIONS, _strips_lab, label_strips, learn, oriented
from .markers import corners_from_markers
from .refine import refine_corners

START = Position((2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2))
MAX_MISREAD = 6  # regions the calibration frame may read differently from the given position


class PositionMismatch(ValueError):
    """The frame does not show the position calibration was told it shows."""


def parse_position(text: str) -> Position:
    """An XGID, a position JSON string, or a file holding either."""
    t = text.strip()
    if not t.startswith(("XGID=", "{")) and Path(t).is_file():
        t = Path(t).read_text().strip()
    if t.startswith("XGID="):
        try:
            return parse_xgid(t).position
        except XgidError as exc:
            raise PositionError(f"malformed XGID: {exc}") from None
    try:
        data = json.loads(t)
    except json.JSONDecodeError:
        raise PositionError(f"not an XGID, position JSON or file: {text!r}") from None
    return Position.from_json(data)


def misread(profile: BoardProfile, frame: np.ndarray, pos: Position) -> tuple[int, float]:
    """(regions read differently from pos, log-likelihood of pos) for the frame."""
    obs = read(frame, profile)
    best = obs.best_counts()
    exp = expected_counts(pos)
    bad = sum(1 for b, e in zip(best, exp, strict=True) if b is not None and b != e)
    return bad, obs.log_likelihood(pos)


def learn_discs(frame: np.ndarray, prof: BoardProfile, pos: Position) -> DiscModel:
    """Checker-top templates and every point's empty look, from a frame showing ``pos``."""
    lay = prof.layout
    lab = _strips_lab(frame, lay, prof.corners, prof.trays_right)
    labels = label_strips(lay, pos)
    occupied = []
    for i, (w, b) in enumerate(expected_counts(pos)[:24]):
        n = w + b
        if 0 < n <= lay.shape.row_max and not (w and b):
            occupied += [(i, j, 1 if w else 2) for j in range(n)]
    return DiscModel.fit(lab, labels, strip_kinds(lay), lay, occupied)


def board_corners(frame: np.ndarray, method: str = "auto",
                  corners: np.ndarray | None = None) -> np.ndarray:
    """The playing area's corners by ``method``: "taps" (given), "markers" or "auto"."""
    if method == "taps" or corners is not None:
        if corners is None:
            raise ValueError("four corner taps are needed")
        q = np.asarray(corners, np.float64).reshape(4, 2)
    elif method == "markers":
        q = corners_from_markers(frame)
    else:
        q = find_board(frame)
    return refine_corners(frame, q)


def calibrate(frame: np.ndarray, position: Position | None = None, method: str = "auto",
              corners: np.ndarray | None = None, shape: BoardShape | None = None,
              orientation: str | None = None) -> BoardProfile:
    """A profile for the board in ``frame``, which shows ``position`` (default: the start).

    With markers the corners already carry the orientation; otherwise all four ways round are
    tried (``orientation`` fixes one) and the one that reads the position best is kept."""
    pos = position or START
    q = board_corners(frame, method, corners)
    names = [orientation] if orientation else (
        ["identity"] if method == "markers" else list(ORIENTATIONS))
    best: tuple[tuple[int, float], BoardProfile] | None = None
    for name in names:
        prof = learn(frame, oriented(q, name), pos, shape)
        bad, ll = misread(prof, frame, pos)
        # white is the lighter set: a way round that makes the darker set white is wrong
        lighter = prof.meta.get("white_L", 0.0) >= prof.meta.get("black_L", 0.0)
        key = (int(lighter), -bad, ll)
        if best is None or key > best[0]:
            best = (key, prof)
            best[1].meta["orientation"] = name
    assert best is not None
    (_, neg_bad, _), prof = best
    if -neg_bad > MAX_MISREAD:
        raise PositionMismatch(f"the board does not show the given position "
                               f"({-neg_bad} regions differ)")
    # the disc templates learn each point's own empty look from this very frame, so they come
    # after the checks (a frame always reads back as the position it was learned from)
    prof.discs = learn_discs(frame, prof, pos)
    prof.reference = reference_image(frame, prof)
    prof.meta.update({"method": method, "position": pos.to_json()})
    return prof


def load_image(path: str) -> np.ndarray:
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"{path} is not an image")
    return img
