"""Colour models: how this board's checkers and its empty points look, as per-pixel likelihoods.

Pixels are CIE Lab (OpenCV's 8-bit scale). A checker colour is a smoothed 3-D histogram (metallic
and pearl checkers are many colours at once); the empty board is a per-pixel template of each kind
of point strip (top/bottom row x light/dark point) with one spread for all pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

BINS = 16  # histogram bins per Lab channel
_SHIFT = 4  # 256 / BINS == 1 << _SHIFT
_BIN_VOLUME = float((256 // BINS) ** 3)
LLR_CLIP = 6.0  # one pixel can say at most this many nats either way


def to_lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)


def bin_index(lab: np.ndarray) -> np.ndarray:
    """Flat histogram bin of each Lab pixel (uint8 input)."""
    q = (lab >> _SHIFT).astype(np.int32)
    return (q[..., 0] * BINS + q[..., 1]) * BINS + q[..., 2]


@dataclass
class ColourModel:
    """Log density of Lab colours of one kind of thing (a checker set), as a histogram."""

    log_density: np.ndarray  # (BINS**3,) float32

    @classmethod
    def fit(cls, lab_pixels: np.ndarray, smooth: float = 0.8, floor: float = 1e-4) -> ColourModel:
        px = lab_pixels.reshape(-1, 3)
        hist = np.bincount(bin_index(px), minlength=BINS**3).astype(np.float32)
        hist = hist.reshape(BINS, BINS, BINS)
        if smooth > 0:
            hist = _blur3(hist, smooth)
        hist = hist / max(hist.sum(), 1.0)
        hist = hist * (1 - floor) + floor / hist.size
        return cls(np.log(hist.ravel() / _BIN_VOLUME).astype(np.float32))

    def log_p(self, lab: np.ndarray) -> np.ndarray:
        return self.log_density[bin_index(lab)]

    def to_json(self) -> dict[str, Any]:
        # stored sparsely: the floor and the bins above it
        floor = float(self.log_density.min())
        idx = np.nonzero(self.log_density > floor + 1e-3)[0]
        return {"floor": round(floor, 4), "bins": idx.tolist(),
                "values": [round(float(v), 6) for v in self.log_density[idx]]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColourModel:
        arr = np.full(BINS**3, data["floor"], np.float32)
        arr[np.asarray(data["bins"], np.int64)] = np.asarray(data["values"], np.float32)
        return cls(arr)


def _blur3(h: np.ndarray, sigma: float) -> np.ndarray:
    k = cv2.getGaussianKernel(5, sigma).ravel().astype(np.float32)
    for axis in range(3):
        h = np.apply_along_axis(lambda v: np.convolve(v, k, mode="same"), axis, h)
    return h


@dataclass
class Background:
    """Empty-board templates of point strips: ``mean[kind]`` is (L, W, 3) Lab, ``sigma`` one spread
    per channel. Kinds: 0..3 = (top row, light point) combinations, see ``strip_kind``."""

    mean: np.ndarray  # (4, L, W, 3) float32
    sigma: np.ndarray  # (3,) float32

    def log_p(self, strips: np.ndarray, kinds: np.ndarray) -> np.ndarray:
        """(N, L, W) log density of the strips' pixels under the empty-board template."""
        diff = (strips.astype(np.float32) - self.mean[kinds]) / self.sigma
        norm = float(np.sum(np.log(self.sigma)) + 1.5 * np.log(2 * np.pi))
        return -0.5 * np.sum(diff * diff, axis=-1) - norm

    def to_json(self) -> dict[str, Any]:
        return {"shape": list(self.mean.shape), "sigma": self.sigma.round(3).tolist(),
                "mean": np.round(self.mean, 3).ravel().tolist()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Background:
        mean = np.asarray(data["mean"], np.float32).reshape(data["shape"])
        return cls(mean, np.asarray(data["sigma"], np.float32))
