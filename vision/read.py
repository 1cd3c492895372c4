"""``read(frame, profile) -> Observation``: the calibrated reader.

One remap samples every strip straight from the frame; colour evidence against the profile's
models gives the 28 regions' likelihoods; dice and the cube are found where the strips show
something that is neither board nor checker; a large foreign area is a hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.observation import Observation

from .appearance import to_lab
from .checkers import Counter, Evidence, evidence
from .profile import BoardProfile
from .strips import N_STRIPS, frame_maps, sample, strip_kinds, strip_specs

HAND_FRACTION = 0.04  # share of the point strips' pixels that are foreign: a hand or arm


def prepared(profile: BoardProfile, size: tuple[int, int]) -> dict[str, Any]:
    """Per-profile, per-frame-size work done once: strip maps and mask sets."""
    key = f"prep{size}"
    if key not in profile._cache:
        lay = profile.layout
        specs = strip_specs(lay, profile.trays_right)
        maps = frame_maps(lay, specs, profile.homography(size))
        profile._cache[key] = {"maps": maps, "kinds": strip_kinds(lay), "specs": specs,
                               "counter": profile._cache.get("counter") or Counter(lay)}
        profile._cache["counter"] = profile._cache[key]["counter"]
    return profile._cache[key]


def strip_evidence(frame: np.ndarray, profile: BoardProfile) -> tuple[np.ndarray, Evidence]:
    prep = prepared(profile, (frame.shape[1], frame.shape[0]))
    strips = sample(frame, prep["maps"], N_STRIPS)
    lab = to_lab(strips.reshape(-1, strips.shape[2], 3)).reshape(strips.shape)
    return strips, evidence(lab, prep["kinds"], profile.white, profile.black,
                            profile.background)


def read(frame: np.ndarray, profile: BoardProfile, settled: bool = True) -> Observation:
    """Read one frame of the profile's board."""
    prep = prepared(profile, (frame.shape[1], frame.shape[0]))
    _strips, ev = strip_evidence(frame, profile)
    regions, _best = prep["counter"].regions(ev, profile.scale)
    foreign = float(ev.foreign[:24].mean())
    hand = foreign > HAND_FRACTION
    conf = _confidence(regions)
    return Observation(regions=regions, hand=hand, settled=settled, confidence=conf)


def _confidence(regions: list) -> float:
    """The product of each seen region's top probability (how sure the whole read is)."""
    c = 1.0
    for r in regions:
        if r:
            c *= max(r.values())
    return float(c)
