"""``engine.inference.fits``: the log-likelihood of many plays' results reckoned from the
position before (only the regions a play changes looked up) equals ``Observation.log_likelihood``
of each, on noisy readings (missing regions, regions unsure between counts, counts absent)."""

from __future__ import annotations

import math
import random

from engine.inference import EVERY_ROLL, fits
from engine.moves import legal_plays
from engine.observation import Observation, expected_counts
from engine.position import BLACK, WHITE, Position
from engine.rules import STANDARD


def _noisy(pos: Position, rng: random.Random) -> Observation:
    regions = []
    for w, b in expected_counts(pos):
        if rng.random() < 0.05:
            regions.append(None)
            continue
        alt = (w + rng.choice((-1, 1)) if w else w, b + rng.choice((0, 1)))
        alt = (max(0, alt[0]), alt[1])
        p = rng.uniform(0.3, 0.99)
        region = {(w, b): p, alt: 1 - p} if alt != (w, b) else {(w, b): p}
        if rng.random() < 0.1:
            region = {alt: 0.99}  # the truth absent: the floor
        regions.append(region)
    return Observation(regions, floor=1e-4)


def test_fits_equal_the_log_likelihood_of_each_result() -> None:
    rng = random.Random(5)
    start = STANDARD.start
    mid = next(p.after for p in legal_plays(start, WHITE, (6, 4)) if p.notation == "24/14")
    checked = 0
    for base, side in ((start, WHITE), (start, BLACK), (mid, BLACK)):
        results = {p.after for roll in EVERY_ROLL for p in legal_plays(base, side, roll)}
        truth = rng.choice(sorted(results, key=lambda p: p.to_json()["points"]))
        diffs: dict = {}
        for _ in range(3):
            obs = _noisy(truth, rng)
            got = fits(obs, base, results, diffs)
            for pos in results:
                assert math.isclose(got[pos], obs.log_likelihood(pos), abs_tol=1e-9)
                checked += 1
    assert checked > 500
