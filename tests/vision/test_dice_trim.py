"""The die finder's guards and trims: the counted checkers' mask covers a stack's slots that
only one first-row length has when the strip shows checkers there (vision.dice.HELD_TRIM); a
footprint found only against the light there is no 1 (LOCAL_NOT); a streak's read face is
read again centred on it (RECENTRE)."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision import dice as dice_mod
from vision.appearance import ColourModel
from vision.geometry import BoardShape, Layout
from vision.pips import Face

BOARD_LAB = (110.0, 100.0, 150.0)  # a green field
BLACK_LAB = (40.0, 128.0, 128.0)  # the black checkers
WHITE_LAB = (225.0, 128.0, 134.0)


def _model(lab: tuple[float, float, float], seed: int) -> ColourModel:
    px = np.random.default_rng(seed).normal(lab, 2.0, (2000, 3))
    return ColourModel.fit(np.clip(px, 0, 255).astype(np.uint8))


def _bgr(lab: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)


def _kit(lay: Layout) -> SimpleNamespace:
    return SimpleNamespace(masks=dice_mod.checker_masks(lay), rows=dice_mod.row_masks(lay),
                           white=_model(WHITE_LAB, 1), black=_model(BLACK_LAB, 2), held=None)


@pytest.mark.parametrize("laid", [5, 6])
def test_a_stack_of_six_is_masked_where_its_checkers_lie(
        laid: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Six black checkers on point 1, laid five and one on top (``laid`` 5) or six in a row:
    the sixth slot of a row of six is covered by the mask when a checker lies there, and is
    left to the die finder (but for the dilation's rim) when the board shows there; without
    the trim both are covered (the union of both lengths)."""
    lay = Layout(BoardShape())
    rows = dice_mod.row_masks(lay)
    strips = np.empty((24, *rows[5][0].shape, 3), np.float32)
    strips[...] = BOARD_LAB
    strips[0][rows[laid][6]] = BLACK_LAB
    noise = np.random.default_rng(3).normal(0, 1.0, strips.shape).astype(np.float32)
    bgr = np.stack([_bgr(s) for s in strips + noise])
    counts = [(0, 6)] + [(0, 0)] * 23
    sixth = rows[6][6] & ~rows[5][6]  # the slot only a row of six has
    one = np.zeros_like(strips[..., 0], bool)
    one[0] = sixth
    where = dice_mod.field_mosaic(one) > 0  # its mosaic pixels
    assert where.sum() > 50
    held = dice_mod.held_mosaic(_kit(lay), counts, bgr)  # type: ignore[arg-type]
    covered = float(held[where].mean())
    if laid == 6:
        assert covered == 1.0
    else:
        assert covered < 0.5
    monkeypatch.setattr(dice_mod, "HELD_TRIM", False)
    assert dice_mod.held_mosaic(_kit(lay), counts, bgr)[where].all()  # type: ignore[arg-type]


def test_stacks_whose_lengths_agree_are_not_trimmed() -> None:
    """Five checkers lie in the same slots with either length: their mask is the union's,
    whatever the strip shows."""
    lay = Layout(BoardShape())
    kit = _kit(lay)
    shape = kit.rows[5][0].shape
    bgr = np.zeros((24, *shape, 3), np.uint8)
    bgr[...] = _bgr(np.array([[BOARD_LAB]], np.float32))[0, 0]
    counts = [(5, 0), (0, 3)] + [(0, 0)] * 22
    held = dice_mod.held_mosaic(kit, counts, bgr)  # type: ignore[arg-type]
    assert np.array_equal(held, dice_mod.held_mosaic(_kit(lay), counts))  # type: ignore[arg-type]


def _window_kit() -> tuple[SimpleNamespace, np.ndarray, np.ndarray]:
    """A read window on a part of the board 30 L lighter than the template with a die body
    35 L over that and a dark pip in its middle: no footprint against the board's sigma, the
    die's square against the window's own light (vision.dice._d2_local)."""
    W = dice_mod.WIN
    tmpl = np.zeros((W, W, 3), np.float32)
    tmpl[...] = (120.0, 128.0, 128.0)
    lab = tmpl + np.float32([30.0, 0.0, 0.0])
    lab += np.random.default_rng(6).normal(0, 1.0, lab.shape).astype(np.float32)
    lab[20:37, 20:37, 0] += 35.0
    lab[26:31, 26:31, 0] -= 90.0  # a pip
    lay = Layout(BoardShape())
    on_field = np.ones((W, W), np.uint8)
    canvas = SimpleNamespace(window=lambda a, b: (tmpl, None, None, on_field))
    kit = SimpleNamespace(lay=lay, sigma=np.array([40.0, 3.0, 3.0], np.float32),
                          canvas=canvas, white=_model(WHITE_LAB, 1), black=_model(BLACK_LAB, 2),
                          pose=None)
    return kit, _bgr(lab), tmpl


@pytest.mark.parametrize("value", [1, 4])
def test_a_footprint_found_only_against_the_light_is_a_die_by_its_read(
        value: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The die's face read as ``value`` on the footprint found against the window's light: a
    4 is taken (a die like the board), and so is a 1 on a die's body (LOCAL_ONE: the body
    stands out round the pip), unless 1s are never taken there (LOCAL_NOT) or the fit sees no
    body round the pip."""
    kit, win, _t = _window_kit()
    W = dice_mod.WIN
    span = dice_mod.WIN_DIES * dice_mod.DIE_D * kit.lay.d
    dpx = dice_mod.DIE_D * kit.lay.d * W / span
    face = Face(28.0, 28.0, 0.0, dpx)

    def read_face(*_a: object, **_k: object) -> tuple:
        return value, face, 0.4, value

    monkeypatch.setattr(dice_mod, "read_face", read_face)
    monkeypatch.setattr(dice_mod, "LEARNED", False)
    centre = np.array([200.0, 100.0])

    def read() -> dice_mod.DieReading | None:
        return dice_mod._read_window(kit, win, np.eye(3), centre, span,  # type: ignore[arg-type]
                                     None, (0, 0))

    r = read()
    assert r is not None and r.value == value and not r.cocked
    if value == 1:
        monkeypatch.setattr(dice_mod, "LOCAL_NOT", (1,))
        assert read() is None
        monkeypatch.setattr(dice_mod, "LOCAL_NOT", ())
        monkeypatch.setattr(dice_mod, "one_on_body", lambda *_a, **_k: False)
        assert read() is None


def _reading(value: int | None, aspect: float) -> dice_mod.DieReading:
    return dice_mod.DieReading((100.0, 50.0), (0.0, 0.0), value, None, aspect > 1.32,
                               shape=(aspect, 0.8, 1.0, 0.0, 0.0))


@pytest.mark.parametrize("again_value,taken", [(6, True), (5, False), (None, False)])
def test_a_streaks_face_is_read_again_centred_on_it(
        again_value: int | None, taken: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 6 read on a streak's footprint (a die merged with a point's edge: cocked by the
    footprint) is read again in a window centred on its face: the same value on a footprint
    that is no streak is the die (flat); another value or none leaves the streak's reading."""
    streak = _reading(6, 2.5)
    again = _reading(again_value, 1.1)
    asked = []

    def read_die(frame: object, kit: object, H: object, centre: np.ndarray,
                 held: object = None, ground: bool = True, oneshot: bool = False
                 ) -> dice_mod.DieReading:
        asked.append(tuple(centre))
        return again

    monkeypatch.setattr(dice_mod, "read_die", read_die)
    got = dice_mod._recentred(np.zeros(1), None, np.eye(3), streak,  # type: ignore[arg-type]
                              np.zeros(1))
    assert asked == [streak.xy]
    assert (got is again) == taken and (got is streak) == (not taken)
    assert got.cocked == (not taken)
