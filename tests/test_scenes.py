"""The scene renderer (tests/scenes): truth is consistent, rendering is deterministic, dice show
the right faces, every style renders, stacks up to 15 fit, self-play and footage keep the rules.
Small images keep this file fast."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from engine import BLACK, WHITE, Position, Side, legal_plays
from tests.scenes import STYLES, Scene, State, random_setup, render_sample
from tests.scenes.board import BoardGeometry
from tests.scenes.cli import main
from tests.scenes.dice import Die, closeup
from tests.scenes.footage import Animator, frame_truth
from tests.scenes.scene import place_cube, place_dice
from tests.scenes.selfplay import VARIANTS, play_game

W, H = 320, 180


def _check_truth(t: dict, w: int = W, h: int = H) -> None:
    pos = Position.from_json(t["position"])  # raises unless 15 a side
    assert pos.count(WHITE) == 15 and pos.count(BLACK) == 15
    assert len(t["board_corners_px"]) == 4
    if t["dice"] is not None:
        assert t["dice"]["owner"] in ("white", "black")
        assert all(1 <= v <= 6 for v in t["dice"]["values"])
        assert isinstance(t["dice"]["cocked"], bool)
    assert t["cube"]["owner"] in ("center", "white", "black")
    if t["cube"]["owner"] == "center":
        assert t["cube"]["value"] == 1 and t["cube"]["face"] == 64
    else:
        assert t["cube"]["value"] in (2, 4, 8, 16, 32, 64)
    assert isinstance(t["hand"], bool)
    json.dumps(t)  # JSON-ready


@pytest.mark.parametrize("seed", range(8))
def test_random_samples_have_consistent_truth(seed: int) -> None:
    img, t = render_sample(seed, W, H)
    assert img.shape == (H, W, 3) and img.dtype == np.uint8
    _check_truth(t)
    # the board is in view: its corners inside the frame, filling a good part of it
    c = np.array(t["board_corners_px"])
    assert (c[:, 0] > -2).all() and (c[:, 0] < W + 2).all()
    assert (c[:, 1] > -2).all() and (c[:, 1] < H + 2).all()
    area = cv2.contourArea(c.astype(np.float32))
    assert area > 0.12 * W * H


def test_same_seed_same_image() -> None:
    a, ta = render_sample(11, W, H)
    b, tb = render_sample(11, W, H)
    c, _ = render_sample(12, W, H)
    assert np.array_equal(a, b)
    assert ta == tb
    assert not np.array_equal(a, c)


def _count_blobs(mask: np.ndarray, min_area: int = 4) -> int:
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area)


@pytest.mark.parametrize("value", range(1, 7))
def test_die_faces_show_their_pips(value: int) -> None:
    for yaw in (0.0, 23.0, 45.0, 71.0):
        for body, pips, dark_pips in (("#f4f1ea", "#141414", True), ("#141414", "#f2f2f2", False)):
            img = closeup(value, yaw, px=96, body=body, pips=pips)
            g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
            face = (g > 170) if dark_pips else (g < 60)
            cnts, _ = cv2.findContours(face.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
            big = max(cnts, key=cv2.contourArea)
            hull = np.zeros_like(g)
            cv2.fillPoly(hull, [cv2.convexHull(big)], 1)
            hull = cv2.erode(hull, np.ones((5, 5), np.uint8))
            pip_mask = ((g < 90) if dark_pips else (g > 150)) & (hull > 0)
            assert _count_blobs(pip_mask) == value, (value, yaw, body)


def test_die_orientation_truth() -> None:
    for v in range(1, 7):
        for yaw in (0, 90, 200):
            assert Die(v, 0, 0, yaw).up_value() == v
        # a cocked die still shows the face nearest up
        assert Die(v, 0, 0, 10, cock=25).up_value() == v


@pytest.mark.parametrize("style", list(STYLES))
def test_every_style_renders(style: str) -> None:
    setup = random_setup(5, W, H, style=style)
    scene = Scene(setup)
    rng = np.random.default_rng(0)
    pos = Position.from_json({
        "points": [2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 2, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 0],
        "bar": {"white": 1, "black": 1}, "off": {"white": 2, "black": 1}})
    state = State(pos, dice=[place_dice(setup, rng, (6, 3), "white", pos)],
                  cube=place_cube(setup, rng, "black", 4))
    img, t = scene.render(state)
    assert t["style"] == style
    assert img.std() > 10  # not blank
    _check_truth(t)
    assert t["cube"] == {**t["cube"], "owner": "black", "value": 4, "face": 4}


def test_stacks_up_to_15_fit_on_their_point() -> None:
    for row_max in (5, 6):
        g = BoardGeometry(row_max=row_max)
        for point in (1, 6, 12, 13, 19, 24):
            slots = g.stack_slots(point, 15)
            assert len(slots) == 15
            xs = {round(x, 6) for x, _, _ in slots}
            assert len(xs) == 1  # all on the point's column
            ys = np.array([y for _, y, _ in slots])
            top = point >= 13
            if top:
                assert ys.min() > -g.H / 2 and ys.max() < 0
            else:
                assert ys.max() < g.H / 2 and ys.min() > 0
            for layer in {lay for _, _, lay in slots}:
                ly = sorted(y for _, y, lay in slots if lay == layer)
                assert all(b - a >= g.d - 1e-6 for a, b in zip(ly, ly[1:], strict=False))
    pos = Position.from_json({"points": [0] * 5 + [15] + [0] * 12 + [-15] + [0] * 5})
    setup = random_setup(3, 480, 270, style="tournament_black")
    img, t = Scene(setup).render(State(pos))
    assert Position.from_json(t["position"]) == pos


@pytest.mark.parametrize("variant", VARIANTS)
def test_selfplay_games_are_legal(variant: str) -> None:
    g = play_game(2, variant)
    assert g.winner in ("white", "black") and g.points >= 1
    for turn in g.turns:
        assert turn.after.count(WHITE) == 15 and turn.after.count(BLACK) == 15
        if turn.dice and turn.cube_action not in ("double/drop", "resign"):
            results = {p.after.key() for p in legal_plays(turn.before, Side(turn.player),
                                                          turn.dice)}
            assert (turn.after.key() in results) == turn.legal
        if turn.illegal:
            assert turn.illegal["after"].key() not in {
                p.after.key() for p in legal_plays(turn.before, Side(turn.player), turn.dice)}
    kinds = {t.cube_action for t in g.turns}
    if variant == "double_take":
        assert "double/take" in kinds
    if variant == "double_drop":
        assert g.how == "drop"
    if variant == "gammon":
        assert g.how in ("gammon", "backgammon")
    if variant == "dance":
        assert any(t.dance for t in g.turns)
    if variant.startswith("illegal"):
        assert any(t.illegal for t in g.turns)
        assert any(not t.legal for t in g.turns) == (variant == "illegal_standing")


def test_footage_truth_follows_the_game() -> None:
    game = play_game(4, "illegal_corrected", max_turns=200)
    setup = random_setup(4, 160, 90, harsh=0.3)
    frames = Animator(setup, game, 4).run()
    scene = Scene(setup)
    seen_turns = set()
    for i, (state, info) in enumerate(frames[:260]):
        img, t = scene.render(state)
        ft = frame_truth(t, info, i, 6.0, state)
        pos = Position.from_json(ft["position"], checkers=None)
        held = len(ft["held"])
        assert pos.count(WHITE) + pos.count(BLACK) + held == 30
        if ft["settled"]:
            assert held == 0 and not state.hands
        if ft["dice_moving"]:
            assert ft["dice"] is None and not ft["settled"]
        seen_turns.add(ft["turn"])
        if info["phase"] == "settled" and info["turn"] is not None:
            turn = game.turns[info["turn"]]
            assert pos == turn.after
    assert len(seen_turns) > 5


def test_cli(tmp_path) -> None:
    assert main(["dataset", "--n", "2", "--seed", "1", "--size", "160x90", str(tmp_path)]) == 0
    assert (tmp_path / "000001.jpg").exists() and (tmp_path / "index.jsonl").exists()
    t = json.loads((tmp_path / "000000.json").read_text())
    _check_truth(t, 160, 90)
    assert main(["dataset", "--size", "bad", str(tmp_path)]) == 2
    assert main(["game", "--variant", "nope", str(tmp_path)]) == 2
