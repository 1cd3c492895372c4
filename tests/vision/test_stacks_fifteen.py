"""``vision.stacks.complete_fifteen``: with no hand in view and every region seen, a colour short
of fifteen takes the missing checkers on the one region whose count the camera cannot tell (a
tall stack, a tray). Rendered case: a tuning seed (the benchmark holds out 900000+)."""

from __future__ import annotations

import importlib

from tests.vision.tapped import tapped_frame
from vision import read
from vision.readmemory import forget
from vision.stacks import complete_fifteen

CHECKERS = importlib.import_module("vision.checkers")
E = 1 / 2.718281828


def _regions(points: dict[int, dict], woff: dict | None = None, boff: dict | None = None
             ) -> list:
    out: list = [points.get(i, {(0, 0): 1.0}) for i in range(24)]
    return out + [{(0, 0): 1.0}, {(0, 0): 1.0}, woff or {(0, 0): 1.0}, boff or {(0, 0): 1.0}]


def _tall(n: int, colour: int) -> dict:
    """A tall stack's read: its count best, every taller one ``hidden_counts``' 1 nat under."""
    keys = [(k, 0) if colour == 0 else (0, k) for k in range(n, 16)]
    return {k: (1.0 if k == keys[0] else E) for k in keys}


def test_a_tall_stack_takes_the_missing_checkers() -> None:
    r = _regions({0: {(2, 0): 1.0}, 11: _tall(9, 0), 5: {(0, 5): 1.0}, 7: {(0, 3): 1.0},
                  12: {(0, 5): 1.0}, 18: {(0, 2): 1.0}})
    out = complete_fifteen(r, 5, (26, 27))
    assert max(out[11].items(), key=lambda kv: kv[1])[0] == (13, 0)  # 2 + 13 whites
    assert out[11][(9, 0)] == r[11][(13, 0)]  # the two counts' probabilities swapped
    assert all(out[i] == r[i] for i in range(28) if i != 11)


def test_a_tray_one_short_or_over() -> None:
    pts = {0: {(2, 0): 1.0}, 11: {(5, 0): 1.0}, 5: {(0, 5): 1.0}, 12: {(0, 3): 1.0}}
    short = _regions(pts, woff={(7, 0): 0.6, (8, 0): 0.3, (6, 0): 0.1},
                     boff={(0, 6): 0.7, (0, 5): 0.2, (0, 7): 0.1})
    out = complete_fifteen(short, 5, (26, 27))
    assert max(out[26].items(), key=lambda kv: kv[1])[0] == (8, 0)
    assert out[27] == short[27]  # black one short too, but 7 is under COMPLETE_RATIO of 6
    over = _regions(pts, woff={(9, 0): 0.6, (8, 0): 0.4}, boff={(0, 7): 1.0})
    assert max(complete_fifteen(over, 5, (26, 27))[26].items(),
               key=lambda kv: kv[1])[0] == (8, 0)


def test_nothing_changes_without_a_hidden_count() -> None:
    # short by a checker with only a first row (a checker missed elsewhere: the stacks of 5 to
    # 7 that took it were all wrong), an unseen region, or a swap of colours
    r = _regions({0: {(2, 0): 1.0}, 11: _tall(5, 0), 16: _tall(7, 0), 5: {(0, 15): 1.0}})
    assert complete_fifteen(r, 5, (26, 27)) == r
    unseen = _regions({0: {(2, 0): 1.0}, 11: _tall(9, 0), 5: {(0, 15): 1.0}})
    unseen[3] = None
    assert complete_fifteen(unseen, 5, (26, 27)) is unseen
    swapped = _regions({0: {(2, 0): 1.0}, 11: _tall(9, 0), 5: {(0, 15): 1.0},
                        6: {(0, 2): 1.0}})
    assert complete_fifteen(swapped, 5, (26, 27)) == swapped  # 4 short, black at 17


def test_fourteen_whites_read_nine_are_fourteen(monkeypatch) -> None:  # noqa: ANN001
    """Tuning 700019 frame 0 (green oak), no hand: fourteen whites on one point read as nine
    (the layers lie over each other), the fifteenth elsewhere. Without the rule: nine."""
    prof, img, tr = tapped_frame(700019, 0)
    assert not tr["hand"]
    forget(prof)
    best = read(img, prof).best_counts()
    assert best[14] == (14, 0)
    monkeypatch.setattr(CHECKERS, "COMPLETE", False)
    forget(prof)
    assert read(img, prof).best_counts()[14] == (9, 0)
