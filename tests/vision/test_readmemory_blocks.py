"""``vision.blocks.block_means``: the one 4 x 4 block-mean signature of the reader memories."""

from __future__ import annotations

import numpy as np

from vision.blocks import block_means


def test_a_picture_gives_its_block_means() -> None:
    rng = np.random.default_rng(1)
    pic = rng.integers(0, 256, (8, 12, 3), dtype=np.uint8)
    want = pic.reshape(2, 4, 3, 4, 3).astype(float).mean(axis=(1, 3))
    got = block_means(pic)
    assert got.dtype == np.int16 and got.shape == (2, 3, 3)
    assert np.abs(got - want).max() <= 0.5


def test_a_stack_cuts_each_picture_to_whole_blocks() -> None:
    """Strips 10 long and 6 wide: each cut to 8 x 4, one block row per 4 rows of its own."""
    strips = np.zeros((3, 10, 6, 3), np.uint8)
    strips[1, :8, :4] = 200  # the second strip's whole blocks bright
    strips[0, 8:] = 255  # rows past the last whole block: not averaged into the next strip
    strips[2, :, 4:] = 255  # columns past the last whole block: cut
    got = block_means(strips)
    assert got.shape == (3, 2 * 1 * 3)
    assert (got[0] == 0).all() and (got[1] == 200).all() and (got[2] == 0).all()


def test_a_tiny_picture_gives_one_block() -> None:
    got = block_means(np.full((3, 2), 7, np.uint8))
    assert got.shape == (1, 1) and got[0, 0] == 7
