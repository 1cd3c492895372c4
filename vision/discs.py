"""Disc templates: how one checker top and this board's own empty points look, learned at
calibration from a frame of a known position, and the per-slot evidence they give.

Colour alone cannot tell a black checker on a black point from the point. What differs is the
structure: a checker top has its lip, groove, highlight and side where the empty point has felt
and the triangle's edge. So the profile keeps

- a per-pixel template of a checker top of each colour (mean and spread, in disc-local pixels,
  one for the top row and one for the bottom row since the light falls the other way round;
  its mean also as seen on each half of the board, which a strip weighs by how near each half's
  checkers lay to it: the light over a board is not even; and learned as under the board's
  mean light: each point's light against its kind's mean, ``gain``, read off its empty look or
  its neighbours', divides the calibration tops and multiplies the tops looked for on that
  point, so a black checker in a bright corner is not a white one in a dim corner; the light
  along each board row's strips and over each covered point, which the points' empty looks
  cannot show, is read off the calibration checkers themselves, ``slot_light``), and
- each point strip's own empty look, pixel by pixel (where the calibration frame showed it empty;
  elsewhere the mean of the strips of its kind, with their spread, and that mean under the light
  the strip's neighbours show (``vision.light``), both at once: a *borrowed* look, which
  gets back part of the log-density it loses against an own look on a truly empty strip, so it
  does not favour a checker, and which later settled frames replace with the point's own look
  where a read is near certain the point is empty there, see ``DiscModel.learn_empty``).

Every slot a checker can occupy (first row, nested layers) then gets per-pixel log-likelihood
ratios "a checker of this colour centred here" against "this strip's empty look", which the stack
hypotheses of :mod:`vision.stacks` sum over the pixels each checker shows; a pixel the camera
clipped tells the two colours apart by little (``CLIP_SAYS``: it only bounds a top's brightness
from below, and under a glare spot both colours clip). A tray's pixels get
"something is there" against the tray's own empty look (``DiscModel.change_llr``): a checker of
the tray's colour standing on edge, or anything else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .geometry import Layout, stack_centres
from .lightfield import fit_light
from .stacks import bar_centres
from .strips import SW, strip_length

R = 11  # template half size (strip pixels); a checker is ~0.94 * SW across
TS = 2 * R + 1
DISC = 0.97  # fraction of the checker radius whose pixels are scored
CLIP = 6.0  # nats one pixel can say either way
OTHER_LOG = float(-3 * np.log(256.0)) + 4.0  # something else (die, hand, glint)
SIGMA_FLOOR = np.array([3.0, 2.5, 2.5], np.float32)
SHRINK = 3.0  # pseudo-samples pulling a template cell's spread toward the colour's mean spread
NB = 28  # strips with an empty look: the 24 points, both bar halves and both tray halves
KIND_SPREAD = 1.5  # widening of the kind-mean empty look where a strip was covered
LEARN_FIT = 16.0  # mean squared z (95th percentile) a borrowed look must fit to be replaced
GAP_SHARE = 0.5  # share of the kind's look's gap given back (dev seeds 700000+: 0.5 as good as 1)
SIDE_SPREAD = 2.0  # columns: how far a half's checker tops stand for a strip's (dev: 2-5 alike)
SIDE_SHRINK = 3.0  # pseudo-samples pulling a half's template cell toward the whole row's
NEAR = 3  # strip pixels around a calibration checker whose empty look is taken from the kind
L_OFF = 16 * 2.55  # 8-bit Lab: L + L_OFF and a, b about 128 scale as the cube root of the light
GAIN_SPREAD = 1.0  # columns: how far a point's light is read from its row neighbours
GAIN_POWER = 0.75  # share of the measured gain (in log) taken (tuning 700000+: 0.75-1 alike)
MAX_GAIN = 2.0  # light gains kept within [1/2, 2] (in Lab's cube-root scale)
ALIKE = 1.0  # combined spreads within which a checker top's pixel is alike the empty look (says
# nothing; tuning 700000+ and 1000+: 0.5-1.5 alike, 2 worse; 1.5 with CLIP_RANGE, see there)
CLIPPED = 250.0  # a BGR channel this bright may be clipped: it only bounds the light from below
MIN_TOPS = 3  # first-row calibration checkers of each colour needed for the BGR tops
GAIN_BAND = 4  # strip rows per band of a point's light along its strip
MIN_BAND = 24  # unclipped pixels a band needs to show its own light
DIM_BAND = 40.0  # mean BGR level below which a band's light is too noisy to read
CLIP_BANDS = True  # a band of a point's strip whose empty look the camera clipped (a light point
# under the board's brightest light) is lit as its row neighbours show that band, not as the
# strip's own unclipped bands are (tuning footage 1025 double take: checkers at the edge of
# clipped cream points ~1.3x brighter than their tops as the strip's light lit them, foreign,
# a hand on every frame, or whites missed: 35 -> 77/77 turns exact; held-out footage 210 ->
# 225/229). bench_vision 32 x 5: held-out slots 99.46 -> 99.39 %, frames perfect 87.5 -> 86.9 %,
# read confidently wrong 11 -> 10; tuning 700000+ 48 x 6 99.11 -> 98.92 % (whites on clipped
# ivory points of 700004 missed), frames perfect 81.9 -> 81.2 %. Half the neighbours' light
# (their log light's half) gave the tuning scenes back (98.99 %, 82.3 %) but lost 1025 again
# (36/77): its checkers need the whole of it
DIM_TOPS = 60.0  # mean BGR level of a colour's tops below which they are lit in Lab (``gain``)
LIT_SHARE = 0.5  # a covered point's borrowed look: this share of the way from its kind's mean
# to that mean under its own light (1.0 with the light field: alike)
SAME_LIGHT = True  # a covered point's borrowed look no brighter than its kind's mean under the
# light its checker tops are shown under there (``_light_borrowed``): a white top and a cream
# point look alike, so a look lit brighter than the tops reads the point, emptied, white.
# Tuning 700008 (blue maple, a shadow band over covered cream points 17 and 19): tops lit ~0.8
# of the mean, the look half lit by the neighbours' ~0.9 (``LIT_SHARE``), so both points read
# white, sure, on three frames. bench_vision --setups 32 --frames 5 --oneshot 0 (checkers):
# tuning 700000+ wrong regions 49 -> 46 (read sure 34 -> 28), slots 98.85 -> 98.92 %, perfect
# 78.1 -> 78.8 %; 1000+ 28 -> 25, 99.34 -> 99.41 %, 83.8 -> 85.6 %; held-out 900000+ 38 -> 38,
# 99.10 % both, perfect 81.2 -> 81.9 %, hands 97.5 % both. Lit brighter too (not only darker):
# tuning alike, held-out 38 -> 41 wrong (clipped glare on navy pearl 900011's point 1)
SAME_KEEP = 240.0  # ... where the half-lit look is this bright (Lab L) it stays: a cream point
# near the clip, whose light clipped pixels bound from below only (tuning 700004, green oak:
# point 13 lit 0.94 by the tops' light read white on four frames; none kept: 52 wrong regions)
HUE_LOOK = True  # ... and that look lit from the kind's pixels seen unclipped (``_kind_unclipped``)
HUE_DIM = True  # a light top's hue from its dimmest unclipped pixels where the other colour is
# dark (``_tops_hue``)
HUE_DIM_DARK = 0.6  # ... dark: the other colour's unclipped pixels' median BGR mean below this
# share of this colour's (tuning: green oak 0.38-0.53, navy pearl 0.73-0.88)
HUE_DIM_Q = 0.3  # ... the dimmer share of its unclipped pixels the hue is taken from
LIGHT_FIELD = False  # the light along the points from one smooth field (``vision.lightfield``;
# off, see ``vision.light.FIELD``)
CLIP_RANGE = 1.0  # OFF (1.0): on footage it swaps colours, see below. A checker top
# calibration saw clipped is up to this much brighter than the
# clip's bound (in BGR; all its pixels clipped: the whole range, see ``DiscModel.tops_lit``).
# With CLIP_CHROMA 8 and ALIKE 1.5, bench.checker_harness --relearn (5 frames), against 1.0 /
# 0 / 1.0: tuning 700000+ 40 setups wrong regions 76 -> 72, read confidently wrong 45 -> 34
# (whites missed 26 -> 15), slots 98.90 -> 99.02 %; 1000+ 40 setups 42 -> 40, 19 -> 14
# (phantom whites 15 -> 9), perfect 83.5 -> 84.0 %. Each alone was no better (ALIKE 1.5 alone:
# 77 and 44 wrong; CLIP_RANGE 1.5 alone: 77 wrong; 2.0 as 1.5). But on the held-out footage
# (bench.bench_pipeline, fresh reads) 1.5 read 900011 dance's white checkers on points 4, 6, 8 as
# black from the first turns on: 15/22 turns exact -> 1/22 with 2 false flags (bisected to this
# setting; ALIKE alone changes nothing there). Off until the clipped range is kept from taking
# the other colour's look.
ROW_LIGHT = True  # the light along a board row's strips that its calibration checkers show
# (``slot_light``) is part of each point's light
ROW_MIN = 0.2  # log light over a strip's length below which the row's is not taken
ROW_SURE = 3.0  # standard errors the line's slope must be from none
POINT_MIN = 0.1  # log light a covered point's checkers show beyond the row's line for it to
# be taken as that point's own (under its checkers' rows)
ROW_SEEN = 0.6  # share of a calibration checker's pixels that must be unclipped to count
CLIP_CHROMA = 8.0  # Lab a, b spread of a top seen clipped (its hue under a dimmer light is
# unknown: a clipped channel hides it)
CLIP_STEPS = 5  # levels the range is looked at (their colours' box in Lab is the model's)
CLIP_SAYS: float | None = 0.3  # nats a pixel the camera clipped (Lab L >= ``CLIP_L``) may
# say for one colour over the other where both colours' tops are bright (``BOTH_L``): it only
# bounds the top's brightness from below, so under a glare spot a grey top clipped like a white
# one is not read white by the white tops' tighter spread (held-out navy pearl 900011, two glare
# spots: greys on the points under them read white, p 1.000). bench.checker_harness, None ->
# 0.3 (0.6, 1.0 change less; 0.0 reads the whites there black): held-out 900000+ 32 x 5 wrong
# regions 51 -> 47, read confidently wrong 29 -> 21 (all 900011); tuning 700000+ 32 x 5 65 -> 65,
# 1000+ 32 x 5 34 -> 34, navy pearl's tuning setups (21 x 5) 46 -> 45. None: no bound
BOTH_L = 200.0  # Lab L both colours' tops reach at a disc pixel for CLIP_SAYS to hold there: a
# dark top cannot clip, so there a clipped pixel rightly says white (bound everywhere, a lone
# ivory checker on Plakoto 700011 was read < 0.999 sure and taught no tops, test_lonetops;
# tuning 700000+ 65 -> 67 wrong regions)
EMPTY_SAYS: float | None = 0.3  # nats a clipped pixel may say for a checker top against the
# strip's empty look where the top is bright (``BOTH_L``) and the look near the clip
# (``EMPTY_L``): under strong light a white top on a cream point clips as the point does, so
# only its rim tells them apart (held-out 900002
# illegal_standing turn 6: a lone white on cream point 5 read empty, its top all L 254 where
# the tops learned unclipped say L 240 with a tight chroma). Held-out footage, fresh reads
# (bench.bench_pipeline): standard 218 -> 220/229 turns exact (900002 illegal_standing 13 -> 15),
# illegal plays flagged 3/4 -> 4/4 (900011 illegal_corrected's 13/10 6/3: the checker on 3
# now read), 0 false flags; Plakoto 900002 91/94 unchanged. bench_vision 32 x 5: held-out
# unchanged (99.10 %), tuning 700000+ 98.85 -> 98.82 %, 1000+ 99.37 -> 99.34 % (coin-flip
# counts), read sure wrong 35 -> 34, 18 -> 16. None: no bound
EMPTY_L = 240.0  # Lab L the empty look reaches at a disc pixel for EMPTY_SAYS to hold there (a
# point seen clipped or nearly: below it a clipped pixel is rightly something brighter)
EMPTY_SIGMA = 6.0  # ... and whose Lab L spread is at most this: the point's own look (a look
# borrowed where calibration checkers covered the point is wide and its light unsure: there the
# bound read phantom whites, tuning 700004 green oak's point 13)
CLIP_L = 252  # Lab L of a pixel taken as clipped (BGR 250 in every channel is L 251)
CENSORED = True  # on a point calibration found under a glare spot of its own (its covered
# bands' light raised to its free bands', ``vision.light.OWN_ANCHOR``: ``DiscModel.glare``), the
# colours at a clipped pixel are told apart by each top's chance to show L at least the clip
# (``_censored_colours``), not by its density at the clipped value, which favours the tighter
# spread: both tops clip there, and held-out footage g900011 illegal_corrected read point 24's
# two calibration whites black, its illegal 13/10 6/3 not flagged. Only there: on every point
# (a clipped pixel is as often a grey top's under a glare spot calibration did not see) held-out
# bench 900011 read two whites under the glare grey, frames perfect 81.2 -> 80.6 %
BOTH_CLIP_SHARE: float | None = 0.8  # a point where both colours' tops, as lit there, reach
# ``BOTH_CLIP_L`` over this share of a checker's pixels reads its clipped pixels blind: they say
# nothing of the colour (``Gathered.blind``), the unclipped rim and side pixels tell it. A glare
# spot calibration did not flag (navy pearl, tops close in tone: both clip) lifts the true light
# past the model's, so a black top there clips where the model says L 240-250 and each clipped
# pixel, censored or not, still said white (tuning 1160, held-out 900011: blacks on points 1-6
# read white). bench.checker_harness: tuning navy pearl setups with a strong glare (1076, 1157,
# 1159, 1160, 1193; x 5) wrong regions 42 -> 39, colour swaps 16 -> 13; tuning 700000+ and
# 1000+ 32 x 5 unchanged (61, 31); held-out 900000+ 32 x 5 45 -> 41 (900011's swaps 7 -> 3),
# slots 99.15 -> 99.25 %, perfect 83.1 -> 83.8 %. Share 0.5-0.7 or L 240-245 also turned a
# black white on 1160 (tuning). None: off
BOTH_CLIP_L = 250.0
HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)  # a normal density's log normaliser
TAIL_Z = 6.0  # standard scores past which ``log_tail`` takes the asymptotic series
_TAIL: tuple[np.ndarray, np.ndarray] | None = None
TRAY_TOPS = True  # a tray's change evidence also weighs a checker of the tray's colour
TRAY_COLOUR = {26: 1, 27: 0}  # tray strip (strips.TRAY_TOP / TRAY_BOTTOM): black's, white's
TRAY_SPREAD = 1.0  # widening of the checker colour's spread on a tray
TRAY_ALIKE = 1.0  # empty-look spreads within which a tray's checker colour says nothing
TRAY_NOISE = True  # a tray's own empty look spreads by the trays' own pixel noise (a tray floor
# is smooth; the points' noise, felt and paint, is two to three times larger)


@dataclass
class Slots:
    """Disc pixels of every distinct slot centre along a point strip."""

    dists: list[float]  # centre distance from the edge, in checker diameters
    idx: list[np.ndarray]  # flat strip pixel indices inside each slot's disc
    tidx: list[np.ndarray]  # the template cell of each of those pixels

    @property
    def all_idx(self) -> np.ndarray:
        return np.concatenate(self.idx)

    @property
    def all_tidx(self) -> np.ndarray:
        return np.concatenate(self.tidx)

    def bounds(self) -> list[int]:
        return np.cumsum([0] + [len(i) for i in self.idx]).tolist()


def slot_dists(rows: list[int], nmax: int = 15) -> list[float]:
    out: set[float] = set()
    for r in rows:
        out.update(round(d, 4) for d, _layer in stack_centres(nmax, r))
    return sorted(out)


def bar_dists(lay: Layout, nmax: int) -> list[float]:
    """Slot centres on a bar half (from the bar's centre), as ``stacks.bar_masks`` lays them."""
    return [dist for dist, _layer in bar_centres(lay, nmax)]


def make_slots(lay: Layout, dists: list[float]) -> Slots:
    L = strip_length(lay)
    k = SW / lay.pw  # strip pixels per canonical pixel (both ways)
    rows = np.arange(L) + 0.5
    cols = np.arange(SW) + 0.5
    r = lay.d / 2 * DISC * k
    idx, tidx = [], []
    for dist in dists:
        dv = rows[:, None] - dist * lay.d * k
        du = np.broadcast_to(cols[None, :] - SW / 2, (L, SW))
        dv = np.broadcast_to(dv, (L, SW))
        m = dv * dv + du * du <= r * r
        idx.append(np.flatnonzero(m))
        ti = (np.clip(np.rint(dv[m]), -R, R) + R) * TS + np.clip(np.rint(du[m]), -R, R) + R
        tidx.append(ti.astype(np.int64))
    return Slots(list(dists), idx, tidx)


@dataclass
class Gathered:
    """A disc model's parameters at every disc pixel of some strips (background, white,
    black stacked on the first axis)."""

    idx: np.ndarray  # (Q,) strip pixel of each disc pixel
    mean: np.ndarray  # (3, n, Q, 3)
    inv: np.ndarray  # (3, n, Q, 3) inverse spreads
    const: np.ndarray  # (3, n, Q) log normalisers
    tops: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # the checker models' own
    # (mean, inv, const) before pixels alike the empty look took its parameters (``alike``)
    censor: np.ndarray | None = None  # (n,) the strips whose clipped pixels are read censored
    # (``CENSORED``: points under a glare spot of their own)
    blind: np.ndarray | None = None  # (n,) of those, the strips where a clipped pixel says
    # nothing of the colour (``BOTH_CLIP_SHARE``: both tops as lit there clip)
    _says: tuple | None = field(default=None, repr=False, compare=False)  # ``says_masks``'
    # (the constants they were made with, the masks); dropped when the parameters change

    def says_masks(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(n, Q) masks of the disc pixels where a clipped pixel's say is bounded, whatever
        the frame: white's and black's ``EMPTY_SAYS`` (a bright own empty look and a bright
        top) and ``CLIP_SAYS`` (both tops bright); made once per set of parameters."""
        key = (EMPTY_L, EMPTY_SIGMA, BOTH_L)
        if self._says is None or self._says[0] != key:
            m1, m2 = self.mean[1][..., 0], self.mean[2][..., 0]
            bright = self.mean[0][..., 0] >= EMPTY_L
            bright &= self.inv[0][..., 0] >= 1.0 / EMPTY_SIGMA
            self._says = (key, bright & (m1 >= BOTH_L), bright & (m2 >= BOTH_L),
                          np.minimum(m1, m2) >= BOTH_L)
        return self._says[1:]

    def alike(self, row: int | None = None, px: np.ndarray | None = None,
              empty: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> None:
        """At disc pixels (of strip ``row`` and its disc pixels ``px`` only, when given) where
        a checker top's mean lies within the spreads of the empty look's (a white top on a
        cream point, a black one on a black point), the checker model takes the empty look's
        parameters: such a pixel says nothing either way, where unequal spreads made it favour
        the tighter model (a white checker missed on a light point, a phantom on a borrowed
        look). ``empty``: the empty look's (mean, inverse spread, constant) at those pixels,
        when the caller has them (reading them back from the gathered layout is slow)."""
        self._says = None
        if self.tops is None:
            self.tops = (self.mean[1:].copy(), self.inv[1:].copy(), self.const[1:].copy())
        at: tuple = (slice(None),) if row is None else (row,) if px is None else (row, px)
        if row is not None:  # the tops are kept strip by strip: take the row, then its pixels
            tm, ti, tc = (a[:, row] if px is None else a[:, row][:, px] for a in self.tops)
        else:
            tm, ti, tc = (a[(slice(None),) + at] for a in self.tops)
        if empty is None:
            bm, bi, bc = self.mean[(0,) + at], self.inv[(0,) + at], self.const[(0,) + at]
        else:
            bm, bi, bc = empty
        d2 = np.square(tm - bm[None])
        d2 /= np.reciprocal(np.square(ti)) + np.reciprocal(np.square(bi))[None]
        same = (d2.sum(-1) < ALIKE * ALIKE)[..., None]  # (2, ..., 1)
        if px is not None:  # one strip's pixels: each model's row set by one index (the
            # slice-and-index form is several times slower on the gathered layout)
            for k in (0, 1):
                self.mean[k + 1, row][px] = np.where(same[k], bm, tm[k])
                self.inv[k + 1, row][px] = np.where(same[k], bi, ti[k])
                self.const[k + 1, row][px] = np.where(same[k, :, 0], bc, tc[k])
            return
        self.mean[(slice(1, 3),) + at] = np.where(same, bm[None], tm)
        self.inv[(slice(1, 3),) + at] = np.where(same, bi[None], ti)
        self.const[(slice(1, 3),) + at] = np.where(same[..., 0], bc[None], tc)


@dataclass
class DiscEvidence:
    """Disc evidence of one frame: per-slot pixel LLRs of the points and of the bar halves,
    each point's share of foreign pixels, and the nats per pixel-sum."""

    Lw: np.ndarray  # (24, Q)
    Lb: np.ndarray
    bar_Lw: np.ndarray  # (2, Qbar): bar top half, bottom half
    bar_Lb: np.ndarray
    foreign: np.ndarray  # (24,)
    scale: float
    tray_any: np.ndarray  # (2, L*SW): "not the empty tray" LLR per pixel (top, bottom half)
    blob: float = 0.0  # the largest share of a point's front that is foreign in a solid patch
    bar_foreign: np.ndarray | None = None  # (2,) each bar half's share of foreign disc pixels


@dataclass
class DiscModel:
    """Checker-top templates and every point strip's empty look (Lab, float)."""

    mean: np.ndarray  # (2 colours: white, black; 2 rows: bottom, top; TS*TS, 3)
    sigma: np.ndarray  # same shape
    bg_mean: np.ndarray  # (28, L*SW, 3): the 24 points, the bar's top and bottom halves, then
    bg_sigma: np.ndarray  # (28, L*SW, 3)  the trays' top and bottom halves
    bg_bonus: np.ndarray | None = None  # (28, L*SW) nats added to a borrowed empty look
    side_mean: np.ndarray | None = None  # (2 colours, 2 rows, 2 sides, TS*TS, 3): checker tops
    side_cols: np.ndarray | None = None  # (2, 2, 2)  as seen on each half of the board, and the
    # mean column they were seen at (the light differs across the board)
    gain: np.ndarray | None = None  # (24,) the light over each point against its kind's mean
    # (Lab's cube-root scale): checker tops are kept as under the mean light, shown under each
    tops_bgr: np.ndarray | None = None  # (2 colours, 2 rows, 2 sides, TS*TS, 3) checker tops
    # as BGR under the row's mean light, each channel what it would show unclipped, and
    gain_bgr: np.ndarray | None = None  # (24, L) the light along each point (a BGR factor):
    # a point's tops are these times its light, clipped at white (instead of ``side_mean``,
    # ``gain``)
    tops_clip: np.ndarray | None = None  # (2 colours, 2 rows, 2 sides, TS*TS) share of each
    # BGR top cell's calibration pixels that were clipped: such a top is at least as bright as
    # ``tops_bgr`` says, how much more is unknown (see ``tops_lit``)
    glare: np.ndarray | None = None  # (24,) points whose covered bands calibration lit as
    # their own free bands show (a glare spot on them alone, ``vision.light.OWN_ANCHOR``)
    _noise: np.ndarray | None = field(default=None, repr=False, compare=False)
    learned: np.ndarray | None = field(default=None, repr=False, compare=False)  # the strip
    # pixels the last ``learn_empty`` took
    _change: dict | None = field(default=None, repr=False, compare=False)  # change_llr's
    # parameters per set of strips (their empty looks change only through ``learn_empty``),
    # the tops they were built with and whether an empty look was learned since

    # -- evidence -------------------------------------------------------------------------------

    def tops(self, colour: int, row: np.ndarray, cols: np.ndarray | None) -> np.ndarray:
        """(n, TS*TS, 3) checker-top template means of one colour for strips in rows ``row``
        (1 top) at columns ``cols`` (the two halves' templates weighted by how near each was
        seen; the whole row's without ``cols`` or side templates)."""
        if cols is None or self.side_mean is None or self.side_cols is None:
            return self.mean[colour][row]
        w = self._side_weights(colour, row, cols)
        sm = self.side_mean[colour][row]  # (n, 2, TS*TS, 3)
        return np.einsum("ns,nsqc->nqc", w, sm).astype(np.float32)

    def _side_weights(self, colour: int, row: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """(n, 2) how much each half's tops stand for strips in rows ``row`` at columns ``cols``:
        by how near each half's checkers were seen (a Gaussian of ``SIDE_SPREAD`` columns)."""
        assert self.side_cols is not None
        d = (np.asarray(cols, np.float64)[:, None] - self.side_cols[colour][row]) / SIDE_SPREAD
        w = np.exp(-0.5 * d * d)
        return w / w.sum(1, keepdims=True)

    def tops_lit(self, colour: int, row: np.ndarray, cols: np.ndarray, strips: np.ndarray,
                 slots: Slots, light: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray | None]:
        """(n, Q, 3) Lab checker-top means of one colour at every disc pixel of ``slots`` on
        point strips ``strips`` (rows ``row``, columns ``cols``): the BGR tops (the halves'
        weighted by how near each was seen) times the light at each pixel, clipped at white as
        a camera clips them; and the extra Lab spread (n, Q, 3) of tops calibration saw clipped
        (``tops_clip``; None without): such a top is anywhere from its bound up to
        ``CLIP_RANGE`` times brighter (its share of clipped pixels of the way), so under a
        dimmer light than calibration's it shows anywhere between the bound's colour and a
        brighter, more clipped one: the mean is the middle of the box in Lab those colours
        span, the spread half its size (tuning
        700000, green_oak: ivory tops clipped at calibration show L 248 under a point whose
        light is 0.77 of the mean, where the bound lit gives L 211, so lone whites on dim cream
        points read as empty). ``light``: the strips' light (n, L) when they are not points
        (the bar halves, ``bar_light``)."""
        assert self.tops_bgr is not None and self.gain_bgr is not None
        w = self._side_weights(colour, row, cols)
        t = np.einsum("ns,nsqc->nqc", w, self.tops_bgr[colour][row])[:, slots.all_tidx]
        lg = self.gain_bgr[np.asarray(strips)] if light is None else light
        g = lg[:, slots.all_idx // SW]
        t *= g[..., None]
        lo = bgr_to_lab(np.clip(t, 0.0, 255.0))
        if self.tops_clip is None or CLIP_RANGE <= 1.0:
            return lo, None
        share = np.einsum("ns,nsq->nq", w, self.tops_clip[colour][row])[:, slots.all_tidx]
        up = (CLIP_RANGE - 1.0) * share[..., None]
        low, high = lo.copy(), lo.copy()
        for k in range(1, CLIP_STEPS + 1):  # the colours on the way (not a line in Lab: a
            # clipping channel turns the hue on the way to white)
            x = bgr_to_lab(np.clip(t * (1.0 + up * k / CLIP_STEPS), 0.0, 255.0))
            np.minimum(low, x, out=low)
            np.maximum(high, x, out=high)
        extra = (high - low) / 2
        extra[..., 1:] = np.hypot(extra[..., 1:], CLIP_CHROMA * share[..., None])
        return (low + high) / 2, extra

    def bright(self, colour: int) -> bool:
        """Whether a colour's tops are lit as BGR under each pixel's light (``tops_lit``): not
        for dark checkers, whose light a ratio of small values reads badly."""
        return self.tops_bgr is not None and float(self.tops_bgr[colour].mean()) >= DIM_TOPS

    def lit(self, tops: np.ndarray, strips: np.ndarray | None) -> np.ndarray:
        """Checker tops ``tops`` (n, Q, 3) as the light over point strips ``strips`` shows them."""
        if strips is None or self.gain is None:
            return tops
        return relight(tops, self.gain[np.asarray(strips)][:, None])

    def rows_mixed(self) -> DiscModel:
        """This model with each row's checker tops the mean of its own and the other row's
        (mirrored along the strip, as a strip of the other row runs the other way): for the
        bar, whose checkers lie between the rows. Tops differ between the rows beyond their
        light where the camera sees a glossy top's highlight from another angle (tuning
        700006, navy pearl: white tops 162 in the bottom row, 221 in the top row, BGR under
        the mean light; a white on the bar's lower half showed 154 and read black by the top
        row's tops)."""
        def mix(a: np.ndarray | None) -> np.ndarray | None:
            if a is None:
                return None
            cells = a.shape.index(TS * TS)
            shape = a.shape[:cells] + (TS, TS) + a.shape[cells + 1:]
            other = np.flip(a.reshape(shape), cells)[:, ::-1].reshape(a.shape)
            return ((a + other) / 2).astype(a.dtype)

        return replace(self, mean=mix(self.mean), sigma=mix(self.sigma),
                       side_mean=mix(self.side_mean), tops_bgr=mix(self.tops_bgr),
                       tops_clip=mix(self.tops_clip))

    def gather(self, strips: np.ndarray, top: np.ndarray, slots: Slots,
               cols: np.ndarray | None = None,
               light: tuple[np.ndarray, np.ndarray] | None = None,
               rows_mixed: bool = False) -> Gathered:
        """The models' means, inverse spreads and constants at every disc pixel of the given
        strips (``top``: strips running down from the top edge; ``cols``: their board columns,
        for points), built once per profile. ``light``: for strips that are not points (the
        bar halves), their BGR light along them (n, L) and their Lab gain (n,) (``bar_light``).
        ``rows_mixed``: the tops of both rows alike (``rows_mixed``; the bar)."""
        if rows_mixed:
            return self.rows_mixed().gather(strips, top, slots, cols, light)
        idx, tidx = slots.all_idx, slots.all_tidx
        row = top.astype(np.int64)
        means, invs, consts = [], [], []
        bgr = cols is not None and self.tops_bgr is not None and self.gain_bgr is not None
        if light is None:
            lab_gain = None if cols is None or self.gain is None else self.gain[strips][:, None]
        else:
            lab_gain = light[1][:, None]
        looks = [(self.bg_mean[strips][:, idx], self.bg_sigma[strips][:, idx])]
        for c in (0, 1):
            sig = self.sigma[c][row][:, tidx]
            if bgr and self.bright(c):
                m, extra = self.tops_lit(c, row, cols, strips, slots,  # type: ignore[arg-type]
                                         None if light is None else light[0])
                if extra is not None:
                    sig = np.sqrt(np.square(sig) + np.square(extra))
            else:
                m = (self.tops(c, row, cols) if lab_gain is None else
                     relight(self.tops(c, row, cols), lab_gain))[:, tidx]
            looks.append((m, sig))
        for m, s in looks:
            means.append(m.astype(np.float32))
            invs.append((1.0 / s).astype(np.float32))
            consts.append((-np.sum(np.log(s), -1) - 2.7568).astype(np.float32))  # 1.5 log 2pi
        if self.bg_bonus is not None:
            consts[0] = consts[0] + self.bg_bonus[strips][:, idx]
        # all in the layout of the strips' pixels as slot_llr takes them (disc pixel outside,
        # strip inside): its elementwise work is two to three times slower on mixed layouts
        g = Gathered(idx, *(np.ascontiguousarray(np.stack(a).swapaxes(1, 2)).swapaxes(1, 2)
                            for a in (means, invs, consts)))
        if light is None and cols is not None and self.glare is not None and self.glare.any():
            g.censor = self.glare[np.asarray(strips)].astype(bool)
        if light is None and cols is not None:
            _both_clip(g)
        if ALIKE > 0:
            g.alike()
        return g

    def bar_light(self, lay: Layout) -> tuple[np.ndarray, np.ndarray] | None:
        """The light along the bar's halves (top, bottom): the BGR light (2, L) of the points
        beside the bar in that half (columns 5 and 6) at the same distance from the board's
        centre (a point strip runs from the edge, a bar half from the centre), and their mean
        Lab gain (2,); None without a per-point light."""
        if self.gain_bgr is None or self.gain is None:
            return None
        rows, gains = [], []
        for top in (True, False):  # BAR_TOP is the board's top half, BAR_BOTTOM the bottom
            ids = [i for i in range(24) if lay.point_place(i + 1)[1] == top
                   and lay.point_place(i + 1)[0] in (5, 6)]
            rows.append(self.gain_bgr[ids].mean(0)[::-1])
            gains.append(float(self.gain[ids].mean()))
        return np.stack(rows).astype(np.float32), np.asarray(gains, np.float32)

    def refresh_empty(self, g: Gathered, where: int, strip: int,
                      changed: np.ndarray | None = None) -> None:
        """Gathered parameters ``g`` take strip ``strip``'s empty look again (at their row
        ``where``) after it learned some of it, in place of gathering them all again;
        ``changed``: the strip pixels it learned (``learn_empty``), else found by comparing."""
        idx = g.idx
        if changed is None:
            m, s = self.bg_mean[strip][idx], self.bg_sigma[strip][idx]
            c = -np.sum(np.log(s), -1) - 2.7568
            if self.bg_bonus is not None:
                c = c + self.bg_bonus[strip][idx]
            px = np.flatnonzero((g.mean[0, where] != m).any(-1) | (g.const[0, where] != c))
            m, s, c = m[px], s[px], c[px]
        else:  # only the disc pixels on the strip pixels that changed
            px = np.flatnonzero(changed[idx])
            m, s = self.bg_mean[strip][idx[px]], self.bg_sigma[strip][idx[px]]
            c = -np.sum(np.log(s), -1) - 2.7568
            if self.bg_bonus is not None:
                c = c + self.bg_bonus[strip][idx[px]]
        if not len(px):
            return
        inv = (1.0 / s).astype(np.float32)
        m, c = m.astype(np.float32), c.astype(np.float32)
        g.mean[0, where, px], g.inv[0, where, px], g.const[0, where, px] = m, inv, c
        g._says = None
        if g.tops is not None:  # the disc pixels whose empty look changed
            g.alike(where, px, (m, inv, c))

    @staticmethod
    def slot_llr(lab: np.ndarray, g: Gathered) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per strip (``lab``: their pixels, in the order ``g`` was gathered for) and disc pixel
        (all slots' pixels one after another): the clipped log-likelihood ratios of a white and
        of a black checker top against the strip's empty look, and whether the pixel fits none
        of the three (something foreign)."""
        xu = take_pixels(lab, g.idx)
        x = xu.astype(np.float32)  # (n, Q, 3)
        z = x[None] - g.mean  # (3 models, n, Q, 3)
        z *= g.inv
        np.square(z, out=z)
        ll = z[..., 0] + z[..., 1]  # (a sum over the last axis of 3 is slower)
        ll += z[..., 2]
        ll *= -0.5
        ll += g.const
        cm = xu[..., 0] >= CLIP_L  # the clipped pixels (n, Q)
        tell, cz = _glare_censored(ll, x, g, cm)
        lbg, lw, lb = np.maximum(ll, OTHER_LOG, out=ll)  # each may also be something else
        foreign = np.maximum(lw, lb)
        np.maximum(foreign, lbg, out=foreign)
        foreign = foreign == OTHER_LOG  # none of the three fits better than something else
        lw -= lbg
        lb -= lbg
        np.clip(lw, -CLIP, CLIP, out=lw)
        np.clip(lb, -CLIP, CLIP, out=lb)
        if tell is not None:  # the colours told apart as censored readings say
            a, b = lw[cz], lb[cz]
            best = np.maximum(a, b)
            lw[cz] = best - np.maximum(-tell, 0.0)
            lb[cz] = best - np.maximum(tell, 0.0)
        if EMPTY_SAYS is None and CLIP_SAYS is None:
            return lw, lb, foreign
        # masks over all pixels in place of indexing the clipped ones (thousands under glare:
        # fancy indexing of the strided model views cost more than the likelihoods); the
        # frame's part of them is only which pixels clipped
        ew, eb, both = g.says_masks()
        if EMPTY_SAYS is not None:  # a clipped pixel tells a bright top from a bright own
            # empty look by EMPTY_SAYS at most (both may clip under the light there)
            for on, llr in ((ew, lw), (eb, lb)):
                np.clip(llr, -EMPTY_SAYS, EMPTY_SAYS, out=llr, where=cm & on)
        if CLIP_SAYS is not None:  # a clipped pixel tells the colours apart by CLIP_SAYS at most
            # where both tops are bright (a dark top cannot clip: there a clipped pixel is
            # rightly white)
            sat = cm & both
            best = np.maximum(lw, lb)
            best -= CLIP_SAYS
            np.maximum(lw, best, out=lw, where=sat)
            np.maximum(lb, best, out=lb, where=sat)
        return lw, lb, foreign

    def change_llr(self, lab: np.ndarray, strips: np.ndarray) -> np.ndarray:
        """Per pixel of the given strips: how much likelier "something is there" is than the
        strip's own empty look (clipped LLR). On a tray (``TRAY_COLOUR``) that something is
        foremost a checker of the tray's colour: a Gaussian about its tops' mean colour
        (``tray_checker``) beside the flat "anything else" (which alone misses a black checker's
        rim on a black tray floor a few L brighter)."""
        key = tuple(np.asarray(strips).tolist())
        if self._change is None:
            self._change = {}
        kept = self._change.get(key)
        if kept is not None and kept[5]:  # kept through an empty look learned elsewhere:
            # built again only when the tops changed since (as a learned look rebuilt them)
            tops = kept[4]
            if tops is None or (np.array_equal(tops[0], self.mean)
                                and np.array_equal(tops[1], self.sigma)):
                self._change[key] = kept[:5] + (False,)
            else:
                del self._change[key]
        if key not in self._change:  # the looks' inverse spreads and OTHER_LOG - normaliser
            sig = self.bg_sigma[strips]
            c = OTHER_LOG + np.sum(np.log(sig), -1) + 2.7568
            if self.bg_bonus is not None:
                c = c - self.bg_bonus[strips]
            checker = None
            if TRAY_TOPS and all(int(s) in TRAY_COLOUR for s in key):
                cm, ci, cc = zip(*(self.tray_checker(TRAY_COLOUR[int(s)]) for s in key),
                                 strict=True)
                # log N(checker) - log N(empty look) = cc - 0.5 zc^2 + 0.5 z^2 + (c - OTHER_LOG)
                cm, ci = np.stack(cm)[:, None], np.stack(ci)[:, None]
                cc = np.stack(cc)[:, None] + (c - OTHER_LOG)
                # where the checker's colour lies within the empty look's spread (a black
                # checker on a black tray of its shade) it says nothing: only "anything else"
                near = np.sum(np.square((cm - self.bg_mean[strips]) / sig), -1)
                cc = np.where(near < TRAY_ALIKE * TRAY_ALIKE, -1e9, cc)
                checker = (cm, ci, cc.astype(np.float32))
            self._change[key] = (self.bg_mean[strips].astype(np.float32),
                                 (1.0 / sig).astype(np.float32), c.astype(np.float32), checker,
                                 None if checker is None else (self.mean.copy(),
                                                               self.sigma.copy()), False)
        m, inv, c, checker = self._change[key][:4]
        x = lab.astype(np.float32)
        z = x - m
        z *= inv
        z *= z
        d = z[..., 0] + z[..., 1]
        d += z[..., 2]
        d *= 0.5
        if checker is None:
            d += c
        else:  # d + max(anything else, the checker)
            cm, ci, cc = checker
            x -= cm
            x *= ci
            x *= x
            e = x[..., 0] + x[..., 1]
            e += x[..., 2]
            e *= -0.5
            e += cc
            d += np.maximum(e, c, out=e)
        return np.clip(d, -CLIP, CLIP, out=d)

    def tray_checker(self, colour: int) -> tuple[np.ndarray, np.ndarray, float]:
        """(mean, inverse spread, log normaliser) of one Gaussian over a checker's colour, Lab:
        the tops' mean over the template, spread by the tops' own spread and how much their
        cells differ (a checker standing on edge in a tray shows its rim, not its top)."""
        mt, st = self.mean[colour].reshape(-1, 3), self.sigma[colour].reshape(-1, 3)
        mu = mt.mean(0)
        sig = np.sqrt(np.mean(st * st, 0) + mt.var(0)) * TRAY_SPREAD
        sig = np.maximum(sig, SIGMA_FLOOR)
        return (mu.astype(np.float32), (1.0 / sig).astype(np.float32),
                float(-np.sum(np.log(sig)) - 2.7568))

    # -- learning from later frames -------------------------------------------------------------

    def borrowed(self, strip: int) -> np.ndarray:
        """(P,) pixels of a strip whose empty look is still the kind's (borrowed)."""
        if self.bg_bonus is None:
            return np.zeros(self.bg_mean.shape[1], bool)
        return self.bg_bonus[strip] > 0

    def learn_empty(self, strip: int, lab: np.ndarray, mask: np.ndarray) -> bool:
        """Take ``lab`` (P, 3) as the strip's own empty look at the borrowed pixels of ``mask``
        when they fit the borrowed look (nothing foreign on them: a die, a shadow, a checker of
        the other look); True when something was learned."""
        take = mask & self.borrowed(strip)
        if np.count_nonzero(take) < SW:
            return False
        x = lab[take].astype(np.float32)
        z = (x - self.bg_mean[strip, take]) / self.bg_sigma[strip, take]
        z *= z
        if not _quantile_within(z.mean(-1), 0.95, LEARN_FIT):
            return False
        assert self.bg_bonus is not None
        if self._noise is None:  # the points' own looks' spread (all the same, from the fit)
            own = self.bg_bonus[:24] == 0
            self._noise = np.median(self.bg_sigma[:24][own], 0) if own.any() else SIGMA_FLOOR
        noise = self._noise
        if self._change:  # the other strips' parameters stand (their looks are as they were);
            # the tops they were built with are looked at again when next used (``change_llr``)
            self._change = {k: v[:5] + (True,) for k, v in self._change.items()
                            if strip not in k}
        self.bg_mean[strip, take] = x
        self.bg_sigma[strip, take] = noise
        self.bg_bonus[strip, take] = 0.0
        self.learned = take
        return True

    # -- fitting --------------------------------------------------------------------------------

    @classmethod
    def fit(cls, lab: np.ndarray, labels: np.ndarray, kinds: np.ndarray, lay: Layout,
            occupied: list[tuple[int, int, int]],
            lit: tuple[np.ndarray, ...] | None = None) -> DiscModel:
        """From the calibration frame's strips ``lab`` (28, L, SW, 3), their pixel
        labels (0 empty, 1 white, 2 black, -1 unknown), the strips' kinds and the occupied
        first-row slots ``(strip, slot index from the edge, colour 1|2)``. ``lit``: the point
        strips' kind looks under their own light (Lab (n, L, SW, 3)) and the rows where that
        light is known (n, L) (``vision.light``): a covered strip borrows both looks (their
        mean, widened by their difference); and, as a third item, the points calibration found
        under a glare spot of their own (n,) (``glare``)."""
        L = lab.shape[1]
        P = L * SW
        NS = NB
        labf = lab[:NS].reshape(NS, P, 3).astype(np.float32)
        lbl = labels[:NS].reshape(NS, P)
        near = _dilate(labels[:NS] != 0, NEAR).reshape(NS, P)
        free = (lbl == 0) & ~near
        # the empty look: the strip's own pixels where free, else its kind's mean + an offset
        bg_mean = labf.copy()
        bg_sigma = np.empty_like(labf)
        bg_bonus = np.zeros(labf.shape[:2], np.float32)
        noise = np.maximum(_noise(labf, free), SIGMA_FLOOR)
        kind_mean: dict[int, np.ndarray] = {}
        for k in range(8):
            ids = np.nonzero(kinds[:NS] == k)[0]
            f = free[ids][..., None].astype(np.float32)
            tot = f.sum(0)
            km = (labf[ids] * f).sum(0) / np.maximum(tot, 1)
            km = np.where(tot > 0, km, _row_fill(labf[ids], f[..., 0], L))
            kind_mean[k] = km
            # per pixel, the spread of the kind's free strips about their mean (unbiased; a
            # triangle's edge or a lighting gradient shows here), pulled toward the whole spread
            dev = (labf[ids] - km) * f
            var = (dev * dev).sum(0) / np.maximum(tot - 1, 1)
            dof = np.maximum(tot - 1, 0)
            g2 = np.median(var[tot[..., 0] > 1], 0) if (tot > 1).any() else SIGMA_FLOOR**2
            ksig = np.sqrt((dof * var + 2 * np.maximum(g2, SIGMA_FLOOR**2)) / (dof + 2))
            ksig = ksig * KIND_SPREAD
            ksig = np.maximum(ksig, SIGMA_FLOOR)
            # how much worse than its own look the kind's look explains a truly empty strip
            # (the kind's other free strips, each left out of the mean in turn): where a strip
            # borrows the kind's look, that much is given back so the borrowed look does not
            # favour a checker over an empty point
            gap = _borrow_gap(labf[ids], f, ksig, noise)
            for i in ids:
                own = free[i][:, None]
                look, spread = km, ksig
                if lit is not None and i < lit[0].shape[0]:
                    rows = np.repeat(lit[1][i], SW)[:, None] & (tot > 0)
                    other = lit[0][i].reshape(P, 3).astype(np.float32)
                    look = np.where(rows, km + LIT_SHARE * (other - km), km)
                    spread = np.where(rows, np.sqrt(ksig**2 + ((km - other) / 2) ** 2), ksig)
                bg_mean[i] = np.where(own, labf[i], look)
                bg_sigma[i] = np.where(own, noise, spread)
                bg_bonus[i] = np.where(own[:, 0], 0.0, np.maximum(gap * GAP_SHARE, 1e-3))
        if TRAY_NOISE and NS > max(TRAY_COLOUR):  # the trays' own looks: their own noise
            ts = sorted(TRAY_COLOUR)
            tn = np.maximum(_noise(labf[ts], free[ts]), SIGMA_FLOOR)
            for i in ts:
                bg_sigma[i] = np.where(free[i][:, None], tn, bg_sigma[i])
        # the light over each point against its kind's mean (its own empty look where free, the
        # kind's look under its neighbours' light where covered): checker tops are learned as
        # under the mean light and shown under each point's
        gain = np.ones(24, np.float32)
        refs = []
        for i in range(min(24, NS)):
            ref = bg_mean[i]
            if lit is not None and i < lit[0].shape[0]:
                rows = np.repeat(lit[1][i], SW)
                ref = np.where((free[i] | ~rows)[:, None], ref,
                               lit[0][i].reshape(P, 3).astype(np.float32))
            km_i = kind_mean[int(kinds[i])]
            refs.append(ref)
            gain[i] = np.clip((ref[:, 0].mean() + L_OFF) / max(km_i[:, 0].mean() + L_OFF, 1.0),
                              1 / MAX_GAIN, MAX_GAIN)
        pcols = np.array([lay.point_place(i + 1)[0] for i in range(24)])
        gain = _smooth_rows(gain, pcols, kinds[:24] >= 2) ** GAIN_POWER
        unlit = labf.copy()
        unlit[:24] = relight(labf[:24], 1.0 / gain[:, None])
        # checker tops: mean and spread per template cell, per colour and row
        dists = [0.525 + j for j in range(6)]
        sl = make_slots(lay, dists)
        mean = np.zeros((2, 2, TS * TS, 3), np.float32)
        sigma = np.zeros_like(mean)
        side_mean = np.zeros((2, 2, 2, TS * TS, 3), np.float32)
        side_cols = np.zeros((2, 2, 2), np.float32)
        col_of = {i: lay.point_place(i + 1)[0] for i in range(24)}
        for c in (0, 1):
            allpx = []
            acc = {}
            for rowflag in (0, 1):
                s1 = np.zeros((TS * TS, 3), np.float64)
                s2 = np.zeros_like(s1)
                n = np.zeros(TS * TS)
                for strip, j, colour in occupied:
                    if colour != c + 1 or int(kinds[strip] >= 2) != rowflag or j >= len(dists):
                        continue
                    px = unlit[strip, sl.idx[j]]
                    np.add.at(s1, sl.tidx[j], px)
                    np.add.at(s2, sl.tidx[j], px * px)
                    np.add.at(n, sl.tidx[j], 1)
                    allpx.append(px)
                acc[rowflag] = (s1, s2, n)
            everything = np.concatenate(allpx) if allpx else np.zeros((1, 3), np.float32)
            gmean = everything.mean(0)
            gsig = np.maximum(everything.std(0), SIGMA_FLOOR)
            for rowflag in (0, 1):
                s1, s2, n = acc[rowflag]
                if not n.any():  # no checker of this colour in this row: borrow the other row
                    s1, s2, n = acc[1 - rowflag]
                nn = n[:, None]
                m = np.where(nn > 0, s1 / np.maximum(nn, 1), gmean)
                var = np.where(nn > 1, s2 / np.maximum(nn, 1) - m * m, 0.0)
                var = (nn * np.maximum(var, 0) + SHRINK * gsig**2) / (nn + SHRINK)
                mean[c, rowflag] = m
                sigma[c, rowflag] = np.maximum(np.sqrt(var), SIGMA_FLOOR)
                for side in (0, 1):  # the same, from one half of the board (left, right)
                    t1 = np.zeros((TS * TS, 3), np.float64)
                    tn = np.zeros(TS * TS)
                    cs: list[int] = []
                    for strip, j, colour in occupied:
                        if (colour != c + 1 or int(kinds[strip] >= 2) != rowflag
                                or j >= len(dists) or int(col_of[strip] >= 6) != side):
                            continue
                        np.add.at(t1, sl.tidx[j], unlit[strip, sl.idx[j]])
                        np.add.at(tn, sl.tidx[j], 1)
                        cs.append(col_of[strip])
                    side_mean[c, rowflag, side] = (t1 + SIDE_SHRINK * m) / (tn[:, None]
                                                                            + SIDE_SHRINK)
                    side_cols[c, rowflag, side] = np.mean(cs) if cs else 2.5 + 6 * side
        tops_bgr = gain_bgr = tops_clip = None
        if min(sum(1 for o in occupied if o[2] == c) for c in (1, 2)) >= MIN_TOPS and NS >= 24:
            bgr24 = lab_to_bgr(labf[:24])
            if LIGHT_FIELD:  # one smooth field over the board from every free pixel
                gain_bgr = fit_light(bgr24.reshape(24, L, SW, 3),
                                     free[:24].reshape(24, L, SW), kinds[:24], pcols,
                                     kinds[:24] >= 2)
            else:
                gain_bgr = bgr_gains(np.stack(refs), kind_mean, kinds[:24], pcols)
            empty_light = gain_bgr
            if ROW_LIGHT:
                row = slot_light(bgr24, gain_bgr, occupied, kinds, sl, len(dists))
                if SAME_LIGHT and POINT_MIN > 0:  # a covered point's own light, not the row's
                    line = slot_light(bgr24, gain_bgr, occupied, kinds, sl, len(dists),
                                      point=False)
                    empty_light = gain_bgr * row / line
                gain_bgr = gain_bgr * row
            tops_bgr, tops_clip = _bgr_tops(bgr24, gain_bgr, occupied, kinds,
                                            sl, len(dists), col_of)
            if SAME_LIGHT:
                kind_bgr = (_kind_unclipped(bgr24.reshape(24, P, 3), free[:24], kinds[:24],
                                            empty_light, L) if HUE_LOOK else None)
                _light_borrowed(bg_mean, bg_bonus, kind_mean, kinds, empty_light, L, kind_bgr)
        glare = None
        if lit is not None and len(lit) > 2 and np.any(lit[2]):
            glare = np.zeros(24, bool)
            glare[:len(lit[2])] = np.asarray(lit[2], bool)[:24]
        return cls(mean, sigma, bg_mean, bg_sigma, bg_bonus, side_mean, side_cols, gain,
                   tops_bgr, gain_bgr, tops_clip, glare)

    # -- JSON -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        def enc(a: np.ndarray, digits: int = 1) -> dict[str, Any]:
            return {"shape": list(a.shape), "data": np.round(a, digits).ravel().tolist()}

        out = {"mean": enc(self.mean), "sigma": enc(self.sigma), "bg_mean": enc(self.bg_mean),
               "bg_sigma": enc(self.bg_sigma)}
        if self.bg_bonus is not None:
            out["bg_bonus"] = enc(self.bg_bonus, 3)  # (>= 1e-3 where borrowed: one digit made
            # a loaded profile's small bonuses 0, those pixels no longer borrowed)
        if self.side_mean is not None and self.side_cols is not None:
            out["side_mean"] = enc(self.side_mean)
            out["side_cols"] = enc(self.side_cols, 3)
        if self.gain is not None:
            out["gain"] = enc(self.gain, 4)
        if self.tops_bgr is not None and self.gain_bgr is not None:
            out["tops_bgr"] = enc(self.tops_bgr)
            out["gain_bgr"] = enc(self.gain_bgr, 4)
            if self.tops_clip is not None:
                out["tops_clip"] = enc(self.tops_clip, 3)
        if self.glare is not None:
            out["glare"] = [int(i) for i in np.flatnonzero(self.glare)]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DiscModel:
        def dec(d: dict[str, Any]) -> np.ndarray:
            return np.asarray(d["data"], np.float32).reshape(d["shape"])

        return cls(dec(data["mean"]), dec(data["sigma"]), dec(data["bg_mean"]),
                   dec(data["bg_sigma"]), dec(data["bg_bonus"]) if "bg_bonus" in data else None,
                   dec(data["side_mean"]) if "side_mean" in data else None,
                   dec(data["side_cols"]) if "side_cols" in data else None,
                   dec(data["gain"]) if "gain" in data else None,
                   dec(data["tops_bgr"]) if "tops_bgr" in data else None,
                   dec(data["gain_bgr"]) if "gain_bgr" in data else None,
                   dec(data["tops_clip"]) if "tops_clip" in data else None,
                   _glare_of(data.get("glare")))


def _glare_of(points: list[int] | None) -> np.ndarray | None:
    """``DiscModel.glare`` from the indices a profile keeps (None: no point under glare)."""
    if not points:
        return None
    out = np.zeros(24, bool)
    out[np.asarray(points, np.int64)] = True
    return out


def log_tail(z: np.ndarray) -> np.ndarray:
    """log P(Z >= z) of a standard normal Z (table below ``TAIL_Z``, the asymptotic series
    above it)."""
    global _TAIL
    if _TAIL is None:
        grid = np.arange(-10.0, TAIL_Z + 0.01, 0.01)
        _TAIL = grid, np.log([0.5 * math.erfc(v / math.sqrt(2.0)) for v in grid])
    grid, table = _TAIL
    z = np.asarray(z, np.float64)
    far = np.maximum(z, TAIL_Z)
    series = -0.5 * far * far - np.log(far) - HALF_LOG_2PI + np.log1p(-1.0 / (far * far))
    return np.where(z <= TAIL_Z, np.interp(z, grid, table), series)


def _both_clip(g: Gathered) -> None:
    """Marks the strips where both colours' tops, as lit there, reach the clip over most of a
    checker's pixels (``BOTH_CLIP_L``, ``BOTH_CLIP_SHARE``) read blind at clipped pixels
    (``Gathered.blind``; ``censor`` takes them too)."""
    if BOTH_CLIP_SHARE is None:
        return
    both = np.minimum(g.mean[1][..., 0], g.mean[2][..., 0]) >= BOTH_CLIP_L  # (n, Q)
    on = both.mean(1) >= BOTH_CLIP_SHARE
    if not on.any():
        return
    g.blind = on & (True if g.censor is None else ~g.censor)
    g.censor = on if g.censor is None else g.censor | on


def _glare_censored(ll: np.ndarray, x: np.ndarray, g: Gathered, clipped: np.ndarray
                    ) -> tuple[np.ndarray | None, tuple[np.ndarray, ...]]:
    """Of the clipped pixels (``clipped``: (n, Q) mask), those on strips read censored
    (``Gathered.censor``, ``CENSORED``) as (strip, disc pixel) indices and how much likelier
    white explains each than black (``_censored_colours``); (None, ()) where there are none."""
    if not CENSORED or g.censor is None or not g.censor.any():
        return None, ()
    at = np.nonzero(clipped & g.censor[:, None])
    if not len(at[0]):
        return None, ()
    tell = _censored_colours(ll, x, g, at)
    if g.blind is not None:
        tell[g.blind[at[0]]] = 0.0
    return tell, at


def _censored_colours(ll: np.ndarray, x: np.ndarray, g: Gathered,
                      at: tuple[np.ndarray, ...]) -> np.ndarray:
    """At the clipped pixels ``at`` (Lab L >= ``CLIP_L``): how much likelier a white top
    explains each than a black one (nats) when each top's L term is the probability that it
    shows L at least the clip (a censored reading: the camera says only that the pixel is at
    least that bright) in place of its density at the clipped value (``ll``: (3, n, Q) the
    models' log densities). Two tops both lit past the clip then explain such a pixel alike,
    where the densities favoured the tighter spread; a top lit well below the clip still
    cannot show it (``CENSORED``)."""
    xl = x[..., 0][at]
    out = []
    for k in (1, 2):
        m, inv = g.mean[k][..., 0][at], g.inv[k][..., 0][at]
        z = (xl - m) * inv
        dens = -0.5 * z * z + np.log(inv) - HALF_LOG_2PI
        out.append(ll[k][at] - dens + log_tail((CLIP_L - m) * inv))
    return np.clip(out[0] - out[1], -CLIP, CLIP).astype(np.float32)


def _quantile_within(v: np.ndarray, q: float, bound: float) -> bool:
    """Whether ``np.quantile(v, q) <= bound``, by counting the values past the bound where that
    settles it: the quantile lies between the sorted values about ``q (n - 1)`` (numpy's lerp
    between two neighbours never leaves them), so two places either side of those are taken
    (rounding of the index); np.quantile itself only when the bound falls between them."""
    n = len(v)
    h = int(np.floor(q * (n - 1)))
    lo, hi = max(h - 1, 0), min(h + 2, n - 1)
    over = int(np.count_nonzero(v > bound))
    if over >= n - lo:  # the sorted value at lo is past the bound: so are those after
        return False
    if over <= n - 1 - hi:  # the sorted value at hi is within: so are those before
        return True
    return not np.quantile(v, q) > bound


def take_pixels(px: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``px[:, idx]`` of (n, P, 3) pixels, each pixel's three bytes taken as one item (faster
    than fancy indexing the 3-d array)."""
    if px.dtype != np.uint8:
        return px[:, idx]
    n = px.shape[0]
    v = np.ascontiguousarray(px).view(np.dtype((np.void, 3))).reshape(n, -1)
    # laid out as fancy indexing lays it (taken pixel outside, strip inside): the gathered
    # models are, and elementwise work over mixed layouts is several times slower
    out = np.take(v.T, idx, axis=0)  # (Q, n)
    return out.view(np.uint8).reshape(len(idx), n, 3).transpose(1, 0, 2)


def relight(lab: np.ndarray, gain: np.ndarray | float) -> np.ndarray:
    """8-bit Lab colours ``lab`` (..., 3) under light ``gain`` times brighter (in Lab's cube-root
    scale: L + L_OFF and a, b about 128 scale alike)."""
    out = np.empty_like(lab, np.float32)  # in its layout (slot_llr is fastest with all alike)
    out[..., 0] = (lab[..., 0] + L_OFF) * gain - L_OFF
    out[..., 1:] = (lab[..., 1:] - 128.0) * np.asarray(gain)[..., None] + 128.0
    return out


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    """8-bit Lab colours (float, any shape (..., 3)) as BGR (float32, 0..255)."""
    import cv2

    u8 = np.clip(np.rint(lab), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    return cv2.cvtColor(u8, cv2.COLOR_LAB2BGR).reshape(lab.shape).astype(np.float32)


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """BGR colours (float, 0..255, any shape (..., 3)) as 8-bit Lab (float32)."""
    import cv2

    u8 = np.clip(np.rint(bgr), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    return cv2.cvtColor(u8, cv2.COLOR_BGR2LAB).reshape(bgr.shape).astype(np.float32)


def bgr_gains(refs: np.ndarray, kind_mean: dict[int, np.ndarray], kinds: np.ndarray,
               cols: np.ndarray) -> np.ndarray:
    """(24, L) the light along each point strip as a BGR factor: its reference empty look
    (``refs``, Lab (24, P, 3): its own where free, its kind's under its neighbours' light where
    covered) against its kind's mean over their unclipped pixels; the two kinds of a row made
    to agree between neighbours (a kind's mean is lit as its free points happen to be),
    smoothed along the row; then each band of rows's own light against the strip's (a shadow
    band falls across part of a strip), a band the camera clipped its row neighbours' there
    (``CLIP_BANDS``)."""
    n, P = refs.shape[:2]
    L = P // SW
    nb = (L + GAIN_BAND - 1) // GAIN_BAND
    lg = np.zeros(n, np.float64)
    band = np.zeros((n, nb), np.float64)  # each band's log light against the strip's
    measured = np.zeros((n, nb), bool)
    clipped = np.zeros((n, nb), bool)  # bands too few of whose pixels the camera left unclipped
    means = {k: lab_to_bgr(m) for k, m in kind_mean.items()}
    for i in range(n):
        x, m = lab_to_bgr(refs[i]), means[int(kinds[i])]
        ok = (x.max(-1) < CLIPPED) & (m.max(-1) < CLIPPED) & (m.min(-1) > 8)
        if ok.sum() >= SW:
            lg[i] = np.log(x[ok].sum() / max(float(m[ok].sum()), 1.0))
        xs, ms = (np.where(ok[:, None], a, 0.0).reshape(L, SW * 3).sum(1) for a in (x, m))
        cnt = ok.reshape(L, SW).sum(1)
        for b in range(nb):
            r = slice(b * GAIN_BAND, (b + 1) * GAIN_BAND)
            if cnt[r].sum() >= MIN_BAND and ms[r].sum() > DIM_BAND * 3 * cnt[r].sum():
                # (a band the camera crushed to black: as dark as one level, not log 0)
                band[i, b] = np.log(max(float(xs[r].sum()), 1.0) / ms[r].sum()) - lg[i]
                measured[i, b] = True
            elif cnt[r].sum() < MIN_BAND:
                hit = x.reshape(L, SW, 3)[r].max(-1) >= CLIPPED
                clipped[i, b] = int(np.count_nonzero(hit)) >= MIN_BAND
    top = kinds >= 2
    for row in (False, True):
        ids = np.nonzero(top == row)[0]
        ks = np.unique(kinds[ids])
        if len(ks) != 2:
            continue
        gaps = []
        for i in ids[kinds[ids] == ks[0]]:
            near = ids[(kinds[ids] == ks[1]) & (np.abs(cols[ids] - cols[i]) == 1)]
            if len(near):
                gaps.append(lg[i] - lg[near].mean())
        if gaps:
            d = float(np.mean(gaps))
            lg[ids[kinds[ids] == ks[0]]] -= d / 2
            lg[ids[kinds[ids] == ks[1]]] += d / 2
    lg = np.clip(lg, -np.log(MAX_GAIN), np.log(MAX_GAIN))
    g = _smooth_rows(np.exp(lg).astype(np.float32), cols, top)
    if CLIP_BANDS and clipped.any():  # as the row neighbours show that band (same row, a
        # column away) against this strip's light
        for i, b in zip(*np.nonzero(clipped), strict=True):
            near = [j for j in range(n) if top[j] == top[i] and abs(cols[j] - cols[i]) == 1
                    and measured[j, b]]
            if near:
                band[i, b] = float(np.mean([lg[j] + band[j, b] for j in near])) - lg[i]
    band = np.clip(band, -np.log(MAX_GAIN), np.log(MAX_GAIN))
    rows = np.minimum(np.arange(L) // GAIN_BAND, nb - 1)
    return (g[:, None] * np.exp(band[:, rows])).astype(np.float32)


def group_medians(keys: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``keys`` and the median of the ``vals`` of each (the same values as
    ``np.median`` of each group: the middle value, or the mean of the two middle ones), all
    groups at once."""
    order = np.lexsort((vals, keys))
    ks, vs = keys[order], vals[order]
    starts = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]])
    n = np.diff(np.r_[starts, len(ks)])
    lo, hi = vs[starts + (n - 1) // 2], vs[starts + n // 2]
    return ks[starts], np.where(n % 2 == 1, lo, (lo + hi) / 2)


def slot_light(bgr: np.ndarray, gain: np.ndarray, occupied: list[tuple[int, int, int]],
               kinds: np.ndarray, sl: Slots, nslots: int, point: bool = True) -> np.ndarray:
    """(24, L) a factor on each point's light ``gain`` (24, L): the light along a board row's
    strips, from the edge toward the tips, that the row's calibration checkers show beyond
    ``gain``. A point's light is read against its kind's mean look, and every point of a row
    has the row's light falling along it in that mean, so ``gain`` misses it: the checker tops
    learned from slots near the edge and further in are then averaged, and a lone checker at
    the edge of a row whose light falls off toward the edge looks darker than it is (tuning
    1081, navy pearl: lone whites read black; 1159 the other way). Each checker of a colour
    and row (most of its pixels unclipped) against the median of that colour's checkers in
    that row, cell by cell, under ``gain``: a straight line in log light over the strip rows
    the checkers lie at, both colours together."""
    n, P = bgr.shape[:2]
    L = P // SW
    out = np.ones((n, L), np.float32)
    r = np.arange(L, dtype=np.float64)
    for rowflag in (0, 1):
        rows_at, devs, where = [], [], []
        for c in (1, 2):
            mine = [(s, j) for s, j, cc in occupied
                    if cc == c and int(kinds[s] >= 2) == rowflag and j < nslots]
            seen = []
            for s, j in mine:
                x = bgr[s, sl.idx[j]]
                ok = (x.max(1) < CLIPPED) & (x.min(1) > 8)
                if ok.mean() < ROW_SEEN:
                    continue
                px = sl.idx[j][ok]
                v = np.log(x[ok].mean(1) / gain[s][px // SW])
                seen.append((sl.tidx[j][ok], v, float((px // SW).mean()), s,
                             int(sl.idx[j].max() // SW)))
            if len(seen) < 3:
                continue
            med = np.full(TS * TS, np.nan)
            at, m = group_medians(np.concatenate([t[0] for t in seen]),
                                  np.concatenate([t[1] for t in seen]))
            med[at] = m
            for t, v, row, s, end in seen:
                devs.append(float(np.median(v - med[t])))
                rows_at.append(row)
                where.append((s, end))
        if len(devs) < 4 or np.ptp(rows_at) < L / 8:
            continue
        x, y = np.asarray(rows_at), np.asarray(devs)
        (slope, icpt), cov = np.polyfit(x, y, 1, cov=True)
        if abs(slope) * L < ROW_MIN or abs(slope) < ROW_SURE * np.sqrt(cov[0, 0]):
            slope, icpt = 0.0, float(np.mean(y))  # no light along the row for sure
        lp = np.clip(slope * (r - np.mean(rows_at)), -np.log(MAX_GAIN), np.log(MAX_GAIN))
        out[(kinds[:n] >= 2) == bool(rowflag)] = np.exp(lp)
        if POINT_MIN > 0 and point:  # a covered point's own light (a glare spot on it)
            res = y - (slope * x + icpt)
            for s in {w[0] for w in where}:
                mine = [k for k, w in enumerate(where) if w[0] == s]
                d = float(np.median(res[mine]))
                if abs(d) >= POINT_MIN:
                    end = max(where[k][1] for k in mine) + 1
                    out[s, :end] *= np.exp(np.clip(d, -np.log(MAX_GAIN), np.log(MAX_GAIN)))
    return out


def _bgr_tops(bgr: np.ndarray, gain: np.ndarray, occupied: list[tuple[int, int, int]],
              kinds: np.ndarray, sl: Slots, nslots: int, col_of: dict[int, int]
              ) -> tuple[np.ndarray, np.ndarray]:
    """(2 colours, 2 rows, 2 sides, TS*TS, 3) BGR checker tops under the row's mean light:
    each calibration checker's pixels divided by its point's light; a clipped channel only
    bounds its cell from below (a top seen only clipped is as bright as that bound); and
    (2, 2, 2, TS*TS) each cell's share of clipped pixels (any channel)."""
    out = np.zeros((2, 2, 2, TS * TS, 3), np.float32)
    share = np.zeros((2, 2, 2, TS * TS), np.float32)

    def acc(sel: list[tuple[int, int]], hue: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s1 = np.zeros((TS * TS, 3))
        n = np.zeros((TS * TS, 1))
        lb = np.zeros((TS * TS, 3))
        for strip, j in sel:
            x, g, t = bgr[strip, sl.idx[j]], gain[strip][sl.idx[j] // SW, None], sl.tidx[j]
            seen = (x < CLIPPED).any(1)
            np.add.at(s1, t[seen], unclipped(x[seen], hue) / g[seen])
            np.add.at(n, t[seen], 1.0)
            np.maximum.at(lb, t[~seen], CLIPPED / g[~seen] * hue / hue.min())
        return s1, n, lb

    def clipped(sel: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        hit = np.zeros(TS * TS)
        n = np.zeros(TS * TS)
        for strip, j in sel:
            x, t = bgr[strip, sl.idx[j]], sl.tidx[j]
            np.add.at(hit, t, (x >= CLIPPED).any(1).astype(np.float64))
            np.add.at(n, t, 1.0)
        return hit, n

    for c in (0, 1):
        mine = [(s, j, col_of[s]) for s, j, colour in occupied if colour == c + 1 and j < nslots]
        hue = _tops_hue(bgr, sl, occupied, nslots, c)
        for rowflag in (0, 1):
            sel = [m for m in mine if int(kinds[m[0]] >= 2) == rowflag] or mine
            s1, n, lb = acc([(s, j) for s, j, _ in sel], hue)
            m = np.where(n > 0, s1 / np.maximum(n, 1), lb)
            known = (n[:, 0] > 0) | (lb.max(1) > 0)
            m = np.where(known[:, None], np.maximum(m, lb), m[known].mean(0) if known.any()
                         else 128.0)
            hit, hn = clipped([(s, j) for s, j, _ in sel])
            cm = hit / np.maximum(hn, 1)
            for side in (0, 1):
                here = [(s, j) for s, j, cc in sel if int(cc >= 6) == side]
                t1, tn, tlb = acc(here, hue)
                out[c, rowflag, side] = np.maximum((t1 + SIDE_SHRINK * m) / (tn + SIDE_SHRINK),
                                                   tlb)
                sh, sn = clipped(here)
                share[c, rowflag, side] = (sh + SIDE_SHRINK * cm) / (sn + SIDE_SHRINK)
    return out, share


def _unclipped_tops(bgr: np.ndarray, sl: Slots, occupied: list[tuple[int, int, int]],
                    nslots: int, c: int) -> np.ndarray | None:
    """Colour ``c``'s calibration checkers' pixels (n, 3) with no channel clipped (and none
    near black); None without a checker."""
    px = [bgr[s, sl.idx[j]] for s, j, colour in occupied if colour == c + 1 and j < nslots]
    if not px:
        return None
    x = np.concatenate(px)
    return x[(x.max(1) < CLIPPED) & (x.min(1) > 20)]


def _tops_hue(bgr: np.ndarray, sl: Slots, occupied: list[tuple[int, int, int]], nslots: int,
              c: int) -> np.ndarray:
    """Colour ``c``'s checkers' hue (BGR ratios to their mean, (3,)): the median over its
    unclipped pixels; with ``HUE_DIM``, where the other colour is dark (its unclipped pixels'
    median mean below ``HUE_DIM_DARK`` times this colour's), over the dimmest ``HUE_DIM_Q`` of
    them. A light top's brighter unclipped pixels sit next to the clip, where the channels
    saturate towards grey, so a clipped channel put back from their ratios is too dim (tuning
    700000 green oak: five ivory whites on a dim cream point read empty, sure). Where the
    other colour is light too (navy pearl's grey pearl) it is left as it was."""
    ok = _unclipped_tops(bgr, sl, occupied, nslots, c)
    if ok is None or len(ok) <= 20:
        return np.ones(3)
    if HUE_DIM:
        other = _unclipped_tops(bgr, sl, occupied, nslots, 1 - c)
        m = ok.mean(1)
        if (other is not None and len(other) > 20
                and np.median(other.mean(1)) < HUE_DIM_DARK * np.median(m)):
            dim = ok[m <= np.quantile(m, HUE_DIM_Q)]
            if len(dim) > 20:
                ok = dim
    return np.median(ok / ok.mean(1, keepdims=True), 0)


def unclipped(x: np.ndarray, hue: np.ndarray) -> np.ndarray:
    """BGR pixels (n, 3), each with an unclipped channel, with each clipped channel put back
    as the pixel's unclipped channels and the checkers' hue (the channels' ratios) say it was
    (at least the clip level)."""
    unc = x < CLIPPED
    level = np.where(unc, x / hue, 0.0).sum(1) / np.maximum(unc.sum(1), 1)  # (n,)
    return np.where(unc, x, np.maximum(level[:, None] * hue, CLIPPED))


def _light_borrowed(bg_mean: np.ndarray, bg_bonus: np.ndarray, kind_mean: dict[int, np.ndarray],
                    kinds: np.ndarray, light: np.ndarray, L: int,
                    kind_bgr: dict[int, np.ndarray] | None = None) -> None:
    """The covered points' borrowed empty looks (``bg_mean``, Lab (28, P, 3), in place; the
    pixels with a ``bg_bonus``): their kind's mean under ``light`` (24, L), the BGR light their
    checker tops are shown under (``gain_bgr`` without the row's line along the strips, which
    is the tops' own), where that is darker; where the look was ``SAME_KEEP`` bright or more
    it stays. ``kind_bgr``: per kind, its look as BGR under the mean light from the pixels
    its free strips showed unclipped (NaN where none did, ``_kind_unclipped``): where known,
    that is the look lit (``HUE_LOOK``)."""
    rows = np.repeat(np.arange(L), SW)
    for i in range(min(24, bg_mean.shape[0])):
        cov = bg_bonus[i] > 0
        if not cov.any():
            continue
        km = kind_mean[int(kinds[i])][cov]
        lg = light[i][rows[cov], None]
        look = bgr_to_lab(np.clip(lab_to_bgr(km) * lg, 0.0, 255.0))
        old = bg_mean[i, cov]
        keep = (old[:, :1] >= SAME_KEEP) | (look[:, :1] >= old[:, :1])
        if kind_bgr is not None and int(kinds[i]) in kind_bgr:
            kb = kind_bgr[int(kinds[i])][cov]
            known = np.isfinite(kb).all(1, keepdims=True)
            hue = bgr_to_lab(np.clip(np.where(known, kb, 0.0) * lg, 0.0, 255.0))
            look = np.where(known, hue, look)
        bg_mean[i, cov] = np.where(keep, old, look)


def _kind_unclipped(bgr: np.ndarray, free: np.ndarray, kinds: np.ndarray, light: np.ndarray,
                    L: int) -> dict[int, np.ndarray]:
    """Per point kind, (P, 3) its empty look as BGR under the mean light: at each pixel the
    mean over the kind's free strips that show it with no channel clipped of their pixel
    divided by their light (``light`` (24, L)); NaN where no free strip does. A clipped cream
    point shows white, so the kind's mean over bright and dim strips has lost the paint's hue:
    lit dimmer for a covered point in a shade it is a grey the point is not (held-out 900015,
    green oak: cream point 13 in a shade, L 208 b 145 emptied, its borrowed look L 192 b 133
    from clipped points 21 and 23, a white top's b 142: read white on every frame)."""
    rows = np.repeat(np.arange(L), SW)
    n = min(24, bgr.shape[0])
    out: dict[int, np.ndarray] = {}
    for k in np.unique(kinds[:n]):
        ids = np.flatnonzero(kinds[:n] == k)
        s1 = np.zeros(bgr.shape[1:], np.float64)
        cnt = np.zeros((bgr.shape[1], 1), np.float64)
        for i in ids:
            ok = (free[i] & (bgr[i].max(1) < CLIPPED))[:, None]
            s1 += np.where(ok, bgr[i] / light[i][rows, None], 0.0)
            cnt += ok
        out[int(k)] = np.where(cnt > 0, s1 / np.maximum(cnt, 1), np.nan).astype(np.float32)
    return out


def _smooth_rows(g: np.ndarray, cols: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Per point, the mean of its row's gains weighted by column distance (``GAIN_SPREAD``):
    light changes slowly, a point kind's paint (a bright kind's clipping) need not."""
    out = np.empty_like(g)
    for i in range(len(g)):
        same = top == top[i]
        w = np.exp(-0.5 * ((cols[same] - cols[i]) / GAIN_SPREAD) ** 2)
        out[i] = (w * g[same]).sum() / w.sum()
    return out


def _borrow_gap(x: np.ndarray, f: np.ndarray, ksig: np.ndarray, noise: np.ndarray
                ) -> np.ndarray:
    """(P,) mean log-density gap between a strip's own empty look (its pixels, within the
    noise) and the kind's look (mean of the kind's other free strips, spread ``ksig``), over
    the kind's free strips; where fewer than two strips are free, the gap over all pixels."""
    n = x.shape[0]
    tot = f.sum(0)  # (P, 1)
    s1 = (x * f).sum(0)
    own = -np.sum(np.log(noise)) - 1.5
    lks = -np.sum(np.log(ksig), -1)
    gaps = np.zeros(x.shape[1], np.float64)
    cnt = np.zeros(x.shape[1], np.float64)
    for j in range(n):
        fj = f[j]
        rest = tot - fj
        ok = (fj[:, 0] > 0) & (rest[:, 0] > 0)
        km = (s1 - x[j] * fj) / np.maximum(rest, 1)
        z = (x[j] - km) / ksig
        ll = lks - 0.5 * np.sum(z * z, -1)
        gaps[ok] += (own - ll)[ok]
        cnt[ok] += 1
    mean_gap = gaps[cnt > 0].sum() / max(cnt[cnt > 0].sum(), 1)
    out = np.where(cnt > 0, gaps / np.maximum(cnt, 1), mean_gap)
    return np.clip(out, 0.0, CLIP).astype(np.float32)


def _dilate(mask: np.ndarray, r: int) -> np.ndarray:
    import cv2

    k = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
    return np.stack([cv2.dilate(m.astype(np.uint8), k) > 0 for m in mask])


def _row_fill(x: np.ndarray, f: np.ndarray, L: int) -> np.ndarray:
    """Where no strip of a kind is free: the mean of the free pixels of the same row."""
    n, P, _ = x.shape
    xr = x.reshape(n, L, SW, 3)
    fr = f.reshape(n, L, SW, 1)
    row = (xr * fr).sum((0, 2)) / np.maximum(fr.sum((0, 2)), 1)  # (L, 3)
    return np.repeat(row, SW, axis=0)


def _noise(labf: np.ndarray, free: np.ndarray) -> np.ndarray:
    """Per-channel pixel noise: the spread of each free pixel against its row neighbours."""
    d = labf[:, 1:] - labf[:, :-1]
    ok = free[:, 1:] & free[:, :-1]
    if not ok.any():
        return SIGMA_FLOOR.copy()
    return (1.4826 * np.median(np.abs(d[ok]), 0) / np.sqrt(2) * 2.0).astype(np.float32)
