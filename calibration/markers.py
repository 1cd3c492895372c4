"""Corners from four ArUco markers (ids 0..3 at the playing area's top-left, top-right,
bottom-right and bottom-left corners of the canonical board, each touching its corner with one of
its own corners), and the printable sheet of them."""

from __future__ import annotations

import cv2
import numpy as np

from . import aruco

CORNER_IDS = (0, 1, 2, 3)


class MarkersNotFound(ValueError):
    """Fewer than the four corner markers are visible."""


def corners_from_markers(frame: np.ndarray) -> np.ndarray:
    """TL, TR, BR, BL of the playing area (canonical order: marker 0 marks white's 13-point
    corner) from the marker corner nearest the middle of the four markers."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    found = aruco.detect(gray)
    missing = [i for i in CORNER_IDS if i not in found]
    if missing:
        raise MarkersNotFound(f"corner markers not found: {missing}")
    centre = np.mean([found[i].mean(0) for i in CORNER_IDS], axis=0)
    out = []
    for i in CORNER_IDS:
        c = found[i]
        out.append(c[np.argmin(np.linalg.norm(c - centre, axis=1))])
    return np.array(out)


def marker_sheet(px: int = 600, margin: int = 60) -> np.ndarray:
    """A printable page: the four markers with their ids and where each goes."""
    names = ["0: top-left (white's 13-point corner)", "1: top-right (white's 24-point corner)",
             "2: bottom-right (white's 1-point corner)", "3: bottom-left (white's 12-point corner)"]
    cell = px + 2 * margin
    page = np.full((2 * cell + 80, 2 * cell), 255, np.uint8)
    for k, i in enumerate(CORNER_IDS):
        r, c = divmod(k, 2)
        y, x = r * cell + margin + 40, c * cell + margin
        page[y:y + px, x:x + px] = aruco.marker_image(i, px)
        cv2.putText(page, names[k], (x, y - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 0, 2)
    cv2.putText(page, "gammoncam corner markers (DICT_4X4_50): put each marker's inner corner on "
                "the playing area's corner", (20, 2 * cell + 50), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                0, 2)
    return page
