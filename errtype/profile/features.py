"""What a profile's model reads of an edit: names of binary features.

errtype's own type (and each of its prefixes and named UD features, and how many it names), the
operation, the UD POS and features of both sides and those that differ, the coarse word classes
of both sides (conjunction, relative word, pronominal, nominal, verbal, function word,
punctuation) and their pairs, lemma equality, the character distance, the shape of a rewrite
(one word or several, low or high overlap, a lemma shared or none), the lexicon's verdicts (and
their pair), the words themselves when short, the neighbouring tokens, whether the words just
before and after it are changed too (a rewrite in several edits) and, for a punctuation edit,
the classes of the words beside it. Read from the edit and its sentences only; the
classifier's rules are not changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rapidfuzz.distance import Indel

from ..edit import Edit
from ..lang.ud.morph import features
from ..merge import is_punct
from ..tokens import Sentence, Token

#: bumped whenever the features change (the type model's here, the span model's in
#: :mod:`.spanmodel`): a profile records it and is refused by another. 2: learned span step;
#: 3: word classes, rewrite shape, punctuation neighbours, lexicon pair, changed neighbours
FEATURES_VERSION = 3


def _side(name: str, toks: Sequence[Token], out: list[str]) -> None:
    out.append(f"{name}n={min(len(toks), 3)}")
    for t in toks:
        out.append(f"{name}pos={t.pos}")
        out.extend(f"{name}f={k}={v}" for k, v in features(t.feats).items())
    if toks:
        out.append(f"{name}all_punct={all(is_punct(t) for t in toks)}")
    if 0 < len(toks) <= 2:
        out.append(f"{name}w={' '.join(t.lower for t in toks)}")


#: coarse word classes of UD POS: a feature per class present on either side of an edit
_GROUP = {"CCONJ": "conj", "SCONJ": "conj", "PRON": "pronominal", "DET": "pronominal",
          "NOUN": "nominal", "PROPN": "nominal", "ADJ": "nominal", "NUM": "nominal",
          "VERB": "verbal", "AUX": "verbal", "ADP": "function", "PART": "function"}


def _group(tok: Token) -> str:
    """The coarse class of a token: ``rel`` for relative/interrogative words, else by POS."""
    if features(tok.feats).get("PronType") in ("Rel", "Int", "Int,Rel"):
        return "rel"
    return _GROUP.get(tok.pos, "punct" if is_punct(tok) else "other")


def _shape(o: Sequence[Token], c: Sequence[Token], before: Token | None,
           after: Token | None, out: list[str]) -> None:
    """Word classes involved, whether the words are rewritten rather than respelt, and the
    classes of the words next to a punctuation edit."""
    go, gc = {_group(t) for t in o}, {_group(t) for t in c}
    out.extend(f"grp={g}" for g in sorted(go | gc))
    out.extend(f"grp2={a}>{b}" for a in sorted(go or {"-"}) for b in sorted(gc or {"-"}))
    if o and c:
        ot = " ".join(t.lower for t in o)
        ct = " ".join(t.lower for t in c)
        sim = 1 - Indel.normalized_distance(ot, ct)
        lemmas = {t.lemma.lower() for t in o} & {t.lemma.lower() for t in c}
        multi = max(len(o), len(c)) > 1
        out.append(f"rewrite={'multi' if multi else 'one'}:{'low' if sim < 0.5 else 'high'}"
                   f":{'shared' if lemmas else 'none'}")
    if (o or c) and all(is_punct(t) for t in (*o, *c)):
        out.extend(f"punct_by={_group(t)}" for t in (before, after) if t is not None)


def _changed_by(edit: Edit, orig: Sentence, cor: Sentence) -> str:
    """Whether the word before and the word after the edit differ between the sentences
    (another change touches the edit there): ``both``, ``before``, ``after`` or ``none``."""
    def differs(i: int, j: int) -> bool:
        inside_o, inside_c = 0 <= i < len(orig), 0 <= j < len(cor)
        return inside_o != inside_c or (inside_o and orig[i].text != cor[j].text)

    b = differs(edit.o_start - 1, edit.c_start - 1)
    a = differs(edit.o_end, edit.c_end)
    return "both" if a and b else "before" if b else "after" if a else "none"


def edit_features(edit: Edit, orig: Sentence, cor: Sentence, etype: str,
                  is_valid_word: Callable[[str], bool] | None = None) -> list[str]:
    """The feature names of ``edit`` (typed ``etype`` by errtype) in its sentences."""
    o = orig[edit.o_start:edit.o_end]
    c = cor[edit.c_start:edit.c_end]
    out = [f"t={etype}", "bias"]
    parts = etype.split(":")
    out.extend(f"tp={':'.join(parts[:i])}" for i in range(1, len(parts)))
    if len(parts) > 1:
        named = parts[-1].split("+")
        out.extend(f"tfeat={f}" for f in named)
        out.append(f"tfeat_n={min(len(named), 3)}")
        out.append(f"tbare={':'.join(parts[1:2])}")
    out.append("op=" + ("M" if not o else "U" if not c else "R"))
    _side("o", o, out)
    _side("c", c, out)
    if o and c:
        a, b = o[-1], c[-1]
        out.append(f"pos2={a.pos}>{b.pos}")
        out.append(f"lemma_eq={a.lemma.lower() == b.lemma.lower()}")
        fa, fb = features(a.feats), features(b.feats)
        out.extend(f"dfeat={k}" for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k))
        ot = " ".join(t.text for t in o)
        ct = " ".join(t.text for t in c)
        out.append(f"case_only={ot.lower() == ct.lower()}")
        out.append(f"dist={min(5, int(10 * Indel.normalized_distance(ot.lower(), ct.lower())))}")
        out.append(f"nspace={ot.replace(' ', '') == ct.replace(' ', '')}")
        out.append(f"len={len(o)}>{len(c)}" if max(len(o), len(c)) <= 3 else "len=long")
        # what changed in the last words, past their common prefix (an ending, a letter)
        wa, wb = a.lower, b.lower
        k = 0
        while k < min(len(wa), len(wb)) and wa[k] == wb[k]:
            k += 1
        out.append(f"chg={wa[k:][-4:]}>{wb[k:][-4:]}")
        out.append(f"prefix={min(k, 4)}")
        out.append(f"sfx={wa[-2:]}>{wb[-2:]}")
        out.append(f"sfx1={wa[-1:]}>{wb[-1:]}")
        for x, y in zip(o, c, strict=False):
            fx, fy = features(x.feats), features(y.feats)
            out.extend(f"dfeat_any={f}" for f in set(fx) | set(fy) if fx.get(f) != fy.get(f))
    if is_valid_word is not None:
        verdicts = []
        for name, toks in (("o", o), ("c", c)):
            words = [t.text for t in toks if not is_punct(t)]
            verdicts.append(str(all(is_valid_word(w) for w in words)) if words else "-")
            if words:
                out.append(f"{name}lex={verdicts[-1]}")
        out.append(f"lexpair={verdicts[0]}>{verdicts[1]}")
    before = orig[edit.o_start - 1] if edit.o_start > 0 else None
    after = orig[edit.o_end] if edit.o_end < len(orig) else None
    _shape(o, c, before, after, out)
    out.append(f"changed_by={_changed_by(edit, orig, cor)}")
    out.append(f"prev={before.pos if before else '<s>'}")
    out.append(f"next={after.pos if after else '</s>'}")
    if before is not None and is_punct(before):
        out.append(f"prevw={before.text}")
    if after is not None and is_punct(after):
        out.append(f"nextw={after.text}")
    return out
