"""errtype-m2 --resume (issue 19): a run that dies continues from its last complete batch, and
the output is byte-identical to an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

import errtype
from errtype.cli import m2 as cli
from errtype.convert import checkpoint, parallel_to_m2
from errtype.convert.checkpoint import Resumable, kept_items
from errtype.errors import InputError

from .conftest import peer
from .faults_procs import all_gone, descendants, finish, jfleg_pairs, kill_tree, start, wait_for

# --- the checkpoint file on its own ------------------------------------------------------------


def test_a_checkpoint_keeps_exactly_the_committed_items(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"
    with pytest.raises(KeyboardInterrupt), Resumable(out, {"job": 1}, step=2) as r:
        for i in range(5):
            r.write(f"block {i}\n")
            if i == 1:
                r.commit({"blocks": 2}, 2)
        raise KeyboardInterrupt  # dies with 3 uncommitted blocks written
    assert not out.exists() and kept_items(out) == 2
    partial = Path(f"{out}{checkpoint.PARTIAL}")
    assert partial.read_text() == "block 0\nblock 1\nblock 2\nblock 3\nblock 4\n"
    with Resumable(out, {"job": 1}, step=2) as r:
        assert r.done == 2 and r.state == {"blocks": 2}
        r.write("block 2\n")
    assert out.read_text() == "block 0\nblock 1\nblock 2\n"
    assert not partial.exists() and kept_items(out) is None


def test_another_jobs_checkpoint_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"
    with pytest.raises(RuntimeError), Resumable(out, {"inputs": ["a"]}, 1) as r:
        r.write("x\n")
        r.commit({}, 1)
        raise RuntimeError
    with pytest.raises(InputError, match="was written by another job"), \
            Resumable(out, {"inputs": ["b"]}, 1):
        pass
    Path(f"{out}{checkpoint.PARTIAL}").write_text("")  # shorter than the checkpoint says
    with pytest.raises(InputError, match="shorter than its checkpoint"), \
            Resumable(out, {"inputs": ["a"]}, 1):
        pass
    with pytest.raises(InputError, match="needs an output file"):
        Resumable("-", {}, 1)


# --- the library: interrupted anywhere, resumed, identical -------------------------------------


@pytest.fixture(scope="module")
def en() -> errtype.Annotator:
    return errtype.load("en")


def _pairs(tmp_path: Path) -> tuple[Path, Path]:
    o, c = tmp_path / "o.txt", tmp_path / "c.txt"
    o.write_text("".join(f"He go to school number {i} .\n" for i in range(90)), encoding="utf-8")
    c.write_text("".join(f"He goes to the school number {i} !\n" if i % 3 else
                         f"He go to school number {i} .\n" for i in range(90)), encoding="utf-8")
    return o, c


@pytest.mark.parametrize("stop_after", [1, 17, 40, 89])
def test_interrupted_anywhere_and_resumed_is_identical(
        tmp_path: Path, en: errtype.Annotator, monkeypatch: pytest.MonkeyPatch,
        stop_after: int) -> None:
    monkeypatch.setattr(checkpoint, "_MIN_INTERVAL", 0.0)
    o, c = _pairs(tmp_path)
    ref = tmp_path / "ref.m2"
    reference = parallel_to_m2(en, o, [c], ref, batch_size=8)
    out = tmp_path / "out.m2"
    seen = 0

    def stop(n: int) -> None:
        nonlocal seen
        seen += n
        if seen > stop_after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        parallel_to_m2(en, o, [c], out, batch_size=8, resume=True, progress=stop)
    kept = kept_items(out)
    assert kept is not None and kept % 8 == 0 and kept <= stop_after
    report = parallel_to_m2(en, o, [c], out, batch_size=8, resume=True)
    assert out.read_bytes() == ref.read_bytes()
    assert (report.blocks, report.noops, report.resumed) == (reference.blocks,
                                                             reference.noops, kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt", "o.txt", "out.m2", "ref.m2"]


def test_the_cli_refuses_to_resume_a_different_job(tmp_path: Path, en: errtype.Annotator,
                                                   capsys: pytest.CaptureFixture) -> None:
    o, c = _pairs(tmp_path)
    out = tmp_path / "out.m2"
    def stop(n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        parallel_to_m2(en, o, [c], out, batch_size=8, resume=True, progress=stop)
    args = ["-orig", str(o), "-cor", str(c), "-out", str(out), "--resume", "-q"]
    assert cli.main([*args, "--merge-run-limit", "5"]) == 2
    err = capsys.readouterr().err
    assert f"{out}.partial was written by another job" in err
    c.write_text(c.read_text(encoding="utf-8").replace("!", "?"), encoding="utf-8")
    assert cli.main([*args, "--batch-size", "8"]) == 2  # the same options, an edited input
    assert "written by another job" in capsys.readouterr().err
    assert json.loads(Path(f"{out}.partial.json").read_text())["items"] == 0


# --- a real run killed mid-way ------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, bytes]]:
    """3,016 JFLEG pairs and their M2 from one uninterrupted run."""
    folder = tmp_path_factory.mktemp("jfleg")
    o, c, _ = jfleg_pairs(folder)
    ref = folder / "ref.m2"
    assert cli.main(["-orig", str(o), "-cor", str(c), "-out", str(ref), "-q"]) == 0
    yield o, c, ref.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_resume_after_sigkill_is_byte_identical(tmp_path: Path, jobs: str,
                                                reference: tuple[Path, Path, bytes],
                                                capsys: pytest.CaptureFixture) -> None:
    o, c, expected = reference
    out = tmp_path / "out.m2"
    args = ["-orig", str(o), "-cor", str(c), "-out", str(out), "--resume", "-j", jobs,
            "--batch-size", "64"]
    proc = start([*args, "-q"])
    try:
        wait_for(lambda: (kept_items(out) or 0) >= 128, proc, what="two checkpoints")
        family = descendants(proc.pid)
        proc.send_signal(signal.SIGKILL)
        finish(proc)
        assert all_gone(family) == []
    finally:
        kill_tree(proc)
    kept = kept_items(out)
    assert kept is not None and 0 < kept < 3016 and kept % 64 == 0
    assert not out.exists() and os.path.getsize(f"{out}.partial") > 0
    assert cli.main(args) == 0
    assert f"(resumed after sentence {kept})" in capsys.readouterr().err
    assert out.read_bytes() == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.m2"]


@pytest.mark.slow
def test_dask_resume_after_sigterm_is_byte_identical(tmp_path: Path,
                                                     reference: tuple[Path, Path, bytes],
                                                     capsys: pytest.CaptureFixture) -> None:
    for module in ("dask.bag", "distributed"):
        peer(module, "pip install 'errtype[dask]'")
    o, c, expected = reference
    out = tmp_path / "out.m2"
    args = ["-orig", str(o), "-cor", str(c), "-out", str(out), "--resume", "--dask", "local:2",
            "--partition-size", "200"]
    proc = start([*args, "-q"])
    try:
        wait_for(lambda: (kept_items(out) or 0) >= 400, proc, what="two partitions")
        proc.send_signal(signal.SIGTERM)
        err, _ = finish(proc)
        assert proc.returncode == 143
        kept = kept_items(out)
        assert err.endswith(f"; {kept} sentences are kept in {out}.partial; rerun the same "
                            "command to continue\n"), err
    finally:
        kill_tree(proc)
    assert kept is not None and kept % 200 == 0
    assert cli.main(args) == 0
    assert f"(resumed after sentence {kept})" in capsys.readouterr().err
    assert out.read_bytes() == expected
