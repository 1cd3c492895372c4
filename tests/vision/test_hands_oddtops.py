"""Checkers unlike the learned tops are no hand (``vision.oddtops``, ``vision.read.ODD_TOPS``;
issue 9): a variant's profile learns each colour's tops from one tall stack, and a lone checker
or a short run that does not look like them is foreign from its base to its round end, past
``HAND_BLOB`` or ``HAND_FRONT``, so the reader called a hand on every frame it lay there
(held-out Plakoto and Long Nardi 900002). A hand keeps its straight or ragged edge and shows on
the point beside it. Tuning seeds only (the benchmarks hold out 900000+)."""

from __future__ import annotations

import importlib
from functools import cache

import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from engine.rules import by_name, game_rules
from tests.calibration.test_variant_start import _moved
from tests.scenes.footage import game_frames
from tests.scenes.scene import Scene, State, random_setup
from vision import oddtops
from vision.oddtops import checker_runs, slot_shares
from vision.readmemory import forget
from vision.strips import N_STRIPS, SW, sample

R = importlib.import_module("vision.read")  # the module (``vision.read`` names the function)


@cache
def _prepared() -> tuple[dict, np.ndarray]:
    """A standard profile's prepared strips (tuning 1007) and each disc pixel's strip pixel."""
    scene = Scene(random_setup(1007))
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    prep = R.prepared(prof, (img0.shape[1], img0.shape[0]))
    R.disc_evidence(sample(img0, prep["maps"], N_STRIPS), prof, prep)  # gathers the slots
    return prep, prep["counter"].slots.all_idx


def _checkers(point: int, ks: list[int]) -> np.ndarray:
    """A foreign map where ``point``'s first-row checkers ``ks`` (0: at the edge) are foreign:
    every slot's pixels on their discs."""
    prep, every = _prepared()
    slots = prep["counter"].slots
    first = [s for s, d in enumerate(slots.dists) if abs(d - 0.525 - round(d - 0.525)) < 1e-3]
    on = np.concatenate([slots.idx[first[k]] for k in ks])
    out = np.zeros((24, len(every)), bool)
    out[point] = np.isin(every, on)
    return out


def _arm(edges: dict[int, float]) -> np.ndarray:
    """A foreign map of an arm over the points of ``edges`` from their edge to that many strip
    rows, a straight edge across each strip."""
    _prep, every = _prepared()
    out = np.zeros((24, len(every)), bool)
    for i, rows in edges.items():
        out[i] = every // SW < rows
    return out


def _hand(foreign: np.ndarray) -> bool:
    """The reader's hand call on this foreign map, with the odd tops taken out."""
    prep, _ = _prepared()
    counter = prep["counter"]
    f, blob, raw = R._odd_tops_out(foreign, prep)
    assert blob == R._blob(f, prep) and raw == R._blob(foreign, prep)
    front = np.count_nonzero(f[:, counter.front_idx], axis=1) / counter.front_n
    return bool(blob > R.HAND_BLOB or front.max() > R.HAND_FRONT)


@pytest.mark.parametrize("ks", [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3, 4]])
def test_a_run_of_foreign_checkers_is_no_hand(ks: list[int]) -> None:
    """One, two, three or five checkers from the base, wholly foreign: each alone is past the hand's
    tests as they were (the solid patch or the front); their run is found and taken out."""
    prep, _ = _prepared()
    foreign = _checkers(7, ks)
    counter = prep["counter"]
    front = np.count_nonzero(foreign[:, counter.front_idx], axis=1) / counter.front_n
    assert R._blob(foreign, prep) > R.HAND_BLOB or front.max() > R.HAND_FRONT
    runs = checker_runs(slot_shares(foreign, counter.slots), counter.slots)
    assert len(runs[7]) == len(ks) and not any(runs[:7] + runs[8:])
    assert not _hand(foreign)


def test_an_arm_over_two_points_stays_a_hand() -> None:
    """An arm coming in at a slant over two neighbouring points (its edge 10 strip rows further
    along one), over at least an eighth of the strips (a solid patch on both): a hand wherever
    it was one without the rule, also where its edge on one point ends like a checker's (the
    point beside it shows the arm, more than ``NEIGHBOUR_BLOB``)."""
    prep, _ = _prepared()
    slots = prep["counter"].slots
    L = prep["lab"].shape[1] // SW
    seen = looked_like_runs = 0
    for rows in np.arange(0.125, 0.5, 0.005) * L:
        foreign = _arm({7: rows, 8: rows + 10})
        if R._blob(foreign, prep) > R.HAND_BLOB:
            seen += 1
            looked_like_runs += any(checker_runs(slot_shares(foreign, slots), slots))
            assert _hand(foreign), rows
    assert seen > 40 and looked_like_runs > 5


@pytest.mark.parametrize("pair", [True, False])
def test_a_straight_arm_over_two_points_is_a_hand(monkeypatch, pair: bool) -> None:  # noqa: ANN001
    """A straight arm edge over two points that falls where a checker's round end would looks
    like a run of odd checkers on both: two solid runs of one length side by side are an arm
    (``PAIR_ARM``); without that, those edges are missed (and only those)."""
    monkeypatch.setattr(R, "PAIR_ARM", pair)
    prep, _ = _prepared()
    slots = prep["counter"].slots
    L = prep["lab"].shape[1] // SW
    missed = seen = both_runs = 0
    for rows in np.arange(0.05, 0.5, 0.005) * L:
        foreign = _arm({7: rows, 8: rows})
        if R._blob(foreign, prep) <= R.HAND_BLOB:
            continue
        seen += 1
        runs = checker_runs(slot_shares(foreign, slots), slots)
        both_runs += bool(runs[7] and runs[8])
        missed += not _hand(foreign)
        if not (runs[7] and runs[8]):
            assert _hand(foreign), rows
    assert seen > 40 and both_runs > 20
    assert missed == (0 if pair else both_runs)


def test_checkers_beside_checkers_are_no_hand() -> None:
    """Odd-looking runs of different lengths on two neighbouring points: each run taken out,
    the other's run is no solid patch beside it. Runs of one length side by side are taken
    for an arm's straight edge (``PAIR_ARM``): the rule's price, pinned here."""
    assert not _hand(_checkers(7, [0]) | _checkers(8, [0, 1]))
    assert _hand(_checkers(7, [0]) | _checkers(8, [0]))


@cache
def _plakoto() -> tuple[object, np.ndarray, object]:
    """Tuning Plakoto 700000 calibrated at its start by tapped corners, and a frame of a
    position with lone checkers and runs of three taken off the stacks."""
    scene, _game, _it = game_frames(700000, "normal", 960, 540, max_turns=1, rules="plakoto")
    start = game_rules(by_name("plakoto"), 1).start
    img, truth = scene.render(State(start))
    prof = calibrate(img, start, method="taps",
                      corners=np.array(truth["board_corners_px"], float))
    pos = _moved(start, {3: -1, 6: 1, 10: -3, 14: 3})
    frame, tr = scene.render(State(pos, frame_seed=2))
    assert not tr["hand"]
    return prof, frame, pos


@pytest.mark.parametrize("odd", [True, False])
def test_a_plakoto_run_of_three_is_no_hand(monkeypatch, odd: bool) -> None:  # noqa: ANN001
    """Plakoto 700000: black's three on point 11 (index 10) are foreign (tops learned from the
    fifteen): a hand without the rule, none with it; the three read as three either way."""
    prof, frame, pos = _plakoto()
    monkeypatch.setattr(R, "ODD_TOPS", odd)
    forget(prof)
    obs = R.read(frame, prof, settled=False)
    assert obs.hand != odd
    if odd:  # only the hand's tests look past the run: its front as it is stays for hiding
        prep = R.prepared(prof, (frame.shape[1], frame.shape[0]))
        disc = R.disc_evidence(sample(frame, prep["maps"], N_STRIPS), prof, prep)
        assert disc.hand_front[10] < 0.2 < disc.foreign[10]
    assert pos.points[10] == -3
    r = obs.regions[10]
    assert r is not None and max(r.items(), key=lambda kv: kv[1])[0] == (0, 3)


def test_a_run_whose_last_checker_is_partly_foreign_is_no_hand() -> None:
    """Two checkers from the base, the second only partly foreign (its near side matches the
    tops: tuning footage 1025, two blacks in the board's brightest light, 97 % and 54 %
    foreign): the run is found (``RUN_LAST``); a lone checker that partly foreign is not a run,
    nor is a run whose first checker is."""
    prep, every = _prepared()
    slots = prep["counter"].slots
    first, half = oddtops._index(slots)
    foreign = _checkers(7, [0, 1])
    second = np.isin(every, slots.idx[first[1]])
    beyond = np.isin(every, slots.idx[half[1]])
    foreign[7, second & ~beyond] = False  # the second checker's side nearer the base matches
    shares = slot_shares(foreign, slots)[7]
    assert oddtops.RUN_PART <= shares[first[1]] < oddtops.RUN_SURE  # partly foreign
    assert shares[first[0]] >= oddtops.RUN_SURE
    assert len(checker_runs(slot_shares(foreign, slots), slots)[7]) == 2
    assert not _hand(foreign)
    both = _checkers(7, [0, 1])  # the same thinning on the first: no run
    on_first = np.isin(every, slots.idx[first[0]])
    both[7, on_first & ~np.isin(every, slots.idx[half[0]])] = False
    assert slot_shares(both, slots)[7][first[0]] < oddtops.RUN_SURE
    assert not checker_runs(slot_shares(both, slots), slots)[7]
    lone = _checkers(7, [0])
    lone[7, on_first & ~np.isin(every, slots.idx[half[0]])] = False
    assert not checker_runs(slot_shares(lone, slots), slots)[7]
