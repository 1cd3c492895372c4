"""No false flags: cases from the held-out pipeline bench (``bench.bench_pipeline --cache``,
fresh reads) where the referee accused a player of an illegal play he did not make, rebuilt as
small observation sequences (the regions as the stable reader handed them over).

Five-stacks are read soft (``gammoncam.steady.tall_stacks``: five or more alike), as in the
bench's reads.
"""

from __future__ import annotations

from dataclasses import replace

from engine.observation import Dice, Observation
from engine.referee import Phase

from .refhelp import board, exact, new_match, types

START_BLACK = {24: 2, 13: 5, 8: 3, 6: 5}
START = board({24: 2, 13: 5, 8: 3, 6: 5}, START_BLACK)


def _tall(obs: Observation) -> Observation:
    """Every five-stack read as the bench's reads show it: five likelier, any more alike."""
    regions = list(obs.regions)
    for i, r in enumerate(regions):
        if r is None:
            continue
        (w, b), = r
        if max(w, b) == 5:
            regions[i] = {((n, 0) if w else (0, n)): (0.2137 if n == 5 else 0.0786)
                          for n in range(5, 16)}
    return replace(obs, regions=regions, floor=1e-4)


def test_opening_half_played_with_the_dice_down_is_no_flag() -> None:
    """Held-out 900000 illegal_corrected f16: the opening 3-2 read (one die each) with the
    board at the start, then white's checker paused on its way 8/5/3 (the dice still down): the
    play is half made, not an illegal one. It was flagged 'played only the 3'."""
    ref = new_match()
    start = _tall(exact(START))
    assert ref.observe(replace(start, dice=Dice((2, 3)))) == []
    half = _tall(exact(board({24: 2, 13: 5, 8: 2, 6: 5, 5: 1}, START_BLACK)))
    events = ref.observe(replace(half, dice=Dice((2, 3))))
    assert "IllegalMoveFlagged" not in types(events)
    assert ref.phase == Phase.ROLLED  # the opening recorded, the play waits
    done = _tall(exact(board({24: 2, 13: 5, 8: 2, 6: 5, 3: 1}, START_BLACK)))
    moved = [e for e in ref.observe(done) if e.type == "Moved"]
    assert [e["play"] for e in moved] == ["8/3"]
