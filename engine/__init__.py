"""The rules engine: pure Python, no third-party imports; everything else trusts it."""

from .moves import BAR, OFF, DiceError, Play, Step, format_play, legal_plays
from .position import BLACK, WHITE, Position, PositionError, Side
from .rules import STANDARD, Rules

__all__ = [
    "BAR",
    "BLACK",
    "OFF",
    "STANDARD",
    "WHITE",
    "DiceError",
    "Play",
    "Position",
    "PositionError",
    "Rules",
    "Side",
    "Step",
    "format_play",
    "legal_plays",
]
