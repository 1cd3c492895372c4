"""The debug image: the regions, their most likely counts, the dice and the cube drawn over the
frame, so a user sees why the reader read what it read."""

from __future__ import annotations

import cv2
import numpy as np

from engine.observation import Observation

from .profile import BoardProfile
from .strips import strip_specs


def debug_image(frame: np.ndarray, obs: Observation, profile: BoardProfile) -> np.ndarray:
    out = frame.copy()
    lay = profile.layout
    Hm = profile.homography((frame.shape[1], frame.shape[0]))

    def proj(pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2),
                                        Hm).reshape(-1, 2)

    cv2.polylines(out, [proj(lay.corners()).astype(np.int32)], True, (0, 255, 255), 2)
    best = obs.best_counts()
    specs = strip_specs(lay, profile.trays_right)
    for i, s in enumerate(specs):
        y1 = s.y0 + s.direction * lay.H / 2
        quad = lay.to_image(np.array([[s.x - s.width / 2, s.y0], [s.x + s.width / 2, s.y0],
                                      [s.x + s.width / 2, y1], [s.x - s.width / 2, y1]]))
        poly = proj(quad).astype(np.int32)
        cv2.polylines(out, [poly], True, (0, 200, 0) if i < 24 else (200, 120, 0), 1)
        region = i if i < 24 else {24: 25, 25: 24, 26: 27, 27: 26}[i]
        c = best[region]
        label = "?" if c is None else (f"{c[0]}w" if c[0] else "") + (f"{c[1]}b" if c[1] else "")
        label = label or "0"
        anchor = proj(lay.to_image(np.array([[s.x, s.y0 + s.direction * lay.d * 0.3]])))[0]
        cv2.putText(out, label, (int(anchor[0]) - 10, int(anchor[1]) + 5),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3)
        cv2.putText(out, label, (int(anchor[0]) - 10, int(anchor[1]) + 5),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 255, 255), 1)
    for k, name in enumerate(("TL", "TR", "BR", "BL")):
        p = proj(lay.corners()[k:k + 1])[0]
        cv2.putText(out, name, (int(p[0]), int(p[1])), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (0, 0, 255), 2)
    dice = "dice: none" if obs.dice is None else f"dice: {obs.dice.values} {obs.dice.owner}"
    cube = "cube: none" if obs.cube is None else f"cube: {obs.cube.owner} {obs.cube.value}"
    text = f"{dice}  {cube}  hand: {obs.hand}  confidence: {obs.confidence:.2f}"
    cv2.putText(out, text, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 4)
    cv2.putText(out, text, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1)
    return out
