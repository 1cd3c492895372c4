"""The demo: the web app fed by the bundled demo game, in a loop, with no camera.

For now the driver replays the demo footage's recorded turns (its truth JSON gives the dice and
the play of every turn, and the cube action that ends the game) through
``MatchService.command(...)`` at a readable pace, in a background thread. When the camera
pipeline lands, ``FootageDriver`` will feed the footage's frames through it instead; the rest of
the demo (service, store, web app) stays as it is.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.referee import CommandError

DEMO_DIR = Path(__file__).with_name("demo")
DEMO_GAME = DEMO_DIR / "demo_game.json"
log = logging.getLogger(__name__)


def load_game(path: Path = DEMO_GAME) -> dict[str, Any]:
    """The footage truth JSON (``gammoncam-footage/1``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not str(data.get("format", "")).startswith("gammoncam-footage/"):
        raise ValueError(f"{path} is not gammoncam footage truth")
    return data


def commands(game: dict[str, Any], white: str = "Ana", black: str = "Bruno",
             length: int = 3) -> Iterator[dict[str, Any]]:
    """The operator commands that replay the recorded game: a new match, the opening roll, then
    each turn's roll and play, and the cube action that ends it."""
    yield {"command": "new_match", "length": length, "white": white, "black": black,
           "event": "gammoncam demo"}
    turns = game["game"]["turns"]
    for i, turn in enumerate(turns):
        side, dice = turn["player"], turn.get("dice")
        if i == 0:
            high, low = max(dice), min(dice)
            yield {"command": "opening_roll", "white": high if side == "white" else low,
                   "black": high if side == "black" else low}
        elif dice:
            yield {"command": "roll", "dice": list(dice)}
        if dice and not turn.get("dance") and turn.get("play"):
            yield {"command": "play", "play": turn["play"]}
        for action in (turn.get("cube_action") or "").split("/"):
            if action:
                yield {"command": action}


class TurnReplayDriver:
    """Replays the recorded turns in a loop, one command every ``pace`` seconds."""

    def __init__(self, service: Any, game: dict[str, Any] | None = None, pace: float = 2.0,
                 pause: float = 8.0) -> None:
        self.service = service
        self.game = game if game is not None else load_game()
        self.pace = pace
        self.pause = pause
        self.loops = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-driver", daemon=True)

    def start(self) -> TurnReplayDriver:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def play_once(self) -> None:
        for cmd in commands(self.game):
            if self._stop.is_set():
                return
            try:
                self.service.command(cmd)
            except CommandError as exc:  # the recording and the rules disagree: say so, go on
                log.error("demo command %s refused: %s", cmd, exc)
                return
            wait = self.pace * (0.5 if cmd["command"] in ("roll", "opening_roll") else 1.0)
            if self._stop.wait(wait):
                return

    def _run(self) -> None:
        while not self._stop.is_set():
            self.play_once()
            self.loops += 1
            if self._stop.wait(self.pause):
                return
