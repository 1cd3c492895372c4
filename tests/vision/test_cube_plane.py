"""The cube face's plane from the camera pose: points 33 mm above the board (a cube's top on the
bar) land where the scene's own camera draws them, far closer than the board plane's homography
puts them in a tilted view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import pytest

from tests.scenes.scene import Scene, random_setup
from vision.cube import face_plane
from vision.geometry import BoardShape, Layout
from vision.pose import Pose, camera_pose


@dataclass
class _Profile:
    """What ``face_plane`` reads from a profile: layout, pose and the board's homography."""

    layout: Layout
    corners: np.ndarray
    size: tuple[int, int]
    _cache: dict[str, Any] = field(default_factory=dict)

    @property
    def pose(self) -> Pose:
        return camera_pose(self.corners, self.size, self.layout)

    def homography(self, size: tuple[int, int] | None = None) -> np.ndarray:
        src = self.layout.corners().astype(np.float32)
        return cv2.getPerspectiveTransform(src, self.corners.astype(np.float32))


@pytest.mark.parametrize("seed", [1003, 1011, 1017])
def test_face_plane_follows_the_scene_camera(seed: int) -> None:
    setup = random_setup(seed)
    scene = Scene(setup)
    g = setup.geo
    cam = scene.cam
    corners = cam.project(g.playing_corners(), 0.0)
    lay = Layout(BoardShape(aspect=g.H / g.W))
    prof = _Profile(lay, corners, (cam.width, cam.height))
    s = lay.W / g.W  # canonical pixels per mm
    h_mm = g.frame_h + 26.0
    pts_mm = np.array([[0.0, -g.H / 2 + 19.5], [0.0, g.H / 2 - 19.5], [0.0, 0.0],
                       [-g.W / 2 + 60.0, -g.H / 2 + 60.0], [g.W / 2 - 60.0, g.H / 2 - 60.0]])
    want = cam.project(pts_mm, h_mm)
    canon = np.column_stack([(pts_mm[:, 0] + g.W / 2) * s, (pts_mm[:, 1] + g.H / 2) * s,
                             np.ones(len(pts_mm))])
    errs = {}
    for name, h in (("face", h_mm * s), ("flat", 0.0)):
        p = canon @ face_plane(prof, h, prof.size).T
        errs[name] = float(np.hypot(*(p[:, :2] / p[:, 2:3] - want).T).max())
    tilt = prof.pose.tilt_deg(lay)
    assert errs["face"] < 4.0, (errs, tilt)
    if errs["flat"] > 8.0:  # a tilted view: the pose's plane is far closer
        assert errs["face"] < 0.35 * errs["flat"], (errs, tilt)
