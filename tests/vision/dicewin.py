"""Shared set-ups of the dice tests: a blank board window read by ``vision.dice._read_window``,
and a rendered bench frame's dice read near a point."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from bench.bench_dice import frames
from vision import dice as dice_mod
from vision.appearance import to_lab
from vision.geometry import BoardShape, Layout

BOARD = (60, 90, 120)  # BGR of the empty board


def blank_window() -> tuple[np.ndarray, Any]:
    """A window of empty board (``BOARD``) and the reader of a window drawn on it: ``read(win)``
    calls ``_read_window`` with a kit whose board is that colour everywhere."""
    lay = Layout(BoardShape())
    L = int(round(20 * (lay.H / 2) / lay.pw))
    tmpl = np.broadcast_to(to_lab(np.array([[BOARD]], np.uint8)).astype(np.float32),
                           (2 * L, 240, 3)).copy()
    canvas = dice_mod.build_canvas(lay, tmpl)
    anyone = SimpleNamespace(log_p=lambda lab: np.zeros(len(lab)))
    kit = SimpleNamespace(lay=lay, canvas=canvas, sigma=np.full(3, 2.0, np.float32),
                          white=anyone, black=anyone, pose=None)
    span = dice_mod.WIN_DIES * dice_mod.DIE_D * lay.d
    placed = canvas.place(np.array([lay.W * 0.3, lay.H * 0.4]))
    assert placed is not None
    centre, a, b = placed
    win = np.zeros((dice_mod.WIN, dice_mod.WIN, 3), np.uint8)
    win[:] = BOARD

    def read(w: np.ndarray, **kw: Any) -> Any:  # (kw: _read_window's keywords)
        return dice_mod._read_window(kit, w, np.eye(3), centre, span, None, (a, b), **kw)  # type: ignore[arg-type]

    return win, read


def bench_frame(seed: int, k: int) -> tuple:
    """bench_dice's frame ``k`` of ``seed``: (profile, image, truth, regions)."""
    (_label, prof, img, tr, regions), = [f for i, f in enumerate(frames(seed, 1, k + 1))
                                           if i == k]
    return prof, img, tr, regions


def reads_near(frame: tuple, x: float, y: float) -> list[dice_mod.DieReading]:
    """The dice read on ``frame`` (from :func:`bench_frame`) within 15 pixels of (x, y), the
    kit's window memory forgotten before and after."""
    prof, img, _tr, regions = frame
    dice_mod.kit_for(prof).memory.forget()
    counts = [max(r, key=r.get) if r else None for r in regions]
    reads = dice_mod.read_dice(img, prof, counts)
    dice_mod.kit_for(prof).memory.forget()
    return [r for r in reads if np.hypot(r.frame_xy[0] - x, r.frame_xy[1] - y) < 15]


def true_die(frame: tuple, x: float, y: float) -> tuple[tuple[float, float], int]:
    """The truth's die within 3 pixels of (x, y) on ``frame``: its centre and its value."""
    tr = frame[2]
    (cx, cy), v = next((c, v) for p in tr["dice_pairs"]
                       for c, v in zip(p["centers_px"], p["values"], strict=True)
                       if abs(c[0] - x) < 3 and abs(c[1] - y) < 3)
    return (cx, cy), v
