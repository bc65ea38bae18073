"""English error-type classifier: ERRANT 3.0.2's rules, in order (spec §6)."""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

from ...tokens import Sentence, Token
from ..base import prefixed_type
from . import lancaster
from .resources import tag_map, word_list

OPEN_POS = frozenset({"ADJ", "ADV", "NOUN", "VERB"})
RARE_POS = frozenset({"INTJ", "NUM", "SYM", "X"})
CONTRACTIONS = frozenset({"'d", "'ll", "'m", "n't", "'re", "'s", "'ve"})
AUX_CONTRACTIONS = {"ca": "can", "sha": "shall", "wo": "will"}
DEP_MAP = {"acomp": "ADJ", "amod": "ADJ", "advmod": "ADV", "det": "DET", "prep": "PREP",
           "prt": "PART", "punct": "PUNCT"}
_UPOS_FALLBACK = {"ADP": "PREP", "PROPN": "NOUN", "CCONJ": "CONJ", "SCONJ": "PREP", "AUX": "VERB"}

Toks = Sequence[Token]


def classify_span(o: Toks, c: Toks, o_str: str, c_str: str, orig: Sentence, cor: Sentence,
                  o_first: int, c_first: int) -> str:
    """Type of the edit whose sides are ``o`` (from orig[o_first]) and ``c`` (from cor[c_first])."""
    return prefixed_type(o, c, o_str == c_str, one_sided,
                         lambda o2, c2: two_sided(o2, c2, orig, cor, o_first, c_first))


def _pos(toks: Toks) -> list[str]:
    """Classifier POS from the fine tag; unknown tags fall back to the UPOS (ERRANT: KeyError)."""
    tmap = tag_map()
    out = []
    for t in toks:
        mapped = tmap.get(t.tag)
        if mapped is None:
            mapped = _UPOS_FALLBACK.get(t.pos, t.pos or "X")
        out.append(mapped)
    return out


def one_sided(toks: Toks) -> str:
    """Type of a missing (M:) or unnecessary (U:) span."""
    pos = _pos(toks)
    deps = [t.dep for t in toks]
    if len(toks) == 1:
        t = toks[0]
        if t.tag == "POS":
            return "NOUN:POSS"
        if t.lower in CONTRACTIONS:
            return "CONTR"
        if t.lower == "to" and t.pos == "PART" and t.dep != "prep":
            return "VERB:FORM"
    if set(deps) <= {"aux", "auxpass"}:
        return "VERB:TENSE"
    if len(set(pos)) == 1 and pos[0] not in RARE_POS:
        return pos[0]
    if len(set(deps)) == 1 and deps[0] in DEP_MAP:
        return DEP_MAP[deps[0]]
    if set(pos) == {"PART", "VERB"}:
        return "VERB"
    return "OTHER"


def _sim(a: str, b: str) -> float:
    return Levenshtein.normalized_similarity(a, b)


def two_sided(o: Toks, c: Toks, orig: Sentence, cor: Sentence, o_first: int, c_first: int) -> str:
    """Type of a replacement."""
    o_pos, c_pos = _pos(o), _pos(c)
    o_dep, c_dep = [t.dep for t in o], [t.dep for t in c]
    o_low, c_low = [t.lower for t in o], [t.lower for t in c]
    if "".join(o_low) == "".join(c_low):
        return "ORTH"
    if sorted(o_low) == sorted(c_low):
        return "WO"
    if len(o) == 1 and len(c) == 1:
        found = _one_to_one(o[0], c[0], o_pos, c_pos, o_dep, c_dep, orig, cor, o_first, c_first)
        if found:
            return found
    return _multi(o, c, o_pos, c_pos, o_dep, c_dep)


def _one_to_one(O: Token, C: Token, o_pos: list[str], c_pos: list[str], o_dep: list[str],
                c_dep: list[str], orig: Sentence, cor: Sentence, o_i: int, c_i: int) -> str | None:
    """The 1:1 rules; None means fall through to the multi-token rules (ERRANT quirk)."""
    ol, cl = O.lower, C.lower
    # special cases
    if O.tag == "POS" or C.tag == "POS":
        return "NOUN:POSS"
    if (ol in CONTRACTIONS or cl in CONTRACTIONS) and o_pos == c_pos:
        return "CONTR"
    if ((ol in AUX_CONTRACTIONS and cl == AUX_CONTRACTIONS[ol])
            or (cl in AUX_CONTRACTIONS and ol == AUX_CONTRACTIONS[cl])):
        return "CONTR"
    if ol in AUX_CONTRACTIONS or cl in AUX_CONTRACTIONS:
        return "VERB:TENSE"
    if {ol, cl} == {"was", "were"}:
        return "VERB:SVA"
    # spelling
    words = word_list()
    if O.text.isalpha() and O.text not in words and ol not in words:
        if O.lemma == C.lemma:
            if o_pos == c_pos and o_pos[0] in ("NOUN", "VERB"):
                return o_pos[0] + ":INFL"
            return "MORPH"
        sim = _sim(ol, cl)
        if sim > 0.55:
            return "SPELL"
        if (sim == 0.5 or round(sim, 3) == 0.333) and len(O.text) <= 4 and len(C.text) <= 4:
            return "SPELL"
        return c_pos[0] if c_pos[0] not in RARE_POS else "OTHER"
    # inflection
    if O.lemma == C.lemma and o_pos[0] in OPEN_POS and c_pos[0] in OPEN_POS:
        if o_pos == c_pos:
            if o_pos[0] == "ADJ":
                return "ADJ:FORM"
            if o_pos[0] == "NOUN":
                return "NOUN:NUM"
            if o_pos[0] == "VERB":
                if _preceded_by_aux(orig, cor, o_i, c_i):
                    return "VERB:FORM"
                if O.tag in ("VBG", "VBN") or C.tag in ("VBG", "VBN"):
                    return "VERB:FORM"
                if O.tag == "VBD" or C.tag == "VBD":
                    return "VERB:TENSE"
                if O.tag == "VBZ" or C.tag == "VBZ":
                    return "VERB:SVA"
                if O.dep.startswith("aux") and C.dep.startswith("aux"):
                    return "VERB:TENSE"
        if set(o_dep + c_dep) <= {"acomp", "amod"}:
            return "ADJ:FORM"
        if o_pos[0] == "ADJ" and C.tag == "NNS":
            return "NOUN:NUM"
        if C.tag in ("VBG", "VBN"):
            return "VERB:FORM"
        if C.tag == "VBD":
            return "VERB:TENSE"
        if C.tag == "VBZ":
            return "VERB:SVA"
        return "MORPH"
    # derivation
    if (lancaster.stem(O.text) == lancaster.stem(C.text)
            and o_pos[0] in OPEN_POS and c_pos[0] in OPEN_POS):
        return "MORPH"
    # general
    if O.dep.startswith("aux") and C.dep.startswith("aux"):
        return "VERB:TENSE"
    if o_pos == c_pos and o_pos[0] not in RARE_POS:
        return o_pos[0]
    if o_dep == c_dep and o_dep[0] in DEP_MAP:
        return DEP_MAP[o_dep[0]]
    pos_set = set(o_pos + c_pos)
    if pos_set == {"PART", "PREP"} or set(o_dep + c_dep) == {"prt", "prep"}:
        return "PART"
    if pos_set == {"DET", "PRON"}:
        if c_dep[0] in ("nsubj", "nsubjpass", "dobj", "pobj"):
            return "PRON"
        if c_dep[0] == "poss":
            return "DET"
    if pos_set == {"NUM", "DET"}:
        return "DET"
    if {ol, cl} == {"other", "another"}:
        return "DET"
    if ol == "your" and cl == "yours":
        return "PRON"
    if {ol, cl} == {"no", "not"}:
        return "OTHER"
    # string similarity
    if not (O.text.isalpha() and C.text.isalpha()):
        return "OTHER"
    return _similarity(O, C, c_pos[0])


def _similarity(O: Token, C: Token, cp: str) -> str | None:
    ol, cl = O.lower, C.lower
    sim = _sim(ol, cl)
    lo, lc = len(O.text), len(C.text)
    open_c = cp not in RARE_POS
    if lo == 1:
        if lc == 2 and sim == 0.5:
            return "SPELL"
    elif lo == 2:
        if 2 <= lc <= 3 and sim >= 0.5:
            return "SPELL"
    elif lo == 3:
        if (ol == "the" and cl == "that") or (ol == "all" and cl == "everything"):
            return "PRON"
        if 2 <= lc <= 4 and sim >= 0.5:
            return "SPELL"
    elif lo == 4:
        if {ol, cl} == {"that", "what"}:
            return "PRON"
        if {ol, cl} == {"good", "well"} and open_c:
            return cp
        if (lc == 3 and sim > 0.5) or (lc == 4 and sim >= 0.5) or (lc == 5 and sim == 0.8):
            return "SPELL"
        if lc > 5 and sim > 0.5 and open_c:
            return cp
    elif lo == 5:
        if {ol, cl} == {"after", "later"} and open_c:
            return cp
        if (lc == 4 and sim == 0.8) or (lc == 5 and sim >= 0.6):
            return "SPELL"
        if lc > 5 and open_c:
            return cp
    if lo > 5 and lc > 5:
        if (ol == "therefor" and cl == "therefore") or {ol, cl} == {"though", "thought"}:
            return "SPELL"
        if (O.text.startswith(C.text) or C.text.startswith(O.text)) and sim >= 0.66:
            return "MORPH"
        if sim > 0.8:
            return "SPELL"
        if sim < 0.55 and open_c:
            return cp
    return None


def _multi(o: Toks, c: Toks, o_pos: list[str], c_pos: list[str], o_dep: list[str],
           c_dep: list[str]) -> str:
    """Multi-token rules (also reached by 1:1 edits that no 1:1 rule typed)."""
    pos_set = set(o_pos + c_pos)
    dep_set = set(o_dep + c_dep)
    if dep_set <= {"aux", "auxpass"}:
        return "VERB:TENSE"
    if len(pos_set) == 1:
        if o_pos[0] == "VERB" and o[-1].lemma == c[-1].lemma:
            return "VERB:TENSE"
        if o_pos[0] not in RARE_POS:
            return o_pos[0]
    if len(dep_set) == 1 and o_dep[0] in DEP_MAP:
        return DEP_MAP[o_dep[0]]
    if pos_set == {"PART", "VERB"}:
        return "VERB:FORM" if o[-1].lemma == c[-1].lemma else "VERB"
    if (o_pos == ["NOUN", "PART"] or c_pos == ["NOUN", "PART"]) and o[0].lemma == c[0].lemma:
        return "NOUN:POSS"
    if ((o[0].lower in ("most", "more") or c[0].lower in ("most", "more"))
            and o[-1].lemma == c[-1].lemma and len(o) <= 2 and len(c) <= 2):
        return "ADJ:FORM"
    return "OTHER"


def _first_aux_child(sent: Sentence, head: int) -> Token | None:
    for k in sent.children(head):
        if sent[k].dep.startswith("aux"):
            return sent[k]
    return None


def _preceded_by_aux(orig: Sentence, cor: Sentence, o_i: int, c_i: int) -> bool:
    """Whether both first tokens are governed by / carry an auxiliary (ERRANT's test)."""
    O, C = orig[o_i], cor[c_i]
    if O.dep.startswith("aux") and C.dep.startswith("aux"):
        o_aux = _first_aux_child(orig, O.head) if 0 <= O.head < len(orig) else None
        if o_aux is not None and o_aux.text != O.text:
            c_aux = _first_aux_child(cor, C.head) if 0 <= C.head < len(cor) else None
            if c_aux is not None and c_aux.text != C.text:
                return True
        return False
    o_deps = {orig[k].dep for k in orig.children(o_i)}
    c_deps = {cor[k].dep for k in cor.children(c_i)}
    return bool(o_deps & {"aux", "auxpass"}) and bool(c_deps & {"aux", "auxpass"})
