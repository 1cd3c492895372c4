"""Per-photo work the one-shot read shares between its steps instead of redoing it, with the
same answers: the red-edge disc vote's Lab a channel taken from the finder's working Lab, and
the discs' checker sets kept for the same discs of the same unchanged frame."""

from __future__ import annotations

import cv2
import numpy as np

import calibration.discount as discount
from calibration.discount import _work_a, disc_sets
from calibration.find import WORK, first_look


def _plain_a(frame: np.ndarray, work: int) -> np.ndarray:
    """The a channel as with_chroma_discs computed it before (the reference)."""
    h, w = frame.shape[:2]
    s = work / max(h, w)
    small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB)[..., 1])


def test_work_a_channel_equals_its_own_conversion() -> None:
    rng = np.random.default_rng(21)
    frame = (rng.random((400, 700, 3)) * 255).astype(np.uint8)
    frame[:40] = (0, 0, 255)  # saturated reds and greens: a at its ends
    frame[40:80] = (0, 255, 0)
    want = _plain_a(frame, WORK)
    first_look(frame)  # the finder's working Lab kept (chroma weighted by 1.5)
    got = _work_a(frame, WORK)
    assert got.dtype == np.uint8 and got.flags.c_contiguous and np.array_equal(got, want)
    assert np.array_equal(_work_a(frame.copy(), WORK), want)  # no look at hand: computed
    assert np.array_equal(_work_a(frame, 500), _plain_a(frame, 500))  # another size


def test_disc_sets_kept_for_the_same_discs_of_the_same_frame(monkeypatch) -> None:  # noqa: ANN001
    rng = np.random.default_rng(22)
    frame = np.full((300, 400, 3), 90, np.uint8)
    discs = np.array([[50.0 + 40 * i, 80.0 + 120 * (i % 2), 15.0] for i in range(8)])
    for i, (x, y, r) in enumerate(discs):
        cv2.circle(frame, (int(x), int(y)), int(r), (230, 230, 230) if i % 2 else (20, 20, 30),
                   -1)
    frame = cv2.add(frame, (rng.random(frame.shape) * 8).astype(np.uint8))
    discount._SETS.clear()
    want = discount._disc_sets(frame, discs)
    calls = []
    real = discount._disc_sets

    def counted(lab, d):  # noqa: ANN001, ANN202
        calls.append(1)
        return real(lab, d)

    monkeypatch.setattr(discount, "_disc_sets", counted)
    first = disc_sets(frame, discs)
    first[0][:] = ~first[0]  # a caller's change does not reach the kept answer
    again = disc_sets(frame, discs)
    assert len(calls) == 1
    assert np.array_equal(again[0], want[0]) and np.array_equal(again[1], want[1])
    disc_sets(frame, discs[:6])  # other discs: computed
    disc_sets(frame.copy(), discs[:6])  # another array: computed
    assert len(calls) == 3
    frame[:] = 255 - frame  # a buffer refilled in place is another frame
    flipped = disc_sets(frame, discs[:6])
    assert len(calls) == 4 and not np.array_equal(flipped[0][:6], want[0][:6])
