"""Calibration without taps (``gammoncam calibrate FRAME``) fits the found board's long edges to
the start position's first checkers (:mod:`calibration.calfit`) and keeps the fitted quad when
the position check reads the start better from it; the corner fit's cost computed fast
(``learn.FitCost``) and each of one find's quads fitted once."""

from __future__ import annotations

import numpy as np

import calibration.calibrate as cal
from calibration.calibrate import START, calibrate
from calibration.learn import FitCost, _fit_cost, _strips_lab, label_strips
from engine.rules import by_name, game_rules
from tests.calibration.test_find import corner_error
from tests.calibration.test_find_start import _start_frame
from vision.geometry import BoardShape, Layout
from vision.strips import strip_kinds


def test_start_frame_corners_fitted_to_first_checkers() -> None:
    # tuning seed 700019 (footage framing, 1280x720): the finder's quad 4.96 % of the diagonal
    # off, the profile's corners with the long edges fitted 1.57 %
    img, truth = _start_frame(700019)
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    prof = calibrate(img, START)
    assert prof.meta["method"] == "auto"
    assert corner_error(prof.corners, truth) < 0.018 * diag


def test_fit_cost_is_the_plain_cost() -> None:
    # FitCost (the corner fit's cost with the strips' grid and labels kept) against sampling
    # the strips and scoring them as written
    img, truth = _start_frame(700000)
    lay = Layout(BoardShape())
    labels, kinds = label_strips(lay, START)[:24], strip_kinds(lay)[:24]
    cost = FitCost(img, lay, START)
    rng = np.random.default_rng(0)
    for _ in range(4):
        c = truth + rng.normal(0.0, 6.0, (4, 2))
        assert cost(c) == _fit_cost(_strips_lab(img, lay, c, True)[:24], labels, kinds)
    coarse = FitCost(img, lay, START, every=2)
    n, length, width = cost.labels.shape
    assert coarse.labels.shape == (n, (length + 1) // 2, (width + 1) // 2)
    assert abs(coarse(truth) - cost(truth)) < 0.02


def test_one_finds_quads_are_fitted_once_and_the_wider_look_is_not_asked(monkeypatch) -> None:
    # tuning seed 700003 (a standard start): the finder gives three quads (polished, its long
    # edges fitted to the first checkers, the unpolished quad's fit); each is fitted once (the
    # check of the one picked reuses its fit), and the finder's quad passing the position
    # check, the wider look (about a second of CPU) is not asked
    img, truth = _start_frame(700003)
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    calls: list[int] = []
    real = cal.corner_fit

    def counted(*a, **k):  # noqa: ANN002, ANN003, ANN202
        calls.append(1)
        return real(*a, **k)

    def no_wider(*a, **k):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the wider look was asked")

    monkeypatch.setattr(cal, "corner_fit", counted)
    monkeypatch.setattr(cal, "wider_quads", no_wider)
    prof = calibrate(img, START)
    assert len(calls) == 3
    assert "corner_fit" in prof.meta
    assert corner_error(prof.corners, truth) < 0.012 * diag


def test_kept_fits_are_dropped_when_the_frame_changes_in_place(monkeypatch) -> None:
    # the fits are kept per frame: the same array filled again in place (a camera's buffer) or
    # another position is fitted afresh
    calls: list[int] = []

    def fake(frame, corners, pos, shape, trays_right, **kw):  # noqa: ANN001, ANN003, ANN202
        calls.append(1)
        return np.asarray(corners, np.float64), 0.2, 0.1

    monkeypatch.setattr(cal, "corner_fit", fake)
    frame = np.zeros((90, 160, 3), np.uint8)
    q = np.array([[10.0, 10.0], [150.0, 10.0], [150.0, 80.0], [10.0, 80.0]])
    shape = BoardShape()
    for _ in range(2):
        cal._corner_fit(frame, q, START, shape, True)
    assert len(calls) == 1
    frame[:] = 200
    cal._corner_fit(frame, q, START, shape, True)
    assert len(calls) == 2
    cal._corner_fit(frame, q, game_rules(by_name("plakoto"), 1).start, shape, True)
    assert len(calls) == 3
