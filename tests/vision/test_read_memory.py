"""The checker read's memory (``vision.readmemory``): a settled frame whose strips show the last
full read's picture (MJPG noise only) reuses its read; a frame where one checker moved, or with
the memory off, is read again."""

from __future__ import annotations

import dataclasses
import importlib

import cv2
import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from engine.observation import expected_counts
from tests.scenes.scene import Scene, State, random_setup
from vision import read, readmemory

READ = importlib.import_module("vision.read")  # the module (``vision.read`` is the function)


def _moved_one(pos):  # noqa: ANN001, ANN202
    """``pos`` with one checker of a stack of 3+ moved to an empty neighbouring point."""
    pts = list(pos.points)
    for i, n in enumerate(pts):
        for j in (i - 1, i + 1):
            if abs(n) >= 3 and 0 <= j < 24 and pts[j] == 0:
                pts[i] -= int(np.sign(n))
                pts[j] = int(np.sign(n))
                return dataclasses.replace(pos, points=tuple(pts))
    raise AssertionError("no stack beside an empty point")


def _mjpg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@pytest.fixture(scope="module")
def board():
    setup = random_setup(1000)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    moved = _moved_one(START)
    img1, _ = scene.render(State(moved))
    return prof, img0, img1, moved


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[np.ndarray | None]:
    """disc_evidence's calls, each the strips it was asked to evaluate (None: all)."""
    calls: list[np.ndarray | None] = []
    real = READ.disc_evidence

    def counted(strips, profile, prep, redo=None, last=None):  # noqa: ANN001, ANN202
        calls.append(None if redo is None or last is None else redo.copy())
        return real(strips, profile, prep, redo, last)

    monkeypatch.setattr(READ, "disc_evidence", counted)
    return calls


def _settle(prof, img) -> None:  # noqa: ANN001
    """Read ``img`` afresh, then until no strip is left to evaluate again (a point that
    learned its empty look is)."""
    readmemory.forget(prof)
    for _ in range(4):
        read(img, prof)
        if not (prof._cache[readmemory.MEMORY_KEY].blocks == readmemory.STALE).any():
            return
    raise AssertionError("strips are evaluated again frame after frame")


def test_noise_only_reuses_the_read(board, monkeypatch) -> None:
    prof, img0, _, _ = board
    _settle(prof, _mjpg(img0, 80))
    calls = _counting(monkeypatch)
    again = read(_mjpg(img0, 60), prof)  # other compression noise: the same picture
    assert calls == []
    assert again.best_counts() == expected_counts(START)


def test_a_moved_checker_is_read_again(board, monkeypatch) -> None:
    prof, img0, img1, moved = board
    _settle(prof, _mjpg(img0, 80))
    calls = _counting(monkeypatch)
    obs = read(_mjpg(img1, 80), prof)  # one checker moved: two points' strips changed
    assert len(calls) == 1 and calls[0] is not None
    diff = {i for i in range(24) if START.points[i] != moved.points[i]}
    redo = set(np.flatnonzero(calls[0]).tolist())
    assert diff <= redo and len(redo) <= len(diff) + 1  # a neighbour's lip at most
    assert obs.best_counts() == expected_counts(moved) != expected_counts(START)


def test_strips_evaluated_again_match_a_fresh_read(board, monkeypatch) -> None:
    prof, img0, img1, _ = board
    _settle(prof, _mjpg(img0, 80))
    before = prof._cache[readmemory.MEMORY_KEY].evidence
    calls = _counting(monkeypatch)
    read(_mjpg(img1, 80), prof)
    kept = prof._cache[readmemory.MEMORY_KEY].evidence
    readmemory.forget(prof)
    read(_mjpg(img1, 80), prof)
    fresh = prof._cache[readmemory.MEMORY_KEY].evidence
    redo = np.flatnonzero(calls[0][:24])
    same = np.setdiff1d(np.arange(24), redo)
    assert len(redo) and len(same)
    for got, want in ((kept.Lw, fresh.Lw), (kept.Lb, fresh.Lb), (kept.foreign, fresh.foreign),
                      (kept.lab, fresh.lab)):
        assert np.array_equal(got[redo], want[redo])  # evaluated again: as a fresh read
    for got, want in ((kept.Lw, before.Lw), (kept.foreign, before.foreign),
                      (kept.lab, before.lab)):
        assert np.array_equal(got[same], want[same])  # the others: as remembered


def test_off_reads_every_frame(board, monkeypatch) -> None:
    prof, img0, _, _ = board
    _settle(prof, _mjpg(img0, 80))
    monkeypatch.setattr(readmemory, "REMEMBER", False)
    calls = _counting(monkeypatch)
    read(_mjpg(img0, 80), prof)
    read(_mjpg(img0, 80), prof)
    assert calls == [None, None]


def test_moving_frames_are_read_afresh(board, monkeypatch) -> None:
    prof, img0, _, _ = board
    _settle(prof, _mjpg(img0, 80))
    calls = _counting(monkeypatch)
    read(_mjpg(img0, 80), prof, settled=False)
    assert calls == [None]


def test_points_scored_again_alone_read_as_a_fresh_read(board) -> None:
    prof, img0, img1, _ = board
    _settle(prof, _mjpg(img0, 80))
    before = prof._cache[readmemory.MEMORY_KEY].points
    kept = read(_mjpg(img1, 80), prof)
    mem = prof._cache[readmemory.MEMORY_KEY]
    same = [i for i in range(24) if mem.points[i] is before[i]]  # not scored again
    assert 0 < len(same) < 24
    readmemory.forget(prof)
    fresh = read(_mjpg(img1, 80), prof)
    for i, (a, b) in enumerate(zip(kept.regions, fresh.regions, strict=True)):
        if i in same:
            continue
        assert (a is None) == (b is None)
        if a is not None:
            assert a.keys() == b.keys()
            assert max(abs(a[k] - b[k]) for k in a) < 1e-5


def test_unsure_points_are_evaluated_every_frame(board, monkeypatch) -> None:
    prof, img0, _, _ = board
    readmemory.forget(prof)
    monkeypatch.setattr(readmemory, "SURE", 1.01)  # every point's read unsure
    read(_mjpg(img0, 80), prof)  # remembered with every point to evaluate again
    calls = _counting(monkeypatch)
    read(_mjpg(img0, 80), prof)
    assert len(calls) == 1 and calls[0] is not None and calls[0][:24].all()
