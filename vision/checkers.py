"""Checker counting: per-pixel colour evidence on every strip, turned into likelihoods over
(white count, black count) for the 24 points, both bars and both trays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.observation import BLACK_BAR, BLACK_OFF, WHITE_BAR, WHITE_OFF

from .appearance import LLR_CLIP, Background, ColourModel
from .discs import DiscEvidence, Slots, bar_dists, make_slots, slot_dists
from .geometry import Layout, stack_centres
from .stacks import (
    MaskSet,
    bar_masks,
    complete_fifteen,
    hypotheses,
    point_masks,
    stack_scores,
    to_dicts,
    tray_masks,
)
from .strips import BAR_BOTTOM, BAR_TOP, SW, TRAY_BOTTOM, TRAY_TOP

UNIFORM_LOG = float(-3 * np.log(256.0))  # log density of "any colour at all"
FOREIGN_GAIN = 4.0  # a foreign object is this much (log) likelier than uniform colour
UNSEEN_FRACTION = 0.5  # a point strip this foreign (a hand over it) is reported unseen (but
# see UNSEEN_SURE)
HIDDEN_LOW = 0.2  # with a hand in view, a point this foreign is unseen when its most likely
HIDDEN_SURE = 0.7  # count is less sure than this (a hand's skin read as checkers)
UNSEEN_SURE = 0.999  # a point over UNSEEN_FRACTION foreign (a hand in view) keeps a read
# this sure (its most likely count's probability; a hand's edge or its shadow over a point the
# truth does not call hidden: tuning 700000+ 40 x 5 and 1000+ 64 x 5, 4 unseen read right, none
# lost; the tower sureness instead kept a sleeve read as a 5-stack, 0.9999 alike)
BASE_CLEAR = 0.1  # the colour read keeps an over-UNSEEN_FRACTION point read empty when less
# than this share of its first checker's place is foreign (base_seen_empty): a real photo's
# empty point under a hand's fingers (dices6: 0.06 of that place foreign; its empty points in
# plain view 0.27-0.57, the one-shot empty look is rough near the edge)
NEXT_CLEAR = 0.5  # ... and less than this of its second place (dices6: 0.36): a stack whose
# first place a one-shot quad's edge misses shows from the second on (held-out 900022 f0: 0.98;
# one-shot reads of tuning 700000+ 32 x 5: 3 points kept empty right, 3 wrong in frames read
# 11 of 28; with this 2 right, 1 wrong)
TIED = 1.2  # with a hand in view, a colour read's point over HIDDEN_LOW foreign whose likeliest
# count is less than this many times as likely as the next is unseen (``tied_unseen``)
EDGE_SURE = 0.9995  # with a hand in view, a point over HIDDEN_LOW foreign read less sure than this
EDGE_BLOB = 0.35  # is unseen when its own front holds a solid foreign patch over this share
EDGE_BESIDE = 0.4  # or a row neighbour's front is more foreign than this and than its own (the
# hand's edge over the point, its skin read as a checker or two, often 0.99+ sure: tuning
# 700000+ frames perfect 79.4 -> 80.6 % (EDGE_SURE 0.99: 80.0), no right read of a point the
# hand does not hide made unseen; ``hand_edges``)
BAR_LOW = 0.4  # with a hand in view, when a bar half's disc pixels are this foreign, a bar
BAR_SURE = 0.55  # region read less sure than this is unseen (a hand over the bar read as
# checkers: tuning 700000+ 40 x 5 and 1000+ 64 x 5, 4 bars hidden by the hand and misread now
# unseen, none lost; a right read under a hand 0.573 sure, and one 0.515 at 0.33 foreign)
COMPLETE = True  # with no hand in view, a colour one short of fifteen or one over takes the
# difference on its tray when the tray's count is in doubt (``stacks.complete_fifteen``)
LAYER_PENALTY = 2.0  # nats per checker beyond the first row: a half-layer checker over two of
# the first row explains little the first row does not (dev seeds 700000+: 5-stacks read as 12)


@dataclass
class Evidence:
    """Per strip pixel: log-likelihood ratios of white and black checker against the empty board,
    of "anything" against the empty board, and a foreign-object (hand, die) map."""

    Lw: np.ndarray  # (N, P)
    Lb: np.ndarray
    Lany: np.ndarray
    foreign: np.ndarray  # (N, P) bool


def evidence(lab: np.ndarray, kinds: np.ndarray, white: ColourModel, black: ColourModel,
             bg: Background, rows: list[int] | None = None) -> Evidence:
    """Colour evidence of every strip, or only of ``rows`` (the others say nothing)."""
    if rows is not None:
        part = evidence(lab[rows], kinds[rows], white, black, bg)
        full = [np.zeros((lab.shape[0],) + a.shape[1:], a.dtype) for a in
                (part.Lw, part.Lb, part.Lany, part.foreign)]
        for f, a in zip(full, (part.Lw, part.Lb, part.Lany, part.foreign), strict=True):
            f[rows] = a
        return Evidence(*full)
    n = lab.shape[0]
    lbg = bg.log_p(lab, kinds)
    lw, lb = white.log_p(lab), black.log_p(lab)
    other = UNIFORM_LOG + FOREIGN_GAIN
    foreign = (other > lbg) & (other > lw) & (other > lb)
    # robust: every class may also be "something else" (a die, a glint), so no single pixel can
    # say more than the gap between a class's best density and the foreign floor
    rbg, rw, rb = (np.logaddexp(x, other) for x in (lbg, lw, lb))
    Lw = np.clip(rw - rbg, -LLR_CLIP, LLR_CLIP).reshape(n, -1)
    Lb = np.clip(rb - rbg, -LLR_CLIP, LLR_CLIP).reshape(n, -1)
    # "anything but the empty board" (a checker of either colour or something else) against the
    # empty board: what the trays count, by the length of the occupied strip
    Lany = np.clip(np.maximum(np.maximum(rw, rb), other) - lbg, -LLR_CLIP, LLR_CLIP).reshape(n, -1)
    return Evidence(Lw, Lb, Lany, foreign.reshape(n, -1))


class Counter:
    """Mask sets of one layout, built once."""

    def __init__(self, lay: Layout, trays: tuple[MaskSet, MaskSet] | None = None) -> None:
        """``trays``: the top and bottom tray halves' masks (placed by the camera's pose),
        else both the flat ones."""
        # players build first rows of 5 or of 6 on the same board: both layouts are tried
        rows = sorted({lay.shape.row_max, 5, 6})
        self.points: list[MaskSet] = [point_masks(lay, r) for r in rows]
        self.bar: MaskSet = bar_masks(lay)
        self.tray: MaskSet = tray_masks(lay)
        self.trays: tuple[MaskSet, MaskSet] = trays or (self.tray, self.tray)
        self.hyps = hypotheses(self.points[0].nmax)
        self.points_read: list = []  # the last ``regions`` call's 24 point likelihoods
        self.bar_hyps = hypotheses(self.bar.nmax, mixed=False)
        self.slots: Slots = make_slots(lay, slot_dists(rows))
        # disc pixels of the first row's five slots away from the strip's sides (where a hand
        # over the point shows, and a neighbour's stack or the frame does not; all of a point's
        # slots' pixels read worse: tuning 700000+ / 1000+ 3 / 1 frames fewer perfect)
        self.front = np.concatenate([(d < 5) & (np.abs(i % SW + 0.5 - SW / 2) < SW * 0.3)
                                     for d, i in zip(self.slots.dists, self.slots.idx,
                                                     strict=True)])
        self.front_idx = np.flatnonzero(self.front)
        self.front_n = max(len(self.front_idx), 1)
        # every point mask set's checker columns summed per slot in one product per slot (the
        # mask sets side by side: column offsets ``_offsets``)
        self._offsets = np.cumsum([0] + [ms.A.shape[1] for ms in self.points]).tolist()
        self._parts = _fused([
            _by_slot(ms, self.slots, [[d for d, _ in stack_centres(n, r)]
                                      for n in range(ms.nmax + 1)])
            for ms, r in zip(self.points, rows, strict=True)], self._offsets,
            self.slots.bounds())
        bd = bar_dists(lay, self.bar.nmax)
        self.bar_slots: Slots = make_slots(lay, sorted(set(bd)))
        self._bar_parts = _fused([_by_slot(self.bar, self.bar_slots,
                                           [bd[:n] for n in range(self.bar.nmax + 1)])],
                                 [0, self.bar.A.shape[1]], self.bar_slots.bounds())
        # a tray half's count n scores the sum of its checkers' columns: one product
        self._tray_sums = []
        for tm in self.trays:
            C = np.zeros((tm.A.shape[1], tm.nmax + 1), np.float32)
            for n in range(1, tm.nmax + 1):
                C[tm.col_of[n], n] = 1.0
            self._tray_sums.append(C)

    def regions(self, ev: Evidence | None, scale: float,
                disc: DiscEvidence | None = None, unseen: float = UNSEEN_FRACTION,
                redo: np.ndarray | None = None, kept: list | None = None
                ) -> tuple[list[dict[tuple[int, int], float] | None], list[tuple[int, int]]]:
        """The 28 region likelihoods and each point strip's most likely (white, black).
        ``disc``: per-slot disc evidence of the points (white, black LLRs and their scale),
        used instead of the colour evidence when the profile has disc templates. With ``kept``
        (an earlier read's ``points``, see below) only the points of ``redo`` are scored
        again, the others keep theirs. Each point's likelihoods before any is reported unseen
        are left in ``self.points_read``."""
        scores = None
        rows = np.arange(24) if kept is None or redo is None or disc is None else \
            np.flatnonzero(redo[:24])
        if disc is not None and len(rows):  # white's and black's sums of every mask set
            n = len(rows)
            lw, lb = (disc.Lw, disc.Lb) if n == 24 else (disc.Lw[rows], disc.Lb[rows])  # (no
            # copy of all 24 rows before the one that stacks them)
            S = _sums(np.concatenate([lw, lb]), self._offsets[-1], self._parts)
            S *= disc.scale
        for which, ms in enumerate(self.points):
            if disc is not None:
                if not len(rows):
                    break
                o0, o1 = self._offsets[which], self._offsets[which + 1]
                sc = stack_scores(S[:n, o0:o1], S[n:, o0:o1], ms, self.hyps, LAYER_PENALTY)
            else:
                assert ev is not None
                sc = stack_scores((ev.Lw[:24] @ ms.A) * scale, (ev.Lb[:24] @ ms.A) * scale, ms,
                                  self.hyps)
            scores = sc if scores is None else np.maximum(scores, sc)
        got = to_dicts(scores, self.hyps) if scores is not None else []
        if len(rows) == 24:
            pts = got
        else:
            assert kept is not None
            pts = list(kept)
            for r, d in zip(rows, got, strict=True):
                pts[r] = d
        self.points_read = pts
        best = [max(p.items(), key=lambda kv: kv[1])[0] for p in pts]
        regions: list[dict[tuple[int, int], float] | None] = list(pts)
        f = disc.foreign if disc is not None else ev.foreign[:24].mean(1)  # type: ignore[union-attr]
        row = self.points[0].first_row
        for i in np.flatnonzero(np.asarray(f) > unseen):
            r = regions[i]
            if disc is None and base_seen_empty(r, ev.foreign[i], self.points[0]):  # type: ignore[union-attr]
                continue
            if disc is None or not r or max(r.values()) < UNSEEN_SURE:
                regions[i] = None
        if disc is not None and unseen < 1.0:  # a hand in view: a point it partly hides is
            # unseen unless its read is still clear
            for i in np.flatnonzero(np.asarray(f) > HIDDEN_LOW):
                r = regions[i]
                if r and sureness(r, row) < HIDDEN_SURE:
                    regions[i] = None
        # the bar: each half holds one colour; a colour's total is the sum over both halves
        halves = []
        if disc is not None:  # rows: white top, white bottom, black top, black bottom
            B = _sums(np.concatenate([disc.bar_Lw, disc.bar_Lb]), self.bar.A.shape[1],
                      self._bar_parts)
            B *= disc.scale
        for h, idx in enumerate((BAR_TOP, BAR_BOTTOM)):
            if disc is not None:
                Sw, Sb = B[h:h + 1], B[2 + h:3 + h]
            else:
                assert ev is not None
                Sw = (ev.Lw[idx:idx + 1] @ self.bar.A) * scale
                Sb = (ev.Lb[idx:idx + 1] @ self.bar.A) * scale
            halves.append(to_dicts(stack_scores(Sw, Sb, self.bar, self.bar_hyps),
                                   self.bar_hyps)[0])
        wbar = _convolve(*(_marginal(h, 0) for h in halves))
        bbar = _convolve(*(_marginal(h, 1) for h in halves))
        regions += [None] * 4
        regions[WHITE_BAR] = {(n, 0): p for n, p in wbar.items()}
        regions[BLACK_BAR] = {(0, n): p for n, p in bbar.items()}
        if disc is not None and unseen < 1.0 and hand_over_bar(disc.bar_foreign):
            for region in (WHITE_BAR, BLACK_BAR):
                if max(regions[region].values()) < BAR_SURE:
                    regions[region] = None
        # trays: white's at the bottom end, black's at the top; colour is not looked at
        for idx, region, white in ((TRAY_BOTTOM, WHITE_OFF, True), (TRAY_TOP, BLACK_OFF, False)):
            tm = self.trays[idx - TRAY_TOP]
            if disc is not None:
                T = (disc.tray_any[idx - TRAY_TOP:idx - TRAY_TOP + 1] @ tm.A) * disc.scale
            else:
                assert ev is not None
                T = (ev.Lany[idx:idx + 1] @ tm.A) * scale
            sc = (T @ self._tray_sums[idx - TRAY_TOP]).astype(np.float32)
            keys = [(n, 0, 0) if white else (0, n, 0) for n in range(tm.nmax + 1)]
            regions[region] = to_dicts(sc, keys)[0]
        if COMPLETE and disc is not None and unseen >= 1.0:  # no hand in view
            regions = complete_fifteen(regions, (WHITE_OFF, BLACK_OFF))
        return regions, best


def tied_unseen(regions: list, foreign: np.ndarray, row: int) -> list:
    """With a hand in view (the colour read, one-shot): the points over ``HIDDEN_LOW`` foreign
    (``foreign``: each point's share) whose likeliest count is less than ``TIED`` times as likely
    as the next, and less sure than ``HIDDEN_SURE`` (``sureness``; ``row``: a first row's length;
    a tall stack's count spread over heights the camera cannot tell apart is sure of its
    colour's row), reported unseen: the foreign pixels leave their read flat, every count
    alike, and the count taken would be the tie's order (real photo dices6, a sleeve over its
    third top point, 0.49 foreign: five counts at 0.197 each, one white taken)."""
    out = list(regions)
    for i in np.flatnonzero(np.asarray(foreign)[:24] > HIDDEN_LOW):
        r = out[i]
        if r and len(r) > 1 and sureness(r, row) < HIDDEN_SURE:
            p = sorted(r.values(), reverse=True)
            if p[0] < TIED * p[1]:
                out[i] = None
    return out


def base_seen_empty(r: dict[tuple[int, int], float] | None, foreign: np.ndarray,
                    ms: MaskSet) -> bool:
    """Whether a point mostly hidden (a hand over its tip) is still seen empty: read empty at
    least ``UNSEEN_SURE`` and its first checker's place at the board edge is seen, less than
    ``BASE_CLEAR`` of it foreign, and its second mostly seen (``NEXT_CLEAR``). Checkers stack
    from the edge, so a point with that place empty holds none, whatever hides the rest (the
    colour read only: the disc read keeps any read that sure). ``foreign``: the point strip's
    foreign pixels (flattened)."""
    if not r or max(r.items(), key=lambda kv: kv[1])[0] != (0, 0) or \
            r[(0, 0)] < UNSEEN_SURE:
        return False
    first, second = (ms.A[:, ms.col_of[2][k]] > 0 for k in (0, 1))
    return float(np.mean(foreign[first])) < BASE_CLEAR and \
        float(np.mean(foreign[second])) < NEXT_CLEAR


def hand_edges(regions: list, foreign: np.ndarray, blobs: np.ndarray, row: int) -> list:
    """With a hand in view: the points a hand's edge reaches over reported unseen
    (``EDGE_SURE``, ``EDGE_BLOB``, ``EDGE_BESIDE``). ``foreign``: each point's front share of
    foreign pixels; ``blobs``: the share of it in a solid patch; ``row``: a first row's
    length (``sureness``). A hand's skin over an empty point's edge fits a light checker well
    enough to be read as one or two, fairly sure; the solid patch, or the hand's body over the
    point beside it, tells it from a checker under odd light."""
    out = list(regions)
    f = np.asarray(foreign, float)[:24]
    for i in np.flatnonzero(f > HIDDEN_LOW):
        r = out[i]
        if not r or sureness(r, row) >= EDGE_SURE:
            continue
        near = [j for j in (i - 1, i + 1) if 0 <= j < 24 and j // 12 == i // 12]
        if blobs[i] > EDGE_BLOB or any(f[j] > max(EDGE_BESIDE, f[i]) for j in near):
            out[i] = None
    return out


def hand_over_bar(bar_foreign: np.ndarray | None) -> bool:
    """Whether a bar half's disc pixels are foreign past :data:`BAR_LOW` (a hand over the bar);
    ``bar_foreign``: each half's share, None when not measured (False)."""
    return bar_foreign is not None and float(np.max(bar_foreign)) > BAR_LOW

def sureness(r: dict[tuple[int, int], float], row: int) -> float:
    """How sure a point's read is: its most likely count's probability; for a pure stack of at
    least a full first ``row``, that of its colour holding at least a row (a tall stack's count
    is spread over the heights the camera cannot tell apart, see ``stacks.hidden_counts``)."""
    (w, b), p = max(r.items(), key=lambda kv: kv[1])
    if w and b or w + b < row:
        return p
    if w:
        return sum(q for (w2, b2), q in r.items() if w2 >= row and not b2)
    return sum(q for (w2, b2), q in r.items() if b2 >= row and not w2)


def _by_slot(ms: MaskSet, slots: Slots, centres: list[list[float]]
             ) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Per slot: (slot, the mask set's columns of checkers centred there, their masks
    restricted to the slot's disc pixels). ``centres[n]``: the slot distances of an n-stack."""
    where = {d: s for s, d in enumerate(slots.dists)}
    cols: dict[int, list[int]] = {}
    for n in range(1, ms.nmax + 1):
        for k, dist in enumerate(centres[n]):
            cols.setdefault(where[round(dist, 4)], []).append(ms.col_of[n][k])
    out = []
    for s, cs in sorted(cols.items()):
        c = np.asarray(cs, np.int64)
        out.append((s, c, ms.A[slots.idx[s]][:, c]))
    return out


def _fused(per_set: list[list[tuple[int, np.ndarray, np.ndarray]]], offsets: list[int],
           bounds: list[int]) -> list[tuple[slice, np.ndarray, np.ndarray]]:
    """Per slot: (its disc pixels' slice of the per-slot LLRs, the columns of every mask set
    (offset by ``offsets``) of checkers centred there, their masks side by side): one product
    per slot sums all the mask sets' checkers centred on it."""
    by: dict[int, tuple[list[np.ndarray], list[np.ndarray]]] = {}
    for k, parts in enumerate(per_set):
        for s, c, A in parts:
            cols, mats = by.setdefault(s, ([], []))
            cols.append(c + offsets[k])
            mats.append(A)
    return [(slice(bounds[s], bounds[s + 1]), np.concatenate(cols),
             np.ascontiguousarray(np.concatenate(mats, axis=1), dtype=np.float32))
            for s, (cols, mats) in sorted(by.items())]


def _sums(L: np.ndarray, ncols: int, parts: list[tuple[slice, np.ndarray, np.ndarray]]
          ) -> np.ndarray:
    """Per-checker evidence sums (rows of ``L`` x mask-set columns) from per-slot disc LLRs."""
    S = np.zeros((L.shape[0], ncols), np.float32)
    for sl, c, A in parts:
        S[:, c] = L[:, sl] @ A
    return S


def _marginal(dist: dict[tuple[int, int], float], which: int) -> dict[int, float]:
    out: dict[int, float] = {}
    for k, p in dist.items():
        out[k[which]] = out.get(k[which], 0.0) + p
    return out


def _convolve(a: dict[int, float], b: dict[int, float], keep: float = 1e-5) -> dict[int, float]:
    out: dict[int, float] = {}
    for i, p in a.items():
        for j, q in b.items():
            out[i + j] = out.get(i + j, 0.0) + p * q
    return {k: v for k, v in out.items() if v >= keep}
