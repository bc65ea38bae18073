"""Project hygiene: the README's test command is what CI runs, and the code is ruff-clean."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .conftest import peer

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # environment lines (export CI=..., ERRTYPE_CI_LM=...) are CI settings, not commands
    commands = [ln for ln in ci.splitlines()
                if ln and not ln.startswith(("#", "set ", "cd ", "export "))]
    assert commands, "no command in .ci/run"
    for cmd in commands:
        assert cmd in readme, f"{cmd!r} is not the README's command"


def test_ruff_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(__import__("sys").executable).parent / "ruff")
    if not Path(ruff).exists():
        peer("ruff", "the test extra installs ruff")  # skips locally, fails in CI
    proc = subprocess.run([ruff, "check", "errtype", "tests", "bench"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_subpackage_is_packaged() -> None:
    """pyproject lists packages explicitly (resources/ is mapped in): none may be forgotten."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "errtype").rglob("*.py") if "__pycache__" not in p.parts}
    missing = found - listed
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"
    assert "errtype.resources" in listed
    assert config["tool"]["setuptools"]["package-dir"]["errtype.resources"] == "resources"


def test_console_scripts_point_at_existing_functions() -> None:
    import importlib
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for name, target in config["project"]["scripts"].items():
        module, _, func = target.partition(":")
        assert callable(getattr(importlib.import_module(module), func)), name


def test_progress_bar_only_on_terminals() -> None:
    import io

    from errtype.progress import Progress

    quiet = io.StringIO()
    with Progress(10, "x", stream=quiet) as bar:  # StringIO is not a terminal
        bar.update(10)
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    with Progress(4, "job", stream=shown, enabled=True, interval=0) as bar:
        bar.update(2)
    assert "job [" in shown.getvalue() and "2/4" in shown.getvalue()


_STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "$CI_LOG"
if [ -n "$FAIL_ON" ]; then
  case "$(basename "$0") $*" in *"$FAIL_ON"*) exit "$FAIL_CODE";; esac
fi
exit 0
"""


def _run_ci(tmp_path: Path, fail_on: str = "", code: int = 1) -> tuple[int, list[str]]:
    """``.ci/run`` in a copy of its folder, every command it runs stubbed: (status, commands)."""
    import os
    import stat

    (tmp_path / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    stubs, venv = tmp_path / "stubs", tmp_path / ".venv" / "bin"
    for folder, names in ((stubs, ("python3", "chromium", "apt-get")), (venv, ("pip", "python"))):
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            (folder / name).write_text(_STUB, encoding="utf-8")
            (folder / name).chmod(stat.S_IRWXU)
    log = tmp_path / "log"
    log.touch()
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "CI_LOG": str(log), "FAIL_ON": fail_on,
           "FAIL_CODE": str(code), "HOME": str(tmp_path), "LANG": os.environ.get("LANG", "C")}
    done = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], env=env, cwd=tmp_path,
                          capture_output=True, text=True)
    return done.returncode, log.read_text(encoding="utf-8").splitlines()


CI_STEPS = ["python3 -m venv .venv",
            "pip install -q .[test,cs,fr,ud,ja,zh,dask,bench,multigec,meta,profile]",
            "python -m pytest -m not slow --durations=10",
            "python -m pytest -m slow --durations=10",
            "pip install -q torch==2.13.0 transformers>=4.40",
            "python -m pytest -q tests/test_scribendi.py tests/test_neural_metrics.py"]


def test_ci_runs_fast_then_slow_then_lm_and_stops_at_the_first_failure(tmp_path: Path) -> None:
    """.ci/run: the README command (venv, install, the fast tests), the slow tests, the LM step,
    in that order; any step that fails (an install, pytest's failure or its "no tests collected",
    5) ends the run with that status. Inside one ``a && b && c`` line ``set -e`` let a failed
    install pass on to the next line."""
    if shutil.which("bash") is None:
        peer("bash")
    assert _run_ci(tmp_path / "ok") == (0, CI_STEPS)
    for step, code in ((1, 1), (2, 1), (3, 5), (3, 1), (5, 1)):
        status, ran = _run_ci(tmp_path / f"{step}-{code}", CI_STEPS[step], code)
        assert (status, ran) == (code, CI_STEPS[:step + 1]), (CI_STEPS[step], code)
