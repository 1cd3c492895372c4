"""Plakoto pins the camera cannot see: a checker pinned under an opponent's lies hidden.

In Plakoto a checker that lands on a lone opponent's checker pins it: the pinned checker lies on
its point under the pinner's. From above, the pinner covers it, and the reader often counts the
point with one colour only (rendered whole games: 37% of pinned points on Plakoto 900000, every
one on Plakoto 1000). The rules know where a pin can be; the camera's one-colour reading is then
no evidence against it. :func:`hidden_pins` gives each point read with one colour only the same
count with one checker of the other colour under it, at ``HIDDEN`` times its likelihood, so a
position with a pin there fits nearly as well as one without: what lies under stays with the
rules (the other regions, the checkers that moved, tell the plays apart).
"""

from __future__ import annotations

from dataclasses import replace

from ..observation import Observation

HIDDEN = 0.5  # likelihood of a pin under a point read with one colour, relative to the reading


def hidden_pins(obs: Observation, hidden: float = HIDDEN) -> Observation:
    """``obs`` with each of the 24 points read with one colour only (``n`` checkers) also read,
    at ``hidden`` times that likelihood, as those ``n`` over one pinned checker of the other
    colour (never lowering a likelihood already there); the bars, trays and base colours as
    they are."""
    regions = list(obs.regions)
    changed = False
    for i, region in enumerate(regions[:24]):
        if not region:
            continue
        wider = dict(region)
        for (w, b), p in region.items():
            if w and not b:
                key = (w, 1)
            elif b and not w:
                key = (1, b)
            else:
                continue
            if wider.get(key, 0.0) < p * hidden:
                wider[key] = p * hidden
                changed = True
        regions[i] = wider
    return replace(obs, regions=regions) if changed else obs


__all__ = ["HIDDEN", "hidden_pins"]
