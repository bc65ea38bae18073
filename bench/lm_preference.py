"""How often does a language model prefer the human correction to the source? (and how fast)

Pairs: JFLEG dev source vs each of its 4 references, and CoNLL-2014 source vs each annotator's
corrected sentence (from the combined M2). Only pairs whose strings differ are counted; a tie
(equal perplexity) is counted separately. Usage: python bench/lm_preference.py [LM_SPEC ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from errtype.m2 import read_m2
from errtype.score.extract import apply_edits
from errtype.score.lm.models import load_lm

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def jfleg_pairs() -> list[tuple[str, str]]:
    src = (SHARED / "jfleg" / "dev.src").read_text().splitlines()
    pairs = []
    for r in range(4):
        ref = (SHARED / "jfleg" / f"dev.ref{r}").read_text().splitlines()
        pairs += [(s.strip(), h.strip()) for s, h in zip(src, ref, strict=True)]
    return [(s, h) for s, h in pairs if s != h]


def conll_pairs() -> list[tuple[str, str]]:
    pairs = []
    for block in read_m2(SHARED / "conll14" / "official-2014.combined.m2"):
        for edits in block.edits_by_annotator().values():
            cor = apply_edits(block.tokens, edits)
            if cor != block.source:
                pairs.append((block.source, cor))
    return pairs


def main(specs: list[str]) -> None:
    data = {"jfleg": jfleg_pairs(), "conll14": conll_pairs()}
    for spec in specs or ["default"]:
        t0 = time.perf_counter()
        lm = load_lm(spec)
        load = time.perf_counter() - t0
        for name, pairs in data.items():
            t0 = time.perf_counter()
            ps = lm.perplexities([s for s, _ in pairs])
            ph = lm.perplexities([h for _, h in pairs])
            dt = time.perf_counter() - t0
            better = sum(h < s for s, h in zip(ps, ph, strict=True))
            ties = sum(h == s for s, h in zip(ps, ph, strict=True))
            n = len(pairs)
            print(f"{lm.name}\t{name}\tpairs={n}\tprefers_correction={better / n:.3f}"
                  f"\tties={ties / n:.3f}\tload={load:.2f}s\tscore={dt:.2f}s"
                  f"\t({2 * n / dt:.0f} sent/s)")


if __name__ == "__main__":
    main(sys.argv[1:])
