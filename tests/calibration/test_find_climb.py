"""The finder's hill climb on plain floats (find._climb) ends where the same climb on arrays
(as it was written before, kept here as the plain form) ends, quick and thorough, with the same
scores asked for: the quads, bars and scores bit for bit."""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

import calibration.find as find
from calibration.find import (
    ALL_BARS,
    COARSE,
    ROUNDS,
    Climb,
    _best_bar,
    _plausible_py,
    _refine_many,
    plausible,
    work_lab,
)
from tests.calibration.triangles import triangle_board


def _array_climb(img: np.ndarray, quad: np.ndarray, bar: float, steps: tuple[float, ...],
           grid: tuple[int, int], thorough: bool) -> Climb:
    """find._climb as it was, on arrays (the plain form)."""
    q = np.asarray(quad, np.float64).copy()
    best = float((yield bar, [q])[0])
    min_side = 0.2 * min(img.shape[:2])
    memo: dict[bytes, float] = {q.tobytes(): best}

    def take(cands: list[np.ndarray]) -> Generator[tuple[float, list[np.ndarray]], np.ndarray,
                                                   bool]:
        """The best of ``cands`` taken when it beats the quad as it stands (the scores of
        quads not scored yet at this bar asked for and kept)."""
        nonlocal q, best
        if not cands:
            return False
        keys = [c.tobytes() for c in cands]
        new = [i for i, k in enumerate(keys) if k not in memo]
        if new:
            got = yield bar, [cands[i] for i in new]
            for i, v in zip(new, got, strict=True):
                memo[keys[i]] = float(v)
        sc = np.asarray([memo[k] for k in keys])
        k = int(np.argmax(sc))
        if sc[k] > best + 1e-5:
            q, best = cands[k], float(sc[k])
            return True
        return False

    def try_moves(moves: list[tuple[list[int], np.ndarray]]
                  ) -> Generator[tuple[float, list[np.ndarray]], np.ndarray, bool]:
        """One group of moves (corners moved by a shift each), each made from the quad as it
        stands: taken one by one when ``thorough``, else the best of them."""
        if not thorough:  # all moves from the same quad: judged at once
            C = np.repeat(q[None], len(moves), axis=0)
            for k, (corners, shift) in enumerate(moves):
                C[k, corners] += shift
            return (yield from take([c for c in C if _plausible_py(c.tolist(), min_side)]))
        up = False
        for corners, shift in moves:
            cand = q.copy()
            cand[corners] += shift
            if plausible(cand, min_side):
                up |= yield from take([cand])
        return up

    for step in steps:
        corner_moves = [np.array(d, np.float64) for d in
                        ((step, 0), (-step, 0), (0, step), (0, -step))]
        improved = True
        rounds = 0
        while improved and rounds < ROUNDS:
            improved = False
            rounds += 1
            for i in range(4):
                improved |= yield from try_moves([([i], d) for d in corner_moves])
            for i in range(4):
                j = (i + 1) % 4
                e = q[j] - q[i]
                n = np.array([e[1], -e[0]]) / (np.linalg.norm(e) + 1e-9)
                improved |= yield from try_moves([([i, j], sgn * step * n) for sgn in (1, -1)])
        sb, b2 = _best_bar(img, q, grid, ALL_BARS)
        if sb > best:
            best, bar = sb, b2
            memo.clear()
            memo[q.tobytes()] = best
    return q, bar, best


def test_float_climbs_end_as_the_array_climbs(monkeypatch) -> None:  # noqa: ANN001
    rng = np.random.default_rng(23)
    _s, lab = work_lab(triangle_board())
    true = np.float64([[70, 40], [580, 40], [580, 450], [70, 450]])
    starts = [(true + rng.normal(0, 7, (4, 2)), b) for b in (0.05, 0.07, 0.03, 0.09)]
    asked: dict[str, list] = {"float": [], "array": []}
    warps = find._Model.warps

    def counting(name: str):  # noqa: ANN202
        def run(self, img, quads):  # noqa: ANN001, ANN202
            asked[name].append([np.asarray(q).tobytes() for q in quads])
            return warps(self, img, quads)
        return run

    for thorough in (False, True):
        for name in asked:
            asked[name].clear()
        monkeypatch.setattr(find._Model, "warps", counting("float"))
        new = _refine_many(lab, starts, (4.0, 2.0, 1.0), COARSE, thorough)
        monkeypatch.setattr(find, "_climb", _array_climb)
        monkeypatch.setattr(find._Model, "warps", counting("array"))
        old = _refine_many(lab, starts, (4.0, 2.0, 1.0), COARSE, thorough)
        monkeypatch.undo()
        moved = 0
        for (q1, b1, s1), (q2, b2, s2), (q0, _b) in zip(new, old, starts, strict=True):
            assert np.array_equal(q1, q2) and b1 == b2 and s1 == s2
            moved += int(np.abs(q1 - q0).max() > 1.0)
        assert moved >= 2  # the climbs went somewhere
        assert asked["float"] == asked["array"]  # the same quads scored, in the same order
