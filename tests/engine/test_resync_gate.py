"""The side to roll's dice read on a board no part of that roll's play gives
(``Resync._caught_up``): the table of two plays (about 200 variant searches in Plakoto, ~1 s of a
settled frame) is built only when some play and reply could explain the board
(``Resync._may_catch_up``, bounded by :func:`engine.resync.reply_reach`). The answer is the same
either way: each case runs with the gate and with the gate forced open, and compares events."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.inference import EVERY_ROLL, MISFITS, misfits
from engine.moves import legal_plays
from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Referee
from engine.resync import Resync, reply_reach
from engine.rules import PLAKOTO, STANDARD, Rules
from vision.turns import TrackedObservation

from .test_fusion_inference import white_to_roll
from .variants.helpers import referee_at


def after(pos: Position, side, roll: tuple[int, int], notation: str,  # noqa: ANN001
          rules: Rules = STANDARD) -> Position:
    return next(p.after for p in legal_plays(pos, side, roll, rules) if p.notation == notation)


def dice_read(pos: Position, run: int, values: tuple[int, int], base: bool = False
              ) -> TrackedObservation:
    obs = Observation.exact(pos, dice=Dice(values, "white"), with_base=base)
    return TrackedObservation(obs.regions, obs.dice, floor=obs.floor, base=obs.base, run=run)


def observed(make: Callable[[], Referee], obs: TrackedObservation, monkeypatch: pytest.MonkeyPatch,
             gate: bool) -> tuple[list[str], int]:
    """The events of ``obs`` on a fresh referee, and how many tables were built."""
    built = [0]
    table = Resync._table

    def counted(self, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
        built[0] += 1
        return table(self, *a, **k)

    with monkeypatch.context() as m:
        m.setattr(Resync, "_table", counted)
        if not gate:
            m.setattr(Resync, "_may_catch_up", lambda *a: True)
        ref = make()
        events = ref.observe(obs)
    return [f"{e.type} {e!r}" for e in events], built[0]


def test_a_roll_read_after_the_rollers_own_play_of_another_roll_builds_no_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """White's 13/5 (a 5-3) on the board, its 6-4 read after: flagged as ever, no table."""
    board = after(white_to_roll().position, WHITE, (5, 3), "13/5")
    obs = dice_read(board, 1, (6, 4))
    gated, built = observed(white_to_roll, obs, monkeypatch, gate=True)
    opened, built_open = observed(white_to_roll, obs, monkeypatch, gate=False)
    assert [g.split()[0] for g in gated][:2] == ["Rolled", "IllegalMoveFlagged"]
    assert gated == opened
    assert built_open >= 1 and built == 0


def test_a_plakoto_roll_read_after_the_rollers_own_play_builds_no_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    start = PLAKOTO.start
    board = after(start, WHITE, (6, 5), "24/19 24/18", PLAKOTO)
    obs = dice_read(board, 1, (3, 1), base=True)

    def make() -> Referee:
        return referee_at(PLAKOTO, start)

    gated, built = observed(make, obs, monkeypatch, gate=True)
    opened, built_open = observed(make, obs, monkeypatch, gate=False)
    assert gated == opened and gated
    assert built_open >= 1 and built == 0


def test_a_roll_read_two_plays_on_still_builds_the_table(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The case the table is for: white's play and black's reply unseen, white's next roll
    read: both plays recorded, then the roll."""
    mid = after(white_to_roll().position, WHITE, (6, 5), "24/13")
    end = after(mid, BLACK, (4, 2), "8/4 6/4")
    obs = dice_read(end, 1, (3, 1))
    gated, built = observed(white_to_roll, obs, monkeypatch, gate=True)
    opened, _ = observed(white_to_roll, obs, monkeypatch, gate=False)
    assert gated == opened and built >= 1
    assert [g.split()[0] for g in gated] == ["Rolled", "Moved", "Rolled", "Moved", "Rolled"]


@pytest.mark.parametrize("rules", [STANDARD, PLAKOTO], ids=lambda r: r.name)
def test_no_reply_fits_better_or_misfits_less_than_its_bound(rules: Rules) -> None:
    """Every board every roll's reply leaves from a first play fits at most its bound and
    misfits at least its forced regions, on a soft reading of another board."""
    start = rules.start
    first = after(start, WHITE, (6, 5), "24/19 24/18" if rules.pins else "24/18 13/8", rules)
    shown = after(first, BLACK, (3, 1), "24/23 24/21" if rules.pins else "8/5 6/5", rules)
    obs = Observation.exact(shown, p=0.9, with_base=rules.pins)
    regions = list(obs.regions)
    regions[5] = {(0, 5): 0.5, (0, 4): 0.4, (1, 4): 0.1}  # a stack read unsure
    obs = Observation(regions, floor=obs.floor, base=obs.base)
    firsts = ((6, 5), (2, 1))  # blots left to hit (backgammon) or pin
    mids = {p.after for roll in firsts for p in legal_plays(start, WHITE, roll, rules)}
    reach = reply_reach(obs, mids, WHITE, rules.hits)
    checked = 0
    for mid in mids:
        bound, forced = reach[mid]
        for roll in EVERY_ROLL:
            for p in legal_plays(mid, BLACK, roll, rules):
                assert obs.log_likelihood(p.after) <= bound + 1e-9
                assert misfits(obs, p.after) >= forced
                checked += 1
    assert checked > 200
    best = max(b for b, f in reach.values() if f <= MISFITS)
    assert best >= obs.log_likelihood(shown)
