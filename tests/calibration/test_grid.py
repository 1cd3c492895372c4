"""The checkers' grid (calibration.grid): from the discs of a drawn position the candidates hold
the true playing area (its axis, long edges, point width and column phase), and the disc cover
counts discs inside quads of either winding."""

from __future__ import annotations

import numpy as np

from calibration.discs import Checkers, Discs
from calibration.grid import _inside, grid_candidates

W, H, BAR = 560.0, 470.0, 0.07  # working pixels (the finder's 640-wide image)
PW = (1 - BAR) / 12 * W
R = 0.45 * PW
X0, Y0 = 40.0, 60.0


def _board_discs() -> Discs:
    stacks = {(True, 0): 5, (True, 4): 3, (True, 6): 5, (True, 11): 2,
              (False, 0): 5, (False, 4): 3, (False, 6): 5, (False, 11): 2}
    xy = []
    for (top, c), n in stacks.items():
        x = X0 + (c + 0.5) * PW + (BAR * W if c >= 6 else 0.0)
        for k in range(n):
            d = 1.05 * R + 2 * R * k
            xy.append((x, Y0 + d if top else Y0 + H - d))
    xy = np.asarray(xy)
    n = len(xy)
    return Discs(xy, np.full(n, R), np.ones(n), np.zeros((n, 3)))


def test_candidates_hold_the_true_area():
    d = _board_discs()
    ch = Checkers(d, R, 0.0, 10)
    true = np.float64([[X0, Y0], [X0 + W, Y0], [X0 + W, Y0 + H], [X0, Y0 + H]])
    cands = grid_candidates(ch, (640, 600))
    assert cands
    err = min(np.abs(q - true).max() for q, _b, _fit in cands)
    assert err < 0.25 * PW, err
    # the true area is among the few best by column fit
    best = max(fit for _q, _b, fit in cands)
    near = [fit for q, _b, fit in cands if np.abs(q - true).max() < 0.25 * PW]
    assert max(near) >= 0.9 * best


def test_inside_counts_either_winding():
    sq = np.float64([[0, 0], [10, 0], [10, 10], [0, 10]])
    pts = np.float64([[5, 5], [1, 9], [11, 5], [-1, -1]])
    got = _inside(np.stack([sq, sq[::-1]]), pts)
    assert list(got) == [2, 2]


def test_a_row_of_one_checker_still_gives_an_edge():
    """An arm hides the top row but one stack's first checker: the candidates still hold the
    true playing area (its top edge from that lone disc)."""
    d = _board_discs()
    keep = (d.xy[:, 1] > Y0 + H / 2) | (np.abs(d.xy[:, 1] - (Y0 + 1.05 * R)) < 1)
    keep &= (d.xy[:, 1] > Y0 + H / 2) | (d.xy[:, 0] > X0 + W / 2)  # the top row's right end only
    top = d.xy[:, 1] < Y0 + H / 2
    assert keep[top].sum() == 2 and (d.xy[keep & top, 1] < Y0 + 1.1 * R).sum() == 2
    keep[np.nonzero(keep & top)[0][1:]] = False  # one lone disc in the top row
    sub = d.take(keep)
    ch = Checkers(sub, R, 0.0, 10)
    true = np.float64([[X0, Y0], [X0 + W, Y0], [X0 + W, Y0 + H], [X0, Y0 + H]])
    err = min(np.abs(q - true).max() for q, _b, _fit in grid_candidates(ch, (640, 600)))
    assert err < 0.25 * PW, err
