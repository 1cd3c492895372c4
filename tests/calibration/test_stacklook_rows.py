"""A colour's tops in the board row without its stack (``calibration.stacklook``, issue 9).

Long Nardi starts each side's fifteen checkers on one point, white's and black's in different
rows, so calibration learns a colour's tops in one row only and turns them half round for the
other. Tops are kept as under their row's mean light, which differs between the rows (tuning
700003, green_oak: the standard start's ivory tops are 139 in one row and 173 in the other,
BGR); the white stack's row lent its brighter tops, and lone whites in the other row read as
empty points (held-out Long Nardi 900002 and Plakoto 900002 lost their games to such misreads).
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.calibrate import calibrate
from calibration.stacklook import _rings, row_light
from engine import Position
from engine.observation import expected_counts
from tests.calibration.test_variant_start import _moved, _scene
from tests.scenes.scene import State
from vision.discs import TS
from vision.read import read
from vision.strips import strip_kinds


@pytest.fixture(scope="module")
def long_nardi_700003() -> tuple[object, Position, object]:
    scene, start, img, corners = _scene(700003, "long nardi")
    prof = calibrate(img, start, method="taps", corners=corners)
    return scene, start, prof


def test_the_rows_light_is_read_off_the_empty_points(long_nardi_700003) -> None:
    _scene, _start, prof = long_nardi_700003
    # the standard start's checkers on this board: ivory 1.24, brown 1.19 (top row / bottom)
    r = row_light(prof.discs, strip_kinds(prof.layout))
    assert 1.15 < r < 1.25, r
    # white's stack stands in the top row: the bottom row's ivory tops under the bottom row's
    # light (139 from the standard start; 171, the top row's, before)
    white = prof.discs.tops_bgr[0].mean((1, 2, 3))
    assert white[1] > 165 and white[0] < 146, white


def test_lone_whites_in_the_row_without_the_white_stack_read(long_nardi_700003) -> None:
    scene, start, prof = long_nardi_700003
    lay = prof.layout
    heads = [i for i, v in enumerate(start.points) if v]
    free = [i for i in range(24) if i not in heads and all(abs(i - h) > 1 for h in heads)]
    lone = dict(list({i: 1 if k % 2 == 0 else -1 for k, i in enumerate(free)}.items())[::3])
    pos = _moved(start, lone)
    img, _ = scene.render(State(pos, frame_seed=3))
    obs = read(img, prof, settled=False)
    exp = expected_counts(pos)
    white_row = lay.point_place(start.points.index(15) + 1)[1]
    other = [i for i, c in lone.items() if c == 1 and lay.point_place(i + 1)[1] != white_row]
    assert len(other) == 2  # points 1 and 7: read empty before (p 0.001, 0.005)
    for i in other:
        assert obs.regions[i].get(exp[i], 0.0) > 0.9, (i + 1, obs.regions[i])
    assert all(obs.best_counts()[i] == exp[i] for i in lone)


def test_rings_pool_a_template_round_its_centre() -> None:
    a = np.zeros((TS * TS, 1))
    a[0, 0] = 4.0  # a corner cell: its ring holds the other three corners too
    pooled = _rings(a)
    corners = [0, TS - 1, TS * (TS - 1), TS * TS - 1]
    assert all(pooled[c, 0] == 4.0 for c in corners)
    assert pooled[TS * TS // 2, 0] == 0.0
    assert _rings(a, high=True)[TS * TS - 1, 0] == 4.0
