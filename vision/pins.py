"""Plakoto pins: which colour lies at the base of a point that shows both colours.

Players lay a pin as the scene renderer does: the pinned checker stays where it was, the first
checker on the point (nearest the point's base), and the pinner lies flat on top of it a little
toward the point's tip, so a crescent of the pinned checker's top shows at the base under the
pinner (further pinners go along the point as usual). Where the camera sits over the base side the
pinner, a checker's thickness higher, is drawn over that crescent; the camera's pose says how much
of it each point still shows.

So for every point the reader samples, straight from the frame (one small remap, no rectified
image), two patches in the plane of the first checker's top face:

- the *crescent*: the part of the first checker's face that a pinner on top would leave visible,
  and
- the *face*: the middle of the top checker's face (the pinner's, or the first checker's when
  there is no pin),

and scores each pixel by the profile's colour models (white against black, clipped). A mixed point
(its most likely counts hold both colours) reads the colour of its crescent when that is clear and
the opposite of the face's colour otherwise (on a mixed point the base cannot be the top colour).
:func:`find_pins` also looks under points read with one colour only: a clear crescent of the other
colour under a clear face is a pin the counts missed (the disc model counts the pinner's stack and
not the mostly hidden checker under it).

Everything is in strip-free board coordinates (playing-area canonical pixels) lifted by the pose,
built once per profile and frame size; reading no point costs nothing.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .appearance import LLR_CLIP, to_lab
from .profile import BoardProfile

# geometry, in checker diameters
THICK = 0.2  # a checker's thickness (the scene boards' 8 mm of 40)
FIRST = 0.525  # the first checker's centre from the point's base edge
SHIFT = 0.16  # a pinner lies this far toward the tip from the checker it pins
STEP = 0.04  # sample spacing
EDGE_IN = 0.03  # crescent samples kept this far inside the pinned checker's face
EDGE_OUT = 0.03  # ... and this far outside the pinner
FACE_R = 0.3  # radius of the face patch round the top checker's centre
MIN_CRESCENT = 4  # samples: a crescent smaller than this is not read (the pinner hides it)

# decisions (tuned on seeds 1000-1029, see bench/bench_pins.py)
CRESCENT_CLEAR = 0.5  # mean clipped LLR (nats) of the crescent: a clear colour
FACE_CLEAR = 0.5  # mean clipped LLR of the face: a clear top colour
PIN_CLEAR = 2.0  # a missed pin needs this clear a crescent of the other colour ...
PIN_FACE = 1.0  # ... under this clear a face of the counted colour
PIN_P = 0.9  # the probability find_pins gives a pin it finds (the rest to the counts read)

WHITE, BLACK = "white", "black"


def _samples(profile: BoardProfile) -> dict[str, Any]:
    """Per point, playing-area coordinates (seen in the board's plane) of the crescent and face
    samples: ``xy`` (K, 2), ``point`` (K,) and ``crescent`` (K,) bool."""
    key = "pins-samples"
    if key in profile._cache:
        return profile._cache[key]
    lay, pose = profile.layout, profile.pose
    d = lay.d
    g = np.arange(-0.5, 0.5 + 1e-9, STEP) * d
    du, dv = np.meshgrid(g, g)  # offsets from the first checker's centre (dv toward the tip)
    xs, pts, cres = [], [], []
    for i in range(24):
        c, top = lay.point_place(i + 1)
        x, s = lay.column_x(c), (1.0 if top else -1.0)
        y0 = (0.0 if top else lay.H) + s * FIRST * d
        face = np.stack([x + du, y0 + s * dv], -1)  # the first checker's top face, flat
        # the pinner (centre SHIFT toward the tip, from one thickness up to two) seen in the
        # plane of the pinned face: discs from each height, lifted and brought down again
        low = pose.lift(face, THICK * d)  # where the pinned face's samples are seen
        hidden = np.zeros(du.shape, bool)
        centre = np.array([x, y0 + s * SHIFT * d])
        for h in np.linspace(THICK, 2 * THICK, 5):
            cc = pose.lift(centre, h * d)
            r = d / 2 * (pose.height / max(pose.height - h * d, 1e-6))
            hidden |= np.hypot(*(low - cc).transpose(2, 0, 1)) <= r + EDGE_OUT * d
        inside = np.hypot(du, dv) <= (0.5 - EDGE_IN) * d
        crescent = inside & ~hidden
        facep = np.hypot(du, dv - SHIFT * d) <= FACE_R * d  # the top face's middle
        for m, is_c, h in ((crescent, True, THICK), (facep, False, 2 * THICK)):
            xs.append(pose.lift(face[m], h * d))
            pts.append(np.full(int(m.sum()), i))
            cres.append(np.full(int(m.sum()), is_c))
    out = {"xy": np.concatenate(xs), "point": np.concatenate(pts),
           "crescent": np.concatenate(cres)}
    profile._cache[key] = out
    return out


def _maps(profile: BoardProfile, size: tuple[int, int]) -> dict[str, Any]:
    """The samples' frame coordinates for frames of ``size`` (cached on the profile)."""
    key = f"pins-maps{size}"
    if key in profile._cache:
        return profile._cache[key]
    smp = _samples(profile)
    lay = profile.layout
    img = lay.to_image(smp["xy"]).reshape(-1, 1, 2)
    fr = cv2.perspectiveTransform(img, profile.homography(size)).reshape(-1, 2)
    starts = np.searchsorted(smp["point"], np.arange(25))
    n_crescent = np.add.reduceat(smp["crescent"].astype(np.int64), starts[:24])
    out = {"x": fr[:, 0].astype(np.float32), "y": fr[:, 1].astype(np.float32),
           "starts": starts, "crescent": smp["crescent"], "n_crescent": n_crescent}
    profile._cache[key] = out
    return out


def point_scores(frame: np.ndarray, profile: BoardProfile, points: list[int]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of ``points`` (0..23): the mean clipped white-against-black LLR of its crescent
    and of its face (positive: white), and how many crescent samples the pose leaves visible."""
    m = _maps(profile, (frame.shape[1], frame.shape[0]))
    if not points:
        z = np.zeros(0)
        return z, z, z.astype(np.int64)
    starts = m["starts"]
    if len(points) == 24:
        idx = np.arange(starts[24])
    else:
        idx = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in points])
    px = cv2.remap(frame, m["x"][idx][None, :], m["y"][idx][None, :], cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_REPLICATE)
    lab = to_lab(px)[0]
    llr = np.clip(profile.white.log_p(lab) - profile.black.log_p(lab), -LLR_CLIP, LLR_CLIP)
    # each point's samples: the crescent's first, then the face's
    sizes = np.array([starts[i + 1] - starts[i] for i in points])
    n = np.array([m["n_crescent"][i] for i in points])
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    cut = np.stack([first, first + n], 1).ravel()
    sums = np.add.reduceat(np.append(llr, 0.0), np.minimum(cut, len(llr)))
    crescent = np.where(n > 0, sums[0::2] / np.maximum(n, 1), 0.0)
    face = sums[1::2] / np.maximum(sizes - n, 1)
    return crescent, face, n


def _best(region: Any) -> tuple[int, int] | None:
    return max(region.items(), key=lambda kv: kv[1])[0] if region else None


def decide_base(crescent: float, face: float, n: int) -> str | None:
    """The base colour of a mixed point from its scores: the crescent's clear colour, else the
    opposite of the face's clear colour, else unread (None)."""
    if n >= MIN_CRESCENT and abs(crescent) >= CRESCENT_CLEAR and (
            abs(face) < FACE_CLEAR or np.sign(crescent) != np.sign(face)):
        return WHITE if crescent > 0 else BLACK
    if abs(face) >= FACE_CLEAR:
        return BLACK if face > 0 else WHITE
    return None


def base_colours(frame: np.ndarray, profile: BoardProfile, regions: list[Any]
                 ) -> list[str | None]:
    """Per point (24): for a point whose most likely counts hold both colours, the colour that
    lies at its base ("white" / "black"; None when unread), None for every other point."""
    out: list[str | None] = [None] * 24
    mixed = [i for i in range(24) if (b := _best(regions[i])) is not None and b[0] and b[1]]
    if not mixed:
        return out
    crescent, face, n = point_scores(frame, profile, mixed)
    for k, i in enumerate(mixed):
        out[i] = decide_base(float(crescent[k]), float(face[k]), int(n[k]))
    return out


def find_pins(frame: np.ndarray, profile: BoardProfile, regions: list[Any]
              ) -> tuple[list[Any], list[str | None]]:
    """For a board where pins are possible (Plakoto): the regions with pins the counts missed
    added, and the base colours of every mixed point. A point read with one colour only whose
    crescent shows the other colour clearly (``PIN_CLEAR``) under a clear face of the counted
    colour (``PIN_FACE``) gets one checker of the other colour pinned under its stack, with
    probability ``PIN_P``; the regions given are not changed (a new list is returned)."""
    out = list(regions)
    base: list[str | None] = [None] * 24
    seen = [i for i in range(24) if _best(regions[i]) not in (None, (0, 0))]
    if not seen:
        return out, base
    crescent, face, n = point_scores(frame, profile, seen)
    for k, i in enumerate(seen):
        w, b = _best(regions[i])  # type: ignore[misc]
        c, f, m = float(crescent[k]), float(face[k]), int(n[k])
        if w and b:
            base[i] = decide_base(c, f, m)
            continue
        sign = 1.0 if w else -1.0
        if m >= MIN_CRESCENT and -sign * c >= PIN_CLEAR and sign * f >= PIN_FACE:
            pinned = (w, 1) if w else (1, b)
            out[i] = {pinned: PIN_P, **{k2: v * (1 - PIN_P) for k2, v in regions[i].items()
                                        if k2 != pinned}}
            base[i] = BLACK if w else WHITE
    return out, base
