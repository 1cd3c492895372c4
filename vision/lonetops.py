"""Checker tops relearned from lone checkers, for a profile calibrated at a variant's start.

A variant's start (Plakoto, Long Nardi) has no checker alone in the first row, so calibration
learns a colour's tops from the visible parts of its tall stacks (``calibration.stacklook``) and
names that colour in ``profile.meta["stack_tops"]``. Those parts are lit and shaded otherwise
than a lone checker's top (tuning 700011: white learned at L ~236 where a lone checker shows
255), so a lone checker may read as an empty point. Once play lays checkers alone, a settled
frame with no hand whose read is near certain about a lone checker of such a colour teaches
the tops again from the checkers it shows (all of them seen so far, for ``LONE_FRAMES``
frames): the stacks' tops moved by how far the lone checkers lie from them on average. Their
shape and spreads, learned from many checkers, are kept; only their light is corrected (tuning
700000, Plakoto: refitting the tops from the one or two lone checkers of the first frames, as
``DiscModel.fit`` learns them from a standard start's first row, read other lone checkers worse,
the turns exact 10 -> 6 of 20; the shift corrects 700011's white, 236 -> 251, as well).

Calibration now also learns BGR tops from the stacks (``calibration.stacklook.stack_tops_bgr``),
which the reader prefers for any colour bright enough (``DiscModel.bright``): those read the
lone checkers right from the start, and what is relearned here is the Lab tops a colour too
dark for BGR tops is read by.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .discs import DiscModel, make_slots, relight
from .profile import BoardProfile

LONE_SURE = 0.999  # a point's read this sure of one lone checker teaches its colour's tops
LONE_FRAMES = 3  # settled frames a colour's tops are relearned from, then kept
FIRST_SLOT = 0.525  # a lone checker's centre from the point's edge (checker diameters)


def learn_lone_tops(profile: BoardProfile, prep: dict[str, Any], regions: list) -> bool:
    """Relearn the tops of each colour named in ``profile.meta["stack_tops"]`` (1 white, 2 black)
    from the lone checkers a settled frame's read (``regions``) is near certain of (``prep``:
    the reader's per-size work, holding the frame's strips in Lab); True when a model changed
    (the caller gathers its parameters again)."""
    todo = [int(c) for c in profile.meta.get("stack_tops", ())]
    discs = profile.discs
    if not todo or discs is None or "lab" not in prep:
        return False
    lay = profile.layout
    if "lone_slot" not in prep:
        prep["lone_slot"] = make_slots(lay, [FIRST_SLOT])
    sl = prep["lone_slot"]
    kinds = prep["kinds"]
    gain = discs.gain if discs.gain is not None else np.ones(24, np.float32)
    store = profile._cache.setdefault("lone_tops", {})
    changed = False
    for colour in list(todo):
        got = []
        for i in range(24):
            r = regions[i]
            if not r:
                continue
            counts, p = max(r.items(), key=lambda kv: kv[1])
            if p < LONE_SURE or counts != ((1, 0) if colour == 1 else (0, 1)):
                continue
            px = relight(prep["lab"][i, sl.idx[0]].astype(np.float32), 1.0 / gain[i])
            got.append((int(kinds[i] >= 2), lay.point_place(i + 1)[0], px))
        if not got:
            continue
        seen = store.setdefault(colour, {"samples": [], "frames": 0})
        seen["samples"] += got
        seen["frames"] += 1
        if "stack" not in seen:  # the tops as calibration learned them from the stacks
            c = colour - 1
            seen["stack"] = (discs.mean[c].copy(), None if discs.side_mean is None
                             else discs.side_mean[c].copy())
        shift_tops(discs, colour - 1, seen["samples"], sl.tidx[0], *seen["stack"])
        changed = True
        if seen["frames"] >= LONE_FRAMES:
            todo.remove(colour)
    if changed:
        profile.meta["stack_tops"] = todo
    return changed


def shift_tops(model: DiscModel, c: int, samples: list[tuple[int, int, np.ndarray]],
               tidx: np.ndarray, stack: np.ndarray, stack_side: np.ndarray | None) -> None:
    """Colour ``c``'s (0 white, 1 black) tops as learned from the stacks (``stack``, per row;
    ``stack_side``, per row and half) moved by how far the lone checkers ``samples`` (row 1 top,
    board column, Lab pixels unlit as under the row's mean light, in template cells ``tidx``)
    lie from them on average: the stacks' shape and spreads kept, their light corrected; in
    place."""
    d = np.concatenate([px - stack[rf][tidx] for rf, _col, px in samples]).mean(0)
    model.mean[c] = np.clip(stack + d, 0.0, 255.0)
    if model.side_mean is not None and stack_side is not None:
        model.side_mean[c] = np.clip(stack_side + d, 0.0, 255.0)
