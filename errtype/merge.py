"""Edit extraction from an alignment: all-split, all-merge, all-equal and linguistic rules.

The rule-based merger is one engine with switches. Its two published configurations live here:
:func:`errant3_rules` (ERRANT 3.0.2, English) and :func:`errant2_rules` (ERRANT 2.0.0, kept by the
Czech ERRANT and used for every UD language); a language picks one and supplies its
similar-substitution test instead of re-implementing the rules.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, groupby
from typing import TYPE_CHECKING

from rapidfuzz.distance import Indel

from .align import AlignOp
from .tokens import Sentence, Token

if TYPE_CHECKING:
    from .lang.base import Language

STRATEGIES = ("rules", "all-split", "all-merge", "all-equal")
#: The default longest run of non-matching alignment operations the rule merger examines as one
#: unit (the ``run_limit`` of :func:`merge`). The rules test every sub-span of a run (cubic in its
#: length: a 1,000-token rewrite takes minutes), so a longer run is processed in consecutive chunks
#: of this size. Real corrections never come near it; only unrelated or misaligned pairs do, and
#: their work stays bounded. A limit of 0 (CLI: ``--merge-run-limit 0``) is ERRANT's unbounded
#: behaviour. The limit is an argument, passed with each job, never a setting of the module.
MAX_RULE_RUN = 100
Span = tuple[int, int, int, int]
_PUNCT_CHARS = string.punctuation


def merge(seq: Sequence[AlignOp], orig: Sentence, cor: Sentence, lang: Language,
          strategy: str = "rules", run_limit: int = MAX_RULE_RUN) -> list[Span]:
    """Edit spans (o_start, o_end, c_start, c_end) extracted from an alignment sequence
    (``run_limit``: see :data:`MAX_RULE_RUN`)."""
    if strategy == "rules":
        return lang.merge_rules(seq, orig, cor, run_limit)
    if strategy == "all-split":
        return [_span(a) for a in seq if a.op != "M"]
    if strategy == "all-merge":
        return [_merged(list(g)) for is_m, g in groupby(seq, lambda a: a.op == "M") if not is_m]
    if strategy == "all-equal":
        return [_merged(list(g)) for op, g in groupby(seq, lambda a: a.op) if op != "M"]
    raise ValueError(f"unknown merging strategy {strategy!r}; choose from: {', '.join(STRATEGIES)}")


def _span(a: AlignOp) -> Span:
    return (a.o_start, a.o_end, a.c_start, a.c_end)


def _merged(items: Sequence[AlignOp]) -> Span:
    return (items[0].o_start, items[-1].o_end, items[0].c_start, items[-1].c_end)


def _squash(toks: Sequence[Token]) -> str:
    """Lower-cased text of ``toks`` without apostrophes and hyphens (the merge rule's test)."""
    return "".join(t.lower for t in toks).replace("'", "").replace("-", "")


def _squashed_prefix(toks: Sequence[Token]) -> list[int]:
    """Prefix sums of the lengths of each token's squashed text."""
    out = [0]
    for t in toks:
        out.append(out[-1] + len(t.lower) - t.lower.count("'") - t.lower.count("-"))
    return out


def is_punct(tok: Token) -> bool:
    """PUNCT tag, or text contained in ``string.punctuation`` (ERRANT's substring quirk)."""
    return tok.pos == "PUNCT" or tok.text in _PUNCT_CHARS


@dataclass(frozen=True)
class RuleMerger:
    """ERRANT's linguistic merging rules with the switches that differ between versions.

    ``possessive``: the 3.x possessive rules; ``content_pos``: POS that make a run one edit;
    ``same_pos``: the same-POS/verb-phrase rule ``(pos_set, len_o, len_c) -> merge?``;
    ``similar``: the similar-substitution split test on two token texts. Calling it merges an
    alignment, examining runs of at most ``run_limit`` non-matching operations at a time (0: any
    length; see :data:`MAX_RULE_RUN`).
    """

    possessive: bool
    content_pos: frozenset[str]
    same_pos: Callable[[set[str], int, int], bool]
    similar: Callable[[str, str], bool]

    def __call__(self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
                 run_limit: int = MAX_RULE_RUN) -> list[Span]:
        out: list[Span] = []
        for key, group in groupby(seq, lambda a: a.op[0] if a.op[0] in "MT" else "X"):
            if key == "M":
                continue
            if key == "T":
                out.extend(_span(a) for a in group)
            else:
                run = list(group)
                size = run_limit if run_limit > 0 else len(run) or 1
                for k in range(0, len(run), size):
                    out.extend(self._process(run[k:k + size], orig, cor))
        return out

    def _process(self, seq: list[AlignOp], orig: Sentence, cor: Sentence) -> list[Span]:
        if len(seq) <= 1:
            return [_span(a) for a in seq]
        ops = [a.op for a in seq]
        if all(op == "D" for op in ops) or all(op == "I" for op in ops):
            return [_merged(seq)]
        proc = self._process
        pairs = sorted(combinations(range(len(seq)), 2), key=lambda p: p[0] - p[1])
        content = False
        # lengths of the squashed strings compared below, as prefix sums: unequal lengths
        # settle the comparison without building the strings (same result, much less work)
        o0, c0 = seq[0].o_start, seq[0].c_start
        o_len = _squashed_prefix(orig[o0:seq[-1].o_end])
        c_len = _squashed_prefix(cor[c0:seq[-1].c_end])
        for start, end in pairs:
            if "S" not in ops[start:end + 1]:
                continue
            os_, oe = seq[start].o_start, seq[end].o_end
            cs_, ce = seq[start].c_start, seq[end].c_end
            o = orig[os_:oe]
            c = cor[cs_:ce]
            if self.possessive:
                if start == 0 and (o[0].tag == "POS" or c[0].tag == "POS"):
                    return [_span(seq[0])] + proc(seq[1:], orig, cor)
                if o[-1].tag == "POS" or c[-1].tag == "POS":
                    return (proc(seq[:end - 1], orig, cor) + [_merged(seq[end - 1:end + 1])]
                            + proc(seq[end + 1:], orig, cor))
            if o[-1].lower == c[-1].lower:
                if start == 0 and ((len(o) == 1 and c[0].text[0].isupper())
                                   or (len(c) == 1 and o[0].text[0].isupper())):
                    return [_merged(seq[start:end + 1])] + proc(seq[end + 1:], orig, cor)
                if (len(o) > 1 and is_punct(o[-2])) or (len(c) > 1 and is_punct(c[-2])):
                    return (proc(seq[:end - 1], orig, cor) + [_merged(seq[end - 1:end + 1])]
                            + proc(seq[end + 1:], orig, cor))
            if (o_len[oe - o0] - o_len[os_ - o0] == c_len[ce - c0] - c_len[cs_ - c0]
                    and _squash(o) == _squash(c)):
                return (proc(seq[:start], orig, cor) + [_merged(seq[start:end + 1])]
                        + proc(seq[end + 1:], orig, cor))
            pos_set = {tok.pos for tok in o} | {tok.pos for tok in c}
            if self.same_pos(pos_set, len(o), len(c)):
                return (proc(seq[:start], orig, cor) + [_merged(seq[start:end + 1])]
                        + proc(seq[end + 1:], orig, cor))
            if end - start < 2:
                if len(o) == len(c) == 2:
                    return proc(seq[:start + 1], orig, cor) + proc(seq[start + 1:], orig, cor)
                if ((ops[start] == "S" and self.similar(o[0].text, c[0].text))
                        or (ops[end] == "S" and self.similar(o[-1].text, c[-1].text))):
                    return proc(seq[:start + 1], orig, cor) + proc(seq[start + 1:], orig, cor)
                if end == len(seq) - 1 and ((ops[-1] in ("D", "S") and o[-1].pos == "DET")
                                            or (ops[-1] in ("I", "S") and c[-1].pos == "DET")):
                    return proc(seq[:-1], orig, cor) + [_span(seq[-1])]
            if not pos_set.isdisjoint(self.content_pos):
                content = True
        if content:
            return [_merged(seq)]
        return [_span(a) for a in seq]


# --- the published configurations ---------------------------------------------------------------

#: POS whose presence makes a whole unresolved run one edit (ERRANT 3.0.2 counts AUX as content)
CONTENT_POS_V3 = frozenset({"ADJ", "AUX", "ADV", "NOUN", "VERB"})
CONTENT_POS_V2 = frozenset({"ADJ", "ADV", "NOUN", "VERB"})
_VERBISH = frozenset({"AUX", "PART", "VERB"})


def same_pos_v3(pos: set[str], len_o: int, len_c: int) -> bool:
    """ERRANT 3.0.2: unequal lengths and one POS, or only verb-ish POS (AUX, PART, VERB)."""
    return len_o != len_c and (len(pos) == 1 or pos <= _VERBISH)


def same_pos_v2(pos: set[str], len_o: int, len_c: int) -> bool:
    """ERRANT 2.0.0 / Czech ERRANT: one POS and unequal lengths, or exactly {PART, VERB}."""
    return (len(pos) == 1 and len_o != len_c) or pos == {"PART", "VERB"}


def indel_similar(a: str, b: str) -> bool:
    """ERRANT 3.0.2's split test: Indel (LCS) similarity of the texts above 0.75."""
    return 1 - Indel.normalized_distance(a, b) > 0.75


def errant3_rules(similar: Callable[[str, str], bool] = indel_similar) -> RuleMerger:
    """ERRANT 3.0.2's rules (possessive rules, AUX as content, verb-ish same-POS rule)."""
    return RuleMerger(possessive=True, content_pos=CONTENT_POS_V3, same_pos=same_pos_v3,
                      similar=similar)


def errant2_rules(similar: Callable[[str, str], bool] = indel_similar) -> RuleMerger:
    """ERRANT 2.0.0's rules as kept by the Czech ERRANT (no possessive rules, which need PTB
    tags; AUX not content; the {PART, VERB} same-POS rule)."""
    return RuleMerger(possessive=False, content_pos=CONTENT_POS_V2, same_pos=same_pos_v2,
                      similar=similar)


# --- merge granularity as data (the generic UD language) ----------------------------------------

#: word classes of an agreement phrase (a determiner, adjective or noun run)
AGREEMENT_POS = frozenset({"DET", "ADJ", "NOUN", "PROPN", "PRON", "NUM"})
#: the UD features agreement is carried by
AGREEMENT_FEATS = ("Case", "Gender", "Number")
#: word classes of a periphrastic verb form (``ist am Arbeiten``, ``буду писати``)
PERIPHRASTIC_POS = frozenset({"AUX", "VERB", "PART"})
_PERIPHRASTIC_GLUE = frozenset({"ADP", "DET"})


@dataclass(frozen=True)
class MergeSettings:
    """How adjacent changes merge after the rules (all off: errtype's default granularity).

    ``agreement``: edits in one determiner/adjective/noun run that change the same agreement
    feature (Case, Gender or Number), with only such words between them, become one edit
    (``einem guten Freunde`` -> ``einer guten Freundin``). ``periphrastic``: touching edits
    that together hold an auxiliary and a verb, with only verbal words (or a preposition or
    article inside the form, ``am``) on either side, become one edit (``ist am Arbeiten`` ->
    ``arbeitet``). ``punct``: an edit of punctuation alone touching a word edit joins it (the
    one before, else the one after). ``split_punct``: punctuation at the edge of a word edit
    becomes its own edit (the opposite convention; applied first). ``moves``: a word deleted
    at one place and inserted, possibly changed, at another nearby (the same lemma, or similar
    letters) makes one word-order edit with everything between (``ma kinkin`` -> ``kingin ma``),
    as corpora that annotate moves as one edit do (EstGEC's ``R:WO``).
    """

    agreement: bool = False
    periphrastic: bool = False
    punct: bool = False
    split_punct: bool = False
    moves: bool = False

    @property
    def is_default(self) -> bool:
        return self == MergeSettings()

    def to_dict(self) -> dict[str, bool]:
        return {"agreement": self.agreement, "periphrastic": self.periphrastic,
                "punct": self.punct, "split_punct": self.split_punct, "moves": self.moves}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> MergeSettings:
        unknown = set(data) - set(cls().to_dict())
        if unknown:
            raise ValueError(f"unknown merge setting(s): {', '.join(sorted(unknown))}")
        if not all(isinstance(v, bool) for v in data.values()):
            raise ValueError("merge settings are true or false")
        return cls(**data)  # type: ignore[arg-type]

    @classmethod
    def combinations(cls) -> list[MergeSettings]:
        """Every combination of the switches (what a profile's fit searches)."""
        names = list(cls().to_dict())
        return [cls(**{n: bool(k >> i & 1) for i, n in enumerate(names)})
                for k in range(2 ** len(names))]


def _feats(tok: Token) -> dict[str, str]:
    return dict(f.split("=", 1) for f in tok.feats.split("|") if "=" in f)


def _changed_agreement(o: Sequence[Token], c: Sequence[Token]) -> set[str]:
    """Agreement features a one-for-one substitution of nominal words changes."""
    if len(o) != len(c) or not o:
        return set()
    out: set[str] = set()
    for a, b in zip(o, c, strict=True):
        if a.pos not in AGREEMENT_POS or b.pos not in AGREEMENT_POS:
            return set()
        fa, fb = _feats(a), _feats(b)
        out |= {f for f in AGREEMENT_FEATS if fa.get(f) != fb.get(f) and (f in fa or f in fb)}
    return out


def _is_punct_only(toks: Sequence[Token]) -> bool:
    return all(is_punct(t) for t in toks)


def _split_punct(span: Span, orig: Sentence, cor: Sentence) -> list[Span]:
    """A word edit's leading/trailing punctuation inserted or deleted on one side only, as an
    edit of its own."""
    os_, oe, cs_, ce = span
    o, c = orig[os_:oe], cor[cs_:ce]
    if _is_punct_only(o) and _is_punct_only(c):
        return [span]
    lead: list[Span] = []
    tail: list[Span] = []
    # trailing punctuation present on one side only
    if ce > cs_ and is_punct(cor[ce - 1]) and not (oe > os_ and is_punct(orig[oe - 1])) \
            and ce - 1 > cs_:
        tail = [(oe, oe, ce - 1, ce)]
        ce -= 1
    elif oe > os_ and is_punct(orig[oe - 1]) and not (ce > cs_ and is_punct(cor[ce - 1])) \
            and oe - 1 > os_:
        tail = [(oe - 1, oe, ce, ce)]
        oe -= 1
    if ce > cs_ and is_punct(cor[cs_]) and not (oe > os_ and is_punct(orig[os_])) and ce > cs_ + 1:
        lead = [(os_, os_, cs_, cs_ + 1)]
        cs_ += 1
    elif oe > os_ and is_punct(orig[os_]) and not (ce > cs_ and is_punct(cor[cs_])) \
            and oe > os_ + 1:
        lead = [(os_, os_ + 1, cs_, cs_)]
        os_ += 1
    return lead + [(os_, oe, cs_, ce)] + tail


def apply_merge_settings(spans: Sequence[Span], orig: Sentence, cor: Sentence,
                         settings: MergeSettings) -> list[Span]:
    """``spans`` (in order) re-grouped by ``settings`` (:class:`MergeSettings`); the default
    settings return them unchanged."""
    out = [tuple(s[:4]) for s in spans]
    if settings.is_default:
        return list(spans)  # type: ignore[arg-type]
    if settings.split_punct:
        out = [p for s in out for p in _split_punct(s, orig, cor)]  # type: ignore[arg-type]
    if settings.moves:
        out = _join_moves(out, orig, cor)
    if settings.agreement:
        out = _join(out, lambda a, b: _agreement_join(a, b, orig, cor))
    if settings.periphrastic:
        out = _join(out, lambda a, b: _periphrastic_join(a, b, orig, cor))
    if settings.punct:
        out = _join(out, lambda a, b: _punct_join(a, b, orig, cor))
    return out  # type: ignore[return-value]


def _join(spans: list, test: Callable[[Span, Span], bool]) -> list:
    out: list = []
    for span in spans:
        if out and test(out[-1], span):
            prev = out[-1]
            out[-1] = (prev[0], span[1], prev[2], span[3])
        else:
            out.append(span)
    return out


def _agreement_join(a: Span, b: Span, orig: Sentence, cor: Sentence) -> bool:
    # the words between are unchanged, so the gap is as long on both sides
    if b[0] - a[1] != b[2] - a[3] or b[0] - a[1] > 3:
        return False
    if any(t.pos not in AGREEMENT_POS for t in orig[a[1]:b[0]]):
        return False
    fa = _changed_agreement(orig[a[0]:a[1]], cor[a[2]:a[3]])
    fb = _changed_agreement(orig[b[0]:b[1]], cor[b[2]:b[3]])
    return bool(fa & fb)


def _periphrastic_join(a: Span, b: Span, orig: Sentence, cor: Sentence) -> bool:
    if a[1] != b[0] or a[3] != b[2]:
        return False
    toks = [*orig[a[0]:b[1]], *cor[a[2]:b[3]]]
    pos = {t.pos for t in toks}
    return ("AUX" in pos and "VERB" in pos
            and pos <= PERIPHRASTIC_POS | _PERIPHRASTIC_GLUE)


def _punct_join(a: Span, b: Span, orig: Sentence, cor: Sentence) -> bool:
    if a[1] != b[0] or a[3] != b[2]:
        return False
    pa = _is_punct_only([*orig[a[0]:a[1]], *cor[a[2]:a[3]]])
    pb = _is_punct_only([*orig[b[0]:b[1]], *cor[b[2]:b[3]]])
    return pa != pb


#: the farthest a moved word travels (tokens between its deletion and its insertion)
MOVE_WINDOW = 6


def _moved(a: Sequence[Token], b: Sequence[Token]) -> bool:
    """The deleted words ``a`` reappear as ``b`` (same lemmas, or similar letters)."""
    if not a or not b or len(a) > 3 or len(b) > 3 or _is_punct_only(a) or _is_punct_only(b):
        return False
    if [t.lemma.lower() for t in a] == [t.lemma.lower() for t in b] and a[0].lemma:
        return True
    x, y = " ".join(t.lower for t in a), " ".join(t.lower for t in b)
    return 1 - Indel.normalized_distance(x, y) >= 0.6


def _join_moves(spans: list, orig: Sentence, cor: Sentence) -> list:
    """A pure deletion and a pure insertion of the same (or similar) words, at most
    :data:`MOVE_WINDOW` tokens apart, joined with every span between them."""
    out = list(spans)
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(out):
            for j in range(i + 1, len(out)):
                b = out[j]
                if b[0] - a[1] > MOVE_WINDOW:
                    break
                dele, ins = (a, b) if a[2] == a[3] else (b, a)
                if not (dele[2] == dele[3] and dele[0] < dele[1]
                        and ins[0] == ins[1] and ins[2] < ins[3]):
                    continue
                if _moved(orig[dele[0]:dele[1]], cor[ins[2]:ins[3]]):
                    group = out[i:j + 1]
                    joined = (min(s[0] for s in group), max(s[1] for s in group),
                              min(s[2] for s in group), max(s[3] for s in group))
                    out[i:j + 1] = [joined]
                    changed = True
                    break
            if changed:
                break
    return out
