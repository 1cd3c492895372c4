"""Jellyfish .mat match files: written exactly as GNU Backgammon exports them, and read back.

Players: the left column of a .mat is **white** (the side that is X, upper case, in our XGIDs),
the right column **black**. GNU Backgammon imports the left column as its player 0, which its
``gnubg.match()`` calls "X" and its SGF calls W; its own board display and XGID export show that
player on top as "O" (lower case): gnubg's drawing convention, not a change of sides. Moves are in
the mover's own numbering (25 = bar, 0 = off), one ``from/to`` per die, as gnubg writes them.

Writing follows gnubg's exporter (1.1) to the byte: header comments (``; [Site "..."]``,
``; [Event "..."]``, ``; [EventDate "yyyy.mm.dd"]``), `` N point match`` (0 for a money
session), `` Game N``, the score line, numbered lines of two 27-wide columns, `` Doubles => 2``,
`` Takes``, `` Drops``, `` Beavers => 4`` (a raccoon is written as a beaver, the take of a beaver
is not written), ``Wins N point(s)`` in the winner's column (gnubg adds no "and the match"). A
rejected resignation leaves no trace; a roll followed at once by its roller's resignation is
written as dice without a play; a resignation is known by the points it won (``Wins 4 points``
with the cube at 2 reads back as a gammon resigned).
Two rule tags gnubg ignores are added only where its defaults would be wrong: ``[Crawford "Off"]``
for a match without the Crawford rule, ``[Jacoby "On"]`` for a money session with it.

A .mat line holds a play as at most four moves of 1 to 6 pips (a bear-off: its point's number of
pips), each from a point holding a checker of the mover onto one not closed, applied in order from
the standard start: anything else gnubg drops ("Invalid move", or silently past four moves) and
our reader may misread (a fifth move is glued to the fourth). A recorded play, legal or let
stand, is written as recorded when it fits; else as the same change of the board that fits (its
moves in another order, the legal play reaching that position, or hops of at most 6 pips on open
points); else ``write_mat`` raises ``MatWriteError`` naming the game, the move and why (a checker
moving backwards or coming back from off, a game not starting from the start position, a play
whose checkers are not where the record's earlier plays left them): never a file that reads back
as another match.

A position set mid-game (the referee's or the camera's correction, or the board an illegal play
let stand left: ``engine.corrections``, a ``CorrectedGame``'s ``sets``) is written as eXtreme
Gammon's ``; Set Pos=<XGID position>/<cube>`` line, on a line of its own (the numbered line
before it ends there), followed on the same line by `` ; `` and who set it and why. GNU
Backgammon's importer reads the line (it sets the board and the cube, the next play's column
says who is on roll) and ignores the rest of it; the plays after it go on from the position
set. No made-up dice or plays: the .mat says the board was set, and why.

Reading is tolerant of whitespace, tabs, a byte-order mark, eXtreme Gammon's header tags and
``???``/``Cannot Move``, ``bar``/``off``, chained and counted moves (``24/18*/13``,
``13/7(2)``), moves of several dice written as one (``61: 13/6``), ``Doubles`` without a value,
``Wins ... and the match``, ``; Set Pos=`` lines (the game read becomes a ``CorrectedGame``).
Text it cannot read raises ``MatFileError`` with the line number.
What it reads is recorded as written, legal or not: ``engine.check`` judges it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .corrections import CAMERA, PLAY, REFEREE, SetPosition, corrected, game_sets
from .moves import (
    BAR,
    OFF,
    Step,
    can_move,
    format_play,
    from_relative,
    legal_plays,
    to_relative,
)
from .position import Position, Side
from .record import (
    RESULTS,
    Action,
    GameRecord,
    Kind,
    MatchRecord,
    StepError,
    is_legal,
    play_steps,
    unplayed,
    win_level,
    won_points,
)
from .rules import STANDARD, Rules
from .xgid import XgidError, format_position, parse_xgid

WHITE, BLACK = Side.WHITE, Side.BLACK
_ANIMALS = (Kind.BEAVER, Kind.RACCOON)


class MatFileError(ValueError):
    """A .mat file that cannot be read: ``line`` (1-based) and what is wrong there."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class MatWriteError(ValueError):
    """A record that a .mat cannot hold faithfully: ``game`` and ``move`` (the numbered line,
    as ``move_numbers`` counts) and why."""

    def __init__(self, game: int, move: int, message: str) -> None:
        super().__init__(f"game {game}, move {move}: {message}")
        self.game = game
        self.move = move
        self.message = message


# -- plays a line can hold ---------------------------------------------------------------------

MAX_MOVES = 4  # gnubg's importer reads at most four from/to moves per roll
MAX_PIPS = 6  # and refuses a move of more pips (unless it is a legal play's combined hop)
_Board = tuple[list[int], list[int]]  # (my, opp) counts in the mover's numbering (moves.py)


def _fits(board: _Board, steps: tuple[Step, ...], dice: tuple[int, int], rules: Rules
          ) -> tuple[_Board, tuple[Step, ...]] | None:
    """(the board after, the steps with their hits marked where they land on a blot) if gnubg's
    importer takes ``steps`` as written, else None: at most four, each 1-6 pips from a checker
    of the mover onto a point not closed; with doubles none longer than the die (gnubg splits
    such a move into the die's hops), otherwise none of several as long as both dice (gnubg
    reads the first move, in its order, so long as a combined move and drops the rest)."""
    if len(steps) > MAX_MOVES or not steps:
        return None if steps else (board, steps)
    if dice[0] == dice[1]:
        if any(s.src - s.dst > dice[0] for s in steps):
            return None
    elif len(steps) > 1 and any(s.src - s.dst == dice[0] + dice[1] for s in steps):
        return None
    my, opp = list(board[0]), list(board[1])
    made = []
    for s in steps:
        if not (0 <= s.dst < s.src <= BAR and s.src - s.dst <= MAX_PIPS) or my[s.src] < 1:
            return None
        if s.dst != OFF and opp[s.dst] >= rules.block:
            return None
        my[s.src] -= 1
        my[s.dst] += 1
        hit = s.dst != OFF and opp[s.dst] == 1
        if hit:
            opp[s.dst] = 0
            opp[BAR] += 1
        made.append(s if s.hit == hit else Step(s.src, s.dst, s.die, hit))
    return (my, opp), tuple(made)


def _target(board: _Board, steps: tuple[Step, ...], rules: Rules) -> tuple[_Board | None, str]:
    """The board the recorded steps leave, each checker moved where the step says whatever the
    direction or distance (a blot landed on is hit); (None, why) when no board can show it."""
    my, opp = list(board[0]), list(board[1])
    for s in steps:
        move = f"{_point(s.src)}/{_point(s.dst)}"
        if not (0 <= s.dst <= BAR and 0 <= s.src <= BAR) or s.src == s.dst:
            return None, f"{move} is not a move"
        if my[s.src] < 1:
            return None, (f"{move}: no checker of the mover on {_point(s.src)} where the "
                          "record's earlier plays leave them (a corrected position?)")
        if s.dst not in (OFF, BAR) and opp[s.dst] >= rules.block:
            return None, f"{move}: {s.dst} is closed"
        my[s.src] -= 1
        my[s.dst] += 1
        if s.dst not in (OFF, BAR) and opp[s.dst] == 1:
            opp[s.dst] = 0
            opp[BAR] += 1
    return (my, opp), ""


def _point(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def _pips(my: list[int]) -> int:
    return sum(p * my[p] for p in range(1, BAR + 1))


def _hops(board: _Board, target: _Board, dice: tuple[int, int], rules: Rules
          ) -> tuple[Step, ...] | None:
    """At most four moves that turn ``board`` into ``target`` and that ``_fits`` takes (a
    depth-first search over moves of 1-6 pips, or up to the die with doubles, onto open
    points; fewest moves first), or None."""
    goal_my, goal_opp = target
    longest = dice[0] if dice[0] == dice[1] else MAX_PIPS

    def search(my: list[int], opp: list[int], left: int, pips: int) -> Iterator[list[Step]]:
        if my == goal_my and opp == goal_opp:
            yield []
            return
        if left == 0 or pips > longest * left:
            return
        for src in range(BAR, 0, -1):
            if my[src] <= goal_my[src]:
                continue
            for d in range(1, min(longest, pips, src) + 1):
                dst = src - d
                hit = dst != OFF and opp[dst] == 1
                if dst != OFF and opp[dst] >= rules.block or hit and goal_opp[dst] == 1:
                    continue
                my[src] -= 1
                my[dst] += 1
                if hit:
                    opp[dst], opp[BAR] = 0, opp[BAR] + 1
                for rest in search(my, opp, left - 1, pips - d):
                    yield [Step(src, dst, d, hit), *rest]
                if hit:
                    opp[dst], opp[BAR] = 1, opp[BAR] - 1
                my[src] += 1
                my[dst] -= 1

    pips = _pips(board[0]) - _pips(goal_my)
    if pips < 0:
        return None
    for depth in range(1, MAX_MOVES + 1):  # fewest moves first
        for found in search(list(board[0]), list(board[1]), depth, pips):
            if _fits(board, tuple(found), dice, rules) is not None:
                return tuple(found)
    return None


def _writable(pos: Position, side: Side, dice: tuple[int, int], steps: tuple[Step, ...],
              rules: Rules) -> tuple[tuple[Step, ...], Position, str]:
    """(steps a .mat line holds, the position after, "") for a recorded play: the steps as
    recorded when they fit, else the same change of the board in steps that fit; ((), pos, why)
    when no line can hold it."""
    board = to_relative(pos, side, rules)
    done = _fits(board, steps, dice, rules)
    if done is not None:
        return done[1], from_relative(*done[0], side, rules), ""
    target, why = _target(board, steps, rules)
    if target is None:
        return (), pos, why
    after = from_relative(*target, side, rules)
    for play in legal_plays(pos, side, dice, rules):
        if play.after == after and _fits(board, play.steps, dice, rules) is not None:
            return play.steps, after, ""
    hops = _hops(board, target, dice, rules)
    if hops is not None:
        return hops, after, ""
    back = [s for s in steps if s.dst >= s.src]
    if back:
        return (), pos, (f"{_point(back[0].src)}/{_point(back[0].dst)} moves a checker "
                         "backwards (a misread, or a play recorded for the wrong side?)")
    return (), pos, (f"a line holds at most {MAX_MOVES} moves of 1 to {MAX_PIPS} pips (with "
                     "doubles: up to the die) onto open points, and none reaches the position "
                     "this play leaves")


# -- layout: which action goes in which slot (shared by the writer and the checker) -------------


@dataclass
class _Rec:
    """One written item: ``kind`` is move, dice, double, beaver, take, drop or resign; or
    ``bad``, a play no line can hold (``text`` says why: the writer raises it)."""

    kind: str
    side: Side
    index: int  # of the action in the game
    text: str = ""
    slot: int = 0  # gnubg's running item counter: even = left column; line = slot // 2 + 1
    sets: list[SetPosition] = field(default_factory=list)  # written on lines of their own before


def _plain(steps: tuple[Step, ...]) -> str:
    """gnubg's plain move text: ``from/to`` per die, ``*`` on a hit, a space after the first 3."""
    return "".join(
        f"{s.src}/{s.dst}{'*' if s.hit else ''}{' ' if k < 3 else ''}" for k, s in enumerate(steps)
    )


def _records(game: GameRecord, rules: Rules) -> list[_Rec]:
    acts = game.actions
    recs: list[_Rec] = []
    offer: Kind | None = None
    pos = game.start
    sets = game_sets(game)
    for k, a in enumerate(acts):
        if k in sets:  # the board set here (a correction): the plays go on from it
            pos = sets[k][-1].position
        if a.kind is Kind.ROLL:
            if a.dice is None:
                recs.append(_Rec("bad", a.side, k, "a roll without dice"))
                continue
            dice = f"{a.dice[0]}{a.dice[1]}: "
            if rules != STANDARD:  # no .mat for variants (write_mat refuses): numbering only
                kind = "dice" if unplayed(game, k, rules) else "move"
                recs.append(_Rec(kind, a.side, k, dice))
                offer = None
                continue
            steps, after, why = _writable(pos, a.side, a.dice, a.steps, rules)
            stops = _stops(game, k)
            if not why and not a.steps and not stops:
                why = _unmoved(pos, a.side, a.dice, rules)
            if why:
                play = a.notation or " ".join(f"{_point(s.src)}/{_point(s.dst)}" for s in a.steps)
                text = f"{a.side.value}'s {dice[:2]} {play or '(no move)'}"
                recs.append(_Rec("bad", a.side, k, f"{text} cannot be written in a .mat: {why}"))
            elif not a.steps and stops and can_move(pos, a.side, a.dice, rules):
                recs.append(_Rec("dice", a.side, k, dice))
            else:
                recs.append(_Rec("move", a.side, k, dice + _plain(steps)))
            pos = after
            offer = None
        elif a.kind is Kind.DOUBLE:
            recs.append(_Rec("double", a.side, k, f" Doubles => {a.value}"))
            offer = a.kind
        elif a.kind in _ANIMALS:
            recs.append(_Rec("beaver", a.side, k, f" Beavers => {a.value}"))
            offer = a.kind
        elif a.kind is Kind.TAKE:
            if offer not in _ANIMALS:
                recs.append(_Rec("take", a.side, k, " Takes"))
            offer = None
        elif a.kind is Kind.DROP:
            recs.append(_Rec("drop", a.side, k))
        elif a.kind is Kind.RESIGN and _accepted(acts, k):
            recs.append(_Rec("resign", a.side, k))
    return recs


def _unmoved(pos: Position, side: Side, dice: tuple[int, int], rules: Rules) -> str:
    """Why a roll played without moving a checker cannot be written ("" when it can): gnubg
    reads dice without a play as the one play they allow when there is only one."""
    plays = legal_plays(pos, side, dice, rules)
    if len(plays) == 1 and plays[0].steps:
        return (f"the dice allow one play only ({plays[0].notation}), and a line without a play "
                "is read as that play")
    return ""


def _stops(game: GameRecord, k: int) -> bool:
    """Whether the roll at ``k`` is its roller's last act: a resignation follows, or the
    unfinished game stops there (then dice that could move are dice without a play:
    ``engine.record.unplayed``, on the position as written)."""
    nxt = game.actions[k + 1] if k + 1 < len(game.actions) else None
    return nxt.kind is Kind.RESIGN and nxt.side is game.actions[k].side if nxt \
        else game.winner is None


def _accepted(acts: list[Action], k: int) -> bool:
    for a in acts[k + 1 :]:
        if a.kind in (Kind.ACCEPT, Kind.WIN):
            return True
        if a.kind is Kind.REJECT or a.kind is Kind.ROLL:
            return False
    return False


def _layout(game: GameRecord, rules: Rules) -> list[_Rec]:
    """The records with their slots; a side's items stay in its column (an empty slot between);
    a position set before an item ends the line it would share (its ``Set Pos`` line between)."""
    recs = _records(game, rules)
    sets = game_sets(game)
    i = 0
    done = -1  # the last action index written
    for rec in recs:
        rec.sets = [s for k in sorted(sets) if done < k <= rec.index for s in sets[k]]
        if rec.sets:
            i += i % 2
        if rec.kind != "resign" and (i % 2 == 1) != (rec.side is BLACK):
            i += 1
        rec.slot = i
        i += 1
        done = rec.index
    return recs


def _trailing(game: GameRecord, recs: list[_Rec]) -> list[SetPosition]:
    """The positions set after the last written item."""
    done = recs[-1].index if recs else -1
    sets = game_sets(game)
    return [s for k in sorted(sets) if k > done for s in sets[k]]


SET_POS = "; Set Pos="  # eXtreme Gammon's set position line, which GNU Backgammon reads too


def set_pos_line(s: SetPosition) -> str:
    """The ``; Set Pos=`` line of a position set mid-game, as GNU Backgammon's importer reads it:
    the XGID position field (26 characters), ``/``, the cube (``0`` centred, ``N`` owned by the
    right column, black, ``-N`` by the left, white; N = log2 of its value), then `` ; `` and who
    set it and why (the importers ignore the rest of the line: never the words "Game " there,
    which end a game for gnubg)."""
    log = s.cube_value.bit_length() - 1
    if s.cube_owner is not None and not 1 <= log <= 9 or s.cube_value & (s.cube_value - 1):
        raise ValueError(f"a Set Pos line cannot hold a cube of {s.cube_value}")
    cube = "0" if s.cube_owner is None else f"-{log}" if s.cube_owner is WHITE else str(log)
    words = " ".join(s.describe().split()).replace("Game ", "game ")[:800]
    return f"{SET_POS}{format_position(s.position)}/{cube} ; {words}"


def _read_set_pos(line: str, lineno: int) -> SetPosition:
    """A ``; Set Pos=`` line (``set_pos_line``; eXtreme Gammon's own: the same first 38-39
    characters) as a ``SetPosition``."""
    body = line[len(SET_POS):]
    if len(body) < 28 or body[26] != "/":
        raise MatFileError(lineno, "a Set Pos line is '; Set Pos=' + the 26 characters of an "
                                   "XGID position + '/' + the cube")
    try:
        pos = parse_xgid(f"XGID={body[:26]}:0:0:1:00:0:0:0:0:10").position
    except XgidError as exc:
        raise MatFileError(lineno, f"bad Set Pos position: {exc}") from None
    cube = re.match(r"(-?)(\d)", body[27:])
    if not cube:
        raise MatFileError(lineno, f"bad Set Pos cube {body[27:29]!r}")
    log = int(cube[2])
    owner = None if log == 0 else WHITE if cube[1] else BLACK
    words = body[27 + len(cube[0]):].strip().lstrip(";").strip()
    source = (CAMERA if words.startswith("the camera") else PLAY
              if words.startswith("the board the play") else REFEREE)
    reason = words.split(": ", 1)[1] if ": " in words else ""
    return SetPosition(pos, None, 1 << log, owner, source, reason)


def move_numbers(game: GameRecord, rules: Rules = STANDARD) -> list[int]:
    """For each action, the numbered .mat line it is on (unwritten ones: the line they follow)."""
    numbers = [0] * len(game.actions)
    recs = {r.index: r for r in _layout(game, rules)}
    current = 1
    for k in range(len(game.actions)):
        if k in recs:
            current = recs[k].slot // 2 + 1
        numbers[k] = current
    return numbers


# -- writing ------------------------------------------------------------------------------------


def _wins(n: int) -> str:
    return f"Wins {n} point{'' if n == 1 else 's'}"


def _resign_text(white_resigns: bool, odd: bool, dice_rolled: bool, n: int) -> str:
    """gnubg's spacing of a resignation's Wins line, which depends on the slot it falls in."""
    if not white_resigns:
        return ("\n" if odd ^ dice_rolled else "") + "      " + _wins(n) + "\n"
    if odd:
        return (" " * 24 if dice_rolled else " ") + _wins(n) + "\n"
    return (" " if dice_rolled else " " * 34) + _wins(n) + "\n"


def _write_game(out: list[str], record: MatchRecord, game: GameRecord) -> None:
    out.append(f" Game {game.number}\n")
    left = f"{record.white} : {game.score_white}"
    out.append(f" {left:<31}{record.black} : {game.score_black}\n")
    if game.start != record.rules.start:
        raise MatWriteError(game.number, 0, "the game does not start from the start position: "
                            "a .mat cannot say where the checkers stood")
    recs = _layout(game, record.rules)
    for rec in recs:
        if rec.kind == "bad":
            raise MatWriteError(game.number, rec.slot // 2 + 1, rec.text)
    n = won_points(game)
    i = 0
    dice_rolled = False
    for rec in recs:
        if rec.sets:  # the line ends, the board is set, the next line goes on from it
            while i % 2:
                out.append("  \n")
                i += 1
            out.extend(set_pos_line(s) + "\n" for s in rec.sets)
        while i < rec.slot:  # an empty slot (gnubg's unwritten take of a raccoon) keeps the
            out.append("  \n" if i % 2 else f"{i // 2 + 1:3d}) {'':<27} ")  # columns in turn
            i += 1
        odd = i % 2 == 1
        sz = rec.text
        if rec.kind == "move":
            dice_rolled = False
        elif rec.kind == "dice":
            dice_rolled = True
        elif rec.kind == "drop":
            sz = " Drops" + ("\n      " if odd else " " * 23) + _wins(n)
        elif rec.kind == "resign":
            sz = _resign_text(rec.side is WHITE, odd, dice_rolled, n)
        if odd or rec.kind == "resign":
            out.append(sz if rec.kind == "dice" else sz + "\n")
        elif rec.kind == "dice":
            out.append(f"{i // 2 + 1:3d}) {sz:<3}")
        else:
            out.append(f"{i // 2 + 1:3d}) {sz:<27} ")
        if rec.kind == "drop":
            out.append("\n" if odd else "\n\n")
        i += 1
    after = _trailing(game, recs)
    if after:
        out.append("\n" if i % 2 else "")
        out.extend(set_pos_line(s) + "\n" for s in after)
        if game.winner is not None and (not recs or recs[-1].kind not in ("drop", "resign")):
            col = " " * 34 if game.winner is BLACK else "      "
            out.append(col + _wins(n) + "\n\n")
    elif game.winner is not None and recs and recs[-1].kind not in ("drop", "resign"):
        odd = recs[-1].slot % 2 == 1
        out.append((" " * 34 if odd else "\n      ") + _wins(n) + "\n\n")


def write_mat(record: MatchRecord) -> str:
    """The match as GNU Backgammon's ``export match mat`` writes it; ``MatWriteError`` (naming
    the game and move) for a play or a game no .mat can hold (see the module notes)."""
    if record.rules != STANDARD:
        raise ValueError(f"{record.rules.name} cannot be written as a .mat (backgammon only)")
    out: list[str] = []
    if record.place:
        out.append(f'; [Site "{record.place}"]\n')
    if record.event:
        out.append(f'; [Event "{record.event}"]\n')
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", record.date) and record.date[:4] > "1900":
        out.append(f'; [EventDate "{record.date.replace("-", ".")}"]\n')
    if record.length and not record.crawford:
        out.append('; [Crawford "Off"]\n')
    if not record.length and record.jacoby:
        out.append('; [Jacoby "On"]\n')
    out.append(f"\n {record.length} point match\n\n")
    for game in record.games:
        _write_game(out, record, game)
    return "".join(out)


# -- reading: text to items ---------------------------------------------------------------------

_MATCH = re.compile(r"^\s*(\d+)\s*points?\s+match\b", re.I)
_GAME = re.compile(r"^\s*game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_TAG = re.compile(r'^\[\s*([\w ]+?)\s+"(.*)"\s*\]$')
_NUMBERED = re.compile(r"^\s*\d+\)")
_DICE = re.compile(r"^([1-6])([1-6]):(.*)$")
_MOVE = re.compile(r"^(?:bar|off|\d+)\*?(?:[/-](?:bar|off|\d+)\*?)+(?:\((\d)\))?$", re.I)
_KEYWORDS = {
    "double": Kind.DOUBLE,
    "beaver": Kind.BEAVER,
    "raccoon": Kind.RACCOON,
    "take": Kind.TAKE,
    "accept": Kind.TAKE,
    "drop": Kind.DROP,
    "pass": Kind.DROP,
    "reject": Kind.DROP,
    "win": Kind.WIN,
}


_WORDS = ("point", "points", "and", "the", "match", "match.", "a", "single", "gammon",
          "backgammon", "game")


@dataclass
class _Item:
    kind: Kind
    side: Side
    line: int
    dice: tuple[int, int] | None = None
    moves: tuple[str, ...] = ()
    value: int | None = None


def _keyword(token: str) -> Kind | None:
    t = token.lower()
    for word, kind in _KEYWORDS.items():
        if t.startswith(word):
            return kind
    return None


def _items(text: str, start_col: int, lineno: int, numbered: bool) -> list[_Item]:
    """The items on one line, each in the column where it starts."""
    tokens = [(m.group(), start_col + m.start()) for m in re.finditer(r"\S+", text)]
    items: list[_Item] = []
    k = 0
    while k < len(tokens):
        tok, col = tokens[k]
        # the first item is left unless far off (8 spaces after "N)", or column 20 on a line
        # without a number); a further item is right
        right = bool(items) or (col - start_col >= 8 if numbered else col >= 20)
        side = BLACK if right else WHITE
        k += 1
        dice = _DICE.match(tok)
        if dice:
            glued = dice[3]  # "43:13/9"
            if glued and not _MOVE.match(glued):
                raise MatFileError(lineno, f"cannot read the move {glued!r}")
            moves = [glued] if glued else []
            while k < len(tokens) and (_MOVE.match(tokens[k][0]) or set(tokens[k][0]) == {"?"}):
                moves.append(tokens[k][0])  # XG writes "???" for a roll before a resignation
                k += 1
            if k < len(tokens) and tokens[k][0].lower() == "cannot":  # XG: "Cannot Move"
                k += 1
                if k < len(tokens) and tokens[k][0].lower().startswith("move"):
                    k += 1
            items.append(_Item(Kind.ROLL, side, lineno, (int(dice[1]), int(dice[2])),
                               tuple(m for m in moves if set(m) != {"?"})))
            continue
        if tok.lower().startswith("resign"):  # .gam "Resigns": the Wins line says it all
            while k < len(tokens) and (tokens[k][0].isdecimal() or tokens[k][0].lower() in _WORDS):
                k += 1
            continue
        kind = _keyword(tok)
        if kind is None:
            if tok.lower().startswith("illegal"):
                raise MatFileError(lineno, "Snowie 'Illegal play' entries cannot be read")
            what = "a move without dice" if _MOVE.match(tok) else f"cannot read {tok!r}"
            raise MatFileError(lineno, what)
        item = _Item(kind, side, lineno)
        if kind is Kind.WIN:
            if k >= len(tokens) or not tokens[k][0].isdecimal():
                raise MatFileError(lineno, "'Wins' needs a number of points")
            item.value = int(tokens[k][0])
            k += 1
            while k < len(tokens) and tokens[k][0].lower() in _WORDS:
                k += 1
        elif k + 1 < len(tokens) and tokens[k][0] == "=>":
            if not tokens[k + 1][0].isdecimal():
                raise MatFileError(lineno, f"'{tok} =>' needs a cube value")
            item.value = int(tokens[k + 1][0])
            k += 2
        items.append(item)
    return items


# -- reading: items to actions ------------------------------------------------------------------


def _segments(moves: tuple[str, ...], lineno: int) -> list[tuple[int, int]]:
    """``from/to`` pairs, one per checker hop as written (chains split, counts repeated)."""
    segs: list[tuple[int, int]] = []
    for m in moves:
        count = re.search(r"\((\d)\)$", m)
        body = m[: count.start()] if count else m
        points = []
        for p in re.split(r"[/-]", body.replace("*", "").lower()):
            n = BAR if p == "bar" else OFF if p == "off" else int(p)
            if n > BAR:
                raise MatFileError(lineno, f"{p} is not a point (1-24, 25 or bar, 0 or off)")
            points.append(n)
        hops = list(zip(points, points[1:], strict=False))
        segs += hops * (int(count[1]) if count else 1)
    return segs


def _in_order(pos: Position, side: Side, dice: tuple[int, int], segs: list[tuple[int, int]],
              rules: Rules) -> tuple[Position, tuple[Step, ...]] | None:
    """One die per hop, in the written order, if the dice and the board allow it."""
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    steps = []
    for src, dst in segs:
        dist = src - dst
        over = [d for d in pool if d > dist and dst == OFF]
        die = dist if dist in pool else min(over) if over else None
        if die is None:
            return None
        pool.remove(die)
        steps.append(Step(src, dst, die, False))
    try:
        return play_steps(pos, side, steps, rules)
    except StepError:
        return None


def _resolve(pos: Position, side: Side, dice: tuple[int, int], segs: list[tuple[int, int]],
             rules: Rules) -> tuple[tuple[Step, ...], Position, bool, str]:
    """(steps, position after, legal, why steps were impossible) for the hops of one roll."""
    if not segs:
        return (), pos, is_legal(pos, side, dice, pos, rules), ""
    ordered = _in_order(pos, side, dice, segs, rules)
    if ordered is not None:
        after, steps = ordered
        return steps, after, is_legal(pos, side, dice, after, rules), ""
    # a hop of several dice (61: 13/6), an order the board refuses, or a play the dice do not make
    errors: list[str] = []
    raw = [Step(s, d, s - d if 0 < s - d <= 6 else 0, False) for s, d in segs]
    after, made = play_steps(pos, side, raw, rules, errors)
    steps = made if not errors else tuple(raw)
    for play in legal_plays(pos, side, dice, rules) if not errors else []:
        if play.after == after:
            return play.steps, after, True, ""
    return steps, after, False, "; ".join(errors)


class _GameReader:
    """Turns one game's items into actions, keeping the position and the cube offer in step."""

    def __init__(self, game: GameRecord, rules: Rules, money: bool, jacoby: bool) -> None:
        self.game = game
        self.rules = rules
        self.money = money
        self.jacoby = jacoby
        self.pos = game.start
        self.cube = 1
        self.turned = False
        self.offer: Action | None = None
        self.ended: str = ""  # "drop" or "bearoff" once the game is decided
        self.last_set: SetPosition | None = None

    def add(self, item: _Item) -> None:
        g = self.game
        kind, side, offer = item.kind, item.side, self.offer
        if kind is Kind.ROLL:
            self._roll(item)
        elif kind is Kind.WIN:
            self._win(item)
        elif kind in (Kind.DOUBLE, *_ANIMALS):
            if kind is Kind.BEAVER and offer is not None and offer.kind is Kind.BEAVER:
                kind = Kind.RACCOON  # gnubg writes a raccoon as a second beaver
            base = offer.value if offer is not None and kind in _ANIMALS else None
            value = item.value or (base or self.cube) * 2
            self.offer = Action(side, kind, value=value, line=item.line)
            g.actions.append(self.offer)
        else:
            g.actions.append(Action(side, kind, line=item.line))
            if kind is Kind.TAKE and offer is not None:
                self.cube = offer.value or self.cube * 2
                self.turned = True
                self.offer = None
            elif kind is Kind.DROP:
                self.ended = "drop"

    def set_position(self, s: SetPosition) -> int:
        """A position set here (a ``Set Pos`` line): the plays go on from it. Returns the index
        of the action it comes before."""
        self.pos = s.position
        self.cube = s.cube_value
        self.turned = self.turned or s.cube_owner is not None
        self.offer = None
        self.last_set = s
        return len(self.game.actions)

    def _roll(self, item: _Item) -> None:
        assert item.dice is not None
        if self.offer is not None and self.offer.kind in _ANIMALS:
            self.cube = self.offer.value or self.cube
            self.turned = True
        self.offer = None
        g = self.game
        if g.first is None:
            g.first = item.side
        segs = _segments(item.moves, item.line)
        steps, after, legal, note = _resolve(self.pos, item.side, item.dice, segs, self.rules)
        notation = format_play(steps, self.pos, item.side, self.rules) if not note else ""
        g.actions.append(Action(item.side, Kind.ROLL, item.dice, steps, notation,
                                illegal=not legal and bool(steps), note=note, line=item.line))
        self.pos = after
        if after.off(item.side) == 15 and not self.ended:
            self.ended = "bearoff"

    def _win(self, item: _Item) -> None:
        g = self.game
        winner, n = item.side, item.value or 0
        if not self.ended:  # neither a drop nor a bear-off: the loser resigned
            level = 1 if n <= self.cube else 2 if n <= 2 * self.cube else 3
            g.actions.append(Action(winner.other, Kind.RESIGN, value=level, line=item.line))
            g.actions.append(Action(winner, Kind.ACCEPT, line=item.line))
            self.ended = "resign"
        g.actions.append(Action(winner, Kind.WIN, value=n, line=item.line))
        g.winner, g.points = winner, n
        if self.ended == "bearoff":
            level = win_level(self.pos, winner, self.rules)
            if self.money and self.jacoby and not self.turned:
                level = 1
            g.result = RESULTS[level]
        else:
            g.result = self.ended


def _comment_tag(line: str, record: MatchRecord) -> None:
    tag = _TAG.match(line.lstrip(";#").strip())
    if not tag:
        return
    key, value = tag[1].lower(), tag[2]
    if key == "site":
        record.place = value
    elif key == "event":
        record.event = value
    elif key == "eventdate":
        date = re.fullmatch(r"(\d{4})[.-](\d{1,2})[.-](\d{1,2})", value.strip())
        if date:
            record.date = f"{date[1]}-{int(date[2]):02d}-{int(date[3]):02d}"
    elif key == "crawford":
        record.crawford = value.strip().lower() != "off"
    elif key == "jacoby":
        record.jacoby = value.strip().lower() == "on"
    elif key == "variation" and not value.lower().startswith("backgammon"):
        raise MatFileError(0, f"the variation {value!r} cannot be read (backgammon only)")


def read_mat(text: str) -> MatchRecord:
    """A ``MatchRecord`` from .mat text (see the module notes); ``MatFileError`` if unreadable."""
    lines = text.lstrip("\ufeff").expandtabs(8).splitlines()
    record = MatchRecord(length=0)
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if line.lstrip().startswith((";", "#")):
            try:
                _comment_tag(line, record)
            except MatFileError as exc:
                raise MatFileError(k, exc.message) from None
            continue
        found = _MATCH.match(line)
        if found:
            record.length = int(found[1])
            break
    else:
        raise MatFileError(max(len(lines), 1), "no 'N point match' line: not a .mat file")
    if record.length:
        record.jacoby = False
    reader: _GameReader | None = None
    crawford_seen = False
    while k < len(lines):
        line = lines[k]
        k += 1
        stripped = line.strip()
        if stripped.startswith(SET_POS):
            if reader is None:
                raise MatFileError(k, "a Set Pos line before 'Game 1'")
            at = reader.set_position(_read_set_pos(stripped, k))
            record.games[-1] = reader.game = corrected(reader.game, {at: [reader.last_set]})
            continue
        if not stripped or stripped.startswith(("#", ";")):
            continue
        game_line = _GAME.match(line)
        if game_line:
            reader = _start_game(record, int(game_line[1]), lines, k, crawford_seen)
            crawford_seen = crawford_seen or reader.game.crawford
            k += 1 + _blank_run(lines, k)
            continue
        if reader is None:
            raise MatFileError(k, f"expected 'Game 1', found {stripped[:40]!r}")
        numbered = _NUMBERED.match(line)
        start = numbered.end() if numbered else 0
        for item in _items(line[start:], start, k, bool(numbered)):
            reader.add(item)
    return record


def _blank_run(lines: list[str], k: int) -> int:
    n = 0
    while k + n < len(lines) and not lines[k + n].strip():
        n += 1
    return n


def _start_game(record: MatchRecord, number: int, lines: list[str], k: int,
                crawford_seen: bool) -> _GameReader:
    skip = _blank_run(lines, k)
    at = k + skip
    score = _SCORE.match(lines[at]) if at < len(lines) else None
    if not score:
        raise MatFileError(at + 1 if at < len(lines) else k,
                           "expected the score line 'Name : score   Name : score'")
    if not record.games:
        record.white, record.black = score[1], score[3]
    w, b = int(score[2]), int(score[4])
    n = record.length
    crawford = bool(n and record.crawford and not crawford_seen and (w == n - 1) != (b == n - 1))
    game = GameRecord(number, w, b, crawford=crawford, start=record.rules.start)
    record.games.append(game)
    return _GameReader(game, record.rules, record.length == 0, record.jacoby)
