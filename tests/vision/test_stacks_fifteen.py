"""``vision.stacks.complete_fifteen``: with no hand in view and every region seen, a colour one
short of fifteen or one over takes the difference on its tray when the tray's count is in
doubt; tall stacks are left alone. Rendered case: a tuning seed (the benchmark holds out
900000+)."""

from __future__ import annotations

import importlib

from tests.vision.tapped import tapped_frame
from vision import read
from vision.readmemory import forget
from vision.stacks import complete_fifteen

CHECKERS = importlib.import_module("vision.checkers")
TRAYS = (26, 27)


def _regions(points: dict[int, dict], woff: dict | None = None, boff: dict | None = None
             ) -> list:
    out: list = [points.get(i, {(0, 0): 1.0}) for i in range(24)]
    return out + [{(0, 0): 1.0}, {(0, 0): 1.0}, woff or {(0, 0): 1.0}, boff or {(0, 0): 1.0}]


def _best(d: dict) -> tuple[int, int]:
    return max(d.items(), key=lambda kv: kv[1])[0]


PTS = {0: {(2, 0): 1.0}, 11: {(5, 0): 1.0}, 5: {(0, 5): 1.0}, 12: {(0, 3): 1.0}}


def test_a_tray_one_short_or_over() -> None:
    short = _regions(PTS, woff={(7, 0): 0.6, (8, 0): 0.3, (6, 0): 0.1},
                     boff={(0, 6): 0.7, (0, 5): 0.2, (0, 7): 0.1})
    out = complete_fifteen(short, TRAYS)
    assert _best(out[26]) == (8, 0)  # 2 + 5 + 8 whites
    assert 1.0 < out[26][(8, 0)] / out[26][(7, 0)] < 1.01  # near alike, as they were
    assert abs(sum(out[26].values()) - 1.0) < 1e-9
    assert out[27] == short[27]  # black one short too, but 7 is under COMPLETE_RATIO of 6
    assert out[:26] == short[:26]
    over = _regions(PTS, woff={(9, 0): 0.6, (8, 0): 0.4}, boff={(0, 7): 1.0})
    assert _best(complete_fifteen(over, TRAYS)[26]) == (8, 0)


def test_nothing_changes_without_a_tray_in_doubt() -> None:
    tall = {(n, 0): (1.0 if n == 9 else 0.37) for n in range(9, 16)}
    r = _regions({0: {(2, 0): 1.0}, 11: tall, 5: {(0, 15): 1.0}},
                 woff={(3, 0): 0.9, (4, 0): 0.1})
    assert complete_fifteen(r, TRAYS) == r  # 14 whites read: the tray is sure, the stack stays
    empty = _regions({0: {(2, 0): 1.0}, 11: {(12, 0): 1.0}, 5: {(0, 15): 1.0}},
                     woff={(0, 0): 0.6, (1, 0): 0.4})
    assert complete_fifteen(empty, TRAYS) == empty  # an empty tray is not in doubt
    unseen = _regions(PTS, woff={(7, 0): 0.6, (8, 0): 0.4}, boff={(0, 7): 1.0})
    unseen[3] = None
    assert complete_fifteen(unseen, TRAYS) is unseen


def test_a_black_tray_of_four_read_three_is_four(monkeypatch) -> None:  # noqa: ANN001
    """Tuning 700026 frame 4 (blue maple), no hand: black's tray of four read as three, every
    other region right. Without the rule: three."""
    prof, img, tr = tapped_frame(700026, 4)
    assert not tr["hand"]
    forget(prof)
    assert read(img, prof).best_counts()[27] == (0, 4)
    monkeypatch.setattr(CHECKERS, "COMPLETE", False)
    forget(prof)
    assert read(img, prof).best_counts()[27] == (0, 3)
