"""Fetch optional models (the LINDAT UDPipe 1 models for UD 2.5 of the language packs, among them
the Czech ERRANT's ``czech-pdt-ud-2.5-191206``) into the user cache directory.

Files are streamed to a temporary file beside the target, their SHA-256 is computed (and checked
against the expected value when one is known or given), the model is test-loaded, and only then
is the file moved into place, with a ``.sha256`` sidecar recording the digest.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .errors import ResourceError

__all__ = ["MODELS", "ModelSpec", "cache_dir", "cached_model", "download", "model_path",
           "verify"]

CACHE_ENV = "ERRTYPE_CACHE_DIR"
_CHUNK = 1 << 16


@dataclass(frozen=True)
class ModelSpec:
    """A downloadable model: file name, URL, expected SHA-256 (None = not pinned), licence."""

    filename: str
    url: str
    sha256: str | None
    licence: str
    kind: str = "udpipe"


def _pack_models() -> dict[str, ModelSpec]:
    """One UDPipe 1 (UD 2.5) model per language pack that names one."""
    from .lang.packs import PACKS, UDPIPE_BASE_URL, UDPIPE_LICENCE

    return {code: ModelSpec(filename=pack.udpipe, url=UDPIPE_BASE_URL + pack.udpipe,
                            # not pinned: the digests could not be obtained offline. Pass
                            # --sha256 to enforce one; every download's digest is recorded in
                            # the .sha256 sidecar and checked on reuse.
                            sha256=None, licence=UDPIPE_LICENCE)
            for code, pack in sorted(PACKS.items()) if pack.udpipe}


#: downloadable models by language code (cs: czech-pdt-ud-2.5-191206, the Czech ERRANT's model)
MODELS: dict[str, ModelSpec] = _pack_models()


def cache_dir() -> Path:
    """``$ERRTYPE_CACHE_DIR``, else ``$XDG_CACHE_HOME/errtype``, else ``~/.cache/errtype``."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "errtype"


def _spec(lang: str) -> ModelSpec:
    try:
        return MODELS[lang]
    except KeyError:
        raise ResourceError(
            f"no downloadable model for {lang!r}; available: {', '.join(sorted(MODELS))}"
        ) from None


def model_path(lang: str, directory: str | os.PathLike[str] | None = None) -> Path:
    """Where the model of ``lang`` is (or would be) stored."""
    spec = _spec(lang)
    return Path(directory or cache_dir()) / spec.kind / spec.filename


def cached_model(lang: str) -> Path | None:
    """The downloaded model of ``lang`` if present (completed downloads only), else None."""
    if lang not in MODELS:
        return None
    path = model_path(lang)
    sidecar = path.with_name(path.name + ".sha256")
    return path if path.is_file() and sidecar.is_file() else None


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def verify(path: str | os.PathLike[str]) -> bool:
    """Whether a downloaded file still matches the digest recorded in its sidecar."""
    p = Path(path)
    sidecar = p.with_name(p.name + ".sha256")
    if not p.is_file() or not sidecar.is_file():
        return False
    return sidecar.read_text(encoding="ascii").split()[0] == sha256_file(p)


def download(
    lang: str = "cs",
    *,
    url: str | None = None,
    sha256: str | None = None,
    directory: str | os.PathLike[str] | None = None,
    force: bool = False,
    check_model: bool = True,
    timeout: float = 60.0,
    progress: Callable[[int, int | None], None] | None = None,
) -> Path:
    """Download the model of ``lang`` into the cache (or ``directory``) and return its path.

    ``sha256`` (or the pinned digest of the model) is enforced; a present, verified file is reused
    unless ``force``. ``check_model`` test-loads the file with the backend before accepting it.
    ``progress(bytes_done, total_or_None)`` is called while downloading.
    """
    spec = _spec(lang)
    expected = (sha256 or spec.sha256 or "").lower() or None
    target = model_path(lang, directory)
    if not force and verify(target):
        recorded = target.with_name(target.name + ".sha256").read_text("ascii").split()[0]
        if expected is None or recorded == expected:
            return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".", suffix=".part")
    tmp = Path(tmp_name)
    try:
        digest = _fetch(url or spec.url, fd, timeout, progress)
        if expected is not None and digest != expected:
            raise ResourceError(
                f"checksum mismatch for {spec.filename}: expected {expected}, got {digest}"
            )
        if check_model and spec.kind == "udpipe":
            from .parse.udpipe import load_model
            load_model(tmp)
        os.replace(tmp, target)
        target.with_name(target.name + ".sha256").write_text(
            f"{digest}  {spec.filename}\n", encoding="ascii")
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _fetch(url: str, fd: int, timeout: float,
           progress: Callable[[int, int | None], None] | None) -> str:
    """Stream ``url`` into the open file descriptor ``fd``; return the SHA-256 of the bytes."""
    h = hashlib.sha256()
    done = 0
    with os.fdopen(fd, "wb") as out:
        try:
            req = urllib.request.Request(url, headers={"User-Agent": "errtype-download"})
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                length = resp.headers.get("Content-Length")
                total = int(length) if length and length.isdigit() else None
                while chunk := resp.read(_CHUNK):
                    out.write(chunk)
                    h.update(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done, total)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise ResourceError(f"download of {url} failed: {exc}") from exc
    if total is not None and done != total:
        raise ResourceError(f"download of {url} truncated: {done} of {total} bytes")
    return h.hexdigest()
