"""4 x 4 pixel block means: the cheap "same picture?" signature the reader memories compare.

One function for every memory that asks whether a picture changed since it was last read (the
checker strips, ``vision.readmemory``; the cube's strips, ``vision.readcache``; the dice
windows, ``vision.dice``): each 4 x 4 block's mean (``cv2.INTER_AREA``) as int16, so two
signatures subtract without wrapping. Camera and MJPG noise move a block mean by a few grey
levels, a checker, die or cube put down or taken up by tens.
"""

from __future__ import annotations

import cv2
import numpy as np


def block_means(pic: np.ndarray) -> np.ndarray:
    """int16 4 x 4 block means of ``pic``.

    A picture (H, W) or (H, W, C) gives (max(H // 4, 1), max(W // 4, 1)[, C]) (a side that is
    not a multiple of 4 is averaged over fractional blocks, as ``cv2.resize`` does). A stack of
    N pictures (N, H, W, C) gives (N, B): each picture cut to whole 4 x 4 blocks (so no block
    straddles two pictures), its block means flattened.
    """
    if pic.ndim == 4:
        n, h, w, c = pic.shape
        h4, w4 = h - h % 4, w - w % 4
        flat = np.ascontiguousarray(pic[:, :h4, :w4]).reshape(n * h4, w4, c)
        return block_means(flat).reshape(n, -1)
    h, w = pic.shape[:2]
    return cv2.resize(pic, (max(w // 4, 1), max(h // 4, 1)),
                      interpolation=cv2.INTER_AREA).astype(np.int16)
