"""The README's main job: the bundled en, cs, fr and ja samples (parallel text) and the zh sample
(ChERRANT's parallel format) become M2, one block per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli.m2 import main
from errtype.lint import lint_m2
from errtype.m2 import read_m2

from .conftest import peer, zh_extra

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.mark.parametrize("lang,model", [("en", None), ("cs", "cs_core_news_sm"),
                                        ("fr", "fr_core_news_sm"), ("ja", "fugashi")])
def test_main_job_on_the_bundled_samples(lang: str, model: str | None, tmp_path: Path) -> None:
    if model:
        peer(model, f"the [{lang}] extra installs it")  # skips locally, fails in CI
    orig, cor = SAMPLES / f"{lang}.orig.txt", SAMPLES / f"{lang}.cor.txt"
    out = tmp_path / f"{lang}.m2"
    assert main(["--lang", lang, "-orig", str(orig), "-cor", str(cor), "-out", str(out), "-q"]) == 0
    sources = [" ".join(line.split()) for line in orig.read_text(encoding="utf-8").splitlines()]
    blocks = list(read_m2(out))
    if lang == "ja":   # written without spaces: the M2 sentence is the segmented text
        assert [b.source.replace(" ", "") for b in blocks] == sources
    else:
        assert [b.source for b in blocks] == sources
    # every sample pair differs, and every edit is typed (no untyped or unknown edits)
    typed = [e for b in blocks for e in b.edits if not e.is_noop]
    assert len(typed) >= len(blocks) - 1
    assert all(e.type[:2] in ("M:", "R:", "U:") for e in typed)
    assert lint_m2(out).findings == []  # errtype lint accepts what errtype writes


def test_main_job_on_the_chinese_sample(tmp_path: Path) -> None:
    """ChERRANT's parallel format: one block per line in ChERRANT's dialect, a T line per
    reference that changes something, char-level operation types."""
    zh_extra()
    out = tmp_path / "zh.m2"
    assert main(["--lang", "zh", "--para", str(SAMPLES / "zh.para"), "-o", str(out), "-q"]) == 0
    lines = (SAMPLES / "zh.para").read_text(encoding="utf-8").splitlines()
    blocks = list(read_m2(out))
    assert [b.source.replace(" ", "") for b in blocks] == [ln.split("\t")[1] for ln in lines]
    assert all(b.is_cherrant for b in blocks)
    assert [len({t.annotator for t in b.targets}) for b in blocks] == [
        len(ln.split("\t")) - 2 for ln in lines]
    assert {e.type for b in blocks for e in b.edits} <= {"M", "R", "S", "W"}
    # errtype lint accepts what errtype writes (issue 33: it flagged the sentences with fewer
    # references and the dialect's -NONE- deletions)
    assert lint_m2(out).findings == []


def test_the_readme_main_command_runs_these_samples() -> None:
    """The README's main command annotates exactly the files the test above annotates."""
    readme = (SAMPLES.parent / "README.md").read_text(encoding="utf-8")
    line = next(ln for ln in readme.splitlines() if ln.startswith("python3 -m venv .venv && ")
                and "errtype-m2" in ln)
    for lang in ("en", "cs", "fr", "ja"):
        flag = "" if lang == "en" else f"--lang {lang} "
        assert (f".venv/bin/errtype-m2 {flag}-orig samples/{lang}.orig.txt -cor "
                f"samples/{lang}.cor.txt -o samples/out/{lang}.m2") in line
    assert ".venv/bin/errtype-m2 --lang zh --para samples/zh.para -o samples/out/zh.m2" in line
