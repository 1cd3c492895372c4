"""Random whole matches played through the referee's own commands (opening rolls with ties,
random legal plays, doubles with takes, drops, beavers and raccoons where allowed, resignations
accepted and refused, the Crawford game), for the match-file tests."""

from __future__ import annotations

import random

from engine.referee import CommandError, Phase, Referee


def referee_match(seed: int, length: int, *, jacoby: bool = False, raccoons: int = 0,
                  money_games: int = 3, beaver_drops: bool = True) -> Referee:
    """A finished match (or ``money_games`` games of a money session) of random play."""
    rng = random.Random(seed)
    ref = Referee()
    ref.command({"command": "new_match", "length": length, "white": f"White {seed}",
                 "black": f"Black {seed}", "jacoby": jacoby, "raccoons": raccoons,
                 "beavers": 1 if length == 0 else 0, "date": "2026-11-29"})
    steps = 0
    while ref.phase != Phase.MATCH_OVER and steps < 20_000:
        steps += 1
        if length == 0 and ref.game is not None and ref.game.number > money_games:
            break
        phase = ref.phase
        if phase == Phase.OPENING:
            ref.command({"command": "opening_roll", "white": rng.randint(1, 6),
                         "black": rng.randint(1, 6)})
        elif phase in (Phase.ROLL, Phase.BEAVERED):
            if phase == Phase.BEAVERED and rng.random() < 0.5 and _try(ref, "raccoon"):
                continue
            if phase == Phase.ROLL and rng.random() < 0.04 and _try(ref, "double"):
                continue
            if phase == Phase.ROLL and rng.random() < 0.01:
                ref.command({"command": "resign", "value": rng.randint(1, 3)})
                continue
            ref.command({"command": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        elif phase == Phase.ROLLED:
            ref.command({"command": "play", "play": rng.choice(ref.legal()).notation})
        elif phase == Phase.DOUBLED:
            choice = rng.choice(["take", "take", "drop", "beaver"])
            if choice == "beaver" and not _try(ref, "beaver"):
                choice = "take"
            if choice != "beaver":
                ref.command({"command": choice})
        elif phase == Phase.RESIGNED:
            ref.command({"command": rng.choice(["accept", "accept", "reject"])})
        else:
            raise AssertionError(f"unexpected phase {phase}")
    return ref


def _try(ref: Referee, name: str) -> bool:
    try:
        ref.command({"command": name})
    except CommandError:
        return False
    return True
