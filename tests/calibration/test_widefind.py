"""The wider look for calibration (calibration.widefind): a variant's start, whose checker grid
the texture's small discs mislead, found and calibrated automatically (issue 9: calibration
learns each variant's start position)."""

from __future__ import annotations

import numpy as np

from bench.bench_calibrate import variant_start_frame
from calibration.calibrate import calibrate
from calibration.discs import Discs
from calibration.find import find_board
from calibration.widefind import checkers_at
from engine.rules import by_name, game_rules
from tests.calibration.test_find import corner_error


def _discs(xy: list[tuple[float, float]], r: list[float]) -> Discs:
    n = len(r)
    return Discs(np.asarray(xy, float), np.asarray(r, float), np.ones(n), np.zeros((n, 3)))


def test_checkers_at_keeps_the_discs_of_the_radius_asked() -> None:
    # a row of four large touching discs along a 30 degree line, a row of small ones along x
    big = [(100 + 20 * k * np.cos(np.pi / 6), 100 + 20 * k * np.sin(np.pi / 6)) for k in range(4)]
    small = [(50 + 8 * k, 300.0) for k in range(6)]
    d = _discs(big + small, [10.0] * 4 + [4.0] * 6)
    ch = checkers_at(d, 10.0)
    assert ch is not None and len(ch.discs) == 4 and ch.radius == 10.0
    assert abs(np.degrees(ch.angle) - 30.0) < 1.0
    ch = checkers_at(d, 4.0)
    assert ch is not None and len(ch.discs) == 6 and abs(ch.angle) < 1e-6
    assert checkers_at(d, 25.0) is None  # no pairs of that size


def test_a_plakoto_start_the_grid_misleads_is_calibrated() -> None:
    """Tuning render 700002, Plakoto's start at 960x540: the finder's quad lies 51 % of the
    diagonal off (the grid built at a texture disc's radius) and calibration was refused; the
    wider look's quad is 1.5 % off and calibrates."""
    img, truth = variant_start_frame(700002, "plakoto")
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    assert corner_error(find_board(img), truth) > 0.2 * diag  # the finder alone: far off
    prof = calibrate(img, game_rules(by_name("plakoto"), 1).start)
    assert corner_error(np.asarray(prof.corners), truth) < 0.025 * diag
