"""Counting the points' checkers from the checker discs themselves (one-shot, no profile).

Once the playing area is known, every checker disc the finder saw has a place: map its centre
into the board's unit square (a homography from the corners, so perspective is no matter), the
column from across, the row and the depth (in checker diameters from the row's edge) from down.
A point's stack starts at its edge and runs one diameter per checker; a disc a detector missed
leaves a gap of a diameter, so a stack is counted by how far its chain of discs reaches from the
edge (gaps up to one missing disc bridged), and a disc half a diameter off the chain's places
is one of a second layer; the chain is measured in the stack's own pitch (its touching discs'
gaps) where it shows one, as the detector's radii are coarse steps. The colour is the discs'
own: two clusters of the discs' inner colours, the lighter white; when the discs show one set
only, or a stack's discs split evenly between the sets, the colour is left to the reader. The
discs count nothing when too many of them fit no stack (the area was found wrong, or round
things that are not checkers lie on it), and a lone disc only at a first checker's place and of
a set's colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cluster import two_clusters

COL_TOL = 0.36  # a disc's centre this far (in point widths) from a column's centre is off it
FIRST_MAX = 1.6  # the first disc's centre lies within this many diameters of the edge
GAP_MAX = 2.3  # diameters between neighbouring discs of one chain (one missed disc bridged)
LAYER_OFF = 0.3  # a disc this far (in diameters) off the chain's places is in a second layer
LAYER_FULL = 5  # ... and counts only beside a full first layer: checkers are put on a second
# layer once five lie in the first; a disc half a pitch off a shorter chain is a stray one,
# not a checker (one-shot renders, bench_oneshot_finds: tuning
# 700000+ 32 x 2 1267 -> 1288/1792 slots, held-out 1243 -> 1248; real photos 185/185 as before)
ROW_SHIFT = True  # a disc's column offset measured from its row's discs' median offset
SHIFT_MIN = 3  # ... when the row has this many discs on columns
SHIFT_MAX = 0.25  # ... at most this far (point widths): a point aside is the finder's to fix
AGREE = 0.75  # share of the discs inside that must sit in the stacks counted
LONE = (0.3, 0.85)  # a lone disc counts only this far (diameters) from the edge
LONE_COLOUR = 25.0  # ... and only within this Lab distance of its set's centre
SETS_APART = 25.0  # Lab distance between the two colour clusters for two checker sets
INNER = 0.5  # share of a disc's radius sampled for its colour
PITCH = (0.8, 1.25)  # a stack's neighbouring discs' gap that is one pitch, in median diameters
FAINT_CAP = 130.0  # gradient threshold cap of the counting's second disc vote (working image)
CHROMA_SET = 25.0  # a checker set this far from grey in (a, b) is coloured: its discs are
# looked for again by their red-green edges (a red checker on a dark red point: no grey edge)
CHROMA_TOL = 15.0  # a disc that vote finds counts when its (a, b) lies this near its set's
# (dices6: dim red checkers 4-13 from the red set, the red points under them 25-27)
CHROMA_APART = 1.5  # ... and its centre this many radii from every other disc's (a red
# checker's vote also rings between two touching red checkers, half a diameter off their places)
CHROMA_LIGHT = (0.45, 1.15)  # ... and its L within these shares of its set's (a shadow)


@dataclass
class Stack:
    """A point's stack as the discs show it: count and colour (True white, False black, None
    when the discs do not tell the sets apart)."""

    count: int
    white: bool | None


def with_faint_discs(frame: np.ndarray, discs: np.ndarray, cap: float = FAINT_CAP,
                     work: int = 640, seen: tuple | None = None) -> np.ndarray:
    """``discs`` (n, 3, frame pixels) and the checker-sized discs a second vote finds when the
    gradient threshold is capped at ``cap`` (a dark checker whose only edge is a thin rim, on a
    board whose white checkers set the percentile threshold high): for counting, not finding.
    Nothing is added when the cap is above the usual threshold. ``seen``: the finder's working
    grey image (long side ``work``) and its gradients, when at hand."""
    from .discs import detect, gradients, vote_threshold

    if discs is None or len(discs) == 0:
        return discs
    h, w = frame.shape[:2]
    s = work / max(h, w)
    if seen is not None and max(seen[0].shape) == work:
        gray, grads = seen
    else:
        small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        grads = gradients(gray)
    if vote_threshold(grads[2]) <= cap:  # the cap changes nothing: the first vote saw it all
        return discs
    r = float(np.median(discs[:, 2])) * s
    new = detect(gray, None, radii=(0.9 * r, r, 1.1 * r), edge_cap=cap, grads=grads)
    out = [np.asarray(d, np.float64) for d in discs]
    for (x, y), rr in zip(new.xy / s, new.r / s, strict=True):
        if all((x - o[0]) ** 2 + (y - o[1]) ** 2 > (0.8 * max(rr, o[2])) ** 2 for o in out):
            out.append(np.array([x, y, rr]))
    return np.asarray(out)


def with_chroma_discs(frame: np.ndarray, corners: np.ndarray, discs: np.ndarray,
                      work: int = 640) -> np.ndarray:
    """``discs`` (n, 3, frame pixels) and the checker-sized discs a vote on the Lab a channel
    (red against green) finds whose inner colour is a coloured set's: a red checker on a dark
    red point shows no grey edge, only a redder one. For counting, not finding. The sets are
    those of the discs inside the playing area (``corners``; :func:`disc_sets`); a new disc
    counts when its inner (a, b) lies within CHROMA_TOL of a set's whose (a, b) lies
    CHROMA_SET from grey, its L within CHROMA_LIGHT of the set's (a disc of a red point's base,
    or of a sleeve, is not a checker), and its centre CHROMA_APART radii from every other's."""
    from .discs import detect, gradients

    if discs is None or len(discs) < 2:
        return discs
    h, w = frame.shape[:2]
    s = work / max(h, w)
    u = _to_unit(_unit_homography(corners), discs[:, :2])
    inside = discs[(u[:, 0] > 0) & (u[:, 0] < 1) & (u[:, 1] > 0) & (u[:, 1] < 1)]
    sets, _far = disc_sets(frame, inside)
    if sets is None:
        return discs
    med = np.float32([_inner_lab(frame, x, y, r) for x, y, r in inside])
    coloured = []
    for k in (True, False):
        m = np.median(med[sets == k], 0)
        if np.hypot(m[1] - 128, m[2] - 128) > CHROMA_SET:
            coloured.append(m)
    if not coloured:
        return discs
    r = float(np.median(discs[:, 2])) * s
    chan = _work_a(frame, work)
    new = detect(chan, None, radii=(0.9 * r, r, 1.1 * r), grads=gradients(chan))
    out = [np.asarray(d, np.float64) for d in discs]
    for (x, y), rr in zip(new.xy / s, new.r / s, strict=True):
        if not all((x - o[0]) ** 2 + (y - o[1]) ** 2 > (CHROMA_APART * max(rr, o[2])) ** 2
                   for o in out):
            continue
        c = _inner_lab(frame, x, y, rr)
        if any(np.hypot(c[1] - m[1], c[2] - m[2]) <= CHROMA_TOL
               and CHROMA_LIGHT[0] * m[0] <= c[0] <= CHROMA_LIGHT[1] * m[0] for m in coloured):
            out.append(np.array([x, y, rr]))
    return np.asarray(out)


def _work_a(frame: np.ndarray, work: int) -> np.ndarray:
    """The Lab a channel (uint8, contiguous) of ``frame`` resized to long side ``work`` (area
    interpolation): taken from the finder's working Lab when ``work`` is its size (kept from
    the frame's first look; its chroma weighting undone, exactly: a whole number times 1.5 in
    float32), else computed. Only photos with a coloured checker set ask for it."""
    from .find import WORK, work_lab

    if work == WORK:
        return np.ascontiguousarray(work_lab(frame)[1][..., 1] / np.float32(1.5)).astype(np.uint8)
    h, w = frame.shape[:2]
    s = work / max(h, w)
    small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB)[..., 1])


def _inner_lab(frame: np.ndarray, x: float, y: float, r: float) -> np.ndarray:
    """The median Lab (float) of a disc's inner square (INNER of its radius)."""
    h, w = frame.shape[:2]
    k = max(1, int(r * INNER))
    patch = frame[max(0, int(y) - k):min(h, int(y) + k + 1),
                  max(0, int(x) - k):min(w, int(x) + k + 1)]
    return median0(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32).reshape(-1, 3))


def _unit_homography(corners: np.ndarray) -> np.ndarray:
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), unit)


def _to_unit(H: np.ndarray, xy: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(xy, np.float64).reshape(-1, 1, 2), H).reshape(-1, 2)


def column_of(u: np.ndarray, bar: float) -> tuple[np.ndarray, np.ndarray]:
    """Column (0..11, the bar skipped) and offset from its centre (point widths) of unit ``u``;
    the offset is infinite in the bar and beyond the ends."""
    pw = (1 - bar) / 12
    left = u < 0.5
    pos = np.where(left, u / pw, 6 + (u - 0.5 - bar / 2) / pw)
    raw = np.floor(pos)
    col = np.clip(raw, 0, 11).astype(int)
    off = pos - col - 0.5
    # in the bar (or off the ends): no column's
    wrong_half = np.where(left, raw > 5, raw < 6) | (raw != col)
    return col, np.where(wrong_half, np.inf, off)


_SETS: list = []  # the last disc_sets asked: [(image, its sparse sample, discs, answer)]


def disc_sets(lab: np.ndarray, discs: np.ndarray
              ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Per disc True (lighter set) / False, from k-means on the discs' inner colours, and each
    disc's Lab distance from its set's centre; (None, None) when the two clusters are not
    clearly apart (the distance from the set's median colour, which an odd disc does not
    pull). ``lab``: the frame in Lab (float), or the BGR frame itself (uint8), whose
    discs' squares are converted one by one. The last answer is kept: a one-shot read asks
    about the same discs of the same frame up to five times (both counts of each
    :func:`count_stacks`, :func:`with_chroma_discs`); a kept answer is given as copies."""
    if len(discs) < 2:
        return None, None
    d = np.asarray(discs)
    key = (d.shape, d.dtype.str, d.tobytes())
    kept = _SETS[-1] if _SETS else None  # (one tuple: read whole even if another thread
    # keeps its own answer meanwhile)
    if kept is not None and kept[0] is lab and kept[2] == key \
            and np.array_equal(lab[::16, ::16], kept[1]):
        sets, far = kept[3]
        return (None, None) if sets is None else (sets.copy(), far.copy())
    sets, far = _disc_sets(lab, discs)
    _SETS[:] = [(lab, lab[::16, ::16].copy(), key, (sets, far))]
    return (None, None) if sets is None else (sets.copy(), far.copy())


def _disc_sets(lab: np.ndarray, discs: np.ndarray
               ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """:func:`disc_sets`, computed."""
    h, w = lab.shape[:2]
    med = []
    for x, y, r in discs:
        k = max(1, int(r * INNER))
        x0, x1 = max(0, int(x) - k), min(w, int(x) + k + 1)
        y0, y1 = max(0, int(y) - k), min(h, int(y) + k + 1)
        patch = lab[y0:y1, x0:x1]
        if patch.dtype == np.uint8:  # a BGR frame: only the disc's square to Lab
            patch = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
        med.append(median0(patch.reshape(-1, 3)))
    lbl, centres = two_clusters(np.float32(med))
    if np.linalg.norm(centres[0] - centres[1]) < SETS_APART:
        return None, None
    med = np.float32(med)
    mid = np.stack([np.median(med[lbl == k], 0) if (lbl == k).any() else centres[k]
                    for k in range(2)])  # the sets' middles (an odd disc pulls no median)
    far = np.linalg.norm(med - mid[lbl], axis=1)
    return lbl == int(np.argmax(centres[:, 0])), far


def stack_pitch(depth: np.ndarray, diam: float) -> float:
    """A stack's own checker pitch (its touching checkers' centres are a diameter apart): the
    median of its discs' neighbouring depth gaps within PITCH of ``diam`` (the discs' median
    size, which the detector's radius steps make coarse), else ``diam``."""
    g = np.diff(np.sort(depth))
    g = g[(g > PITCH[0] * diam) & (g < PITCH[1] * diam)]
    return float(np.median(g)) if len(g) else diam


def _chain_count(depth: np.ndarray, diam: float, pitch: float | None = None) -> int:
    """Checkers in one point's stack from its discs' depths (centre distance from the edge):
    the first disc's place judged in ``diam`` (the discs' size), the chain in ``pitch`` (the
    stack's own spacing, when known)."""
    d0 = np.sort(depth) / diam
    if len(d0) == 0 or d0[0] > FIRST_MAX:
        return 0
    d = d0 * (diam / (pitch or diam))
    chain = [d[0]]
    extra = 0
    for v in d[1:]:
        if v - chain[-1] > GAP_MAX:
            break
        k = (v - chain[0])
        if abs(k - round(k)) > LAYER_OFF:  # half a diameter off the first layer's places
            extra += 1
            continue
        chain.append(v)
    first = int(round(chain[-1] - chain[0])) + 1
    n = first + (extra if first >= LAYER_FULL else 0)
    if n == 1 and not LONE[0] <= d0[0] <= LONE[1]:
        return 0  # a lone disc away from the first checker's place: a die, a tip, a reflection
    return n


def count_stacks(frame: np.ndarray, corners: np.ndarray, bar: float, discs: np.ndarray
                 ) -> dict[tuple[bool, int], Stack]:
    """Stacks the discs show, keyed by (top row, column 0..11 left to right); columns with no
    disc are left out. ``corners``: TL, TR, BR, BL, points along TL-TR; ``discs``: (n, 3).
    With ROW_SHIFT each row's discs' column offsets are taken about their median, but only
    when the discs count something both with and without it (AGREE: the shift rescues a disc
    off its column, it neither makes a quad found a point off agree with the discs nor the
    discs of a wide quad disagree; tuning 700017 f0 read 21 of 28 slots from the reader, 15
    from the discs the shift let count; 700024 f1 17 from the discs, 14 when the shift
    stopped them)."""
    if discs is None or len(discs) == 0:
        return {}
    plain = _count_stacks(frame, corners, bar, discs, False)
    if ROW_SHIFT and plain:
        return _count_stacks(frame, corners, bar, discs, True) or plain
    return plain


def _count_stacks(frame: np.ndarray, corners: np.ndarray, bar: float, discs: np.ndarray,
                  shift: bool) -> dict[tuple[bool, int], Stack]:
    """:func:`count_stacks`, each row's offsets about their median or not (``shift``)."""
    H = _unit_homography(corners)
    c = _to_unit(H, discs[:, :2])
    inside = (c[:, 0] > 0) & (c[:, 0] < 1) & (c[:, 1] > 0) & (c[:, 1] < 1)
    d, c = discs[inside], c[inside]
    if len(d) == 0:
        return {}
    # a disc's diameter in unit heights, measured where it lies (perspective)
    up = _to_unit(H, d[:, :2] - np.c_[np.zeros(len(d)), d[:, 2]])
    down = _to_unit(H, d[:, :2] + np.c_[np.zeros(len(d)), d[:, 2]])
    diam = float(np.median(np.abs(down[:, 1] - up[:, 1])))
    col, off = column_of(c[:, 0], bar)
    if shift:  # each row's discs' offsets about their median (a quad a little aside)
        for top in (True, False):
            row = np.isfinite(off) & ((c[:, 1] < 0.5) == top)
            if row.sum() >= SHIFT_MIN:
                off = np.where(row, off - np.clip(np.median(off[row]), -SHIFT_MAX, SHIFT_MAX),
                               off)
    on = np.abs(off) < COL_TOL
    sets, far = disc_sets(frame, d)
    out: dict[tuple[bool, int], Stack] = {}
    used = 0
    for top in (True, False):
        depth = c[:, 1] if top else 1 - c[:, 1]
        row = on & (depth < 0.5)
        for k in range(12):
            sel = row & (col == k)
            if not sel.any():
                continue
            n = _chain_count(depth[sel], diam, stack_pitch(depth[sel], diam))
            if n == 1 and far is not None \
                    and far[np.nonzero(sel)[0][np.argmin(depth[sel])]] > LONE_COLOUR:
                n = 0  # a lone disc of neither set's colour: a point's tip, a shadow, a die
            if n == 0:
                continue
            # the discs' sets, by majority; a tie is left to the reader
            share = None if sets is None else float(sets[sel].mean())
            white = None if share is None or share == 0.5 else share > 0.5
            out[(top, k)] = Stack(n, white)
            used += int(sel.sum())
    # discs off the columns or away from the edges say the playing area is not where it was
    # found (or they are not checkers): then the discs count nothing
    return out if used >= AGREE * len(d) else {}


def median0(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=0)`` (the same values and dtype) by one partition, without
    median's general machinery (it is called for every disc)."""
    n = len(a)
    if n == 0:
        return np.median(a, 0)
    lo, hi = (n - 1) // 2, n // 2
    s = np.partition(a, [lo, hi], axis=0)
    dt = a.dtype if np.issubdtype(a.dtype, np.floating) else np.dtype(np.float64)
    out = (s[lo].astype(dt) + s[hi].astype(dt)) / dt.type(2)
    if dt.kind == "f" and np.isnan(out).any():
        return np.median(a, 0)
    return out
