"""Issue 19 faults 1, 2 and 9 with real processes: errtype-m2 -j 2 and --dask local:2 on 3,016
real JFLEG pairs, signalled while they work. Every case ends within seconds with one clean line
(or a clear error naming the lost worker), exit 128 + signal, no traceback, no surviving child,
the previous output intact and no temporary file left."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from errtype.cli import m2 as cli
from errtype.textio import atomic_output

from .conftest import peer
from .faults_procs import (
    all_gone,
    children,
    descendants,
    finish,
    jfleg_pairs,
    kill_tree,
    start,
    temporaries,
    wait_for,
)

PREVIOUS = "previous output\n"


def _writing(folder: Path) -> bool:
    """The run has written its first blocks (to its hidden temporary file)."""
    return any(p.stat().st_size > 0 for p in folder.glob(".out.m2.*.tmp"))


def _jobs_run(tmp_path: Path) -> tuple[object, Path, int, list[int]]:
    o, c, n = jfleg_pairs(tmp_path)
    out = tmp_path / "out.m2"
    out.write_text(PREVIOUS, encoding="utf-8")
    proc = start(["-orig", str(o), "-cor", str(c), "-out", str(out), "-j", "2", "-q",
                  "--batch-size", "32"])
    wait_for(lambda: _writing(tmp_path) and len(children(proc.pid)) == 2, proc,
             what="errtype-m2 -j 2 writing")
    return proc, out, n, children(proc.pid)


def _check_clean(tmp_path: Path, out: Path, pids: list[int]) -> None:
    assert all_gone(pids) == [], "a worker outlived the run"
    assert out.read_text(encoding="utf-8") == PREVIOUS
    assert temporaries(tmp_path) == []


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_lost_worker_is_named_at_once(tmp_path: Path, sig: signal.Signals) -> None:
    """Fault 1: killing a worker used to hang the run until it was killed from outside."""
    proc, out, n, workers = _jobs_run(tmp_path)
    try:
        os.kill(workers[0], sig)
        err, took = finish(proc)
        assert proc.returncode == 2, err
        assert re.fullmatch(
            rf"errtype-m2: error: worker process {workers[0]} was killed by signal {int(sig)} "
            rf"\({sig.name}\) while annotating lines \d+-\d+\n", err), err
        assert took < 15
        _check_clean(tmp_path, out, workers)
    finally:
        kill_tree(proc)


@pytest.mark.parametrize(("sig", "status", "said"), [
    (signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "stopped by SIGTERM")])
def test_stopping_the_main_process(tmp_path: Path, sig: signal.Signals, status: int,
                                   said: str) -> None:
    """Ctrl-C (to the whole process group, as a terminal sends it) and SIGTERM: one line."""
    proc, out, n, workers = _jobs_run(tmp_path)
    try:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        err, took = finish(proc)
        assert proc.returncode == status, err
        assert re.fullmatch(rf"\nerrtype-m2: {said} \(after \d+ of {n} sentences\); no partial "
                            r"output was written\n", err), err
        _check_clean(tmp_path, out, workers)
    finally:
        kill_tree(proc)


def test_sigkill_of_the_main_process_leaves_no_orphan(tmp_path: Path) -> None:
    """Fault 2: the workers die with their parent; fault 9: the temporary file it leaves is
    removed by the next write of the same output."""
    proc, out, n, workers = _jobs_run(tmp_path)
    try:
        proc.kill()
        finish(proc)
        assert all_gone(workers, timeout=10) == [], "workers orphaned under PID 1"
        assert out.read_text(encoding="utf-8") == PREVIOUS
        stale = temporaries(tmp_path)
        assert len(stale) == 1 and stale[0].startswith(f".out.m2.{proc.pid}-")
        with atomic_output(out) as fh:
            fh.write("new\n")
        assert temporaries(tmp_path) == [] and out.read_text(encoding="utf-8") == "new\n"
    finally:
        kill_tree(proc)


# --- Dask local mode ---------------------------------------------------------------------------

def _dask_run(tmp_path: Path, o: Path, c: Path) -> tuple[object, Path]:
    for module in ("dask.bag", "distributed"):
        peer(module, "pip install 'errtype[dask]'")
    out = tmp_path / "out.m2"
    out.write_text(PREVIOUS, encoding="utf-8")
    proc = start(["-orig", str(o), "-cor", str(c), "-out", str(out), "--dask", "local:2",
                  "--partition-size", "100", "-q"])
    wait_for(lambda: _writing(tmp_path), proc, what="errtype-m2 --dask writing")
    return proc, out


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "status", "said"), [
    (signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "stopped by SIGTERM")])
def test_dask_stopped_cleanly(tmp_path: Path, sig: signal.Signals, status: int,
                              said: str) -> None:
    """Fault 9: Ctrl-C during --dask printed up to 98 lines of worker tracebacks."""
    o, c, n = jfleg_pairs(tmp_path)
    proc, out = _dask_run(tmp_path, o, c)
    try:
        family = descendants(proc.pid)
        assert len(family) >= 2
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        err, took = finish(proc)
        assert proc.returncode == status, err
        assert re.fullmatch(rf"\nerrtype-m2: {said} \(after \d+ of {n} sentences\); no partial "
                            r"output was written\n", err), err
        _check_clean(tmp_path, out, family)
    finally:
        kill_tree(proc)


@pytest.mark.slow
def test_dask_sigkill_of_the_client_leaves_no_orphan_and_no_noise(tmp_path: Path) -> None:
    o, c, n = jfleg_pairs(tmp_path)
    proc, out = _dask_run(tmp_path, o, c)
    try:
        family = descendants(proc.pid)
        proc.kill()
        err, _ = finish(proc)
        assert all_gone(family) == [], "Dask workers orphaned"
        assert err == ""  # not even multiprocessing's "leaked semaphore" warning
        assert out.read_text(encoding="utf-8") == PREVIOUS
    finally:
        kill_tree(proc)


@pytest.mark.slow
def test_dask_recovers_from_a_killed_worker(tmp_path: Path) -> None:
    """A Dask worker killed mid-run is restarted by its nanny and its partition recomputed: the
    output is byte-identical to the single-process run's."""
    o, c, n = jfleg_pairs(tmp_path)
    lines = o.read_text(encoding="utf-8").splitlines(keepends=True)[:754]
    o.write_text("".join(lines), encoding="utf-8")
    c.write_text("".join(c.read_text(encoding="utf-8").splitlines(keepends=True)[:754]),
                 encoding="utf-8")
    proc, out = _dask_run(tmp_path, o, c)
    try:
        workers = [p for p in descendants(proc.pid)
                   if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text(errors="replace")]
        assert workers
        os.kill(workers[0], signal.SIGKILL)
        err, _ = finish(proc, timeout=300)
        assert proc.returncode == 0, err
    finally:
        kill_tree(proc)
    one = tmp_path / "one.m2"
    assert cli.main(["-orig", str(o), "-cor", str(c), "-out", str(one), "-q"]) == 0
    assert out.read_bytes() == one.read_bytes()
    assert temporaries(tmp_path) == []
