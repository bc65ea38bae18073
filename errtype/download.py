"""Fetch optional models (the LINDAT UDPipe 1 models for UD 2.5 of the language packs, among them
the Czech ERRANT's ``czech-pdt-ud-2.5-191206``) into the user cache directory.

Files are streamed to a temporary file beside the target and checked before the file is moved
into place (with a ``.sha256`` sidecar recording its digest):

* against the digests pinned for the published file in ``resources/udpipe-ud-2.5-models.tsv``
  (its git blob SHA-1 for every model; SHA-256 and size where a public record gives them), from
  whatever URL it came; a ``sha256`` given by the caller replaces them (a deliberate other file);
* by test-loading the model and tagging the language's test sentence from the same table: a model
  that gets the expected UPOS of too few words or the lemmas of too few inflected words is not
  the language's model (a Ukrainian model offered as Czech is refused).

A downloaded file is checked against its sidecar again before every use (:func:`cached_model`;
hashed once per process for each version of the file): a model changed since is refused by name
instead of being loaded, as a damaged one could abort the process inside the UDPipe library.
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ResourceError
from .textio import file_key, sibling_temporary

__all__ = ["MODELS", "ModelSpec", "Probe", "cache_dir", "cached_model", "download",
           "model_path", "verify"]

CACHE_ENV = "ERRTYPE_CACHE_DIR"
PINS = "udpipe-ud-2.5-models.tsv"
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Probe:
    """A test sentence of a language: its words, their expected UPOS and lemmas.

    A model of the language tags it plausibly: at least ``min_upos`` of the words get the
    expected UPOS and at least ``min_lemma`` of the inflected words (lemma differs from the word)
    the expected lemma. A model of another language guesses the lemma of an unknown word from its
    form, so it misses nearly every inflected one (measured on the stand-in models in
    ``docs/robustness.md``).
    """

    words: tuple[str, ...]
    upos: tuple[str, ...]
    lemmas: tuple[str, ...]
    min_upos: float = 0.7
    min_lemma: float = 0.5

    def problem(self, tokens: list[tuple[str, str]]) -> str | None:
        """Why the ``(upos, lemma)`` a model gave the words are implausible, or None."""
        if len(tokens) != len(self.words):
            return f"it split the {len(self.words)} words into {len(tokens)} tokens"
        upos = sum(t[0] == u for t, u in zip(tokens, self.upos, strict=True))
        inflected = [(t[1], lemma) for t, lemma, w in zip(tokens, self.lemmas, self.words,
                                                          strict=True)
                     if lemma.lower() != w.lower()]
        lemmas = sum(_fold(got) == _fold(want) for got, want in inflected)
        if upos >= self.min_upos * len(self.words) and \
                lemmas >= self.min_lemma * len(inflected):
            return None
        return (f"on the test sentence {' '.join(self.words)!r} it gave the expected UPOS of "
                f"{upos} of {len(self.words)} words and the expected lemma of {lemmas} of "
                f"{len(inflected)} inflected words")


def _fold(lemma: str) -> str:
    """A lemma compared case-blind and without compound marks (Estonian ``supi_koor``)."""
    return lemma.lower().replace("_", "").replace("=", "")


@dataclass(frozen=True)
class ModelSpec:
    """A downloadable model: file name, URL, pinned digests (None = not known), licence, and
    the test sentence that checks it is the language's model."""

    filename: str
    url: str
    sha256: str | None
    licence: str
    kind: str = "udpipe"
    size: int | None = None
    git_sha1: str | None = None
    probe: Probe | None = None


def _pins() -> dict[str, dict[str, str]]:
    """The rows of the pinned-model table by language code."""
    from .data import resource_path

    lines = resource_path(PINS).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = (dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:] if line)
    return {row["lang"]: row for row in rows}


def _pack_models() -> dict[str, ModelSpec]:
    """One UDPipe 1 (UD 2.5) model per language pack that names one, with its pins."""
    from .lang.packs import PACKS, UDPIPE_BASE_URL, UDPIPE_LICENCE

    pins = _pins()
    out = {}
    for code, pack in sorted(PACKS.items()):
        if not pack.udpipe:
            continue
        pin = pins.get(code, {})
        if pin.get("file") != pack.udpipe:  # pins describe another file: none apply
            pin = {}
        known = {k: v for k, v in pin.items() if v != "-"}
        size = known.get("bytes")
        probe = Probe(tuple(pin["sentence"].split()), tuple(pin["upos"].split()),
                      tuple(pin["lemmas"].split())) if pin else None
        out[code] = ModelSpec(filename=pack.udpipe, url=UDPIPE_BASE_URL + pack.udpipe,
                              sha256=known.get("sha256"), licence=UDPIPE_LICENCE,
                              size=None if size is None else int(size),
                              git_sha1=known.get("git_blob_sha1"), probe=probe)
    return out


#: FASPell's Chinese character table (readings and shapes) as ChERRANT ships it: its word-level
#: spelling test (errtype.lang.zh.spelling); GPL-3.0, so fetched rather than bundled
ZH_CHAR_META = ModelSpec(
    filename="char_meta.txt",
    url="https://raw.githubusercontent.com/HillZhang1999/MuCGEC/"
        "39221934ee4ccf07801879136a75dd7e11319977/scorers/ChERRANT/data/char_meta.txt",
    sha256="709279f8686286063d7e24d63bd8ae41cd509afea9832424229085b8a94a7701",
    licence="GPL-3.0 (FASPell's char_meta.txt, iqiyi/FASPell, as redistributed by ChERRANT)",
    kind="zh", size=3499717, git_sha1="f584fa54b91a839b4f3e055922684c00a6f210da")

#: downloadable models by language code (cs: czech-pdt-ud-2.5-191206, the Czech ERRANT's model;
#: zh: the character table of ChERRANT's spelling test)
MODELS: dict[str, ModelSpec] = {**_pack_models(), "zh": ZH_CHAR_META}


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
    """The downloaded model of ``lang`` if present (completed downloads only), else None.

    Raises :class:`ResourceError` if the file no longer matches the digest recorded when it was
    downloaded (:func:`verify`): a changed model is never loaded."""
    if lang not in MODELS:
        return None
    path = model_path(lang)
    sidecar = _sidecar(path)
    if not (path.is_file() and sidecar.is_file()):
        return None
    if not verify(path):
        raise ResourceError(
            f"the downloaded model {path} has changed since it was downloaded (its SHA-256 is "
            f"not the one in {sidecar.name}); run 'errtype download {lang} --force' to fetch "
            "it again")
    return path


def _sidecar(path: Path) -> Path:
    """The file recording the SHA-256 of a downloaded file."""
    return path.with_name(path.name + ".sha256")


#: SHA-256 of the files hashed in this process, by version (:func:`errtype.textio.file_key`)
_digests: dict[tuple[str, int, int], str] = {}


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file (computed once per process for each version of the file)."""
    key = file_key(path)
    digest = _digests.get(key)
    if digest is None:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(_CHUNK), b""):
                h.update(chunk)
        digest = _digests[key] = h.hexdigest()
    return digest


def git_blob_sha1(path: str | os.PathLike[str]) -> str:
    """Hex SHA-1 of a file as git stores it (``blob SIZE\\0`` + content): the id of the file in
    any git repository that holds it."""
    h = hashlib.sha1(f"blob {os.path.getsize(path)}\0".encode())
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def _pinned_problem(spec: ModelSpec, path: Path, digest: str) -> str | None:
    """How the downloaded file differs from the published one, or None."""
    size = path.stat().st_size
    if spec.size is not None and size != spec.size:
        return f"{size} bytes, not the published {spec.size}"
    if spec.sha256 is not None and digest != spec.sha256:
        return f"SHA-256 {digest}, not the published {spec.sha256}"
    if spec.git_sha1 is not None and (blob := git_blob_sha1(path)) != spec.git_sha1:
        return f"git blob SHA-1 {blob}, not the published {spec.git_sha1}"
    return None


def check_language(lang: str, model: str | os.PathLike[str] | Any) -> None:
    """Raise :class:`ResourceError` unless the UDPipe ``model`` (a file or a loaded model) tags
    the test sentence of ``lang`` plausibly (:class:`Probe`); nothing is checked for a language
    without one."""
    from .parse.udpipe import UDPipeParser

    probe = _spec(lang).probe
    if probe is None:
        return
    tokens = [(t.pos, t.lemma) for t in UDPipeParser(model).parse(" ".join(probe.words))]
    problem = probe.problem(tokens)
    if problem is not None:
        from .lang.packs import get_pack

        pack = get_pack(lang)
        name = pack.name if pack else lang
        raise ResourceError(f"this is not a model of {name}: {problem} (a model of another "
                            "language? --no-language-check accepts it anyway)")


def verify(path: str | os.PathLike[str]) -> bool:
    """Whether a downloaded file still matches the digest recorded in its sidecar."""
    p = Path(path)
    sidecar = _sidecar(p)
    if not p.is_file() or not sidecar.is_file():
        return False
    try:
        recorded = sidecar.read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return False
    return bool(recorded) and recorded[0] == sha256_file(p)


def download(
    lang: str = "cs",
    *,
    url: str | None = None,
    sha256: str | None = None,
    directory: str | os.PathLike[str] | None = None,
    force: bool = False,
    check_model: bool = True,
    check_lang: bool = True,
    timeout: float = 60.0,
    progress: Callable[[int, int | None], None] | None = None,
) -> Path:
    """Download the model of ``lang`` into the cache (or ``directory``) and return its path.

    The file must match the pinned digests of the published model (from any ``url``), or
    ``sha256`` when given; a present, verified file is reused unless ``force``. ``check_model``
    test-loads the file with the backend before accepting it, and ``check_lang`` also requires it
    to tag the language's test sentence plausibly (:func:`check_language`).
    ``progress(bytes_done, total_or_None)`` is called while downloading.
    """
    spec = _spec(lang)
    expected = (sha256 or "").lower() or None
    target = model_path(lang, directory)
    if not force and verify(target):
        recorded = _sidecar(target).read_text("ascii").split()[0]
        if (recorded == expected if expected is not None
                else _pinned_problem(spec, target, recorded) is None):
            return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = sibling_temporary(target, ".part")
    tmp = Path(tmp_name)
    try:
        digest = _fetch(url or spec.url, fd, timeout, progress)
        if expected is not None:
            problem = None if digest == expected else f"SHA-256 {digest}, not {expected}"
        else:
            problem = _pinned_problem(spec, tmp, digest)
        if problem is not None:
            raise ResourceError(
                f"checksum mismatch for {spec.filename}: the downloaded file has {problem} "
                "(--sha256 accepts a different file deliberately)")
        if check_model and spec.kind == "udpipe":
            from .parse.udpipe import load_model
            model = load_model(tmp, name=f"{spec.filename} from {url or spec.url}")
            if check_lang:
                check_language(lang, model)
        os.replace(tmp, target)
        _sidecar(target).write_text(
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
