"""Procedural material textures from noise: wood grain, leather, felt, suede, linen, cloth.

Each function returns a single-channel float32 *modulation* around 1.0 (multiply a base colour
by it) sized (h, w) for a canvas at ``s`` pixels per millimetre, so grain has a physical size
whatever the resolution. Noise is smooth value noise: a coarse Gaussian grid resized cubically.
"""

from __future__ import annotations

import cv2
import numpy as np


def value_noise(
    rng: np.random.Generator, h: int, w: int, cell_y: float, cell_x: float
) -> np.ndarray:
    """Smooth noise, roughly N(0, 1), varying over ``cell`` pixels in each direction."""
    gh = max(2, int(h / max(cell_y, 1.0)) + 2)
    gw = max(2, int(w / max(cell_x, 1.0)) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


_BANK: dict[float, np.ndarray] = {}
BANK_SIZE = 2048


def _bank(sigma: float) -> np.ndarray:
    """A fixed tile of white noise (blurred by ``sigma``, unit variance), made once per process."""
    key = 0.0 if sigma < 0.3 else 0.7
    if key not in _BANK:
        n = np.random.default_rng(12345).standard_normal((BANK_SIZE, BANK_SIZE), dtype=np.float32)
        if sigma > 0:
            n = cv2.GaussianBlur(n, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)
            n /= max(float(n.std()), 1e-6)
        _BANK[key] = n
    return _BANK[key]


def fine_noise(rng: np.random.Generator, h: int, w: int, sigma: float = 0.7) -> np.ndarray:
    """Per-pixel grain, slightly blurred: a randomly shifted (and flipped) crop of a fixed noise
    tile, tiled when the request is larger; deterministic for a given ``rng``."""
    b = _bank(sigma)
    flip = int(rng.integers(0, 4))
    if h > BANK_SIZE or w > BANK_SIZE:
        b = np.tile(b, (h // BANK_SIZE + 1, w // BANK_SIZE + 1))
    oy = int(rng.integers(0, b.shape[0] - h + 1))
    ox = int(rng.integers(0, b.shape[1] - w + 1))
    b = b[oy : oy + h, ox : ox + w]
    if flip & 1:
        b = b[::-1]
    if flip & 2:
        b = b[:, ::-1]
    return b


def felt(rng: np.random.Generator, h: int, w: int, s: float) -> np.ndarray:
    """Felt / baize: fine fibre grain and faint mottling."""
    m = 1.0 + 0.018 * fine_noise(rng, h, w, 0.6)
    m += 0.012 * value_noise(rng, h, w, 60 * s, 60 * s)
    m += 0.01 * value_noise(rng, h, w, 6 * s, 6 * s)
    return m


def suede(rng: np.random.Generator, h: int, w: int, s: float) -> np.ndarray:
    """Suede: stronger cloudy mottling (brushed nap) and fine grain."""
    m = 1.0 + 0.04 * fine_noise(rng, h, w, 0.8)
    m += 0.07 * value_noise(rng, h, w, 25 * s, 60 * s)
    m += 0.03 * value_noise(rng, h, w, 4 * s, 8 * s)
    return m


def leather(rng: np.random.Generator, h: int, w: int, s: float) -> np.ndarray:
    """Leather: pebbled grain (small cells) and soft mottling."""
    cell = max(1.2, 1.1 * s)
    peb = value_noise(rng, h, w, cell, cell)
    m = 1.0 + 0.05 * np.tanh(1.5 * peb) + 0.025 * fine_noise(rng, h, w, 0.5)
    m += 0.04 * value_noise(rng, h, w, 50 * s, 50 * s)
    return m


def linen(rng: np.random.Generator, h: int, w: int, s: float) -> np.ndarray:
    """Woven linen: a faint cross-hatch plus slub streaks."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = max(2.2, 1.2 * s)
    weave = np.sin(xx * (2 * np.pi / period)) * np.sin(yy * (2 * np.pi / period))
    m = 1.0 + 0.04 * weave + 0.03 * fine_noise(rng, h, w, 0.6)
    m += 0.04 * value_noise(rng, h, w, 2 * s, 30 * s)
    return m


def wood(rng: np.random.Generator, h: int, w: int, s: float, along_x: bool = True) -> np.ndarray:
    """Wood grain running along x (or y): streaky growth rings, pores, slow colour drift."""
    if not along_x:
        return wood(rng, w, h, s, True).T.copy()
    yy = np.arange(h, dtype=np.float32)[:, None] / max(s, 1e-3)  # mm across the grain
    warp = value_noise(rng, h, w, 30 * s, 160 * s) * 6.0 + value_noise(rng, h, w, 8 * s, 60 * s)
    rings = np.sin((yy + warp) * (2 * np.pi / rng.uniform(3.0, 6.0)))
    rings = np.sign(rings) * np.abs(rings) ** 0.6
    streak = value_noise(rng, h, w, 0.6 * s + 1, 40 * s)
    pores = value_noise(rng, h, w, 0.5 * s + 1, 12 * s)
    m = 1.0 + 0.07 * rings + 0.05 * streak + 0.03 * pores
    m += 0.08 * value_noise(rng, h, w, 80 * s, 300 * s)
    return m


def cloth(rng: np.random.Generator, h: int, w: int, s: float) -> np.ndarray:
    """Table cloth: weave, creases (long soft streaks) and grain."""
    m = 1.0 + 0.03 * fine_noise(rng, h, w, 0.6)
    m += 0.02 * value_noise(rng, h, w, 60 * s, 60 * s)
    m += 0.035 * value_noise(rng, h, w, 40 * s, 250 * s)
    return m


MATERIALS = {
    "felt": felt,
    "suede": suede,
    "leather": leather,
    "linen": linen,
    "cloth": cloth,
}


def material(
    kind: str, rng: np.random.Generator, h: int, w: int, s: float, along_x: bool = True
) -> np.ndarray:
    """Modulation for a material name (``wood`` honours ``along_x``)."""
    if kind == "wood":
        return wood(rng, h, w, s, along_x)
    return MATERIALS[kind](rng, h, w, s)
