"""Locate the data files vendored in ``resources/`` (installed as the package errtype.resources)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .errors import ResourceError


def resource_path(name: str) -> Path:
    """Path of a vendored resource file: beside the ``errtype`` package imported (a source
    checkout, also when another copy of errtype is installed), else installed."""
    local = Path(__file__).resolve().parents[1] / "resources" / name
    try:
        installed = Path(str(resources.files("errtype.resources").joinpath(name)))
    except ModuleNotFoundError:
        installed = local
    for candidate in (local, installed):
        if candidate.exists():
            return candidate
    raise ResourceError(f"resource file {name!r} not found (looked at {installed})")
