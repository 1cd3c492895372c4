"""The rules engine: pure Python, no third-party imports; everything else trusts it."""

from .gnubgid import (
    GnubgGameState,
    GnubgIdError,
    GnubgMatchState,
    format_gnubg_id,
    format_match_id,
    format_position_id,
    parse_gnubg_id,
    parse_match_id,
    parse_position_id,
)
from .judge import Judgement, Reason, judge
from .moves import BAR, OFF, DiceError, Play, Step, format_play, legal_plays
from .position import BLACK, WHITE, Position, PositionError, Side
from .rules import STANDARD, Rules
from .xgid import XgidError, XgidState, format_xgid, parse_xgid

__all__ = [
    "BAR",
    "BLACK",
    "OFF",
    "STANDARD",
    "WHITE",
    "DiceError",
    "GnubgGameState",
    "GnubgIdError",
    "GnubgMatchState",
    "Judgement",
    "Play",
    "Position",
    "PositionError",
    "Reason",
    "Rules",
    "Side",
    "Step",
    "XgidError",
    "XgidState",
    "format_gnubg_id",
    "format_match_id",
    "format_play",
    "format_position_id",
    "format_xgid",
    "judge",
    "legal_plays",
    "parse_gnubg_id",
    "parse_match_id",
    "parse_position_id",
    "parse_xgid",
]
