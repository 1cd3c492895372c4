"""The offered cube on the playing field (vision.cube_field): read as the taker's cube with its
value (``where == "field"``) when the bar and trays show none, never from dice and checkers on
a field with no cube, and the reader's memory (vision.readcache) looks at the field again when
only the field changed."""

from __future__ import annotations

import numpy as np
import pytest

SEEDS = (1003,)  # a tuning setup
OFFERS = (("white", 2), ("black", 4), ("white", 16), ("black", 64))


@pytest.fixture(scope="module", params=SEEDS)
def setup_profile(request: pytest.FixtureRequest):  # noqa: ANN201 - (setup, scene, profile)
    from calibration.calibrate import START, calibrate
    from tests.scenes.scene import Scene, State, random_setup

    setup = random_setup(request.param)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    return setup, scene, prof


def _offered(setup, taker: str, value: int):  # noqa: ANN001, ANN202 - a scene CubeState
    """The cube as tests.scenes.footage offers it: on the taker's side of the field, upright
    for the taker."""
    from tests.scenes.dice import Cube
    from tests.scenes.scene import CubeState

    g = setup.geo
    sgn = -1.0 if taker == "black" else 1.0
    return CubeState(taker, value, Cube(value, float(g.W * 0.25), float(sgn * g.H * 0.12),
                                        0.0 if taker == "white" else 180.0, 26.0, 0.0))


def test_the_offered_cube_reads_as_the_takers(setup_profile) -> None:  # noqa: ANN001
    from tests.scenes.dataset import random_state
    from vision.cube import read_cube
    from vision.cube_field import field_cube

    setup, scene, prof = setup_profile
    right = 0
    for k, (taker, value) in enumerate(OFFERS):
        st = random_state(setup, 4242 + k)
        st.dice, st.hands, st.settled = [], [], True  # a double comes before the roll
        st.cube = _offered(setup, taker, value)
        img, _tr = scene.render(st)
        got = field_cube(img, prof)
        if got is not None:
            assert (got.owner, got.value, got.where) == (taker, value, "field"), got
            assert read_cube(img, prof) == got  # the bar and trays show no sure cube
            right += 1
    assert right >= 2  # of 4 (seed 1003: its faces are 19 px wide; the 2 and the 16 refused)


def test_no_cube_is_no_offer(setup_profile) -> None:  # noqa: ANN001
    """Dice and checkers on the field with no cube anywhere: nothing read on the field."""
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import CubeState
    from vision.cube import read_cube

    setup, scene, prof = setup_profile
    for k in range(3):
        st = random_state(setup, 5151 + k)
        st.hands, st.settled = [], True
        st.cube = CubeState("center", 1, None)
        img, _tr = scene.render(st)
        got = read_cube(img, prof)
        assert got is None or got.where != "field", got


def test_the_memory_looks_at_the_field_again(setup_profile) -> None:  # noqa: ANN001
    """The bar and trays the same, the field changed (the offered cube put down): the memory
    reads the field again rather than the last frame's empty field."""
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import CubeState
    from vision import readcache

    setup, scene, prof = setup_profile
    st = random_state(setup, 4243)  # the black 4 read in the test above
    st.dice, st.hands, st.settled = [], [], True
    st.cube = CubeState("center", 1, None)
    empty, _ = scene.render(st)
    st.cube = _offered(setup, "black", 4)
    offered, _ = scene.render(st)
    readcache.forget(prof)
    assert readcache.remembered_reading(empty, prof) is None
    got = readcache.remembered_reading(offered, prof)
    assert got is not None and (got.owner, got.value, got.where) == ("black", 4, "field")
    assert readcache.remembered_cube(offered, prof) is not None


def test_the_observation_of_an_offered_cube_is_the_takers() -> None:
    from vision.cube import OFFERED_FIELD, CubeReading, cube_observation

    got = cube_observation(CubeReading("black", 4, (100.0, 150.0), "field", 1.5, 0.05))
    assert got is not None and (got.owner, got.value) == ("black", 4)
    assert getattr(got, "offered", False) == OFFERED_FIELD
    bar = cube_observation(CubeReading("black", 4, (245.0, 10.0), "bar", 3.0, 0.05))
    assert bar is not None and not getattr(bar, "offered", False)


def test_a_refused_square_is_not_read_again(setup_profile, monkeypatch) -> None:  # noqa: ANN001
    """The field's best square refused (no number) and found again looking the same: refused
    without reading its face; another picture there is read."""
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import CubeState
    from vision import cube_field, readcache

    setup, scene, prof = setup_profile
    st = random_state(setup, 5151)
    st.hands, st.settled = [], True
    st.cube = CubeState("center", 1, None)
    img, _ = scene.render(st)
    readcache.forget(prof)
    calls: list[int] = []
    real = cube_field._read_square
    monkeypatch.setattr(cube_field, "_read_square",
                        lambda *a: calls.append(1) or real(*a))
    assert cube_field.field_cube(img, prof) is None
    assert len(calls) == 1  # a square clear enough to be read (a die, a point's tip)
    assert cube_field.field_cube(img, prof) is None
    assert len(calls) == 1  # remembered as refused
    readcache.forget(prof)  # forgotten: read again
    assert cube_field.field_cube(img, prof) is None
    assert len(calls) == 2
