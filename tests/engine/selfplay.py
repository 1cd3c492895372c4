"""Matches GNU Backgammon (PyPI ``gnubg``) plays against itself at 0-ply, exported by gnubg.

Seeded, so the same on every run of one gnubg build; cached per test session (each match takes
gnubg about a second: it waits ~10 ms on every computer move). A money session is ``length`` 0:
a few games with beavers allowed and the Jacoby rule off.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import gnubg

from engine.record import MatchRecord

gnubg.command("set threads 1")  # without it, some commands dead-lock

SETUP = (
    "set automatic roll on", "set confirm new off", "set display off",
    "set player 0 gnubg", "set player 1 gnubg", "set defaultnames Alice Bob",
    "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
    "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
    "set beavers 1", "set jacoby off",
)

# (seed, length): the matches the tests use; between them they have drops in both columns,
# takes, gammons, resignations, a Crawford game and a money session
MATCHES = ((1, 3), (2, 5), (21, 3), (4, 0))


@functools.cache
def exported(seed: int, length: int) -> tuple[str, str]:
    """(.mat text, SGF text) of the match gnubg plays with ``seed``, as gnubg exports it."""
    for command in SETUP:
        gnubg.command(command)
    gnubg.command(f"set seed {seed}")
    if length:
        gnubg.command("set automatic game on")
        gnubg.command(f"new match {length}")
    else:
        gnubg.command("set automatic game off")
        gnubg.command("new session")
        for _ in range(3):
            gnubg.command("new game")
    with tempfile.TemporaryDirectory() as tmp:
        mat, sgf = Path(tmp, "m.mat"), Path(tmp, "m.sgf")
        gnubg.command(f"export match mat {mat}")
        gnubg.command(f"save match {sgf}")
        return mat.read_text(), sgf.read_text()


def import_mat(text: str, record: MatchRecord | None = None) -> dict:
    """gnubg's ``match()`` after ``import mat`` of ``text`` (Jacoby set as ``record`` has it)."""
    gnubg.command("set jacoby " + ("on" if record is not None and record.jacoby else "off"))
    gnubg.command("set beavers 3")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "m.mat")
        path.write_text(text)
        gnubg.command(f"import mat {path}")
    return gnubg.match(0, 0)
