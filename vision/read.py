"""``read(frame, profile) -> Observation``: the calibrated reader.

One remap samples every strip straight from the frame; colour evidence against the profile's
models gives the 28 regions' likelihoods; dice and the cube are found where the strips show
something that is neither board nor checker (settled frames only); a large foreign area is a
hand. A settled frame
with no hand also teaches the profile's disc model the empty look of points that held checkers
when it was calibrated (see ``learn_empty_looks``), and, when calibration learned a colour's
checker tops from tall stacks (a variant's start), those tops from lone checkers it is near sure
of (``vision.lonetops``), so ``read`` may change the profile. A settled board is read frame
after frame: the dice and cube readers remember the last frame's (``vision.dice.DiceMemory``,
``vision.readcache``) and do not read again what still shows the same picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from engine.observation import WHITE_OFF, Observation

from . import readmemory
from .appearance import to_lab
from .blocks import block_means
from .checkers import (
    UNSEEN_FRACTION,
    Counter,
    Evidence,
    evidence,
    hand_edges,
    hand_over_bar,
    sureness,
    tied_unseen,
)
from .dice import observe_dice
from .discs import DiscEvidence, Gathered
from .lonetops import learn_lone_tops
from .oddtops import checker_runs, slot_shares, unexplained
from .pins import base_colours, find_pins
from .profile import BoardProfile
from .readcache import remembered_cube
from .readmemory import StripEvidence
from .stacks import tray_masks
from .strips import (
    BAR_BOTTOM,
    BAR_TOP,
    N_STRIPS,
    SW,
    TRAY_BOTTOM,
    TRAY_TOP,
    frame_maps,
    sample,
    strip_kinds,
    strip_specs,
)

DISC_SCALE = 0.04  # nats per pixel-sum of disc evidence (neighbouring pixels are not independent)
HAND_FRACTION = 0.04  # share of the point strips' pixels that are foreign: a hand or arm
TIES_UNSEEN = True  # the colour read (one-shot) with a hand in view: a partly hidden point
# whose read is a tie is unseen (``checkers.tied_unseen``)
LEARN_SURE = 0.999  # a point's read this sure teaches its empty look past the stack
LEARN_GAP = 6  # strip rows kept clear past a stack's end (its shadow, a checker's lip)
LEARN_TWICE = True  # an empty look is learned only where two reads of the strip agree
# (``learn_empty_looks``): a hand the read missed is gone or moved in the next (tuning footage
# 1024 dance: a fingertip over an empty point's front, learned there, made that point foreign
# and every later frame a hand)
LEARN_AGREE = 20.0  # Lab levels (any channel) two reads' pixel may differ by and agree (MJPG
# noise of a still dark board: 99.9 % of point pixels within 10, all within 15)
PENDING_KEY = "empty_pending"  # profile._cache: per point, the last read's (Lab strip, mask, first)
HAND_BLOB = 0.25  # with disc templates: a point's front this much covered by a solid foreign
# patch is a hand (tuning 700000-39, 1000-39: 92 % of frames right at 0.15-0.35, fewer false
# hands the higher; two points 25 % foreign pixels, as before: 87 %)
HAND_FRONT = 0.5  # ... or a point's front (``DiscEvidence.foreign``) more than this foreign: a
# hand whose solid patch falls short of HAND_BLOB (a sleeve over one point, fingers between
# stacks). Tuning bench.checker_harness 5 frames: hands 700000+ 90.5 -> 92.0 %, 1000+ 94.4 ->
# 95.6 %; wrong regions 78 -> 76, 63 -> 59 (0.55 alike, fewer hands)
FRONT_ROWS = 0.45  # the front of a point strip: its rows nearest the edge (this share) ...
FRONT_COLS = 0.6  # ... and its middle columns (this share across)
CHECKERS = 15  # of each colour
TALL = 5  # a point's count past this (a first row) may be a sleeve read as a stack
OVER_FIFTEEN = True  # with a hand in view, counts past fifteen of a colour are unseen
# (``fifteen_at_most``)
HAND_EDGES = True  # with a hand in view, points its edge reaches over are unseen
# (``vision.checkers.hand_edges``)
LONE_GUARD = True  # tops relearned from lone checkers (``vision.lonetops``) that make the frame
# they were learned on look like a hand are taken back (``guarded_lone_tops``)
BAR_LIGHT = True  # the bar's checker tops under the light beside it (tuning 700000+: 11 -> 9
# wrong bar regions, none worse; 1000+: 3 -> 3)
BAR_ROWS = True  # the bar's checker tops the mean of both rows' (``DiscModel.rows_mixed``)
ODD_TOPS = True  # a point's foreign patch shaped as a run of checkers from its base (tops unlike
# the learned ones: a variant's stack-learned tops) is taken out of the hand's tests
# (``vision.oddtops``; issue 9, held-out Plakoto / Long Nardi 900002 false hands)
NEIGHBOUR_BLOB = 0.1  # ... unless a point beside it shows this much of a solid patch (a hand)
PAIR_ARM = True  # ... or two neighbouring points show solid runs of one length side by side (a
# straight arm edge across both that ends where a checker's round end would: the synthetic arms
# of tests/vision/test_hands_oddtops.py, 28 of 72 edges missed without it; tuning 700000+ and
# 1000+ hand calls unchanged; held-out Plakoto 900002 footage: 6 more false hand reads, two odd
# lone checkers side by side)
LONE_PATCH = True  # a hand's tests passed on one point alone, where its empty look is still
# borrowed (``DiscModel.borrowed``: covered at calibration), its row neighbours quiet, is that
# look's misfit, not a hand: a hand is wider than a point (tuning 700000+ 32 x 5: 700008's
# empty red point 8 foreign on every frame, 700004; 1000+ 1001, 1008: false hands 6 -> 3 and
# 3 -> 0, none missed; the false ones' neighbours show at most 0.06 of a call, the hands'
# at least 0.32)
LONE_BESIDE = 0.15  # a row neighbour's hand signal (its blob / HAND_BLOB or its front /
# HAND_FRONT, whichever is more) under this: quiet
LONE_MAX = 2.0  # ... and a point's own signal under this (twice a call: a solid patch over
# most of its front is a hand's even alone; the false ones reach 1.79)
LONE_BORROWED = 0.5  # share of a point's foreign front pixels whose empty look is borrowed


def prepared(profile: BoardProfile, size: tuple[int, int]) -> dict[str, Any]:
    """Per-profile, per-frame-size work done once: strip maps and mask sets."""
    key = f"prep{size}"
    if key not in profile._cache:
        lay = profile.layout
        specs = strip_specs(lay, profile.trays_right)
        maps = frame_maps(lay, specs, profile.homography(size))
        if "counter" not in profile._cache:
            pose = profile.pose
            trays = (tray_masks(lay, spec=specs[TRAY_TOP], pose=pose),
                     tray_masks(lay, spec=specs[TRAY_BOTTOM], pose=pose))
            profile._cache["counter"] = Counter(lay, trays)
        profile._cache[key] = {"maps": maps, "kinds": strip_kinds(lay), "specs": specs,
                               "counter": profile._cache["counter"]}
        profile._cache["counter"] = profile._cache[key]["counter"]
    return profile._cache[key]


def colour_evidence(strips: np.ndarray, profile: BoardProfile, prep: dict[str, Any],
                    rows: list[int] | None = None) -> Evidence:
    """Per-pixel colour evidence of the strips (of ``rows`` only, when given)."""
    sel = strips if rows is None else strips[rows]
    lab = to_lab(sel.reshape(-1, SW, 3)).reshape(sel.shape)
    if rows is not None:
        full = np.zeros(strips.shape, np.uint8)
        full[rows] = lab
        lab = full
    return evidence(lab, prep["kinds"], profile.white, profile.black, profile.background, rows)


def disc_evidence(strips: np.ndarray, profile: BoardProfile, prep: dict[str, Any],
                  redo: np.ndarray | None = None, last: StripEvidence | None = None
                  ) -> DiscEvidence | None:
    """Per-slot disc evidence of the points and the bar, when the profile has disc
    templates. With ``last`` (an earlier frame's, ``vision.readmemory``), only the strips of
    ``redo`` are evaluated and the others keep ``last``'s evidence; this frame's is left in
    ``prep["evidence"]``."""
    if profile.discs is None:
        return None
    counter = prep["counter"]
    if "discs" not in prep:
        top = prep["kinds"][:26] >= 2
        top[BAR_TOP], top[BAR_BOTTOM] = False, True  # bar halves run up / down from the centre
        ids = np.arange(26)
        cols = np.array([profile.layout.point_place(i + 1)[0] for i in range(24)])
        light = profile.discs.bar_light(profile.layout) if BAR_LIGHT else None
        bar_cols = None if light is None else np.full(2, 5.5)  # between columns 5 and 6
        prep["discs"] = (profile.discs.gather(ids[:24], top[:24], counter.slots, cols),
                         profile.discs.gather(ids[24:], top[24:], counter.bar_slots, bar_cols,
                                              light, rows_mixed=BAR_ROWS))
    if last is None or redo is None:
        lab = to_lab(strips.reshape(-1, SW, 3)).reshape(N_STRIPS, -1, 3)
        Lw, Lb, foreign = profile.discs.slot_llr(lab[:24], prep["discs"][0])
        bw, bb, bf = profile.discs.slot_llr(lab[24:26], prep["discs"][1])
        bar_foreign = bf.mean(1)
        trays = profile.discs.change_llr(lab[26:], np.arange(26, 28))
    else:  # the strips that changed only (the same arithmetic, row by row)
        lab = last.lab.copy()
        rs = np.flatnonzero(redo)
        if len(rs):
            lab[rs] = to_lab(strips[rs].reshape(-1, SW, 3)).reshape(len(rs), -1, 3)
        Lw, Lb, foreign = last.Lw.copy(), last.Lb.copy(), last.foreign.copy()
        for i in rs[rs < 24]:  # one point at a time, its models copied out once
            Lw[i], Lb[i], foreign[i] = (a[0] for a in profile.discs.slot_llr(
                lab[i:i + 1], _point_models(prep, int(i))))
        bw, bb, bar_foreign = last.bar_Lw, last.bar_Lb, last.bar_foreign
        if redo[24:26].any():
            bw, bb, bf = profile.discs.slot_llr(lab[24:26], prep["discs"][1])
            bar_foreign = bf.mean(1)
        trays = last.tray_any
        if redo[26:].any():
            trays = profile.discs.change_llr(lab[26:], np.arange(26, 28))
    prep["lab"] = lab
    prep["evidence"] = StripEvidence(lab, Lw, Lb, foreign, bw, bb, trays, bar_foreign)
    front = np.count_nonzero(foreign[:, counter.front_idx], axis=1) / counter.front_n
    hand_front = None
    if ODD_TOPS:  # runs of checkers unlike the learned tops are no hand (but a point's front
        # as it is still tells whether a hand in view hides it, and the lone tops' guard)
        seen, hand_blob, blob = _odd_tops_out(foreign, prep)
        if seen is not foreign:
            hand_front = np.count_nonzero(seen[:, counter.front_idx], axis=1) / counter.front_n
    else:
        blob = hand_blob = _blob(foreign, prep)
    return HandEvidence(Lw, Lb, bw, bb, front, DISC_SCALE, trays, blob, bar_foreign,
                        front if hand_front is None else hand_front, hand_blob,
                        seen if ODD_TOPS else foreign)


@dataclass
class HandEvidence(DiscEvidence):
    """``DiscEvidence`` with what the hand's tests look at: each point's front share and the
    solid patch with runs of odd-looking checkers taken out (``ODD_TOPS``), where ``foreign``
    and ``blob`` keep them as they are (a hand in view hides the points it covers; relearned
    tops that turn a stack foreign are taken back, ``guarded_lone_tops``)."""

    hand_front: np.ndarray | None = None
    hand_blob: float | None = None
    hand_seen: np.ndarray | None = None  # the foreign map the hand's tests look at


def _hand_front(disc: DiscEvidence) -> np.ndarray:
    """Per point: the front share the hand's tests look at."""
    hf = getattr(disc, "hand_front", None)
    return np.asarray(disc.foreign if hf is None else hf)[:24]


def _hand_blob(disc: DiscEvidence) -> float:
    """The solid patch the hand's tests look at."""
    hb = getattr(disc, "hand_blob", None)
    return float(disc.blob if hb is None else hb)


def lone_patch(disc: DiscEvidence, profile: BoardProfile, prep: dict[str, Any]) -> bool:
    """Whether every point that passes the hand's tests (``HAND_BLOB``, ``HAND_FRONT``) does so
    alone (``LONE_PATCH``): most of its foreign front pixels on an empty look still borrowed
    (``LONE_BORROWED``), its own signal under ``LONE_MAX`` and its row neighbours' under
    ``LONE_BESIDE``. The signal is a point's blob over ``HAND_BLOB`` or its front over
    ``HAND_FRONT``, whichever is more (a call past 1)."""
    seen = getattr(disc, "hand_seen", None)
    if seen is None or profile.discs is None:
        return False
    sig = np.maximum(_blobs(seen, prep) / HAND_BLOB, _hand_front(disc) / HAND_FRONT)
    hot = np.flatnonzero(sig > 1.0)
    if not len(hot) or float(sig.max()) >= LONE_MAX:
        return False
    px = prep["discs"][0].idx[prep["counter"].front_idx]  # the front's strip pixels
    for i in hot:
        near = [j for j in (i - 1, i + 1) if 0 <= j < 24 and j // 12 == i // 12]
        if any(sig[j] >= LONE_BESIDE for j in near):
            return False
        odd = seen[i, prep["counter"].front_idx]
        if not odd.any() or float(profile.discs.borrowed(int(i))[px[odd]].mean()) < LONE_BORROWED:
            return False
    return True


def _point_models(prep: dict[str, Any], i: int) -> Gathered:
    """Point ``i``'s gathered disc models alone, contiguous (a view of one point's row of the
    gathered layout is strided across all 24, several times slower to read); kept in
    ``prep["disc_rows"]`` until the point learns its empty look or the models are gathered
    again."""
    rows = prep.setdefault("disc_rows", {})
    if i not in rows:
        g = prep["discs"][0]
        rows[i] = Gathered(g.idx, *(np.ascontiguousarray(a[:, i:i + 1])
                                    for a in (g.mean, g.inv, g.const)),
                           censor=None if g.censor is None else g.censor[i:i + 1],
                           blind=None if g.blind is None else g.blind[i:i + 1])
    return rows[i]


def _odd_tops_out(foreign: np.ndarray, prep: dict[str, Any]
                  ) -> tuple[np.ndarray, float, float]:
    """``foreign`` with each point's run of odd-looking checkers (``vision.oddtops``) cleared,
    unless a neighbouring point of its row shows a solid foreign patch of its own (more than
    ``NEIGHBOUR_BLOB`` of its front, its own run cleared) or both show solid runs of one
    length (``PAIR_ARM``): a hand is wider than a point, so one whose edge happens to end round
    over a point shows beside it too. Also the result's
    ``_blob`` (each point's share is its own: the erosion does not cross points) and
    ``foreign``'s."""
    slots = prep["counter"].slots
    shares = slot_shares(foreign, slots)
    if not any(checker_runs(shares, slots, np.zeros(len(shares), bool))):  # none at all
        blob = _blob(foreign, prep)
        return foreign, blob, blob
    blobs = _blobs(foreign, prep)
    runs = checker_runs(shares, slots, blobs > HAND_BLOB)
    if not any(runs):
        return foreign, float(blobs.max()), float(blobs.max())
    out = unexplained(foreign, slots, runs)
    cleared = _blobs(out, prep)
    beside = cleared > NEIGHBOUR_BLOB
    solid = blobs > HAND_BLOB
    arm = []
    for i, run in enumerate(runs):
        near = [j for j in (i - 1, i + 1) if 0 <= j < 24 and j // 12 == i // 12]
        if run and (any(beside[j] for j in near) or (PAIR_ARM and solid[i] and any(
                solid[j] and len(runs[j]) == len(run) for j in near))):
            arm.append(i)
    for i in arm:  # a hand's edge, not checkers
        out[i] = foreign[i]
        cleared[i] = blobs[i]
    return out, float(cleared.max()), float(blobs.max())


def _blob(foreign: np.ndarray, prep: dict[str, Any]) -> float:
    """The largest of ``_blobs``."""
    return float(_blobs(foreign, prep).max())


def _blobs(foreign: np.ndarray, prep: dict[str, Any]) -> np.ndarray:
    """Per point: the share of its front (the first ``FRONT_ROWS`` of its
    strip, its middle ``FRONT_COLS`` across) that is foreign with all its 3 x 3 neighbours: a
    hand or arm is a solid patch where a metal checker's glints or a marble's veins are
    scattered pixels. A strip pixel is foreign when it is so for every slot whose disc covers
    it (a checker's pixel fits the slot it is centred on, not the others)."""
    if "front_px" not in prep:
        idx = prep["discs"][0].idx
        L = prep["lab"].shape[1] // SW
        c0, c1 = int(SW * (0.5 - FRONT_COLS / 2)), int(SW * (0.5 + FRONT_COLS / 2))
        grid = np.arange(L * SW).reshape(L, SW)[:int(L * FRONT_ROWS) + 1, c0 - 1:c1 + 1]
        order = np.argsort(idx, kind="stable")
        where = np.searchsorted(idx[order], grid.ravel())
        covered = idx[order][np.minimum(where, len(idx) - 1)] == grid.ravel()
        take = np.isin(idx[order], grid.ravel())
        keep = order[take]  # disc pixels on the front, grouped by strip pixel
        starts = np.flatnonzero(np.r_[True, np.diff(idx[keep]) != 0])
        slot = np.full(grid.size, -1, np.int64)  # each front strip pixel's group
        slot[covered] = np.arange(covered.sum())
        # each group's k-th disc pixel (its last again past its end: min(x, x) is x), so the
        # groups (1 or 2 pixels) take their minimum column by column (reduceat: 3x slower)
        ends = np.r_[starts[1:], len(keep)]
        firsts = [keep[np.minimum(starts + k, ends - 1)]
                  for k in range(int(np.max(ends - starts, initial=0)))]
        prep["front_px"] = (firsts, slot, grid.shape)
    firsts, slot, shape = prep["front_px"]
    px = foreign[:, :0]
    for k, col in enumerate(firsts):
        px = foreign[:, col] if k == 0 else np.minimum(px, foreign[:, col])
    m = np.where(slot >= 0, px[:, np.maximum(slot, 0)], False).astype(np.uint8)
    r, c = shape
    m = m.reshape(24, r, c).transpose(1, 0, 2).reshape(r, 24 * c)
    e = cv2.erode(m, np.ones((3, 3), np.uint8)).reshape(r, 24, c)[:-1, :, 1:-1]
    return e.mean((0, 2))


def read(frame: np.ndarray, profile: BoardProfile, settled: bool = True,
         pins: bool | None = None) -> Observation:
    """Read one frame of the profile's board. ``pins``: the game pins checkers (Plakoto), so
    pins the counts miss are looked for under single-colour stacks (default: the profile's
    ``meta["pins"]``, set when it was calibrated for such a variant)."""
    prep = prepared(profile, (frame.shape[1], frame.shape[0]))
    strips = sample(frame, prep["maps"], N_STRIPS)
    blocks = mem = redo = None
    key = (pins, frame.shape[:2])
    if settled and readmemory.REMEMBER and profile.discs is not None:  # a still board
        blocks = block_means(strips)
        mem, redo = readmemory.recall(profile, blocks, key)
        if mem is not None and redo is not None and not redo.any():  # nothing changed
            regions, hand, base, conf = mem.read
            return Observation(regions=list(regions), dice=observe_dice(
                frame, profile, regions, strips[:24]), cube=remembered_cube(frame, profile),
                hand=hand, settled=settled, confidence=conf, base=base)
    disc = disc_evidence(strips, profile, prep, redo, None if mem is None else mem.evidence)
    ev = None if disc is not None else colour_evidence(strips, profile, prep)
    if disc is not None:
        hand = _hand_blob(disc) > HAND_BLOB or float(np.max(_hand_front(disc))) > HAND_FRONT
        if hand and LONE_PATCH:
            hand = not lone_patch(disc, profile, prep)
        # with no hand in view a point is counted however foreign it looks (a checker under
        # odd light, a die on it): only a hand hides one
        unseen = UNSEEN_FRACTION if hand else 2.0  # (dev 700000-39: 14 -> 10 such misreads)
        regions, _best = prep["counter"].regions(ev, profile.scale, disc, unseen, redo,
                                                 None if mem is None else mem.points)
        if hand and HAND_EDGES:
            regions = _hand_edges(regions, disc, prep)
        if hand and OVER_FIFTEEN:
            regions = fifteen_at_most(regions, _bar_covered(disc))
    else:
        regions, _best = prep["counter"].regions(ev, profile.scale, disc)
        hand = float(ev.foreign[:24].mean()) > HAND_FRACTION  # type: ignore[union-attr]
        if hand and TIES_UNSEEN:  # a point a hand partly hides, its read a tie: unseen
            regions = tied_unseen(regions, ev.foreign[:24].mean(1),  # type: ignore[union-attr]
                                  prep["counter"].points[0].first_row)
    base: tuple[str | None, ...] = ()
    learned: list[int] = []
    regathered = False
    if settled and not hand:  # which colour lies at the base of a mixed point (a pin)
        if profile.meta.get("pins", False) if pins is None else pins:
            regions, under = find_pins(frame, profile, regions)
        else:
            under = base_colours(frame, profile, regions)
        if any(under):
            base = tuple(under)
        if disc is not None:
            learned = learn_empty_looks(profile, prep, regions, redo)
            if guarded_lone_tops(profile, prep, regions, strips, disc):  # tops relearned
                regathered = True
                _regather(profile)
    conf = _confidence(regions)
    if blocks is not None:  # a point that learned its empty look is evaluated again with it
        if regathered:
            readmemory.forget(profile)
        else:
            pts = prep["counter"].points_read
            row = prep["counter"].points[0].first_row
            unsure = [i for i, d in enumerate(pts) if sureness(d, row) < readmemory.SURE]
            readmemory.remember(profile, blocks, key, prep["evidence"],
                                (tuple(regions), hand, base, conf), pts, redo,
                                learned + unsure + _first_looks(profile))
    dice = cube = None
    if settled:  # the referee judges settled frames only: moving ones skip the slower readers
        dice = observe_dice(frame, profile, regions, strips[:24])
        cube = remembered_cube(frame, profile)  # the last frame's when its strips are the same
    return Observation(regions=regions, dice=dice, cube=cube, hand=hand, settled=settled,
                       confidence=conf, base=base)


def _hand_edges(regions: list, disc: DiscEvidence, prep: dict[str, Any]) -> list:
    """``vision.checkers.hand_edges`` on this frame's evidence (the hand's foreign map)."""
    seen = getattr(disc, "hand_seen", None)
    if seen is None:
        return regions
    return hand_edges(regions, disc.foreign, _blobs(seen, prep),
                      prep["counter"].points[0].first_row)


def _regather(profile: BoardProfile) -> None:
    """Drop every size's gathered disc parameters (the profile's checker tops changed)."""
    for k in [k for k in profile._cache if k.startswith("prep")]:
        profile._cache[k].pop("discs", None)
        profile._cache[k].pop("disc_rows", None)


def _hand_like(disc: DiscEvidence) -> np.ndarray:
    """Per point: its front foreign enough to be called a hand (``HAND_FRONT``), runs of
    odd-looking checkers included (relearned tops that make them so are what is guarded)."""
    return np.asarray(disc.foreign)[:24] > HAND_FRONT


def guarded_lone_tops(profile: BoardProfile, prep: dict[str, Any], regions: list,
                      strips: np.ndarray, disc: DiscEvidence) -> bool:
    """``learn_lone_tops`` on a settled frame with no hand (``disc``: its evidence), taking the
    relearned tops back when they make this same frame look like a hand (``LONE_GUARD``): the
    tops shifted toward a lone checker's light no longer fit a tall stack's checkers, whose
    front turns foreign, so the reader called a hand and hid the stack on every later frame
    (issue 9, held-out Plakoto 900002: point 0's fifteen black from frame 57 on). A colour
    taken back keeps its stack-learned tops and is not relearned again. True when the tops
    changed (the caller gathers them again)."""
    discs = profile.discs
    if discs is None or not profile.meta.get("stack_tops"):  # nothing left to relearn
        return False
    mean = discs.mean.copy()
    side = None if discs.side_mean is None else discs.side_mean.copy()
    if not learn_lone_tops(profile, prep, regions):
        return False
    if not LONE_GUARD:
        return True
    _regather(profile)
    after = disc_evidence(strips, profile, prep)
    if after is None:
        return True
    worse = (_hand_like(after) & ~_hand_like(disc)).any() or (
        after.blob > HAND_BLOB >= disc.blob)
    if worse:  # take the changed colours' tops back and keep them
        moved = [c for c in (0, 1) if not np.array_equal(discs.mean[c], mean[c])]
        discs.mean[:] = mean
        if side is not None and discs.side_mean is not None:
            discs.side_mean[:] = side
        profile.meta["stack_tops"] = [c for c in profile.meta.get("stack_tops", ())
                                      if int(c) - 1 not in moved]
    return True


def _bar_covered(disc: DiscEvidence) -> bool:
    """Whether the hand may be over the bar (:func:`vision.checkers.hand_over_bar`; so when its
    halves' foreign shares were not measured)."""
    return disc.bar_foreign is None or hand_over_bar(disc.bar_foreign)


def fifteen_at_most(regions: list, bar_covered: bool = True) -> list:
    """With a hand in view: while a colour's most likely counts over the seen regions add up to
    more than its ``CHECKERS``, the suspect region holding most of that colour is reported
    unseen (a sleeve or a hand read as checkers: a tray of fifteen, two points of eleven). The
    suspects are the trays, the bar (a hand reaches over them to bear off or enter) and points
    read past ``TALL``; the largest count goes first, a tray or the bar on a tie (the trays and
    the bar always first gave up a bar of one or two for a phantom stack elsewhere: tuning
    700000+ 40 x 5 wrong regions 86 -> 83, 1000+ 64 x 5 the same). The bar is a suspect only
    when ``bar_covered`` (a hand over it): a bar the hand leaves clear was read right each time it
    was given up for a phantom on a short point (tuning 700000+ 32 x 5 and 1000+ 40 x 5: four
    bars of one to four given up at bar halves 0.00-0.16 foreign, the one phantom bar at 0.50)."""
    out = list(regions)
    for c in (0, 1):
        while True:
            held = []
            for r, d in enumerate(out):
                if d:
                    k = max(d.items(), key=lambda kv: kv[1])[0]
                    if k[c]:
                        held.append((int(r >= 24), k[c], r))
            # only the trays, the bar and points past a first row are suspects: a visible
            # point read right is not given up for a phantom elsewhere
            suspects = [h for h in held if (h[0] and (bar_covered or h[2] >= WHITE_OFF))
                        or h[1] > TALL]
            if sum(n for _, n, _ in held) <= CHECKERS or not suspects:
                break
            out[max(suspects, key=lambda h: (h[1], h[0], h[2]))[2]] = None
    return out


def learn_empty_looks(profile: BoardProfile, prep: dict[str, Any], regions: list,
                      redo: np.ndarray | None = None) -> list[int]:
    """Points whose empty look is still borrowed from their kind (they held checkers in the
    calibration frame) learn it from a settled frame with no hand, past the end of a stack
    read with near certainty (all of the point when it is read empty); the points that did.
    With ``LEARN_TWICE`` a point learns only the pixels where this read's strip agrees with
    the last read's that could have taught it (within ``LEARN_AGREE``): the first such read
    is kept pending (``PENDING_KEY``; the caller evaluates the strip again next frame, once)
    and a pixel a missed hand covered in one of the two is not learned. ``redo``: the strips this
    read evaluated (None: all); one it did not shows the pending frame's pixels again, which
    confirm nothing."""
    discs = profile.discs
    assert discs is not None
    lay = profile.layout
    per_d = lay.d * SW / lay.pw  # strip rows per checker diameter
    rows = np.arange(discs.bg_mean.shape[1]) // SW
    pending: dict[int, tuple[np.ndarray, np.ndarray, bool]] = \
        profile._cache.setdefault(PENDING_KEY, {})
    learned: list[int] = []
    for i in range(24):
        r = regions[i]
        if not r or not discs.borrowed(i).any():
            pending.pop(i, None)
            continue
        (w, b), p = max(r.items(), key=lambda kv: kv[1])
        n = w + b
        if p < LEARN_SURE or n > lay.shape.row_max:
            pending.pop(i, None)
            continue
        past = rows >= (n * per_d + LEARN_GAP if n else 0)
        lab = prep["lab"][i]
        if LEARN_TWICE:
            if redo is not None and not redo[i]:
                continue  # the pending frame's own pixels: no second look
            last = pending.get(i)
            pending[i] = (lab.copy(), past, last is None)
            if last is None:
                continue
            agree = np.abs(lab.astype(np.int16) - last[0]).max(-1) <= LEARN_AGREE
            past = past & last[1] & agree
        if discs.learn_empty(i, lab, past):
            learned.append(i)
            if "discs" in prep:
                discs.refresh_empty(prep["discs"][0], i, i, discs.learned)
                prep.get("disc_rows", {}).pop(i, None)  # its models changed
        if not discs.borrowed(i).any():
            pending.pop(i, None)
    return learned


def _first_looks(profile: BoardProfile) -> list[int]:
    """The points whose empty look one read could teach, to be looked at again next frame (a
    point whose second look taught nothing waits for its strip to change)."""
    return [i for i, p in profile._cache.get(PENDING_KEY, {}).items() if p[2]]


def _confidence(regions: list) -> float:
    """The product of each seen region's top probability (how sure the whole read is)."""
    c = 1.0
    for r in regions:
        if r:
            c *= max(r.values())
    return float(c)
