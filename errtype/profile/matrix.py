"""Binary feature matrices and the logistic regression of the profile's learners (fit time
only: scikit-learn, extra ``profile``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ResourceError

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


def logistic_regression() -> Any:
    """scikit-learn's ``LogisticRegression`` class, or a clear error without the extra (asked
    for before any work, so that a missing extra is said first)."""
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError as exc:
        raise ResourceError("errtype fit needs scikit-learn: pip install 'errtype[profile]'"
                            ) from exc
    return LogisticRegression
