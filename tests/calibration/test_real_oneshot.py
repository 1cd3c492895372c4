"""One-shot reading of the real photos (read from ../shared/real, never copied): the board is
found in every photo and the points read at least as well as measured (best of the four
orientations, "?" skipped). Nothing here knows a photo's name or truth beyond the scoring."""

from __future__ import annotations

import importlib
import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "real"

pytestmark = pytest.mark.skipif(not (REAL / "truth.json").exists(),
                                reason="real photos not available")


def test_real_photos_one_shot():
    from bench.bench_real import score
    from calibration.find import BoardNotFound
    from calibration.oneshot import read_oneshot

    truth = json.loads((REAL / "truth.json").read_text())
    right = scored = found = perfect = 0
    worst = 1.0
    for name, t in truth.items():
        img = cv2.imread(str(REAL / name))
        try:
            obs, _ = read_oneshot(img)
        except BoardNotFound:
            continue
        found += 1
        r, s = score(obs.best_counts(), t)
        right, scored = right + r, scored + s
        perfect += r == s
        worst = min(worst, r / s)
    assert found == len(truth)
    # measured: all 8 photos read with every scored point right (7 before an empty point under
    # a hand's fingers was read on its plain edge, vision.checkers.base_seen_empty; the arm's
    # photo dices6 18 of 19 then, 16 before the shadow-tolerant empty look, the red-edge disc
    # vote and the rows' offsets about their median)
    assert perfect >= 8
    assert worst >= 1.0
    # measured 185 of 185 (184 before base_seen_empty; 182 before the shadow-tolerant empty
    # look, the red-edge disc vote
    # and the rows' offsets about their median; 179 before a row whose first checkers cannot
    # place its edge looked for the discs again square-on; 176 before a stack counted in its
    # own pitch, a lone disc of neither set's colour counting nothing and a stack of both sets'
    # colours left to the reader; 170 before a lone disc made a row edge candidate and a row
    # with too few first checkers took the other row's stretch, 162 before the rows' ends from
    # their first checkers, 157 before the long edges from them, 151 before the faint second
    # disc vote, 139 before the discs counted the stacks, 74 with the edge finder)
    assert right >= 185


def test_real_parts_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench_real --parts times every part of a one-shot read it names (each one wrapped where
    the read looks it up; restored after the test)."""
    from bench.bench_real import PARTS, _time_parts, rest_of
    from calibration.oneshot import read_oneshot

    for _label, mod_name, name in PARTS:
        mod = importlib.import_module(mod_name)
        monkeypatch.setattr(mod, name, getattr(mod, name))
    parts = _time_parts()
    img = cv2.imread(str(REAL / "data_images_test_frame0.jpg"))
    t = time.process_time()
    read_oneshot(img)
    total = time.process_time() - t
    assert all(v[-1] > 0 for v in parts.values()), {k: v[-1] for k, v in parts.items()}
    # the counting steps between the find and the dice are parts of their own, not the rest
    assert {"faint discs", "stack counts", "red-edge discs"} <= set(parts)
    rest = rest_of([total], parts)[0]
    assert 0 <= rest < total


def test_real_repeat_takes_the_least(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """bench_real --repeat N reads a photo N times, each from the file, and keeps the least
    time of each part (and of the whole read) and the last read's result."""
    import bench.bench_real as br

    cost = iter([3.0, 1.0, 2.0])
    loaded: list[int] = []
    parts = {"first": [0.0], " share": [0.0]}

    def fake_read(img: np.ndarray) -> tuple[str, str]:
        c = next(cost)
        parts["first"][-1] += c
        parts[" share"][-1] += 10 * c
        return "obs", "prof"

    monkeypatch.setattr(br, "read_oneshot", fake_read)
    monkeypatch.setattr(br.cv2, "imread", lambda p: loaded.append(1) or np.zeros((2, 2, 3)))
    obs, prof, best = br._read_least(tmp_path / "x.jpg", 3, parts)
    assert (obs, prof) == ("obs", "prof") and len(loaded) == 3 and best >= 0.0
    assert parts == {"first": [1.0], " share": [10.0]}
