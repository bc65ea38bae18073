"""Damaged UDPipe model files (issue 33, hostile input 5): refused by name with exit 2, never an
abort inside the UDPipe library; a downloaded model is checked against its recorded digest."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import errtype.download as download_module
from errtype.download import download, model_path
from errtype.errors import ResourceError
from errtype.lang.ud.backend import default_parser
from errtype.parse import udpipe
from errtype.parse.udpipe import UDPipeParser, check_model_file

from .conftest import ROOT, SHARED, peer
from .loopback import serve


@pytest.fixture(autouse=True)
def _udpipe() -> None:
    peer("ufal.udpipe", "the cs extra")


@pytest.fixture
def real() -> bytes:
    """A real UDPipe 1 model (the Ukrainian stand-in of ../shared/models)."""
    p = SHARED / "models" / "uk.udpipe"
    if not p.exists():
        pytest.skip(f"stand-in UDPipe model not available: {p}")
    return p.read_bytes()


def damaged(real: bytes, kind: str) -> bytes:
    """``real`` damaged in one of the ways a file gets damaged."""
    if kind == "truncated":
        return real[:len(real) // 2]
    if kind == "random bytes":  # a first byte >= 0x80 is a negative name length to the library
        return b"\xd3" + random.Random(33).randbytes(50_000)
    if kind == "flipped byte":
        middle = len(real) // 2
        return real[:middle] + bytes([real[middle] ^ 0xFF]) + real[middle + 1:]
    assert kind == "flipped first byte"
    return bytes([real[0] ^ 0xFF]) + real[1:]


KINDS = ("truncated", "random bytes", "flipped byte", "flipped first byte")


def errtype_m2(tmp_path: Path, *args: str, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    """``errtype-m2 --lang uk ARGS`` on one sentence pair, in a process of its own."""
    o, c = tmp_path / "o.txt", tmp_path / "c.txt"
    o.write_text("Я живу в Києві .\n", encoding="utf-8")
    c.write_text("Я живу у Києві .\n", encoding="utf-8")
    env = dict(env or os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "errtype.cli.m2", "--lang", "uk", *args,
                           "-orig", str(o), "-cor", str(c), "-o", str(tmp_path / "out.m2")],
                          capture_output=True, text=True, env=env, timeout=300)


def assert_refused(proc: subprocess.CompletedProcess[str], path: Path | str) -> None:
    """Exit 2 with one line naming ``path``: no abort, no core dump, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert len(proc.stderr.splitlines()) == 1 and str(path) in proc.stderr, proc.stderr


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_udpipe_model_is_refused_by_name(real: bytes, tmp_path: Path,
                                                   kind: str) -> None:
    bad = tmp_path / "bad.udpipe"
    bad.write_bytes(damaged(real, kind))
    proc = errtype_m2(tmp_path, "--udpipe-model", str(bad))
    assert_refused(proc, bad)
    assert "cannot load UDPipe model" in proc.stderr
    assert not (tmp_path / "out.m2").exists()


def test_a_model_the_library_dies_on_is_refused(real: bytes, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The child process's test load is what stands between a crash and this process."""
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path / "cache"))
    model = tmp_path / "m.udpipe"
    model.write_bytes(real)
    abort = "import os; os.abort()"
    monkeypatch.setattr(udpipe, "_TEST_LOAD", abort)
    with pytest.raises(ResourceError, match=r"cannot load UDPipe model .*m\.udpipe: a test load "
                                            r"in a child process ended with SIGABRT, so the file "
                                            r"is damaged"):
        check_model_file(model)
    assert not (tmp_path / "cache" / "checked").exists()
    # a file that loaded once is not loaded in a child again in this process...
    monkeypatch.setattr(udpipe, "_TEST_LOAD", _REAL_TEST_LOAD)
    assert check_model_file(model) == model
    monkeypatch.setattr(udpipe, "_TEST_LOAD", abort)
    assert check_model_file(model) == model
    # ... nor in a later process (the same bytes elsewhere: a record of their digest) ...
    monkeypatch.setattr(udpipe, "_loadable", set())
    copy = tmp_path / "copy.udpipe"
    copy.write_bytes(real)
    assert check_model_file(copy) == copy
    assert [p.name for p in (tmp_path / "cache" / "checked").iterdir()] == [
        "udpipe-" + hashlib.sha256(real).hexdigest()]
    # ... until it changes
    with open(model, "ab") as f:
        f.write(b"\0")
    with pytest.raises(ResourceError, match="SIGABRT"):
        check_model_file(model)


_REAL_TEST_LOAD = udpipe._TEST_LOAD


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def server(real: bytes) -> Iterator[str]:
    files = {"/uk.udpipe": real, **{f"/{k.replace(' ', '-')}": damaged(real, k) for k in KINDS}}
    with serve(files) as url:
        yield url


@pytest.mark.parametrize("kind", ["random bytes", "flipped first byte"])
def test_download_of_a_damaged_model_with_its_sha256(real: bytes, server: str, cache: Path,
                                                     tmp_path: Path, kind: str) -> None:
    """``--sha256`` accepts a different file deliberately; it must still load without harm."""
    body = damaged(real, kind)
    url = f"{server}/{kind.replace(' ', '-')}"
    proc = subprocess.run(
        [sys.executable, "-m", "errtype.cli.main", "download", "uk", "--url", url, "--sha256",
         hashlib.sha256(body).hexdigest(), "--quiet"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    assert_refused(proc, url)
    assert f"cannot load UDPipe model (not a UDPipe 1 model?): {model_path('uk').name} from " \
           f"{url}" in proc.stderr
    assert not model_path("uk").exists()


def test_download_with_a_wrong_sha256(server: str, cache: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "errtype.cli.main", "download", "uk", "--url",
         server + "/uk.udpipe", "--sha256", "0" * 64, "--quiet"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "checksum mismatch for ukrainian-iu-ud-2.5-191206.udpipe" in proc.stderr
    assert not model_path("uk").exists()


def test_a_cached_model_changed_after_download_is_refused(real: bytes, server: str, cache: Path,
                                                          tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    path = download("uk", url=server + "/uk.udpipe", sha256=hashlib.sha256(real).hexdigest(),
                    check_lang=False)
    hashed: list[str] = []
    sha256 = hashlib.sha256
    monkeypatch.setattr(download_module.hashlib, "sha256",
                        lambda *a: hashed.append("x") or sha256(*a))
    # an intact download is hashed once per process, and loaded without a child's test load
    assert isinstance(default_parser("uk", {}), UDPipeParser)
    assert isinstance(default_parser("uk", {}), UDPipeParser)
    assert len(hashed) == 1
    # a byte appended: the library would load it; it is not the file that was checked
    with open(path, "ab") as f:
        f.write(b"\0")
    with pytest.raises(ResourceError, match=f"the downloaded model {path} has changed since it "
                                            "was downloaded .*'errtype download uk --force'"):
        default_parser("uk", {})
    # the first byte changed: the library would abort the process
    path.write_bytes(damaged(real, "flipped first byte"))
    proc = errtype_m2(tmp_path, env=dict(os.environ))
    assert_refused(proc, path)
    assert "has changed since it was downloaded" in proc.stderr
