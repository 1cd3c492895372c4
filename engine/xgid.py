"""eXtreme Gammon position IDs (XGIDs): parse and format every field, with clear errors.

An XGID is ``XGID=`` and ten fields separated by ``:``::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
         position                   | | | |  | | | | max cube (log2)
                                    | | | |  | | | match length (0 = money)
                                    | | | |  | | Crawford game (match) / 1 Jacoby + 2 beaver (money)
                                    | | | |  | score O
                                    | | | |  score X
                                    | | | dice: 00 (to roll), D (doubled), B, R or two digits
                                    | | turn: 1 = X, -1 = O
                                    | cube owner: 1 = X, -1 = O, 0 = centre
                                    cube value (log2)

The position has 26 characters: O's bar, X's points 1..24, X's bar; ``A``..``P`` are 1..16
of X's checkers, ``a``..``p`` of O's, ``-`` none; checkers not shown are borne off. In this
project X is white and XGID's numbering is white's (``Position``'s): black's point p is 25-p.

When a double is offered (dice ``D``), ``turn`` is the side that doubled: the side on roll, as
GNU Backgammon reads XGIDs; its opponent must take or pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

from .position import BLACK, CHECKERS, WHITE, Position, Side

PREFIX = "XGID="
MAX_CUBE_LOG = 15  # a cube of 32768: the most a GNU BG Match ID can hold, far past any real one
MAX_SCORE = 32767  # 15 bits, as in a GNU BG Match ID
DECISIONS = {"D": "double", "B": "beaver", "R": "raccoon"}
_DECISION_CODES = {name: code for code, name in DECISIONS.items()}
_INT = re.compile(r"-?[0-9]{1,6}")
T = TypeVar("T")


class XgidError(ValueError):
    """A malformed XGID, or a state that no XGID can hold; the message says what is wrong."""


def _name(side: Side) -> str:
    return "X (white)" if side is WHITE else "O (black)"


def _cube_log(value: object, what: str) -> int:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < 1
        or value & (value - 1)
        or value > 1 << MAX_CUBE_LOG
    ):
        top = 1 << MAX_CUBE_LOG
        raise XgidError(f"{what} must be a power of two from 1 to {top}, got {value!r}")
    return value.bit_length() - 1


def _check_count(value: object, what: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SCORE:
        raise XgidError(f"{what} must be a whole number from 0 to {MAX_SCORE}, got {value!r}")


@dataclass(frozen=True)
class XgidState:
    """Everything an XGID records: the checkers, the cube, whose turn, the dice and the score.

    - ``cube_value`` 1, 2, 4, ...; ``cube_owner`` None while the cube is in the centre.
    - ``turn``: the side on roll (it rolls next, holds ``dice``, or has just doubled).
    - ``dice``: the two dice as XG writes them, or None when not rolled yet.
    - ``decision``: ``"double"`` (``turn`` doubled), ``"beaver"``, ``"raccoon"`` or None.
    - ``match_length`` 0 is money play; ``crawford`` only in a match, ``jacoby`` and ``beaver``
      (whether beavers are allowed) only in money play.
    - ``max_cube``: the largest cube value allowed (XG's default 1024).

    Building one checks the whole state and raises XgidError for anything an XGID cannot hold.
    """

    position: Position
    cube_value: int = 1
    cube_owner: Side | None = None
    turn: Side = WHITE
    dice: tuple[int, int] | None = None
    decision: str | None = None
    score_white: int = 0
    score_black: int = 0
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024

    def __post_init__(self) -> None:
        self._check_position()
        self._check_cube()
        self._check_turn()
        self._check_match()

    def _check_position(self) -> None:
        pos = self.position
        if not isinstance(pos, Position):
            raise XgidError(f"position must be a Position, got {type(pos).__name__}")
        for side in (WHITE, BLACK):
            n = pos.count(side)
            if n != CHECKERS:
                raise XgidError(
                    f"{_name(side)} has {n} checkers counting those off; an XGID needs "
                    f"exactly {CHECKERS}"
                )

    def _check_cube(self) -> None:
        value_log = _cube_log(self.cube_value, "cube_value")
        max_log = _cube_log(self.max_cube, "max_cube")
        if value_log > max_log:
            raise XgidError(f"the cube ({self.cube_value}) is above the maximum ({self.max_cube})")
        if self.cube_owner is not None:
            if not isinstance(self.cube_owner, Side):
                raise XgidError(f"cube_owner must be a Side or None, got {self.cube_owner!r}")
            if self.cube_value == 1:
                raise XgidError(
                    f"the cube is owned by {_name(self.cube_owner)} at 1: an owned cube has "
                    "been doubled, so it is at 2 or more"
                )

    def _check_turn(self) -> None:
        if not isinstance(self.turn, Side):
            raise XgidError(f"turn must be a Side, got {self.turn!r}")
        if self.dice is not None:
            dice = self.dice
            if (
                not isinstance(dice, tuple)
                or len(dice) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
                or not all(1 <= d <= 6 for d in dice)
            ):
                raise XgidError(f"dice must be two values from 1 to 6 or None, got {dice!r}")
            if self.decision is not None:
                raise XgidError("dice cannot be rolled while a cube decision is pending")
        if self.decision is not None and self.decision not in _DECISION_CODES:
            raise XgidError(
                f"decision must be None, 'double', 'beaver' or 'raccoon', got {self.decision!r}"
            )

    def _check_match(self) -> None:
        _check_count(self.score_white, "score_white")
        _check_count(self.score_black, "score_black")
        _check_count(self.match_length, "match_length")
        for name in ("crawford", "jacoby", "beaver"):
            if not isinstance(getattr(self, name), bool):
                raise XgidError(f"{name} must be True or False, got {getattr(self, name)!r}")
        n = self.match_length
        if n:
            for side, score in ((WHITE, self.score_white), (BLACK, self.score_black)):
                if score >= n:
                    raise XgidError(
                        f"{_name(side)} has {score} points: the {n}-point match is already won"
                    )
            if self.crawford and n - 1 not in (self.score_white, self.score_black):
                raise XgidError(
                    f"a Crawford game needs a side at {n - 1} in a {n}-point match, the score is "
                    f"{self.score_white}-{self.score_black}"
                )
            if self.jacoby or self.beaver:
                raise XgidError("the Jacoby rule and beavers belong to money play, not a match")
            if self.decision in ("beaver", "raccoon"):
                raise XgidError(f"a {self.decision} belongs to money play, not a match")
        elif self.crawford:
            raise XgidError("a Crawford game belongs to a match, not money play")


# -- parsing ---------------------------------------------------------------------------------


def _place(i: int) -> str:
    if i == 0:
        return "O's bar"
    if i == 25:
        return "X's bar"
    return f"X's {i}-point"


def _parse_position(text: str) -> Position:
    if len(text) != 26:
        raise XgidError(f"the position field has 26 characters, got {len(text)}: {text!r}")
    counts = [0] * 26  # signed: > 0 X (white), < 0 O (black)
    for i, ch in enumerate(text):
        if ch == "-":
            continue
        if "A" <= ch <= "P":
            counts[i] = ord(ch) - ord("A") + 1
        elif "a" <= ch <= "p":
            counts[i] = -(ord(ch) - ord("a") + 1)
        else:
            raise XgidError(
                f"bad character {ch!r} at position {i} of the position field ({_place(i)}): "
                "expected '-', A-P (X) or a-p (O)"
            )
        if i == 0 and counts[i] > 0:
            raise XgidError(f"X checkers {ch!r} at position 0 of the position field: O's bar")
        if i == 25 and counts[i] < 0:
            raise XgidError(f"O checkers {ch!r} at position 25 of the position field: X's bar")
    bar_black = -counts[0]
    bar_white = counts[25]
    points = tuple(counts[1:25])
    on_white = sum(n for n in points if n > 0) + bar_white
    on_black = sum(-n for n in points if n < 0) + bar_black
    for side, n in ((WHITE, on_white), (BLACK, on_black)):
        if n > CHECKERS:
            raise XgidError(
                f"too many checkers for {_name(side)}: {n} on the board and bar, at most "
                f"{CHECKERS}"
            )
    return Position(points, bar_white, bar_black, CHECKERS - on_white, CHECKERS - on_black)


def _int_field(text: str, name: str, low: int, high: int) -> int:
    if not _INT.fullmatch(text) or not low <= int(text) <= high:
        raise XgidError(f"the {name} field must be a whole number from {low} to {high}, "
                        f"got {text!r}")
    return int(text)


def _choice_field(text: str, name: str, allowed: dict[str, T]) -> T:
    if text not in allowed:
        options = ", ".join(allowed)
        raise XgidError(f"the {name} field must be one of {options}, got {text!r}")
    return allowed[text]


def _parse_dice(text: str) -> tuple[tuple[int, int] | None, str | None]:
    if text == "00":
        return None, None
    if text in DECISIONS:
        return None, DECISIONS[text]
    if len(text) == 2 and all("1" <= c <= "6" for c in text):
        return (int(text[0]), int(text[1])), None
    raise XgidError(
        f"bad dice {text!r}: expected 00 (not rolled), D (doubled), B (beavered), R (raccooned) "
        "or two digits from 1 to 6"
    )


def parse_xgid(text: str) -> XgidState:
    """Read an XGID, with or without its ``XGID=`` prefix and surrounding whitespace.

    Raises XgidError, with one message naming what is wrong, for anything malformed.
    """
    if not isinstance(text, str):
        raise XgidError(f"an XGID is text, got {type(text).__name__}")
    body = text.strip()
    if body[: len(PREFIX)].upper() == PREFIX:
        body = body[len(PREFIX) :]
    if not body:
        raise XgidError("empty XGID")
    fields = body.split(":")
    if len(fields) != 10:
        raise XgidError(f"an XGID has 10 fields separated by ':', got {len(fields)}")
    pos, cube, owner, turn, dice, score_x, score_o, rules, length, max_cube = fields
    position = _parse_position(pos)
    cube_log = _int_field(cube, "cube value (log2)", 0, MAX_CUBE_LOG)
    owners: dict[str, Side | None] = {"1": WHITE, "0": None, "-1": BLACK}
    cube_owner = _choice_field(owner, "cube owner", owners)
    side = _choice_field(turn, "turn", {"1": WHITE, "-1": BLACK})
    rolled, decision = _parse_dice(dice)
    score_white = _int_field(score_x, "score X", 0, MAX_SCORE)
    score_black = _int_field(score_o, "score O", 0, MAX_SCORE)
    match_length = _int_field(length, "match length", 0, MAX_SCORE)
    if match_length:
        flags = _int_field(rules, "Crawford flag (match play)", 0, 1)
    else:
        flags = _int_field(rules, "Jacoby/beaver flags (money play)", 0, 3)
    max_log = _int_field(max_cube, "maximum cube (log2)", 0, MAX_CUBE_LOG)
    return XgidState(
        position=position,
        cube_value=1 << cube_log,
        cube_owner=cube_owner,
        turn=side,
        dice=rolled,
        decision=decision,
        score_white=score_white,
        score_black=score_black,
        match_length=match_length,
        crawford=bool(match_length and flags),
        jacoby=bool(not match_length and flags & 1),
        beaver=bool(not match_length and flags & 2),
        max_cube=1 << max_log,
    )


# -- formatting ------------------------------------------------------------------------------


def _letter(n: int) -> str:
    """Signed count -> '-', 'A'.. for X (white), 'a'.. for O (black)."""
    if n == 0:
        return "-"
    return chr(ord("A") + n - 1) if n > 0 else chr(ord("a") - n - 1)


def format_position(position: Position) -> str:
    """The 26-character position field of an XGID (no checks; see ``XgidState``)."""
    return (
        _letter(-position.bar_black)
        + "".join(_letter(n) for n in position.points)
        + _letter(position.bar_white)
    )


def format_xgid(state: XgidState) -> str:
    """The canonical XGID of ``state``, with its ``XGID=`` prefix."""
    if state.decision is not None:
        dice = _DECISION_CODES[state.decision]
    elif state.dice is not None:
        dice = f"{state.dice[0]}{state.dice[1]}"
    else:
        dice = "00"
    owner = {None: 0, WHITE: 1, BLACK: -1}[state.cube_owner]
    if state.match_length:
        flags = int(state.crawford)
    else:
        flags = int(state.jacoby) | int(state.beaver) << 1
    fields = (
        format_position(state.position),
        state.cube_value.bit_length() - 1,
        owner,
        state.turn.sign,
        dice,
        state.score_white,
        state.score_black,
        flags,
        state.match_length,
        state.max_cube.bit_length() - 1,
    )
    return PREFIX + ":".join(str(f) for f in fields)
