"""Build the HTML report on CoNLL-2014 and GECCC dev, time every stage, check its size, and
write PNG screenshots with headless Chromium.

Stages: reading the inputs, re-typing the NUCLE-typed CoNLL-2014 gold with ERRANT types (the
default; once with an empty cache, then again reading the cached gold), edit extraction of the
system text (the English/Czech annotator; each source parsed once for all systems), statistics
(bootstrap, paired tests, type-only rescoring), HTML rendering, Chromium loading the page
(--dump-dom). Wall and CPU seconds (this process) per stage. Side by side, the peer's share of
the work: ERRANT 3.0.2 (errant.load("en"), parse + annotate of every system sentence, which is
what a per-type errant_compare table of text systems needs) on the same CoNLL-2014 systems.

    python bench/report_screenshot.py                      # CoNLL-2014 4 systems + GECCC dev
    python bench/report_screenshot.py --geccc 0 --no-peer  # CoNLL only, no peer run
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.m2 import read_m2, write_m2  # noqa: E402
from errtype.report import ReportOptions, build_report, load_input, render_html  # noqa: E402
from errtype.score.extract import apply_edits  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
CONLL = DATA / "conll14"


def chromium(args: list[str], profile: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise SystemExit("chromium not found (apt-get install chromium)")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", f"--user-data-dir={profile}", "--host-resolver-rules=MAP * ~NOTFOUND",
           "--proxy-server=127.0.0.1:9", "--virtual-time-budget=5000", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=True)


class Clock:
    """Wall and CPU seconds (this process) of consecutive stages."""

    def __init__(self) -> None:
        self.last = (time.perf_counter(), time.process_time())
        self.stages: list[tuple[str, float, float]] = []

    def lap(self, stage: str) -> None:
        now = (time.perf_counter(), time.process_time())
        self.stages.append((stage, now[0] - self.last[0], now[1] - self.last[1]))
        self.last = now

    def show(self, title: str) -> None:
        print(f"  {title}")
        for stage, wall, cpu in self.stages:
            print(f"    {stage:<28} {wall:8.2f} s wall {cpu:8.2f} s CPU")
        print(f"    {'total':<28} {sum(s[1] for s in self.stages):8.2f} s wall "
              f"{sum(s[2] for s in self.stages):8.2f} s CPU")


def build(gold: Path, systems: list[tuple[str, Path]], lang: str, options: ReportOptions,
          gold_types: str, annotator: object, clock: Clock) -> tuple[object, object, str]:
    """The report in stages: the re-typed gold (computed, or read from the cache), the systems'
    edits (load_input, which reads the cached gold), statistics, HTML."""
    from errtype.retype import retype_gold

    if gold_types == "auto" and lang == "en":  # NUCLE-typed CoNLL: the default re-types it
        r = retype_gold(gold, list(read_m2(gold)), annotator)
        clock.lap("gold read from the cache" if r.cached else "gold re-typed and cached")
    inp = load_input([gold], systems, lang=lang, annotator=annotator, gold_types=gold_types)
    clock.lap(f"inputs, edits of {len(systems)} text systems")
    report = build_report(inp, options)
    clock.lap("statistics")
    html = render_html(report, f"errtype report: {gold.stem}")
    clock.lap("HTML rendering")
    return inp, report, html


def run(name: str, gold: Path, systems: list[tuple[str, Path]], out: Path, lang: str,
        options: ReportOptions, gold_types: str, annotator: object, runs: int = 1) -> None:
    for k in range(runs):
        clock = Clock()
        inp, report, html = build(gold, systems, lang, options, gold_types, annotator, clock)
        clock.show(f"{name} run {k + 1}: " + "; ".join(inp.notes)[:160])
    page = out / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    with tempfile.TemporaryDirectory() as prof:
        t4 = time.perf_counter()
        dom = chromium(["--dump-dom", page.as_uri()], prof).stdout
        t5 = time.perf_counter()
        chromium([f"--screenshot={out / f'{name}.png'}", "--window-size=1400,2200",
                  page.as_uri()], prof)
        first = report.systems[0]
        chromium([f"--screenshot={out / f'{name}-browser.png'}", "--window-size=1400,1400",
                  page.as_uri() + f"#sys={first}&only=1&view=browser"], prof)
        chromium([f"--screenshot={out / f'{name}-chart.png'}", "--window-size=1000,1000",
                  page.as_uri() + "#view=chart"], prof)
        chromium([f"--screenshot={out / f'{name}-confusion.png'}", "--window-size=1400,1000",
                  page.as_uri() + "#view=confusion"], prof)
    size = page.stat().st_size
    print(f"{name}: {len(inp.gold)} sentences x {len(systems)} systems, "
          f"{len(report.types)} types")
    shown = dom.count('class="sent"')
    print(f"  Chromium load (dump)   {t5 - t4:7.2f} s  (rendered: {shown} sentences on the "
          f"first page)")
    print(f"  report size            {size / 1e6:7.2f} MB  ({page})")
    for s in report.systems:
        c = report.corpus[s]["errant"]["f"]
        print(f"  {s:<8} ERRANT F0.5 {100 * c['v']:6.2f} [{100 * c['lo']:.2f}, "
              f"{100 * c['hi']:.2f}]")
    for c in report.comparisons:
        print(f"  {c['metric']:<8} {c['a']} vs {c['b']}: delta {100 * c['delta']:+.2f}, "
              f"p boot {c['p_boot']:.4f} (Holm {c['p_boot_holm']:.4f}), p AR {c['p_ar']:.4f} "
              f"(Holm {c['p_ar_holm']:.4f})")


def peer(systems: list[tuple[str, Path]]) -> float | None:
    """ERRANT 3.0.2 extracting the edits of the same system text (parse + annotate)."""
    try:
        import errant
    except ImportError:
        print("peer: errant 3.0.2 not installed (pip install errant==3.0.2), skipped")
        return None
    from errtype.lang.en import DEFAULT_MODELS
    from errtype.parse.spacy import load_pipeline
    gold = list(read_m2(CONLL / "official-2014.combined.m2"))
    t0 = time.perf_counter()
    ann = errant.load("en", nlp=load_pipeline(DEFAULT_MODELS))  # the same spaCy pipeline
    t1 = time.perf_counter()
    n = 0
    for _, path in systems:
        lines = path.read_text(encoding="utf-8").splitlines()
        for b, hyp in zip(gold, lines, strict=True):
            orig = ann.parse(b.source)
            cor = ann.parse(hyp.strip())
            ann.annotate(orig, cor)
            n += 1
    t2 = time.perf_counter()
    print(f"peer ERRANT 3.0.2: edit extraction of {n} system sentences {t2 - t1:.2f} s "
          f"(load {t1 - t0:.2f} s, not counted)")
    return t2 - t1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "bench" / "_out" / "report"))
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--geccc", type=int, default=-1,
                    help="GECCC dev sentences (-1 = all, 0 = skip)")
    ap.add_argument("--keep-gold-types", action="store_true",
                    help="CoNLL: keep the NUCLE gold types (no re-typing)")
    ap.add_argument("--no-peer", action="store_true")
    args = ap.parse_args()
    import errtype

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = ReportOptions(bootstrap=args.bootstrap, trials=args.trials)
    systems = [(n, CONLL / "systems" / n) for n in ("AMU", "CAMB", "CUUI", "INPUT")]
    clock = Clock()
    en = errtype.load("en")
    en.warm_up()
    clock.lap("load the English annotator")
    clock.show("setup")
    with tempfile.TemporaryDirectory() as cache:  # an empty cache: run 1 re-types, run 2 reads
        os.environ["ERRTYPE_CACHE_DIR"] = cache
        run("conll14", CONLL / "official-2014.combined.m2", systems, out, "en", options,
            "keep" if args.keep_gold_types else "auto", en, runs=2)
    if not args.no_peer:
        peer(systems)
    if args.geccc:
        blocks = list(read_m2(DATA / "geccc" / "sentence.m2"))
        if args.geccc > 0:
            blocks = blocks[:args.geccc]
        gold = out / "geccc-gold.m2"
        write_m2(blocks, gold)
        texts = {"GOLD": out / "geccc-GOLD.txt", "INPUT": out / "geccc-INPUT.txt"}
        texts["GOLD"].write_text("".join(
            apply_edits(b.tokens, b.edits_by_annotator().get(0, [])) + "\n" for b in blocks),
            encoding="utf-8")
        texts["INPUT"].write_text("".join(b.source + "\n" for b in blocks), encoding="utf-8")
        run("geccc", gold, list(texts.items()), out, "cs", options, "auto",
            errtype.load("cs", backend="spacy"))
    return 0
