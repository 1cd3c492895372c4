"""``calibrate(frame, position, corners=...) -> BoardProfile``: the board's pose (found, from
markers, or four taps), its orientation (which of the four ways round fits the known position
best) and its look; refuses when the frame does not show the position.

The position check reads the calibration frame with the profile as the reader will use it (the
disc templates just learned from the frame), so a board the reader reads right is never refused
because an older, weaker model misreads it. A point the position leaves empty learns its empty
look from this very frame and so always reads back empty: only the regions the position fills
(and the bar and trays) can disagree, hence the tighter limit.

Without markers or taps, a board whose found quad the check refuses is looked for again by the
finder's edge search (:mod:`calibration.refind`): a variant's two pyramids can lead the checker
grid astray, and the check then decides on the second quad as on the first. At a variant's
start (two stacks, 22 points empty) the check reads the empty points back empty wherever the
quad lies: there the quads of the finder, the wider look and the edge search are fitted to the
board's drawn lines and ranked by them (:mod:`calibration.startfit`) before the check.

Cost (about 7 s of CPU per calibration before, 1.7 s now, held-out bench_calibrate): the wider
look is asked only when the finder's quads fail a check that can refuse them (:func:`_stages`),
one find's quads are each fitted once and only the best fitting one is checked
(:func:`_fit_pick`), and the corner fit's cost is computed with its strips' grid kept
(``learn.FitCost``), its coarser steps on every other strip pixel (:data:`FIT_EVERY`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from itertools import chain, islice
from pathlib import Path

import cv2
import numpy as np

from engine import Position, PositionError
from engine.observation import expected_counts
from engine.rules import STANDARD
from engine.xgid import XgidError, parse_xgid
from vision.appearance import to_lab
from vision.discs import NEAR, DiscModel, _dilate
from vision.geometry import BoardShape
from vision.light import glare_looks
from vision.profile import BoardProfile
from vision.read import read
from vision.strips import strip_kinds

from .calfit import candidate_quads, finder_quads, wider_quads
from .drift import reference_image
from .edgesnap import snap_sides
from .find import BoardNotFound, find_board
from .learn import ORIENTATIONS, _strips_bgr, corner_fit, label_strips, learn, oriented
from .markers import corners_from_markers
from .refind import other_quads
from .refine import refine_corners
from .stacklook import MIN_SAMPLES, label_stacks, stack_maps, stack_tops, stack_tops_bgr
from .startfit import MIN_SHARE, line_share, start_fit
from .turned import turn_angles, turned_quads
from .widefind import DISTINCT

START = STANDARD.start  # the engine's start: a profile numbers the points as the referee does
MAX_MISREAD = 3  # regions the calibration frame may read differently from the given position
# (disc model; tuning seeds: the start frame reads 0-2 wrong, another state of the board 7-8)


class PositionMismatch(ValueError):
    """The frame does not show the position calibration was told it shows."""


def parse_position(text: str) -> Position:
    """An XGID, a position JSON string, or a file holding either."""
    t = text.strip()
    if not t.startswith(("XGID=", "{")) and Path(t).is_file():
        t = Path(t).read_text().strip()
    if t.startswith("XGID="):
        try:
            return parse_xgid(t).position
        except XgidError as exc:
            raise PositionError(f"malformed XGID: {exc}") from None
    try:
        data = json.loads(t)
    except json.JSONDecodeError:
        raise PositionError(f"not an XGID, position JSON or file: {text!r}") from None
    return Position.from_json(data)


def misread(profile: BoardProfile, frame: np.ndarray, pos: Position) -> tuple[int, float]:
    """(regions read differently from pos, log-likelihood of pos) for the frame (read as not
    settled, so the profile learns nothing from it)."""
    obs = read(frame, profile, settled=False)
    best = obs.best_counts()
    exp = expected_counts(pos)
    bad = sum(1 for b, e in zip(best, exp, strict=True) if b is not None and b != e)
    return bad, obs.log_likelihood(pos)


def occupancy_misread(profile: BoardProfile, frame: np.ndarray, pos: Position) -> tuple[int, int]:
    """(regions read with another occupancy than pos's: empty, white, black or both, regions
    read differently at all) for the frame (read as not settled). A count short on a tall stack
    is a count misread; a stack read where the position has none (or none where it has one) is
    a board the wrong way round."""
    occ, bad, _ = _check(profile, frame, pos)
    return occ, bad


def _check(profile: BoardProfile, frame: np.ndarray, pos: Position) -> tuple[int, int, float]:
    """:func:`occupancy_misread` and the log-likelihood of :func:`misread` from one read."""
    obs = read(frame, profile, settled=False)
    occ, bad = 0, 0
    for b, e in zip(obs.best_counts(), expected_counts(pos), strict=True):
        if b is None or b == e:
            continue
        bad += 1
        occ += (b[0] > 0, b[1] > 0) != (e[0] > 0, e[1] > 0)
    return occ, bad, obs.log_likelihood(pos)


def learn_discs(frame: np.ndarray, prof: BoardProfile, pos: Position,
                unknown: tuple[int, ...] = ()) -> DiscModel:
    """Checker-top templates and every point's empty look, from a frame showing ``pos``
    (``unknown``: regions whose content is not known, nothing learned from them)."""
    lay = prof.layout
    bgr = _strips_bgr(frame, lay, prof.corners, prof.trays_right)
    lab = to_lab(bgr.reshape(-1, bgr.shape[2], 3)).reshape(bgr.shape)
    labels = label_strips(lay, pos, unknown)
    kinds = strip_kinds(lay)
    occupied = []
    for i, (w, b) in enumerate(expected_counts(pos)[:24]):
        n = w + b
        if 0 < n <= lay.shape.row_max and not (w and b) and i not in unknown:
            occupied += [(i, j, 1 if w else 2) for j in range(n)]
    # a colour with (almost) no checker alone in the first row (a variant's start: all fifteen
    # on one point) learns its tops from the parts of its stacks' checkers that show
    few = {c for c in (1, 2) if sum(1 for o in occupied if o[2] == c) < MIN_SAMPLES}
    maps = stack_maps(lay, pos, prof.pose, trays_right=prof.trays_right) if few else {}
    if maps:
        labels = label_stacks(labels, maps)
    # a covered point borrows its kind's look under the light its neighbours show
    places = [lay.point_place(i + 1) for i in range(24)]
    free = (labels == 0) & ~_dilate(labels != 0, NEAR)
    looks, known, glare = glare_looks(bgr, free, kinds, np.array([c for c, _ in places], float),
                                      np.array([t for _, t in places]))
    looks = to_lab(np.clip(looks + 0.5, 0, 255).astype(np.uint8).reshape(-1, bgr.shape[2], 3))
    model = DiscModel.fit(lab, labels, kinds, lay, occupied,
                          (looks.reshape(known.shape + (bgr.shape[2], 3)), known, glare))
    if maps:
        stack_tops(model, lab, kinds, lay, maps, few)
        if few == {1, 2} and model.tops_bgr is None:  # both colours' tops from stacks
            stack_tops_bgr(model, bgr, kinds, lay, maps)
    # the reader relearns these colours' tops from the first lone checkers it is sure of
    if maps:
        prof.meta["stack_tops"] = sorted(few)
    else:
        prof.meta.pop("stack_tops", None)
    return model


def board_corners(frame: np.ndarray, method: str = "auto",
                  corners: np.ndarray | None = None) -> np.ndarray:
    """The playing area's corners by ``method``: "taps" (given), "markers" or "auto"."""
    if method == "taps" or corners is not None:
        if corners is None:
            raise ValueError("four corner taps are needed")
        q = np.asarray(corners, np.float64).reshape(4, 2)
    elif method == "markers":
        q = corners_from_markers(frame)
    else:
        q = find_board(frame)
    return refine_corners(frame, q)


def calibrate(frame: np.ndarray, position: Position | None = None, method: str = "auto",
              corners: np.ndarray | None = None, shape: BoardShape | None = None,
              orientation: str | None = None, snap: bool = True,
              snap_taps: bool = False) -> BoardProfile:
    """A profile for the board in ``frame``, which shows ``position`` (default: the start).

    With markers the corners already carry the orientation; otherwise all four ways round are
    tried (``orientation`` fixes one) and the one that reads the position best is kept.
    ``snap``: the board found moves its sides onto the frame's edges, then its corners onto
    the board's drawn lines (:func:`_snapped`; under half the finder's corner error). Taps and
    markers are not snapped: they are where the user put them, and on the rendered frames
    exact taps are nearer the board's true corners than its visible edges are (a pixel or two
    of bevel). ``snap_taps``: taps are snapped too, a person's taps (the web calibration
    page's, ``gammoncam calibrate --corners``'s): a finger lies pixels off, and the sides are
    snapped before the ways round are tried (:data:`PRESNAP`), the corners fitted after.
    ``bench.bench_vision --tap-noise 6 [--snap-taps]``, held-out setups 900000-23: slots 98.16
    -> 99.02 %, frames perfect 72.5 -> 81.7 %, corner error median 4.1 -> 2.1 px; exact taps
    lose by it (99.37 -> 99.11 %: the exact corners read better than the visible edges)."""
    pos = position or START
    if method == "auto" and corners is None:
        prof = _auto(frame, pos, shape, orientation)
        return _snapped(frame, pos, prof) if snap else prof
    q = board_corners(frame, method, corners)
    snap_taps = snap_taps and method == "taps"
    if snap_taps and PRESNAP:
        q = snap_sides(frame, q)
    prof = _calibrate_at(frame, pos, q, method, shape, orientation)[0]
    return _snapped(frame, pos, prof) if snap_taps else prof


PRESNAP = True  # snapped taps: the sides snapped to the edges before the ways round are tried
# (tuning 700001, taps 8 px off: the board taken mirrored, 67 slots wrong over 5 frames; 700016: a
# corner 15 px off, past the lines fit's reach, 20 wrong)


SNAP_MIN = 0.25  # pixels: a snap that moves no corner this far changes nothing


def _whiter(prof: BoardProfile) -> bool:
    """Whether the profile's white set is learned lighter than its black (white is the
    lighter set; close on some boards' colours)."""
    return prof.meta.get("white_L", 0.0) >= prof.meta.get("black_L", 0.0)


def _snapped(frame: np.ndarray, pos: Position, prof: BoardProfile) -> BoardProfile:
    """``prof`` learned again with its sides snapped to the frame's edges
    (:func:`calibration.edgesnap.snap_sides`: the labels' corner fit stops 2-5 px off, where
    its steps stop helping) and then its corners fitted to the board's drawn lines
    (:func:`calibration.startfit.start_fit`, on the points the position leaves empty: a
    finder's corner 13-24 px off, which the snap's reach cannot mend, is brought back; tuning
    auto calibrations of bench_vision's setups 700000-29, corner error median 4.03 px, snapped
    2.34, then fitted 1.80, none over 6 px (8 before); bench_calibrate's 700000-23: 4.19 ->
    2.42 -> 1.97 px. The fit's side jumps (as at a variant's start) gain a little more, 1.59
    and 1.78 px, and mend one quad 55 px off, but cost about 2.3 s of CPU, 15 times the fit:
    left out), unless the refined profile reads
    ``pos`` back worse (more regions misread) or turns the sets' lightness round. Only once
    a profile is chosen: snapped, a quad 20 px off passed the check the unsnapped one failed,
    and the finder's next, right quad was never looked at (tuning 700002). A variant's start
    (:data:`FIT_POINTS`) keeps its own lines' fit (:func:`_fitted`)."""
    if _filled(pos) < FIT_POINTS or "start_fit" in prof.meta:
        return prof
    c = np.asarray(prof.corners, np.float64)
    q = snap_sides(frame, c)
    q, before, after = start_fit(frame, q, pos, prof.shape)
    if float(np.abs(q - c).max()) < SNAP_MIN:
        return prof
    out = learn(frame, q, pos, prof.shape, prof.trays_right)
    if _whiter(out) != _whiter(prof):
        return prof  # the two sets' lightness turned round: the sets were relearned wrong
    out.discs = learn_discs(frame, out, pos)
    occ, bad, _ = _check(out, frame, pos)
    occ0, bad0, _ = _check(prof, frame, pos)
    if (occ, bad) > (occ0, bad0):
        return prof
    out.reference = reference_image(frame, out)
    out.meta = {**prof.meta, **out.meta, "snapped": [[round(float(v), 2) for v in p] for p in c],
                "lines_fit": [round(before, 4), round(after, 4)]}
    return out


def _auto(frame: np.ndarray, pos: Position, shape: BoardShape | None,
          orientation: str | None) -> BoardProfile:
    """:func:`calibrate` with the board found: the quads of :func:`_stages` in turn until one
    passes the position check with no region misread (:func:`_best_of`); the best pass (fewest
    misread, then the likelihood) over the stages looked at. At a variant's start the first
    :data:`VARIANT_STAGES` stages are one, their quads fitted to the drawn lines and checked
    best fitting first (:func:`_by_lines`), the first passing taken. Raises BoardNotFound when
    no stage finds a board, PositionMismatch when none passes."""
    seen: list[np.ndarray] = []
    tol = DISTINCT * float(max(frame.shape[:2]))
    refusal: PositionMismatch | None = None
    held: tuple[tuple[int, float], BoardProfile] | None = None
    variant = _filled(pos) < FIT_POINTS
    stages = _stages(frame, pos)
    if variant:  # the first stages' quads as one, fitted and ranked by the drawn lines
        stages = chain([(_joined(list(islice(stages, VARIANT_STAGES))), True)], stages)
    for stage, first_passing in stages:
        quads = [q for q in stage() if all(np.abs(q - o).max() > tol for o in seen)]
        seen += quads
        if variant:
            quads = _by_lines(frame, pos, quads, shape)
        for group in ([[q] for q in quads] if first_passing else [quads] if quads else []):
            try:
                prof, key = _best_of(frame, pos, group, shape, orientation)
            except PositionMismatch as exc:
                refusal = refusal or exc
                continue
            if held is None or key > held[0]:
                held = (key, prof)
            break
        # a pass with a region misread is held while the later stages are looked at (tuning
        # 700016: the inner half of a board turned 40 degrees passed with 3 misread; 700001:
        # the finder's quads 8 % off, fitted to 4-7 %, passed with 1); at a variant's start the
        # check does not rank quads far apart: the lines' fit ranked them, the first passing
        # taken
        if held is not None and (held[0][0] == 0 or variant):
            break
    if held is not None:
        return held[1]
    if refusal is None:
        raise BoardNotFound("no board found")
    raise refusal


def _stages(frame: np.ndarray, pos: Position
            ) -> Iterator[tuple[Callable[[], list[np.ndarray]], bool]]:
    """The quads calibration without taps checks, in stages (each a callable, so a stage is
    only looked for when the ones before it found nothing the check passes with no region
    misread, and whether its first quad passing is taken rather than its best): the finder's
    quads and the wider look's (:func:`calibration.calfit.candidate_quads`), then the finder's
    edge search and the wider look asked again (:func:`calibration.refind.other_quads`, refined
    to sub-pixel corners; the first passing), last the finder's quads in the frame turned back
    by each read of the board's turn (:mod:`calibration.turned`: a board turned 20-45 degrees
    in the frame).

    A position with checkers on :data:`FIT_POINTS` points or more (the standard start, a game
    under way) checks the finder's quads alone first: its check reads every point filled and
    refuses a quad off the board, so the wider look (about a second of CPU) is asked only when
    it refuses them. A variant's start leaves 22 points empty, read back empty wherever the quad
    lies, so there the wider look's quads are checked with the finder's from the start."""
    found: list = []

    def finder() -> list[np.ndarray]:
        first, quads = finder_quads(frame)
        found.append(first)
        return quads

    def wide() -> list[np.ndarray]:
        return wider_quads(frame, found[0] if found else None)[1]

    def again() -> list[np.ndarray]:
        return [refine_corners(frame, q) for q in other_quads(frame)]

    def turned(angle: float) -> Callable[[], list[np.ndarray]]:
        return lambda: turned_quads(frame, lambda f: finder_quads(f)[1], angle)

    if _filled(pos) >= FIT_POINTS:
        yield from ((finder, False), (wide, False))
    else:
        yield lambda: _or_empty(candidate_quads, frame), False
    yield again, True
    for a in turn_angles(frame):  # read only when the stages before leave it to them
        yield turned(a), False


def _joined(stages: list[tuple[Callable[[], list[np.ndarray]], bool]]
            ) -> Callable[[], list[np.ndarray]]:
    """One stage of the quads of ``stages``, looked for in turn."""
    return lambda: [q for stage, _ in stages for q in stage()]


def _by_lines(frame: np.ndarray, pos: Position, quads: list[np.ndarray],
              shape: BoardShape | None) -> list[np.ndarray]:
    """``quads`` fitted to the board's drawn lines (:func:`calibration.startfit.start_fit`, any
    way round), best fitting first. At a variant's start the position check reads the empty
    points back empty wherever a quad lies and cannot rank them; the lines can (tuning Plakoto
    1001 and 1004, Long Nardi 1007: the finder's quads 4.9 / 9.6 / 4.9 % of the diagonal off,
    the edge search's, fitted, 0.2 / 0.3 / 0.5 % off and fitting better). A quad whose lines
    carry too little of the frame's edges (``startfit.MIN_SHARE``) is left out: the check
    passes a quad on the table as readily (tuning Plakoto 700014: every quad found 80-95 % off,
    refused before the fit, one passed once fitted), and so is one whose lines carry much less
    than the best quad's (:data:`RIVAL_SHARE`): a score sheet's ruled lines and ink are strong
    edges, and a quad on one can fit the lines' strength better than the board (tuning Long
    Nardi 1009: share 1.8-2.0 on the sheet, 3.6 on the board; the board's quads 0.2-0.5 % off
    share 0.8-1.0 of the best)."""
    shares: list[float] = []
    fits = [start_fit(frame, q, pos, shape, any_way=True, share=shares) for q in quads]
    floor = max([MIN_SHARE] + [RIVAL_SHARE * v for v in shares])
    order = sorted((i for i in range(len(quads)) if shares[i] >= floor),
                   key=lambda i: fits[i][2])
    return [fits[i][0] for i in order]


def _filled(pos: Position) -> int:
    """How many of the 24 points the position fills."""
    return sum(1 for w, b in expected_counts(pos)[:24] if w or b)


def _or_empty(fn: Callable[[np.ndarray], list[np.ndarray]], frame: np.ndarray
              ) -> list[np.ndarray]:
    try:
        return fn(frame)
    except BoardNotFound:
        return []


def _best_of(frame: np.ndarray, pos: Position, quads: list[np.ndarray],
             shape: BoardShape | None, orientation: str | None
             ) -> tuple[BoardProfile, tuple[int, float]]:
    """The profile from whichever of ``quads`` (:func:`calibration.calfit.candidate_quads`: the
    found quad, it with the long edges fitted to the first checkers, the wider look's and its
    fit) reads ``pos`` back best (fewer regions misread, then the likelihood); the earlier on a
    tie. Raises PositionMismatch when none passes the position check.

    On a position the corner fit applies to (:data:`FIT_POINTS`), the quads of one find are
    first narrowed to the one whose fit fits best (:func:`_fit_pick`); all are checked only when
    the check refuses that one."""
    if len(quads) > 1 and _filled(pos) >= FIT_POINTS:
        try:
            return _fit_pick(frame, pos, quads, shape, orientation)
        except PositionMismatch:
            pass
    best: tuple[tuple[int, float], BoardProfile] | None = None
    for q in quads:
        try:
            prof, key = _calibrate_at(frame, pos, q, "auto", shape, orientation)
        except PositionMismatch:
            continue
        if best is None or key > best[0]:
            best = (key, prof)
    if best is None:
        raise PositionMismatch("the board does not show the given position")
    return best[1], best[0]


def _calibrate_at(frame: np.ndarray, pos: Position, q: np.ndarray, method: str,
                  shape: BoardShape | None, orientation: str | None
                  ) -> tuple[BoardProfile, tuple[int, float]]:
    """:func:`calibrate` with the playing area's corners ``q`` (in some order), and how well
    the profile reads the position back: (-regions misread, log-likelihood)."""
    names = [orientation] if orientation else (
        ["identity"] if method == "markers" else list(ORIENTATIONS))
    ranked = _ranked(frame, pos, q, shape, names)
    # the colour models rank the ways round; the disc model, learned per way round, checks them
    # (the best first; the others only when it fails): fewest regions misread, then the rank
    # (a board the wrong way round reads stacks where the position has none: with few regions
    # filled, as at a variant's start, that and not the count of misread regions tells it)
    best: tuple[tuple[int, int], BoardProfile, float] | None = None
    tried, share, flipped = False, None, False
    for (lighter, _, _), name, prof in ranked:
        if tried and ((not lighter and not flipped) or (best is not None and best[0][0] == 0
                                                        and best[0][1] <= MAX_MISREAD)):
            break
        tried = True
        if method != "markers":
            prof = _fitted(frame, prof, pos, shape, method)
        # a variant's start reads its 22 empty points back empty wherever the quad lies: the
        # board's drawn lines must also be where the fitted quad puts them
        if prof.meta.get("start_share", MIN_SHARE) < MIN_SHARE:
            share = max(share or 0.0, float(prof.meta["start_share"]))
            continue
        if "start_share" in prof.meta and not _whiter(prof):
            # the quad fitted to the lines, the colours learned again make the darker set
            # white: the lighter-set test before the fit was a near tie (held-out Long Nardi
            # 900011 through MJPG: L 253 / 249 before, 179 / 255 after; a board half turned),
            # and the ways round it ranked after the others are looked at too
            flipped = True
            continue
        prof.discs = learn_discs(frame, prof, pos)
        prof.meta["orientation"] = name
        occ, bad, ll = _check(prof, frame, pos)
        if best is None or (occ, bad) < best[0]:
            best = ((occ, bad), prof, ll)
    if best is None:
        raise PositionMismatch(
            "the board does not show the given position (the lighter set is not white)"
            if share is None else f"the board's drawn lines are not where the corners put "
            f"them (share {share:.2f} < {MIN_SHARE})")
    (occ, bad), prof, ll = best
    filled = sum(1 for w, b in expected_counts(pos) if w or b)
    if bad > MAX_MISREAD or 2 * occ >= filled:
        raise PositionMismatch(f"the board does not show the given position "
                               f"({bad} regions differ)")
    prof.reference = reference_image(frame, prof)
    prof.meta.update({"method": method, "position": pos.to_json()})
    if "start_fit" in prof.meta:  # a variant's start: the check reads its 22 empty points
        # back empty wherever the quad lies; the board's drawn lines rank the quads
        return prof, (0, -float(prof.meta["start_fit"][1]))
    return prof, (-bad, ll)


def _ranked(frame: np.ndarray, pos: Position, q: np.ndarray, shape: BoardShape | None,
            names: list[str]) -> list[tuple[tuple[int, int, float], str, BoardProfile]]:
    """The ways round ``names`` of quad ``q``, best first by the colour models: the lighter set
    white, fewer regions misread, the likelihood; each with its profile."""
    ranked: list[tuple[tuple[int, int, float], str, BoardProfile]] = []
    for name in names:
        prof = learn(frame, oriented(q, name), pos, shape)
        bad, ll = misread(prof, frame, pos)
        # white is the lighter set: a way round that makes the darker set white is wrong
        lighter = _whiter(prof)
        ranked.append(((int(lighter), -bad, ll), name, prof))
    ranked.sort(key=lambda r: r[0], reverse=True)
    return ranked


VARIANT_STAGES = 2  # a variant's start ranks the quads of this many stages as one (_auto)
RIVAL_SHARE = 0.8  # ... among those whose lines carry this share of the best one's (_by_lines)
FIT_GAIN = 0.2  # the corner fit is taken when it cuts the labels' misfit by this share
FIT_EVERY = 2  # the fit's coarser steps look at every other strip pixel along and across
# (tuning start frames 700000-12, 15 quads fitted: 0.76 % of the diagonal off after the fit
# with all pixels, 0.78 % with every other, median; the fit about 1.5 times faster)
FIT_POINTS = 6  # ... on a position with checkers on this many points at least (not a variant's
# start: one or two stacks leave the corners free to slide along the empty points)


def _fitted(frame: np.ndarray, prof: BoardProfile, pos: Position,
            shape: BoardShape | None, method: str = "auto") -> BoardProfile:
    """``prof`` learned again at corners fitted to the known position's labels
    (``learn.corner_fit``) when the fit clearly helps. Found or tapped corners 1-4 % of the
    diagonal off put the first slots of some points on the rail, read one short for the whole
    game; from the true corners the fit gains under 0.13 of the misfit, from found ones
    0.27-0.71 (tuning footage 1000-1007), so a smaller gain is noise and the corners stay.

    A position on fewer than :data:`FIT_POINTS` points (a variant's start) leaves the labels'
    fit free to slide along the empty points: its corners are fitted to the board's drawn lines
    instead (:func:`calibration.startfit.start_fit`: the empty triangles' sides and the long
    edges; tuning variant starts 700000-15 and 1000-11, the finder's corners median 1.45 % of
    the diagonal off, fitted 0.29 %), and the lines' fit is kept in ``meta["start_fit"]``
    (before, after: lower is better) to rank the quads (:func:`_calibrate_at`), and the share
    of the frame's edges the fitted quad's lines carry in ``meta["start_share"]``
    (:func:`calibration.startfit.line_share`): the check refuses a quad whose lines carry under
    ``startfit.MIN_SHARE``, since its read of 22 empty points tells nothing (tuning Plakoto
    700010: the checker grid's quad 97 px off, refitted, read the two stacks with no region
    misread; share 1.11, the board's 3.4). Tapped corners
    at a variant's start stay as tapped (the lines' fit was tuned on found corners; from true
    ones it moves them 0.1-0.4 %)."""
    if _filled(pos) < FIT_POINTS:
        if method != "auto":
            return prof
        fitted, before, after = start_fit(frame, prof.corners, pos, shape or prof.shape,
                                          jumps=True)
        out = learn(frame, fitted, pos, shape or prof.shape, prof.trays_right)
        out.meta["start_fit"] = [round(before, 3), round(after, 3)]
        out.meta["start_share"] = round(line_share(frame, fitted, pos, shape or prof.shape), 3)
        return out
    fitted, before, after = _corner_fit(frame, prof.corners, pos, shape or prof.shape,
                                        prof.trays_right)
    if not _fit_taken(before, after):
        return prof
    out = learn(frame, fitted, pos, shape or prof.shape, prof.trays_right)
    out.meta["corner_fit"] = [round(before, 4), round(after, 4)]
    return out


def _fit_taken(before: float, after: float) -> bool:
    return before > 0 and (before - after) / before >= FIT_GAIN


_FITS: dict[bytes, tuple[np.ndarray, float, float]] = {}
_FITS_OF: list[object] = [None]  # the frame (its pixel sample, the position) the fits are of


def _corner_fit(frame: np.ndarray, corners: np.ndarray, pos: Position, shape: BoardShape,
                trays_right: bool) -> tuple[np.ndarray, float, float]:
    """:func:`calibration.learn.corner_fit`, kept for the frame and position at hand: the quads
    of one find are fitted once to pick the one worth checking (:func:`_fit_pick`), and the
    check fits that one again."""
    # the same array with the same pixels (a camera's buffer may be filled again in place)
    sample = hash(np.ascontiguousarray(frame[::37, ::41]).tobytes())
    if _FITS_OF[0] is not frame or _FITS_OF[1:] != [sample, pos.to_json()]:
        _FITS.clear()
        _FITS_OF[:] = [frame, sample, pos.to_json()]
    key = np.asarray(corners, np.float64).tobytes() + repr((shape, trays_right)).encode()
    if key not in _FITS:
        _FITS[key] = corner_fit(frame, corners, pos, shape, trays_right, every=FIT_EVERY)
    return _FITS[key]


NEAR_QUAD = 0.05  # quads whose corners all lie this share of the first's diagonal from it are
# one find's (the finder's quad polished and fitted to the first checkers): one way round


def _fit_pick(frame: np.ndarray, pos: Position, quads: list[np.ndarray],
              shape: BoardShape | None, orientation: str | None
              ) -> tuple[BoardProfile, tuple[int, float]]:
    """The profile from the quad of one find whose fitted corners fit the position's labels best
    (:func:`calibration.learn.corner_fit`'s misfit after the fit, or before it when the fit is
    not taken), the way round the colour models rank first on the first quad: one quad checked
    instead of each (every check costs a fit, the orientations' reads and the disc model).
    Raises PositionMismatch when the check refuses it."""
    shape = shape or BoardShape()
    first = np.asarray(quads[0], np.float64)
    diag = float(np.linalg.norm(first[0] - first[2]))
    near = [q for q in quads if float(np.abs(q - first).max()) <= NEAR_QUAD * diag]
    name = orientation or _ranked(frame, pos, first, shape, list(ORIENTATIONS))[0][1]
    scores = []
    for q in near:
        _fit, before, after = _corner_fit(frame, oriented(q, name), pos, shape, True)
        scores.append(after if _fit_taken(before, after) else before)
    q = near[int(np.argmin(scores))]
    return _calibrate_at(frame, pos, q, "auto", shape, name)


def load_image(path: str) -> np.ndarray:
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"{path} is not an image")
    return img
