"""A match a .mat cannot hold is an export error naming the move, not a traceback (the CLI says it
in one line, the web app answers 409); the other formats still export it."""

from __future__ import annotations

import pytest

from engine.export import ExportError, export_match
from engine.position import Side
from engine.record import Action, Kind
from tests.engine.test_matfile_unwritable import OPENING, _let_stand, _moved, _one_game


def _five_checker_record():
    after = _moved(OPENING.after, Side.BLACK, (6, 5), (8, 7), (13, 11), (24, 23), (24, 22))
    return _one_game(Action(Side.WHITE, Kind.ROLL, (3, 1), OPENING.steps),
                     _let_stand(OPENING.after, after, Side.BLACK, (2, 1)))


def test_an_unwritable_mat_is_an_export_error_naming_the_move() -> None:
    with pytest.raises(ExportError, match=r"cannot be written as a \.mat \(game 1, move 1: "):
        export_match("mat", _five_checker_record(), [])


def test_the_same_match_still_exports_as_sgf() -> None:
    assert export_match("sgf", _five_checker_record(), []).startswith("(;")
