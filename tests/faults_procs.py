"""Helpers of the fault tests that run errtype in real processes and signal them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from .conftest import ROOT, shared_path

#: generous bounds (the machine may be shared); a hang shows as a failed wait, never as a stall
START_TIMEOUT = 240.0
EXIT_TIMEOUT = 30.0


def jfleg_pairs(tmp_path: Path, copies: int = 1) -> tuple[Path, Path, int]:
    """JFLEG dev as parallel files: each source line once per reference (4 x 754 = 3,016 real
    pairs), ``copies`` times over."""
    folder = shared_path("jfleg")
    src = (folder / "dev.src").read_text(encoding="utf-8").splitlines()
    orig, cor = [], []
    for _ in range(copies):
        for k in range(4):
            orig += src
            cor += (folder / f"dev.ref{k}").read_text(encoding="utf-8").splitlines()
    o, c = tmp_path / "orig.txt", tmp_path / "cor.txt"
    o.write_text("".join(x + "\n" for x in orig), encoding="utf-8")
    c.write_text("".join(x + "\n" for x in cor), encoding="utf-8")
    return o, c, len(orig)


def start(args: Sequence[str], module: str = "errtype.cli.m2", cwd: Path | None = None
          ) -> subprocess.Popen[str]:
    """``python -m MODULE ARGS`` in its own session (so a Ctrl-C can reach its whole group)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("process fault tests use /proc (Linux)")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", module, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
                            start_new_session=True)


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen[str] | None = None,
             timeout: float = START_TIMEOUT, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if proc is not None and proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the process ended (status {proc.returncode}) before {what}: {err}")
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def children(pid: int) -> list[int]:
    """Pids of the live processes whose parent is ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry))
    return out


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        kids = children(todo.pop())
        found += kids
        todo += kids
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def all_gone(pids: Sequence[int], timeout: float = EXIT_TIMEOUT) -> list[int]:
    """The pids still alive after waiting up to ``timeout`` seconds for them to end."""
    deadline = time.monotonic() + timeout
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def finish(proc: subprocess.Popen[str], timeout: float = EXIT_TIMEOUT) -> tuple[str, float]:
    """stderr of ``proc`` once it ends (failing the test if it does not, within ``timeout``
    seconds) and how long that took."""
    t0 = time.monotonic()
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"errtype did not end within {timeout} s of the signal (a hang)")
    return err, time.monotonic() - t0


def kill_tree(proc: subprocess.Popen[str]) -> None:
    """Clean-up after a test: nothing started here survives it."""
    pids = descendants(proc.pid)
    for p in [proc.pid, *pids]:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.communicate()


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".part")))
