"""Light and sensor: the key light's direction (for shading and shadows), and the photometric
effects applied to the rendered frame: illumination gradient and vignetting, warm or cool casts,
glare spots, shadow bands, sensor noise, blur and JPEG compression.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np

from .textures import fine_noise


@dataclass(frozen=True)
class Lighting:
    light_az: float = 230.0  # direction toward the key light, degrees in the board plane
    light_el: float = 60.0  # its elevation
    gain: float = 1.0
    gradient: float = 0.15  # strength of the low-frequency illumination field
    vignette: float = 0.2
    cast: float = 0.0  # > 0 warm, < 0 cool
    tint: float = 0.0  # green-magenta
    glare: int = 0  # number of glare spots
    glare_strength: float = 0.5
    band: float = 0.0  # shadow band depth (0 = none)
    band_width: float = 0.2
    noise: float = 0.01  # sensor noise sigma (at mid grey)
    blur: float = 0.0  # gaussian sigma (px)
    motion: float = 0.0  # motion blur length (px)
    jpeg: int = 90  # JPEG quality (0 = none)
    gamma: float = 1.0
    seed: int = 0

    def direction(self) -> np.ndarray:
        """Unit vector toward the light in (x, y, h) with h up."""
        a, e = np.radians(self.light_az), np.radians(self.light_el)
        return np.array([np.cos(a) * np.cos(e), np.sin(a) * np.cos(e), np.sin(e)])

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def random_lighting(rng: np.random.Generator, harsh: float = 1.0) -> Lighting:
    """A plausible venue light; ``harsh`` scales how far from clean it strays."""
    r = rng.random
    return Lighting(
        light_az=float(rng.uniform(0, 360)),
        light_el=float(rng.uniform(45, 80)),
        gain=float(rng.uniform(0.8, 1.12)),
        gradient=float(rng.uniform(0.02, 0.3) * harsh),
        vignette=float(rng.uniform(0.0, 0.35)),
        cast=float(rng.normal(0, 0.06) * harsh),
        tint=float(rng.normal(0, 0.02) * harsh),
        glare=int(rng.choice([0, 0, 1, 1, 2])) if r() < 0.6 * harsh else 0,
        glare_strength=float(rng.uniform(0.2, 0.8)),
        band=float(rng.uniform(0.15, 0.45)) if r() < 0.25 * harsh else 0.0,
        band_width=float(rng.uniform(0.08, 0.35)),
        noise=float(rng.uniform(0.003, 0.022) * harsh),
        blur=float(rng.choice([0.0, 0.0, rng.uniform(0.3, 1.4)])),
        motion=float(rng.uniform(2, 7)) if r() < 0.07 * harsh else 0.0,
        jpeg=int(rng.choice([0, 95, 90, 85, 75, 60, 45])) if harsh else 0,
        gamma=float(rng.uniform(0.9, 1.12)),
        seed=int(rng.integers(1 << 30)),
    )


def _field(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    g = rng.standard_normal((cells, cells)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def illumination(light: Lighting, h: int, w: int) -> np.ndarray:
    """The multiplicative light field (h, w, 3) for a frame: fixed for a fixed camera and light."""
    rng = np.random.default_rng(light.seed)
    sh, sw = max(h // 8, 2), max(w // 8, 2)
    f = 1.0 + light.gradient * _field(rng, sh, sw, 3) * 0.6
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    r2 = ((xx - sw / 2) / (sw / 2)) ** 2 + ((yy - sh / 2) / (sh / 2)) ** 2
    f *= 1.0 - light.vignette * 0.35 * r2
    if light.band > 0:
        a = rng.uniform(0, np.pi)
        c = rng.uniform(-0.3, 0.3)
        d = ((xx / sw - 0.5) * np.cos(a) + (yy / sh - 0.5) * np.sin(a)) - c
        soft = max(0.02, light.band_width * 0.3)
        inside = 1 / (1 + np.exp(-(light.band_width / 2 - np.abs(d)) / soft * 2.5))
        f *= 1.0 - light.band * inside
    gains = np.array([1 - light.cast, 1 + light.tint, 1 + light.cast], np.float32) * light.gain
    out = f[..., None] * gains
    if light.glare:
        add = np.zeros((sh, sw), np.float32)
        for _ in range(light.glare):
            cx, cy = rng.uniform(0.1, 0.9) * sw, rng.uniform(0.1, 0.9) * sh
            rx, ry = rng.uniform(0.04, 0.2) * sw, rng.uniform(0.04, 0.2) * sh
            add += light.glare_strength * np.exp(-(((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2))
        out = out + add[..., None] * 1.5
    out = cv2.resize(out.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return out.astype(np.float32)


def apply_light(img: np.ndarray, field: np.ndarray, light: Lighting) -> np.ndarray:
    """Light the linear-ish image: multiply by the field, the glare part added as a veil."""
    return img * field


def sensor(img: np.ndarray, light: Lighting, frame_seed: int) -> np.ndarray:
    """Blur, noise (signal-dependent), quantisation and JPEG -> uint8 BGR."""
    out = img
    if light.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    if light.motion > 0:
        L = int(round(light.motion))
        k = np.zeros((L, L), np.float32)
        k[L // 2, :] = 1.0 / L
        rot = cv2.getRotationMatrix2D((L / 2 - 0.5, L / 2 - 0.5), float(light.seed % 180), 1.0)
        k = cv2.warpAffine(k, rot, (L, L))
        k /= max(float(k.sum()), 1e-6)
        out = cv2.filter2D(out, -1, k)
    if light.noise > 0:
        rng = np.random.default_rng(frame_seed)
        h, w = out.shape[:2]
        n = fine_noise(rng, h, w, 0.0)[..., None]
        chroma = np.dstack([fine_noise(rng, h // 4 + 1, w // 4 + 1, 0.7) for _ in range(3)])
        chroma = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
        # shot noise grows with the signal: sigma ~ noise * (0.5 + signal)
        out = out + (out + 0.5) * (light.noise * (n + 0.6 * chroma))
    u8 = np.clip(out * 255.0 + 0.5, 0, 255).astype(np.uint8)
    if light.gamma != 1.0:
        lut = np.clip(((np.arange(256) / 255.0) ** (1 / light.gamma)) * 255 + 0.5, 0, 255)
        u8 = cv2.LUT(u8, lut.astype(np.uint8))
    if light.jpeg:
        ok, buf = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(light.jpeg)])
        if ok:
            u8 = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return u8
