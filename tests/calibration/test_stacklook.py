"""Checker tops learned from a variant start's stacks (``calibration.stacklook``): a row with no
stack of a colour takes the other row's tops mirrored along the strip, as the strips run
(``vision.strips.strip_grid``), and with ``STACK_CLIP`` the BGR tops carry the share of clipped
pixels each cell was seen with (``DiscModel.tops_clip``, as ``DiscModel.fit`` learns it from a
first row; off by default, as measured)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import stacklook
from calibration.calibrate import calibrate
from calibration.stacklook import mirrored
from engine.rules import by_name, game_rules
from tests.calibration.test_variant_start import _scene
from tests.vision.tapped import tapped_frame
from vision.discs import CLIPPED, TS, R
from vision.geometry import BoardShape, Layout
from vision.strips import SW, strip_grid, strip_length, strip_specs


def _variant_model(seed: int, rules: str):  # noqa: ANN202 - a DiscModel
    _sc, start, img, corners = _scene(seed, rules)
    return calibrate(img, start, method="taps", corners=corners).discs


def test_mirrored_puts_a_cell_where_the_other_rows_strip_shows_the_same_board_offset() -> None:
    """A cell's offset from its checker's centre on the board (strip_grid's coordinates, a
    strip pixel's step along and across each strip): the mirrored cell of the other row's
    strip lies at the same offset (a half turn would put it at the opposite one)."""
    lay = Layout(BoardShape())
    specs = strip_specs(lay)
    L = strip_length(lay)
    grid = strip_grid(lay, specs).reshape(len(specs), L, SW, 2)
    cells = np.arange(TS * TS)
    r, c = np.divmod(cells, TS)
    rm, cm = np.divmod(mirrored(cells), TS)
    for top, bottom in ((12, 11), (17, 6)):  # points one above the other
        assert specs[top].direction == 1 and specs[bottom].direction == -1

        def offset(i: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
            along, across = grid[i, 1, 0] - grid[i, 0, 0], grid[i, 0, 1] - grid[i, 0, 0]
            return (rows - R)[:, None] * along + (cols - R)[:, None] * across

        assert np.allclose(offset(top, r, c), offset(bottom, rm, cm))
        assert not np.allclose(offset(top, r, c), offset(bottom, TS - 1 - r, TS - 1 - c))


def test_the_rows_tops_are_one_mirror_apart_on_a_standard_start() -> None:
    """Tuning 1000, tops learned from both rows' first checkers (each under its row's mean
    light, less its mean colour): the bottom row's are the top row's mirrored along the strip
    (3.1 / 1.9 apart, white / black) far more than turned half round (13.5 / 10.3)."""
    prof, _img, _tr = tapped_frame(1000, 0)
    tops = prof.discs.tops_bgr
    assert tops is not None
    cells = np.arange(TS * TS)
    for c in (0, 1):
        a, b = tops[c, 0].mean(0), tops[c, 1].mean(0)
        a, b = a - a.mean(0), b - b.mean(0)
        mirror = np.abs(a - b[mirrored(cells)]).mean()
        turned = np.abs(a - b[TS * TS - 1 - cells]).mean()
        assert mirror < 0.4 * turned, (c, mirror, turned)


def _heads_rows(rules: str) -> list[tuple[int, int]]:
    """(colour 0 white | 1 black, the row of its stack: 1 top) at ``rules``' start, each
    colour's stack in one row."""
    start = game_rules(by_name(rules), 1).start
    lay = Layout(BoardShape())
    out = []
    for c, sign in ((0, 1), (1, -1)):
        (head,) = [i for i, v in enumerate(start.points) if v * sign > 0]
        out.append((c, int(lay.point_place(head + 1)[1])))
    return out


def test_a_row_without_a_stack_takes_the_other_rows_tops_mirrored() -> None:
    """Plakoto (tuning 700001): each side's fifteen on one point, one row each; the other row's
    BGR tops are that row's, cell for cell, mirrored along the strip; no clipped shares."""
    m = _variant_model(700001, "plakoto")
    assert m.tops_bgr is not None and m.tops_clip is None
    cells = np.arange(TS * TS)
    for c, rf in _heads_rows("plakoto"):
        for side in (0, 1):
            assert np.allclose(m.tops_bgr[c, 1 - rf, side],
                               m.tops_bgr[c, rf, side][mirrored(cells)]), (c, side)


def test_stack_tops_know_which_cells_calibration_saw_clipped(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """Long Nardi on a pearl board (tuning 700006), with STACK_CLIP: white tops are clipped
    where the light catches them (8.9 % of white's cells' pixels, some cells always), black's
    never; the row without a stack has the other's shares mirrored."""
    monkeypatch.setattr(stacklook, "STACK_CLIP", True)
    m = _variant_model(700006, "long nardi")
    assert m.tops_clip is not None and m.tops_bgr is not None
    white, black = m.tops_clip[0], m.tops_clip[1]
    assert white.mean() > 0.08 and white.max() > 0.95
    assert black.max() == 0.0
    # a cell seen clipped every time is at least the clip level in some channel
    full = white > 0.99
    assert full.any() and (m.tops_bgr[0][full].max(-1) >= CLIPPED * 0.9).all()
    cells = np.arange(TS * TS)
    for c, rf in _heads_rows("long nardi"):
        for side in (0, 1):
            assert np.allclose(m.tops_clip[c, 1 - rf, side],
                               m.tops_clip[c, rf, side][mirrored(cells)]), (c, side)
