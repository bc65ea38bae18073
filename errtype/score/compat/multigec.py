"""``--compat multigec``: MultiGEC-2025's official GLEU and ERRANT scores of Markdown essays.

The official pipeline (spraakbanken/multigec-2025 @ a9aa8b5 ``scripts/local_eval/gleu_errant``,
with the fork cainesap/errant @ 16d835e, 2024-11-11, the version its README installs):

1. ``utils_transform_markdown_to_one_essay_per_line.py``: each essay of a Markdown file is
   pre-tokenised with syntok (tokens joined by single spaces, so its newlines vanish) and written
   as one line, in the order of the orig file; a hypothesis file that lacks an essay gets ``!``
   there, and essays absent from the orig file are ignored. Reference files go through the same
   conversion (their ``.tmp`` files are stored with the data); with ``copy_sub1=True``, what the
   function's docstring gives for references, an essay's references are the reference files
   holding it, in file order, padded with the first of them (no file holds it: ``!``).
2. ``errant_parallel -orig O -cor ... -lang L`` of the fork cainesap/errant: each line is one
   sentence. With its default ``-tok`` the fork's ``Annotator.parse`` replaces spacy-udpipe's
   tokenizer (the whole UDPipe pipeline: tokenizer, tagger, parser) by a whitespace tokenizer
   before every parse, so the Doc's tokens are the line's space-separated words and carry **no**
   lemma, POS, tag, morphology or dependency: the UDPipe model is loaded but never run, and
   which model is installed does not change a score (its comment "split on whitespace, tag and
   parse" says otherwise; the code does not tag). The English ERRANT 3.0.0 merger and
   classifier then see bare words; the fork's classifier maps an empty tag to POS ``X`` and dep
   ``dep`` (both behave like errtype's empty ones). A line whose orig is empty is skipped.
3. ``errant_compare -hyp -ref`` (unchanged from ERRANT) and Shota Koyama's ``gleu -d 4 -f -n 4
   -t word`` on the one-essay-per-line files.

errtype reproduces this: syntok as the official conversion calls it, the fork's whitespace
tokenizer, errtype's exact ERRANT English aligner, merger and classifier over the bare words
(:func:`annotator`), errtype's ``errant_compare``, and Koyama's GLEU arithmetic
(:func:`official_gleu`). Essays are aligned whole, as the fork aligns them.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ...errors import InputError, ResourceError
from ...essay.multigec import OFFICIAL_MISSING_HYPOTHESIS as MISSING_HYPOTHESIS
from ...m2 import M2Block, M2Edit
from ...tokens import Sentence, Token
from ..common import ScoreResult, signature
from ..registry import ScoreInput

__all__ = ["LANGUAGES", "MISSING_HYPOTHESIS", "MultigecGleu", "WhitespaceParser", "annotator",
           "edit_blocks", "essay_line", "fork_words", "load_essays", "load_suite",
           "official_gleu", "official_gleu_text", "pretokenize"]

PathLike = str | os.PathLike[str]

#: the languages the fork's ``errant.load`` accepts, but Icelandic (parsed by UDPipe 2's web
#: service there, which this profile does not reproduce)
LANGUAGES = ("cs", "de", "el", "en", "et", "it", "lv", "ru", "sl", "sv", "uk")
#: Koyama's ``gleu`` as the official scorer runs it: ``-n 4``, 500 iterations, ``-f``
#: (Python 2-compatible draws seeded ``i * 101``), ``-d 4`` (4 decimals of the percentage)
GLEU_ORDER, GLEU_ITERATIONS, GLEU_DIGITS = 4, 500, 4

_NOOP = "noop"


def pretokenize(text: str) -> str:
    """The official conversion's tokenisation: syntok's tokens, each stripped, joined by spaces."""
    try:
        from syntok.tokenizer import Tokenizer
    except ImportError as exc:
        raise ResourceError("--compat multigec needs syntok, which the official MultiGEC-2025 "
                            "scorer tokenises with: pip install 'errtype[multigec]' (or pip "
                            "install syntok)") from exc
    return " ".join(str(token).strip() for token in Tokenizer().tokenize(text))


def essay_line(text: str) -> str:
    """One essay as a line of the official ``.tmp`` files (newlines, if any survived syntok,
    become tabs)."""
    return pretokenize(text).strip("\n").replace("\n", "\t")


def fork_words(line: str) -> list[str]:
    """The words the fork's whitespace tokenizer makes of a line: ``split(" ")``, an empty word
    becoming a one-space token, a final one dropped."""
    words = [w if w else " " for w in line.split(" ")]
    if words[-1] == " ":  # only an empty word becomes " ": the line ended in a space, or is ""
        words.pop()
    return words


class WhitespaceParser:
    """Parser of bare words: what the fork's ``Annotator.parse`` gives ERRANT (no annotation)."""

    name = "multigec-whitespace"

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        return Sentence([Token(w) for w in fork_words(text.strip())])

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        return (self.parse(t) for t in texts)


def annotator() -> Any:
    """errtype's ERRANT 3.0.2 English (aligner costs, merge rules, classifier; the fork's are
    the same) over :class:`WhitespaceParser`'s bare words."""
    from ...annotator import Annotator
    from ...lang import get_language

    return Annotator(get_language("en"), parser=WhitespaceParser())


def edit_blocks(ann: Any, sources: Sequence[str], corrections: Sequence[Sequence[str]]
                ) -> list[M2Block]:
    """One M2 block per essay line, correction ``k`` as coder ``k``, as ``errant_parallel``
    writes them (ERRANT's unbounded merge runs; an essay whose orig is empty, which it skips, is
    a block of noops: it counts nothing either way)."""
    out = []
    for src, cors in zip(sources, corrections, strict=True):
        src = src.strip()
        if not src:
            out.append(M2Block("", [M2Edit(-1, -1, _NOOP, "-NONE-", 0)]))
            continue
        o = ann.parser.parse(src)
        edits: list[M2Edit] = []
        for k, cor in enumerate(cors):
            cor = cor.strip()
            found = []
            if cor != src:
                c = ann.parser.parse(cor)
                for e in ann.annotate(o, c, merge_run_limit=0):
                    found.append(M2Edit(e.o_start, e.o_end, e.type,
                                        c.span_text(e.c_start, e.c_end), k))
            edits.extend(found or [M2Edit(-1, -1, _NOOP, "-NONE-", k)])
        out.append(M2Block(o.text, edits))
    return out


# --------------------------------------------------------------------------- essays


@dataclass
class EssaySet:
    """Essay lines of the orig file, its references and systems, as the official ``.tmp`` files
    hold them (``references[k][i]``, ``systems[name][i]``)."""

    ids: list[str]
    sources: list[str]
    references: list[list[str]]
    systems: dict[str, list[str]]
    paths: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _essays(path: PathLike) -> dict[str, str]:
    from ...essay.multigec import is_multigec, read_multigec

    if not is_multigec(path):
        raise InputError("--compat multigec reads MultiGEC Markdown essay files (a line "
                         "'### essay_id = ID' before each essay)", path=str(path))
    return {e.id: e.text for e in read_multigec(path)}


def load_essays(src: PathLike, refs: Sequence[PathLike],
                systems: Sequence[tuple[str, PathLike]]) -> EssaySet:
    """Read and convert the Markdown files as the official scripts do (see the module doc)."""
    if not refs:
        raise InputError("--compat multigec needs reference essays (--ref REF1.md ...)")
    orig = _essays(src)
    ids = list(orig)
    cache: dict[str, str] = {}

    def line(text: str) -> str:
        if text not in cache:
            cache[text] = essay_line(text)
        return cache[text]

    sources = [line(orig[i]) for i in ids]
    ref_essays = [_essays(r) for r in refs]
    references: list[list[str]] = [[] for _ in refs]
    for i in ids:
        present = [line(r[i]) for r in ref_essays if i in r] or [MISSING_HYPOTHESIS]
        for k in range(len(refs)):
            references[k].append(present[k] if k < len(present) else present[0])
    out = EssaySet(ids, sources, references, {})
    for name, path in systems:
        if name in out.systems:
            raise InputError(f"two systems named {name!r}")
        hyp = _essays(path)
        missing = [i for i in ids if i not in hyp]
        extra = [i for i in hyp if i not in orig]
        out.systems[name] = [line(hyp[i]) if i in hyp else MISSING_HYPOTHESIS for i in ids]
        out.paths[name] = str(path)
        if missing:
            out.notes.append(f"warning: {name}: {len(missing)} of {len(ids)} essays missing "
                             f"(e.g. {missing[0]!r}); scored as {MISSING_HYPOTHESIS!r}, as the "
                             "official MultiGEC-2025 scorer does")
        if extra:
            out.notes.append(f"warning: {name}: {len(extra)} essays not in the orig file "
                             f"(e.g. {extra[0]!r}); ignored, as the official scorer does")
    return out


def load_suite(systems: Sequence[tuple[str, PathLike]], refs: Sequence[PathLike],
               src: PathLike | None, lang: str, edits: bool = True) -> Any:
    """A :class:`~errtype.score.suite.Suite` of the essays: sources, references and systems as
    the official one-essay-per-line files, and (``edits``) the gold and system edits as the
    fork's ``errant_parallel`` extracts them."""
    from ..suite import Suite, SuiteSystem

    if lang not in LANGUAGES:
        raise InputError(f"--compat multigec: language {lang!r} is not one the official "
                         f"scorer runs with spacy-udpipe ({', '.join(LANGUAGES)})")
    if src is None:
        raise InputError("--compat multigec needs the orig essays (--src ORIG.md)")
    data = load_essays(src, refs, systems)
    gold: list[M2Block] | None = None
    hyp: dict[str, list[M2Block] | None] = {n: None for n in data.systems}
    if edits:
        ann = annotator()
        gold = edit_blocks(ann, data.sources, list(zip(*data.references, strict=True)))
        for name, lines in data.systems.items():
            hyp[name] = edit_blocks(ann, data.sources, [[h] for h in lines])
    notes = list(data.notes)
    notes.append("--compat multigec: essays pre-tokenised with syntok, one line each; edits by "
                 "ERRANT's English rules over bare words, as the official scorer's errant fork "
                 "extracts them (its whitespace tokenizer replaces spacy-udpipe's, so no "
                 "UDPipe annotation is used)")
    return Suite(sources=data.sources,
                 systems=[SuiteSystem(n, data.paths[n], lines, hyp[n])
                          for n, lines in data.systems.items()],
                 gold_name=str(src), lang=lang, _gold=gold, _gold_extracted=gold is not None,
                 _references=data.references, notes=notes)


# --------------------------------------------------------------------------- GLEU


def official_gleu(sources: Sequence[str], references: Sequence[Sequence[str]],
                  hypotheses: Sequence[str], iterations: int = GLEU_ITERATIONS,
                  order: int = GLEU_ORDER) -> float:
    """Koyama's corpus GLEU (``gleu -f -n ORDER -t word``) as a fraction: per iteration ``j``
    one reference per line drawn as Python 2's ``randint`` after ``seed(j * 101)``, the
    statistics summed, ``exp(log BP + mean log p_n)`` with ``p_n = 1`` for no n-grams, then the
    numpy mean over the iterations (one reference: every iteration draws it)."""
    import numpy as np

    from ..ngram.gleu import GLEU, draw_table

    k, n_sent = len(references), len(sources)
    table = GLEU(order=order, tokenize="unicode").statistics(sources, references, hypotheses)
    draws = ([[0] * n_sent] * iterations if k == 1
             else draw_table("py2", k, n_sent, iterations))
    scores = []
    for d in draws:
        stats = [0] * (2 + 2 * order)
        for i, r in enumerate(d):
            for c, v in enumerate(table[i][r]):
                stats[c] += v
        hlen, rlen = stats[0], stats[1]
        ps = [1.0 if stats[3 + 2 * n] == 0 else stats[2 + 2 * n] / stats[3 + 2 * n]
              for n in range(order)]
        with np.errstate(divide="ignore"):
            log_mean_p = np.log(ps).mean()
        if (rlen, hlen) == (0, 0):
            log_bp = 0.0
        elif hlen == 0:
            log_bp = -math.inf
        elif rlen < hlen:
            log_bp = 0.0
        else:
            log_bp = 1.0 - rlen / hlen
        scores.append(np.exp(log_bp + log_mean_p))
    return float(np.mean(scores))


def official_gleu_text(value: float, digits: int = GLEU_DIGITS) -> str:
    """The score as ``gleu -d DIGITS`` prints it (a percentage, rounded half up)."""
    if math.isinf(value * 100):
        return str(value * 100)
    return str(Decimal(str(value * 100)).quantize(Decimal(1).scaleb(-digits),
                                                  rounding=ROUND_HALF_UP))


@dataclass
class MultigecGleu:
    """The official MultiGEC-2025 GLEU (Koyama's ``gleu``) of the essay lines."""

    name: str = "gleu"
    main: str = "gleu"
    uses: tuple[str, ...] = ("references",)

    def settings(self) -> dict[str, Any]:
        return {"impl": "koyama-gleu", "n": GLEU_ORDER, "iterations": GLEU_ITERATIONS,
                "draw": "py2-fixed", "compat": "multigec"}

    def score(self, data: ScoreInput) -> ScoreResult:
        refs = data.references or []
        value = official_gleu(list(data.sources or []), refs, list(data.hypotheses))
        return ScoreResult(metric="gleu", corpus={"gleu": value},
                           signature=signature("gleu", self.settings()),
                           counts={"official": official_gleu_text(value),
                                   "sentences": len(data.hypotheses), "references": len(refs)})


# --------------------------------------------------------------------------- errtype score

#: the TSV columns of ``errtype score --compat multigec --tsv`` after system and metric
COLUMNS = ("score", "p", "r", "f", "tp", "fp", "fn")
#: the metrics the official scorer reports
METRICS = ("errant", "gleu")


def compat_metrics(metrics: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The (label, metric) pairs as the profile scores them: ``errant`` as configured (the
    official ``errant_compare`` is errtype's by default), ``gleu`` replaced by
    :class:`MultigecGleu`; any other metric is refused."""
    from ..registry import ALIASES

    out = []
    for label, metric in metrics:
        canon = ALIASES.get(label, label)
        if canon not in METRICS:
            raise InputError(f"--compat multigec scores {' and '.join(METRICS)} as the official "
                             f"MultiGEC-2025 scorer does, not {label}")
        out.append((label, MultigecGleu() if canon == "gleu" else metric))
    return out


def needs_edits(metrics: Sequence[tuple[str, Any]]) -> bool:
    """Whether a metric of ``metrics`` compares edits (so they must be extracted)."""
    return any("hyp_edits" in getattr(m, "uses", ()) for _, m in metrics)


def sign(rows: Sequence[Any]) -> None:
    """Mark the ERRANT results' signatures with the profile (GLEU's names it already)."""
    from ..common import with_setting

    for r in rows:
        if "compat:multigec" not in r.result.signature:
            r.result.signature = with_setting(r.result.signature, "edits", "multigec-fork")
