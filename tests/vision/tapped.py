"""A rendered tuning scene read with a profile calibrated from its start frame by tapped
(true) corners: the fixed-camera setting the calibrated benchmarks measure.

The frames are rendered as a fresh process renders them, whatever was rendered before: the
renderer's fine-noise tile (``tests.scenes.textures._bank``) is made once per process and
blurred by the sigma of whichever material asks first, under one key for every sigma >= 0.3,
so a scene rendered after another of another material differs (tuning 1061 after 700018: 0.4 M
pixels up to 25 levels, its tapped calibration's corners 4-8 px apart). :func:`fresh_textures`
renders with an empty tile cache and puts the process's cache back afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import numpy as np

from calibration.calibrate import START, calibrate
from tests.scenes import textures
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, random_setup
from tests.scenes.scene import State as SceneState


@contextmanager
def fresh_textures() -> Iterator[None]:
    """Renders inside see the renderer's noise tiles as a fresh process does; the tiles made
    before are back afterwards (renders outside are as they would have been)."""
    held = dict(textures._BANK)
    textures._BANK.clear()
    try:
        yield
    finally:
        textures._BANK.clear()
        textures._BANK.update(held)


@cache
def tapped_frame(seed: int, k: int) -> tuple[Any, np.ndarray, dict]:
    """(profile, frame ``k`` of setup ``seed``, its truth); cached: treat them as read-only."""
    setup = random_setup(seed)
    scene = Scene(setup)
    with fresh_textures():
        img0, tr0 = scene.render(SceneState(START))
        img, tr = scene.render(random_state(setup, seed * 100 + k))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    return prof, img, tr


@cache
def tapped_scene(seed: int) -> tuple[Any, Scene, Any]:
    """(setup, scene, profile) of setup ``seed``, calibrated from its start frame by tapped
    corners, rendered with the process's tiles as they are (unlike :func:`tapped_frame`);
    cached: treat them as read-only."""
    setup = random_setup(seed)
    scene = Scene(setup)
    img0, tr0 = scene.render(SceneState(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    return setup, scene, prof
