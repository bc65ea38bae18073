"""Alignment benchmarks: errtype vs ERRANT 3.0.2, and the long-pair aligner vs the previous one.

``errant``   real pairs (JFLEG dev x 4 references, CoNLL-2014 system outputs), parsed once with
             the same spaCy pipeline: CPU time per pair of ERRANT's ``Alignment`` and of errtype's
             aligner, and whether every cost matrix, operation matrix and alignment is identical.
``sweep``    one pair of n tokens per size, aligned in a fresh subprocess by the current aligner
             and by the previous one (``--base``, taken with ``git archive``): CPU seconds, peak
             RSS, DP blocks, and whether the two alignments are identical. Kinds: ``text`` (the
             CoNLL-2014 source vs the AMU system output, concatenated sentence by sentence, spaCy
             tags), ``geccc`` (GECCC dev paragraphs vs annotator 0's corrections, Czech spaCy
             tags), ``punct`` (random punctuation marks, 10 % of them edited) and
             ``punct-unrelated`` (two independent random punctuation runs: no anchors).
``command``  the whole ``errtype-m2`` on one line pair of n tokens (text, punct), current vs
             previous: CPU seconds and peak RSS of the child process, identical M2 or not.
``corpora``  every pair of every shared corpus (CoNLL-2014 source x systems and x gold
             corrections, systems x gold, JFLEG x references, GECCC sentences and paragraphs,
             EstGEC, UA-GEC), parsed once: the long-pair path forced on every pair (defaults and
             a stressed setting with 2-token anchors) against the full DP, linguistic and ``-lev``.
``documents`` GECCC dev documents (paragraphs joined per paragraph.meta), the same comparison.

    python bench/bench_align.py [errant sweep command corpora documents] [--sizes 100 ... 20000]
        [--old-max N] [--base 51fe7d4] [--data ../shared/data] [--pairs 1500]

The machine may be shared: CPU seconds are reported, wall time only for the whole command.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: set for a child process: the source tree whose ``errtype`` it imports
TREE_ENV = "BENCH_ALIGN_TREE"
sys.path.insert(0, os.environ.get(TREE_ENV) or str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: the last commit before the long-pair aligner: the "previous aligner" of the comparisons
BASE = "51fe7d4"
SIZES = (100, 300, 1000, 2500, 5000, 10000, 20000)
#: largest size per kind given to the previous aligner (its table is quadratic: English text
#: 2 GB at 10,000 tokens; Czech costs ~20x slower a cell; punctuation 1.8-3 GB at 5,000 and
#: 12 GB at 10,000); ``--old-max`` sets one limit for all
OLD_MAX = {"text": 10000, "geccc": 5000, "punct": 5000, "punct-unrelated": 5000}
MARKS = list(".,;:!?-()\"'")
#: a stressed setting of the long-pair path: anchors and margins of 1 token
STRESS = {"first_k": 1, "refine_ks": (1,), "margin": 1}


# --- pairs ------------------------------------------------------------------------------------


def _m2_pairs(path: Path) -> list[tuple[str, str]]:
    """(source, correction) of every annotator with edits in an M2 file (M2SCORER rules)."""
    from errtype import m2

    out = []
    for block in m2.read_m2(path):
        for edits in block.edits_by_annotator().values():
            real = [e for e in edits if not e.is_noop]
            if real:
                out.append((block.source, m2.apply_edits(block.tokens, real, m2.M2SCORER).text))
    return out


def _text_pairs(src: Path, cors: list[Path]) -> list[tuple[str, str]]:
    lines = src.read_text(encoding="utf-8").splitlines()
    out = []
    for cor in cors:
        other = cor.read_text(encoding="utf-8").splitlines()
        out += [(" ".join(o.split()), " ".join(c.split())) for o, c in zip(lines, other,
                                                                           strict=True)]
    return out


def corpora(data: Path) -> dict[str, tuple[str, dict, Callable[[], list[tuple[str, str]]]]]:
    """Every shared corpus: name -> (language, backend options, pairs loader)."""
    c14, jf, ml, gc = data / "conll14", data / "jfleg", data / "multilingual", data / "geccc"
    models = data.parent / "models"
    systems = [c14 / "systems" / s for s in ("AMU", "CAMB", "CUUI")]

    def systems_x_gold() -> list[tuple[str, str]]:
        from errtype import m2

        gold = [m2.apply_edits(b.tokens, [e for e in b.edits if not e.is_noop], m2.M2SCORER).text
                for b in m2.read_m2(c14 / "official-2014.0.m2")]
        out = []
        for s in systems:
            hyp = [" ".join(x.split()) for x in s.read_text(encoding="utf-8").splitlines()]
            out += list(zip(hyp, gold, strict=True))
        return out

    return {
        "CoNLL-2014 source x systems": ("en", {}, lambda: _text_pairs(c14 / "systems/INPUT",
                                                                       systems)),
        "CoNLL-2014 source x gold": ("en", {}, lambda: _m2_pairs(
            c14 / "official-2014.combined.m2")),
        "CoNLL-2014 systems x gold": ("en", {}, systems_x_gold),
        "JFLEG dev x references": ("en", {}, lambda: _text_pairs(
            jf / "dev.src", [jf / f"dev.ref{i}" for i in range(4)])),
        "GECCC dev sentences": ("cs", {"backend": "spacy"}, lambda: _m2_pairs(
            gc / "sentence.m2")),
        "GECCC dev paragraphs": ("cs", {"backend": "spacy"}, lambda: _m2_pairs(
            gc / "paragraph.m2")),
        "EstGEC dev": ("et", {"udpipe_model": str(models / "et.udpipe")},
                       lambda: _m2_pairs(ml / "estgec.dev.m2")),
        "UA-GEC dev": ("uk", {"udpipe_model": str(models / "uk.udpipe")},
                       lambda: _m2_pairs(ml / "uagec.dev.m2")),
    }


def geccc_documents(data: Path) -> list[tuple[str, str]]:
    """GECCC dev documents: the paragraphs of one document (paragraph.meta) joined, source and
    annotator 0's correction (M2SCORER rules)."""
    from errtype import m2

    gc = data / "geccc"
    meta = (gc / "paragraph.meta").read_text(encoding="utf-8").splitlines()
    docs: dict[str, tuple[list[str], list[str]]] = {}
    for doc, block in zip(meta, m2.read_m2(gc / "paragraph.m2"), strict=True):
        edits = [e for e in block.edits_by_annotator().get(0, []) if not e.is_noop]
        o, c = docs.setdefault(doc, ([], []))
        o += block.tokens
        c += m2.apply_edits(block.tokens, edits, m2.M2SCORER).tokens
    return [(" ".join(o), " ".join(c)) for o, c in docs.values() if o != c]


def parsed_pairs(lang: str, options: dict, pairs: list[tuple[str, str]]) -> tuple[object, list]:
    """The annotator and the distinct differing pairs as parsed Sentences (each text once)."""
    import errtype

    pairs = sorted({p for p in pairs if p[0] != p[1]})
    ann = errtype.load(lang, **options)
    texts = sorted({t for p in pairs for t in p})
    parsed = dict(zip(texts, ann.parser.parse_many(texts), strict=True))
    return ann, [(parsed[o], parsed[c]) for o, c in pairs]


def compare(lang: object, sents: list, settings: dict[str, dict], levs: tuple[bool, ...] = (
        False, True)) -> dict[str, dict[str, int]]:
    """Per setting of the long-pair path (forced on every pair) and per ``lev``: pairs split into
    several blocks and pairs whose alignment (operations or cost) differs from the full DP."""
    from errtype.align import _anchored, align

    out = {f"{name}{' lev' if lev else ''}": {"pairs": 0, "split": 0, "differ": 0}
           for name in settings for lev in levs}
    for o, c in sents:
        for lev in levs:
            full = align(o, c, lang, lev, max_full_cells=None)
            for name, opts in settings.items():
                seq, cost, blocks = _anchored(o, c, lang, lev, **opts)
                r = out[f"{name}{' lev' if lev else ''}"]
                r["pairs"] += 1
                r["split"] += blocks > 1
                r["differ"] += seq != full.align_seq or cost != full.cost
    return out


def sweep_pair(kind: str, n: int, data: Path, parsers: dict | None = None
               ) -> tuple[list, list]:
    """(word, lemma, POS) of both sides of an n-token pair of ``kind`` (``parsers``: language
    code -> errtype parser, for the real-text kinds)."""
    rng = random.Random(n)
    if kind.startswith("punct"):
        o = [rng.choice(MARKS) for _ in range(n)]
        if kind == "punct-unrelated":
            c = [rng.choice(MARKS) for _ in range(n)]
        else:
            c = list(o)
            for _ in range(n // 10):
                at, what, mark = rng.randrange(len(c)), rng.random(), rng.choice(MARKS)
                if what < 0.3:
                    c[at] = mark
                elif what < 0.6:
                    del c[at]
                elif what < 0.9:
                    c.insert(at, mark)
                elif at + 1 < len(c):
                    c[at], c[at + 1] = c[at + 1], c[at]
        return [(w, w, "PUNCT") for w in o], [(w, w, "PUNCT") for w in c]
    src, hyp = text_lines(data, n, kind)
    parser = (parsers or {})[KIND_LANG[kind]]
    return tuple([(t.text, t.lemma, t.pos) for sent in parser.parse_many(lines)  # type: ignore
                  for t in sent] for lines in (src, hyp))  # type: ignore[return-value]


#: language of the real-text kinds
KIND_LANG = {"text": "en", "geccc": "cs", "punct": "en", "punct-unrelated": "en"}


def text_lines(data: Path, n: int, kind: str = "text") -> tuple[list[str], list[str]]:
    """Source and correction lines, from the start, until the source has n tokens: ``text`` the
    CoNLL-2014 source and the AMU system's output, ``geccc`` GECCC dev paragraphs and annotator
    0's corrections."""
    if kind == "geccc":
        from errtype import m2

        pairs = [(b.source, m2.apply_edits(b.tokens, [e for e in b.edits_by_annotator().get(
            0, []) if not e.is_noop], m2.M2SCORER).text)
            for b in m2.read_m2(data / "geccc" / "paragraph.m2")]
    else:
        c14 = data / "conll14" / "systems"
        pairs = list(zip((c14 / "INPUT").read_text(encoding="utf-8").splitlines(),
                         (c14 / "AMU").read_text(encoding="utf-8").splitlines(), strict=True))
    o, c, count = [], [], 0
    for s, h in pairs:
        if count >= n:
            break
        if s.split():
            o.append(s)
            c.append(h)
            count += len(s.split())
    return o, c


# --- subprocesses -----------------------------------------------------------------------------


def _peak_mb() -> float:
    """Peak RSS of this process (VmHWM on Linux, else ``getrusage``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _check_tree() -> None:
    import errtype

    tree = os.environ.get(TREE_ENV)
    if tree and not errtype.__file__.startswith(tree):
        raise RuntimeError(f"imported {errtype.__file__}, not the errtype of {tree}")


def child_align(pair_file: str, out_file: str) -> None:
    """Align the pickled pair once with the ``errtype`` of $BENCH_ALIGN_TREE."""
    _check_tree()
    from errtype.align import align
    from errtype.lang import get_language
    from errtype.tokens import Sentence, Token

    with open(pair_file, "rb") as fh:
        code, sides = pickle.load(fh)
    o, c = (Sentence([Token(w, lemma, pos) for w, lemma, pos in side]) for side in sides)
    lang = get_language(code)
    warm = Sentence([Token(w, w, "NOUN") for w in "a b c d e f g h i".split()])
    align(warm, Sentence(warm[::-1]), lang)  # imports numpy, rapidfuzz
    base = _peak_mb()
    t0 = time.process_time()
    al = align(o, c, lang)
    seconds = time.process_time() - t0
    with open(out_file, "wb") as fh:
        pickle.dump([tuple(a) for a in al.align_seq], fh)
    print(json.dumps({"seconds": seconds, "peak_mb": _peak_mb(), "base_mb": base,
                      "cost": al.cost, "blocks": getattr(al, "blocks", 1)}))


def child_m2(argv: list[str]) -> None:
    """``errtype-m2`` with the ``errtype`` of $BENCH_ALIGN_TREE; prints its peak RSS last."""
    _check_tree()
    from errtype.cli.m2 import main

    code = main(argv)
    print(json.dumps({"peak_mb": _peak_mb()}))
    raise SystemExit(code)


def run_child(tree: Path, args: list[str], timeout: float = 7200) -> str:
    """Run this script as a child with ``tree`` first on sys.path; its standard output."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **{TREE_ENV: str(tree)})
    proc = subprocess.Popen([sys.executable, __file__, *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    if proc.returncode:
        raise RuntimeError(f"child {args[:2]} failed ({proc.returncode}): {err[-2000:]}")
    return out


def run_measured(tree: Path, args: list[str]) -> tuple[str, float, float, float]:
    """Run a child; return (stdout, CPU seconds, peak RSS MB, wall seconds) of that child."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **{TREE_ENV: str(tree)})
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.time()
        proc = subprocess.Popen([sys.executable, __file__, *args], env=env, stdout=out,
                                stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.time() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise RuntimeError(f"child {args[:2]} failed ({proc.returncode}): "
                               f"{err.read()[-2000:]}")
        # the child's own VmHWM (its last output line): ru_maxrss of a forked-then-exec'd child
        # also counts the parent's pages at the fork
        text = out.read()
        peak = json.loads(text.strip().splitlines()[-1])["peak_mb"]
        return text, usage.ru_utime + usage.ru_stime, peak, wall


def old_tree(base: str, tmp: Path) -> Path:
    """The ``errtype`` package of commit ``base`` (git archive) under ``tmp``."""
    dest = tmp / f"errtype-{base}"
    dest.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", base, "errtype"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


# --- sections ---------------------------------------------------------------------------------


def section_errant(data: Path, pairs: int) -> bool:
    try:
        from errant.alignment import Alignment
    except ImportError:
        print("errant: the peer tool is not installed (pip install errant==3.0.2); skipped")
        return True
    from bench_m2 import load_pairs
    from spacy.tokens import Doc

    from errtype.align import align
    from errtype.lang.en import English
    from errtype.parse.spacy import doc_to_sentence

    lang = English()
    nlp = lang.make_parser().nlp  # type: ignore[attr-defined]
    texts_pairs = [(o, c) for o, c in load_pairs(data, 10 ** 9) if o != c][:pairs]
    texts = sorted({t for pair in texts_pairs for t in pair})
    parsed = dict(zip(texts, nlp.pipe(Doc(nlp.vocab, words=t.split()) for t in texts),
                      strict=True))
    docs = [(parsed[o], parsed[c]) for o, c in texts_pairs]
    sents = [(doc_to_sentence(o), doc_to_sentence(c)) for o, c in docs]
    t0 = time.process_time()
    theirs = [Alignment(o, c) for o, c in docs]
    t1 = time.process_time()
    ours = [align(o, c, lang) for o, c in sents]
    t2 = time.process_time()
    differ = sum(a.cost_matrix != b.cost_matrix or a.op_matrix != b.op_matrix
                 or a.align_seq != [tuple(x) for x in b.align_seq]
                 for a, b in zip(theirs, ours, strict=True))
    n = len(docs)
    print(f"== errant: {n} real pairs (original != correction), {nlp.meta['name']} tags; CPU")
    print(f"{'aligner':<34}{'us/pair':>10}{'speed-up':>10}")
    print(f"{'ERRANT 3.0.2 Alignment':<34}{(t1 - t0) / n * 1e6:>10.0f}{1:>9.2f}x")
    print(f"{'errtype align':<34}{(t2 - t1) / n * 1e6:>10.0f}{(t1 - t0) / (t2 - t1):>9.2f}x")
    print(f"pairs whose matrices or alignment differ from ERRANT: {differ} of {n}\n")
    return differ == 0


def section_sweep(data: Path, sizes: list[int], old_max: dict[str, int], old: Path, tmp: Path
                  ) -> bool:
    import errtype

    parsers = {"en": errtype.load("en").parser, "cs": errtype.load("cs", backend="spacy").parser}
    print("== sweep: one pair per size, each aligner in a fresh subprocess; CPU seconds and "
          "peak RSS (MB, incl. ~imports) of the alignment")
    print(f"{'pair':<26}{'previous s':>11}{'MB':>7}{'current s':>11}{'MB':>7}{'blocks':>8}"
          f"{'same':>6}")
    ok = True
    for kind in ("text", "geccc", "punct", "punct-unrelated"):
        for n in sizes:
            sides = sweep_pair(kind, n, data, parsers)
            pair_file = tmp / "pair.pkl"
            pair_file.write_bytes(pickle.dumps((KIND_LANG[kind], sides)))
            res = {}
            for name, tree in (("current", ROOT), ("previous", old)):
                if name == "previous" and n > old_max[kind]:
                    continue
                out = tmp / f"{name}.seq"
                stdout = run_child(tree, ["--child-align", str(pair_file), str(out)])
                res[name] = json.loads(stdout.strip().splitlines()[-1])
                res[name]["seq"] = pickle.loads(out.read_bytes())
            cur, prev = res["current"], res.get("previous")
            same = "-" if prev is None else str(prev["seq"] == cur["seq"]
                                                and prev["cost"] == cur["cost"])
            if kind != "punct-unrelated":
                ok &= same != "False"
            label = f"{kind} {len(sides[0])}x{len(sides[1])}"
            pv = (f"{prev['seconds']:>11.2f}{prev['peak_mb']:>7.0f}" if prev else
                  f"{'(skipped)':>11}{'':>7}")
            print(f"{label:<26}{pv}{cur['seconds']:>11.2f}{cur['peak_mb']:>7.0f}"
                  f"{cur['blocks']:>8}{same:>6}", flush=True)
    print()
    return ok


def section_command(data: Path, sizes: list[int], old_max: dict[str, int], old: Path, tmp: Path
                    ) -> bool:
    print("== command: errtype-m2 on one line pair, each in a fresh process; child CPU seconds "
          "(user+sys), peak RSS MB, wall seconds")
    print(f"{'pair':<22}{'previous s':>11}{'MB':>7}{'wall':>7}{'current s':>11}{'MB':>7}"
          f"{'wall':>7}{'same M2':>9}")
    ok = True
    for kind in ("text", "geccc", "punct"):
        lang = ["--lang", "cs", "--spacy-model", "cs_core_news_sm"] if kind == "geccc" else []
        for n in sizes:
            if kind in ("text", "geccc"):
                src, hyp = text_lines(data, n, kind)
                o, c = " ".join(src), " ".join(hyp)
            else:
                sides = sweep_pair(kind, n, data)
                o, c = (" ".join(w for w, _, _ in side) for side in sides)
            (tmp / "o.txt").write_text(o + "\n", encoding="utf-8")
            (tmp / "c.txt").write_text(c + "\n", encoding="utf-8")
            res = {}
            for name, tree in (("current", ROOT), ("previous", old)):
                if name == "previous" and n > old_max[kind]:
                    continue
                out = tmp / f"{name}.m2"
                _, cpu, mb, wall = run_measured(tree, [
                    "--child-m2", *lang, "-orig", str(tmp / "o.txt"), "-cor", str(tmp / "c.txt"),
                    "-out", str(out), "-q"])
                res[name] = (cpu, mb, wall, out.read_bytes())
            cur, prev = res["current"], res.get("previous")
            same = "-" if prev is None else str(prev[3] == cur[3])
            ok &= same != "False"
            pv = (f"{prev[0]:>11.2f}{prev[1]:>7.0f}{prev[2]:>7.1f}" if prev else
                  f"{'(skipped)':>11}{'':>14}")
            label = f"{kind} {len(o.split())}x{len(c.split())}"
            print(f"{label:<22}{pv}{cur[0]:>11.2f}{cur[1]:>7.0f}{cur[2]:>7.1f}{same:>9}",
                  flush=True)
    print()
    return ok


def _print_comparison(name: str, n: int, res: dict[str, dict[str, int]], seconds: float) -> bool:
    cells = "  ".join(f"{k}: {v['split']} split, {v['differ']} differ" for k, v in res.items())
    print(f"{name:<30}{n:>7} pairs  {cells}  ({seconds:.0f} s CPU)", flush=True)
    return all(v["differ"] == 0 for k, v in res.items() if not k.startswith("stress"))


def section_corpora(data: Path) -> bool:
    print("== corpora: the long-pair path forced on every distinct differing pair vs the full "
          f"DP (default settings, and stress = {STRESS}); linguistic and lev")
    ok = True
    for name, (lang, options, load) in corpora(data).items():
        t0 = time.process_time()
        ann, sents = parsed_pairs(lang, options, load())
        res = compare(ann.language, sents, {"default": {}, "stress": STRESS})  # type: ignore
        ok &= _print_comparison(name, len(sents), res, time.process_time() - t0)
    print()
    return ok


def section_documents(data: Path) -> bool:
    print("== documents: GECCC dev documents (paragraphs joined), forced long-pair path vs full DP")
    t0 = time.process_time()
    ann, sents = parsed_pairs("cs", {"backend": "spacy"}, geccc_documents(data))
    lengths = sorted(len(o) for o, _ in sents)
    res = compare(ann.language, sents, {"default": {}, "stress": STRESS})  # type: ignore
    print(f"  {len(sents)} documents, {lengths[0]}-{lengths[-1]} tokens (median "
          f"{lengths[len(lengths) // 2]})")
    ok = _print_comparison("GECCC dev documents", len(sents), res, time.process_time() - t0)
    print()
    return ok


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child-align"]:
        child_align(*argv[1:3])
        return 0
    if argv[:1] == ["--child-m2"]:
        child_m2(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sections = ("errant", "sweep", "command", "corpora", "documents")
    ap.add_argument("sections", nargs="*", default=list(sections),
                    help=f"any of {', '.join(sections)} (default: all)")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--old-max", type=int,
                    help="largest size given to the previous aligner, every kind (default: "
                         + ", ".join(f"{k} {v}" for k, v in OLD_MAX.items()) + "; its memory "
                         "is quadratic: ~2 GB at 10,000 tokens of text, ~7 GB at 20,000)")
    ap.add_argument("--base", default=BASE, help="commit of the previous aligner")
    ap.add_argument("--pairs", type=int, default=1500, help="pairs of the errant section")
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = ap.parse_args(argv)
    if unknown := set(args.sections) - set(sections):
        ap.error(f"unknown sections: {', '.join(sorted(unknown))}")
    old_max = dict.fromkeys(OLD_MAX, args.old_max) if args.old_max else OLD_MAX
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start\n")
    ok = True
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        old = old_tree(args.base, tmp) if {"sweep", "command"} & set(args.sections) else ROOT
        steps: dict[str, Callable[[], bool]] = {
            "errant": lambda: section_errant(args.data, args.pairs),
            "sweep": lambda: section_sweep(args.data, args.sizes, old_max, old, tmp),
            "command": lambda: section_command(args.data, args.sizes, old_max, old, tmp),
            "corpora": lambda: section_corpora(args.data),
            "documents": lambda: section_documents(args.data),
        }
        for name in sections:
            if name in args.sections:
                ok &= steps[name]()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
