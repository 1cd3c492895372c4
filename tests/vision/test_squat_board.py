"""A squat board (the finder's flattest aspect) lays its fifth checker's slot past the strip's
end: a slot with no pixels, which the odd-tops test once summed past its array (IndexError:
every read of such a profile failed)."""

from __future__ import annotations

import numpy as np

from calibration.calibrate import START, learn_discs
from calibration.find import ASPECT
from calibration.learn import learn
from tests.scenes.scene import Scene, State, random_setup
from vision import read
from vision.discs import Slots
from vision.geometry import BoardShape
from vision.oddtops import slot_shares


def test_an_empty_slot_has_no_foreign_share() -> None:
    slots = Slots([0.5, 1.5, 2.5], [np.array([0, 1]), np.array([2, 3, 4]), np.array([], int)],
                  [np.zeros(2, int), np.zeros(3, int), np.zeros(0, int)])
    foreign = np.array([[1, 0, 1, 1, 1], [0, 0, 0, 0, 1]], bool)
    assert np.allclose(slot_shares(foreign, slots), [[0.5, 1.0, 0.0], [0.0, 1 / 3, 0.0]])


def test_a_squat_profile_reads() -> None:
    scene = Scene(random_setup(1007))
    img, tr = scene.render(State(START))
    shape = BoardShape(aspect=ASPECT[0], bar=0.03)
    # (learned directly: the scene's board is not that squat, so calibrate() would refuse it)
    prof = learn(img, np.array(tr["board_corners_px"]), START, shape)
    prof.discs = learn_discs(img, prof, START)
    counts = read(img, prof).best_counts()
    assert sum(1 for c in counts if c is not None and c != (0, 0)) >= 6
