"""Hugging Face encoders for the neural metrics (BERTScore, IMPARA, SOME): loading by name,
directory or object, and batched inference with the input sorted by length and the results
returned in input order. torch and transformers are imported on first use (the ``lm`` extra).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from ...errors import ResourceError
from .models import _import_hf


def load(model: Any, kind: str = "AutoModel", tokenizer: Any = None, *,
         device: str = "cpu", local_files_only: bool = False) -> tuple[Any, Any]:
    """(model, tokenizer): ``model`` a hub name or local directory loaded with
    ``transformers.<kind>.from_pretrained``, or a built model object (then ``tokenizer`` is
    required)."""
    torch, transformers = _import_hf()
    if isinstance(model, (str, os.PathLike)):
        name = str(model)
        try:
            tokenizer = tokenizer or transformers.AutoTokenizer.from_pretrained(
                name, local_files_only=local_files_only)
            model = getattr(transformers, kind).from_pretrained(
                name, local_files_only=local_files_only)
        except OSError as exc:
            raise ResourceError(f"cannot load model {name!r}: {exc}") from None
    elif tokenizer is None:
        raise ResourceError("a model object needs its tokenizer")
    return model.to(device).eval(), tokenizer


def model_name(model: Any) -> str:
    if isinstance(model, (str, os.PathLike)):
        return str(model)
    return getattr(getattr(model, "config", None), "name_or_path", "") or "custom"


def batched(texts: Sequence[Any], fn: Callable[[list[Any]], list[Any]], batch_size: int,
            key: Callable[[Any], int] = lambda t: len(str(t))) -> list[Any]:
    """``fn`` over batches of the texts sorted by ``key`` (long first), results in input
    order."""
    order = sorted(range(len(texts)), key=lambda i: -key(texts[i]))
    out: list[Any] = [None] * len(texts)
    for k in range(0, len(order), max(1, batch_size)):
        rows = order[k:k + batch_size]
        for i, r in zip(rows, fn([texts[i] for i in rows]), strict=True):
            out[i] = r
    return out
