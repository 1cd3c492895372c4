"""The calibrated dice reader gives the face fit the empty board behind the die
(:data:`vision.dice.GROUND`: the read window's template lightness, ``ground=`` of
:func:`vision.pips.read_face`); the one-shot reader does not (it would cost a photo 68 ms)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision import dice as dm


def _right(prof: Any, img: np.ndarray, tr: dict[str, Any], regions: list[Any]) -> int:
    """Flat dice read right on one frame (none read wrong), the memory forgotten before."""
    counts = [max(r, key=r.get) if r else None for r in regions]
    near = 0.35 * float(np.linalg.norm(np.subtract(tr["board_corners_px"][1],
                                                   tr["board_corners_px"][0]))) / 13
    truth = [(c, v) for p in tr["dice_pairs"] for c, v, ck in
             zip(p["centers_px"], p["values"], p["cocked_each"], strict=True) if not ck]
    dm.kit_for(prof).memory.forget()
    reads = dm.read_dice(img, prof, counts)
    dm.kit_for(prof).memory.forget()
    right = 0
    for r in reads:
        hit = [v for c, v in truth if np.hypot(r.frame_xy[0] - c[0], r.frame_xy[1] - c[1]) < near]
        if r.value is not None and hit:
            assert r.value == hit[0]
            right += 1
    return right


def test_the_calibrated_reader_reads_a_refused_six_with_the_board_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tuning setup 700041 (green oak, plain dice, faces about 10 frame pixels): a 6 the face
    search refuses is read by the fit with the board behind; no die is read wrong either way."""
    from bench.bench_dice import frames

    right = {True: 0, False: 0}
    for _label, prof, img, tr, regions in frames(700041, 1, 5, None):
        for g in (True, False):
            monkeypatch.setattr(dm, "GROUND", g)
            right[g] += _right(prof, img, tr, regions)
    assert right[True] >= right[False] + 1


def test_the_one_shot_reader_gives_no_board_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """read_dice_oneshot's face reads get no ``ground``, read_dice's do, before and after it
    (``ground=`` of read_dice: the one-shot read leaves the profile's cached kit as it was)."""
    from bench.bench_dice import frames

    given: list[bool] = []
    real = dm.read_face

    def face(*a: Any, **k: Any) -> Any:
        given.append(k.get("ground") is not None)
        return real(*a, **k)

    monkeypatch.setattr(dm, "read_face", face)
    _label, prof, img, _tr, regions = next(iter(frames(700041, 1, 1, None)))
    counts = [max(r, key=r.get) if r else None for r in regions]
    dm.kit_for(prof).memory.forget()
    dm.read_dice(img, prof, counts)
    assert given and all(given)
    given.clear()
    dm.kit_for(prof).memory.forget()
    dm.read_dice_oneshot(img, prof, list(regions))
    assert given and not any(given)
    given.clear()
    dm.kit_for(prof).memory.forget()
    dm.read_dice(img, prof, counts)
    assert given and all(given)
