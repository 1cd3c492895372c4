"""The scene renderer's variant footage, tournament opening, both pairs and held checkers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import BLACK, WHITE, Position, legal_plays
from tests.scenes.cli import main
from tests.scenes.dataset import render_sample
from tests.scenes.footage import Animator, frame_truth, make_game
from tests.scenes.scene import Scene, random_setup
from tests.scenes.variantplay import apply_pin_step, variant_rules


@pytest.mark.parametrize("rules", ["plakoto", "fevga", "long nardi"])
def test_variant_selfplay_is_legal_under_its_rules(rules: str) -> None:
    game = make_game(2, rules=rules, max_turns=60)
    r = variant_rules(rules)
    assert game.rules == r.name and game.turns[0].before == r.start
    for t in game.turns:
        side = WHITE if t.player == "white" else BLACK
        afters = {p.after for p in legal_plays(t.before, side, t.dice, r)}
        assert t.after in afters
        assert t.cube_action is None  # no cube in these variants


def test_pin_steps_follow_the_engine() -> None:
    """The animation's one-checker steps end where the engine's play ends (pins included)."""
    game = make_game(3, rules="plakoto")
    pinning = [t for t in game.turns if t.pins]
    assert pinning
    for t in pinning:
        pos = t.before
        for src, dst, _ in t.steps:
            pos = apply_pin_step(pos, t.player, src, dst)
        assert pos == t.after


def test_plakoto_frames_draw_pins_and_conserve_checkers() -> None:
    game = make_game(3, rules="plakoto")
    setup = random_setup(3, 320, 180, harsh=0.3)
    frames = Animator(setup, game, 3).run()
    scene = Scene(setup)
    pinned = [k for k, (st, _) in enumerate(frames) if st.position.pinned]
    assert pinned
    for k in (pinned[0], pinned[-1], len(frames) // 2):
        state, info = frames[k]
        img, t = scene.render(state)
        ft = frame_truth(t, info, k, 6.0, state)
        pos = Position.from_json(ft["position"], checkers=None)
        assert pos.count(WHITE) + pos.count(BLACK) + len(ft["held"]) == 30
        if state.position.pinned:
            assert ft["position"]["pinned"] == list(state.position.pinned)
    # a pinned checker changes the picture: the same board without the pin differs there
    state = frames[pinned[0]][0]
    img, _ = scene.render(state)
    assert img.shape == (180, 320, 3)


def test_tournament_opening_and_both_pairs() -> None:
    game = make_game(4)
    assert game.opening[0][0] == game.opening[0][1]  # seed 4 opens with a tie
    frames = Animator(random_setup(4, 160, 90), game, 4, both_pairs=0.5).run()
    opening = [s for s, i in frames if i["phase"] == "opening_settled"]
    assert len(opening) == 3 * len(game.opening)
    assert all(s.dice[0].owner is None and len(s.dice) == 1 for s in opening)
    xs = [d.x for d in opening[-1].dice[0].dice]
    assert xs[0] > 0 > xs[1]  # white's die in the right half, black's in the left
    both = [(s, i) for s, i in frames if len(s.dice) == 2]
    assert both
    for s, i in both:  # the new roll is the active pair; the other is the previous roller's
        roller = game.turns[i["turn"]].player
        assert s.active_dice == 1 and s.dice[1].owner == roller
        assert s.dice[0].owner != roller  # None: the opening's dice, one each
    old = Animator(random_setup(4, 160, 90), game, 4, opening="both_dice", both_pairs=0.0).run()
    assert not [1 for s, i in old if i["phase"].startswith("opening")]


def test_held_checker_in_stills() -> None:
    img0, t0 = render_sample(0, 160, 90)
    img1, t1 = render_sample(0, 160, 90, held=0.0)
    assert np.array_equal(img0, img1) and t0["held"] == []
    img, t = render_sample(0, 160, 90, held=1.0)
    assert t["held_count"] == {"white": 0, "black": 1} and t["held"][0]["from"] == 7
    pos = Position.from_json(t["position"], checkers=None)
    assert pos.count(WHITE) + pos.count(BLACK) == 29 and t["hand"] and not t["settled"]


def test_cli_variant_rules(tmp_path) -> None:
    out = tmp_path / "g"
    assert main(["game", "--variant-rules", "plakoto", "--seed", "3", "--size", "160x90",
                 "--max-turns", "3", "--codec", "MJPG", str(out)]) == 0
    doc = json.loads((out / "game.json").read_text())
    assert doc["rules"] == "plakoto" and doc["opening"] == "one_die_each"
    assert doc["frames"][0]["position"]["points"][23] == 15
    assert main(["game", "--variant-rules", "chess", str(out)]) == 2
    assert main(["game", "--variant-rules", "tavli", str(out)]) == 2
    assert main(["game", "--variant-rules", "fevga", "--variant", "dance", str(out)]) == 2
