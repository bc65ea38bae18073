"""What the Hugging Face metrics share: importing torch/transformers on first use, the device and
dtype settings, loading a model by name or directory, and length-sorted batches.

Nothing here imports torch at module import time (the registry imports every module of
``errtype.score.lm``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...errors import InputError, ResourceError
from ..options import option

__all__ = ["DTYPES", "HFMetric", "encoded_batches", "import_hf", "load_pretrained",
           "model_name", "resolve_device", "resolve_dtype", "sorted_batches"]

#: the dtype settings (float32: the reference scores; the others are faster on a GPU)
DTYPES = ("float32", "bfloat16", "float16")


def import_hf(what: str = "the hf: language models") -> tuple[Any, Any]:
    """``(torch, transformers)``, or a ResourceError naming the extra that installs them."""
    try:
        import torch  # noqa: PLC0415
        import transformers  # noqa: PLC0415
    except ImportError:
        raise ResourceError(f"{what} need torch and transformers "
                            "(pip install 'errtype[lm]')") from None
    return torch, transformers


def resolve_device(device: str | None) -> str:
    """``auto`` (or None): ``cuda`` when a GPU is visible, else ``cpu``; other names as given."""
    if device in (None, "", "auto"):
        torch, _ = import_hf()
        return "cuda" if torch.cuda.is_available() else "cpu"
    return str(device)


def resolve_dtype(dtype: str | None) -> Any:
    """The torch dtype of a :data:`DTYPES` name (None: float32)."""
    name = dtype or "float32"
    if name not in DTYPES:
        raise InputError(f"unknown dtype {name!r} (choose from {', '.join(DTYPES)})")
    torch, _ = import_hf()
    return getattr(torch, name)


def load_pretrained(auto_class: str, name: str | os.PathLike[str], *, what: str,
                    local_files_only: bool = False, tokenizer: bool = True,
                    **tokenizer_kwargs: Any) -> tuple[Any, Any]:
    """``(model, tokenizer)`` from a hub name or a directory through ``transformers.<auto_class>``
    (``tokenizer=False``: no tokenizer, None in its place); a ResourceError names ``what`` and
    the model when either cannot be loaded."""
    _, transformers = import_hf()
    cls = getattr(transformers, auto_class)
    try:
        tok = transformers.AutoTokenizer.from_pretrained(
            str(name), local_files_only=local_files_only, **tokenizer_kwargs) if tokenizer else None
        model = cls.from_pretrained(str(name), local_files_only=local_files_only)
    except (OSError, ValueError) as exc:
        raise ResourceError(f"{what}: cannot load model {str(name)!r}: {exc}") from None
    return model, tok


def model_name(model: Any, given: Any = None) -> str:
    """A model's name for a signature: the name it was loaded by, else its config's."""
    if isinstance(given, (str, os.PathLike)):
        return str(given)
    return getattr(getattr(model, "config", None), "name_or_path", "") or "custom"


def sorted_batches(lengths: Sequence[int], batch_size: int) -> Iterator[list[int]]:
    """Indices of ``lengths`` in batches of ``batch_size``, shortest first (stable), so that a
    batch pads to about its own length; the caller puts the results back in input order."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    size = max(1, batch_size)
    for i in range(0, len(order), size):
        yield order[i:i + size]


def encoded_batches(tokenizer: Any, texts: Sequence[str],
                    pairs: Sequence[str] | None = None, *, max_length: int | None,
                    batch_size: int, device: str) -> Iterator[tuple[list[int], dict[str, Any]]]:
    """Tokenize every text (or text pair) in one call, truncated to ``max_length`` tokens, and
    yield ``(indices, tensors)`` per length-sorted batch, padded to the batch's longest item and
    moved to ``device`` (``tensors``: ``input_ids``, ``attention_mask`` and, where the tokenizer
    makes them, ``token_type_ids``)."""
    if not texts:
        return
    enc = tokenizer(list(texts), list(pairs) if pairs is not None else None,
                    truncation=max_length is not None, max_length=max_length)
    keys = [k for k in ("input_ids", "attention_mask", "token_type_ids") if k in enc]
    lengths = [len(ids) for ids in enc["input_ids"]]
    for batch in sorted_batches(lengths, batch_size):
        padded = tokenizer.pad([{k: enc[k][i] for k in keys} for i in batch],
                               return_tensors="pt")
        yield batch, {k: v.to(device) for k, v in padded.items()}


@dataclass
class HFMetric:
    """Settings and model loading shared by the metrics built on Hugging Face models (IMPARA,
    SOME, BERTScore): models load on first use, on ``device`` (``auto``: a GPU when one is
    visible) in ``dtype``; inputs are truncated to ``max_length`` tokens (None: the tokenizer's
    maximum) and scored in
    length-sorted batches of ``batch_size``; ``local_files_only`` forbids downloads. Scores are
    cached per text, so systems scored by one object share their sources' work."""

    device: str = "auto"
    dtype: str = "float32"
    batch_size: int = option(32, ge=1)
    max_length: int | None = option(128, ge=1)
    local_files_only: bool = False
    main: ClassVar[str] = "score"
    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    scale: ClassVar[float] = 1
    #: refused by the registry without torch and transformers (errtype.score.registry.EXTRAS)
    extra: ClassVar[str] = "lm"
    _loaded: dict[str, tuple[Any, Any]] = field(default_factory=dict, init=False, repr=False,
                                                compare=False)
    _device: str = field(default="cpu", init=False, repr=False, compare=False)

    def _settings(self) -> dict[str, Any]:
        """The settings every such metric puts in its signature (dtype only when not float32)."""
        dtype = {} if self.dtype == "float32" else {"dtype": self.dtype}
        return {"max_length": self.max_length, **dtype}

    def load(self, auto_class: str, name: str, *, what: str, tokenizer: bool = True,
             **tokenizer_kwargs: Any) -> tuple[Any, Any]:
        """``(model, tokenizer)`` of ``name`` on the device, in evaluation mode (loaded once)."""
        key = f"{auto_class}:{name}"
        if key not in self._loaded:
            self._device = resolve_device(self.device)
            model, tok = load_pretrained(auto_class, name, what=what,
                                         local_files_only=self.local_files_only,
                                         tokenizer=tokenizer, **tokenizer_kwargs)
            model = model.to(device=self._device, dtype=resolve_dtype(self.dtype)).eval()
            self._loaded[key] = (model, tok)
        return self._loaded[key]

    def batches(self, tokenizer: Any, texts: Sequence[str], pairs: Sequence[str] | None = None
                ) -> Iterator[tuple[list[int], dict[str, Any]]]:
        """:func:`encoded_batches` with this metric's settings, under ``torch.inference_mode``."""
        torch, _ = import_hf()
        limit = self.max_length
        if limit is None:  # the tokenizer's own limit (a huge number when it has none)
            limit = min(int(tokenizer.model_max_length), 1 << 20)
        with torch.inference_mode():
            yield from encoded_batches(tokenizer, texts, pairs, max_length=limit,
                                       batch_size=self.batch_size, device=self._device)
