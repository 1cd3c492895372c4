"""Rendered variant footage through the real vision into a correct record (issue 9, "What must
show it works"): the board calibrated from the variant's own start the way a club does it
(``gammoncam calibrate FRAME --variant NAME --corners ...``: both sides' fifteen checkers on one
point each; the four corners tapped, as the board finder, which goes by the checkers' grid, does
not find every board from two stacks), the video replayed through the pipeline with
``vision.read`` and the camera's settle gate, as ``gammoncam replay`` runs it, dice read too; the
record (the JSON event log and its .mat-style
transcript) must hold every turn of the footage's truth. A few turns each, to stay fast; the
longer games are ``bench.bench_variant_vision``'s.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from bench.bench_variant_vision import run_game
from engine.events import event_from_json
from engine.transcript import transcript
from gammoncam.cli import main
from gammoncam.pipeline import replay
from tests.gammoncam.truthplay import score
from tests.scenes.footage import write_game
from vision.profile import BoardProfile
from vision.read import read
from vision.settle import Settler
from vision.sources import VideoFileSource

TURNS = 4


def calibrated_footage(tmp: Path, seed: int, rules: str,
                       turns: int = TURNS) -> tuple[dict, Path, Path]:
    """A few turns of ``rules`` footage, and a profile calibrated on its first frame (the
    variant's start) by ``gammoncam calibrate --variant`` with the corners tapped."""
    doc = write_game(tmp, seed, "normal", 960, 540, codec="MJPG", max_turns=turns, rules=rules)
    video = tmp / doc["video"]
    cap = cv2.VideoCapture(str(video))
    ok, first = cap.read()
    cap.release()
    assert ok
    cv2.imwrite(str(tmp / "start.png"), first)
    taps = " ".join(f"{x},{y}" for x, y in doc["setup"]["board_corners_px"])
    r = CliRunner().invoke(main, ["calibrate", str(tmp / "start.png"), "--variant", rules,
                                  "--corners", taps, "--out", str(tmp / "profile.json")])
    assert r.exit_code == 0, r.output
    return doc, video, tmp / "profile.json"


def _record(tmp: Path, seed: int, rules: str, truth_dice: bool) -> tuple[dict, list[dict]]:
    doc, video, profile_path = calibrated_footage(tmp, seed, rules)
    profile = BoardProfile.load(profile_path)
    if truth_dice:  # the board read by the camera, the dice (and settled frames) the truth's
        return doc, run_game(video, profile, rules, read, doc["frames"]).events
    gate = Settler(frames=1)  # as gammoncam replay: one still frame pair is settled
    result = replay(VideoFileSource(video), profile, settings={"variant": rules},
                    settle=lambda f: gate.update(f.grey if f.grey is not None else f.image))
    return doc, result.events


@pytest.mark.parametrize(("seed", "rules", "title", "truth_dice"), [
    (700001, "plakoto", "Plakoto", False),
    (700002, "long nardi", "Long Nardi", False)])
def test_variant_footage_replays_into_its_record(tmp_path: Path, seed: int, rules: str,
                                                 title: str, truth_dice: bool) -> None:
    doc, events = _record(tmp_path, seed, rules, truth_dice)
    game = doc["game"]
    sc = score(events, game)
    assert sc["turns"] == TURNS
    assert sc["exact"] == sc["turns"], sc["wrong"]
    assert sc["extra_moves"] == 0
    assert not [e for e in events if e["type"] == "IllegalMoveFlagged"]
    started = [e for e in events if e["type"] == "MatchStarted"]
    assert started[0]["settings"]["variant"] == rules
    # the record: the event log round-trips through JSON lines, and its transcript names the
    # variant and holds every play the footage made, in order
    lines = "".join(json.dumps(e) + "\n" for e in events)
    again = [json.loads(x) for x in lines.splitlines()]
    assert [event_from_json(e).type for e in again] == [e["type"] for e in events]
    text = transcript(again)
    assert f'[Variant "{title}"]' in text
    at = 0
    for t in (t for t in game["turns"] if t["dice"]):
        found = text.find(t["play"], at)
        assert found >= 0, (t["play"], text)
        at = found
