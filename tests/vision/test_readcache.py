"""The reader's memory of the last settled frame (``vision.readcache``): the cube is not looked
for again while its strips show the same picture, and is when they change."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, State, random_setup
from vision import cube as cube_reader
from vision import readcache

SEED = 1000  # a development seed (the benchmarks measure on 900000+)


@pytest.fixture(scope="module")
def board():
    setup = random_setup(SEED)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    img, tr = scene.render(random_state(setup, SEED * 100 + 1))
    return prof, img, tr


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = cube_reader.read_cube
    monkeypatch.setattr(cube_reader, "read_cube",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_the_same_strips_give_the_remembered_cube(board, monkeypatch) -> None:
    prof, img, tr = board
    readcache.forget(prof)
    first = readcache.remembered_cube(img, prof)
    assert first == cube_reader.observe_cube(img, prof)
    assert first is not None and first.owner == tr["cube"]["owner"]
    calls = _counting(monkeypatch)
    rng = np.random.default_rng(0)  # camera noise: a level or two
    noisy = np.clip(img.astype(np.int16) + rng.integers(-2, 3, img.shape), 0, 255)
    assert readcache.remembered_cube(noisy.astype(np.uint8), prof) == first
    assert readcache.remembered_cube(img, prof) == first
    assert not calls


def test_changed_strips_are_read_again(board, monkeypatch) -> None:
    prof, img, _ = board
    readcache.forget(prof)
    readcache.remembered_cube(img, prof)
    calls = _counting(monkeypatch)
    readcache.remembered_cube(255 - img, prof)  # everything changed, the cube's strips too
    assert len(calls) == 1
    readcache.remembered_cube(255 - img, prof)  # and that is remembered in turn
    assert len(calls) == 1
    readcache.forget(prof)
    readcache.remembered_cube(255 - img, prof)
    assert len(calls) == 2


def test_off_reads_every_frame(board, monkeypatch) -> None:
    prof, img, _ = board
    readcache.forget(prof)
    monkeypatch.setattr(readcache, "REMEMBER", False)
    calls = _counting(monkeypatch)
    readcache.remembered_cube(img, prof)
    readcache.remembered_cube(img, prof)
    assert len(calls) == 2


def test_read_uses_the_memory(board, monkeypatch) -> None:
    """``vision.read`` asks the memory: a frame read twice looks for the cube once, and both
    reads say the same."""
    prof, img, _ = board
    read = importlib.import_module("vision.read").read
    readcache.forget(prof)
    calls = _counting(monkeypatch)
    a, b = read(img, prof), read(img, prof)
    assert a.cube == b.cube and a.dice == b.dice
    assert len(calls) == 1


def test_a_weak_centred_cube_as_clear_as_the_boards_is_sure() -> None:
    """A board whose centred cube reads on a weak square is not searched for an offered cube on
    every frame: a centred square near the clearest centred cube read on it is that cube; a much
    weaker one (a checker on the bar's middle after the cube left) still sends the reader to
    the field, as does no cube."""
    def centre(score: float) -> cube_reader.CubeReading:
        return cube_reader.CubeReading("center", 1, (245.0, 200.0), "bar", score, 1.0)

    mem = readcache.CubeMemory(reading=centre(2.0), centre_best=2.3)
    assert cube_reader.unsure(mem.reading)  # weak on its own
    assert not readcache._unsure(mem)
    mem.reading = centre(readcache.SAME_CUBE * 2.3 - 0.1)
    assert readcache._unsure(mem)
    mem.reading = None
    assert readcache._unsure(mem)
