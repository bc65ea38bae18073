"""Model download (errtype download cs) against a local HTTP server on loopback only."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from errtype.cli.download import main as download_main
from errtype.download import cache_dir, cached_model, download, model_path, verify
from errtype.errors import ResourceError
from errtype.lang.cs import UDPIPE_ENV, Czech
from errtype.parse.udpipe import UDPipeParser

from .loopback import serve


@pytest.fixture
def server(tiny_udpipe_model: Path) -> Iterator[str]:
    files = {"/model.udpipe": tiny_udpipe_model.read_bytes(), "/junk": b"junk" * 100}
    with serve(files) as url:
        yield url


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(UDPIPE_ENV, raising=False)
    return tmp_path / "cache"


def test_cache_dir_locations(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert cache_dir() == tmp_path / "cache"
    monkeypatch.delenv("ERRTYPE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "errtype"
    assert model_path("cs").name == "czech-pdt-ud-2.5-191206.udpipe"


def test_download_with_checksum(server: str, tiny_udpipe_model: Path, cache: Path) -> None:
    digest = hashlib.sha256(tiny_udpipe_model.read_bytes()).hexdigest()
    assert cached_model("cs") is None
    seen: list[int] = []
    # the tiny test model is neither the published file nor a plausible Czech tagger: its digest
    # is given and the language check is off (tests/test_faults_download.py checks both)
    path = download("cs", url=server + "/model.udpipe", sha256=digest, check_lang=False,
                    progress=lambda done, total: seen.append(done))
    assert path == cache / "udpipe" / "czech-pdt-ud-2.5-191206.udpipe"
    assert path.read_bytes() == tiny_udpipe_model.read_bytes()
    assert seen and seen[-1] == path.stat().st_size
    assert verify(path) and cached_model("cs") == path
    assert path.with_name(path.name + ".sha256").read_text().split()[0] == digest
    assert [p.name for p in path.parent.iterdir() if p.suffix == ".part"] == []
    # reused without network access
    assert download("cs", url="http://127.0.0.1:9/unreachable", sha256=digest) == path
    # and the Czech language now uses it by default
    parser = Czech().make_parser()
    assert isinstance(parser, UDPipeParser) and parser.path == str(path)


def test_checksum_mismatch_leaves_nothing(server: str, cache: Path) -> None:
    with pytest.raises(ResourceError, match="checksum mismatch"):
        download("cs", url=server + "/model.udpipe", sha256="0" * 64)
    assert not model_path("cs").exists()
    assert list(model_path("cs").parent.iterdir()) == []


def test_not_a_model_is_rejected(server: str) -> None:
    junk = hashlib.sha256(b"junk" * 100).hexdigest()
    with pytest.raises(ResourceError, match="cannot load UDPipe model"):
        download("cs", url=server + "/junk", sha256=junk)
    assert cached_model("cs") is None


def test_http_error(server: str) -> None:
    with pytest.raises(ResourceError, match="failed"):
        download("cs", url=server + "/missing")


def test_unknown_language() -> None:
    with pytest.raises(ResourceError, match="no downloadable model"):
        download("xx")


def test_cli(server: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
             tiny_udpipe_model: Path) -> None:
    target = tmp_path / "elsewhere"
    digest = hashlib.sha256(tiny_udpipe_model.read_bytes()).hexdigest()
    assert download_main(["cs", "--url", server + "/model.udpipe", "--cache-dir", str(target),
                          "--quiet", "--sha256", digest, "--no-language-check"]) == 0
    out = capsys.readouterr().out.strip()
    assert Path(out) == target / "udpipe" / "czech-pdt-ud-2.5-191206.udpipe"
    assert Path(out).is_file()
    assert download_main(["cs", "--url", server + "/missing", "--force", "--cache-dir",
                          str(target)]) == 2
    assert "errtype download: error:" in capsys.readouterr().err
