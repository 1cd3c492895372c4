"""One-shot's second look: when a read's checkers do not add up to fifteen a side, the board's
look is learned from the read, as calibration learns it from a known position, and the photo is
read again with it.

The one-shot reader's provisional profile (:func:`calibration.oneshot.provisional_profile`)
takes the empty board's look from a median over the strips of each point kind and the checkers'
colours from the discs it found; it has no checker-top templates. A mid-game photo defeats
both: three of a kind's six points covered at the base make the median a checker's colour, and
marbled checkers show the disc vote no rim. Most of the first read is still right, and surely so
where its likelihood is high: calibration's learner (:func:`calibration.learn.learn`,
:func:`calibration.calibrate.learn_discs`), given that read as the position and told to learn
nothing from the regions it was not sure of (:data:`SURE`), builds a full profile (each point's
empty look, the colours, the checker tops). The photo read with it, the stacks the discs count
are put over it as over the first read (the real photos need them: a lone black on a black point
the colours miss).

Only a read that does not add up is looked at again (a second look costs about 95 ms a photo
here): ``python -m bench.bench_oneshot_finds`` (rendered mid-game frames, 32 setups x 2)
tuning 700000+ 1288 -> 1325/1792 slots, held-out 900000+ 1248 -> 1266; its median one-shot time
about 260 -> 355 ms, as nearly every rendered read falls short somewhere. Real photos
(``bench.bench_real``): 185/185 as before; six of eight add up and are not read again. Read
again regardless of the count, with the discs' counts not put over it, the renders gain more
(1342) but the real photos lose eleven slots; learned from every region, sure or not, 1322.
"""

from __future__ import annotations

import numpy as np

from engine import Position
from engine.observation import Observation
from vision.profile import BoardProfile
from vision.read import read

from .calibrate import learn_discs
from .learn import learn

SURE = 0.9  # a region the first read gives less than this likelihood teaches nothing
CHECKERS = 15  # each side's checkers (every supported game's)


def adds_up(obs: Observation) -> bool:
    """Whether a read's best counts (board, bar and trays) make fifteen checkers a side."""
    best = [c for c in obs.best_counts() if c is not None]
    return sum(w for w, _ in best) == CHECKERS and sum(b for _, b in best) == CHECKERS


def guessed_position(obs: Observation) -> Position:
    """The position a read's best counts show (a point showing both colours taken as the more
    numerous; an unseen region empty). Not a legal position: the learner needs none."""
    best = [c if c is not None else (0, 0) for c in obs.best_counts()]
    points = tuple(w if w >= b else -b for w, b in best[:24])
    return Position(points, bar_white=best[24][0], bar_black=best[25][1],
                    off_white=best[26][0], off_black=best[27][1])


def unsure_regions(obs: Observation, sure: float | None = None) -> tuple[int, ...]:
    """Regions the read is unsure of: unseen, or whose best count's likelihood is under
    ``sure`` (default :data:`SURE`)."""
    sure = SURE if sure is None else sure
    return tuple(i for i, r in enumerate(obs.regions) if not r or max(r.values()) < sure)


def relearned(frame: np.ndarray, prof: BoardProfile, obs: Observation) -> BoardProfile:
    """A profile of ``prof``'s board learned from ``frame`` read as ``obs`` (its sure regions)."""
    pos = guessed_position(obs)
    unknown = unsure_regions(obs)
    out = learn(frame, prof.corners, pos, prof.shape, prof.trays_right, unknown=unknown)
    out.discs = learn_discs(frame, out, pos, unknown=unknown)
    return out


def read_again(frame: np.ndarray, prof: BoardProfile, obs: Observation) -> Observation:
    """``frame`` read again (no dice nor cube) with :func:`relearned`'s profile."""
    return read(frame, relearned(frame, prof, obs), settled=False)
