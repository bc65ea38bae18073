"""The tour (issue 20): every command of the README's tour section runs verbatim, from a copy of
the repository root, with errtype installed into a fresh virtual environment, and prints what the
README shows.

The page's rules, read here: a ```sh block holds commands, one a line (``#`` lines are comments;
``# exit status N`` announces the status of the next command, else 0); a ```text block right
after it is what the block's last command prints (its standard output, or its standard error when
it fails), compared line by line with runs of whitespace made one space, leading and trailing
blank lines ignored; a line ``...`` stands for any number of lines, and a line ending in ``...``
for any line that begins with the text before it.

The fresh environment: ``python -m venv --without-pip`` from the test's interpreter, its
site-packages pointed at the test environment's (errtype's dependencies and models), and the
checkout (copied, so no build files land in it) installed there by pip with ``--no-deps
--no-build-isolation --no-index``: nothing is downloaded. The console scripts and packaged
resources are the installed ones.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import peer

ROOT = Path(__file__).resolve().parents[1]
#: the tour: the README's section between these markers
TOUR_START, TOUR_END = "<!-- tour:", "<!-- /tour -->"
#: what the build copies: the files pyproject.toml needs
SOURCE = ("pyproject.toml", "setup.cfg", "README.md", "LICENSE", "errtype", "resources")
PREFIX = ".venv/bin/"


@dataclass
class Step:
    command: str
    status: int = 0
    expected: list[str] | None = None


def tour_text() -> str:
    """The tour section of the README."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = readme.index(TOUR_START), readme.index(TOUR_END)
    return readme[start:end]


def read_tour(text: str) -> list[Step]:
    """The commands of the page, each with its expected status and output."""
    steps: list[Step] = []
    previous_end, previous_kind = -1, ""
    for block in re.finditer(r"^```(\w*)\n(.*?)^```\n(?:[ \t]*\n)*", text, re.S | re.M):
        kind, body = block.group(1), block.group(2)
        if kind == "sh":
            status = 0
            for line in body.splitlines():
                if m := re.match(r"#\s*exit status (\d+)", line.strip()):
                    status = int(m.group(1))
                elif line.strip() and not line.lstrip().startswith("#"):
                    steps.append(Step(line.strip(), status))
                    status = 0
        elif kind == "text" and previous_kind == "sh" and block.start() == previous_end:
            steps[-1].expected = body.splitlines()
        previous_end, previous_kind = block.end(), kind
    return steps


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` against ``actual`` by the page's rules (module docstring)."""
    def norm(lines: list[str]) -> list[str]:
        out = [" ".join(ln.split()) for ln in lines]
        while out and not out[0]:
            out.pop(0)
        while out and not out[-1]:
            out.pop()
        return out

    exp, act = norm(expected), norm(actual)

    def walk(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(act)
        if exp[i] == "...":
            return any(walk(i + 1, k) for k in range(j, len(act) + 1))
        same = (act[j].startswith(exp[i][:-3]) if exp[i].endswith("...") else exp[i] == act[j]
                ) if j < len(act) else False
        return same and walk(i + 1, j + 1)

    return walk(0, 0)


def test_read_tour_and_matches() -> None:
    page = ("```sh\nmkdir x\n# a comment\n# exit status 2\nbad --x\n```\n\n```text\nerr: x\n```\n"
            "prose\n```text\nnot output\n```\n```sh\n.venv/bin/a\n```\nprose\n\n```text\nno\n```\n")
    steps = read_tour(page)
    assert [(s.command, s.status, s.expected) for s in steps] == [
        ("mkdir x", 0, None), ("bad --x", 2, ["err: x"]), (".venv/bin/a", 0, None)]
    assert matches(["a  b", "...", "z"], ["", "a\tb", "c", "d", "z", ""])
    assert matches(["a", "..."], ["a"]) and not matches(["a", "b"], ["a", "c"])
    assert matches(["sig|x:1|..."], ["sig|x:1|y:2"]) and not matches(["sig|x:2|..."], ["sig|x:1"])
    assert not matches(["a"], ["a", "b"])


def _fresh_venv(tmp: Path) -> Path:
    """A new virtual environment with the checkout installed, its dependencies shared."""
    peer("wheel", "the test extra installs the build tools (setuptools, wheel)")
    src = tmp / "src"
    for name in SOURCE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], check=True, capture_output=True, text=True).stdout
    shared = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    Path(site.strip(), "_errtype_tour_deps.pth").write_text("\n".join(shared) + "\n",
                                                           encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
                           str(src)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return venv


@pytest.mark.slow
def test_tour_runs_in_a_fresh_venv(tmp_path: Path) -> None:
    steps = read_tour(tour_text())
    assert len(steps) >= 10 and sum(s.expected is not None for s in steps) >= 6
    assert all(s.command.startswith((PREFIX, "mkdir ", "head ")) for s in steps), \
        "the tour runs errtype from .venv/bin/ (and mkdir/head only)"
    venv = _fresh_venv(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    work = tmp_path / "repo"  # a repository root with the bundled samples
    shutil.copytree(ROOT / "samples", work / "samples",
                    ignore=shutil.ignore_patterns("out"))
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import errtype; print(errtype.__file__)"], cwd=work, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert Path(where.strip()).is_relative_to(venv), where  # the installed copy runs
    for step in steps:
        command = step.command.replace(PREFIX, f"{venv}/bin/")
        proc = subprocess.run(command, shell=True, executable="/bin/bash", cwd=work, env=env,
                              capture_output=True, text=True, timeout=600)
        report = f"{step.command}\n--- status {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        assert proc.returncode == step.status, report
        assert "Traceback" not in proc.stderr, report
        if step.expected is not None:
            shown = proc.stdout if step.status == 0 else proc.stderr
            assert matches(step.expected, shown.splitlines()), \
                report + "\n--- expected\n" + "\n".join(step.expected)
    # what the steps wrote
    gold = (work / "samples" / "out" / "en.m2").read_text(encoding="utf-8")
    assert gold.count("\nS ") + gold.startswith("S ") == 10
    system = (work / "samples" / "out" / "en.sys.m2").read_text(encoding="utf-8")
    assert system.count("\n\n") == 10 and "R:PREP|||on|||" in system
    html = (work / "samples" / "out" / "en.html").read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html") and "SYS" in html and "INPUT" in html
    assert not (work / "samples" / "out" / "x.m2").exists()  # the failing step wrote nothing
