"""Agreement of errtype's types with the human categories of gold-typed learner corpora.

For each language (default: uk on UA-GEC, et on EstGEC-L2, from ../shared/data/multilingual with
the stand-in UDPipe models of ../shared/models), every gold edit span is re-typed as
``errtype-m2 -gold -no_min`` does (the annotator's correction is rebuilt from the edits, each span
typed unminimised) by: the English rules (ERRANT 3.0.2's classifier on the same parse: the
MultiGEC-2025 baseline), the generic UD classifier of the previous release (``--baseline-rev``,
run from a ``git archive`` of that revision in a subprocess: one run, same data, same parse
model), the generic UD classifier, and the generic classifier with ``feats``. The retyped files
are scored by ``../shared/tools/type_agreement.py`` (run as a subprocess), plain and with
``--fine`` (the category's UD feature must be named). Parsing and classification are timed
separately (CPU seconds of this process, and wall seconds).

Gold-file handling done here (the M2 reader's ``-gold`` path is not used): an m2scorer ``-NONE-``
correction is a deletion, ``a||b`` alternatives keep the first, and edits of one annotator that
overlap are placed in separate corrections ("layers"), each edit typed in its own layer.

    python bench/multilingual_agreement.py [--lang uk et] [--baseline-rev REV|none]
                                           [--json OUT] [--keep DIR]
    python bench/multilingual_agreement.py --checked tests/data/*_checked_edits.tsv
    python bench/multilingual_agreement.py --checked tests/data/de_checked_edits.tsv \
        --udpipe-model de=de.udpipe [--write-parses]

``--checked`` scores hand-checked edit files instead (docs/checked_edits.md): the UD classifier,
the same classifier without the language's pack, and the English rules against the annotator
column; micro (rows) and macro (mean over the annotator's types), on errtype's extraction and on
the annotator's spans, and a table per mechanism class (column ``class``) over all files. Parses
come from the committed ``LANG_checked.{orig,cor}.conllu``; ``--udpipe-model`` parses with a
model instead, ``--write-parses`` writes those files.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the errtype source tree this process imports (the baseline subprocess points it elsewhere)
SOURCE = Path(os.environ.get("ERRTYPE_BENCH_SOURCE", ROOT))
if str(SOURCE) not in sys.path:  # run from a source checkout without installing
    sys.path.insert(0, str(SOURCE))
elif SOURCE != ROOT:
    sys.path.remove(str(SOURCE))
    sys.path.insert(0, str(SOURCE))

from errtype.edit import Edit  # noqa: E402
from errtype.lang import get_language  # noqa: E402
from errtype.lang.en import English  # noqa: E402
from errtype.parse.udpipe import UDPipeParser  # noqa: E402

SHARED = Path(os.environ.get("ERRTYPE_SHARED", ROOT.parent / "shared"))
TOOL = SHARED / "tools" / "type_agreement.py"
#: the release before issue 17 (the generic classifier of issue 9): the default baseline
PREVIOUS_RELEASE = "51fe7d49935f2c80ecf92f3fe9de5c23e18257f4"
CORPORA = {  # language -> (gold M2, scheme of type_agreement.py)
    "uk": ("uagec.dev.m2", "uagec"),
    "et": ("estgec.dev.m2", "estgec"),
    "ru": ("rulec.dev.m2", "gera"),
    "de": ("gera.dev.m2", "gera"),
}
GoldEdit = tuple[int, int, str, str, str]  # start, end, type, correction, annotator


def read_gold(path: Path) -> list[tuple[str, list[GoldEdit]]]:
    """(source line, edits) per block, in file order. A block starts at each ``S`` line (the
    EstGEC file omits the blank line between some blocks)."""
    blocks: list[tuple[str, list[GoldEdit]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("S "):
            blocks.append((line[2:], []))
        elif line.startswith("A ") and blocks:
            span, typ, cor, _, _, ann = line[2:].split("|||")
            s, e = map(int, span.split())
            blocks[-1][1].append((s, e, typ, cor, ann))
    return blocks


def _correction(cor: str) -> list[str]:
    cor = cor.split("||")[0].strip()
    return [] if cor in ("-NONE-", "") else cor.split()


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    (s1, e1), (s2, e2) = a, b
    if s1 < e2 and s2 < e1:
        return True
    return (s1 == e1 and s2 < s1 < e2) or (s2 == e2 and s1 < s2 < e1)


def layers(edits: list[GoldEdit]) -> list[list[int]]:
    """Indices of ``edits`` split greedily into groups of mutually non-overlapping edits."""
    out: list[list[int]] = []
    for i in sorted(range(len(edits)), key=lambda k: (edits[k][0], edits[k][1])):
        span = edits[i][:2]
        for layer in out:
            if not any(_overlap(span, edits[j][:2]) for j in layer):
                layer.append(i)
                break
        else:
            out.append([i])
    return out


def jobs_of(blocks: list[tuple[str, list[GoldEdit]]]) -> list[tuple[int, list[str], list]]:
    """(block index, corrected tokens, [(edit index, span)]) per correction to parse."""
    jobs = []
    for bi, (source, edits) in enumerate(blocks):
        toks = source.split(" ") if source else []
        by_ann: dict[str, list[int]] = {}
        for k, e in enumerate(edits):
            if e[2] != "noop" and e[0] >= 0:
                by_ann.setdefault(e[4], []).append(k)
        for ks in by_ann.values():
            sub = [edits[k] for k in ks]
            for layer in layers(sub):
                cor, offset, placed = list(toks), 0, []
                for li in sorted(layer, key=lambda j: (sub[j][0], sub[j][1])):
                    s, e, _, c, _ = sub[li]
                    new = _correction(c)
                    cor[s + offset:e + offset] = new
                    placed.append((ks[li], (s, e, s + offset, s + offset + len(new))))
                    offset += len(new) - (e - s)
                jobs.append((bi, cor, placed))
    return jobs


def retype(blocks, origs, cors, jobs, classify) -> tuple[list[list[str]], float]:
    """New types per block and edit (None where the gold has none) and the CPU seconds spent."""
    types: list[list[str | None]] = [[None] * len(edits) for _, edits in blocks]
    t0 = time.process_time()
    for (bi, _, placed), c in zip(jobs, cors, strict=True):
        o = origs[bi]
        for k, (s, e, cs, ce) in placed:
            edit = Edit.from_spans(o, c, s, e, cs, ce)
            types[bi][k] = classify(edit, o, c)
    return types, time.process_time() - t0


def parse_all(model: Path, blocks, jobs) -> tuple[list, list, float, float]:
    """(original parses, correction parses, CPU seconds, wall seconds)."""
    parser = UDPipeParser(model)
    t0, w0 = time.process_time(), time.perf_counter()
    origs = list(parser.parse_many(source for source, _ in blocks))
    cors = list(parser.parse_many(" ".join(cor) for _, cor, _ in jobs))
    return origs, cors, time.process_time() - t0, time.perf_counter() - w0


def write_m2(path: Path, blocks, types=None) -> None:
    """Blocks as M2 (LF, one blank line between blocks), types replaced where given."""
    out = []
    if types is None:
        types = [[None] * len(edits) for _, edits in blocks]
    for (source, edits), tt in zip(blocks, types, strict=True):
        lines = ["S " + source]
        for (s, e, typ, cor, ann), t in zip(edits, tt, strict=True):
            lines.append(f"A {s} {e}|||{t if t else typ}|||{cor}|||REQUIRED|||-NONE-|||{ann}")
        out.append("\n".join(lines))
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")


def agreement(scheme: str, gold: Path, ours: Path, fine: bool) -> dict:
    """Run type_agreement.py; per-category (agree, n) and macro/micro percentages."""
    cmd = [sys.executable, str(TOOL), scheme, str(gold), str(ours)] + (["--fine"] if fine else [])
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    per = {}
    for line in text.splitlines():
        m = re.match(r"(\S+)\s+(\d+)/(\d+)\s+", line)
        if m:
            per[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    m = re.search(r"micro ([\d.]+)% macro ([\d.]+)%", text)
    if not m:
        raise RuntimeError(f"unexpected output of {TOOL}:\n{text}")
    return {"per": per, "micro": float(m.group(1)), "macro": float(m.group(2))}


def retype_files(lang: str, source: Path, model: Path, out: Path) -> dict:
    """Parse and re-type ``source`` with the errtype this process imports (UD classifier, plain
    and with feats), writing ``out/LANG.ud.m2`` and ``out/LANG.ud+feats.m2``; the timings. Run
    in a subprocess on an older source tree for the baseline."""
    blocks = read_gold(source)
    jobs = jobs_of(blocks)
    origs, cors, parse_cpu, parse_wall = parse_all(model, blocks, jobs)
    times = {"parse_seconds": parse_cpu, "parse_wall_seconds": parse_wall}
    for name, lang_obj in (("ud", get_language(lang)),
                           ("ud+feats", get_language(lang, feats=True))):
        lang_obj.classify(Edit(0, 0, 0, 0), origs[0], origs[0])  # load resources untimed
        types, secs = retype(blocks, origs, cors, jobs, lang_obj.classify)
        write_m2(out / f"{lang}.{name}.m2", blocks, types)
        times[name] = secs
    return times


def baseline(rev: str, lang: str, source: Path, model: Path, out: Path) -> dict:
    """Re-type with the UD classifier of git revision ``rev`` of this repository: its
    ``errtype`` and ``resources`` trees are extracted with ``git archive`` into a temporary
    folder and this script runs there in a subprocess (``--retype-only``)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "errtype", "resources"],
                             capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="errtype-baseline-") as tree:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree, filter="data")
        env = dict(os.environ, ERRTYPE_BENCH_SOURCE=tree)
        cmd = [sys.executable, str(Path(__file__).resolve()), "--retype-only", lang, str(source),
               str(model), str(out)]
        text = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    return json.loads(text.strip().splitlines()[-1])


def measure(lang: str, source: Path, model: Path, scheme: str, keep: Path | None,
            with_extraction: bool = False, baseline_rev: str | None = None) -> dict:
    blocks = read_gold(source)
    jobs = jobs_of(blocks)
    origs, cors, parse_cpu, parse_wall = parse_all(model, blocks, jobs)
    ud, ud_feats, english = (get_language(lang), get_language(lang, feats=True), English())
    ud.classify(Edit(0, 0, 0, 0), origs[0], origs[0])  # load resources outside the timing
    ud_feats.classify(Edit(0, 0, 0, 0), origs[0], origs[0])
    systems = {"english": english.classify, "ud": ud.classify, "ud+feats": ud_feats.classify}
    tmp = Path(tempfile.mkdtemp(prefix=f"errtype-{lang}-")) if keep is None else keep
    tmp.mkdir(parents=True, exist_ok=True)
    # the agreement tool splits blocks on blank lines: give it the gold with one per block
    gold = tmp / f"{lang}.gold.m2"
    write_m2(gold, blocks)
    res: dict = {"lang": lang, "gold": str(source), "model": str(model), "blocks": len(blocks),
                 "corrections": len(jobs), "parse_seconds": parse_cpu,
                 "parse_wall_seconds": parse_wall,
                 "resources_missing": ud.classifier.resources_missing, "systems": {}}
    if with_extraction:
        res["extraction"] = extraction(lang, blocks, origs, cors, jobs)
    for name, classify in systems.items():
        types, secs = retype(blocks, origs, cors, jobs, classify)
        path = tmp / f"{lang}.{name}.m2"
        write_m2(path, blocks, types)
        res["systems"][name] = {"classify_seconds": secs,
                                "plain": agreement(scheme, gold, path, False),
                                "fine": agreement(scheme, gold, path, True)}
    if baseline_rev:
        old = tmp / "baseline"
        old.mkdir(exist_ok=True)
        times = baseline(baseline_rev, lang, source, model, old)
        res["baseline"] = {"rev": baseline_rev, "classify_seconds": times["ud"],
                           "plain": agreement(scheme, gold, old / f"{lang}.ud.m2", False),
                           "fine": agreement(scheme, gold, old / f"{lang}.ud+feats.m2", True)}
    return res


def below_baseline(res: dict, least: int = 10) -> list[str]:
    """Categories with at least ``least`` gold edits where the UD classifier agrees less often
    than the previous release (empty without a baseline)."""
    if "baseline" not in res:
        return []
    old, new = res["baseline"]["plain"]["per"], res["systems"]["ud"]["plain"]["per"]
    return [cat for cat, (agree, n) in new.items()
            if n >= least and agree < old.get(cat, (0, n))[0]]


def extraction(lang: str, blocks, origs, cors, jobs) -> dict:
    """Span F1 of parallel-mode extraction against annotator 0's gold spans (single-layer
    corrections only), with the two merge-rule configurations of errtype.merge."""
    from errtype.align import align
    from errtype.merge import errant2_rules, errant3_rules

    lang_obj = get_language(lang)
    out = {}
    for name, rules in (("errant2", errant2_rules()), ("errant3", errant3_rules())):
        tp = fp = fn = 0
        seen: set[int] = set()
        for (bi, cor_toks, placed), c in zip(jobs, cors, strict=True):
            edits = blocks[bi][1]
            if bi in seen or not placed or edits[placed[0][0]][4] != "0":
                continue
            if len(placed) != sum(1 for e in edits if e[4] == "0" and e[2] != "noop"):
                continue  # annotator 0 needed several layers: no single gold correction
            seen.add(bi)
            o = origs[bi]
            gold = {(s, e, " ".join(cor_toks[cs:ce])) for _, (s, e, cs, ce) in placed}
            seq = align(o, c, lang_obj).align_seq
            hyp = {(a, b, " ".join(c.texts[x:y])) for a, b, x, y in rules(seq, o, c)}
            tp += len(gold & hyp)
            fp += len(hyp - gold)
            fn += len(gold - hyp)
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        out[name] = {"P": p, "R": r, "F1": 2 * p * r / (p + r) if p + r else 0.0,
                     "sentences": len(seen)}
    return out


def table(res: dict) -> str:
    sys_ = res["systems"]
    base = res.get("baseline")
    cats = sorted(sys_["ud"]["plain"]["per"], key=lambda c: -sys_["ud"]["plain"]["per"][c][1])
    head = (f"{'category':22s} {'n':>5s} {'English':>8s} {'previous':>9s} {'UD':>7s} "
            f"{'UD+feats':>9s} {'fine:UD+feats':>14s}")
    lines = [f"== {res['lang']}: {res['gold']} ({res['blocks']} blocks, {res['corrections']} "
             f"corrections) with {Path(res['model']).name}"
             + (f"; previous release = {base['rev'][:12]}" if base else ""), head]

    def pct(system: dict | None, kind: str, cat: str) -> str:
        if system is None:
            return "-"
        a, n = system[kind]["per"].get(cat, (0, 0))
        return f"{100 * a / n:.1f}" if n else "-"

    for cat in cats:
        n = sys_["ud"]["plain"]["per"][cat][1]
        lines.append(f"{cat:22s} {n:5d} {pct(sys_['english'], 'plain', cat):>8s} "
                     f"{pct(base, 'plain', cat):>9s} {pct(sys_['ud'], 'plain', cat):>7s} "
                     f"{pct(sys_['ud+feats'], 'plain', cat):>9s} "
                     f"{pct(sys_['ud+feats'], 'fine', cat):>14s}")
    for kind in ("macro", "micro"):
        prev = f"{base['plain'][kind]:9.1f}" if base else f"{'-':>9s}"
        lines.append(f"{kind:22s} {'':5s} {sys_['english']['plain'][kind]:8.1f} {prev} "
                     f"{sys_['ud']['plain'][kind]:7.1f} {sys_['ud+feats']['plain'][kind]:9.1f} "
                     f"{sys_['ud+feats']['fine'][kind]:14.1f}")
    fine = {name: sys_[name]["fine"]["macro"] for name in sys_}
    lines.append(f"fine (--fine) macro: English {fine['english']:.1f}, "
                 + (f"previous UD+feats {base['fine']['macro']:.1f}, " if base else "")
                 + f"UD {fine['ud']:.1f}, UD+feats {fine['ud+feats']:.1f}")
    if base:
        below = below_baseline(res)
        lines.append("categories (n >= 10) below the previous release: "
                     + (", ".join(below) if below else "none"))
    parse, cls = res["parse_seconds"], sys_["ud"]["classify_seconds"]
    lines.append(f"time (CPU s): parsing {parse:.2f} (wall {res['parse_wall_seconds']:.2f}), "
                 f"generic classifier {cls:.3f} (+{100 * cls / parse:.1f}% over parsing), "
                 f"with feats {sys_['ud+feats']['classify_seconds']:.3f}, English rules "
                 f"{sys_['english']['classify_seconds']:.3f}"
                 + (f", previous release {base['classify_seconds']:.3f}" if base else ""))
    if "extraction" in res:
        lines.append("extraction vs annotator 0's spans (span F1): " + ", ".join(
            f"{k} rules {100 * v['F1']:.1f} (P {100 * v['P']:.1f} R {100 * v['R']:.1f})"
            for k, v in res["extraction"].items()))
    if res["resources_missing"]:
        lines.append("resources missing: " + "; ".join(res["resources_missing"]))
    return "\n".join(lines)


_EN_NAMES = [(r"^PREP", "ADP"), (r"^CONJ", "CCONJ"), (r"^VERB:(FORM|TENSE|SVA)", "VERB:INFL"),
              (r"^NOUN:(NUM|POSS)", "NOUN:INFL"), (r"^CONTR", "AUX")]


def _en_name(typ: str) -> str:
    """An ERRANT English type in UD names (PREP -> ADP ...), as type_agreement.py reads them."""
    prefix, _, bare = typ.partition(":")
    for a, b in _EN_NAMES:
        bare = re.sub(a, b, bare)
    return f"{prefix}:{bare}" if bare else typ


#: the mechanism classes of issue 26 and the last-mile classes of issue 35 (column ``class`` of
#: the hand-checked files)
CLASSES = ("numbers", "punct-conj", "compound", "nonword", "move", "contraction", "lexeme",
           "pos-agree", "participle", "copula", "pron-form", "other")
CHECKED_SYSTEMS = ("ud", "ud without pack", "english")


def read_checked(path: Path) -> list[dict[str, str]]:
    """The rows of a hand-checked edit file as dicts keyed by column name. The columns are named
    by the last ``# orig ...`` comment line (the French and Turkish files: the 8 columns
    ``orig cor o_str c_str errtype annotator verdict note``, no ``class``)."""
    columns = ["orig", "cor", "o_str", "c_str", "errtype", "annotator", "verdict", "note"]
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("# orig\t"):
            columns = line[2:].split("\t")
        elif line and not line.startswith("#"):
            cells = line.split("\t")
            if len(cells) != len(columns):
                raise ValueError(f"{path}:{number}: {len(cells)} columns, the header names "
                                 f"{len(columns)}")
            rows.append(dict(zip(columns, cells, strict=True)))
    return rows


def locate(orig: list[str], cor: list[str], o_str: str, c_str: str
           ) -> tuple[int, int, int, int] | None:
    """Token span (o_start, o_end, c_start, c_end) of the edit ``o_str -> c_str``: among the
    places both strings occur, the one whose context before and after is unchanged (then the
    one with the nearest offsets); None where either string does not occur."""
    o_toks, c_toks = o_str.split(), c_str.split()

    def starts(toks: list[str], sub: list[str]) -> list[int]:
        return [i for i in range(len(toks) - len(sub) + 1) if toks[i:i + len(sub)] == sub]

    best, best_key = None, None
    for i in starts(orig, o_toks):
        for j in starts(cor, c_toks):
            same = (orig[:i] == cor[:j]) + (orig[i + len(o_toks):] == cor[j + len(c_toks):])
            key = (-same, abs(i - j))
            if best_key is None or key < best_key:
                best, best_key = (i, i + len(o_toks), j, j + len(c_toks)), key
    return best


def _rate(agree: int, n: int) -> float:
    return 100 * agree / n if n else 0.0


def checked(path: Path, udpipe_model: Path | None = None) -> dict:
    """Agreement with a hand-checked edit file (``tests/data/LANG_checked_edits.tsv``) of the UD
    classifier, the same classifier without the language's pack, and the English rules. A row
    agrees when errtype extracts the row's span and the system types it as the annotator column
    says; ``spans`` types each row's span directly (as ``errtype-m2 -gold`` does), so that a
    span errtype extracts differently still counts by its type. Micro = share of rows, macro =
    mean over the annotator's types of each type's share; per ``class`` where the file has that
    column. The language is the file name's prefix; parses come from
    ``LANG_checked.{orig,cor}.conllu`` beside it, else from ``udpipe_model``, else from the
    language's default parser."""
    from errtype.annotator import Annotator
    from errtype.lang.ud import make_classifier
    from errtype.parse.conllu import PreParsed, read_conllu

    lang = path.name.split("_")[0]
    rows = read_checked(path)
    orig_conllu = path.with_name(f"{lang}_checked.orig.conllu")
    if orig_conllu.is_file() and udpipe_model is None:
        origs = [s for _, s in read_conllu(orig_conllu)]
        cors = [s for _, s in read_conllu(path.with_name(f"{lang}_checked.cor.conllu"))]
        parses = {(" ".join(o.texts), " ".join(c.texts)): (o, c)
                  for o, c in zip(origs, cors, strict=True)}
        ann = Annotator(lang, parser=PreParsed())
    else:
        ann = Annotator(lang) if udpipe_model is None else Annotator(
            lang, parser=UDPipeParser(udpipe_model))
        parses = {(r["orig"], r["cor"]): (ann.parse(r["orig"]), ann.parse(r["cor"]))
                  for r in rows}
    bare = make_classifier("")     # no pack: what a language errtype knows nothing about gets
    english = English()
    systems = {"ud": ann.language.classify, "ud without pack": bare.classify,
               "english": lambda e, o, c: _en_name(english.classify(e, o, c))}
    extracted: dict[tuple[str, str], list[Edit]] = {}
    found = 0
    per_row: list[dict] = []
    for r in rows:
        o, c = parses[(r["orig"], r["cor"])]
        if (r["orig"], r["cor"]) not in extracted:
            extracted[(r["orig"], r["cor"])] = ann.annotate(o, c)
        span = locate(list(o.texts), list(c.texts), r["o_str"], r["c_str"])
        if span is None:
            raise ValueError(f"{path}: [{r['o_str']}] -> [{r['c_str']}] not in {r['orig']!r} "
                             f"-> {r['cor']!r}")
        edit = next((e for e in extracted[(r["orig"], r["cor"])] if e.span == span), None)
        found += edit is not None
        gold_edit = Edit.from_spans(o, c, *span)
        row = {"annotator": r["annotator"], "class": r.get("class", ""), "extracted": edit
               is not None, "types": {}, "span_types": {}}
        for name, classify in systems.items():
            row["span_types"][name] = classify(gold_edit, o, c)
            row["types"][name] = classify(edit.with_type("NA"), o, c) if edit else "-"
        per_row.append(row)
    res: dict = {"file": str(path), "lang": lang, "edits": len(rows), "extracted": found,
                 "rows": per_row, "systems": {}}
    for name in systems:
        res["systems"][name] = {"agree": 0, "spans": 0, "per_type": {}, "per_class": {},
                                "span_per_type": {}}
        out = res["systems"][name]
        for row in per_row:
            ok = row["types"][name] == row["annotator"]
            span_ok = row["span_types"][name] == row["annotator"]
            out["agree"] += ok
            out["spans"] += span_ok
            for key, value, hit in (("per_type", row["annotator"], ok),
                                    ("span_per_type", row["annotator"], span_ok),
                                    ("per_class", row["class"], ok)):
                a, n = out[key].get(value, (0, 0))
                out[key][value] = (a + hit, n + 1)
        out["micro"] = _rate(out["agree"], len(rows))
        out["macro"] = sum(_rate(a, n) for a, n in out["per_type"].values()) / len(out["per_type"])
        out["spans_micro"] = _rate(out["spans"], len(rows))
        out["spans_macro"] = (sum(_rate(a, n) for a, n in out["span_per_type"].values())
                              / len(out["span_per_type"]))
    return res


def checked_summary(res: dict) -> str:
    """One file's agreement, one line per system."""
    lines = [f"{res['lang']}: {res['edits']} hand-checked edits ({res['file']}); errtype extracts "
             f"{res['extracted']} of the annotator's spans"]
    for name, out in res["systems"].items():
        lines.append(f"  {name:16s} micro {out['micro']:5.1f} % ({out['agree']}/{res['edits']}) "
                     f"macro {out['macro']:5.1f} % | on the annotator's spans: micro "
                     f"{out['spans_micro']:5.1f} % macro {out['spans_macro']:5.1f} %")
    return "\n".join(lines)


def class_table(results: list[dict]) -> str:
    """Agreement per mechanism class (the ``class`` column) over every file that has it: the UD
    classifier per file, then all files for each system."""
    tagged = [r for r in results if any(row["class"] for row in r["rows"])]
    if not tagged:
        return ""
    head = f"{'class':12s}" + "".join(f"{r['lang']:>9s}" for r in tagged) + "".join(
        f"{name:>17s}" for name in CHECKED_SYSTEMS)
    lines = ["agreement per mechanism class (UD classifier per file: agreed/n; all files: %)",
             head]
    for cls in CLASSES:
        cells, totals = [], dict.fromkeys(CHECKED_SYSTEMS, (0, 0))
        for r in tagged:
            a, n = r["systems"]["ud"]["per_class"].get(cls, (0, 0))
            cells.append(f"{a}/{n}" if n else "-")
            for name in CHECKED_SYSTEMS:
                ta, tn = totals[name]
                sa, sn = r["systems"][name]["per_class"].get(cls, (0, 0))
                totals[name] = (ta + sa, tn + sn)
        lines.append(f"{cls:12s}" + "".join(f"{c:>9s}" for c in cells) + "".join(
            f"{_rate(*totals[name]):11.1f} ({totals[name][1]:3d})" if totals[name][1]
            else f"{'-':>17s}" for name in CHECKED_SYSTEMS))
    return "\n".join(lines)


def write_parses(path: Path, model: Path) -> None:
    """Parse both sides of every pair of a hand-checked file with a UDPipe 1 model (whitespace
    tokens, the model's tagger) into ``LANG_checked.{orig,cor}.conllu`` beside it."""
    from ufal import udpipe

    lang = path.name.split("_")[0]
    pairs = list(dict.fromkeys((r["orig"], r["cor"]) for r in read_checked(path)))
    loaded = udpipe.Model.load(str(model))
    if loaded is None:
        raise ValueError(f"cannot load the UDPipe model {model}")
    pipeline = udpipe.Pipeline(loaded, "horizontal", udpipe.Pipeline.DEFAULT,
                               udpipe.Pipeline.NONE, "conllu")
    error = udpipe.ProcessingError()
    for side, k in (("orig", 0), ("cor", 1)):
        text = pipeline.process("\n".join(p[k] for p in pairs) + "\n", error)
        if error.occurred():
            raise ValueError(error.message)
        path.with_name(f"{lang}_checked.{side}.conllu").write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", nargs="+", default=["uk", "et"], help="languages (default: uk et)")
    ap.add_argument("--data", type=Path, default=SHARED / "data" / "multilingual")
    ap.add_argument("--models", type=Path, default=SHARED / "models")
    ap.add_argument("--gold", help="LANG=PATH[:SCHEME] gold file for another language")
    ap.add_argument("--keep", type=Path, help="write the retyped M2 files here")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    ap.add_argument("--extraction", action="store_true",
                    help="also compare the merge-rule configurations on annotator 0's spans")
    ap.add_argument("--baseline-rev", default=PREVIOUS_RELEASE,
                    help="git revision whose UD classifier is the 'previous' column (default: "
                         "the release before issue 17); 'none' to skip")
    ap.add_argument("--retype-only", nargs=4, metavar=("LANG", "GOLD", "MODEL", "OUT"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--checked", type=Path, nargs="+",
                    help="score hand-checked edit files (tests/data/LANG_checked_edits.tsv) "
                         "instead of the gold corpora")
    ap.add_argument("--udpipe-model", nargs="+", metavar="LANG=MODEL",
                    help="with --checked: parse LANG's pairs with this UDPipe 1 model instead "
                         "of the committed CoNLL-U parses")
    ap.add_argument("--write-parses", action="store_true",
                    help="with --checked and --udpipe-model: write LANG_checked.{orig,cor}.conllu "
                         "beside each file instead of scoring")
    args = ap.parse_args(argv)
    if args.checked:
        models = dict(item.split("=", 1) for item in args.udpipe_model or ())
        if args.write_parses:
            for path in args.checked:
                write_parses(path, Path(models[path.name.split("_")[0]]))
            return 0
        results = []
        for path in args.checked:
            model = models.get(path.name.split("_")[0])
            results.append(checked(path, Path(model) if model else None))
            print(checked_summary(results[-1]), flush=True)
        print()
        print(class_table(results))
        if args.json:
            for r in results:
                r.pop("rows")
            args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False),
                                 encoding="utf-8")
        return 0
    if args.retype_only:   # the baseline subprocess
        lang, gold, model, out = args.retype_only
        print(json.dumps(retype_files(lang, Path(gold), Path(model), Path(out))))
        return 0
    rev = None if args.baseline_rev in ("", "none") else args.baseline_rev
    if not TOOL.is_file():
        print(f"agreement tool not found: {TOOL}", file=sys.stderr)
        return 2
    extra = {}
    if args.gold:
        lang, _, rest = args.gold.partition("=")
        path, _, scheme = rest.partition(":")
        extra[lang] = (Path(path), scheme or "gera")
    results = []
    for lang in args.lang:
        gold, scheme = extra.get(lang) or (args.data / CORPORA[lang][0], CORPORA[lang][1])
        model = args.models / f"{lang}.udpipe"
        if not gold.is_file() or not model.is_file():
            print(f"skipping {lang}: {gold} or {model} not found", file=sys.stderr)
            continue
        res = measure(lang, gold, model, scheme, args.keep, args.extraction, rev)
        results.append(res)
        print(table(res), flush=True)
        print()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0 if results else 2


if __name__ == "__main__":
    sys.exit(main())
