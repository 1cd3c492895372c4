"""``vision.discs.group_medians``: every group's median at once, the same values as
``np.median`` of each group (ties, odd and even sizes, one-element groups)."""

from __future__ import annotations

import numpy as np

from vision.discs import group_medians


def test_group_medians_equal_numpy_medians() -> None:
    rng = np.random.default_rng(5)
    for trial in range(100):
        n = int(rng.integers(1, 200))
        keys = rng.integers(0, 15, n)
        vals = rng.normal(size=n)
        if trial % 3 == 0:
            vals = np.round(vals, 1)  # ties
        got_keys, got = group_medians(keys, vals)
        assert list(got_keys) == sorted(set(keys.tolist()))
        for k, m in zip(got_keys, got, strict=True):
            assert m == np.median(vals[keys == k])
