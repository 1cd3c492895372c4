"""``DiscModel.slot_llr`` reads the clipped pixels' rules (``CENSORED``, ``EMPTY_SAYS``,
``CLIP_SAYS``, ``Gathered.blind``) through masks over all pixels, in place of indexing the
clipped ones (thousands under glare; the fancy indexing of the strided model views cost more
than the likelihoods): its LLRs are bit for bit those of the indexed reading, kept here as the
reference, on strips with many clipped pixels, bright empty looks, bright tops, censored and
blind strips. Likewise ``Gathered.alike`` on one strip and ``change_llr``'s parameters kept
through a point's learned empty look."""

from __future__ import annotations

import copy

import numpy as np

from tests.scenes.dataset import random_state
from tests.vision.test_hands import _calibrated
from vision import discs
from vision.discs import DiscModel, Gathered, take_pixels
from vision.read import disc_evidence, prepared
from vision.strips import N_STRIPS, sample


def _reference(lab: np.ndarray, g: Gathered) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The indexed reading as it was (session 13)."""
    xu = take_pixels(lab, g.idx)
    x = xu.astype(np.float32)
    z = x[None] - g.mean
    z *= g.inv
    np.square(z, out=z)
    ll = z[..., 0] + z[..., 1]
    ll += z[..., 2]
    ll *= -0.5
    ll += g.const
    clipped = np.nonzero(xu[..., 0] >= discs.CLIP_L)
    tell = None
    cz: tuple = clipped
    if g.censor is not None and len(clipped[0]):
        on = g.censor[clipped[0]]
        if on.any():
            cz = tuple(i[on] for i in clipped)
            tell = discs._censored_colours(ll, x, g, cz)
            if g.blind is not None:
                tell[g.blind[cz[0]]] = 0.0
    lbg, lw, lb = np.maximum(ll, discs.OTHER_LOG, out=ll)
    foreign = np.maximum(np.maximum(lw, lb), lbg) == discs.OTHER_LOG
    lw -= lbg
    lb -= lbg
    np.clip(lw, -discs.CLIP, discs.CLIP, out=lw)
    np.clip(lb, -discs.CLIP, discs.CLIP, out=lb)
    if tell is not None:
        a, b = lw[cz], lb[cz]
        best = np.maximum(a, b)
        lw[cz] = best - np.maximum(-tell, 0.0)
        lb[cz] = best - np.maximum(tell, 0.0)
    es, cs = discs.EMPTY_SAYS, discs.CLIP_SAYS
    assert es is not None and cs is not None
    bright = (g.mean[0][..., 0][clipped] >= discs.EMPTY_L) & (
        g.inv[0][..., 0][clipped] >= 1.0 / discs.EMPTY_SIGMA)
    for c, llr in ((1, lw), (2, lb)):
        on = bright & (g.mean[c][..., 0][clipped] >= discs.BOTH_L)
        at = tuple(i[on] for i in clipped)
        if len(at[0]):
            llr[at] = np.clip(llr[at], -es, es)
    both = np.minimum(g.mean[1][..., 0][clipped], g.mean[2][..., 0][clipped]) >= discs.BOTH_L
    sat = tuple(i[both] for i in clipped)
    if len(sat[0]):
        a, b = lw[sat], lb[sat]
        best = np.maximum(a, b) - cs
        lw[sat] = np.maximum(a, best)
        lb[sat] = np.maximum(b, best)
    return lw, lb, foreign


def _case(seed: int, censor: bool, blind: bool) -> tuple[np.ndarray, Gathered]:
    """Six strips of 400 pixels, 500 disc pixels (some strip pixels twice) laid out as
    ``DiscModel.gather`` lays them: bright empty looks (L 195-252), tops a little brighter and
    darker, a third of the pixels clipped."""
    rng = np.random.default_rng(seed)
    n, p, q = 6, 400, 500
    idx = np.sort(rng.integers(0, p, q))
    look = np.stack([rng.uniform(195.0, 252.0, (n, p)), rng.uniform(120.0, 136.0, (n, p)),
                     rng.uniform(120.0, 136.0, (n, p))], -1)
    lab = np.clip(look + rng.normal(0.0, 4.0, look.shape), 0, 255)
    lab[..., 0][rng.random((n, p)) < 0.35] = 255
    lab = np.rint(lab).astype(np.uint8)
    shift = np.array([0.0, 8.0, -8.0])[:, None, None, None] * np.array([1.0, 0.3, 0.3])
    mean = (look[:, idx][None] + shift + rng.normal(0.0, 2.0, (3, n, q, 3))).astype(np.float32)
    sig = rng.uniform(3.0, 9.0, (3, n, q, 3))
    sig[0, :, : q // 2] = rng.uniform(3.0, 5.5, (n, q // 2, 3))  # own looks (EMPTY_SIGMA)
    inv = (1.0 / sig).astype(np.float32)
    const = (-np.log(sig).sum(-1) - 2.7568).astype(np.float32)
    lay = [np.ascontiguousarray(a.swapaxes(1, 2)).swapaxes(1, 2) for a in (mean, inv, const)]
    g = Gathered(idx, *lay)
    if censor:
        g.censor = np.array([True, False, True, True, False, True])
    if blind:
        g.blind = np.array([False, False, True, False, False, True])
    return lab, g


def test_masked_clipped_rules_are_the_indexed_ones_bit_for_bit() -> None:
    for seed, censor, blind in ((0, False, False), (1, True, False), (2, True, True)):
        lab, g = _case(seed, censor, blind)
        want = _reference(lab, g)
        got = DiscModel.slot_llr(lab, g)
        for a, b in zip(want, got, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        # the case says something, clipped pixels too
        assert np.count_nonzero(want[0] != want[1]) > 1000
        clipped = take_pixels(lab, g.idx)[..., 0] >= discs.CLIP_L
        assert np.count_nonzero((want[0] != want[1]) & clipped) > 300


def test_one_strips_alike_is_the_whole_alike_bit_for_bit() -> None:
    """``Gathered.alike`` on one strip's pixels (after ``refresh_empty`` gave them a learned
    empty look; each model's row set by one index) leaves the same parameters as ``alike``
    over everything: the other strips keep theirs, the strip's tops come back where the new
    look is unlike them."""
    lab, g = _case(3, False, False)
    g.alike()
    row, px = 2, np.flatnonzero(np.random.default_rng(4).random(g.idx.shape[0]) < 0.4)
    m = g.mean[0, row, px] + np.float32(5.0)
    inv = g.inv[0, row, px] * np.float32(0.7)
    c = g.const[0, row, px] - np.float32(0.3)
    g.mean[0, row, px], g.inv[0, row, px], g.const[0, row, px] = m, inv, c
    whole = copy.deepcopy(g)
    whole.alike()
    g.alike(row, px, (m, inv, c))
    for name in ("mean", "inv", "const"):
        assert np.array_equal(getattr(g, name), getattr(whole, name))
    assert g.tops is not None
    assert 0 < np.count_nonzero(g.mean[1, row, px] != g.tops[0][0, row, px]) < 3 * len(px)


def test_a_learned_point_look_keeps_the_trays_change_parameters() -> None:
    """``learn_empty`` on a point keeps ``change_llr``'s parameters of the trays (their looks
    did not change; building them again cost more than the trays' evidence): the trays' LLRs
    are those of a model that builds them afresh; tops changed before the learning are taken
    as a rebuild took them; tops changed with no learning since keep the parameters as they
    were (as before). Tuning seed 700001."""
    setup, scene, _, shared = _calibrated(700001)
    prof = copy.deepcopy(shared)  # (the cached profile is other tests' too)
    img, _ = scene.render(random_state(setup, 700001 * 100))
    prep = prepared(prof, (img.shape[1], img.shape[0]))
    disc_evidence(sample(img, prep["maps"], N_STRIPS), prof, prep)
    d = prof.discs
    assert d is not None and d._change is not None
    trays, key = np.arange(26, 28), (26, 27)
    lab = prep["lab"][26:]
    built = d._change[key][0]

    def fresh() -> np.ndarray:
        other = copy.deepcopy(d)
        other._change = None
        return other.change_llr(lab, trays)

    def learn() -> int:
        strip = next(i for i in range(24) if d.borrowed(i).any())
        look = np.clip(np.rint(d.bg_mean[strip]), 0, 255).astype(np.uint8)
        assert d.learn_empty(strip, look, np.ones(look.shape[0], bool))
        return strip

    learn()
    assert np.array_equal(d.change_llr(lab, trays), fresh())
    assert d._change[key][0] is built  # kept, not built again
    # the black tops relearned (``learn_lone_tops``), here near black's tray floor
    d.mean[1][:] = lab[0].astype(np.float32).mean(0) + np.float32([10.0, 0.0, 0.0])
    stale = d.change_llr(lab, trays)
    assert not np.array_equal(stale, fresh())  # no look learned since: as it was
    learn()
    assert np.array_equal(d.change_llr(lab, trays), fresh())
    assert not np.array_equal(d.change_llr(lab, trays), stale)


def test_the_learned_looks_fit_is_np_quantiles_decision() -> None:
    """``learn_empty``'s fit test (the 95th percentile of the mean squared z within
    ``LEARN_FIT``) counts the values past the bound in place of np.quantile where that settles
    it: the same decision on skewed, rounded and tied values, bounds at the quantile itself
    and at the sorted values beside it."""
    rng = np.random.default_rng(5)
    decided = 0
    for it in range(400):
        n = int(rng.integers(1, 200))
        v = (rng.gamma(1.0, 5.0, n) ** rng.uniform(0.5, 2.0)).astype(np.float32)
        if it % 3 == 0:
            v = np.round(v).astype(np.float32)
        s = np.sort(v)
        q = float(np.quantile(v, 0.95))
        h = int(0.95 * (n - 1))
        for bound in (16.0, q, float(np.float32(q)), float(s[h]), float(s[min(h + 1, n - 1)])):
            want = not np.quantile(v, 0.95) > bound
            assert discs._quantile_within(v, 0.95, bound) == want
            decided += 1
    assert decided == 2000


def test_the_clipped_rules_masks_follow_the_parameters(monkeypatch) -> None:  # noqa: ANN001
    """``Gathered.says_masks`` are made once per set of parameters: kept between frames,
    made again after ``alike`` (a learned empty look) and when the constants change; the LLRs
    stay the indexed reading's throughout."""
    lab, g = _case(6, True, False)
    g.alike()
    for a, b in zip(_reference(lab, g), DiscModel.slot_llr(lab, g), strict=True):
        assert np.array_equal(a, b)
    first = g.says_masks()[0]
    assert g.says_masks()[0] is first  # kept
    row = 1
    px = np.flatnonzero(g.mean[0, row, :, 0] < 230.0)
    m = g.mean[0, row, px] + np.float32([25.0, 0.0, 0.0])
    inv, c = g.inv[0, row, px] * np.float32(1.5), g.const[0, row, px]
    g.mean[0, row, px], g.inv[0, row, px] = m, inv
    g.alike(row, px, (m, inv, c))
    assert g._says is None
    for a, b in zip(_reference(lab, g), DiscModel.slot_llr(lab, g), strict=True):
        assert np.array_equal(a, b)
    assert not np.array_equal(g.says_masks()[0], first)
    monkeypatch.setattr(discs, "BOTH_L", 230.0)
    for a, b in zip(_reference(lab, g), DiscModel.slot_llr(lab, g), strict=True):
        assert np.array_equal(a, b)
