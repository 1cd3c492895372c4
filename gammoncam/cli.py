"""The ``gammoncam`` command line: the group of ``clibase`` with every command registered.

Each concern keeps its commands in its own module (``cmd_rules``, ``cmd_match``, ``cmd_board``,
``cmd_doctor``, ``cmd_vision``, ``cmd_replay``); importing them registers them on ``main``.
"""

from __future__ import annotations

from . import cmd_board, cmd_doctor, cmd_match, cmd_replay, cmd_rules, cmd_vision  # noqa: F401
from .clibase import BadInput, main

__all__ = ["BadInput", "main"]

if __name__ == "__main__":  # pragma: no cover
    main()
