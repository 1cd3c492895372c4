"""The one-shot profile's medians compute what their plain forms do: the empty look's median
over a kind's strips with the disc-covered pixels left out (NaN) as np.nanmedian, the
background's per-channel medians as np.median."""

from __future__ import annotations

import warnings

import numpy as np

from calibration.oneshot import _median_columns, _nanmedian0


def test_nanmedian0_is_numpys_nanmedian() -> None:
    rng = np.random.default_rng(31)
    for n in range(1, 9):
        a = np.round(rng.random((n, 30, 20, 3)) * 40).astype(np.float32)  # many ties
        a[rng.random(a.shape) < 0.3] = np.nan
        a[:, 0, 0] = np.nan  # a pixel every strip covers
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices
            want = np.nanmedian(a, axis=0)
        got = _nanmedian0(a)
        assert np.array_equal(got, want, equal_nan=True)


def test_median_columns_is_numpys_median() -> None:
    rng = np.random.default_rng(32)
    for n in (1, 2, 7, 1000, 4001):
        a = (rng.random((n, 3)) * 255).astype(np.float32)
        assert np.array_equal(_median_columns(a), np.median(a, 0))
