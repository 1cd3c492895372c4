"""A finger's taps, pixels off the corners, snapped to the frame's edges and the board's lines
(``calibrate(..., snap_taps=True)``: the web calibration page's and ``gammoncam calibrate
--corners``'s way; ``bench.bench_vision --tap-noise PX --snap-taps`` measures it)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_vision import tapped
from calibration.calibrate import START, calibrate

from .test_find import corner_error


def _start(seed: int) -> tuple[np.ndarray, np.ndarray]:
    from tests.scenes.scene import Scene, State, random_setup

    img, tr = Scene(random_setup(seed)).render(State(START))
    return img, np.array(tr["board_corners_px"], np.float64)


@pytest.mark.parametrize("seed", [700016, 700017])
def test_taps_eight_pixels_off_are_brought_back(seed: int) -> None:
    """Tuning setups whose taps 8 px off leave a corner 15 px off (measured 14.9 and 14.7):
    snapped, within 3 px (measured 1.3 and 1.8)."""
    img, truth = _start(seed)
    taps = tapped(truth, 8.0, seed)
    plain = calibrate(img, START, method="taps", corners=taps)
    snapped = calibrate(img, START, method="taps", corners=taps, snap_taps=True)
    assert corner_error(np.asarray(plain.corners), truth) > 10.0
    assert corner_error(np.asarray(snapped.corners), truth) < 3.0
    assert "snapped" in snapped.meta and "snapped" not in plain.meta


def test_taps_off_that_turned_the_board_round_are_snapped_first() -> None:
    """Tuning 700001: taps 8 px off made the profile take the board the wrong way round (its
    corners listed mirrored: the start position reads back alike, later positions do not); the
    sides snapped before the ways round are tried, it is taken as exact taps take it."""
    img, truth = _start(700001)
    exact = np.asarray(calibrate(img, START, method="taps", corners=truth).corners)
    taps = tapped(truth, 8.0, 700001)
    plain = calibrate(img, START, method="taps", corners=taps)
    snapped = calibrate(img, START, method="taps", corners=taps, snap_taps=True)
    assert np.linalg.norm(np.asarray(plain.corners) - exact, axis=1).max() > 100.0
    assert np.linalg.norm(np.asarray(snapped.corners) - exact, axis=1).max() < 5.0  # (3.3)


def test_the_command_line_snaps_taps_unless_told_they_are_exact(tmp_path) -> None:
    """``gammoncam calibrate --corners`` snaps the taps; ``--exact`` takes them as given."""
    import cv2
    from click.testing import CliRunner

    from gammoncam.cli import main
    from vision.profile import BoardProfile

    img, truth = _start(700016)
    image = str(tmp_path / "start.png")
    cv2.imwrite(image, img)
    taps = " ".join(f"{x:.1f},{y:.1f}" for x, y in tapped(truth, 8.0, 700016))
    runs = {}
    for name, extra in (("snapped", []), ("exact", ["--exact"])):
        out = tmp_path / f"{name}.json"
        r = CliRunner().invoke(main, ["calibrate", image, "--corners", taps, *extra,
                                      "--out", str(out)])
        assert r.exit_code == 0, r.output
        runs[name] = BoardProfile.load(str(out))
    assert "snapped" in runs["snapped"].meta and "snapped" not in runs["exact"].meta
    assert corner_error(np.asarray(runs["snapped"].corners), truth) < 3.0
    assert corner_error(np.asarray(runs["exact"].corners), truth) > 10.0


def test_the_calibration_page_snaps_a_fingers_taps(tmp_path) -> None:
    """The web calibration page's taps (``CameraDesk.calibrate``) are a finger's: snapped."""
    from gammoncam.camera import CameraDesk
    from vision.sources import Frame

    img, truth = _start(700016)
    desk = CameraDesk(tmp_path / "profile.json")
    desk.on_frame(Frame(img, 0.0, 0), True)
    result = desk.calibrate(tapped(truth, 8.0, 700016).tolist())
    assert corner_error(np.asarray(result["corners"]), truth) < 3.0
