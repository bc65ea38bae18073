"""Build resources/verb-form-vocab.txt, errtype's default verb-form vocabulary for GECToR tags.

GECToR's ``$TRANSFORM_VERB_<T1>_<T2>`` tags read a file of lines ``word1_word2:T1_T2`` (``word2``
is the ``T2`` form of the verb whose ``T1`` form is ``word1``; tags VB, VBZ, VBG, VBD, VBN, the
twenty ordered pairs of GECToR's label vocabulary). GECToR's own ``data/verb-form-vocab.txt`` is
not in its public repository snapshot, so errtype ships one generated from LemmInflect's
dictionary (MIT; derived from the NLM SPECIALIST Lexicon): every lower-case verb and auxiliary
lemma of LemmInflect's lemma table, its inflections from ``getAllInflections`` (a missing VBN is
the VBD form, as for regular verbs), every spelling variant.

Order matters, because GECToR's reader keeps the first line of each ``word1_T1_T2`` (decoding)
and the last line of each ``word1_word2`` among those (encoding): lemmas sorted, and within a
lemma the source tag, then the target tag, in the order VB VBZ VBG VBD VBN, each tag's
preferred spelling first. So ``dream_dreamed`` decodes ``dream`` + VB_VBD (the preferred
spelling) and a form that two tags share encodes with the later tag (``used`` is VBN, as in the
frequency order of GECToR's label vocabulary). Pairs of equal words are left out (GECToR tags
them ``$KEEP``), and so are words containing ``:``, ``_`` or whitespace, which the format cannot
hold.

    pip install lemminflect==0.2.3
    python bench/verb_form_vocab.py [-o resources/verb-form-vocab.txt]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.resources
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TAGS = ("VB", "VBZ", "VBG", "VBD", "VBN")
POS = {"verb": "VERB", "aux": "AUX"}


def lemmas() -> dict[str, str]:
    """Lower-case verb and auxiliary lemmas of LemmInflect's lemma table -> their UPOS."""
    table = importlib.resources.files("lemminflect") / "resources" / "lemma_lu.csv.gz"
    found: dict[str, str] = {}
    with gzip.open(str(table), "rt", encoding="utf-8") as fh:
        for line in fh:
            _, upos, names = line.rstrip("\n").split(",")
            if upos in POS:
                for lemma in names.split("/"):
                    if lemma == lemma.lower():
                        found.setdefault(lemma, POS[upos])
    return found


def writable(word: str) -> bool:
    return bool(word) and not any(c in word for c in ":_") and len(word.split()) == 1


def lines() -> Iterator[str]:
    from lemminflect import getAllInflections

    for lemma, upos in sorted(lemmas().items()):
        forms = getAllInflections(lemma, upos=upos) or getAllInflections(lemma, upos="VERB")
        if "VBN" not in forms and "VBD" in forms:
            forms["VBN"] = forms["VBD"]
        for t1 in TAGS:
            for w1 in forms.get(t1, ()):
                for t2 in TAGS:
                    if t2 == t1:
                        continue
                    for w2 in forms.get(t2, ()):
                        if w1 != w2 and writable(w1) and writable(w2):
                            yield f"{w1}_{w2}:{t1}_{t2}\n"


def main() -> int:
    import lemminflect

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-o", "--out", type=Path, default=ROOT / "resources" / "verb-form-vocab.txt")
    args = p.parse_args()
    text = "".join(lines())
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {text.count(chr(10))} lines from lemminflect "
          f"{getattr(lemminflect, '__version__', '?')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
