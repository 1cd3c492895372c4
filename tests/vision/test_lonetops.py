"""Checker tops relearned from lone checkers (``vision.lonetops``, issue 9): a profile calibrated
at a variant's start learned its tops from tall stacks, which look otherwise than a lone checker
(tuning seed 700011: white learned at L ~236, a lone white shows ~255, and one read empty until
calibration also learned BGR tops from the stacks)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from engine import Position
from engine.observation import expected_counts
from engine.rules import by_name, game_rules
from tests.calibration.test_variant_start import _moved
from tests.scenes.footage import game_frames
from tests.scenes.scene import State
from vision.lonetops import LONE_FRAMES
from vision.read import read


@pytest.fixture(scope="module")
def plakoto_700011() -> tuple[object, Position, object]:
    scene, _game, _it = game_frames(700011, "normal", 960, 540, max_turns=1, rules="plakoto")
    start = game_rules(by_name("plakoto"), 1).start
    img, truth = scene.render(State(start))
    prof = calibrate(img, start, method="taps",
                     corners=np.array(truth["board_corners_px"], float))
    return scene, start, prof


def test_a_settled_read_sure_of_lone_checkers_relearns_the_tops(plakoto_700011) -> None:
    scene, start, prof = plakoto_700011
    assert prof.meta["stack_tops"] == [1, 2]  # both colours' tops came from the stacks
    white_L = float(prof.discs.mean[0, :, :, 0].mean())
    heads = [i for i, v in enumerate(start.points) if v]
    free = [i for i in range(24) if i not in heads and all(abs(i - h) > 1 for h in heads)]
    lone = {free[0]: 1, free[5]: -1, free[10]: 1, free[15]: -1, free[17]: 1}
    pos = _moved(start, lone)
    img, _ = scene.render(State(pos, frame_seed=3))
    exp = expected_counts(pos)
    # the BGR tops calibration learns from the stacks (clipped whites put back, lit under each
    # pixel's light: calibration.stacklook.stack_tops_bgr) read every lone checker right (the
    # relit Lab tops alone read one lone white as empty); an unsettled read learns nothing
    before = read(img, prof, settled=False).best_counts()
    assert prof.discs.tops_bgr is not None
    assert all(before[i] == exp[i] for i in lone), [(i, before[i]) for i in lone]
    assert float(prof.discs.mean[0, :, :, 0].mean()) == white_L
    # a settled read is sure of the lone checkers and relearns both colours' Lab tops (what a
    # colour too dark for BGR tops is read by)
    read(img, prof, settled=True)
    assert float(prof.discs.mean[0, :, :, 0].mean()) > white_L + 10
    after = read(img, prof, settled=False).best_counts()
    assert all(after[i] == exp[i] for i in lone), [(i, after[i]) for i in lone]
    # after LONE_FRAMES settled frames the tops are kept
    for k in range(LONE_FRAMES - 1):
        read(scene.render(State(pos, frame_seed=4 + k))[0], prof, settled=True)
    assert prof.meta["stack_tops"] == []
    kept = prof.discs.mean.copy()
    read(scene.render(State(pos, frame_seed=9))[0], prof, settled=True)
    assert np.array_equal(prof.discs.mean, kept)


def test_a_standard_start_profile_has_no_stack_tops(plakoto_700011) -> None:
    scene = plakoto_700011[0]  # the standard start on the same board, as bench_variant_vision
    img, truth = scene.render(State(START))
    prof = calibrate(img, None, method="taps", corners=np.array(truth["board_corners_px"], float))
    assert "stack_tops" not in prof.meta
    tops = prof.discs.mean.copy()
    read(img, prof, settled=True)
    assert np.array_equal(prof.discs.mean, tops)
