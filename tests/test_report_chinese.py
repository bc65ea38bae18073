"""The HTML report on Chinese (character-segmented, as ChERRANT's and MuCGEC's M2): the text
stays readable (UTF-8 in the page, escaped where HTML or the script element need it), the
sentence browser joins characters without spaces (Latin words keep theirs), CJK fonts come
before the generic fallback, and the browser's content carries the language. In headless
Chromium when installed: the rendered sentence browser, and a screenshot."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from errtype.m2 import M2Block, M2Edit, write_m2
from errtype.report import ReportOptions, build_report, load_input, render_html

from .report_browser import OFFLINE, Dom, chromium, dump_dom, run_harness

# character-segmented sentences (ChERRANT's char M2); one holds characters HTML must escape
SOURCES = ["我 们 去 公 园 玩 了 。", "他 说 < 你 好 & 再 见 > 。", "我 用 i P h o n e 手 机 。",
           "我们 用 iPhone 手机 。"]  # the last one segmented in words
GOLD = [[M2Edit(2, 2, "M", "一 起", 0), M2Edit(6, 7, "R", "-NONE-", 0)],
        [M2Edit(5, 6, "S", "和", 0)],
        [M2Edit(-1, -1, "noop", "-NONE-", 0)], [M2Edit(-1, -1, "noop", "-NONE-", 0)]]
SYSTEM = [[M2Edit(2, 2, "M", "一 起", 0)], [M2Edit(5, 6, "S", "与", 0)],
          [M2Edit(10, 11, "S", "。 ！", 0)], [M2Edit(1, 1, "M", "的 新", 0)]]
NAME = "系统<甲>"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    d = tmp_path_factory.mktemp("zh")
    write_m2([M2Block(s, e) for s, e in zip(SOURCES, GOLD, strict=True)], d / "gold.m2")
    write_m2([M2Block(s, e) for s, e in zip(SOURCES, SYSTEM, strict=True)], d / "sys.m2")
    inp = load_input([d / "gold.m2"], [(NAME, d / "sys.m2")], lang="zh", gold_types="keep")
    report = build_report(inp, ReportOptions(bootstrap=50, trials=50))
    html = d / "report.html"
    html.write_text(render_html(report, "中文报告"), encoding="utf-8")
    return report, html


def test_page_source(page: tuple[Any, Path]) -> None:
    report, html = page
    text = html.read_text(encoding="utf-8")
    assert report.lang == "zh"
    assert "<title>中文报告</title>" in text and "<h1>中文报告</h1>" in text
    # the system name in tables is escaped; in the JSON of the script element "<" is \u003c
    assert "系统&lt;甲&gt;" in text and "系统<甲>" not in text
    assert '"系统\\u003c甲>"' in text and '"我","们","去"' in text
    assert text.count("</script>") == 2
    assert '<div id="browser-list" lang="zh">' in text
    # CJK fonts before the generic family
    css = text[text.index("<style>"):text.index("</style>")]
    assert css.index('"Noto Sans CJK SC"') < css.index("sans-serif")
    assert ":lang(ja){font-family:" in css


def test_browser_joins_characters(page: tuple[Any, Path], tmp_path: Path) -> None:
    _, html = page
    script = """
      return Array.from(document.querySelectorAll('#browser-list .sent')).map(s => ({
        src: Array.from(s.childNodes).filter(n => !n.classList || !n.classList.contains('n'))
               .filter(n => !(n.classList && (n.classList.contains('hyp') ||
                                              n.classList.contains('edits'))))
               .map(n => n.textContent).join(''),
        hyp: s.querySelector('.hyp').textContent,
        edits: Array.from(s.querySelectorAll('.edit')).map(e => e.textContent)}));
    """
    got = run_harness(html, script, tmp_path)["result"]
    assert [g["src"] for g in got] == ["我们去公园玩了。 ", "他说<你好&再见>。 ",
                                       "我用iPhone手机。 ", "我们用iPhone手机。 "]
    assert got[0]["hyp"] == "\u2192 我们一起去公园玩了。"
    assert got[0]["edits"] == ["\u2205 \u2192 一起 M TP", "了 \u2192 \u2205 R FN"]
    assert got[1]["hyp"] == "\u2192 他说<你好与再见>。"
    assert got[2]["edits"] == ["。 \u2192 。！ S FP"]
    assert got[2]["hyp"] == "\u2192 我用iPhone手机。！"
    assert got[3]["edits"] == ["\u2205 \u2192 的新 M FP"]
    dom = Dom(dump_dom(html, tmp_path / "profile"))
    assert dom.by_id["b-sys"]["text"] == NAME  # the option's text, unescaped once


def test_screenshot(page: tuple[Any, Path], tmp_path: Path) -> None:
    """A PNG of the sentence browser (glyphs need a CJK font, e.g. fonts-noto-cjk)."""
    _, html = page
    png = tmp_path / "zh.png"
    subprocess.run([chromium(), *OFFLINE, f"--user-data-dir={tmp_path / 'profile'}",
                    "--hide-scrollbars", "--window-size=1200,900", "--virtual-time-budget=5000",
                    f"--screenshot={png}", html.as_uri() + "#view=browser"],
                   capture_output=True, timeout=300, check=True)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = Path(str(__import__("os").environ.get("ERRTYPE_SCREENSHOTS", "")))
    if keep.name:
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(png, keep / "report_zh.png")


def test_a_correct_deletion_written_none_in_the_gold(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture) -> None:
    """Issue 33: the report showed ERRANT 0.00 beside M2 100.00 for a perfect system when the
    gold (errtype-m2's Chinese output) writes its deletion ``-NONE-``; the per-type table
    counted it FP + FN."""
    from errtype.cli.report import main as report_main

    write_m2([M2Block("这 本 书 是 非 常 有 意 思 。", [M2Edit(3, 4, "R", "-NONE-", 0)])],
             tmp_path / "gold.m2")
    (tmp_path / "sys.txt").write_text("这本书非常有意思。\n", encoding="utf-8")
    assert report_main(["--lang", "zh", "--ref", str(tmp_path / "gold.m2"), "--hyp",
                        f"SYS={tmp_path / 'sys.txt'}", "--format", "md", "-o", "-", "-q",
                        "--bootstrap", "10", "--trials", "10"]) == 0
    out = capsys.readouterr().out
    corpus = next(r for r in out.splitlines() if r.startswith("| SYS |"))
    assert corpus.split(" | ")[1:4] == ["100.00"] * 3  # ERRANT P, R, F0.5
    per_type = out.split("### Per-type scores: SYS")[1].splitlines()[4]
    assert per_type.startswith("| R | 1 | 1 | 0 | 0 | 100.00 |")
