"""Rank agreement of a cheaper pattern score with the finder's own, on the real photos:
``python -m bench.bench_finder_rank [--grids 22x20,33x30]``.

The finder's climbs (:func:`calibration.find._refine_many`) score sets of neighbouring quads on
the COARSE grid and take the best; a cheaper score can only stand in for it where it picks the
same quads. Every set of two or more quads the finder scores on the COARSE grid while it reads
../shared/real (the checker grid's candidates and each climb's moves) is scored again on each
cheaper grid; per grid it prints the sets compared, how often the cheaper score's best is the
COARSE score's best (top-1 agreement), the median Spearman rank correlation, and how much COARSE
score the cheaper pick gives up (median and 90th percentile). Measure this before wiring a
cheaper score into the finder: a shortcut that picks other quads changes where the climbs end.

Measured at 23964ba (real photos, 302 sets): against the finder's COARSE scores, 22x20 top-1
agreement 0.33 (median rank correlation 0.36), 30x27 0.31 (0.40), 33x30 0.28 (0.20); but the
COARSE grid itself agrees with a finer one no better (``--grids 88x80,112x100``: 0.37 / 0.37,
0.57 / 0.54). Against 88x80 (``--ref 88x80``): 44x40 0.37 (0.57), 22x20 0.12 (-0.60); blurring
the working image first does not help (44x40@2 0.32, @4 0.36; 22x20@4 0.11, @6 0.12). Among
neighbouring quads the score's order depends on the grid's sampling, so the climbs' fine steps
follow the grid, and a shortcut that picks other quads ends elsewhere by chance (judge one on
many frames, bench_oneshot_finds, not on one photo's slot).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

import calibration.find as find
from bench.bench_real import REAL
from calibration.zoom import find_zoomed


def _ranks(v: np.ndarray) -> np.ndarray:
    return np.argsort(np.argsort(v)).astype(np.float64)


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation of two score vectors (ties broken by order)."""
    ra, rb = _ranks(a), _ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


Grid = tuple[int, int, float]  # across, down, the blur (sigma, working pixels) before warping


def parse_grid(text: str) -> Grid:
    """``WxH`` or ``WxH@SIGMA`` (the working image blurred by SIGMA before the warp)."""
    size, _, sigma = text.partition("@")
    w, h = (int(v) for v in size.split("x"))
    return w, h, float(sigma or 0.0)


def _scored(img: np.ndarray, quads: list[np.ndarray], bar: float, g: Grid,
            blurred: dict[float, np.ndarray]) -> np.ndarray:
    if g[2] > 0 and g[2] not in blurred:
        blurred[g[2]] = cv2.GaussianBlur(img, (0, 0), g[2])
    src = blurred[g[2]] if g[2] > 0 else img
    m = find._model((g[0], g[1]))
    return find._Model.scores(m, find._Model.warps(m, src, quads), bar)


def record(images: list[np.ndarray], grids: list[Grid], ref: Grid | None = None
           ) -> list[list[np.ndarray]]:
    """Per set of two or more quads the finder scores on the COARSE grid while it finds each
    of ``images``: [the reference scores (the finder's own COARSE scores, or ``ref``'s), the
    scores on each of ``grids``]."""
    rows: list[list[np.ndarray]] = []
    last: dict[str, object] = {}
    warps, scores = find._Model.warps, find._Model.scores
    blurred: dict[float, np.ndarray] = {}

    def warps_kept(self: find._Model, img: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        if last.get("img") is not img:
            blurred.clear()
        last.update(img=img, quads=list(quads))
        return warps(self, img, quads)

    def scores_compared(self: find._Model, X: np.ndarray, bar: float) -> np.ndarray:
        s = scores(self, X, bar)
        quads = last.get("quads")
        if self.grid == find.COARSE and len(X) >= 2 and isinstance(quads, list) \
                and len(quads) == len(X):
            img = last["img"]
            find._Model.warps, find._Model.scores = warps, scores  # type: ignore[method-assign]
            try:
                row = [s if ref is None else _scored(img, quads, bar, ref, blurred)]  # type: ignore[arg-type]
                row += [_scored(img, quads, bar, g, blurred) for g in grids]  # type: ignore[arg-type]
            finally:
                find._Model.warps = warps_kept  # type: ignore[method-assign]
                find._Model.scores = scores_compared  # type: ignore[method-assign]
            rows.append(row)
        return s

    find._Model.warps, find._Model.scores = warps_kept, scores_compared  # type: ignore[method-assign]
    try:
        for img in images:
            try:
                find_zoomed(img)
            except find.BoardNotFound:
                pass
    finally:
        find._Model.warps, find._Model.scores = warps, scores  # type: ignore[method-assign]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_finder_rank",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--grids", default="22x20,30x27,33x30",
                    help="cheaper grids (across x down, @SIGMA: the working image blurred "
                         "first), comma-separated")
    ap.add_argument("--ref", default=None,
                    help="the reference grid (default: the finder's own COARSE scores)")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)
    grids = [parse_grid(g) for g in a.grids.split(",") if g]
    ref = parse_grid(a.ref) if a.ref else None
    paths = sorted(Path(REAL).glob("*.jpg"))
    if not paths:
        print(f"error: no photos in {REAL}", file=sys.stderr)
        return 2
    rows = record([cv2.imread(str(p)) for p in paths], grids, ref)  # type: ignore[arg-type]
    print(f"{len(rows)} sets of quads scored on the COARSE grid {find.COARSE} "
          f"({len(paths)} photos); reference: {a.ref or 'the COARSE scores'}")
    print(f"{'grid':>10} {'top-1 agree':>11} {'rank corr':>9} {'loss median':>11} {'loss p90':>9}")
    for i in range(1, len(grids) + 1):
        top = np.mean([np.argmax(r[0]) == np.argmax(r[i]) for r in rows])
        rho = np.nanmedian([spearman(r[0], r[i]) for r in rows if len(r[0]) > 2])
        loss = [float(r[0].max() - r[0][int(np.argmax(r[i]))]) for r in rows]
        print(f"{a.grids.split(',')[i - 1]:>10} {top:11.3f} {rho:9.3f} {np.median(loss):11.5f} "
              f"{np.percentile(loss, 90):9.5f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
