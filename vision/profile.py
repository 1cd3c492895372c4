"""The board profile: everything the reader needs to know about one board under one camera, made
by ``calibration`` and read here. Saved as versioned JSON.

``corners`` are the playing area's four corners in frame pixels in the order top-left, top-right,
bottom-right, bottom-left *of the canonical board* (white's home bottom-right), so they carry the
orientation too: a board seen upside down simply has its corners listed from the other end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .appearance import Background, ColourModel
from .discs import DiscModel
from .geometry import BoardShape, Layout
from .pose import Pose, camera_pose

PROFILE_VERSION = 1


class ProfileError(ValueError):
    """A profile file that cannot be used (unreadable, wrong version, malformed)."""


@dataclass
class BoardProfile:
    image_size: tuple[int, int]  # (width, height) of the frames it was made from
    corners: np.ndarray  # (4, 2) float: TL, TR, BR, BL of the canonical playing area
    shape: BoardShape
    white: ColourModel
    black: ColourModel
    background: Background
    trays_right: bool = True
    reference: np.ndarray | None = None  # small grey rectified board, for drift checks
    scale: float = 0.04  # nats per pixel-sum of evidence (pixels are not independent)
    meta: dict[str, Any] = field(default_factory=dict)
    discs: DiscModel | None = None  # checker-top templates and each point's empty look
    version: int = PROFILE_VERSION
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def layout(self) -> Layout:
        if "layout" not in self._cache:
            self._cache["layout"] = Layout(self.shape)
        return self._cache["layout"]

    @property
    def pose(self) -> Pose:
        """The camera's pose over the playing area, from the corners (derived, not stored)."""
        if "pose" not in self._cache:
            self._cache["pose"] = camera_pose(self.corners, self.image_size, self.layout)
        return self._cache["pose"]

    def homography(self, size: tuple[int, int] | None = None) -> np.ndarray:
        """Rectified canonical pixels -> frame pixels (of a frame of ``size``, scaled from the
        profile's own size when they differ)."""
        corners = self.corners.astype(np.float64)
        if size is not None and tuple(size) != tuple(self.image_size):
            corners = corners * (size[0] / self.image_size[0], size[1] / self.image_size[1])
        src = self.layout.corners().astype(np.float32)
        return cv2.getPerspectiveTransform(src, corners.astype(np.float32))

    # -- JSON -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "gammoncam-board-profile",
            "version": self.version,
            "image_size": list(self.image_size),
            "corners": np.round(self.corners, 3).tolist(),
            "shape": self.shape.to_json(),
            "trays_right": self.trays_right,
            "scale": self.scale,
            "white": self.white.to_json(),
            "black": self.black.to_json(),
            "background": self.background.to_json(),
            "reference": None if self.reference is None else {
                "shape": list(self.reference.shape), "data": self.reference.ravel().tolist()},
            "meta": self.meta,
            "pose": self.pose.to_json(),  # for a reader of the file; recomputed from the corners
            "discs": None if self.discs is None else self.discs.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardProfile:
        if not isinstance(data, dict) or data.get("format") != "gammoncam-board-profile":
            raise ProfileError("not a gammoncam board profile")
        if data.get("version") != PROFILE_VERSION:
            raise ProfileError(f"profile version {data.get('version')!r} is not supported "
                               f"(this reader knows version {PROFILE_VERSION})")
        try:
            ref = data.get("reference")
            return cls(
                image_size=(int(data["image_size"][0]), int(data["image_size"][1])),
                corners=np.asarray(data["corners"], np.float64).reshape(4, 2),
                shape=BoardShape.from_json(data["shape"]),
                white=ColourModel.from_json(data["white"]),
                black=ColourModel.from_json(data["black"]),
                background=Background.from_json(data["background"]),
                trays_right=bool(data.get("trays_right", True)),
                reference=None if ref is None else np.asarray(ref["data"], np.uint8).reshape(
                    ref["shape"]),
                scale=float(data.get("scale", 0.04)),
                meta=dict(data.get("meta", {})),
                discs=DiscModel.from_json(data["discs"]) if data.get("discs") else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ProfileError(f"malformed profile: {exc}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()))

    @classmethod
    def load(cls, path: str | Path) -> BoardProfile:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProfileError(f"cannot read profile {path}: {exc}") from None
        return cls.from_json(data)
