"""A one-shot profile's empty look that lets a point lie in a shadow.

A one-shot profile takes each kind of point's empty look from the photo's own points (the median
over the kind's strips), one template for every strip of the kind; a real photo's points are not
all under the same light: a hand's shadow falls over the points beside it, a point by the bar lies
darker than its kind's others. A shadow scales a pixel's linear colour, so in Lab (L* + 16, a*,
b*) it scales all three alike (each a cube root of a linear sum, above the darkest tones): the
pixel is taken as the template scaled by the factor that fits it best (weighted by the spreads,
clipped to [SHADOW_MIN, SHADOW_MAX]) before the Gaussian is applied, so a darker copy of a
point's look is the empty board while a checker of another hue is not. The reader uses only
``log_p``; the templates and the spreads are the plain ``Background``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.appearance import Background

SHADOW_MIN = 0.6  # darkest light a template is scaled to (a hand's shadow on dices6: ~0.65)
SHADOW_MAX = 1.15  # brightest
NEUTRAL = np.array([-16 * 2.55, 128.0, 128.0], np.float32)  # the scaling's origin: L* + 16, a, b


@dataclass
class ShadowBackground(Background):
    """``Background`` whose empty look may lie under a dimmer or brighter light."""

    def log_p(self, strips: np.ndarray, kinds: np.ndarray) -> np.ndarray:
        """(N, L, W) log density of the strips' pixels under the empty-board template scaled by
        the light that fits each pixel best."""
        x = strips.astype(np.float32) - NEUTRAL
        m = self.mean[kinds] - NEUTRAL
        w = (1.0 / (self.sigma.astype(np.float32) ** 2))
        num = np.einsum("...c,...c,c->...", x, m, w)
        den = np.einsum("...c,...c,c->...", m, m, w)
        s = np.clip(num / np.maximum(den, 1e-6), SHADOW_MIN, SHADOW_MAX)
        diff = (x - s[..., None] * m) / self.sigma
        norm = float(np.sum(np.log(self.sigma)) + 1.5 * np.log(2 * np.pi))
        return -0.5 * np.sum(diff * diff, axis=-1) - norm
