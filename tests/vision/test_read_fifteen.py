"""vision.read.fifteen_at_most: with a hand in view, counts past fifteen checkers of a colour are
reported unseen, the largest suspect count first."""

from __future__ import annotations

from vision.read import fifteen_at_most


def _regions(points: dict[int, tuple[int, int]], wbar: int = 0, bbar: int = 0,
             woff: int = 0, boff: int = 0) -> list:
    out: list = [{points.get(i, (0, 0)): 0.9, (0, 0) if points.get(i) else (1, 0): 0.1}
                 for i in range(24)]
    out += [{(wbar, 0): 1.0}, {(0, bbar): 1.0}, {(woff, 0, 0): 1.0}, {(0, boff, 0): 1.0}]
    return out


def test_a_tray_read_full_under_a_hand_is_unseen() -> None:
    r = _regions({0: (2, 0), 11: (5, 0), 16: (3, 0), 18: (5, 0), 5: (0, 5)}, woff=15)
    out = fifteen_at_most(r)
    assert out[26] is None  # 15 + 15 whites: the tray goes
    assert out[:26] == r[:26] and out[27] == r[27]


def test_two_tall_phantoms_go_largest_first() -> None:
    r = _regions({0: (2, 0), 8: (11, 0), 9: (10, 0), 11: (5, 0), 5: (0, 5)})
    out = fifteen_at_most(r)
    assert out[8] is None and out[9] is None  # 28 -> 17 -> 7 whites
    assert all(out[i] == r[i] for i in range(28) if i not in (8, 9))


def test_fifteen_or_fewer_are_kept() -> None:
    r = _regions({0: (2, 0), 11: (5, 0), 16: (3, 0), 18: (5, 0), 23: (0, 2), 12: (0, 5)},
                 bbar=1, boff=7)
    assert fifteen_at_most(r) == r


def test_a_bar_of_two_stays_for_a_tall_phantom() -> None:
    r = _regions({0: (2, 0), 8: (11, 0), 11: (5, 0), 5: (0, 5)}, wbar=2)
    out = fifteen_at_most(r)
    assert out[8] is None  # 20 whites: the 11-stack goes, not the bar's two
    assert out[24] == r[24]
    assert all(out[i] == r[i] for i in range(28) if i != 8)


def test_a_bar_the_hand_leaves_clear_stays_for_a_short_phantom() -> None:
    r = _regions({0: (2, 0), 3: (4, 0), 11: (5, 0), 18: (5, 0), 5: (0, 5)}, wbar=2)
    out = fifteen_at_most(r, bar_covered=False)
    assert out == r  # 18 whites, the phantom on a short point: the clear bar's two are kept
    assert fifteen_at_most(r)[24] is None  # under a hand over the bar it goes, as before


def test_a_tall_bar_stays_a_suspect_when_clear() -> None:
    r = _regions({0: (2, 0), 11: (5, 0), 5: (0, 5)}, wbar=9)
    out = fifteen_at_most(r, bar_covered=False)
    assert out[24] is None  # 16 whites, nine on the bar: past TALL, a suspect anyway


def test_a_clear_bar_under_a_hand_s_frame_is_kept() -> None:
    """Tuning 1015 frame 3 (blue maple, a hand in view, bar halves 0.00 / 0.16 foreign): white's
    four on the bar, read right, were given up for a phantom white on a short point."""
    from tests.vision.tapped import tapped_frame
    from vision.read import read

    prof, img, tr = tapped_frame(1015, 3)
    obs = read(img, prof)
    assert obs.hand and 24 not in tr["hidden_regions"]
    assert obs.regions[24] is not None
    assert max(obs.regions[24].items(), key=lambda kv: kv[1])[0] == (4, 0)
