"""Borne-off checkers in a tray (``DiscModel.change_llr``): beside the flat "anything else", a
checker of the tray's colour (``tray_checker``), said nothing where that colour lies within the
tray floor's spread (``TRAY_ALIKE``), against a tray look spread by the trays' own noise
(``TRAY_NOISE``). Tuning seeds 1000+ (the benchmark holds out 900000+)."""

from __future__ import annotations

from functools import cache

import numpy as np

from calibration.calibrate import START, calibrate
from engine import Position
from engine.observation import BLACK_OFF, WHITE_OFF, expected_counts
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, State, random_setup
from vision import read
from vision.discs import TRAY_COLOUR


@cache
def _frames(seed: int, ks: tuple[int, ...]):
    setup = random_setup(seed)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    shots = []
    for k in range(max(ks) + 1):
        state = random_state(setup, seed * 100 + k)
        if k in ks:
            shots.append(scene.render(state))
    return prof, shots


def _tray_reads(seed: int, ks: tuple[int, ...]) -> list[tuple[tuple, tuple]]:
    prof, shots = _frames(seed, ks)
    out = []
    for img, tr in shots:
        obs = read(img, prof)
        exp = expected_counts(Position.from_json(tr["position"]))
        best = obs.best_counts()
        out.append(((best[WHITE_OFF], best[BLACK_OFF]), (exp[WHITE_OFF], exp[BLACK_OFF])))
    return out


def test_fifteen_black_checkers_on_a_black_tray_are_counted():
    """Tournament black, 1040 frame 2: fifteen black checkers stand in the black tray, their lit
    rims a few L over its floor (the flat "anything else" alone read the tray empty, sure)."""
    (got, want), = _tray_reads(1040, (2,))
    assert want == ((0, 0), (0, 15))
    assert got == want


def test_checkers_of_the_floors_shade_raise_no_phantoms():
    """Graphite leather, 1011: the black checkers' tops are the shade of the tray floor; the
    empty black tray stays empty (without TRAY_ALIKE it read fifteen)."""
    reads = _tray_reads(1011, (0, 1))
    for got, want in reads:
        assert want[1] == (0, 0)
        assert got[1] == (0, 0)


def test_the_tray_checker_colour_is_the_trays_own():
    prof, _ = _frames(1040, (2,))
    d = prof.discs
    assert TRAY_COLOUR == {26: 1, 27: 0}  # black's tray on top, white's at the bottom
    (mb, _, _), (mw, _, _) = d.tray_checker(1), d.tray_checker(0)
    assert mw[0] > mb[0] + 100  # white's tops far lighter than black's
