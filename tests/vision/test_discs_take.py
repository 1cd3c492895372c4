"""``discs.take_pixels``: the strips' pixels at the disc pixels, as fancy indexing gives them
(values and memory layout: the gathered models share that layout, and ``slot_llr``'s
elementwise work is several times slower on mixed layouts)."""

from __future__ import annotations

import numpy as np

from vision.discs import take_pixels


def test_take_pixels_is_fancy_indexing_in_its_layout():
    rng = np.random.default_rng(5)
    px = rng.integers(0, 256, (24, 500, 3), dtype=np.uint8)
    idx = rng.integers(0, 500, 700)
    want = px[:, idx]
    got = take_pixels(px, idx)
    assert got.shape == want.shape and np.array_equal(got, want)
    assert got.astype(np.float32).strides == want.astype(np.float32).strides
    two = px[24 - 2:]  # the bar halves: a slice of the strips
    assert np.array_equal(take_pixels(two, idx), two[:, idx])
    f = px.astype(np.float32)  # not bytes: plain indexing
    assert np.array_equal(take_pixels(f, idx), f[:, idx])
