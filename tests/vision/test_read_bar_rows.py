"""The bar's checker tops are the mean of both rows' (``DiscModel.rows_mixed``,
``vision.read.BAR_ROWS``): a glossy top's highlight differs between the rows the camera sees it
from, and the bar lies between them. Tuning seeds (the benchmark holds out 900000+)."""

from __future__ import annotations

import copy

import numpy as np

from tests.vision.tapped import tapped_frame
from vision import read
from vision.discs import TS

READ = __import__("vision.read", fromlist=["read"])


def test_rows_mixed_averages_a_row_with_the_other_mirrored() -> None:
    """Row r's tops become the mean of row r's and row 1 - r's mirrored along the strip."""
    prof, _img, _tr = tapped_frame(700006, 3)
    d = prof.discs
    m = d.rows_mixed()
    a = d.tops_bgr.reshape(2, 2, 2, TS, TS, 3)
    want = (a[:, 0] + a[:, 1, :, ::-1]) / 2
    assert np.allclose(m.tops_bgr.reshape(2, 2, 2, TS, TS, 3)[:, 0], want, atol=1e-3)
    assert np.allclose(m.mean.reshape(2, 2, TS, TS, 3)[:, 1],
                       (d.mean.reshape(2, 2, TS, TS, 3)[:, 1]
                        + d.mean.reshape(2, 2, TS, TS, 3)[:, 0, ::-1]) / 2, atol=1e-3)
    assert m.bg_mean is d.bg_mean  # the empty looks are the model's own


def _bars(monkeypatch, on: bool) -> tuple:  # noqa: ANN001
    prof, img, tr = tapped_frame(700006, 3)
    monkeypatch.setattr(READ, "BAR_ROWS", on)
    p = copy.deepcopy(prof)
    p._cache.clear()
    obs = read(img, p)
    return obs.best_counts()[24], obs.best_counts()[25], tr


def test_a_pearl_white_on_the_bar_is_not_read_black(monkeypatch) -> None:  # noqa: ANN001
    """Tuning 700006 frame 3 (navy pearl, close-toned pearl checkers, a hand in view): white's
    one on the bar is not read as black's with the rows' mean tops (white's bar is unseen
    under the hand, black's read empty); by the top row's tops alone (their highlight brighter
    than a white on the bar shows) it read as a black one, certain of it."""
    w, b, tr = _bars(monkeypatch, True)
    assert tr["hand"] and tr["position"]["bar"] == {"white": 1, "black": 0}
    assert w in (None, (1, 0)) and b == (0, 0)
    w, b, _tr = _bars(monkeypatch, False)
    assert w == (0, 0) and b == (0, 1)
