"""GNU Backgammon IDs: the Position ID and the Match ID, encoded and decoded bit for bit as gnubg.

Both are bit strings packed least significant bit first into bytes, written in base64 (no
padding). gnubg's player 1 (the bottom player, XGID's X) is white here; player 0 is black.

- Position ID: 14 characters, 10 bytes. First the side NOT on roll, then the side on roll; for
  each, its points 1..24 in its own numbering and then its bar, each as that many one-bits and a
  zero-bit. Borne-off checkers are not recorded (15 minus those shown).
- Match ID: 12 characters, 9 bytes. Bit fields from bit 0: cube log2 (4 bits), cube owner
  (2: 0 black, 1 white, 3 centre), player on roll (1), Crawford game (1), game state (3),
  player to act (1), double offered (1), resignation offered (2: 1 single, 2 gammon,
  3 backgammon), dice (3 + 3, larger first, 0 = not rolled), match length (15, 0 = money),
  black's score (15), white's score (15), and bit 66 set when the Jacoby rule is NOT in use.

``format_gnubg_id``/``parse_gnubg_id`` convert an ``XgidState`` to and from ``POSITIONID:MATCHID``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .moves import BAR, from_relative, to_relative
from .position import BLACK, CHECKERS, WHITE, Position, Side
from .xgid import XgidError, XgidState

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_INDEX = {c: i for i, c in enumerate(_B64)}
POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_SCORE_BITS = 15
_MAX_SCORE = (1 << _SCORE_BITS) - 1
_OWNER_BITS = {BLACK: 0, WHITE: 1, None: 3}
_OWNER_FROM_BITS = {0: BLACK, 1: WHITE, 3: None}
_PLAYER = {BLACK: 0, WHITE: 1}


class GnubgIdError(ValueError):
    """A malformed GNU BG Position ID or Match ID, or a state that one cannot hold."""


class GnubgGameState(IntEnum):
    """gnubg's game state field of the Match ID."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


# -- base64 and bits ---------------------------------------------------------------------------


def _encode(key: int, nbytes: int, nchars: int) -> str:
    """Little-endian ``key`` as ``nbytes`` bytes, in unpadded base64 of ``nchars`` characters."""
    data = key.to_bytes(nbytes, "little")
    spare = nchars * 6 - nbytes * 8
    acc = int.from_bytes(data, "big") << spare
    return "".join(_B64[(acc >> (6 * (nchars - 1 - i))) & 63] for i in range(nchars))


def _decode(text: str, nbytes: int, nchars: int, what: str) -> int:
    if not isinstance(text, str):
        raise GnubgIdError(f"a {what} is text, got {type(text).__name__}")
    if len(text) != nchars:
        raise GnubgIdError(f"a {what} has {nchars} characters, got {len(text)}: {text!r}")
    acc = 0
    for i, ch in enumerate(text):
        value = _B64_INDEX.get(ch)
        if value is None:
            raise GnubgIdError(
                f"bad character {ch!r} at position {i} of the {what} {text!r}: expected base64 "
                "(A-Z, a-z, 0-9, + or /)"
            )
        acc = acc << 6 | value
    spare = nchars * 6 - nbytes * 8
    if acc & ((1 << spare) - 1):
        raise GnubgIdError(f"the {what} {text!r} has bits set past its end (last character)")
    return int.from_bytes((acc >> spare).to_bytes(nbytes, "big"), "little")


# -- Position ID -------------------------------------------------------------------------------


def format_position_id(position: Position, on_roll: Side) -> str:
    """The 14-character Position ID of ``position`` with ``on_roll`` to play (or to double)."""
    key = 0
    bit = 0
    for side in (on_roll.other, on_roll):
        counts, _ = to_relative(position, side)  # that side's own numbering
        shown = sum(counts[1 : BAR + 1])
        if shown > CHECKERS:
            raise GnubgIdError(
                f"{side.value} has {shown} checkers on the board and bar; a Position ID holds "
                f"at most {CHECKERS}"
            )
        for p in range(1, BAR + 1):  # points 1..24, then the bar (25)
            n = counts[p]
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    return _encode(key, 10, POSITION_ID_LENGTH)


def parse_position_id(text: str, on_roll: Side) -> Position:
    """The position of a Position ID, given the side on roll (the ID encodes it second)."""
    key = _decode(text, 10, POSITION_ID_LENGTH, "Position ID")
    bit = 0
    sides = []
    for side in (on_roll.other, on_roll):
        counts = [0] * 26
        for p in range(1, BAR + 1):
            n = 0
            while key >> bit & 1:
                n += 1
                bit += 1
                if bit >= 80:
                    raise GnubgIdError(f"the Position ID {text!r} runs out of bits")
            bit += 1
            counts[p] = n
        shown = sum(counts)
        if shown > CHECKERS:
            raise GnubgIdError(
                f"the Position ID {text!r} gives {side.value} {shown} checkers, at most {CHECKERS}"
            )
        counts[0] = CHECKERS - shown
        sides.append(counts)
    if key >> bit:
        raise GnubgIdError(f"the Position ID {text!r} has bits set past its last checker")
    theirs, my = sides
    opp = [theirs[0], *(theirs[25 - p] for p in range(1, 25)), theirs[BAR]]  # mover's numbering
    for p in range(1, 25):
        if my[p] and opp[p]:
            raise GnubgIdError(
                f"the Position ID {text!r} puts both sides on {on_roll.value}'s {p}-point"
            )
    return from_relative(my, opp, on_roll)


# -- Match ID ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GnubgMatchState:
    """Every field of a Match ID, in this project's sides (white = gnubg's player 1).

    ``on_roll`` is gnubg's fMove (who holds or rolls the dice, or doubled); ``turn`` its fTurn
    (who must act now: the taker after a double, the one resigned to). ``dice`` are kept larger
    first, as gnubg stores them; ``resigned`` is 0 or the 1/2/3 points offered.
    """

    cube_value: int = 1
    cube_owner: Side | None = None
    on_roll: Side = WHITE
    crawford: bool = False
    game_state: GnubgGameState = GnubgGameState.PLAYING
    turn: Side = WHITE
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score_white: int = 0
    score_black: int = 0
    jacoby: bool = False

    def __post_init__(self) -> None:
        v = self.cube_value
        if not isinstance(v, int) or v < 1 or v & (v - 1) or v > 1 << 15:
            raise GnubgIdError(f"cube_value must be a power of two from 1 to 32768, got {v!r}")
        for name in ("cube_owner", "on_roll", "turn"):
            value = getattr(self, name)
            if not isinstance(value, Side) and not (name == "cube_owner" and value is None):
                raise GnubgIdError(f"{name} must be a Side, got {value!r}")
        object.__setattr__(self, "game_state", GnubgGameState(self.game_state))
        if self.resigned not in (0, 1, 2, 3):
            raise GnubgIdError(f"resigned must be 0, 1, 2 or 3, got {self.resigned!r}")
        if self.dice is not None:
            d = self.dice
            if len(d) != 2 or not all(isinstance(x, int) and 1 <= x <= 6 for x in d):
                raise GnubgIdError(f"dice must be two values from 1 to 6 or None, got {d!r}")
            object.__setattr__(self, "dice", (max(d), min(d)))
        for name in ("match_length", "score_white", "score_black"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= _MAX_SCORE:
                raise GnubgIdError(f"{name} must be from 0 to {_MAX_SCORE}, got {value!r}")
        if self.match_length:
            if max(self.score_white, self.score_black) > self.match_length:
                raise GnubgIdError(
                    f"a score of {max(self.score_white, self.score_black)} is past the "
                    f"{self.match_length}-point match"
                )
        elif self.crawford:
            raise GnubgIdError("a Crawford game belongs to a match, not money play")


_FIELDS = (  # (name, first bit, bits)
    ("cube", 0, 4),
    ("owner", 4, 2),
    ("move", 6, 1),
    ("crawford", 7, 1),
    ("state", 8, 3),
    ("turn", 11, 1),
    ("doubled", 12, 1),
    ("resigned", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


def format_match_id(state: GnubgMatchState) -> str:
    """The 12-character Match ID of ``state``."""
    dice = state.dice or (0, 0)
    values = {
        "cube": state.cube_value.bit_length() - 1,
        "owner": _OWNER_BITS[state.cube_owner],
        "move": _PLAYER[state.on_roll],
        "crawford": int(state.crawford),
        "state": int(state.game_state),
        "turn": _PLAYER[state.turn],
        "doubled": int(state.doubled),
        "resigned": state.resigned,
        "die1": dice[0],
        "die2": dice[1],
        "length": state.match_length,
        "score0": state.score_black,
        "score1": state.score_white,
        "no_jacoby": int(not state.jacoby),
    }
    key = 0
    for name, first, _ in _FIELDS:
        key |= values[name] << first
    return _encode(key, 9, MATCH_ID_LENGTH)


def parse_match_id(text: str) -> GnubgMatchState:
    """Every field of a Match ID; GnubgIdError names the first field that cannot be."""
    key = _decode(text, 9, MATCH_ID_LENGTH, "Match ID")
    f = {name: key >> first & ((1 << bits) - 1) for name, first, bits in _FIELDS}
    if key >> 67:
        raise GnubgIdError(f"the Match ID {text!r} has bits set past bit 66")
    if f["owner"] == 2:
        raise GnubgIdError(f"the Match ID {text!r} has cube owner 2 (0, 1 or 3 for the centre)")
    if f["state"] > max(GnubgGameState):
        raise GnubgIdError(f"the Match ID {text!r} has game state {f['state']} (0 to 4)")
    dice = (f["die1"], f["die2"])
    if 7 in dice or (0 in dice and dice != (0, 0)):
        raise GnubgIdError(f"the Match ID {text!r} has dice {dice}: two of 1-6, or both 0")
    try:
        return GnubgMatchState(
            cube_value=1 << f["cube"],
            cube_owner=_OWNER_FROM_BITS[f["owner"]],
            on_roll=WHITE if f["move"] else BLACK,
            crawford=bool(f["crawford"]),
            game_state=GnubgGameState(f["state"]),
            turn=WHITE if f["turn"] else BLACK,
            doubled=bool(f["doubled"]),
            resigned=f["resigned"],
            dice=None if dice == (0, 0) else dice,
            match_length=f["length"],
            score_white=f["score1"],
            score_black=f["score0"],
            jacoby=not f["no_jacoby"],
        )
    except GnubgIdError as exc:
        raise GnubgIdError(f"the Match ID {text!r}: {exc}") from None


# -- both, to and from an XgidState ------------------------------------------------------------


def match_state_of(state: XgidState) -> GnubgMatchState:
    """The Match ID fields of an XGID state (a game in play; no beaver or raccoon pending)."""
    if state.decision in ("beaver", "raccoon"):
        raise GnubgIdError(f"a GNU BG Match ID cannot record a pending {state.decision}")
    doubled = state.decision == "double"
    return GnubgMatchState(
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        on_roll=state.turn,
        crawford=state.crawford,
        game_state=GnubgGameState.PLAYING,
        turn=state.turn.other if doubled else state.turn,
        doubled=doubled,
        dice=state.dice,
        match_length=state.match_length,
        score_white=state.score_white,
        score_black=state.score_black,
        jacoby=state.jacoby,
    )


def format_gnubg_id(state: XgidState) -> str:
    """``POSITIONID:MATCHID`` of an XGID state, as gnubg shows it (dice larger first)."""
    match = format_match_id(match_state_of(state))
    return f"{format_position_id(state.position, state.turn)}:{match}"


def parse_gnubg_id(text: str) -> XgidState:
    """An XgidState from ``POSITIONID:MATCHID`` (optionally ``GNUBGID`` / ``GNUID=`` first).

    Only a game in play fits an XGID: a finished game or a pending resignation raises
    GnubgIdError. What a GNU BG ID does not hold takes its default: beavers not allowed,
    maximum cube 1024; in a match the Jacoby bit is ignored.
    """
    if not isinstance(text, str):
        raise GnubgIdError(f"a GNU BG ID is text, got {type(text).__name__}")
    body = text.strip()
    for prefix in ("GNUBGID", "GNUID"):
        if body.upper().startswith(prefix):
            body = body[len(prefix) :].lstrip(" =:")
    parts = body.split(":")
    if len(parts) != 2:
        raise GnubgIdError(f"a GNU BG ID is POSITIONID:MATCHID, got {text!r}")
    match = parse_match_id(parts[1])
    if match.game_state is not GnubgGameState.PLAYING:
        raise GnubgIdError(f"game state {match.game_state.name}: an XGID holds a game in play")
    if match.resigned:
        raise GnubgIdError("a resignation is offered: an XGID cannot record one")
    if match.doubled and match.turn is match.on_roll:
        raise GnubgIdError(f"{match.on_roll.value} doubled, yet is also the one to answer it")
    if not match.doubled and match.turn is not match.on_roll:
        raise GnubgIdError(
            f"{match.turn.value} is to act while {match.on_roll.value} is on roll, with no double "
            "or resignation pending"
        )
    if match.doubled and match.dice is not None:
        raise GnubgIdError("a double is offered yet the dice are rolled")
    position = parse_position_id(parts[0], match.on_roll)
    try:
        return XgidState(
            position=position,
            cube_value=match.cube_value,
            cube_owner=match.cube_owner,
            turn=match.on_roll,
            dice=match.dice,
            decision="double" if match.doubled else None,
            score_white=match.score_white,
            score_black=match.score_black,
            match_length=match.match_length,
            crawford=match.crawford,
            jacoby=match.jacoby and not match.match_length,
        )
    except XgidError as exc:
        raise GnubgIdError(str(exc)) from None
