"""Project hygiene: the README's test command is what CI runs, and the code is ruff-clean."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [ln for ln in ci.splitlines() if ln and not ln.startswith(("#", "set ", "cd "))]
    assert commands, "no command in .ci/run"
    for cmd in commands:
        assert cmd in readme, f"{cmd!r} is not the README's command"


def test_ruff_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(__import__("sys").executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it is in the test extra)")
    proc = subprocess.run([ruff, "check", "errtype", "tests", "bench"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
