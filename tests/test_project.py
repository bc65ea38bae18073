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
