"""Locate the data files vendored in ``resources/`` (installed as the package errtype.resources)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .errors import ResourceError


def resource_path(name: str) -> Path:
    """Path of a vendored resource file, installed or in a source checkout."""
    try:
        candidate = Path(str(resources.files("errtype.resources").joinpath(name)))
    except ModuleNotFoundError:
        candidate = Path(__file__).resolve().parents[1] / "resources" / name
    if not candidate.exists():
        fallback = Path(__file__).resolve().parents[1] / "resources" / name
        if fallback.exists():
            return fallback
        raise ResourceError(f"resource file {name!r} not found (looked at {candidate})")
    return candidate
