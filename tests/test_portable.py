"""What the suite, the benches and the docs need from outside the checkout is named by the user:
peer repositories by their own environment variable (``tests/conftest.py::peer_repo``, the table
of ``bench/peer_repos.py``), never a path of the machine they were written on."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT, peer_repo, peer_repos

#: paths and layouts of one machine: its home and work folders, a temporary folder used as a data
#: location, a folder of repository snapshots (``.mirror``, ``OWNER+NAME/repo``)
MACHINE_PATH = re.compile(rb"/work/|/root/|/tmp/|\.mirror\b|ERRTYPE_PEERS|"
                          rb"[\w.-]+\+[\w.-]+/repo\b|"
                          rb"\b(?:HillZhang1999|grammarly|UniversalDependencies)\+")


def _tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                         check=True).stdout
    return [name for name in out.decode("utf-8").split("\0") if name]


def test_no_path_of_this_machine_in_any_tracked_file() -> None:
    """No tracked file (code, data, docs, binary models alike) names a path only the machine it
    was written on has; this file is the one exception (it spells the patterns)."""
    own = Path(__file__).resolve().relative_to(ROOT).as_posix()
    found = []
    for name in _tracked():
        path = ROOT / name
        if name == own or not path.is_file():
            continue
        data = path.read_bytes()
        for match in MACHINE_PATH.finditer(data):
            line = data.count(b"\n", 0, match.start()) + 1
            found.append(f"{name}:{line}: {match.group().decode('utf-8', 'replace')}")
    assert not found, "paths of one machine (name peers by environment variable or flag):\n" \
        + "\n".join(found)


def test_the_pattern_finds_what_it_is_for() -> None:
    for text in (b"e.g. /work/.mirror", b"/root/.cache/x", b"-C /tmp/main-src",
                 b"HillZhang1999+MuCGEC", b"owner+name/repo", b"$ERRTYPE_PEERS"):
        assert MACHINE_PATH.search(text), text
    for text in (b"C++ code", b"UD_Turkish-BOUN dev+test", b"/home/me/.cache/errtype",
                 b"tmp_path / 'x'", b"tempfile.mkdtemp()"):
        assert not MACHINE_PATH.search(text), text


# ------------------------------------------------------------------------- peer repositories


def _git(*args: str, cwd: Path) -> None:
    who = {f"GIT_{role}_{field}": value for role in ("AUTHOR", "COMMITTER")
           for field, value in (("NAME", "t"), ("EMAIL", "t@t"))}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**who, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd),
                        "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("key", ["cherrant", "gector"])
def test_an_unnamed_peer_skips_with_the_clone_command(key: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    repo = peer_repos().PEERS[key]
    monkeypatch.delenv(repo.env, raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        peer_repo(key)
    reason = str(skipped.value)
    assert f"set {repo.env} to a checkout of {repo.url}" in reason
    assert f"git clone {repo.url} && git -C {repo.folder} checkout -q {repo.commit[:7]}" in reason


def test_a_named_peer_is_a_checkout_at_the_pinned_commit(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A named folder that is not the repository, or a git checkout at another commit, fails
    the test (the user named it: a skip would hide the mistake); a checkout is used as it is."""
    repo = peer_repos().PEERS["cherrant"]
    monkeypatch.setenv(repo.env, str(tmp_path))
    with pytest.raises(pytest.fail.Exception, match=f"no {repo.marker}.*git clone {repo.url}"):
        peer_repo("cherrant")
    (tmp_path / repo.marker).parent.mkdir(parents=True)
    (tmp_path / repo.marker).write_text("# ChERRANT's scorer\n", encoding="utf-8")
    assert peer_repo("cherrant") == tmp_path  # not a git checkout (an unpacked archive)
    if shutil.which("git") is None:
        return
    _git("init", "-q", cwd=tmp_path)
    _git("add", ".", cwd=tmp_path)
    _git("commit", "-q", "-m", "another commit", cwd=tmp_path)
    with pytest.raises(pytest.fail.Exception,
                       match=f"pinned to {repo.commit[:7]}: git -C {tmp_path} checkout"):
        peer_repo("cherrant")


def test_benches_refuse_a_missing_peer_with_the_clone_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repos = peer_repos()
    repo = repos.PEERS["gector"]
    monkeypatch.delenv(repo.env, raising=False)
    with pytest.raises(SystemExit) as exited:
        repos.bench_checkout("gector")
    assert exited.value.code == 2
    assert f"git clone {repo.url}" in capsys.readouterr().err
    (tmp_path / repo.marker).parent.mkdir(parents=True)
    (tmp_path / repo.marker).write_text("", encoding="utf-8")
    assert repos.bench_checkout("gector", tmp_path) == tmp_path  # the flag wins


def test_readme_gives_every_peer_and_its_clone_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for repo in peer_repos().PEERS.values():
        assert f"`{repo.env}`" in readme, repo.env
        assert f"git clone {repo.url} && git -C {repo.folder} checkout -q {repo.commit[:7]}" \
            in readme, repo.url
