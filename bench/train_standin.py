"""Train a stand-in UDPipe 1 tagger + lemmatiser for a language without an installable model.

The hand-checked sets (``tests/data/LANG_checked_edits.tsv``, docs/checked_edits.md) are
pre-tokenised and the generic classifier reads no dependency tree, so the model has neither a
tokenizer nor a parser: only UDPipe's MorphoDiTa tagger (UPOS, features, lemma). Training data
are UD treebank files (CoNLL-U); multi-word tokens are kept as UDPipe reads them.

Two safeguards make the stand-in honest:

* every training sentence whose words equal one side of a pair of a hand-checked set is dropped
  (none should be there: the sets were written for errtype; the count is printed);
* ``--no-xpos`` blanks the language-specific XPOS column, so that treebanks with different
  XPOS tag sets can be combined (errtype's generic classifier does not read XPOS).

    python bench/train_standin.py OUT.udpipe TRAIN.conllu [TRAIN2.conllu ...]
        [--no-xpos] [--iterations 20] [--suffix-rules 8] [--heldout H.conllu]

Training is single-threaded; run it with ``nice``. The models of docs/checked_edits.md were made
by the commands listed there.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = sorted((ROOT / "tests" / "data").glob("*_checked_edits.tsv"))


def checked_sentences(paths: list[Path]) -> set[tuple[str, ...]]:
    """The word sequences of both sides of every pair in the hand-checked files."""
    out: set[tuple[str, ...]] = set()
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                cells = line.split("\t")
                out.add(tuple(cells[0].split()))
                out.add(tuple(cells[1].split()))
    return out


def sentences(paths: list[Path], no_xpos: bool, exclude: set[tuple[str, ...]]
              ) -> tuple[str, int, int]:
    """The CoNLL-U text of ``paths`` (sentences equal to one in ``exclude`` dropped, XPOS
    blanked with ``no_xpos``), the number of sentences kept and dropped."""
    kept, dropped, out = 0, 0, []
    for path in paths:
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            lines = [ln for ln in block.splitlines() if ln]
            if not any(ln[0].isdigit() for ln in lines):
                continue
            rows = [ln.split("\t") for ln in lines if not ln.startswith("#")]
            tokens, words, covered = [], [], 0
            for r in rows:
                if "." in r[0]:
                    continue
                if "-" in r[0]:
                    tokens.append(r[1])
                    covered = int(r[0].split("-")[1])
                    continue
                words.append(r[1])
                if int(r[0]) > covered:
                    tokens.append(r[1])
            if tuple(tokens) in exclude or tuple(words) in exclude:
                dropped += 1
                continue
            if no_xpos:
                lines = ["\t".join(c[:4] + ["_"] + c[5:]) if not ln.startswith("#")
                         else ln for ln, c in ((ln, ln.split("\t")) for ln in lines)]
            out.append("\n".join(lines))
            kept += 1
    return "\n\n".join(out) + "\n\n", kept, dropped


def load(text: str):
    """UDPipe Sentences of a CoNLL-U text."""
    from ufal import udpipe

    reader = udpipe.InputFormat.newInputFormat("conllu")
    reader.setText(text)
    sents, sent, err = udpipe.Sentences(), udpipe.Sentence(), udpipe.ProcessingError()
    while reader.nextSentence(sent, err):
        sents.push_back(sent)
        sent = udpipe.Sentence()
    if err.occurred():
        raise ValueError(err.message)
    return sents


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("train", type=Path, nargs="+")
    ap.add_argument("--heldout", type=Path, help="held-out CoNLL-U (early stopping)")
    ap.add_argument("--no-xpos", action="store_true", help="blank the XPOS column")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--suffix-rules", type=int, default=8)
    args = ap.parse_args(argv)
    from ufal import udpipe

    exclude = checked_sentences(CHECKED)
    text, kept, dropped = sentences(args.train, args.no_xpos, exclude)
    train = load(text)
    heldout = udpipe.Sentences()
    options = f"guesser_suffix_rules={args.suffix_rules};iterations={args.iterations}"
    if args.heldout:
        held, _, _ = sentences([args.heldout], args.no_xpos, exclude)
        heldout = load(held)
        options += ";early_stopping=1"
    print(f"{kept} training sentences ({dropped} equal to a checked-set sentence dropped), "
          f"tagger options {options}", file=sys.stderr, flush=True)
    t0 = time.time()
    err = udpipe.ProcessingError()
    model = udpipe.Trainer.train("morphodita_parsito", train, heldout, "none", options, "none",
                                 err)
    if err.occurred():
        raise SystemExit(f"training failed: {err.message}")
    args.out.write_bytes(model)
    print(f"{args.out}: {kept} sentences, {time.time() - t0:.0f}s, {len(model) / 1e6:.1f} MB",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
