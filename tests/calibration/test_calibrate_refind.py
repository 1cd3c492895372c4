"""Calibration without taps from a variant's start: the finder's second answer (its edge
search, ``calibration.refind``) is tried when the position check refuses the first quad."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import calibrate as cal
from calibration.calibrate import calibrate
from calibration.refind import other_quads
from engine.observation import expected_counts
from engine.rules import by_name, game_rules
from tests.scenes.footage import game_frames
from tests.scenes.scene import State
from vision.read import read


def _start(seed: int, rules: str) -> tuple[np.ndarray, np.ndarray, object]:
    scene, _game, _it = game_frames(seed, "normal", 960, 540, max_turns=1, rules=rules)
    start = game_rules(by_name(rules), 1).start
    img, truth = scene.render(State(start))
    return img, np.array(truth["board_corners_px"], float), start


def _off(q: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance between two quads, over the ways one lists the other."""
    return min(float(np.abs(np.roll(o, k, 0) - truth).max())
               for o in (q, q[::-1]) for k in range(4))


@pytest.mark.parametrize(("rules", "seed"), [("fevga", 700000)])
def test_a_variant_start_the_grid_misleads_calibrates_from_the_edges(rules: str, seed: int
                                                                      ) -> None:
    """A tuning render whose checker grid leads the finder to a quad that is no board (747 px
    off): the position check refuses it because the board's drawn lines are not where it
    puts them, the edge search finds the board, and the profile reads the start's two stacks
    where they are. (Plakoto 700010 showed this until argsort became stable, ef4db28: its grid
    now finds the board.)"""
    img, truth, start = _start(seed, rules)
    wrong = cal.board_corners(img, "auto")
    assert _off(np.asarray(wrong, float), truth) > 50.0
    with pytest.raises(cal.PositionMismatch, match="lines"):
        cal._calibrate_at(img, start, wrong, "auto", None, None)
    q = other_quads(img)[0]  # the edge search first
    assert _off(q, truth) < 12.0
    prof = calibrate(img, start)
    best = read(img, prof, settled=False).best_counts()
    for i, (w, b) in enumerate(expected_counts(start)[:24]):
        assert best[i] is not None and ((best[i][0] > 0, best[i][1] > 0) == (w > 0, b > 0))
