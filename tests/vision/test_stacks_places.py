"""The bar and tray mask sets put checkers where the scene renderer (``tests/scenes``) lays them:
bar checkers a diameter out from the bar's centre and on one diameter apart (their rims clear
of a centred cube), borne-off checkers on edge packed from the tray's end; the bar's slot
centres (``discs.bar_dists``) are the bar masks' own."""

from __future__ import annotations

import numpy as np
import pytest

from tests.scenes.board import BoardGeometry
from vision.discs import bar_dists
from vision.geometry import BoardShape, Layout
from vision.stacks import MAX_BAR, bar_masks, tray_masks
from vision.strips import SW, strip_length


@pytest.fixture(scope="module")
def lay() -> Layout:
    return Layout(BoardShape())


def _centroids(ms, lay: Layout, width: float, n: int) -> list[tuple[float, float]]:  # noqa: ANN001
    """(across, along) centroid, in checker diameters, of each checker of an n-stack that shows
    in full (a checker covered by a later one is skipped: its visible part is not centred)."""
    L = strip_length(lay)
    v = ((np.arange(L) + 0.5) / L * (lay.H / 2))[:, None] * np.ones((1, SW))
    u = (((np.arange(SW) + 0.5) / SW - 0.5) * width)[None, :] * np.ones((L, 1))
    out = []
    for col in ms.col_of[n]:
        m = ms.A[:, col].reshape(L, SW) > 0
        out.append((float(u[m].mean() / lay.d), float(v[m].mean() / lay.d)))
    return out


def test_bar_first_row_is_where_the_renderer_lays_it(lay: Layout) -> None:
    g = BoardGeometry()
    rendered = [abs(y) / g.d for _x, y, _layer in g.bar_slots(True, MAX_BAR)]
    assert bar_dists(lay, MAX_BAR) == pytest.approx(rendered, abs=0.01)
    assert rendered[0] == pytest.approx(1.0)


def test_bar_slots_are_the_bar_masks_centres(lay: Layout) -> None:
    ms = bar_masks(lay)
    per = int((lay.H / 2 - lay.d * 0.5) // lay.d)  # the first row: those fully shown
    cen = _centroids(ms, lay, lay.pw, per)
    dists = bar_dists(lay, per)
    for (across, along), d in zip(cen, dists, strict=True):
        assert abs(across) < 0.02
        assert along == pytest.approx(d, abs=0.03)


def test_tray_checkers_are_where_the_renderer_stands_them(lay: Layout) -> None:
    g = BoardGeometry()
    width = lay.shape.tray * lay.W
    ms = tray_masks(lay)
    edge = g.H / 2
    rendered = [(edge - y) / g.d for _x, y in g.off_slots(True, 15)]
    cen = _centroids(ms, lay, width, 15)
    for (across, along), want in zip(cen, rendered, strict=True):
        assert abs(across) < 0.02
        assert along == pytest.approx(want, abs=0.03)
    # across the tray: the rim's lit top (a third of a diameter either way), within the tray
    L = strip_length(lay)
    u = ((np.arange(SW) + 0.5) / SW - 0.5) * width
    cols = np.flatnonzero(ms.A[:, ms.col_of[1][0]].reshape(L, SW).any(0))
    assert 0.28 * lay.d <= np.abs(u[cols]).max() <= 0.34 * lay.d
    assert width >= lay.d
