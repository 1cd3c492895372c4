"""The crash test's child: records scripted matches through the referee into an event store.

Run as ``python -m tests.gammoncam.crash_child STORE SEED`` (from the repository root). It opens
the store, folds the newest match's log with ``Referee.from_events`` and prints::

    ready <match id or 0> <snapshot JSON>

then keeps going where the log says the match is: random legal plays, opening rolls, doubles,
takes, drops and the odd undo, for ``MATCHES`` matches. After each ``EventStore.append`` returns
it prints ``ack <match id> <last seq> <digest of its live snapshot>``; at the end ``done``.

The script is a pure function of the log: the choice at each step comes from a generator seeded
with (seed, match id, last seq), so a child restarted after SIGKILL makes the same choices an
uninterrupted one would have, and two runs with the same seed write the same log.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any, TextIO

from engine.events import Event
from engine.referee import CommandError, Phase, Referee
from gammoncam.store import EventStore

MATCHES = 500  # far more than a crash test gets through: the parent stops long before
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")


def digest(snapshot: dict[str, Any]) -> str:
    """A short fingerprint of a snapshot's JSON (what "ack" lines carry)."""
    text = json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def match_settings(seed: int, number: int) -> dict[str, Any]:
    """The settings of the script's ``number``-th match (short matches: games end, cubes turn)."""
    rng = random.Random(f"{seed}:settings:{number}")
    white, black = rng.sample(NAMES, 2)
    return {"length": rng.choice([1, 3, 3, 5]), "white": white, "black": black}


def _first_accepted(ref: Referee, *commands: dict[str, Any]) -> tuple[dict[str, Any], list[Event]]:
    """The first of ``commands`` the referee accepts, with its events (the last must be)."""
    for cmd in commands[:-1]:
        try:
            return cmd, ref.command(cmd)
        except CommandError:
            continue
    return commands[-1], ref.command(commands[-1])


def step(
    ref: Referee, rng: random.Random, settings: dict[str, Any]
) -> tuple[dict[str, Any], list[Event]]:
    """One scripted action for the match's phase: the command the referee took and its events."""
    if ref.phase == Phase.IDLE and ref.settings is None:
        return _first_accepted(ref, {"command": "new_match", **settings})
    undo = [{"command": "undo"}] if rng.random() < 0.04 else []
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    if ref.phase == Phase.OPENING:
        opening = {"command": "opening_roll", "white": dice[0], "black": dice[1]}
        return _first_accepted(ref, *undo, opening)
    if ref.phase == Phase.ROLL:
        double = [{"command": "double"}] if rng.random() < 0.2 else []
        return _first_accepted(ref, *undo, *double, {"command": "roll", "dice": dice})
    if ref.phase == Phase.DOUBLED:
        answer = {"command": "take" if rng.random() < 0.65 else "drop"}
        return _first_accepted(ref, *undo, answer)
    if ref.phase == Phase.ROLLED:
        play = rng.choice(ref.legal())
        if rng.random() < 0.25:
            cmd = {"command": "play", "position": play.after.to_json()}
        else:
            cmd = {"command": "play", "play": play.notation}
        return _first_accepted(ref, *undo, cmd)
    raise AssertionError(f"the script does not expect phase {ref.phase!r}")


def run(path: str, seed: int, out: TextIO, stop_after: int | None = None) -> None:
    """Record the script into the store at ``path``, resuming from its log.

    ``stop_after``: stop once the store holds at least this many events (all matches).
    """

    def say(*words: object) -> None:
        out.write(" ".join(str(w) for w in words) + "\n")
        out.flush()

    with EventStore(path) as store:
        listed = store.matches()
        match_id = listed[-1]["id"] if listed else 0
        last = listed[-1]["last_seq"] if listed else 0
        ref = Referee.from_events(store.events(match_id)) if match_id else Referee()
        say("ready", match_id, json.dumps(ref.snapshot(), sort_keys=True))
        total = sum(m["last_seq"] for m in listed)
        while stop_after is None or total < stop_after:
            if not match_id or ref.phase == Phase.MATCH_OVER:
                if match_id:
                    store.set_status(match_id, "finished")
                number = len(store.matches()) + 1
                if number > MATCHES:
                    break
                settings = match_settings(seed, number)
                title = f"{settings['white']} v {settings['black']}"
                match_id, last, ref = store.create_match(settings, title), 0, Referee()
                continue
            settings = store.match(match_id)["settings"]
            _, events = step(ref, random.Random(f"{seed}:{match_id}:{last}"), settings)
            seqs = store.append(match_id, [e.to_json() for e in events])
            last, total = seqs[-1], total + len(seqs)
            say("ack", match_id, last, digest(ref.snapshot()))
        say("done")


if __name__ == "__main__":
    run(sys.argv[1], int(sys.argv[2]), sys.stdout)
