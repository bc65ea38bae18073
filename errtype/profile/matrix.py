"""Binary feature matrices for the profile's learners (fit time only: needs SciPy)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

#: a feature seen in fewer training examples is left out of the vocabulary
MIN_COUNT = 2


def binary_matrix(features: Sequence[Iterable[str]], min_count: int = MIN_COUNT
                  ) -> tuple[list[str], Any]:
    """The vocabulary (features of at least ``min_count`` examples, sorted) and the sparse 0/1
    matrix of ``features`` over it, one row per example."""
    from scipy.sparse import csr_matrix

    rows = [set(f) for f in features]
    counts = Counter(x for f in rows for x in f)
    vocab = sorted(x for x, n in counts.items() if n >= min_count)
    index = {x: i for i, x in enumerate(vocab)}
    ind: list[int] = []
    ptr = [0]
    for f in rows:
        ind += sorted(index[x] for x in f if x in index)
        ptr.append(len(ind))
    return vocab, csr_matrix(([1.0] * len(ind), ind, ptr), shape=(len(rows), len(vocab)))
