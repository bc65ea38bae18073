"""Agreement of errtype's Czech annotation with the GECCC gold M2 (typed by the Czech ERRANT),
sentence level and paragraph level side by side.

Typing: every block goes through ``errtype-m2 -gold``'s code path
(:func:`errtype.convert.reannotate_block`: corrected text rebuilt from each annotator's edits,
every gold edit minimised and classified) and each re-typed edit is compared with its gold type.
Extraction: parallel mode (orig -> annotator 0's correction) compared with annotator 0's gold
spans, both from raw text (``*.input`` -> ``*.gold``, tokenised by the backend) and from the
pre-tokenised M2 sources (isolating alignment + merging).

GECCC ships the same dev texts twice: ``sentence.*`` (8,478 sentences) and ``paragraph.*``
(3,592 paragraphs, up to 352 tokens; the token ``࿄`` stands for a newline inside a paragraph:
annotators could join or split paragraphs). Both levels run through the same code; paragraphs
are below the aligner's long-pair threshold, so they get the full DP as sentences do.

Both Czech backends are measured in one run: the spaCy default (cs_core_news_sm) and UDPipe with
``--udpipe-model`` (default: the stand-in ../shared/models/cs.udpipe).

    python bench/geccc_agreement.py [--backend spacy udpipe] [--level sentence paragraph]
        [--udpipe-model PATH] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a source checkout without installing
    sys.path.insert(0, str(ROOT))

import errtype  # noqa: E402
from errtype.edit import Edit, minimise  # noqa: E402

GECCC = ROOT.parent / "shared" / "data" / "geccc"
CS_UDPIPE = ROOT.parent / "shared" / "models" / "cs.udpipe"

GoldEdit = tuple[int, int, str, list[str]]  # o_start, o_end, type, correction tokens


def read_blocks(path: Path, limit: int | None) -> list[tuple[list[str], dict[str, list[GoldEdit]]]]:
    """(orig tokens, {annotator: [gold edits]}) per M2 block."""
    blocks = []
    for chunk in path.read_text(encoding="utf-8").strip().split("\n\n"):
        lines = chunk.split("\n")
        by_ann: dict[str, list[GoldEdit]] = {}
        for line in lines[1:]:
            f = line[2:].split("|||")
            s, e = map(int, f[0].split())
            by_ann.setdefault(f[-1], []).append((s, e, f[1], f[2].split()))
        blocks.append((lines[0][2:].split(" ") if len(lines[0]) > 2 else [], by_ann))
        if limit and len(blocks) >= limit:
            break
    return blocks


def apply_gold(orig: list[str], edits: list[GoldEdit]) -> tuple[list[str], list[tuple]]:
    """Corrected tokens and the gold spans (o_start, o_end, c_start, c_end, type)."""
    cor = list(orig)
    offset = 0
    spans = []
    for s, e, typ, toks in sorted(edits, key=lambda x: (x[0], x[1])):
        cor[s + offset:e + offset] = toks
        spans.append((s, e, s + offset, s + offset + len(toks), typ))
        offset += len(toks) - (e - s)
    return cor, spans


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def typing(ann: errtype.Annotator, m2_path: Path, limit: int | None = None) -> dict:
    """Re-type the gold edits as ``errtype-m2 -gold`` does; agreement and a confusion counter.

    ``-gold`` writes one edit per gold edit of an annotator, in input order, so the i-th edit of
    an annotator in its output is compared with the i-th gold edit (noop lines left out).
    """
    from threadpoolctl import threadpool_limits

    from errtype.convert import reannotate_block
    from errtype.m2 import read_m2

    confusion: Counter[tuple[str, str]] = Counter()
    with threadpool_limits(1, user_api="blas"):  # one parse at a time: BLAS threads only compete
        for block in islice(read_m2(m2_path), limit):
            out = next(read_m2(reannotate_block(ann, block, "gold").splitlines()))
            ours = out.edits_by_annotator()
            for a, edits in block.edits_by_annotator().items():
                gold = [e for e in edits if not e.is_noop]
                got = [e for e in ours.get(a, []) if not e.is_noop]
                if len(gold) != len(got):
                    raise RuntimeError(f"{m2_path}:{block.line}: annotator {a} has {len(gold)} "
                                       f"gold edits but -gold wrote {len(got)}")
                for g, o in zip(gold, got, strict=True):
                    confusion[g.type, o.type] += 1
    total = sum(confusion.values())
    agree = sum(n for (g, p), n in confusion.items() if g == p)
    return {"edits": total, "agree": agree, "agreement": agree / total, "confusion": confusion}


STRING_TYPES = ("R:PUNCT", "R:DIACR", "R:ORTH:WSPACE", "R:ORTH:CASING", "R:ORTH", "R:QUOTATION",
                "R:WO", "R:WO:SPELL")


def _nfkd_only(text: str) -> str:
    """Baseline folding: Unicode decomposition with combining marks dropped, nothing else."""
    import unicodedata
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def string_rules(blocks: list) -> dict:
    """Tagger-independent check of the string rules (PUNCT ... WO:SPELL), DIACR in particular.

    Gold spans are re-typed on bare tokens (no tags), so only the string rules can fire; a
    decision agrees when both say the same string type or both say "not a string type". The
    DIACR decision is also measured with a plain NFKD folding instead of ``ascii_fold``.
    """
    from errtype.lang.cs import classifier as clf
    from errtype.lang.cs.classifier import CzechClassifier
    from errtype.tokens import Sentence

    results = {}
    for name, fold in (("ascii_fold", clf.ascii_fold), ("nfkd_only", _nfkd_only)):
        original = clf.ascii_fold
        clf.ascii_fold = fold
        try:
            classifier = CzechClassifier(lambda w: True)
            conf: Counter[tuple[str, str]] = Counter()
            for orig, by_ann in blocks:
                o = Sentence.from_words(orig)
                for a in sorted(by_ann):
                    edits = by_ann[a]
                    if edits[0][2] == "noop":
                        continue
                    cor, spans = apply_gold(orig, edits)
                    c = Sentence.from_words(cor)
                    for s, e, cs, ce, gold in spans:
                        edit = minimise(Edit.from_spans(o, c, s, e, cs, ce), o, c)
                        ours = classifier.classify(edit, o, c)
                        g = gold if gold in STRING_TYPES else "-"
                        p = ours if ours in STRING_TYPES else "-"
                        if g != "-" or p != "-":
                            conf[g, p] += 1
        finally:
            clf.ascii_fold = original
        diacr = {k: n for k, n in conf.items() if "R:DIACR" in k}
        results[name] = {
            "decisions": sum(conf.values()),
            "agree": sum(n for (g, p), n in conf.items() if g == p),
            "diacr_gold": sum(n for (g, _), n in conf.items() if g == "R:DIACR"),
            "diacr_ours": sum(n for (_, p), n in conf.items() if p == "R:DIACR"),
            "diacr_both": conf["R:DIACR", "R:DIACR"],
            "diacr_confusions": sorted(([g, p, n] for (g, p), n in diacr.items() if g != p),
                                       key=lambda x: -x[2]),
        }
    return results


def extraction(ann: errtype.Annotator, blocks: list, raw: list[tuple[str, str]] | None) -> dict:
    """Span P/R/F1 of parallel-mode edits against annotator 0's gold spans."""
    out = {}
    golds, pairs = [], []
    for orig, by_ann in blocks:
        edits = by_ann.get("0", [])
        if edits and edits[0][2] == "noop":
            edits = []
        cor, spans = apply_gold(orig, edits)
        golds.append({(s, e, " ".join(cor[cs:ce])) for s, e, cs, ce, _ in spans})
        pairs.append((" ".join(orig), " ".join(cor)))
    modes = {"pretokenised": (pairs, False)}
    if raw is not None:
        modes["raw_tokenised"] = (raw, True)
    for mode, (items, tok) in modes.items():
        tp = fp = fn = same_tok = 0
        texts = [t for pair in items for t in pair]
        parsed = iter(ann.parser.parse_many(texts, tok))
        for gold, (orig_tokens, _) in zip(golds, blocks, strict=False):
            o, c = next(parsed), next(parsed)
            if list(o.texts) == orig_tokens:
                same_tok += 1
            hyp = set()
            if o.texts != c.texts:
                hyp = {(e.o_start, e.o_end, " ".join(c.texts[e.c_start:e.c_end]))
                       for e in ann.annotate(o, c)}
            tp += len(hyp & gold)
            fp += len(hyp - gold)
            fn += len(gold - hyp)
        p, r, f = prf(tp, fp, fn)
        out[mode] = {"tp": tp, "fp": fp, "fn": fn, "P": p, "R": r, "F1": f,
                     "same_tokenisation": same_tok / len(items)}
    return out


def report(res: dict, top: int) -> str:
    conf: Counter = res["typing"]["confusion"]
    lines = [f"backend: {res['backend']}   {res['level']}s: {res['blocks']}   "
             f"time: {res['seconds']:.0f}s",
             f"TYPING agreement: {res['typing']['agree']}/{res['typing']['edits']} = "
             f"{100 * res['typing']['agreement']:.2f} %", "",
             f"{'gold type':16s} {'n':>6s} {'agree':>6s} {'%':>7s}   most frequent other labels"]
    gold_n: Counter = Counter()
    for (g, _), n in conf.items():
        gold_n[g] += n
    for g, n in gold_n.most_common():
        ok = conf[g, g]
        others = Counter({p: k for (gg, p), k in conf.items() if gg == g and p != g})
        o = ", ".join(f"{p} {k}" for p, k in others.most_common(3))
        lines.append(f"{g:16s} {n:6d} {ok:6d} {100 * ok / n:7.2f}   {o}")
    lines += ["", f"top {top} confusions (gold -> ours):"]
    errs = Counter({k: n for k, n in conf.items() if k[0] != k[1]})
    lines += [f"  {g:14s} -> {p:14s} {n}" for (g, p), n in errs.most_common(top)]
    lines.append("")
    for name, r in res["string_rules"].items():
        lines.append(
            f"DIACR on bare tokens ({name}): gold {r['diacr_gold']}, ours {r['diacr_ours']}, "
            f"both {r['diacr_both']}; differing: "
            + (", ".join(f"{g}->{p} {n}" for g, p, n in r["diacr_confusions"]) or "none"))
    lines.append("")
    for mode, m in res["extraction"].items():
        lines.append(f"EXTRACTION ({mode}): P {100 * m['P']:.2f}  R {100 * m['R']:.2f}  "
                     f"F1 {100 * m['F1']:.2f}  (tp {m['tp']} fp {m['fp']} fn {m['fn']}; "
                     f"orig tokenisation = M2 S line in {100 * m['same_tokenisation']:.1f} %)")
    return "\n".join(lines)


def side_by_side(results: list[dict]) -> str:
    """One line per backend and level: typing agreement and extraction F1."""
    lines = [f"{'backend':<34}{'level':<11}{'blocks':>7}{'edits':>7}{'typing %':>10}"
             f"{'F1 pretok.':>11}{'F1 raw':>8}"]
    for r in results:
        ext = r["extraction"]
        raw = f"{100 * ext['raw_tokenised']['F1']:>8.2f}" if "raw_tokenised" in ext else \
            f"{'-':>8}"
        lines.append(f"{r['backend']:<34}{r['level']:<11}{r['blocks']:>7}"
                     f"{r['typing']['edits']:>7}{100 * r['typing']['agreement']:>10.2f}"
                     f"{100 * ext['pretokenised']['F1']:>11.2f}{raw}")
    return "\n".join(lines)


def run(args: argparse.Namespace, ann: errtype.Annotator, label: str, level: str) -> dict:
    """The full measurement of one level (``sentence`` or ``paragraph``) with one backend."""
    t0 = time.time()
    m2_path = args.geccc / f"{level}.m2"
    blocks = read_blocks(m2_path, args.limit)
    raw = None
    if not args.no_raw:
        inp = (args.geccc / f"{level}.input").read_text(encoding="utf-8").splitlines()
        # *.gold holds every annotator's correction, tab-separated: keep annotator 0
        gold = [line.split("\t")[0].strip() for line in
                (args.geccc / f"{level}.gold").read_text(encoding="utf-8").splitlines()]
        raw = list(zip(inp, gold, strict=True))[:len(blocks)]
    res = {"backend": label, "level": level, "blocks": len(blocks),
           "typing": typing(ann, m2_path, args.limit),
           "string_rules": string_rules(blocks),
           "extraction": extraction(ann, blocks, raw)}
    res["seconds"] = time.time() - t0
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--geccc", type=Path, default=GECCC,
                    help="folder with {sentence,paragraph}.{m2,input,gold}")
    ap.add_argument("--udpipe-model", type=Path, default=CS_UDPIPE,
                    help="UDPipe model of the udpipe backend (default: the stand-in "
                         "../shared/models/cs.udpipe)")
    ap.add_argument("--backend", nargs="+", choices=("spacy", "udpipe"),
                    default=["spacy", "udpipe"], help="backends to measure (default: both)")
    ap.add_argument("--level", nargs="+", choices=("sentence", "paragraph"),
                    default=["sentence", "paragraph"], help="GECCC levels (default: both)")
    ap.add_argument("--limit", type=int, help="only the first N sentences / paragraphs")
    ap.add_argument("--no-raw", action="store_true", help="skip the raw-text extraction run")
    ap.add_argument("--top", type=int, default=25, help="number of confusions to list")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = ap.parse_args(argv)
    for level in args.level:
        if not (args.geccc / f"{level}.m2").exists():
            print(f"GECCC data not found: {args.geccc / f'{level}.m2'}", file=sys.stderr)
            return 2
    results = []
    for backend in args.backend:
        if backend == "udpipe":
            if not args.udpipe_model.is_file():
                print(f"skipping the UDPipe backend: {args.udpipe_model} not found",
                      file=sys.stderr)
                continue
            ann = errtype.load("cs", udpipe_model=str(args.udpipe_model))
            label = f"udpipe {args.udpipe_model.name}"
        else:
            ann = errtype.load("cs", backend="spacy")
            label = "spacy cs_core_news_sm 0.2.1"
        for level in args.level:
            res = run(args, ann, label, level)
            results.append(res)
            print(report(res, args.top), flush=True)
            print()
    print(side_by_side(results))
    if args.json:
        js = [dict(r, typing=dict(r["typing"], confusion=[
            [g, p, n] for (g, p), n in r["typing"]["confusion"].most_common()]))
            for r in results]
        args.json.write_text(json.dumps(js, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
