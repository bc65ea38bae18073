"""errtype's corpus readers against the M2 the corpora ship, sentence by sentence.

``uagec``: UA-GEC's ``.ann`` documents (a clone of grammarly/ua-gec, ``--ua-gec DIR`` or
``$ERRTYPE_UAGEC``; ``git clone https://github.com/grammarly/ua-gec``) converted by
``errtype convert uagec-to-m2`` and compared with an M2 the corpus made of the same documents
(``scripts/make_m2.py``; default ``../shared/data/multilingual/uagec.dev.m2``, whose ``S # NNNN``
blocks name the documents). ``bea``: a BEA-2019 JSON file (``--json``) converted by
``errtype convert bea-json-to-m2`` and compared with the release's M2 of it (``--m2``).

On the sentences both files tokenise alike (identical ``S`` lines): how many (sentence, annotator)
corrections are identical, token for token and up to spaces; how many of the shipped M2's edits
(span and correction) errtype's has too; and how many of those have the same type.

    python bench/corpus_readers_agreement.py uagec [--ua-gec DIR] [--m2 FILE] [--layer gec-only]
    python bench/corpus_readers_agreement.py bea --json A.dev.json --m2 A.dev.gold.bea19.m2
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.m2 import M2Block, apply_edits, read_m2  # noqa: E402

Sentences = dict[str, M2Block]


def _blocks(path: Path) -> Sentences:
    out: Sentences = {}
    for b in read_m2(path):
        if b.document is None:  # not one of the corpus M2's document markers
            out.setdefault(b.source, b)
    return out


def compare(mine: Sentences, theirs: Sentences) -> dict[str, float | int]:
    """The agreement figures of the module docstring."""
    common = [s for s in theirs if s in mine]
    pairs = same = same_spaced = edits = matched = typed = 0
    for s in common:
        ours = mine[s].edits_by_annotator()
        for ann, given in theirs[s].edits_by_annotator().items():
            real = [e for e in given if not e.is_noop]
            mine_real = [e for e in ours.get(ann, []) if not e.is_noop]
            a = apply_edits(theirs[s].tokens, real).text
            b = apply_edits(mine[s].tokens, mine_real).text
            pairs += 1
            same += a == b
            same_spaced += a.replace(" ", "") == b.replace(" ", "")
            key = lambda e, ann=ann: (ann, e.start, e.end, " ".join(e.cor.split()))  # noqa: E731
            g, f = Counter(map(key, real)), Counter(map(key, mine_real))
            edits += len(real)
            matched += sum((g & f).values())
            types = {key(e): e.type for e in mine_real}
            typed += sum(types.get(key(e)) == e.type for e in real if key(e) in f)
    return {"sentences": len(theirs), "alike": len(common), "corrections": pairs,
            "identical": same / max(pairs, 1),
            "identical_up_to_spaces": same_spaced / max(pairs, 1),
            "edits": edits, "edits_found": matched / max(edits, 1),
            "same_type": typed / max(matched, 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="corpus", required=True)
    u = sub.add_parser("uagec")
    u.add_argument("--ua-gec", default=os.environ.get("ERRTYPE_UAGEC"))
    u.add_argument("--m2", default=str(ROOT.parent / "shared/data/multilingual/uagec.dev.m2"))
    u.add_argument("--layer", default="gec-only")
    b = sub.add_parser("bea")
    b.add_argument("--json", required=True)
    b.add_argument("--m2", required=True)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.m2"
        if args.corpus == "uagec":
            from errtype.corpora.uagec import uagec_to_m2

            if not args.ua_gec:
                p.error("name a clone of grammarly/ua-gec: --ua-gec DIR or $ERRTYPE_UAGEC")
            docs = [b.document for b in read_m2(args.m2) if b.document is not None]
            folder = Path(args.ua_gec) / "data" / args.layer / "test" / "annotated"
            paths = [f for d in docs for f in sorted(folder.glob(f"{d}.a*.ann"))]
            print(f"{len(docs)} documents, {len(paths)} files")
            uagec_to_m2(paths, out)
        else:
            import errtype
            from errtype.corpora.bea_json import bea_json_to_m2

            bea_json_to_m2(errtype.load("en"), args.json, out)
        for k, v in compare(_blocks(out), _blocks(Path(args.m2))).items():
            print(f"{k:24} {v:.4f}" if isinstance(v, float) else f"{k:24} {v}")


if __name__ == "__main__":
    main()
