"""errtype lint: findings with lines on the real corpora and on a file holding every problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errtype.cli import lint as cli
from errtype.cli.main import main as errtype_main
from errtype.lint import CODES, lint_m2

from .conftest import shared_path


def test_issue49_duplicate_edit(capsys: pytest.CaptureFixture) -> None:
    """ERRANT issue 49: the reference repeats 'A 7 7 M:PUNCT ,' (lines 5 and 8) and
    errant_compare gives TP=4 for 3 hypothesis edits (oracles/en_issue49/compare_default.txt)."""
    path = shared_path("oracles", "en_issue49", "ref.m2")
    assert "4\t0\t9" in path.with_name("compare_default.txt").read_text(encoding="utf-8")
    assert errtype_main(["lint", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{path}:8: duplicate-edit annotator 0 repeats the edit of line 5 (7 7 ','); "
                   "ERRANT's scorer counts a match once per copy (ERRANT issue 49)"]


def test_estgec_overlaps_with_lines() -> None:
    result = lint_m2(shared_path("multilingual", "estgec.dev.m2"))
    overlaps = [f for f in result.findings if f.code == "overlap"]
    # regression pin (errtype's count; each overlapping edit reported once, at its own line)
    assert len(overlaps) == 364
    first = overlaps[0]
    assert (first.line, first.message) == (53, "annotator 0's edit 1 4 overlaps its edit 1 2 on "
                                                "line 52")
    lines = shared_path("multilingual", "estgec.dev.m2").read_text(encoding="utf-8").splitlines()
    assert lines[52].startswith("A 1 4|||R:WO|||") and lines[51].startswith("A 1 2|||")
    counts = result.counts()
    assert result.blocks == 1692
    # regression pins, each checked against the file with grep/awk when written:
    # 200 lines with '||' in the correction, 84 'S' lines right after an 'A' line
    assert (counts["alternatives"], counts["no-blank-line"]) == (200, 84)
    assert counts["duplicate-edit"] == 1 and counts["noop-with-edits"] == 2
    assert counts["none-deletion"] == 1 and "none-and-empty" not in counts


@pytest.mark.parametrize("name,counts", [
    ("multilingual/uagec.dev.m2", {}),
    ("oracles/en_compare/ref.m2", {}),
    ("conll14/official-2014.0.m2", {"no-edit-lines": 365}),
])
def test_clean_and_nearly_clean_corpora(name: str, counts: dict[str, int]) -> None:
    assert lint_m2(shared_path(*name.split("/"))).counts() == counts  # regression pins


HOSTILE = """S a b c d
A 0 1|||X|||A|||REQUIRED|||-NONE-|||0
A 0 1|||X|||A|||REQUIRED|||-NONE-|||0
A 0 2|||X|||AB|||REQUIRED|||-NONE-|||0
A 3 9|||X|||D|||REQUIRED|||-NONE-|||0
A 2 3|||X|||-NONE-|||REQUIRED|||-NONE-|||1
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
S e f
A 0 1|||X||||||REQUIRED|||-NONE-|||0
A 1 2|||X|||g||h|||REQUIRED|||-NONE-|||0
A 1 1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2

S x

"""


def test_every_code_json_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "hostile.m2"
    path.write_text(HOSTILE, encoding="utf-8")
    assert cli.main([str(path), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)["files"][0]
    found = {(f["line"], f["code"]) for f in doc["findings"]}
    assert found == {
        (3, "duplicate-edit"), (4, "overlap"), (5, "span-outside"), (7, "noop-with-edits"),
        (6, "none-deletion"), (9, "none-and-empty"), (8, "no-blank-line"),
        (1, "annotator-missing"), (8, "annotator-missing"), (10, "alternatives"),
        (11, "noop-form"), (13, "no-edit-lines"),
    }
    assert {code for _, code in found} == set(CODES) - {"annotator-extra"}
    assert doc["blocks"] == 3
    assert cli.main([str(path), "--annotators", "2", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)["files"][0]
    assert [(f["line"], f["code"]) for f in doc["findings"] if f["code"].startswith(
        "annotator")] == [(8, "annotator-missing"), (11, "annotator-extra")]
    assert cli.main([str(path), "--ignore", ",".join(CODES)]) == 0
    clean = tmp_path / "clean.m2"
    clean.write_text("S a b\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    assert cli.main([str(clean)]) == 0
    bad = tmp_path / "bad.m2"
    bad.write_text("S a b\nA 0 x|||X|||c|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main([str(bad)]) == 2
    assert f"{bad}, line 2" in capsys.readouterr().err
    assert cli.main([str(tmp_path / "missing.m2")]) == 2


#: ChERRANT's dialect as ChERRANT and errtype write it: references per sentence vary, equal-cost
#: edit sequences of one reference, -NONE- deletions, a reference that changes nothing, and one
#: marked unannotatable
CHERRANT = """S 我 在 也 不 去 了 了 。
T0-A0 我 再 也 不 去 了 。
A 1 2|||S|||再|||REQUIRED|||-NONE-|||0
A 5 6|||R|||-NONE-|||REQUIRED|||-NONE-|||0
T0-A1 我 再 也 不 去 了 。
A 1 2|||S|||再|||REQUIRED|||-NONE-|||0
A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||0
T1 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
T2 无法标注
A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||2

S 他 跑 的 很 快 。
T0-A0 他 跑 得 很 快 。
A 2 3|||S|||得|||REQUIRED|||-NONE-|||0

"""


def test_cherrant_dialect_is_clean(tmp_path: Path) -> None:
    """Issue 33: lint rejected errtype's own Chinese output. In ChERRANT's dialect a sentence
    lists the references it has and -NONE- is the dialect's deletion: neither is a finding; the
    same file in standard M2 still gets both."""
    path = tmp_path / "cherrant.m2"
    path.write_text(CHERRANT, encoding="utf-8")
    assert lint_m2(path).findings == []
    standard = tmp_path / "standard.m2"
    standard.write_text("".join(line + "\n" for line in CHERRANT.splitlines()
                                if not line.startswith("T")), encoding="utf-8")
    assert lint_m2(standard).counts() == {"annotator-missing": 1, "none-deletion": 1,
                                          "duplicate-edit": 1, "noop-form": 1}
