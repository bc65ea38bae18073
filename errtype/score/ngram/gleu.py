"""GLEU+ (Napoles et al. 2016, "GLEU without tuning"), as the official code computes it.

Per sentence and reference (METRICS.md §2.2, §3.4): hypothesis and reference lengths, and for
n = 1..4 the numerator ``max(Σ min(H, R) − Σ min(H, S∖R), 0)`` (S∖R: source n-grams that occur
nowhere in the reference, with their source counts) and the denominator ``max(|h| − n + 1, 0)``.
The corpus score is the mean over 500 iterations; iteration j seeds ``j * 101`` and draws one
reference per sentence with Python 2's ``randint`` (default, matches published numbers) or
Python 3's (``draw="py3"``). One reference means one iteration. An iteration scores
``exp(min(0, 1 − r/c) + mean log(num/den))``, or 0 when any summed statistic is 0.
Sentence-level GLEU smooths zero statistics to 1 and averages over the references.

Tokens are whitespace-separated; by default the whitespace set is ASCII, as for the byte strings
the official Python 2 code split (``tokenize="unicode"`` uses Python 3's ``str.split``).

charGLEU (``unit="char"``, the metric ``gleu-char``): the same computation with characters as
units: the text's tokens joined by single spaces, each character (the spaces included, so a
split or joined word is a change) one unit; see docs/metrics.md for the definition chosen.
"""

from __future__ import annotations

import math
import os
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import add
from typing import Any, ClassVar

from ...errors import InputError, LineCountError
from ...m2 import is_m2, read_m2
from ...textio import read_lines
from .._checks import misaligned, misalignment_note
from ..common import ScoreResult, check_parallel, signature
from ..extract import MISSING
from ..options import option
from ..registry import ScoreInput, register
from .py2random import py2_randints, py3_randints

PathLike = str | os.PathLike[str]
Z95 = 1.959963984540054  # scipy.stats.norm.ppf(0.975)
FIELD = 64  # bits per packed statistic (corpus sums stay far below 2**64)

__all__ = ["GLEU", "GleuMetric", "gleu", "gleu_human", "read_gleu_inputs", "sentence_stats",
           "tokenize", "units"]

_ASCII_WS = re.compile(r"[ \t\n\r\x0b\x0c]+")
_PY3_ONLY_WS = frozenset("\x1c\x1d\x1e\x1f")


def tokenize(line: str, mode: str = "py2") -> list[str]:
    """Whitespace tokens: ``py2`` splits on ASCII whitespace only, ``unicode`` on ``str.split``."""
    if mode == "unicode" or (line.isascii() and not _PY3_ONLY_WS.intersection(line)):
        return line.split()
    if mode != "py2":
        raise ValueError(f"unknown tokenize mode {mode!r} (py2, unicode)")
    return [t for t in _ASCII_WS.split(line) if t]


def units(line: str, mode: str = "py2", unit: str = "word") -> list[str]:
    """The units GLEU counts: :func:`tokenize`'s tokens, or (``unit="char"``) the characters of
    those tokens joined by single spaces."""
    toks = tokenize(line, mode)
    if unit == "word":
        return toks
    if unit != "char":
        raise ValueError(f"unknown GLEU unit {unit!r} (word, char)")
    return list(" ".join(toks))


def _ngrams(tokens: Sequence[str], order: int) -> list[Counter[tuple[str, ...]]]:
    return [Counter(zip(*[tokens[i:] for i in range(n)], strict=False))
            for n in range(1, order + 1)]


def sentence_stats(src: Sequence[str], ref: Sequence[str], hyp: Sequence[str],
                   order: int = 4) -> list[int]:
    """``[hyp_len, ref_len, num_1, den_1, …, num_n, den_n]`` for one sentence and reference."""
    return _stats(_ngrams(src, order), _ngrams(ref, order), _ngrams(hyp, order),
                  len(hyp), len(ref))


def _stats(s_ng: list[Counter], r_ng: list[Counter], h_ng: list[Counter], hlen: int,
           rlen: int) -> list[int]:
    out = [hlen, rlen]
    for n, (s, r, h) in enumerate(zip(s_ng, r_ng, h_ng, strict=True), 1):
        match = pen = 0
        for g, hc in h.items():
            rc = r.get(g)
            if rc:
                match += hc if hc < rc else rc
            else:  # a source n-gram absent from the reference
                sc = s.get(g)
                if sc:
                    pen += hc if hc < sc else sc
        out.append(max(match - pen, 0))
        out.append(max(hlen + 1 - n, 0))
    return out


@lru_cache(maxsize=4)
def draw_table(draw: str, k: int, count: int, iterations: int) -> tuple[list[int], ...]:
    """Reference indices per iteration j (seed ``j * 101``) and sentence; cached, since every
    hypothesis file scored against the same references uses the same draws."""
    fn = py2_randints if draw == "py2" else py3_randints
    return tuple(fn(j * 101, k, count) for j in range(iterations))


def _score(stats: Sequence[float], order: int, smooth: bool = False) -> float:
    """GLEU of summed statistics (the official ``gleu``; order 4 divides by 4 like it)."""
    if smooth:
        stats = [s if s != 0 else 1 for s in stats]
    if any(s == 0 for s in stats):
        return 0.0
    c, r = stats[0], stats[1]
    log_prec = sum([math.log(float(x) / y) for x, y in zip(stats[2::2], stats[3::2], strict=True)]
                   ) / order
    return math.exp(min([0, 1 - float(r) / c]) + log_prec)


def _mean_std(xs: Sequence[float]) -> tuple[float, float]:
    mean = math.fsum(xs) / len(xs)
    var = math.fsum((x - mean) ** 2 for x in xs) / len(xs)
    return mean, math.sqrt(var)


@dataclass
class GLEU:
    """GLEU+ with its settings; :meth:`score` takes token lists (or strings) per sentence."""

    order: int = 4
    iterations: int = 500
    draw: str = "py2"
    tokenize: str = "py2"
    sentence_level: bool = True
    unit: str = "word"

    def settings(self, k: int) -> dict[str, Any]:
        its = self.iterations if k > 1 else 1
        out = {"n": self.order, "refs": k, "iterations": its, "seed": "j*101",
               "draw": self.draw, "tok": f"ws-{self.tokenize}", "variant": "gleu+2016"}
        if self.unit != "word":
            out["unit"] = self.unit
        return out

    def _draws(self, k: int, count: int) -> tuple[list[int], ...]:
        if k == 1:
            return ([0] * count,)
        if self.draw not in ("py2", "py3"):
            raise ValueError(f"unknown draw {self.draw!r} (py2, py3)")
        return draw_table(self.draw, k, count, self.iterations)

    def _tok(self, x: str | Sequence[str]) -> Sequence[str]:
        return units(x, self.tokenize, self.unit) if isinstance(x, str) else x

    def _grams(self, x: str | Sequence[str], seen: dict[Any, Any], keep: bool = True
               ) -> tuple[Sequence[str], list[Counter]]:
        """Tokens and n-gram counts of a text, reused when the same text recurs (an unchanged
        source, equal references; ``keep=False``: looked up but not remembered)."""
        key = x if isinstance(x, str) else tuple(x)
        got = seen.get(key)
        if got is None:
            toks = self._tok(x)
            got = (toks, _ngrams(toks, self.order))
            if keep:
                seen[key] = got
        return got

    def statistics(self, sources: Sequence[str | Sequence[str]],
                   references: Sequence[Sequence[str | Sequence[str]]],
                   hypotheses: Sequence[str | Sequence[str]],
                   memo: dict[Any, Any] | None = None) -> list[list[list[int]]]:
        """Per sentence and reference, :func:`sentence_stats` (what :meth:`score` sums).

        ``memo``: a dict kept across calls with the same sources and references (several
        systems scored against them): each source and reference text is tokenised and counted
        once, and a hypothesis equal to one of them (an unchanged sentence) is not counted again.
        """
        check_parallel("GLEU", sources, references, hypotheses)
        n_sent, k = len(sources), len(references)
        table = []
        for i in range(n_sent):
            seen: dict[Any, tuple[Sequence[str], list[Counter]]] = {} if memo is None else memo
            _, s_ng = self._grams(sources[i], seen)
            refs = [self._grams(references[r][i], seen) for r in range(k)]
            hyp, h_ng = self._grams(hypotheses[i], seen, keep=memo is None)
            table.append([_stats(s_ng, r_ng, h_ng, len(hyp), len(ref)) for ref, r_ng in refs])
        return table

    def score(self, sources: Sequence[str | Sequence[str]],
              references: Sequence[Sequence[str | Sequence[str]]],
              hypotheses: Sequence[str | Sequence[str]],
              statistics: Sequence[Sequence[Sequence[int]]] | None = None) -> ScoreResult:
        """Score hypotheses; ``references[r][i]`` is reference r of sentence i.
        ``statistics``: what :meth:`statistics` gives for the same inputs, if computed."""
        t0 = time.perf_counter()
        if not references:
            raise InputError("GLEU needs at least one reference")
        if self.iterations < 1:
            raise InputError("GLEU needs at least one iteration")
        table = (self.statistics(sources, references, hypotheses) if statistics is None
                 else statistics)
        n_sent, k = len(sources), len(references)
        order = self.order
        # Statistics per (sentence, reference). The ones that depend on the reference (its
        # length and the numerators) are packed into one integer, FIELD bits each, stored flat
        # (index i * k + r): an iteration is then a single C-level sum of n_sent integers.
        width = 2 + 2 * order
        var_cols = [1, *range(2, width, 2)]
        flat = [0] * (n_sent * k)
        fixed = [0] * width
        sent_rows: list[dict[str, Any]] = []
        for i, per_ref in enumerate(table):
            for r, st in enumerate(per_ref):
                flat[i * k + r] = sum(st[col] << (FIELD * c) for c, col in enumerate(var_cols))
            first = per_ref[0]  # the hypothesis's length and n-gram counts: every reference's
            fixed[0] += first[0]
            for n in range(1, order + 1):
                fixed[2 * n + 1] += first[2 * n + 1]
            if self.sentence_level:
                scores = [_score(st, order, smooth=True) for st in per_ref]
                mean, std = _mean_std(scores)
                sent_rows.append({"id": i, "gleu": mean, "std": std, "per_ref": scores})
        draws = self._draws(k, n_sent)
        iter_scores = []
        offsets = [i * k for i in range(n_sent)]
        mask = (1 << FIELD) - 1
        for d in draws:
            total = sum(map(flat.__getitem__, map(add, offsets, d)))
            stats = list(fixed)
            for c, col in enumerate(var_cols):
                stats[col] = (total >> (FIELD * c)) & mask
            iter_scores.append(_score(stats, order))
        mean, std = _mean_std(iter_scores)
        flagged = [] if not all(isinstance(x, str) for x in (*sources[:1], *hypotheses[:1])) \
            else misaligned(sources, hypotheses)  # type: ignore[arg-type]
        warn = misalignment_note(flagged, n_sent)
        return ScoreResult(
            metric="gleu" if self.unit == "word" else f"gleu-{self.unit}",
            corpus={"gleu": mean, "std": std, "ci95_low": mean - Z95 * std,
                    "ci95_high": mean + Z95 * std},
            signature=signature("gleu" if self.unit == "word" else f"gleu-{self.unit}",
                                self.settings(k)),
            counts={"sentences": n_sent, "references": k, "iterations": len(draws),
                    "seconds": round(time.perf_counter() - t0, 3)},
            sentences=sent_rows,
            notes=[warn] if warn else [],
        )

    def score_files(self, source: PathLike, references: Sequence[PathLike],
                    hypothesis: PathLike) -> ScoreResult:
        """Score files (one sentence per line; all line counts are checked first)."""
        src, refs, hyp = read_gleu_inputs(source, references, hypothesis)
        return self.score(src, refs, hyp)

    def human(self, sources: Sequence[str | Sequence[str]],
              references: Sequence[Sequence[str | Sequence[str]]]) -> ScoreResult:
        """Each reference scored against the others, and their mean (the "human" figure)."""
        k = len(references)
        if k < 2:
            raise InputError("the human GLEU figure needs at least two references")
        t0 = time.perf_counter()
        each = [self.score(sources, [references[o] for o in range(k) if o != r], references[r])
                for r in range(k)]
        scores = [e.corpus["gleu"] for e in each]
        corpus = {"gleu": math.fsum(scores) / k}
        corpus.update({f"ref{r}": s for r, s in enumerate(scores)})
        settings = self.settings(k - 1)
        settings["mode"] = "human-leave-one-out"
        return ScoreResult(
            metric="gleu-human", corpus=corpus, signature=signature("gleu", settings),
            counts={"sentences": len(sources), "references": k,
                    "seconds": round(time.perf_counter() - t0, 3)},
            notes=[f"ref{r}: scored against the other {k - 1} references" for r in range(k)],
        )


def m2_references(path: PathLike, sources: Sequence[str] | None = None,
                  missing: str = "first") -> list[list[str]]:
    """One reference per annotator of an M2 file: its edits applied to the ``S`` sentence.

    The first alternative of each edit is used and ``-NONE-`` deletes; an annotator absent from
    a block that lists others corrected as the first one (``missing``: see
    :func:`errtype.score.extract.gold_references`). With ``sources`` each ``S`` sentence must
    equal (token for token) the corresponding source line, else ``InputError`` names the M2 file
    and line.
    """
    from ..extract import gold_references

    blocks = list(read_m2(path))
    if sources is not None:
        if len(blocks) != len(sources):
            raise LineCountError(f"{len(blocks)} sentences in the M2 file but {len(sources)} "
                                 f"source lines", path=str(path))
        for i, (b, src) in enumerate(zip(blocks, sources, strict=True)):
            if b.tokens != src.split():
                raise InputError(f"the reference's source sentence differs from line {i + 1} "
                                 f"of the source file: {b.source[:60]!r} vs {src[:60]!r}",
                                 path=str(path), line=b.line)
    return gold_references(blocks, missing)


def read_gleu_inputs(source: PathLike, references: Sequence[PathLike],
                     hypothesis: PathLike | None = None
                     ) -> tuple[list[str], list[list[str]], list[str]]:
    """Read source, references and hypothesis (line counts checked before scoring).

    An M2 reference (:func:`errtype.m2.is_m2`) gives one reference per annotator (see
    :func:`m2_references`), checked against the source sentences.
    """
    m2 = {str(r) for r in references if is_m2(r)}
    plain = [r for r in references if str(r) not in m2]
    paths: list[PathLike] = [source, *plain]
    if hypothesis is not None:
        paths.append(hypothesis)
    texts = [[ln.text for ln in read_lines(p)] for p in paths]  # "-" (stdin) works too
    counts = [len(t) for t in texts]
    if len(set(counts)) > 1:
        detail = ", ".join(f"{p}: {c}" for p, c in zip(paths, counts, strict=True))
        raise LineCountError(f"parallel files have different numbers of lines ({detail})",
                             path=str(paths[counts.index(min(counts))]))
    src = texts[0]
    by_path = dict(zip(map(str, plain), texts[1:1 + len(plain)], strict=True))
    refs: list[list[str]] = []
    for r in references:
        if str(r) in m2:
            refs += m2_references(r, src)
        else:
            refs.append(by_path[str(r)])
    return src, refs, texts[-1] if hypothesis is not None else []


def gleu(sources: Sequence[str], references: Sequence[Sequence[str]], hypotheses: Sequence[str],
         **settings: Any) -> ScoreResult:
    """Corpus GLEU (see :class:`GLEU` for the settings)."""
    return GLEU(**settings).score(sources, references, hypotheses)


def gleu_human(sources: Sequence[str], references: Sequence[Sequence[str]],
               **settings: Any) -> ScoreResult:
    """The "human" GLEU: each reference against the others, averaged."""
    return GLEU(**settings).human(sources, references)


@register("gleu")
@dataclass
class GleuMetric:
    """GLEU+ against the reference texts, or else the gold annotators' corrected sentences (one
    reference per annotator; ``missing``: see :func:`errtype.score.extract.gold_references`)."""

    order: int = option(4, ge=1)
    iterations: int = option(500, ge=1)
    draw: str = option("py2", choices=("py2", "py3"))
    tokenize: str = option("py2", choices=("py2", "unicode"))
    sentence_level: bool = True
    missing: str = option("first", choices=MISSING)
    unit: str = option("word", choices=("word", "char"))
    name: str = "gleu"
    main: ClassVar[str] = "gleu"
    uses: ClassVar[tuple[str, ...]] = ("references",)
    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units

    def scorer(self) -> GLEU:
        """The configured :class:`GLEU`."""
        return GLEU(order=self.order, iterations=self.iterations, draw=self.draw,
                    tokenize=self.tokenize, sentence_level=self.sentence_level, unit=self.unit)

    def settings(self) -> dict[str, Any]:
        out = {"n": self.order, "iterations": self.iterations, "draw": self.draw,
               "refs": f"texts-or-m2-{self.missing}", "variant": "gleu+2016"}
        if self.unit != "word":
            out["unit"] = self.unit
        return out

    def score(self, data: ScoreInput) -> ScoreResult:
        from ..extract import gold_references

        refs = (data.references if data.references is not None
                else gold_references(data.gold, self.missing))
        return self.scorer().score(list(data.sources or []), refs, list(data.hypotheses))


def _char(**settings: Any) -> GleuMetric:
    """charGLEU: GLEU over characters (``unit="char"``)."""
    settings.setdefault("unit", "char")
    settings.setdefault("name", "gleu-char")
    return GleuMetric(**settings)


register("gleu-char", _char)
