"""What the Hugging Face metrics share: importing torch/transformers on first use, the device and
dtype settings, loading a model by name or directory, and length-sorted batches.

Nothing here imports torch at module import time (the registry imports every module of
``errtype.score.lm``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

from ...errors import InputError, ResourceError

__all__ = ["DTYPES", "import_hf", "load_pretrained", "model_name", "resolve_device",
           "resolve_dtype", "sorted_batches"]

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
                    **kwargs: Any) -> tuple[Any, Any]:
    """``(model, tokenizer)`` from a hub name or a directory through ``transformers.<auto_class>``
    (``tokenizer=False``: no tokenizer, None in its place); a ResourceError names ``what`` and
    the model when either cannot be loaded."""
    _, transformers = import_hf()
    cls = getattr(transformers, auto_class)
    try:
        tok = (transformers.AutoTokenizer.from_pretrained(str(name),
                                                          local_files_only=local_files_only)
               if tokenizer else None)
        model = cls.from_pretrained(str(name), local_files_only=local_files_only, **kwargs)
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
