"""The long edges from the columns' first checkers (calibration.edges): a found quad that runs
past the bottom edge is pulled back onto it; a hand's false discs do not tilt an edge."""

from __future__ import annotations

import numpy as np

from calibration.edges import first_columns, fit_long_edges, fit_row_ends

W, H, BAR = 1200.0, 1000.0, 0.08
PW = (1 - BAR) / 12 * W
R = 0.45 * PW
TRUE = np.float64([[0, 0], [W, 0], [W, H], [0, H]])


def _x(c: int) -> float:
    return (c + 0.5) * PW + (BAR * W if c >= 6 else 0.0)


def _discs(cols_top: list[int], cols_bottom: list[int]) -> np.ndarray:
    d = [(_x(c), 1.05 * R, R) for c in cols_top]
    d += [(_x(c), H - 1.05 * R, R) for c in cols_bottom]
    d += [(_x(c), H - 3.05 * R, R) for c in cols_bottom]  # second checkers
    return np.asarray(d)


def test_overshooting_bottom_pulled_back():
    discs = _discs([0, 4, 6, 11], [0, 4, 6, 11])
    found = TRUE.copy()
    found[2:, 1] += 0.7 * R * 2  # the quad runs past the bottom by 0.7 diameters
    got = fit_long_edges(found, BAR, discs)
    assert np.abs(got - TRUE).max() < 2.0, got


def test_tilted_edge_recovered():
    discs = _discs([0, 3, 7, 10], [1, 5, 8, 11])
    found = TRUE.copy()
    found[2, 1] += 40  # bottom-right corner low: the bottom edge tilted
    got = fit_long_edges(found, BAR, discs)
    assert np.abs(got - TRUE).max() < 3.0, got


def test_a_hand_does_not_move_an_edge():
    discs = _discs([0, 5, 6, 7], [])
    hand = np.array([[_x(1), 2.4 * R, R], [_x(2), 2.6 * R, R], [_x(3), 2.5 * R, R]])
    got = fit_long_edges(TRUE, BAR, np.r_[discs, hand])
    assert np.abs(got - TRUE).max() < 2.0, got
    # too few columns: nothing moves
    few = TRUE.copy()
    few[:2, 1] -= 30
    assert np.allclose(fit_long_edges(few, BAR, _discs([0, 5], [])), few)


def test_far_row_shorter_under_perspective():
    """A camera low in front: the far (top) row is shorter than the found rectangle says; its
    first checkers pull the top corners in, and the near row stays as it is."""
    import cv2

    true = np.float64([[80, 0], [W - 80, 0], [W, H], [0, H]])
    M = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]),
                                    true.astype(np.float32))
    cols = [0, 2, 4, 7, 9, 11]
    pw = (1 - BAR) / 12
    u = np.array([(c + 0.5) * pw + (BAR if c >= 6 else 0.0) for c in cols])
    r_unit = 0.45 * pw  # the radius in unit widths (the unit square is W x H here: about so)
    top = np.c_[u, np.full(len(u), 1.05 * r_unit * W / H)]
    bottom = np.c_[u, 1 - np.full(len(u), 1.05 * r_unit * W / H)]
    xy = cv2.perspectiveTransform(np.r_[top, bottom].reshape(-1, 1, 2), M).reshape(-1, 2)
    discs = np.c_[xy, np.full(len(xy), R)]
    got = fit_row_ends(TRUE, BAR, discs)
    assert np.abs(got[:2, 0] - true[:2, 0]).max() < 15, got
    assert np.abs(got[2:] - TRUE[2:]).max() < 15, got


def _first_row(cols: list[int], top: bool) -> np.ndarray:
    return np.asarray([(_x(c), 1.05 * R if top else H - 1.05 * R, R) for c in cols])


def test_bar_off_the_found_middle_recovered():
    """A found quad too narrow and off to one side (an arm over the board pulled the pattern
    model): its middle is more than a percent of the width off the bar; the rows' first
    checkers stretch and shift both rows' ends back."""
    discs = np.r_[_first_row([0, 2, 5, 10, 11], True), _first_row([0, 1, 4, 9, 11], False)]
    found = TRUE.copy()
    found[[0, 3], 0] += 0.02 * W  # 2 % of the width in on the left, 6 % on the right
    found[[1, 2], 0] -= 0.06 * W
    got = fit_row_ends(found, BAR, discs)
    assert np.abs(got - TRUE).max() < 0.1 * PW, got


def test_row_with_too_few_checkers_takes_the_other_rows_stretch():
    """The top row shows two first checkers only (an arm hides the others): it takes the
    bottom row's stretch, which its two checkers fit better than the ends as found."""
    discs = np.r_[_first_row([0, 11], True), _first_row([0, 1, 4, 9, 11], False)]
    found = TRUE.copy()
    found[[0, 3], 0] += 0.02 * W
    found[[1, 2], 0] -= 0.06 * W
    got = fit_row_ends(found, BAR, discs)
    assert np.abs(got - TRUE).max() < 0.1 * PW, got
    # two checkers that the other row's stretch would put off their columns keep their ends
    odd = np.r_[np.asarray([(found[0, 0] + 0.5 * PW, 1.05 * R, R),
                            (found[1, 0] - 0.5 * PW, 1.05 * R, R)]),
                _first_row([0, 1, 4, 9, 11], False)]
    got = fit_row_ends(found, BAR, odd)
    assert np.abs(got[:2] - found[:2]).max() < 1e-6, got


def test_first_columns_counts_each_rows_first_checkers():
    """Columns with a first checker near each long edge; a stack whose first checkers were
    missed (its discs start far from the edge) and a quad running far past an edge count
    none there."""
    discs = _discs([0, 4, 6, 11], [1, 2, 9])
    assert first_columns(TRUE, BAR, discs) == (4, 3)
    deep = np.r_[discs[:1], [(_x(7), 7.05 * R, R)]]  # only a fourth checker on column 7
    assert first_columns(TRUE, BAR, deep) == (1, 0)
    past = TRUE.copy()
    past[:2, 1] -= 4 * R * 2  # the top edge four diameters above the first checkers
    assert first_columns(past, BAR, discs)[0] == 0
    assert first_columns(TRUE, BAR, None) == (0, 0)


def test_two_far_columns_shift_an_edge_level():
    """A row whose first checkers show in two columns only, at its two ends (a red set's
    stacks between them show no grey edge: real photo dices6's top row): the two place the
    edge when they agree on its depth, level; two near each other, or disagreeing, do not."""
    found = TRUE.copy()
    found[:2, 1] -= 30  # the quad's top edge 30 px out
    bottom = [0, 4, 6, 11]  # the bottom row where it is
    got = fit_long_edges(found, BAR, _discs([0, 11], bottom))
    assert np.abs(got - TRUE).max() < 2.0, got
    assert np.allclose(fit_long_edges(found, BAR, _discs([0, 6], bottom)), found)  # too near
    apart = _discs([0, 11], bottom)
    apart[1, 1] += 0.5 * 2 * R  # the two half a diameter apart in depth: no edge
    assert np.allclose(fit_long_edges(found, BAR, apart), found)
