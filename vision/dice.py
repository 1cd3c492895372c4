"""Dice: find them on the playing field, read each die's value from its pips, pair them and say
whose roll it is and whether it counts.

Finding works on the strip evidence the checker reader already made (no extra pass over the
frame): the 24 point strips laid side by side form a low-resolution "field mosaic" of the
playing area; pixels that are not empty board and not under a counted checker (a stack's slots
that only one first-row length has count only where the strip shows its checkers), grouped into
die-sized blobs at half the mosaic's resolution, are candidates (a blob too big or too long,
a die merged with a shadow or a point's edge, gives its widest spot). Each candidate is then read
at full resolution in a small window of the board plane sampled straight from the frame (the
empty-board template of the window is a slice of a per-profile canvas): no pip-like spot near
it, no die; else the die's footprint against the template; its top face and value are found by
:mod:`vision.pips` (the best-fitting pip layout's pose, then the nine pip places read there; only
a clear, self-consistent read is taken: a refusal is better than a wrong roll). A candidate whose
footprint is lost (a die of the board's colour, one merged with its shadow or a checker, a thin
one) is still read on a disc round it, but only a plain value (not a 1) on a face that is mostly
foreground makes it a die. A streak's footprint (long or thin: a die merged with its shadow or
a point's edge, or a leaning die) is read too (every round of the face search), and
whether it leans stays the footprint's say (unless a window centred on its face reads the same
value on a footprint that is no streak); a sliver (long and narrower than a die: a checker's
edge) is no die, nor is a long footprint whose face is refused (a point's tip or edge). A face
the pip reader fits but refuses is handed to a small learned classifier (:mod:`vision.dieface`:
a 12 x 12 crop of the fitted face square, a linear discriminant trained on rendered tuning-seed
dice by ``python -m bench.bench_dice --train``), which may read it only as the pip reader's own
best layout and by a wide margin.

Two touching dice make one blob, whose candidate (its centre) reads one of them off that
centre: the window as far past the centre the other way is read too (:func:`_twin`).

The board's plane window already shows the top face square: the plane of the top face maps onto
the board's plane by a scaling about the camera's foot (:mod:`vision.pose`), 1.007..1.015 times
on the scenes, so the face's size range covers it and no per-die rectification is needed. The
shift is not small: a die's side up, its top face is seen up to half a die's side away from
its base (away from the camera's foot), and the footprint holds the top face and the sides the
camera sees; the face search also looks where the pose puts the top face (:func:`top_lift`).

A settled board is read frame after frame: the reader remembers the last frame's windows and
what they showed (:class:`DiceMemory`), and a window that still shows the same picture is not
read again (the live pipeline's settled frames mostly show the dice of the frame before:
``bench.bench_vision --footage``). The settle gate lets some frames of tumbling dice through,
whose faces are random: a value is reported only when the previous settled frame read the same
value there (:data:`CONFIRM`; ``bench.bench_dice_footage``); the first frame after the memory
is forgotten (a new scene, a single photo) stands as read.

Ownership follows the tournament rule: each player rolls into the right-hand half from their own
seat (white sits at the bottom of the canonical board: the right half; black: the left half). A
die leaning (cocked: an unread die's footprint not square, or pressed against a checker; any die
at the bar's wall or the field's edge) makes the roll not count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from engine.observation import Dice

from . import dieface
from .appearance import ColourModel, to_lab
from .blocks import block_means
from .facefit import one_on_body
from .geometry import Layout
from .pins import SHIFT as PIN_SHIFT
from .pips import Face, pip_spots, read_face, read_pips
from .stacks import MAX_STACK, point_masks
from .strips import SW, frame_maps, sample, strip_kinds, strip_length, strip_specs

DIE_D = 0.38  # a die's side / checker diameter (13..17 mm dice, 40 mm checkers)
WIN = 56  # read window side (pixels)
WIN_DIES = 3.2  # read window side in die sides
MIN_FACE_PX = 7.0  # a face read needs at least this many frame pixels across
FG_SIGMA2 = 25.0  # squared template distance (in sigmas) from which a pixel is foreground
MIN_BLOB = 0.3  # a candidate blob's least area in die faces (masked dice show 0.3..)
MAX_BLOB_ASPECT = 3.0  # a longer blob is a streak (a point's edge, a shadow's rim)
MERGED_MAX = 30.0  # a bigger blob (in die faces) holds no die worth looking for
DEEPER = 4.0  # a blob over MERGED_MAX is searched again at this x the threshold
DEEPER_LEVELS = 2  # this many times (0: not)
STREAK_DEEP = False  # so is a streak or a merged blob under MERGED_MAX (besides its widest
# spots; tuning 700000+ right +0.4 %, 1000+ +0.2 %, held-out 900000+ +0, for about 2 ms a frame)
CLOSE = True  # join the half-resolution foreground's near pixels (a plain die's pips)
WIDE = 0.4  # a merged blob's spot this far (x a die's side) from its rim may be a die
STREAK_ASPECT = 2.2  # a footprint longer than this (x its width) is a streak (a die merged with
STREAK_FILL = 0.45  # a shadow or a point's edge, or a leaning one), as is one filling less of
# its rectangle: its face is read (STREAK_READ) but whether it leans is the footprint's say
STREAK_READ = True
STREAK_ROUNDS = (True, True)  # a streak's face search: its second and third rounds (bench_dice
# 32 x 5 tuning 700000+ right +1 die, 1000+ +0, 1 more flat die called cocked; with RECENTRE
# held-out footage 900002 illegal_standing turn 12's 6 on a white point's edge reads flat)
FLAT_SPARE = True  # a read window whose reading is taken only as a flat read die (a candidate
# past the blob finder's, a twin) spares the face reads that can only end cocked (read_die's
# ``flat_only``; the same dice read, less time)
TWIN = True  # a read die off its blob's centre: the other of two touching dice (:func:`_twin`)
TWIN_OFF = 0.3
TWIN_FAR: float | None = 1.1  # ... and, when that window lies under this many dice from the read
# die (the blob's centre near the read die: the other die's part of the blob faint), a window
# this far from it the same way (two flat dice's centres lie a die's side apart at least; see
# TWIN_CUT)
AVOID_R = 0.5  # the other window's footprint centred this near (x a die's side) the read die
# is that die again: not read (its reading lay on the die and was dropped; bench_dice frames:
# the twins' reads were 2.3..2.6 ms a frame, every die they gave one read already)
_AVOIDED = object()  # :func:`_read_window`'s answer for such a footprint
RECENTRE = True  # a streak's read face is read again in a window centred on it
# (:func:`_recentred`; a candidate in a merged blob lies off the die, so its window's footprint
# may run into the point's edge where one round the face's does not)
MIN_PIP_CONTRAST = 30.0  # L units: a footprint with no spot this strong has no pips (no die)
COLOUR_PX = 150  # body pixels the colour is judged on (at most about)
PRE_R = 0.9  # the pip check before any other work looks this far (x a die's side) round
GROW = 0.1  # a footprint grows by this x a die's side before its face is looked for
EDGE_MARGIN = 0.45  # a blob this near (x a die's side) a long edge of the field is not a die
SAME_LEVEL = 16  # a remembered window is the same picture when no block mean moved more
# (MJPG footage of a still board: 9..12 between frames, a changed pip tens; at 8 most windows
# of a still die were read again). A window is recalled at its own place only: one recalled
# near it (the candidate's centre moves with the noise) or from frames before the last kept
# phantoms the fresh read of the new place dropped (held-out footage 900011 dance: rolls
# right 51-52 against 76 afresh)
FIELD_STILL = True  # a field that still shows what the last full search saw is not searched
FIELD_SAME = 40  # again: its dice are the answer. The half-resolution mosaic's pixels move by
# up to 23 between MJPG frames of a still board, by 70+ somewhere when anything moved (held-out
# footage 900000 dance, 900001 normal: the last full search's frame against each settled one).
# Taken at once, a misread die stays misread on every settled frame, where reads afresh under
# the frames' noise let the pipeline's stable reading outvote it (bench_pipeline 900011 dance:
# turn 6's 1-3 read 2-3, 5/22 turns exact against 12/22 off): so only
STILL_AGREE = 2  # ... once this many full searches in a row found the same dice on it (900011
# dance 12/22 as off; bench_vision --footage 3: dice 5.3 ms median a settled frame, rolls right
# 263 remembering vs 250 afresh; with 1: 1.8 ms, with 3: 8.3 ms)
CONFIRM = True  # a die's value is reported only when the previous settled frame read the same
# value there (within CONFIRM_NEAR x a die's side): the settle gate lets frames of tumbling dice
# through, whose faces are random. A frame after the memory was forgotten (a new scene, a single
# photo) has no previous frame: its values stand
CONFIRM_NEAR = 0.5
BARE = True  # a die whose footprint is lost is looked for round its candidate (:func:`_read_bare`)
BARE_R = 1.0  # that disc's radius (x a die's side)
BARE_FG = 0.5  # the least foreground share of the face there
BARE_PRE_FG = 0.3  # and of the whole disc, before its face is looked for
BARE_ROUND2 = False  # the face search's second round there (hardly ever a read: spare it)
BARE_ROUND3 = False  # its third round there (3 more dice of 1135 on tuning seeds, +0.7 ms)
BARE_LIFT = True  # the lifted centre's poses there too
BARE_NOT: tuple[int, ...] = ()  # values never taken there,
BARE_ONE = True  # and a 1 only on a die's body (as LOCAL_ONE; BARE_NOT was (1,): a lone
# pip-like spot is too little for a die nothing else shows)
SPOTS_ONE = True  # one-shot: and a 1 read on its spots only (the whole-face fit's or the
# learned read) is refused when no pip shows apart on its face (:func:`_pips_apart`) and it is
# on no die's body (:func:`vision.facefit.one_on_body`). Real dices6: a faint speck at a red
# point's tip by the top wall read "1" (cocked; flat with the found quad's corners moved up to
# 3 px): neither, at every such quad. Held-out one-shot 1s so read: 900014 f1's shows 2 pips
# apart (not on a body), 900020 f0's none (a low-contrast pip) on a body. Either test alone lost
# one of them (and a body test a right 1 of the calibrated reader's: bench_dice 900000+ 94.8 ->
# 94.3 %, so the rule is the one-shot reader's)
STREAK_APART = True  # one-shot: a value read on a streak's footprint is refused when no pip
# shows apart on its face (a long refused footprint is then no die): a point's tip, its dark
# stripe one long spot, read "3, cocked" (real frame0 at frame (456,405), its footprint 2.84
# long, with the finder's quad since its sorts are stable: its real 3 by the bar is not read;
# real test9 with its found quad's corners moved up to 3 px, 2 of 8 draws)
FIELD_ONLY = True  # a read window's foreground is on the playing field only (the bar and the
# board's rim beyond the field's edges have no template there: a die beside them merged with them)
JOIN = 0.35  # no footprint: the foreground closed by a disc this wide (x a die's side) is tried
# (0: not); only a read value makes it a die (JOIN_SPOTS: also one read on its spots only)
JOIN_WIDE: float | None = 0.6  # ... and when that joins nothing, by a disc this wide: a die of
# the board's colour whose pips stand further apart (held-out footage Plakoto 900002 turn 82:
# a white 4 on a cream point, its corner pips 9..10 window pixels apart, 0.35 joined none)
JOIN_SPOTS = False
JOIN_SPOTS_FLAT = True  # ... one read on its spots only when its footprint is a flat die's (its
# shape square and full: a die of the board's colour, or a black die on a dark board, shows
# its pips joined; tuning 700000+ 2 more right dice, 1000+ none, and no phantom, where
# JOIN_SPOTS gave a cocked phantom 2 at 1023 f1)
JOIN_QUICK = True  # a joined footprint's face search stops after its second round (no third
# round, no whole-face fit): those were most of the time of face reads that ended in no die
# (a footprint with pips only past its rim, PIPS_RIM, is a joined one too)
JOIN_NOT: tuple[int, ...] = ()  # values never taken on a joined footprint,
LOCAL_NOT: tuple[int, ...] = ()  # nor on one found only against the light there,
LOCAL_ONE = True  # where (and on a footprint found only clear of the shade, SHADOW_FREE) a 1 is
# taken only on a die's body (:func:`vision.facefit.one_on_body`:
# the whole-face fit a 1 whose square stands out round its pip). Held-out 900007 f1: a blurred
# 2 whose other pip ran into a highlight's streak read as a 1 there (square 0.02), the only
# wrong die of bench_dice 900000+; LOCAL_NOT (1,) lost tuning 700000+'s two 1s so found
# (0.23, 0.78): bench_dice 32 x 5 700000+ 86.0 -> 86.9 %, 1000+ 94.5 % and 900000+ 92.2 ->
# 92.7 %, 0 wrong, with LOCAL_ONE against LOCAL_NOT (1,)
BESIDE: float | None = 1.3  # a refused square, full footprint this wide or wider (x a die's
# side: a die merged with its shadow) has its face looked for beside it (:func:`_beside`)
BESIDE_OFF = 0.6  # there: discs this far (x a die's side) from the footprint's centre,
BESIDE_R = 0.75  # this wide (radius, x a die's side); the brightest one's plain read is taken
BESIDE_DARK = 20.0  # when the footprint is darker than that face by this much (L, medians): its
# shadow. 700004 f1's 2: 42; f0's blurred 6, with SHARP_LEAD off refused on its footprint, read
# as a 2 beside it: -24 (its footprint no shadow)
SMALL_TOUCH = 0.7  # a footprint narrower (x a die's side) touching a checker, no pip layout fitted
# on it, is no die
SLIVER_ASPECT = 2.75  # a footprint longer than this (x its width) and narrower than
SLIVER_SIDE = 0.7  # this (x a die's side) is no die, whatever its face search reads: a sliver of
# a checker's edge or a point's rim (Plakoto 900000 variant footage: a white checker's edge read
# as a cocked 3, side 0.58, aspect 3.45). Tuning seeds' readings of that width: phantoms at
# aspect 2.78..6.1 (24 of 28 over 2.75, the three with values among them), true dice (flat
# read right, cocked caught) at 2.07..2.67 (over 2.0: 9 right and 2 cocked dice lost)
LONG_REFUSED = 2.0  # a refused footprint longer than this (x its width) is no die: tuning
# seeds' such readings are 30 phantoms (a point's tip or edge, a checker's rim; the real photos
# test1's three at point tips, 2.44..2.75, frame0's and test2's, 2.01..2.25), 5 flat dice
# refused and 4 of 78 cocked dice (700000+ / 1000+; over 2.4: 16, 2 and 1). It still keeps its
# place from other windows' readings (dropped at once, a true die's refused reading let
# another window read it wrong: 700000+, a 5 as 1)
NONBOARD = -0.7  # strip ``Lany`` above this: not the empty board
TOP_LIFT = True  # the face search also looks where the camera's pose puts the top face
LOCAL_WINDOW = True  # a read window's foreground against the light there (:func:`_d2_local`)
LOCAL_K = 1.0
LOCAL_FLOOR = 2.0  # Lab units: the least sigma a window's own spread gives
LOCAL_STEP = 3  # every this many pixels of a window (of the field) are its spread's sample
LOCAL_FINDER = True  # the finder also looks against the light there (:func:`_d2_light`):
LOCAL_SHRINK = 3  # the light: the median of 5 x 5 pixels of the field at 1 / this (4 dice
# across: a die or two hardly move it), grown back; the candidates found so are taken
DEEP_APART = (0.9, 1.5)  # a reading of those this near (x a die's side) another flat read
# die, or a refused or leaning one, is the same die (two dice lie a side apart at least; a
# refused or leaning die's footprint's middle may be off its face: tuning 700002 f1, a 6
# read cocked 1.26 sides from its reading at a candidate found against the light)
LOCAL_LEVEL = 100.0  # at this squared distance (in its sigmas), die-sized blobs only, (64:
# bench_dice 32 x 5 tuning 700000+ right 85.1 -> 86.9 %, 1000+ 94.0 % both, phantoms 4 / 5
# both, but test_dice.py's renders of 700000 f1 show a phantom 3 found so; 72 and 80: 85.5 %)
LOCAL_APART = 0.5  # this far (x a die's side) from the others, and as flat read dice only
LOCAL_LOW: float | None = 64.0  # ... and at this lower level (as far from the others), a flat
# read die whose footprint fills LOW_FILL of its rectangle or more: a small dark die on a dark
# board (tuning 700009's black and grey dice on graphite: 40..120 there) or a die lit like its
# point. (LOCAL_LEVEL 64 alone read a phantom 3 in the shadowed gap of two checkers at the rim,
LOW_FILL = 0.55  # test_dice's 700000 f1, fill 0.49; the tuning dice so found fill 0.58..0.98)
# Such candidates (2.8 a frame, mostly the board's texture; each read costs) are read only while
LOW_UNTIL = 2  # their half holds fewer flat read dice than this (:func:`_low_spared`)
CANVAS_WHOLE = 48  # read windows computed alone (0.2 ms each) before the whole canvas is
# built (12..20 ms) and sliced, on the first frame read with it (see :class:`WindowCanvas`)
HELD_TRIM = True  # a stack's checkers' mask covers the slots one first-row length puts them on
# and another does not (a sixth checker in the first row, or on a second layer) only when those
# slots' pixels look like the stack's checkers (:func:`_rows_seen`): the union of both lengths
# hid a die lying past a stack of six laid 5 + 1 (held-out footage 900003 double_take turn 34)
TRIM_SHARE = 0.5  # ... that is, when at least this share of them is as like the stack's colour
TRIM_LOW = 0.1  # as the least like this share of its sure slots' pixels (their quantile)
PIN_HELD = True  # a pin's pinned checker, under its pinner, adds no slot to the counted
# checkers' mask (:func:`held_mosaic`; held-out footage Plakoto 900002 turn 82: a 4 lying in a
# pinned point's second slot was under the mask, the roll never read)
GROUND = True  # the face search's whole-face fit is given the empty board behind the die (the
# read window's template lightness: a point's stripe or edge behind it is the board's, not pips;
# :func:`vision.pips.read_face`), by the calibrated reader only (``ground=`` of :func:`read_dice`:
# the one-shot reader's windows would cost 68 ms more a photo)
LEARNED = True  # a refused face is read by the learned classifier (:mod:`vision.dieface`)
RECORD: list[tuple[tuple[float, float], np.ndarray, Any, int | None, int | None]] | None = None
# when a list: every fitted face's (frame xy, window lightness, Face, value, guess) is added


@dataclass(frozen=True)
class DieReading:
    """One die: where (playing-area canonical pixels and frame pixels), its value or None
    (refused), the checker set its colour matches (None: neither), cocked, and how sure."""

    xy: tuple[float, float]
    frame_xy: tuple[float, float]
    value: int | None
    colour: str | None
    cocked: bool
    score: float = 0.0
    margin: float = 0.0
    side: float = 0.0  # face side in canonical pixels
    half: str = ""  # the seat whose right-hand half the die lies in ("white": the right half)
    guess: int | None = None  # the best pip layout even when refused
    shape: tuple[float, ...] = ()  # footprint measures (aspect, fill, side / nominal)


# -- the field mosaic ---------------------------------------------------------------------------


def field_mosaic(a: np.ndarray) -> np.ndarray:
    """(N, L, SW, ...) per-strip arrays -> (2L, 12 SW, ...) picture of the playing field (the
    bar left out): top row columns 0..11 (points 13..24), bottom row (points 12..1)."""
    top = np.concatenate([a[12 + c] for c in range(12)], axis=1)
    bottom = np.concatenate([a[11 - c][::-1] for c in range(12)], axis=1)
    return np.concatenate([top, bottom], axis=0)


def mosaic_to_canon(lay: Layout, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mosaic pixel centres (row i, column j; float) -> playing-area canonical (x, y)."""
    L = strip_length(lay)
    c = np.clip(np.floor(j / SW), 0, 11)
    u = (j - c * SW + 0.5) / SW
    x = np.where(c < 6, c * lay.pw, 6 * lay.pw + lay.bar_w + (c - 6) * lay.pw) + u * lay.pw
    y = (i + 0.5) / L * (lay.H / 2)
    return x, y


def _mosaic_to_canon1(lay: Layout, i: float, j: float) -> np.ndarray:
    """:func:`mosaic_to_canon` of one pixel (the same arithmetic on floats: numpy's per-call
    overhead on 0-d arrays was a few per cent of a frame's dice time)."""
    L = strip_length(lay)
    c = min(max(math.floor(j / SW), 0), 11)
    u = (j - c * SW + 0.5) / SW
    x = (c * lay.pw if c < 6 else 6 * lay.pw + lay.bar_w + (c - 6) * lay.pw) + u * lay.pw
    return np.array([x, (i + 0.5) / L * (lay.H / 2)])


def canon_to_mosaic(lay: Layout, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of :func:`mosaic_to_canon` (x inside the bar maps onto the nearer column)."""
    L = strip_length(lay)
    right = x >= 6 * lay.pw + lay.bar_w / 2
    xf = np.where(right, np.maximum(x - lay.bar_w, 6 * lay.pw), np.minimum(x, 6 * lay.pw - 1e-3))
    j = xf / lay.pw * SW - 0.5
    i = y / (lay.H / 2) * L - 0.5
    return i, j


# -- per-profile preparation ----------------------------------------------------------------------


def checker_masks(lay: Layout, rows: dict[int, list[np.ndarray]] | None = None
                  ) -> list[np.ndarray]:
    """Per count n: (L, SW) bool union of the pixels n checkers cover (rows of 5, 6 and the
    board's own; ``rows``: :func:`row_masks` of ``lay``, when at hand)."""
    by_row = row_masks(lay) if rows is None else rows
    return [np.logical_or.reduce([m[n] for m in by_row.values()]) for n in range(MAX_STACK + 1)]


def row_masks(lay: Layout, points: list[Any] | None = None) -> dict[int, list[np.ndarray]]:
    """Per first-row length (5, 6 and the board's own: players build either on any board, and
    the checker reader tries them all), per count n: the (L, SW) bool pixels n checkers cover.
    ``points``: the checker reader's point mask sets of ``lay`` (:attr:`vision.checkers.Counter.
    points`, one per length in this order), when it made them."""
    L = strip_length(lay)
    out = {}
    for k, r in enumerate(sorted({lay.shape.row_max, 5, 6})):
        ms = point_masks(lay, r) if points is None else points[k]
        out[r] = [(ms.A[:, ms.col_of[n]].sum(1) > 0).reshape(L, SW) if 0 < n <= ms.nmax
                  else np.zeros((L, SW), bool) for n in range(MAX_STACK + 1)]
    return out


@dataclass
class DiceKit:
    """What the die finder needs of one profile, built once."""

    lay: Layout
    template: np.ndarray  # (2L, 12SW, 3) Lab of the empty field
    sigma: np.ndarray  # (3,)
    masks: list[np.ndarray]
    white: ColourModel
    black: ColourModel
    maps: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]
    half_size: tuple[int, int] = (0, 0)  # (width, height) of the half-resolution mosaic
    template_half: np.ndarray | None = None  # the template at that size
    canvas: WindowCanvas | None = None  # the field at read-window scale
    memory: DiceMemory = field(default_factory=lambda: DiceMemory())
    pose: Any = None  # the camera's pose (:class:`vision.pose.Pose`): where a die's top face lies
    held: tuple[Any, np.ndarray] | None = None  # the last counts' held mosaic
    rows: dict[int, list[np.ndarray]] | None = None  # :func:`row_masks` (None: no trimming)
    trim: dict[int, Any] = field(default_factory=dict)  # :func:`_trim_parts` per count


class WindowCanvas:
    """The playing field (and half a read window around it) at the read window's scale: every
    read window is a slice of it. ``origin``: canonical (x, y) of pixel (0, 0)'s corner;
    ``px``: canvas pixels per canonical pixel; ``shape``: its (rows, columns). Per pixel: the
    empty field's Lab (``template``), its field-mosaic row and column (``mi``, ``mj``: to look
    the held mask up) and ``field``: 1 on the playing field, 0 on the bar and beyond the
    field's edges (there the template is the nearest column's, not what the board shows: no
    foreground).

    Built lazily (:meth:`window`): on the first frame read with it, a window's pixels are
    computed for that window alone (the same arithmetic, pixel by pixel, as the whole
    canvas's), up to :data:`CANVAS_WHOLE` windows; from the second frame on (a calibrated board
    is read frame after frame) the whole canvas is built once and sliced. A one-shot photo is
    one frame of a few windows: the whole canvas cost 12..20 ms there, its windows 0.2 ms
    each."""

    def __init__(self, lay: Layout, mosaic: np.ndarray) -> None:
        span = WIN_DIES * DIE_D * lay.d
        self.lay = lay
        self.mosaic = mosaic  # the empty field's template as the field mosaic
        self.px = WIN / span
        self.origin = np.array([-span / 2, -span / 2])
        self.shape = (int(np.ceil((lay.H + span) * self.px)),
                      int(np.ceil((lay.W + span) * self.px)))
        self.asked = 0  # windows computed alone so far
        self.frames = 0  # frames read with it (:meth:`new_frame`)
        self._whole: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._last: tuple[tuple[int, int], tuple[np.ndarray, ...]] | None = None

    def _pixels(self, rows: np.ndarray, cols: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(template, mi, mj, field) of the canvas pixels ``rows`` x ``cols``. The canvas is
        square-on: a pixel's canonical x, its mosaic column and whether x is on the field
        depend on its column only, y and the mosaic row on its row only; each is computed once
        per column or row and spread (the same values as per pixel)."""
        lay = self.lay
        x = self.origin[0] + (cols + 0.5) / self.px
        y = self.origin[1] + (rows + 0.5) / self.px
        i, j = canon_to_mosaic(lay, x, y)
        shape = (len(rows), len(cols))
        mi, mj = np.empty(shape, np.float32), np.empty(shape, np.float32)
        mi[:] = i.astype(np.float32)[:, None]
        mj[:] = j.astype(np.float32)[None, :]
        tmpl = cv2.remap(self.mosaic, mj, mi, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        across = (x >= 0) & (x <= lay.W) & ((x <= 6 * lay.pw) | (x >= 6 * lay.pw + lay.bar_w))
        inside = ((y >= 0) & (y <= lay.H))[:, None] & across[None, :]
        return tmpl, mi, mj, inside.astype(np.uint8)

    def whole(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(template, mi, mj, field) of the whole canvas, built once."""
        if self._whole is None:
            self._whole = self._pixels(np.arange(self.shape[0]), np.arange(self.shape[1]))
        return self._whole

    def window(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(template, mi, mj, field) of the read window at canvas place (a, b) (top-left row,
        column)."""
        if self._whole is None:
            if self._last is not None and self._last[0] == (a, b):
                return self._last[1]  # type: ignore[return-value]
            if self.frames <= 1 and self.asked < CANVAS_WHOLE:
                self.asked += 1
                got = self._pixels(np.arange(a, a + WIN), np.arange(b, b + WIN))
                self._last = ((a, b), got)
                return got
        return tuple(x[a:a + WIN, b:b + WIN] for x in self.whole())  # type: ignore[return-value]

    def new_frame(self) -> None:
        """A frame is read with the canvas (the second builds it whole)."""
        self.frames += 1

    @property
    def template(self) -> np.ndarray:
        return self.whole()[0]

    @property
    def mi(self) -> np.ndarray:
        return self.whole()[1]

    @property
    def mj(self) -> np.ndarray:
        return self.whole()[2]

    @property
    def field(self) -> np.ndarray:
        return self.whole()[3]

    def place(self, centre: np.ndarray) -> tuple[np.ndarray, int, int] | None:
        """The window centre nearest ``centre`` whose pixels are canvas pixels, and the slice's
        top-left (row, column); None when the window leaves the canvas."""
        b = int(round((centre[0] - self.origin[0]) * self.px)) - WIN // 2
        a = int(round((centre[1] - self.origin[1]) * self.px)) - WIN // 2
        if a < 0 or b < 0 or a + WIN > self.shape[0] or b + WIN > self.shape[1]:
            return None
        c = self.origin + (np.array([b, a], np.float64) + WIN / 2) / self.px
        return c, a, b


class DiceMemory:
    """The read windows of the last frame and what they showed. A settled board is read frame
    after frame: a window at the same place whose picture (4 x 4 pixel block means, each within
    :data:`SAME_LEVEL`) and held mask are unchanged is not read again: the remembered reading
    is the answer. A changed pip moves a block mean by tens of levels; camera noise and MJPG by
    up to a dozen (recorded footage)."""

    def __init__(self) -> None:
        # (place, block means, held mask, reading, read flat only: :func:`read_die`)
        self.last: list[tuple[int, int, np.ndarray, bytes, DieReading | None, bool]] = []
        self.now: list[tuple[int, int, np.ndarray, bytes, DieReading | None, bool]] = []
        self.field: tuple[np.ndarray, np.ndarray, np.ndarray, list[DieReading], int] | None \
            = None
        self.seen: list[DieReading] | None = None  # the last frame's dice as read (unconfirmed)

    def new_frame(self) -> None:
        self.last, self.now = self.now, []

    def forget(self) -> None:
        self.last, self.now, self.field, self.seen = [], [], None, None

    def confirmed(self, dice: list[DieReading], near: float) -> list[DieReading]:
        """``dice`` as read on this frame with each value kept only when the last frame read
        the same value within ``near`` canonical pixels (else refused, its guess kept); all of
        them when no frame was read since the memory was forgotten (and with :data:`CONFIRM`
        off). This frame's dice as read are the next frame's reference."""
        prev, self.seen = self.seen, list(dice)
        if not CONFIRM or prev is None:
            return dice
        return [d if d.value is None or any(
            p.value == d.value and math.hypot(p.xy[0] - d.xy[0], p.xy[1] - d.xy[1]) < near
            for p in prev) else replace(d, value=None) for d in dice]

    def searched(self, small: np.ndarray, held: np.ndarray, H: np.ndarray,
                 dice: list[DieReading]) -> None:
        """Remember the field (half-resolution mosaic ``small``, the counted checkers' mosaic,
        the homography) a full search found ``dice`` on, and how many full searches in a row
        found the same dice (values, cocked, colours, halves) on it still."""
        small16 = small.astype(np.int16)
        f = self.field
        if f is not None and f[1] is held and np.array_equal(f[2], H) \
                and int(np.abs(small16 - f[0]).max()) <= FIELD_SAME \
                and _dice_key(f[3]) == _dice_key(dice):
            self.field = (f[0], held, H, f[3], f[4] + 1)
        else:
            self.field = (small16, held, H, list(dice), 1)

    def still(self, small: np.ndarray, held: np.ndarray, H: np.ndarray
              ) -> list[DieReading] | None:
        """The dice of the last full search when the field still shows what it showed then
        (every half-resolution mosaic pixel within :data:`FIELD_SAME`, the same counted
        checkers and homography); None otherwise (and with :data:`FIELD_STILL` off)."""
        f = self.field
        if not FIELD_STILL or f is None or f[1] is not held or not np.array_equal(f[2], H):
            return None
        if f[4] < STILL_AGREE or int(np.abs(small.astype(np.int16) - f[0]).max()) > FIELD_SAME:
            return None
        return f[3]

    def recall(self, win: np.ndarray, a: int, b: int, held: np.ndarray | None,
               flat_only: bool = False) -> tuple[DieReading | None] | None:
        """(the reading,) of the last frame's window at canvas place (a, b) when this frame's
        window ``win`` there still shows the same (and the counted checkers' mask ``held`` is
        the same); None otherwise. A reading made for a flat read die only (``flat_only`` of
        :func:`read_die`) answers only such a read again."""
        hb = b"" if held is None else held.tobytes()
        for a0, b0, blocks, hb0, reading, flat in self.last:
            if (a0, b0) != (a, b) or hb0 != hb or (flat and not flat_only):
                continue
            if int(np.abs(block_means(win) - blocks).max()) <= SAME_LEVEL:
                self.now.append((a0, b0, blocks, hb0, reading, flat))
                return (reading,)
        return None

    def keep(self, a: int, b: int, win: np.ndarray, held: np.ndarray | None,
             reading: DieReading | None, flat_only: bool = False) -> None:
        self.now.append((a, b, block_means(win), b"" if held is None else held.tobytes(), reading,
                         flat_only))


def _dice_key(dice: list[DieReading]) -> list[tuple[Any, ...]]:
    """What a list of dice says (values, cocked, colours, halves), in order."""
    return sorted((str(d.value), d.cocked, str(d.colour), d.half) for d in dice)


def build_canvas(lay: Layout, template: np.ndarray) -> WindowCanvas:
    """The read windows' canvas of a layout whose empty field's field mosaic is ``template``."""
    return WindowCanvas(lay, template)


OWN_LOOKS = True  # the die finder's empty board is a point's own look where calibration's
# checkers covered it (the checker reader's borrowed look: its kind's under its neighbours'
# light, with what calibration saw round the checkers) and that look stands OWN_APART from its
# kind's mean, not the mean everywhere: the mean smears a shape of the board (tuning footage
# 1001: once the point beside the bar was bared, the field by the bar was foreground, a refused
# "die" there made every roll of the last 9 turns cocked: 162 -> 170/171 turns exact). Where
# calibration saw the point its own look is sharper than the mean at the points' edges, and a
# checker's shadow on the wedge between two points' bases was then a refused die (tuning
# footage 1022 31 -> 25/31, demo frame 141's roll cocked): there the mean stays.
OWN_APART = 60.0  # Lab distance. bench_dice tuning 700000+ 32 x 5: right 92.3 %, phantoms 3 ->
# 2, rolls 71.4 -> 72.7 %; 700032+ 48 x 5: right 91.2 %, phantoms 9 -> 5, rolls 67.5 -> 70.1 %;
# 1000+ 32 x 5 the same (own looks where seen too: 1000+ rolls 80.8 %, but 1022 and demo 141).
# At 40 the same footage (8 tuning games 536/538) and a die or two more on the tuning scenes; at
# 0 (every borrowed pixel) the scenes the same as at 40 but 1025 double_take 77 -> 18/77
KIT_KEY = "dice_kit"  # the profile's cache key of its :class:`DiceKit`
READER_COUNTER = "counter"  # the checker reader's mask sets in the profile's cache
READER_PREP = "prep{}"  # the checker reader's per-size work in the profile's cache
# (:func:`vision.read.prepared`; its strip maps begin with the 24 point strips')


def kit_for(profile: Any) -> DiceKit:
    """The dice reader's kit of a profile, built on first use and kept in its cache."""
    key = KIT_KEY
    if key not in profile._cache:
        lay = profile.layout
        kinds = strip_kinds(lay)
        tmpl = field_mosaic(_empty_looks(profile, kinds)).astype(np.float32)
        half = (tmpl.shape[1] // 2, tmpl.shape[0] // 2)
        rows = row_masks(lay, _reader_points(profile, lay))
        profile._cache[key] = DiceKit(lay, tmpl, profile.background.sigma.astype(np.float32),
                                      checker_masks(lay, rows), profile.white, profile.black, {},
                                      half, cv2.resize(tmpl, half, interpolation=cv2.INTER_AREA),
                                      build_canvas(lay, tmpl), pose=_pose_of(profile),
                                      rows=rows)
    return profile._cache[key]


def _empty_looks(profile: Any, kinds: np.ndarray) -> np.ndarray:
    """(24, L, SW, 3) Lab: each point strip's empty look the die finder's template is made of:
    its kind's mean, and (:data:`OWN_LOOKS`) the checker reader's borrowed look of that point
    where it stands :data:`OWN_APART` from that mean."""
    kind_mean = profile.background.mean[kinds[:24]]
    discs = getattr(profile, "discs", None)
    own = getattr(discs, "bg_mean", None)
    bonus = getattr(discs, "bg_bonus", None)  # > 0: borrowed (DiscModel.borrowed)
    if not OWN_LOOKS or own is None or bonus is None or own.shape[0] < 24 \
            or own.shape[1] != kind_mean.shape[1] * kind_mean.shape[2]:
        return kind_mean
    own = np.asarray(own[:24], np.float32).reshape(kind_mean.shape)
    far = np.linalg.norm(own - kind_mean, axis=-1, keepdims=True) > OWN_APART
    far &= (np.asarray(bonus[:24]) > 0).reshape(far.shape)
    return np.where(far, own, kind_mean)


def _reader_points(profile: Any, lay: Layout) -> list[Any] | None:
    """The checker reader's point mask sets of the profile's layout (its counter, kept in the
    profile's cache by :func:`vision.read.prepared`: the same sets :func:`row_masks` would
    build), or None when it has not made them."""
    points = getattr(profile._cache.get(READER_COUNTER), "points", None)
    return None if points is None or len(points) != len({lay.shape.row_max, 5, 6}) else points


def _pose_of(profile: Any) -> Any:
    """The profile's camera pose, or None (a profile without corners: every top face flat)."""
    try:
        return profile.pose
    except (AttributeError, TypeError, ValueError):
        return None


def top_lift(kit: DiceKit, centre: np.ndarray, px: float) -> tuple[float, float]:
    """Where a die's top face at canonical ``centre`` is seen against its base, in read-window
    pixels (``px`` per canonical pixel): a die's side up, the board plane's view of it lies
    away from the camera's foot by (k - 1) x the distance, k = height / (height - side)."""
    pose = getattr(kit, "pose", None)  # a kit without one (tests): flat
    if pose is None or not TOP_LIFT:
        return 0.0, 0.0
    die = DIE_D * kit.lay.d
    k = pose.height / max(pose.height - die, 1e-6)
    if not np.isfinite(k) or k > 2.0:
        return 0.0, 0.0
    return (float((k - 1.0) * (centre[0] - pose.xy[0]) * px),
            float((k - 1.0) * (centre[1] - pose.xy[1]) * px))


def point_strips(frame: np.ndarray, profile: Any, kit: DiceKit) -> np.ndarray:
    """(24, L, SW, 3) BGR point strips of ``frame`` (the same sampling as the checker reader)."""
    size = (frame.shape[1], frame.shape[0])
    if size not in kit.maps:
        lay = kit.lay
        prep = profile._cache.get(READER_PREP.format(size))
        if prep is not None:  # the checker reader's maps: its first 24 strips are these
            n = 24 * strip_length(lay)
            kit.maps[size] = (prep["maps"][0][:n], prep["maps"][1][:n])
        else:
            specs = strip_specs(lay, profile.trays_right)[:24]
            kit.maps[size] = frame_maps(lay, specs, profile.homography(size))
    return sample(frame, kit.maps[size], 24)


# -- finding --------------------------------------------------------------------------------------


def held_mosaic(kit: DiceKit, counts: list[Any], strips: np.ndarray | None = None,
                pins: bool = False) -> np.ndarray:
    """(2L, 12SW) uint8: 1 where the counted checkers lie (dilated a little). With the point
    strips (BGR) at hand, a stack's slots that one first-row length has and another has not
    are covered only when they look like its checkers (:data:`HELD_TRIM`). ``pins``: the game
    pins checkers (Plakoto), so a point counted with both colours holds a pin: its pinned
    checker lies under the first pinner, which adds no slot (:func:`_pinned_mask`)."""
    n = tuple(0 if c is None else min(int(c[0]) + int(c[1]), MAX_STACK) for c in counts[:24])
    pinned = tuple(pins and PIN_HELD and c is not None and int(c[0]) > 0 and int(c[1]) > 0
                   for c in counts[:24])
    n = tuple(k - 1 if p else k for k, p in zip(n, pinned, strict=True))
    rows = getattr(kit, "rows", None)
    seen: tuple[Any, ...] = ()
    if HELD_TRIM and rows is not None and strips is not None:
        seen = tuple(None if pinned[i] else _rows_seen(kit, rows, strips, i, n[i], counts[i])
                     for i in range(24))
    key = (n, seen, pinned)
    if kit.held is not None and kit.held[0] == key:  # a settled board: the same counts again
        return kit.held[1]
    per = [_pinned_mask(kit, k) if pinned[i] else kit.masks[k] if not seen or seen[i] is None
           else np.logical_or.reduce([rows[r][k] for r in seen[i]]) for i, k in enumerate(n)]
    held = field_mosaic(np.stack(per)).astype(np.uint8)
    held = cv2.dilate(held, np.ones((5, 5), np.uint8))
    kit.held = (key, held)  # shared by the next frames with the same counts: never written to
    return held


def _pinned_mask(kit: DiceKit, k: int) -> np.ndarray:
    """The (L, SW) pixels of a pinned point whose pinners are ``k`` checkers: the pinned one in
    the first slot and the pinners' stack moved ``vision.pins.SHIFT`` diameters toward the tip
    (as players, and the scenes, lay a pin: :mod:`vision.pins`)."""
    lay = kit.lay
    s = int(round(PIN_SHIFT * lay.d / (lay.H / 2) * strip_length(lay)))
    out = kit.masks[1].copy()
    if s > 0:
        out[s:] |= kit.masks[k][:-s]
    else:
        out |= kit.masks[k]
    return out


def _rows_seen(kit: DiceKit, rows: dict[int, list[np.ndarray]], strips: np.ndarray, i: int,
               k: int, count: Any) -> tuple[int, ...] | None:
    """The first-row lengths whose slots for point ``i``'s ``k`` checkers (``count``: its
    (white, black)) the strip shows: None when the lengths put them all in the same slots
    (or nothing tells); else those whose own slots (the pixels the others' lack) hold at least
    :data:`TRIM_SHARE` pixels as like the stack's colour as its sure pixels (those every length
    covers) at their :data:`TRIM_LOW` quantile; every length when none does."""
    if k < 2 or count is None:
        return None
    parts = _trim_parts(kit, rows, k)
    if parts is None:
        return None
    idx, cuts = parts
    model = kit.white if int(count[0]) >= int(count[1]) else kit.black
    lp = model.log_p(to_lab(strips[i].reshape(-1, 3)[idx][:, None, :])[:, 0])
    sure = lp[:cuts[0]]  # the pixels every length covers, then each length's own
    q = int(TRIM_LOW * (len(sure) - 1))
    low = float(np.partition(sure, q)[q])
    keep = tuple(r for r, a, b in zip(rows, cuts[:-1], cuts[1:], strict=True)
                 if b - a < 4 or float((lp[a:b] >= low).mean()) >= TRIM_SHARE)
    return keep if keep else tuple(rows)


def _trim_parts(kit: DiceKit, rows: dict[int, list[np.ndarray]], k: int
                ) -> tuple[np.ndarray, list[int]] | None:
    """For ``k`` checkers: the strip's flat pixel indices every first-row length covers (every
    other one), then each length's own, and where each part ends; kept in the kit. None when
    the lengths agree (or too few pixels tell them apart)."""
    cache = getattr(kit, "trim", None)
    if cache is not None and k in cache:
        return cache[k]
    masks = [rows[r][k] for r in rows]
    common = np.logical_and.reduce(masks)
    own = [np.flatnonzero(m & ~common) for m in masks]
    parts = None
    if any(len(o) >= 4 for o in own) and common.sum() >= 8:
        idx = [np.flatnonzero(common)[::2], *own]
        parts = (np.concatenate(idx), np.cumsum([len(x) for x in idx]).tolist())
    if cache is not None:
        cache[k] = parts
    return parts


def field_small(kit: DiceKit, strips: np.ndarray) -> np.ndarray:
    """The field mosaic of (24, L, SW, 3) BGR point strips at half resolution (uint8 BGR)."""
    return cv2.resize(field_mosaic(strips), kit.half_size, interpolation=cv2.INTER_AREA)


def candidates(kit: DiceKit, strips: np.ndarray, held: np.ndarray,
               small: np.ndarray | None = None, deep: list[np.ndarray] | None = None,
               low: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Canonical (x, y) centres of die-sized blobs of the field that are neither empty board nor
    a counted checker. ``strips``: (24, L, SW, 3) BGR point strips. The search runs on the
    mosaic at half resolution (a die is still 3..4 pixels across there; the average of four
    pixels is steadier against the board's texture); a blob touching the field's long edges
    (the frame's rim under a slightly wrong calibration) is no die: dice are thrown clear of
    the edges. ``deep``: a list the candidates found inside blobs too big to search are added
    to (:func:`_blobs`; their reads are taken only as flat read dice), and so are die-sized
    blobs found only against the light there (:data:`LOCAL_FINDER`, :func:`_d2_light`);
    ``low``: a list those found so only at :data:`LOCAL_LOW` are added to."""
    lay = kit.lay
    if small is None:
        small = field_small(kit, strips)
    lab = to_lab(small).astype(np.float32)
    d2 = _d2(lab, kit.template_half, kit.sigma)
    free = held[::2, ::2] == 0
    die = DIE_D * lay.d / lay.pw * SW / 2  # a die's side in half-mosaic pixels
    out = _blobs(lay, d2, free, FG_SIGMA2, die, 0, 0, fg_rows=d2.shape[0], deep=deep)
    if LOCAL_FINDER and deep is not None:
        near = LOCAL_APART * DIE_D * lay.d
        have = out + deep
        light = _d2_light(lab, kit.template_half, kit.sigma, free)
        for c in _blobs(lay, light, free, LOCAL_LEVEL, die, 0, 0, fg_rows=d2.shape[0],
                        compact=True):
            if all(math.hypot(c[0] - o[0], c[1] - o[1]) >= near for o in have):
                deep.append(c)
        if LOCAL_LOW is not None and low is not None:
            for c in _blobs(lay, light, free, LOCAL_LOW, die, 0, 0, fg_rows=d2.shape[0],
                            compact=True):
                if all(math.hypot(c[0] - o[0], c[1] - o[1]) >= near for o in out + deep + low):
                    low.append(c)
    return out


def _d2_light(lab: np.ndarray, tmpl: np.ndarray, sigma: np.ndarray, free: np.ndarray
              ) -> np.ndarray:
    """:func:`_d2` of the half-resolution field against the template shifted by the light
    there (the difference's median over about four dice round each, at a third of the
    resolution: :data:`LOCAL_SHRINK`; the counted checkers' pixels taken as the field's
    median), in sigmas no wider than the field's own spread round that (robust, off the
    checkers; at least :data:`LOCAL_FLOOR`): the board's sigma spans the light's change across
    the whole board, which hides a die like the board under a light part of it."""
    diff = lab - tmpl
    # the free pixels' sample as flat indices (the same pixels, in the same order, as
    # diff[free][::LOCAL_STEP]; a 2-d mask's indexing was half of this function's time)
    idx = np.flatnonzero(free)[::LOCAL_STEP]
    ok = diff.reshape(-1, 3)[idx]
    if len(ok) < 50:
        return _d2(lab, tmpl, sigma)
    med = _medians(ok).astype(np.float32)
    diff[~free] = med
    h, w = diff.shape[:2]
    small = cv2.resize(diff, (max(w // LOCAL_SHRINK, 5), max(h // LOCAL_SHRINK, 5)),
                       interpolation=cv2.INTER_AREA)
    light = cv2.resize(cv2.medianBlur(small, 5), (w, h), interpolation=cv2.INTER_LINEAR)
    rest = diff - light
    spread = np.abs(rest.reshape(-1, 3)[idx])
    mad = 1.4826 * _medians(spread).astype(np.float64)
    sig = np.minimum(sigma, np.maximum(LOCAL_K * mad, LOCAL_FLOOR)).astype(np.float32)
    return _d2(rest, np.zeros(3, np.float32), sig)


def _blobs(lay: Layout, d2: np.ndarray, free: np.ndarray, level: float, die: float,
           x_off: int, y_off: int, fg_rows: int, depth: int = 0,
           deep: list[np.ndarray] | None = None, compact: bool = False) -> list[np.ndarray]:
    """:func:`candidates`' search on the half-resolution template distance ``d2`` (a part of
    it at half-mosaic (``x_off``, ``y_off``)) at threshold ``level``; ``free``: no counted
    checker there; ``fg_rows``: the mosaic's rows at half resolution. A blob bigger than
    :data:`MERGED_MAX` (a one-shot photo's template may mismatch most of the field) is searched
    again at DEEPER x the threshold, up to DEEPER_LEVELS times (a die stands out of it), its
    candidates added to ``deep`` (none without it)."""
    fg = ((d2 > level) & free).astype(np.uint8)
    if CLOSE:  # a die of the board's colour shows its pips only: join them into one blob
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, lbl, stats, cent = cv2.connectedComponentsWithStats(fg, connectivity=8)
    rows = fg_rows // 2
    edge = EDGE_MARGIN * die
    out = []
    # (the many specks under a die's size skipped at once: the loop was most of the finder's
    # own time)
    big = (np.flatnonzero(stats[1:, 4] >= MIN_BLOB * die * die) + 1).tolist()
    boxes = stats[big].tolist()  # (Python ints: numpy scalars' arithmetic was slow here)
    for k, (x0, y0, w, h, area) in zip(big, boxes, strict=True):
        if area > 6.0 * die * die or max(w, h) > 3.5 * die \
                or max(w, h) > MAX_BLOB_ASPECT * max(min(w, h), 1):
            # too big or a streak: a die merged with a shadow or a point's edge still has
            # the blob's widest spot (within a large-blob limit: a hand's is no die)
            if compact:  # (``compact``: die-sized blobs only)
                continue
            if area <= MERGED_MAX * die * die:
                out += _widest(lay, lbl[y0:y0 + h, x0:x0 + w] == k, x0 + x_off, y0 + y_off,
                               die, edge, rows)
                if STREAK_DEEP and deep is not None and depth < DEEPER_LEVELS:
                    part = lbl[y0:y0 + h, x0:x0 + w] == k
                    deep += _blobs(lay, np.where(part, d2[y0:y0 + h, x0:x0 + w], 0.0),
                                   free[y0:y0 + h, x0:x0 + w], level * DEEPER, die, x0 + x_off,
                                   y0 + y_off, fg_rows, depth + 1, deep)
            elif deep is not None and depth < DEEPER_LEVELS:
                part = lbl[y0:y0 + h, x0:x0 + w] == k
                deep += _blobs(lay, np.where(part, d2[y0:y0 + h, x0:x0 + w], 0.0),
                               free[y0:y0 + h, x0:x0 + w], level * DEEPER, die, x0 + x_off,
                               y0 + y_off, fg_rows, depth + 1, deep)
            continue
        if y0 + y_off < edge or y0 + y_off + h > 2 * rows - edge:
            continue  # at a long edge of the field (the mosaic's first or last rows)
        out.append(_mosaic_to_canon1(lay, 2 * (float(cent[k][1]) + y_off) + 0.5,
                                     2 * (float(cent[k][0]) + x_off) + 0.5))
    return out


def _widest(lay: Layout, box: np.ndarray, x0: int, y0: int, die: float, edge: float,
            rows: int) -> list[np.ndarray]:
    """Die-wide spots of a merged blob (its mask ``box`` at half-mosaic (x0, y0)): the
    distance transform's maxima at least half a die from the rim, up to two, apart."""
    padded = cv2.copyMakeBorder(box.astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    dist = cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]  # (np.pad: slower)
    out: list[np.ndarray] = []
    for _ in range(2):
        i, j = np.unravel_index(int(np.argmax(dist)), dist.shape)
        if dist[i, j] < WIDE * die:
            break
        if edge <= y0 + i < 2 * rows - edge:
            out.append(_mosaic_to_canon1(lay, 2 * (y0 + int(i)) + 1.0, 2 * (x0 + int(j)) + 1.0))
        r = int(np.ceil(1.5 * die))
        dist[max(i - r, 0):i + r + 1, max(j - r, 0):j + r + 1] = 0
    return out


def _d2(lab: np.ndarray, tmpl: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """Squared template distance in sigmas, channel by channel (a reduction over a trailing
    axis of 3 is several times slower; the sum is the same, in the same order)."""
    d = (lab - tmpl) / sigma
    return d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1] + d[..., 2] * d[..., 2]


SHADOW_FREE = True  # a read window with no plain footprint (none, or one found only with its
# near pixels joined) is looked at again without the pixels that are the empty board in shade
# (:func:`_shadow`): a die's shadow on a light point merged with the die into a blob too big
# for a die (tuning 700019: a brown 2 on a white point's edge, missed). Held-out bench_dice 32 x
# 5 900000+: missed 1.6 -> 1.0 %, right 94.8 -> 95.3 %, 0 wrong (with LOCAL_ONE's rule for a 1
# found so: a blurred 2 read as a 1 on such a footprint otherwise); tuning 700000+ 91.9 -> 92.3 %
SHADOW_LOCAL = True  # ... and so is the window against the light there (LOCAL_WINDOW)
SHADOW_RATIO = (0.45, 0.92)  # in shade: its lightness this share of the template's,
SHADOW_CHROMA = 3.0  # its chroma within this many sigmas of the template's


def _shadow(lab: np.ndarray, tmpl: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """The pixels of a read window (Lab ``lab``) that are its empty board (``tmpl``) in shade:
    darker by a share in :data:`SHADOW_RATIO`, their chroma within :data:`SHADOW_CHROMA` of
    the template's (in the board's sigmas). A die's dark body is darker than that, a coloured
    one's chroma is not the board's."""
    ratio = (lab[..., 0] + 1.0) / (tmpl[..., 0] + 1.0)
    da = (lab[..., 1] - tmpl[..., 1]) / sigma[1]
    db = (lab[..., 2] - tmpl[..., 2]) / sigma[2]
    return (ratio > SHADOW_RATIO[0]) & (ratio < SHADOW_RATIO[1]) \
        & (da * da + db * db < SHADOW_CHROMA ** 2)


def _d2_local(lab: np.ndarray, tmpl: np.ndarray, sigma: np.ndarray, mask: np.ndarray
              ) -> np.ndarray:
    """:func:`_d2` of a read window against the template shifted by the window's own median
    difference (the light on this part of the board), in sigmas no wider than the window's own
    spread (robust, over ``mask``'s pixels: the field, no counted checker) times
    :data:`LOCAL_K` (``sigma``, the board's, spans the light's change across the whole board:
    a white die on a light part of a board is within it)."""
    diff = (lab - tmpl)[mask > 0][::LOCAL_STEP]
    if len(diff) < 50:
        return _d2(lab, tmpl, sigma)
    med = _medians(diff).astype(np.float32)
    spread = np.abs(diff - med)
    mad = 1.4826 * _medians(spread).astype(np.float64)
    sig = np.minimum(sigma, np.maximum(LOCAL_K * mad, LOCAL_FLOOR)).astype(np.float32)
    return _d2(lab - med, tmpl, sig)


# -- reading one die ------------------------------------------------------------------------------


def window_matrix(lay: Layout, H: np.ndarray, centre: np.ndarray, span: float,
                  win: int | None = None) -> np.ndarray:
    """3x3 map from a ``win`` x ``win`` window (default :data:`WIN`) of the board plane centred
    on ``centre`` (canonical, playing-area coordinates; ``span`` canonical pixels across) to
    frame pixels."""
    k = span / (WIN if win is None else win)
    o = lay.to_image(np.asarray(centre, np.float64)) + (0.5 * k - 0.5 * span)
    A = np.array([[k, 0.0, o[0]], [0.0, k, o[1]], [0.0, 0.0, 1.0]])
    return H @ A


def _at(M: np.ndarray, u: float, v: float) -> tuple[float, float]:
    p = M @ np.array([u, v, 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def _window_canon(centre: np.ndarray, span: float) -> np.ndarray:
    g = (np.arange(WIN) + 0.5) / WIN - 0.5
    X, Y = np.meshgrid(centre[0] + g * span, centre[1] + g * span)
    return np.stack([X, Y], -1)


def read_die(frame: np.ndarray, kit: DiceKit, H: np.ndarray, centre: np.ndarray,
             held_mosaic: np.ndarray | None = None, ground: bool = True, fit: bool = True,
             flat_only: bool = False, oneshot: bool = False,
             avoid: tuple[float, float] | None = None) -> DieReading | None:
    """Read the die near canonical ``centre``; None when nothing die-like is there.
    ``ground``: the face fit is given the empty board behind the die (:data:`GROUND`);
    ``fit``: False spares a refused face the whole-face fit (:func:`vision.pips.read_face`);
    ``flat_only``: the caller takes the reading only as a flat read die, so the face reads
    that could only end cocked are spared (:func:`_read_window`); ``oneshot``: the one-shot
    reader's rules for faces showing no pip apart (:data:`SPOTS_ONE`, :data:`STREAK_APART`).
    ``avoid``: a die already read there (canonical): a footprint centred within
    :data:`AVOID_R` of it is that die, no new one (:func:`_twin`), and its face is not read."""
    span = WIN_DIES * DIE_D * kit.lay.d
    placed = _placed_window(frame, kit, H, centre, held_mosaic)
    if placed is None:
        return None
    centre, a, b, M, held, win = placed
    # the same window, read once whatever it shows
    seen = kit.memory.recall(win, a, b, held, flat_only)
    if seen is not None:
        return seen[0]
    reading = _read_window(kit, win, M, centre, span, held, (a, b), ground, fit, flat_only,
                           oneshot, avoid)
    if reading is _AVOIDED:
        return None  # (not kept: another candidate's window there is read whole)
    kit.memory.keep(a, b, win, held, reading, flat_only)
    return reading


_Placed = tuple[np.ndarray, int, int, np.ndarray, "np.ndarray | None", np.ndarray]


def _placed_window(frame: np.ndarray, kit: DiceKit, H: np.ndarray, centre: np.ndarray,
                   held_mosaic: np.ndarray | None) -> _Placed | None:
    """The read window nearest canonical ``centre`` on the kit's canvas: its centre, canvas
    place (a, b), map to the frame, counted checkers' mask there and the warped window; None
    off the canvas or where the canvas's scale is not the window's."""
    cv = kit.canvas
    span = WIN_DIES * DIE_D * kit.lay.d
    # (the canvas's scale is the window's: compared within rounding, as the canvas's span is
    # multiplied in another order; compared exactly, a layout whose last bit differed, as a
    # real photo's one-shot board did, had no die read at all)
    placed = None if cv is None or not math.isclose(cv.px, WIN / span, rel_tol=1e-9) \
        else cv.place(centre)
    if placed is None:
        return None
    centre, a, b = placed
    M, held = _window_at(kit, H, held_mosaic, a, b)
    win = cv2.warpPerspective(frame, M, (WIN, WIN), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    return centre, a, b, M, held, win


def _window_at(kit: DiceKit, H: np.ndarray, held_mosaic: np.ndarray | None, a: int, b: int
               ) -> tuple[np.ndarray, np.ndarray | None]:
    """The read window at canvas place (a, b): its map to the frame and the counted checkers'
    mask there (None without a held mosaic)."""
    cv = kit.canvas
    assert cv is not None
    held = None
    if held_mosaic is not None:
        _t, mi, mj, _f = cv.window(a, b)
        held = cv2.remap(held_mosaic, mj, mi, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    centre = cv.origin + (np.array([b, a], np.float64) + WIN / 2) / cv.px
    return window_matrix(kit.lay, H, centre, WIN_DIES * DIE_D * kit.lay.d), held


def _read_window(kit: DiceKit, win: np.ndarray, M: np.ndarray, centre: np.ndarray,
                 span: float, held: np.ndarray | None, place: tuple[int, int],
                 ground_fit: bool = True, fit: bool = True, flat_only: bool = False,
                 oneshot: bool = False, avoid: tuple[float, float] | None = None
                 ) -> DieReading | None:
    """The die in read window ``win`` (board plane, ``span`` canonical pixels across round
    ``centre``, at canvas ``place``; ``M`` its map to the frame; ``held``: the counted
    checkers there; ``ground_fit``: the face fit is given the board behind, :data:`GROUND`;
    ``fit``: False spares a refused face the whole-face fit). ``flat_only``: the caller keeps
    only a flat read die (one found inside a big blob or against the light only): a footprint
    that is no streak (a streak's read is read again, :func:`_recentred`) and whose shape makes
    a face read on its spots cocked (:func:`_cocked_shape`) gets no whole-face fit nor learned
    read, as what those read is taken on its spots: the caller's reading is the same (none).
    ``oneshot``: the one-shot reader's rules for faces showing no pip apart (:data:`SPOTS_ONE`,
    :data:`STREAK_APART`)."""
    lay = kit.lay
    die = DIE_D * lay.d
    lab8 = to_lab(win)
    px = WIN / span  # window pixels per canonical pixel
    dpx = die * px
    r0, r1 = int(WIN / 2 - PRE_R * dpx), int(WIN / 2 + PRE_R * dpx) + 1
    if pip_contrast(lab8[r0:r1, r0:r1, 0], None, dpx) < MIN_PIP_CONTRAST:
        return None  # no pip-like spot near the centre: no die (spares the rest)
    lab = lab8.astype(np.float32)
    L = lab[..., 0]
    a, b = place
    tmpl, _mi, _mj, on_field = kit.canvas.window(a, b)  # type: ignore[union-attr]
    mask = on_field if held is None else on_field & (held == 0)
    d2 = _d2(lab, tmpl, kit.sigma)
    fg, fp, joined = _window_footprint(d2, held, on_field, dpx)
    shaded, shade = False, None
    if (fp is None or joined) and SHADOW_FREE:  # see SHADOW_FREE
        shade = ~_shadow(lab, tmpl, kit.sigma)
        fg_s, fp_s, j_s = _window_footprint(d2 * shade, held, on_field, dpx)
        if fp_s is not None and not j_s:
            fg, fp, joined, shaded = fg_s, fp_s, False, True
    local = False
    if fp is None and LOCAL_WINDOW:  # the footprint against the light there (a die like the
        # board under the board's whole spread of light: taken only by its read, as joined)
        d2 = _d2_local(lab, tmpl, kit.sigma, mask)
        fg_l, fp, _j = _window_footprint(d2, held, on_field, dpx)
        if fp is None and shade is not None and SHADOW_LOCAL:
            fg_l, fp, _j = _window_footprint(d2 * shade, held, on_field, dpx)
        if fp is not None:
            fg, joined, local = fg_l, True, True
    ground = tmpl[..., 0] if GROUND and ground_fit else None
    if fp is None:
        return _read_bare(kit, lab8, M, centre, span, held, fg, ground)
    comp, area, ((rcx, rcy), (rw, rh), _ang) = fp
    if avoid is not None:  # the die already read, in window pixels
        ax, ay = ((avoid[k] - centre[k]) * px + WIN / 2 for k in (0, 1))
        if math.hypot(rcx - ax, rcy - ay) < AVOID_R * dpx:
            return _AVOIDED  # type: ignore[return-value]
        if TWIN_CUT and max(rw, rh) > TWIN_CUT_LONG * min(rw, rh):
            cut = _cut_die(comp, ax, ay, dpx)
            if cut is not None:  # see TWIN_CUT
                comp, area, ((rcx, rcy), (rw, rh), _ang) = cut
    side = float(min(rw, rh))
    pips_in = _has_pips(lab8[..., 0], comp, dpx)
    if pips_in is None:  # no pip: an edge's blob
        return None
    joined = joined or not pips_in  # pips only past its rim: a die only by its read
    fill = area / max(rw * rh, 1.0)
    aspect = float(max(rw, rh) / max(min(rw, rh), 1e-3))
    if aspect > SLIVER_ASPECT and side < SLIVER_SIDE * dpx:
        return None  # a sliver: no die (see SLIVER_ASPECT)
    value, face, score, guess = None, None, 0.0, None
    c = WIN // 2  # frame pixels per window pixel, at the die
    fpx = float(np.hypot(*np.subtract(_at(M, c + 1, c), _at(M, c, c))))
    streak = aspect > STREAK_ASPECT or fill < STREAK_FILL
    touching = bool(held is not None and _touches(comp, held))
    spared = flat_only and not streak and _cocked_shape(aspect, fill, side, dpx, touching)
    if STREAK_READ or not streak:
        value, face, score, guess = read_face(L, cv2.dilate(comp, _grow(dpx)), dpx, fpx,
                                              lift=top_lift(kit, centre, px),
                                              second_round=not streak or STREAK_ROUNDS[0],
                                              third_round=(not streak or STREAK_ROUNDS[1])
                                              and not (joined and JOIN_QUICK),
                                              ground=ground, fit=fit and not spared)
    margin = score
    if face is not None:
        rcx, rcy = face.cx, face.cy
        if face.side * fpx < MIN_FACE_PX:  # too few pixels to tell a 6 from a 3
            value = None
        if RECORD is not None:
            RECORD.append((_at(M, face.cx, face.cy), L, face, value, guess))
        if LEARNED and value is None and not spared:
            feat = dieface.face_crop(L, face.cx, face.cy, face.angle, face.side)
            learned, lead = dieface.classify(feat, guess)
            if learned is not None:  # cocked then from the footprint, as a spots' read
                value, margin, face = learned, lead, replace(face, by_spots=True)
        if oneshot and SPOTS_ONE and value == 1 and face.by_spots \
                and not _pips_apart(L, face, dpx) and not one_on_body(L, face, dpx, ground):
            value = None  # a 1 read on its spots only (the whole-face fit's, the learned
            # read's), its pip shown nowhere apart, off a die's body: a faint speck, refused
        if oneshot and STREAK_APART and value is not None and streak \
                and not _pips_apart(L, face, dpx, rows=True):
            value = None  # a value read on a streak, no pip shown apart: a point's tip
    if value is None and BESIDE is not None and not streak and side >= BESIDE * dpx \
            and aspect <= 1.32 and fill >= 0.62:
        near = _beside(L, comp, held, dpx, fpx, top_lift(kit, centre, px), ground)
        if near is not None:
            value, face, score = near
            margin, rcx, rcy = score, face.cx, face.cy
    # what the face looks like: the body's colour against the two checker sets
    body = lab8[comp > 0]
    colour = _colour(kit, body[::max(1, len(body) // COLOUR_PX)])
    cx_c = float(centre[0] + (rcx / WIN - 0.5) * span)
    cy_c = float(centre[1] + (rcy / WIN - 0.5) * span)
    off_field = _by_edge(lay, cx_c, cy_c, die)
    if value is not None and face is not None and not face.by_spots and not streak:
        # a read face: off the field or at the bar's wall, or leaning on a checker (LEAN_ASPECT)
        cocked = off_field or (LEAN_ASPECT is not None and touching and aspect > LEAN_ASPECT)
    else:  # no face (or one read on its spots only, short of a plain fit, or on a streak's
        # footprint: a leaning die's footprint is long too): the footprint's
        cocked = _cocked_shape(aspect, fill, side, dpx, touching) or off_field
    if value is None and guess is None and touching and side < SMALL_TOUCH * dpx:
        return None  # a small refused footprint against a counted checker: the checker's
        # rim or shadow (real photos' phantoms: 0.5..0.67 x a die's side; their dice 0.9..1.3)
    if THIN_FILL is not None and value is None and fill < THIN_FILL:
        return None  # see THIN_FILL
    if joined and (value is None or (face is not None and face.by_spots
                                     and not (JOIN_SPOTS or JOIN_SPOTS_FLAT and not cocked))
                   or value in (LOCAL_NOT if local else JOIN_NOT)
                   or local and value == 1 and LOCAL_ONE and face is not None
                   and not one_on_body(L, face, dpx, ground)):
        return None  # a joined footprint is a die only by its read (as a bare one)
    if shaded and value == 1 and LOCAL_ONE and face is not None \
            and not one_on_body(L, face, dpx, ground):
        return None  # a footprint found only clear of the shade: a 1 only on a die's body
    if value is None and FIELD_ONLY and _at_rim(kit, comp, place):
        return None  # a refused footprint at the bar or the field's edge: the bar's or the
        # rim's shadow, a bar checker's edge (merged with the bar before: no die either)
    fx, fy = _at(M, rcx, rcy)
    # a refused face (one-shot: TOUCH_APART, BLANK_ONE): how many pips it shows apart
    apart = float(_pips_apart(L, face, dpx)) \
        if oneshot and value is None and face is not None else 0.0
    return DieReading((cx_c, cy_c), (fx, fy), value, colour, cocked, score, margin,
                      side / px, "white" if cx_c > lay.W / 2 else "black", guess,
                      (aspect, fill, side / dpx, float(touching), float(off_field), apart))


LONG_WIDE: float | None = None  # a long footprint this wide (x a die's side) is a flat die and
# its shadow, not a leaning die. At 1.25 (tuning: no cocked die caught so from 1.1 to 1.4; flat
# dice called cocked 700000+ 8 -> 7, 1000+ 5 -> 4) a motion-blurred 4 in held-out footage
# (900007 illegal_standing, frames 300-312: its pips smeared into stripes, the footprint 1.3+
# dice wide) was no longer cocked and was read as a 6, and the referee flagged a legal play.
# Off until a wide footprint's read is told from a smeared one.


THIN_FILL: float | None = 0.35  # a refused footprint filling less of its rectangle than this
# is the board between two points or beside a checker, no die, not even a leaning one (demo
# footage frames 132-155 and 400-438 through a fitted calibration: the cream wedge between two
# points' bases, fill 0.29-0.31, called a cocked die and the roll beside it never read; tuning
# bench_dice 700000+ 32 x 5: phantoms 4 -> 3, no die lost, no leaning die missed)


LEAN_ASPECT: float | None = None  # a plainly read face whose footprint touches a counted
# checker and is longer than this x its width would be a die leaning on that checker: cocked
# (touching alone called three times more flat dice cocked than it caught leaning ones). At
# 1.25, bench_dice 32 x 5: tuning 700000+ leaning dice caught 4 -> 7 of 13, no flat die more
# called cocked, rolls right 71.4 -> 74.0 %; held-out 900000+ 4 -> 10 of 16, flat dice called
# cocked 8 -> 11, rolls 74.4 -> 76.7 %. But on the held-out footage (bench_pipeline, fresh
# reads) black's flat 5-2 at a checker was called cocked, its roll never read, and 900011
# illegal_corrected lost 2 turns (210 -> 208/229): a false cocked call costs the live record
# more than a missed one. Off until the flat dice it calls cocked are told apart.


def _cocked_shape(aspect: float, fill: float, side: float, dpx: float, touching: bool) -> bool:
    """Whether a footprint (``aspect``, ``fill``, shorter ``side`` in window pixels; ``dpx``: a
    die's side; ``touching`` a counted checker) makes a die read without a plain face (or on a
    streak's footprint) cocked: long, not filling its rectangle, or against a checker."""
    return aspect > 1.32 and not _shadowed(side, dpx) or fill < 0.62 or touching


def _beside(L: np.ndarray, comp: np.ndarray, held: np.ndarray | None, dpx: float, fpx: float,
            lift: tuple[float, float], ground: np.ndarray | None
            ) -> tuple[int, Face, float] | None:
    """A white die on a light point whose footprint ``comp`` (window lightness ``L``; ``dpx``:
    a die's side, ``fpx``: frame pixels per window pixel) is mostly its dark shadow, the face
    lying off it: (value, face, clarity) of a plain read (as :func:`_read_bare`'s: not on the
    spots only, big enough, a 1 only on a die's body) in the brightest of eight discs
    (:data:`BESIDE_R`) set :data:`BESIDE_OFF` off the footprint's centre, off the counted
    checkers ``held``, when the footprint is :data:`BESIDE_DARK` darker than that face; else
    None. Tuning 700004 f1: a 2 beside its shadow."""
    ys, xs = np.nonzero(comp)
    cx, cy = float(xs.mean()), float(ys.mean())
    yy, xx = np.mgrid[:L.shape[0], :L.shape[1]]
    free = np.ones(L.shape, bool) if held is None else held == 0
    best, disc = -1.0, None
    for a in np.radians(np.arange(0, 360, 45)):
        x, y = cx + BESIDE_OFF * dpx * math.cos(a), cy + BESIDE_OFF * dpx * math.sin(a)
        d = ((xx - x) ** 2 + (yy - y) ** 2 <= (BESIDE_R * dpx) ** 2) & free
        if d.sum() < 0.5 * dpx * dpx:
            continue
        m = float(np.median(L[d]))
        if m > best:
            best, disc = m, d
    if disc is None:
        return None
    value, face, score, _g = read_face(L, disc.astype(np.uint8), dpx, fpx, lift=lift,
                                       ground=ground)
    if not _plain_read(L, face, value, dpx, fpx, ground):
        return None
    c, s = math.cos(face.angle), math.sin(face.angle)
    u, w = (xx - face.cx) * c + (yy - face.cy) * s, (yy - face.cy) * c - (xx - face.cx) * s
    square = (np.abs(u) < face.side / 2) & (np.abs(w) < face.side / 2)
    if float(np.median(L[square])) - float(np.median(L[comp > 0])) < BESIDE_DARK:
        return None  # the footprint is no shadow of that face
    return value, face, score


def _plain_read(L: np.ndarray, face: Face | None, value: int | None, dpx: float, fpx: float,
                ground: np.ndarray | None, one_body: bool = True) -> bool:
    """Whether a face search's ``value`` on ``face`` (window lightness ``L``; ``dpx``: a die's
    side, ``fpx``: frame pixels per window pixel) is a plain read: a value on a fitted face,
    not on its spots only, :data:`MIN_FACE_PX` across, and (``one_body``) a 1 only on a die's
    body (:func:`vision.facefit.one_on_body`)."""
    if value is None or face is None or face.by_spots or face.side * fpx < MIN_FACE_PX:
        return False
    return not (one_body and value == 1 and not one_on_body(L, face, dpx, ground))

def _shadowed(side: float, dpx: float) -> bool:
    """Whether a long footprint whose shorter side is ``side`` window pixels (``dpx``: a die's
    side) is too wide for a leaning die (seen from its side, about a die wide): a flat die with
    its shadow (:data:`LONG_WIDE`)."""
    return LONG_WIDE is not None and side >= LONG_WIDE * dpx


def _window_footprint(d2: np.ndarray, held: np.ndarray | None, on_field: np.ndarray,
                      dpx: float) -> tuple[np.ndarray, Any, bool]:
    """A read window's foreground (template distance ``d2`` over :data:`FG_SIGMA2`, off the
    counted checkers ``held``, on the field), its die footprint (:func:`_footprint`) or None,
    and whether that footprint was found only with the foreground's near pixels joined."""
    fg = (d2 > FG_SIGMA2).astype(np.uint8)
    if held is not None:
        fg[held > 0] = 0
    if FIELD_ONLY:
        fg &= on_field
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fp = _footprint(fg, dpx)
    joined = False
    if fp is None and JOIN:  # no die-sized footprint: pips apart (a die of the board's colour
        # shows its pips only) or a body half like the board: join what is near, then (JOIN_WIDE)
        # pips further apart than that
        for width in (JOIN, JOIN_WIDE):
            if fp is not None or not width:
                break
            k = max(3, int(round(width * dpx)) | 1)
            fp = _footprint(cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (k, k))), dpx)
        joined = fp is not None
    return fg, fp, joined


def _read_bare(kit: DiceKit, lab8: np.ndarray, M: np.ndarray, centre: np.ndarray, span: float,
               held: np.ndarray | None, fg: np.ndarray, ground: np.ndarray | None = None
               ) -> DieReading | None:
    """A die whose footprint against the template is lost (a die of the board's colour shows
    only its pips; one merged with its shadow or a checker is too big; a thin one too narrow):
    its face is looked for in a disc of :data:`BARE_R` die sides round the window's centre (the
    candidate), and only a plain read value (a 1 on a die's body only: :data:`BARE_ONE`, with
    the board behind ``ground`` when given; not one taken on the spots' evidence: a row of
    point tips passed for a 3 so) on a face that is mostly not the empty board (``fg``:
    the window's foreground) makes it a die (a refusal here is no die: nothing else says there
    is one)."""
    if not BARE:
        return None
    die = DIE_D * kit.lay.d
    px = WIN / span
    dpx = die * px
    disc = _bare_disc(dpx, held)
    if float(fg[disc > 0].mean()) < BARE_PRE_FG:  # hardly anything but the board: spare the time
        return None
    c = WIN // 2
    fpx = float(np.hypot(*np.subtract(_at(M, c + 1, c), _at(M, c, c))))
    L = lab8[..., 0].astype(np.float32)
    value, face, score, guess = read_face(L, disc, dpx, fpx, second_round=BARE_ROUND2,
                                          lift=top_lift(kit, centre, px) if BARE_LIFT
                                          else (0.0, 0.0), third_round=BARE_ROUND3)
    if value in BARE_NOT or not _plain_read(L, face, value, dpx, fpx, ground, BARE_ONE):
        return None
    r = 0.45 * face.side
    box = (slice(int(max(face.cy - r, 0)), int(face.cy + r) + 1),
           slice(int(max(face.cx - r, 0)), int(face.cx + r) + 1))
    if float(fg[box].mean()) < BARE_FG:
        return None
    body = lab8[box].reshape(-1, 3)
    colour = _colour(kit, body[::max(1, len(body) // COLOUR_PX)])
    cx_c = float(centre[0] + (face.cx / WIN - 0.5) * span)
    cy_c = float(centre[1] + (face.cy / WIN - 0.5) * span)
    lay = kit.lay
    off_field = _by_edge(lay, cx_c, cy_c, die)
    fx, fy = _at(M, face.cx, face.cy)
    return DieReading((cx_c, cy_c), (fx, fy), value, colour, off_field, score,
                      score, face.side / px, "white" if cx_c > lay.W / 2 else "black", guess,
                      (1.0, 1.0, face.side / dpx, 0.0, float(off_field)))


TWIN_CUT = True  # a twin's window (``avoid`` given) whose footprint is long (two touching dice
TWIN_CUT_LONG = 1.5  # merged: longer than this x its width) has the read die cut out of it: the
TWIN_CUT_R = 0.6  # pixels within this (x a die's side) of it; the face search then finds the
# other die, not the read one again (tuning footage 1000 dance f249: black's 3-3, two small
# dice touching, one footprint; the other 3 never read, the dance recorded as 6-3)


def _cut_die(comp: np.ndarray, x: float, y: float, dpx: float
             ) -> tuple[np.ndarray, float, Any] | None:
    """Footprint ``comp`` without the pixels within :data:`TWIN_CUT_R` dice of window point
    (x, y), its largest remaining part: (part, area, rotated rectangle); None when too little
    (under half a die's face) is left."""
    cut = comp.copy()
    cv2.circle(cut, (int(round(x)), int(round(y))), int(round(TWIN_CUT_R * dpx)), 0, -1)
    n, lbl, stats, _c = cv2.connectedComponentsWithStats(cut, connectivity=8)
    if n <= 1:
        return None
    k = int(np.argmax(stats[1:, 4])) + 1
    if stats[k, 4] < 0.5 * dpx * dpx:
        return None
    part = (lbl == k).astype(np.uint8)
    return part, float(stats[k, 4]), cv2.minAreaRect(cv2.findNonZero(part))


def _footprint(fg: np.ndarray, dpx: float) -> tuple[np.ndarray, float, Any] | None:
    """The die's footprint in a window's foreground ``fg`` (``dpx``: a die's side in window
    pixels): the big enough component nearest the centre, its area and its rotated rectangle;
    None when there is none near, or it is too big (merged) or too thin or too wide."""
    if cv2.countNonZero(fg) < 0.25 * dpx * dpx:
        return None  # too few pixels for any big enough component (the labelling spared)
    n, lbl, stats, cent = cv2.connectedComponentsWithStats(fg, connectivity=8)
    if n <= 1:
        return None
    big = np.nonzero(stats[1:, 4] >= 0.25 * dpx * dpx)[0] + 1  # the nearest big enough one
    if not len(big):
        return None
    dd = np.hypot(cent[big, 0] - WIN / 2, cent[big, 1] - WIN / 2)
    best_k, best_d = int(big[int(np.argmin(dd))]), float(dd.min())
    if best_d > 0.9 * dpx:
        return None
    area = float(stats[best_k][4])
    if area > 3.2 * dpx * dpx:
        return None
    comp = (lbl == best_k).astype(np.uint8)
    rect = cv2.minAreaRect(cv2.findNonZero(comp))
    side = float(min(rect[1]))
    if side < 0.5 * dpx or side > 2.0 * dpx:
        return None
    return comp, area, rect


def _streak(r: DieReading) -> bool:
    """Whether a reading's footprint is a streak's (long or thin)."""
    return bool(r.shape) and (r.shape[0] > STREAK_ASPECT or r.shape[1] < STREAK_FILL)


def _at_rim(kit: DiceKit, comp: np.ndarray, place: tuple[int, int]) -> bool:
    """Whether footprint ``comp`` (of the window at canvas ``place``) reaches the bar or the
    field's edge (a pixel beside it is off the field)."""
    cv = kit.canvas
    if cv is None:
        return False
    on_field = cv.window(*place)[3]
    ring = cv2.dilate(comp, np.ones((3, 3), np.uint8))
    return bool((ring & (1 - on_field)).any())


def _grow(dpx: float) -> np.ndarray:
    """The kernel a footprint grows by before its face is looked for (the footprint against
    the template can miss a die's face that looks like the board under it)."""
    k = max(3, int(round(GROW * dpx)) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


PIPS_RIM = 0.1  # a footprint's pips may lie this far (x a die's side) past its rim (0: none)


def _has_pips(L: np.ndarray, comp: np.ndarray, dpx: float) -> bool | None:
    """Whether footprint ``comp`` holds a pip-like spot (:func:`pip_contrast` of at least
    :data:`MIN_PIP_CONTRAST`): True; False when it has one only within :data:`PIPS_RIM` die
    sides of its rim (a dark die on a dark board shows its top face's dark middle as its
    footprint, its light pips apart); None when neither."""
    if pip_contrast(L, comp, dpx) >= MIN_PIP_CONTRAST:
        return True
    if not PIPS_RIM:
        return None
    k = max(3, int(round(2 * PIPS_RIM * dpx)) | 1)
    grown = cv2.dilate(comp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return False if pip_contrast(L, grown, dpx) >= MIN_PIP_CONTRAST else None


def pip_contrast(L: np.ndarray, comp: np.ndarray | None, dpx: float) -> float:
    """The strongest pip-sized dark or light spot inside footprint ``comp`` (None: anywhere in
    ``L``), in L units above its surroundings (morphological black / white top-hat at a pip's
    scale)."""
    k = max(3, int(round(0.35 * dpx)) | 1)
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    if comp is None:  # the whole picture
        return float(max(cv2.morphologyEx(L, cv2.MORPH_BLACKHAT, ker).max(),
                         cv2.morphologyEx(L, cv2.MORPH_TOPHAT, ker).max()))
    ys, xs = np.nonzero(comp)
    if len(xs) == 0:
        return 0.0
    pad = k
    y0, y1 = max(int(ys.min()) - pad, 0), int(ys.max()) + pad + 1
    x0, x1 = max(int(xs.min()) - pad, 0), int(xs.max()) + pad + 1
    sub, m = L[y0:y1, x0:x1], comp[y0:y1, x0:x1] > 0
    dark = cv2.morphologyEx(sub, cv2.MORPH_BLACKHAT, ker)[m]
    light = cv2.morphologyEx(sub, cv2.MORPH_TOPHAT, ker)[m]
    return float(max(dark.max(), light.max()))


def _near_bar(lay: Layout, x: float, die: float) -> bool:
    b0, b1 = 6 * lay.pw, 6 * lay.pw + lay.bar_w
    return b0 - 0.55 * die < x < b1 + 0.55 * die


def _by_edge(lay: Layout, x: float, y: float, die: float) -> bool:
    """Whether a die at canonical (``x``, ``y``) lies off the field's top or bottom edge (within
    0.3 of a die's side) or by the bar (:func:`_near_bar`): where a die may lean on a wall."""
    return y < 0.3 * die or y > lay.H - 0.3 * die or _near_bar(lay, x, die)


def _touches(comp: np.ndarray, held: np.ndarray) -> bool:
    ring = cv2.dilate(comp, np.ones((5, 5), np.uint8)) & (held > 0)
    return int(ring.sum()) > 3


def _median(a: np.ndarray) -> float:
    """np.median of a 1-d array (the same value; np.median's checks are most of its time)."""
    n = len(a)
    h = n // 2
    if n % 2:
        return float(np.partition(a, h)[h])
    p = np.partition(a, (h - 1, h))
    return float(0.5 * (p[h - 1] + p[h]))


def _medians(a: np.ndarray) -> np.ndarray:
    """Per column of an (n, k) array: :func:`_median`'s value, in the array's type (one
    partition for all columns: the same order statistics, the same mean of two)."""
    n = len(a)
    h = n // 2
    if n % 2:
        return np.partition(a, h, axis=0)[h]
    p = np.partition(a, (h - 1, h), axis=0)
    return 0.5 * (p[h - 1] + p[h])


def _colour(kit: DiceKit, lab: np.ndarray) -> str | None:
    """The checker set a die's body matches clearly (median log density over its pixels;
    ``lab``: uint8 Lab pixels)."""
    if len(lab) < 8:
        return None
    lw = _median(kit.white.log_p(lab))
    lb = _median(kit.black.log_p(lab))
    if max(lw, lb) < -16.0 or abs(lw - lb) < 3.0:
        return None
    return "white" if lw > lb else "black"


# -- the whole field ------------------------------------------------------------------------------


def read_dice(frame: np.ndarray, profile: Any, counts: list[Any],
              strips: np.ndarray | None = None, ground: bool = True, spots: bool = False,
              spare_fits: bool = False) -> list[DieReading]:
    """Every die on the playing field of a frame of the profile's board. ``counts``: each
    region's (white, black) as read (None: unseen), to know where checkers lie; ``strips``:
    the point strips when the caller has them already; ``ground``: the face fit is given the
    empty board behind the die (:data:`GROUND`; the one-shot reader's is not); ``spots``: dice
    are also looked for by their pips alone (:func:`spot_candidates`; the one-shot reader's);
    ``spare_fits``: the candidates past the blob finder's (in blobs too big to search, by their
    pips, at LOCAL_LOW: each kept only as a flat read die) get no whole-face fit (the one-shot
    reader's: :func:`read_dice_oneshot`)."""
    kit = kit_for(profile)
    if strips is None:
        strips = point_strips(frame, profile, kit)
    H = profile.homography((frame.shape[1], frame.shape[0]))
    lay = kit.lay
    held = held_mosaic(kit, counts, strips, bool(getattr(profile, "meta", {}).get("pins")))
    small = field_small(kit, strips[:24])
    mem = kit.memory
    still = mem.still(small, held, H)
    near = CONFIRM_NEAR * DIE_D * lay.d
    if still is not None:  # the field as at the last search: its dice (and windows) again
        mem.new_frame()
        mem.now = list(mem.last)
        return mem.confirmed(list(still), near)
    mem.new_frame()
    canvas = getattr(kit, "canvas", None)  # (a test's kit may have none)
    if canvas is not None:
        canvas.new_frame()
    out: list[DieReading] = []
    deep: list[np.ndarray] = []
    low: list[np.ndarray] = []
    found = candidates(kit, strips[:24], held, small, deep, low)
    n_spots = len(deep)
    if spots and SPOTS:
        deep += spot_candidates(frame, kit, H, held, found + deep)
    twins: list[DieReading] = []
    for i, c in enumerate(found + deep + low):
        if i >= len(found) + len(deep) and _low_spared(lay, c, out):
            continue  # found only at LOCAL_LOW: read while its half's roll is not all read
        # (a calibrated read keeps a candidate past the blob finder's as a flat read die only)
        flat = {"flat_only": True} if FLAT_SPARE and not spots and i >= len(found) else {}
        r = read_die(frame, kit, H, c, held, ground=ground,
                     fit=not (spare_fits and i >= len(found)), oneshot=spots, **flat)
        if spots and r is not None:
            r = _rows_six(frame, kit, H, _off_wall(frame, kit, H, r, held), held)
        spot = len(found) + n_spots <= i < len(found) + len(deep)  # a pips' candidate
        if SPOT_READ and spot and r is None:
            r = read_spots(frame, kit, H, c, held)
        if spot and r is not None and (
                r.value is None or (len(r.shape) > 3 and r.shape[3])
                or _pip_lift(frame, kit, H, r) < SPOT_LIFT and not _six_shows(frame, kit, H,
                                                                              r, held)):
            continue  # a pips' candidate: a die with white pips clear of the checkers only
        if r is None:
            continue
        if RECENTRE and r.value is not None and _streak(r):
            r = _recentred(frame, kit, H, r, held, ground=ground, oneshot=spots)
        if i >= len(found) and (r.value is None or r.cocked or _streak(r)):
            continue  # in a blob too big to search: a flat read die only
        if i >= len(found) + len(deep) and not (r.shape and r.shape[1] >= LOW_FILL):
            continue  # found only at LOCAL_LOW: on a full footprint only
        if any(np.hypot(r.xy[0] - o.xy[0], r.xy[1] - o.xy[1])
               < _apart(i >= len(found), o) * DIE_D * lay.d for o in out):
            continue
        out.append(r)
        if TWIN:
            t = _twin(frame, kit, H, c, r, held, ground=ground, oneshot=spots)
            if t is None and spots:
                t = _twin_six(frame, kit, H, c, r, held, ground, oneshot=spots)
            if t is not None:
                twins.append(t)
    for t in twins:  # two flat dice's faces do not overlap: their centres lie at least
        # their mean side apart (the other die's reading of a pip of the first one's face lay
        # 1.03 of a die from it, their sides 0.72 and 1.40: tuning 700002 f2)
        if all(np.hypot(t.xy[0] - o.xy[0], t.xy[1] - o.xy[1])
               >= max(DEEP_APART[0] * DIE_D * lay.d, 0.5 * (t.side + o.side)) for o in out):
            out.append(t)
    # a long refused footprint is no die, but it keeps its place from another window's reading
    out = [r for r in out if not (r.value is None and r.shape and r.shape[0] > LONG_REFUSED)]
    if spots and TOUCH_BLANK:
        out = [r for r in out if not _touching_blank(r)]
    if spots and BLANK_ONE:
        out = [r for r in out if not _blank_one(r)]
    mem.searched(small, held, H, out)
    return mem.confirmed(out, near)


SPOTS = True  # one-shot: dice are also looked for by their pips alone (:func:`spot_candidates`)
SPOT_PX = 12.0  # the field is searched at this many pixels a die's side
SPOT_TOP = 60.0  # L units a pip stands above the field round it (its opening)
SPOT_MAX = (0.8, 0.4)  # a spot's longest and shortest sides at most (x a die's side): a pip or
# a blurred row of them (real dices6's 6s), not a checker's rim
SPOT_GROUP = 1.6  # a group of spots (pips within half a die of each other) spans at most this
SPOT_MANY = 24  # at most this many groups are read (the brightest pips' first)
SPOT_LIFT = 60.0  # a reading there is taken when its face's pips stand this far above it (L
# units, :func:`_pip_lift`; real photos' dice read so 95..183, tuning one-shot phantom 2s on a
# cube's digit and a marbled checker 13 and 38) and it touches no counted checker (a tuning
# phantom 3 on a checker's rim did)


def spot_candidates(frame: np.ndarray, kit: DiceKit, H: np.ndarray, held: np.ndarray,
                    have: list[np.ndarray]) -> list[np.ndarray]:
    """Canonical centres of die-sized groups of bright pips on the playing field (off the
    counted checkers ``held``, half a die or more from the candidates ``have``), for the
    one-shot reader. A one-shot photo's empty-board template is a median over a few strips of
    each point kind (most under checkers, the columns drifting where the found corners are a
    little off: real frame0's right-hand points), so a small dark die with white pips is no
    blob against it (it lies inside a blob of the whole field's mismatch, or is merged with a
    checker's uncounted rim: real dices6's left 6 was searched 1.2 dice off). Its pips are
    still the brightest small spots round them: the field's lightness less its opening by half
    a die. The groups' reads count as a deep candidate's (flat read dice only)."""
    lay = kit.lay
    die = DIE_D * lay.d
    s = SPOT_PX / die  # search pixels per canonical pixel
    w, h = int(lay.W * s), int(lay.H * s)
    A = np.array([[1.0 / s, 0.0, lay.margin_x], [0.0, 1.0 / s, lay.margin_y], [0.0, 0.0, 1.0]])
    img = cv2.warpPerspective(frame, H @ A, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    L = to_lab(img)[..., 0]
    top = _bright_top(L, SPOT_PX)
    spots = (top > SPOT_TOP).astype(np.uint8)
    n, lbl, st, _c = cv2.connectedComponentsWithStats(spots, connectivity=8)
    small = np.zeros(n, bool)
    small[1:] = (np.maximum(st[1:, 2], st[1:, 3]) <= SPOT_MAX[0] * SPOT_PX) \
        & (np.minimum(st[1:, 2], st[1:, 3]) <= SPOT_MAX[1] * SPOT_PX) & (st[1:, 4] >= 2)
    pips = small[lbl].astype(np.uint8)
    r = max(3, int(round(0.5 * SPOT_PX)) | 1)
    m, glbl, gst, _g = cv2.connectedComponentsWithStats(
        cv2.dilate(pips, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r))), connectivity=8)
    groups = []
    rad = 0.4 * SPOT_PX  # (a square about a face's middle)
    for g in range(1, m):
        x0, y0, gw, gh, _a = gst[g]
        if max(gw, gh) - r > SPOT_GROUP * SPOT_PX:
            continue  # a row of spots longer than a die: a checker's rim, a point's edge
        part = (glbl[y0:y0 + gh, x0:x0 + gw] == g) & (pips[y0:y0 + gh, x0:x0 + gw] > 0)
        ys, xs = np.nonzero(part)
        if len(np.unique(lbl[y0:y0 + gh, x0:x0 + gw][part])) < 2:
            continue  # one spot: a highlight (a 1 is the template finder's to find)
        gx, gy = x0 + xs.mean(), y0 + ys.mean()
        q = L[max(int(gy - rad), 0):int(gy + rad) + 1, max(int(gx - rad), 0):int(gx + rad) + 1]
        v = np.sort(q, axis=None)
        lift = float(v[int(0.95 * (len(v) - 1))]) - float(v[(len(v) - 1) // 2]) if len(v) else 0.0
        if lift < SPOT_LIFT:
            continue  # no white pips on a darker die there (as :func:`_pip_lift`, cheaply)
        bright = float(top[y0:y0 + gh, x0:x0 + gw][part].max())
        groups.append((bright, (gx + 0.5) / s, (gy + 0.5) / s))
    groups.sort(key=lambda g: -g[0])
    out: list[np.ndarray] = []
    near = 0.5 * die
    for _b, x, y in groups[:SPOT_MANY]:
        if 6 * lay.pw < x < 6 * lay.pw + lay.bar_w or y < 0.5 * die or y > lay.H - 0.5 * die \
                or x < 0.3 * die or x > lay.W - 0.3 * die:
            continue
        i, j = canon_to_mosaic(lay, np.array([x]), np.array([y]))
        ii = int(np.clip(round(float(i[0])), 0, held.shape[0] - 1))
        jj = int(np.clip(round(float(j[0])), 0, held.shape[1] - 1))
        if held[ii, jj]:
            continue
        c = np.array([x, y])
        if all(math.hypot(x - o[0], y - o[1]) >= near for o in have + out):
            out.append(c)
    return out


SPOT_READ = True  # a pips' candidate no window reading takes is read on its pips alone
SPOT_READ_NOT = (1,)  # values not taken so (a lone bright spot)


def _bare_disc(dpx: float, held: np.ndarray | None) -> np.ndarray:
    """The read window's disc of :data:`BARE_R` die sides (``dpx`` window pixels a die) round
    its centre, less the counted checkers ``held`` there: where a die is read without its
    footprint."""
    disc = np.zeros((WIN, WIN), np.uint8)
    cv2.circle(disc, (WIN // 2, WIN // 2), int(round(BARE_R * dpx)), 1, -1)
    if held is not None:
        disc[held > 0] = 0
    return disc


def read_spots(frame: np.ndarray, kit: DiceKit, H: np.ndarray, centre: np.ndarray,
               held: np.ndarray | None, wall: bool = False) -> DieReading | None:
    """A die at a pips' candidate (:func:`spot_candidates`) read on a disc of :data:`BARE_R`
    die sides round it with no footprint (as :func:`_read_bare`, without its foreground's
    say): a one-shot template mismatches the field round a die whose body is like the board
    (real template3's black 3 on a navy board shows only its pips). Only a plain read value
    (not a 1), off the field's edges, on a face showing that many bright spots apart
    (:func:`_face_spots`), makes it a die; within 0.55 of a die of the nominal bar, only one
    clear of the wall the photo shows (:func:`_flat_at_wall`; ``wall``: a 1 too, on a die's
    body: the re-read of a die read cocked by the wall alone, :func:`_off_wall`)."""
    lay = kit.lay
    die = DIE_D * lay.d
    span = WIN_DIES * die
    placed = _placed_window(frame, kit, H, centre, held)
    if placed is None:
        return None
    centre, _a, _b, M, hw, win = placed
    px = WIN / span
    dpx = die * px
    disc = _bare_disc(dpx, hw)
    c = WIN // 2
    fpx = float(np.hypot(*np.subtract(_at(M, c + 1, c), _at(M, c, c))))
    lab8 = to_lab(win)
    L = lab8[..., 0].astype(np.float32)
    if _face_spots(L, Face(WIN / 2, WIN / 2, 0.0, 2.0 * BARE_R * dpx), dpx) < 2:
        return None  # fewer than two pips anywhere on the disc: no face worth the search
    value, face, score, guess = read_face(L, disc, dpx, fpx, lift=top_lift(kit, centre, px))
    if value is None or face is None or face.by_spots \
            or (value in SPOT_READ_NOT and not (wall and value == 1)) \
            or face.side * fpx < MIN_FACE_PX or _face_spots(L, face, dpx) != value:
        return None
    cx_c = float(centre[0] + (face.cx / WIN - 0.5) * span)
    cy_c = float(centre[1] + (face.cy / WIN - 0.5) * span)
    if cy_c < 0.3 * die or cy_c > lay.H - 0.3 * die:
        return None
    if _near_bar(lay, cx_c, die) and not (WALL_FLAT and _flat_at_wall(
            frame, kit, H, L, face, value, dpx, cx_c)):
        return None
    r = 0.45 * face.side
    box = (slice(int(max(face.cy - r, 0)), int(face.cy + r) + 1),
           slice(int(max(face.cx - r, 0)), int(face.cx + r) + 1))
    body = lab8[box].reshape(-1, 3)
    colour = _colour(kit, body[::max(1, len(body) // COLOUR_PX)])
    fx, fy = _at(M, face.cx, face.cy)
    return DieReading((cx_c, cy_c), (fx, fy), value, colour, False, score, score,
                      face.side / px, "white" if cx_c > lay.W / 2 else "black", guess,
                      (1.0, 1.0, face.side / dpx, 0.0, 0.0))


WALL_FLAT = True  # one-shot: a die by the nominal bar, clear of the photo's wall, is not cocked
WALL_SIDE = (0.75, 1.15)  # ... its face's side (x a die's nominal side) within these (real
# test1's 1 0.93, frame0's dice 0.82 and 0.84)
WALL_STEP = 40.0  # L units: the bar's wall in a photo, where the field's columns' median
# lightness first stands this far from the bar's middle (real tournament bars: 26..28
# canonical pixels where the nominal board's is 38)
WALL_IN = 0.25  # a die is clear of a photo's wall that lies this far (x a die's side) inside
WALL_CLEAR = 0.7  # the nominal one when its face's centre lies this far from it (test1's 1:
# 0.76; a die leaning on a wall lies within about 0.6 of it)


def bar_walls(frame: np.ndarray, kit: DiceKit, H: np.ndarray) -> tuple[float, float]:
    """The bar's walls' canonical x as the photo shows them: from the bar's middle outwards,
    the first column of the field (at :data:`SPOT_PX` pixels a die's side) whose median
    lightness over the field's height stands :data:`WALL_STEP` from the middle's, within a
    die's side inside or a third outside the nominal wall (else the nominal wall)."""
    lay = kit.lay
    die = DIE_D * lay.d
    b0, b1 = 6 * lay.pw, 6 * lay.pw + lay.bar_w
    s = SPOT_PX / die
    x_lo = b0 - 0.34 * die
    w, h = int((b1 - b0 + 0.68 * die) * s) + 1, int(lay.H * s)
    A = np.array([[1.0 / s, 0.0, x_lo + lay.margin_x], [0.0, 1.0 / s, lay.margin_y],
                  [0.0, 0.0, 1.0]])
    img = cv2.warpPerspective(frame, H @ A, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    col = np.median(to_lab(img)[..., 0].astype(np.float32), axis=0)
    xs = x_lo + (np.arange(w) + 0.5) / s
    mid = 0.5 * (b0 + b1)
    level = float(np.median(col[np.abs(xs - mid) <= 0.25 * lay.bar_w]))
    off = np.abs(col - level) > WALL_STEP
    walls = []
    for b, side in ((b0, -1), (b1, 1)):
        at = b
        for k in np.argsort(side * xs, kind="stable"):  # from the bar's middle outwards
            if side * (xs[k] - mid) < 0:
                continue
            if off[k]:
                if side * (b - xs[k]) <= die:  # (the first such column, within reach)
                    at = float(xs[k] - side * 0.5 / s)
                break
        walls.append(at)
    return walls[0], walls[1]


def _flat_at_wall(frame: np.ndarray, kit: DiceKit, H: np.ndarray, L: np.ndarray, face: Face,
                  value: int, dpx: float, x: float) -> bool:
    """Whether a die read within 0.55 of a die of the nominal bar (canonical ``x``; ``face``:
    its top face in a read window of lightness ``L``, read ``value``) is clear of the bar's
    wall, so not leaning on it: the one-shot layout's bar is the nominal board's, wider than
    real tournament boards' (:func:`bar_walls`; test1's red 1 lies 0.76 of a die from the wall
    the photo shows, 0.51 of a die inside the nominal one). A die is clear of a wall found
    :data:`WALL_IN` inside the nominal one when it lies :data:`WALL_CLEAR` from it, and its
    face is read plainly (not on the spots' evidence), a flat die's size (:data:`WALL_SIDE`),
    every pip a separate spot of the pips' colour (:func:`_face_spots`; a 1 on a die's body,
    :func:`vision.facefit.one_on_body`). A die touching the wall stays cocked (real frame0's
    flat 3 does): its top face does not tell it from a leaning one (close-ups of dice leaning
    18..22 degrees read plainly at 0.95 of their side), nor, on the photos, do the bands past
    it (a rendered die leaning 30 degrees along the wall showed no side face away from it;
    frame0's flat 3 differs 31..61 Lab units round its face, on a red point by the wall)."""
    lay = kit.lay
    die = DIE_D * lay.d
    w0, w1 = bar_walls(frame, kit, H)
    away = 1.0 if x > 0.5 * (w0 + w1) else -1.0
    wall, nominal = (w1, 6 * lay.pw + lay.bar_w) if away > 0 else (w0, 6 * lay.pw)
    if away * (nominal - wall) < WALL_IN * die or away * (x - wall) < WALL_CLEAR * die:
        return False
    if face.by_spots or not WALL_SIDE[0] <= face.side / dpx <= WALL_SIDE[1]:
        return False
    if value == 1:
        return one_on_body(L, face, dpx, None)
    dark = read_pips(L, face).contrast > 0  # dark pips: counted as spots of the inverse
    return _face_spots(255.0 - L if dark else L, face, dpx) == value


TOUCH_BLANK = True  # one-shot: a refused footprint touching a counted checker with no pip
# layout fitted on it at all is no die, whatever its size (:func:`_touching_blank`)
TOUCH_APART = True  # ... nor is one whose fitted face shows no pip apart


def _touching_blank(r: DieReading) -> bool:
    """Whether one-shot reading ``r`` is a refused footprint touching a counted checker on
    which the face search fitted no pip layout (no best guess): a checker's rim, a point's tip
    against it, a shadow between two (real frame0's black point tip at a white checker, 1.66
    of a die's side; as :data:`SMALL_TOUCH`, whose phantoms are narrower). One-shot reads of
    bench_dice's tuning frames (700000+ and 1000+, 32 x 5 each): 7 such readings, all phantoms
    (63 -> 56), no die lost; where one made a frame's three readings no roll, the two dice left
    make one (1000 burgundy_metal/red: with a leaning 2 read flat, a roll that should not count;
    the leaning die's, not this rule's, miss). With :data:`TOUCH_APART`, also one whose best
    layout's face shows no pip apart at all (:func:`_face_spots`, light or dark: real frame0's
    phantom at a white checker's rim by a red point's tip, its best guess a 3 on a face with no
    spot, where the quad a few pixels off fitted none)."""
    if not (r.value is None and len(r.shape) > 3 and r.shape[3]):
        return False
    return r.guess is None or (TOUCH_APART and len(r.shape) > 5 and r.shape[5] == 0)


BLANK_ONE = True  # one-shot: nor is a refused footprint whose best guess is a 1 on a face
# showing no pip apart (:func:`_blank_one`)


def _blank_one(r: DieReading) -> bool:
    """Whether one-shot reading ``r`` is a refused footprint whose best layout is a 1 on a
    face that shows no pip apart at all: a speck on something die-sized (real dices6's phantom,
    a light speck on a red point's rounded top under the rim, once the top edge sat where the
    field begins), the refused twin of :data:`SPOTS_ONE`'s read 1. A die showing a 1 shows
    its pip apart."""
    return r.value is None and r.guess == 1 and len(r.shape) > 5 and r.shape[5] == 0


def _off_wall(frame: np.ndarray, kit: DiceKit, H: np.ndarray, r: DieReading,
              held: np.ndarray | None) -> DieReading:
    """One-shot: a die read cocked at the bar's wall (a read value, within 0.55 of a die of
    the nominal bar, off the field's top and bottom edges, touching no counted checker) is
    read again on a disc round its face (:func:`read_spots`); the same value there on a flat
    top face clear of the wall the photo shows (:func:`_flat_at_wall`) is the die's reading
    (flat), else ``r`` stands (real test1's red 1, its footprint merged with a red point's
    tip, so long as well)."""
    lay = kit.lay
    die = DIE_D * lay.d
    if not (WALL_FLAT and r.value is not None and r.cocked and _near_bar(lay, r.xy[0], die)
            and 0.3 * die <= r.xy[1] <= lay.H - 0.3 * die
            and not (len(r.shape) > 3 and r.shape[3])):
        return r
    again = read_spots(frame, kit, H, np.asarray(r.xy, np.float64), held, wall=True)
    return again if again is not None and again.value == r.value else r


ROWS_SIX = True  # one-shot: a refused die showing two rows of three pips is a 6 (_rows_six)
ROWS_PITCH = (0.2, 0.4)  # a row's pip pitch (x a die's nominal side; a standard 6's is 0.25,
# real template3's large white 6 0.33)
ROWS_GAP = (1.2, 2.2)  # the rows' distance (x the pitch; a standard 6's is 2, template3's 1.38:
# its pips lie closer across and wider along than the pip layouts' 6)
ROWS_BEND = 0.15  # a row's middle pip at most this far (x the pitch) off its ends' midpoint
ROWS_TURN = 12.0  # degrees: the rows parallel within this, their offset square to them
ROWS_SPREAD = 0.15  # the rows' lengths alike within this share


def six_in_rows(P: np.ndarray, dpx: float) -> bool:
    """Whether the six spots ``P`` (window pixels) are a 6's pips: two parallel rows of three,
    each evenly spaced on a straight line (:data:`ROWS_BEND`), the rows alike in length
    (:data:`ROWS_SPREAD`), parallel and side by side (:data:`ROWS_TURN`), :data:`ROWS_GAP`
    pitches apart, the pitch a die's (:data:`ROWS_PITCH` x ``dpx``, a nominal die's side in
    those pixels). No other face has three pips in a row twice over."""
    if len(P) != 6:
        return False
    P = np.asarray(P, np.float64)
    for first in _triples():
        rows = []
        for idx in (first, tuple(k for k in range(6) if k not in first)):
            T = P[list(idx)]
            mid = int(np.argmin(np.linalg.norm(T - T.mean(0), axis=1)))
            ends = T[[k for k in range(3) if k != mid]]
            rows.append((ends[0], T[mid], ends[1]))
        (a1, m1, b1), (a2, m2, b2) = rows
        d1, d2 = b1 - a1, b2 - a2
        if np.dot(d1, d2) < 0:
            d2 = -d2
        l1, l2 = float(np.hypot(*d1)), float(np.hypot(*d2))
        pitch = 0.25 * (l1 + l2)
        if not ROWS_PITCH[0] * dpx <= pitch <= ROWS_PITCH[1] * dpx:
            continue
        if abs(l1 - l2) > ROWS_SPREAD * 0.5 * (l1 + l2):
            continue
        if max(np.hypot(*(m1 - 0.5 * (a1 + b1))), np.hypot(*(m2 - 0.5 * (a2 + b2)))) \
                > ROWS_BEND * pitch:
            continue
        if abs(d1[0] * d2[1] - d1[1] * d2[0]) > math.sin(math.radians(ROWS_TURN)) * l1 * l2:
            continue
        off = m2 - m1
        gap = float(np.hypot(*off))
        if not ROWS_GAP[0] * pitch <= gap <= ROWS_GAP[1] * pitch:
            continue
        if abs(np.dot(off, d1)) > math.sin(math.radians(ROWS_TURN)) * gap * l1:
            continue
        return True
    return False


def _triples() -> list[tuple[int, ...]]:
    """The ten ways to split six spots into two threes (each as the three with spot 0)."""
    return [(0, i, j) for i in range(1, 6) for j in range(i + 1, 6)]


def _twin_six(frame: np.ndarray, kit: DiceKit, H: np.ndarray, c: np.ndarray, r: DieReading,
              held: np.ndarray, ground: bool, oneshot: bool = False) -> DieReading | None:
    """One-shot: the other of two touching dice (:func:`_twin`'s window) refused there, read
    as a 6 when it shows two rows of three pips (:func:`_rows_six`; real template3's white 6
    touches its 5)."""
    if not ROWS_SIX or r.value is None or r.cocked:
        return None
    off = np.subtract(c, r.xy)
    if float(np.hypot(*off)) < TWIN_OFF * DIE_D * kit.lay.d:
        return None
    t = read_die(frame, kit, H, np.asarray(c) + off, held, ground=ground, oneshot=oneshot)
    if t is None or t.value is not None:
        return None
    t = _rows_six(frame, kit, H, t, held)
    return t if t.value is not None else None


def _rows_six(frame: np.ndarray, kit: DiceKit, H: np.ndarray, r: DieReading,
              held: np.ndarray | None) -> DieReading:
    """One-shot: a refused flat die (real template3's large white 6, its pips laid out apart
    from the pip layouts' 6, so no layout fits it; real dices6's small black 6s, each row's
    pips blurred into one bar) read again on a disc round it: exactly six pip-like spots of
    one colour there, in two rows of three (:func:`six_in_rows`), or two bright bars, each a
    row of three run together (:func:`six_in_bars`), away from the bar and the field's ends,
    make it a 6; else ``r`` stands."""
    if not (ROWS_SIX and r.value is None and not r.cocked):
        return r
    found = _six_rows_at(frame, kit, H, r, held)
    if found is None:
        return r
    cx_c, cy_c, fx, fy, colour = found
    return replace(r, xy=(cx_c, cy_c), frame_xy=(fx, fy), value=6, colour=colour,
                   half="white" if cx_c > kit.lay.W / 2 else "black", guess=6)


def _six_shows(frame: np.ndarray, kit: DiceKit, H: np.ndarray, r: DieReading,
               held: np.ndarray | None) -> bool:
    """Whether reading ``r`` is a 6 whose two rows show round it (:func:`_six_rows_at`): its
    pips may cover half its face (a small blurred die's rows run together), so its lift
    (:func:`_pip_lift`, over the face's median) says little; its rows say it has white pips.
    Real dices6's left 6 (a pips' candidate) lifted 57."""
    return ROWS_SIX and r.value == 6 and not r.cocked \
        and _six_rows_at(frame, kit, H, r, held) is not None


def _six_rows_at(frame: np.ndarray, kit: DiceKit, H: np.ndarray, r: DieReading,
                 held: np.ndarray | None
                 ) -> tuple[float, float, float, float, str | None] | None:
    """A 6's two rows on a disc round reading ``r`` (:func:`_rows_six`'s look): the face's
    centre (canonical and frame) and the body's colour, or None when there are none (or the
    face lies by a wall, where it may lean)."""
    lay = kit.lay
    die = DIE_D * lay.d
    span = WIN_DIES * die
    placed = _placed_window(frame, kit, H, np.asarray(r.xy, np.float64), held)
    if placed is None:
        return None
    centre, _a, _b, M, hw, win = placed
    px = WIN / span
    dpx = die * px
    lab8 = to_lab(win)
    L = lab8[..., 0].astype(np.float32)
    disc = _bare_disc(dpx, hw)
    at = next((P.mean(0) for _sign, P, _top in pip_spots(L, disc, dpx) if six_in_rows(P, dpx)),
              None)
    if at is None and ROWS_BARS:
        at = six_in_bars(lab8[..., 0], disc, dpx)
    if at is None:
        return None
    fcx, fcy = float(at[0]), float(at[1])
    cx_c = float(centre[0] + (fcx / WIN - 0.5) * span)
    cy_c = float(centre[1] + (fcy / WIN - 0.5) * span)
    if _by_edge(lay, cx_c, cy_c, die):
        return None  # by a wall: it may lean on it (read_spots' rule, without the wall test)
    rr = 0.3 * dpx
    box = (slice(int(max(fcy - rr, 0)), int(fcy + rr) + 1),
           slice(int(max(fcx - rr, 0)), int(fcx + rr) + 1))
    body = lab8[box].reshape(-1, 3)
    colour = _colour(kit, body[::max(1, len(body) // COLOUR_PX)])
    fx, fy = _at(M, fcx, fcy)
    return cx_c, cy_c, fx, fy, colour


ROWS_BARS = True  # a 6 whose rows' pips run together (a small blurred die) shows two bars
BARS_LONG = (0.45, 1.0)  # a bar's length (x a die's nominal side; real dices6's 0.63..0.70: a
# row's three pips, 0.5 of a side from end to end, and a pip's width)
BARS_WIDE = 0.4  # its width at most (a pip's and the blur's; dices6's 0.31..0.36), and its length
BARS_ASPECT = 1.6  # at least this x its width (a row of three: (0.5 + w) / w, w the width;
# dices6's 1.9..2.3; a lone pip, blurred or not, about 1)
BARS_GAP = (0.55, 0.9)  # the bars' distance (x their length; a 6's rows 0.5 of a side apart,
# dices6's 0.7): a 4 smeared into two stripes has its pips' distance for its stripes' gap and
# that and a pip and the smear for their length (0.5 at most)


def six_in_bars(L8: np.ndarray, disc: np.ndarray, dpx: float) -> np.ndarray | None:
    """The middle (x, y) of two bright bars on ``disc`` of lightness ``L8`` (uint8; ``dpx``: a
    die's nominal side in its pixels) that are a 6's two rows of three pips run together, or
    None: the only bright spots there (:func:`_bright_top` over :data:`SPOT_TOP`), each
    :data:`BARS_LONG` long, :data:`BARS_WIDE` wide and :data:`BARS_ASPECT` long, alike in length
    (:data:`ROWS_SPREAD`), parallel and side by side (:data:`ROWS_TURN`), :data:`BARS_GAP`
    of their length apart. No other face shows two such bars: a 2's or a 3's pips run
    together along one diagonal, a 4's or a 5's would need a smear longer than the bars."""
    top = _bright_top(L8, dpx)
    top[disc == 0] = 0
    n, lbl, st, _c = cv2.connectedComponentsWithStats((top > SPOT_TOP).astype(np.uint8),
                                                      connectivity=8)
    bars = []
    for j in range(1, n):
        if st[j, 4] < 3:
            continue  # (a stray pixel)
        ys, xs = np.nonzero(lbl == j)
        P = np.column_stack([xs, ys]).astype(np.float64)
        c = P.mean(0)
        w, v = np.linalg.eigh(np.cov((P - c).T))
        d = v[:, 1]  # the long axis
        t = (P - c) @ d
        s = (P - c) @ v[:, 0]
        length, width = float(np.ptp(t)) + 1.0, float(np.ptp(s)) + 1.0
        bars.append((c, d, length, width))
    if len(bars) != 2:
        return None
    (c1, d1, l1, w1), (c2, d2, l2, w2) = bars
    for length, width in ((l1, w1), (l2, w2)):
        if not (BARS_LONG[0] * dpx <= length <= BARS_LONG[1] * dpx
                and width <= BARS_WIDE * dpx and length >= BARS_ASPECT * width):
            return None
    if abs(l1 - l2) > ROWS_SPREAD * 0.5 * (l1 + l2):
        return None
    turn = math.sin(math.radians(ROWS_TURN))
    if abs(float(d1[0] * d2[1] - d1[1] * d2[0])) > turn:
        return None  # not parallel
    off = c2 - c1
    gap = float(np.hypot(*off))
    if not BARS_GAP[0] * 0.5 * (l1 + l2) <= gap <= BARS_GAP[1] * 0.5 * (l1 + l2):
        return None
    if abs(float(off @ d1)) > turn * gap:
        return None  # not side by side
    return 0.5 * (c1 + c2)


def _bright_top(L8: np.ndarray, dpx: float) -> np.ndarray:
    """How far each pixel of lightness ``L8`` (uint8) stands above its opening by a disc of
    0.45 of a die's side (``dpx`` pixels): bright pip-sized spots stand out, a die's or a
    checker's broad face does not."""
    k = max(3, int(round(0.45 * dpx)) | 1)
    return cv2.subtract(L8, cv2.morphologyEx(L8, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (k, k))))


def _face_spots(L: np.ndarray, face: Any, dpx: float, rows: bool = False) -> int:
    """How many bright pip-sized spots (as :func:`spot_candidates` finds them: the lightness
    over its opening by half a die, each spot no longer than :data:`SPOT_MAX`'s short side)
    lie on ``face``: a die read on its pips alone has them apart, where a point's tip read as
    a 3 (tuning 700000+ one-shot) is one long spot. ``rows``: a spot may also be a blurred row
    of pips (as :func:`spot_candidates` takes them: no longer than SPOT_MAX's long side)."""
    top = _bright_top(np.clip(L, 0, 255).astype(np.uint8), dpx)
    n, _lbl, st, cen = cv2.connectedComponentsWithStats((top > SPOT_TOP).astype(np.uint8),
                                                        connectivity=8)
    ca, sa = math.cos(face.angle), math.sin(face.angle)
    half = 0.5 * face.side
    count = 0
    for j in range(1, n):
        if max(st[j, 2], st[j, 3]) > SPOT_MAX[1] * dpx and not (
                rows and max(st[j, 2], st[j, 3]) <= SPOT_MAX[0] * dpx
                and min(st[j, 2], st[j, 3]) <= SPOT_MAX[1] * dpx):
            continue
        dx, dy = cen[j, 0] - face.cx, cen[j, 1] - face.cy
        if abs(dx * ca + dy * sa) <= half and abs(-dx * sa + dy * ca) <= half:
            count += 1
    return count


def _pips_apart(L: np.ndarray, face: Any, dpx: float, rows: bool = False) -> int:
    """How many pips show apart on ``face`` (:func:`_face_spots`: light spots, or dark ones,
    whichever more; ``rows``: or blurred rows of them)."""
    return max(_face_spots(L, face, dpx, rows), _face_spots(255.0 - L, face, dpx, rows))


def _pip_lift(frame: np.ndarray, kit: DiceKit, H: np.ndarray, r: DieReading) -> float:
    """How far the brightest pixels of reading ``r``'s face stand above its middling ones (L
    units: the 95th less the 50th percentile over a disc of 0.45 of its side): white pips on a
    dark die give 100 or more; a die with dark pips, a cube's digit, next to nothing."""
    span = WIN_DIES * DIE_D * kit.lay.d
    M = window_matrix(kit.lay, H, np.asarray(r.xy, np.float64), span)
    win = cv2.warpPerspective(frame, M, (WIN, WIN), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    L = to_lab(win)[..., 0].astype(np.float32)
    rad = max(2.0, 0.45 * r.side * WIN / span)
    yy, xx = np.mgrid[0:WIN, 0:WIN]
    inside = np.hypot(xx - WIN / 2 + 0.5, yy - WIN / 2 + 0.5) <= rad
    v = L[inside]
    return float(np.percentile(v, 95) - np.percentile(v, 50))


def _low_spared(lay: Layout, c: np.ndarray, out: list[DieReading]) -> bool:
    """Whether a candidate found only at :data:`LOCAL_LOW` (canonical ``c``) is not read: its
    half of the field (a roll lies in its roller's right-hand half) holds :data:`LOW_UNTIL` flat
    read dice already, or it lies within a die's side of a read die."""
    half = "white" if c[0] > lay.W / 2 else "black"
    die = DIE_D * lay.d
    return sum(o.value is not None and not o.cocked and o.half == half
               for o in out) >= LOW_UNTIL \
        or any(math.hypot(c[0] - o.xy[0], c[1] - o.xy[1]) < die for o in out)


def _twin(frame: np.ndarray, kit: DiceKit, H: np.ndarray, c: np.ndarray, r: DieReading,
          held: np.ndarray, ground: bool = True, oneshot: bool = False) -> DieReading | None:
    """The other die of two touching ones (:data:`TWIN`): a flat read die ``r`` found at a
    candidate ``c`` (a blob's centre) that stands off it by :data:`TWIN_OFF` die sides or more
    is half of a blob; the window centred as far past ``c`` the other way is read, and a flat
    read die there (no streak) is the other."""
    if r.value is None or r.cocked:
        return None
    die = DIE_D * kit.lay.d
    off = np.subtract(c, r.xy)
    dist = float(np.hypot(*off))
    if dist < TWIN_OFF * die:
        return None
    centres = [np.asarray(c) + off]
    if TWIN_FAR and 2 * dist < TWIN_FAR * die:  # (see TWIN_FAR)
        centres.append(np.asarray(r.xy) + off / dist * TWIN_FAR * die)
    for at in centres:
        t = read_die(frame, kit, H, at, held, ground=ground, oneshot=oneshot,
                     avoid=(float(r.xy[0]), float(r.xy[1])) if AVOID_R else None,
                     **({"flat_only": True} if FLAT_SPARE else {}))
        if t is not None and float(np.hypot(*np.subtract(t.xy, r.xy))) < 0.5 * die:
            continue  # the read die again
        if t is None or t.value is None or t.cocked or _streak(t):
            continue
        return t
    return None


def _recentred(frame: np.ndarray, kit: DiceKit, H: np.ndarray, r: DieReading,
               held: np.ndarray, ground: bool = True, oneshot: bool = False) -> DieReading:
    """A streak's reading (:data:`RECENTRE`) read again in a window centred on its face: the
    same value there on a footprint that is no streak is the die's reading (its flatness the
    face's say), else the streak's stands."""
    again = read_die(frame, kit, H, np.array(r.xy), held, ground=ground, oneshot=oneshot)
    if again is not None and again.value == r.value and not _streak(again):
        return again
    return r


def _apart(deep: bool, other: DieReading) -> float:
    """How near (x a die's side) a reading from a candidate (``deep``: one found inside a big
    blob or against the light only) to ``other`` is the same die."""
    if not deep:
        return 0.5
    return DEEP_APART[0] if other.value is not None and not other.cocked else DEEP_APART[1]


def dice_observation(dice: list[DieReading]) -> Dice | None:
    """The roll the field shows, for the referee.

    - no die: None;
    - two dice in one half: that seat's roll; values only when both are read (else empty);
    - one die in each half: the opening roll (no owner) when their colours are the two sets or
      plain; one player's dice (both the same set) split over the halves: cocked;
    - any other number: all values, no owner (not one roll: the referee waits);
    - a cocked die makes the roll cocked.
    """
    if not dice:
        return None
    cocked = any(d.cocked for d in dice)
    values = tuple(sorted(d.value for d in dice if d.value is not None))
    readable = len(values) == len(dice)
    if len(dice) != 2:
        return Dice(values if readable else (), None, cocked)
    a, b = dice
    if not readable:
        values = ()
    if a.half == b.half:
        return Dice(values, a.half, cocked)
    if a.colour is not None and a.colour == b.colour:
        return Dice(values, a.colour, True)
    return Dice(values, None, cocked)


def observe_dice(frame: np.ndarray, profile: Any, regions: list[Any],
                 strips: np.ndarray | None = None) -> Dice | None:
    """The reader's one call: the roll a frame shows, given the regions' likelihoods (where
    the checkers are) and, when at hand, the strips already sampled."""
    counts = [max(r, key=r.get) if r else None for r in regions]
    return dice_observation(read_dice(frame, profile, counts, strips))


def read_dice_oneshot(frame: np.ndarray, profile: Any, regions: list[Any]
                      ) -> tuple[Dice | None, list[DieReading]]:
    """For the one-shot mode: the roll and every die, with a provisional profile (the
    one-shot engineer's ``provisional_profile``) and the regions read with it."""
    counts = [max(r, key=r.get) if r else None for r in regions]
    # (one photo: the board behind costs more than it gives; the candidates kept only as flat
    # read dice get no whole-face fit: on the real photos ~125 such reads a set of 8, ~70 ms a
    # photo, their 13-25 ms ones (the fit's) all refused; one-shot dice the same on 127 renders)
    dice = read_dice(frame, profile, counts, ground=False, spots=True, spare_fits=True)
    return dice_observation(dice), dice
