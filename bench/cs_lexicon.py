"""Which Czech word list best stands in for MorfFlex in the SPELL rule? (GECCC dev, gold types)

For a 1:1 replacement with an alphabetic original word, a difflib ratio > 0.5 to the correction and
a type that is not a string rule (PUNCT, DIACR, ORTH*, QUOTATION, WO*), the Czech ERRANT says SPELL
exactly when MorfFlex does not know the original word. Each candidate lexicon is scored on how
often it makes the same known/unknown decision. Optional candidates (simplemma, wordfreq) are
skipped when not installed.

    python bench/cs_lexicon.py [--geccc DIR]
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from errtype.lang.cs.spelling import CommonCzechLexicon, HunspellLexicon  # noqa: E402

STRING_TYPES = {"R:PUNCT", "R:DIACR", "R:ORTH", "R:ORTH:CASING", "R:ORTH:WSPACE", "R:QUOTATION",
                "R:WO", "R:WO:SPELL"}


def decisions(m2: Path) -> list[tuple[str, bool]]:
    """(original word, MorfFlex knows it) for every informative gold edit."""
    out = []
    for block in m2.read_text(encoding="utf-8").strip().split("\n\n"):
        lines = block.split("\n")
        orig = lines[0][2:].split(" ")
        for line in lines[1:]:
            f = line[2:].split("|||")
            start, end = map(int, f[0].split())
            cor = f[2].split()
            typ = f[1]
            if (end - start == 1 and len(cor) == 1 and typ.startswith("R:")
                    and typ not in STRING_TYPES and orig[start].isalpha()
                    and difflib.SequenceMatcher(None, orig[start], cor[0]).ratio() > 0.5):
                out.append((orig[start], typ != "R:SPELL"))
    return out


def candidates() -> dict[str, Callable[[str], bool]]:
    hunspell = HunspellLexicon()
    common = CommonCzechLexicon(hunspell)
    cands: dict[str, Callable[[str], bool]] = {
        "hunspell cs_CZ": hunspell, "hunspell + Common Czech (default)": common}
    try:
        import simplemma

        def sm(w: str) -> bool:
            return simplemma.is_known(w, lang="cs")
        cands["simplemma"] = sm
        cands["hunspell | simplemma"] = lambda w: hunspell(w) or sm(w)
    except ImportError:
        pass
    try:
        from wordfreq import zipf_frequency
        for z in (3.0, 3.5, 4.0):
            cands[f"hunspell | wordfreq>={z}"] = (
                lambda w, z=z: hunspell(w) or zipf_frequency(w, "cs") >= z)
            cands[f"default | wordfreq>={z}"] = (
                lambda w, z=z: common(w) or zipf_frequency(w, "cs") >= z)
    except ImportError:
        pass
    return cands


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--geccc", type=Path, default=ROOT.parent / "shared" / "data" / "geccc")
    args = ap.parse_args(argv)
    data = decisions(args.geccc / "sentence.m2")
    known = sum(k for _, k in data)
    print(f"{len(data)} decisions: {known} known to MorfFlex, {len(data) - known} unknown")
    print(f"{'lexicon':38s} {'agree':>7s} {'known accepted':>16s} {'unknown rejected':>18s}")
    for name, lex in candidates().items():
        acc = sum(1 for w, k in data if k and lex(w))
        rej = sum(1 for w, k in data if not k and not lex(w))
        print(f"{name:38s} {100 * (acc + rej) / len(data):6.2f}% {acc:>8d}/{known:<7d} "
              f"{rej:>9d}/{len(data) - known:<8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
