"""Resampling statistics over sentences: bootstrap intervals, paired bootstrap and paired
approximate randomisation tests, Holm's correction. Vectorised with numpy.

Every statistic is computed from per-sentence count columns (``[n, k]`` arrays), so one set of
bootstrap weights serves every system, type and measure, and paired tests use the same resamples
for both systems. Seeds make every number reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

import numpy as np

Stat = Callable[[np.ndarray], np.ndarray]  # summed counts [..., k] -> statistic [...]
CHUNK = 256  # resamples per matrix product (bounds memory on large corpora)


def prf_array(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, beta: float = 0.5
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`errtype.score.common.prf` elementwise: P = 1 without FP, R = 1 without FN,
    F = 0 when P + R = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(fp > 0, tp / np.maximum(tp + fp, 1e-300), 1.0)
        r = np.where(fn > 0, tp / np.maximum(tp + fn, 1e-300), 1.0)
        b2 = beta * beta
        den = b2 * p + r
        f = np.where(p + r > 0, (1 + b2) * p * r / np.where(den > 0, den, 1.0), 0.0)
    return p, r, f


def f_stat(beta: float = 0.5, part: int = 2) -> Stat:
    """Statistic of ``[..., 3]`` TP/FP/FN sums: part 0 = P, 1 = R, 2 = F-beta."""

    def stat(s: np.ndarray) -> np.ndarray:
        return prf_array(s[..., 0], s[..., 1], s[..., 2], beta)[part]

    return stat


def ratio_stat(s: np.ndarray) -> np.ndarray:
    """``[..., 2]`` sums -> numerator / denominator (0 when the denominator is 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(s[..., 1] > 0, s[..., 0] / np.where(s[..., 1] > 0, s[..., 1], 1), 0.0)


def _columns(x: np.ndarray) -> np.ndarray:
    """``[n, ...]`` -> ``[n, k]`` float64 (also for n = 0, an empty corpus)."""
    return x.reshape(x.shape[0], int(np.prod(x.shape[1:], dtype=np.int64))).astype(np.float64)


def bootstrap_weights(n: int, samples: int, seed: int) -> np.ndarray:
    """``[samples, n]`` resampling weights: how often each sentence is drawn (n draws with
    replacement per sample; numpy's PCG64 seeded with ``seed``). An empty corpus has none."""
    rng = np.random.default_rng(seed)
    out = np.zeros((samples, n), dtype=np.float64)
    if n == 0:
        return out
    for b in range(samples):
        out[b] = np.bincount(rng.integers(0, n, n), minlength=n)
    return out


def resampled_sums(weights: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Per-sample sums of per-sentence counts: ``weights [B, n] @ x [n, ...] -> [B, ...]``."""
    flat = _columns(x)
    out = np.empty((weights.shape[0], flat.shape[1]))
    for i in range(0, weights.shape[0], CHUNK):
        out[i:i + CHUNK] = weights[i:i + CHUNK] @ flat
    return out.reshape((weights.shape[0], *x.shape[1:]))


def percentile_ci(samples: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval over axis 0 (numpy's linear interpolation)."""
    a = (1 - level) / 2
    return np.percentile(samples, 100 * a, axis=0), np.percentile(samples, 100 * (1 - a), axis=0)


def paired_bootstrap_p(full_a: np.ndarray, full_b: np.ndarray, boot_a: np.ndarray,
                       boot_b: np.ndarray) -> np.ndarray:
    """Two-sided paired-bootstrap p-value of ``stat(A) - stat(B) = 0``.

    With ``d`` the observed difference and ``d*`` the differences on the same resamples,
    ``p = (1 + #{|d* - d| >= |d|}) / (B + 1)`` (the resampled differences, centred, as a null
    distribution; Koehn 2004, Berg-Kirkpatrick et al. 2012). Identical systems give p = 1.
    """
    d = full_a - full_b
    ds = boot_a - boot_b
    hits = (np.abs(ds - d) >= np.abs(d) - 1e-12).sum(axis=0)
    return (1 + hits) / (ds.shape[0] + 1)


#: the most bytes of swaps :func:`swap_masks` keeps for the next test (a corpus's pairs of
#: systems all use the same swaps); larger draws are made anew for each test, a chunk at a time
KEPT_SWAP_BYTES = 32 * 2**20


def _swap_chunks(n: int, trials: int, seed: int) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    for i in range(0, trials, CHUNK):
        yield rng.integers(0, 2, (min(CHUNK, trials - i), n)).astype(np.float64)


@lru_cache(maxsize=2)
def _kept_swaps(n: int, trials: int, seed: int) -> tuple[np.ndarray, ...]:
    chunks = tuple(_swap_chunks(n, trials, seed))
    for m in chunks:
        m.flags.writeable = False
    return chunks


def swap_masks(n: int, trials: int, seed: int) -> Iterable[np.ndarray]:
    """The swaps of :func:`approximate_randomization`: ``[trials, n]`` zeros and ones (numpy's
    PCG64 seeded with ``seed``) in chunks of :data:`CHUNK` trials; drawn once for every pair
    of systems when they fit in :data:`KEPT_SWAP_BYTES`."""
    if 8 * n * trials <= KEPT_SWAP_BYTES:
        return _kept_swaps(n, trials, seed)
    return _swap_chunks(n, trials, seed)


def approximate_randomization(a: np.ndarray, b: np.ndarray, stat: Stat, trials: int,
                              seed: int) -> np.ndarray:
    """Two-sided paired approximate-randomisation p-value(s) of ``stat(A) - stat(B) = 0``.

    ``a``/``b``: per-sentence counts ``[n, ..., k]``. Each trial swaps the two systems' counts
    of every sentence with probability 1/2; ``p = (1 + #{|d_r| >= |d|}) / (R + 1)`` (Noreen
    1989, Riezler & Maxwell 2005). Identical systems give p = 1.
    """
    n = a.shape[0]
    sa, sb = a.sum(axis=0).astype(np.float64), b.sum(axis=0).astype(np.float64)
    d = stat(sa) - stat(sb)
    diff = _columns(b - a)
    hits = np.zeros(d.shape)
    for m in swap_masks(n, trials, seed):
        moved = (m @ diff).reshape((m.shape[0], *sa.shape))
        dr = stat(sa + moved) - stat(sb - moved)
        hits += (np.abs(dr) >= np.abs(d) - 1e-12).sum(axis=0)
    return (1 + hits) / (trials + 1)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out
