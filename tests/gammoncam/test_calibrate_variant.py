"""``gammoncam calibrate --variant``: calibration learns a variant's start position (issue 9)."""

from __future__ import annotations

import cv2
from click.testing import CliRunner

from gammoncam.cli import main
from tests.scenes.footage import Animator, make_game
from tests.scenes.scene import Scene, random_setup
from vision.profile import BoardProfile


def test_calibrate_learns_the_plakoto_start(tmp_path) -> None:
    game = make_game(3, rules="plakoto", max_turns=1)
    setup = random_setup(3, 960, 540, harsh=0.3, fill=(0.8, 0.9))
    state = Animator(setup, game, 3).run()[0][0]
    img, _ = Scene(setup).render(state)
    image = str(tmp_path / "start.png")
    cv2.imwrite(image, img)
    run = CliRunner().invoke
    r = run(main, ["calibrate", image, "--variant", "plakoto", "--out", str(tmp_path / "p.json")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "p.json").exists()
    # the reader will look for pins under the stacks of this board's games
    meta = BoardProfile.load(tmp_path / "p.json").meta
    assert meta["pins"] is True
    assert meta["variant"] == "plakoto"  # replay referees Plakoto by default
    # the standard start is not what the board shows
    r = run(main, ["calibrate", image, "--out", str(tmp_path / "q.json")])
    assert r.exit_code == 2 and "does not show" in r.output
    r = run(main, ["calibrate", image, "--variant", "chess", "--out", str(tmp_path / "x.json")])
    assert r.exit_code == 2 and "--variant" in r.output
    r = run(main, ["calibrate", image, "--variant", "fevga", "--position", "XGID=x",
                   "--out", str(tmp_path / "x.json")])
    assert r.exit_code == 2 and "not both" in r.output
