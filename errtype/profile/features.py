"""What a profile's model reads of an edit: names of binary features.

errtype's own type (and each of its prefixes and named UD features), the operation, the UD POS
and features of both sides and those that differ, lemma equality, the character distance, the
lexicon's verdicts, the words themselves when short, and the neighbouring tokens. Read from the
edit and its sentences only; the classifier's rules are not changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rapidfuzz.distance import Indel

from ..edit import Edit
from ..merge import is_punct
from ..tokens import Sentence, Token

#: bumped whenever the features change (the type model's here, the span model's in
#: :mod:`.spanmodel`): a profile records it and is refused by another. 2: learned span step
FEATURES_VERSION = 2


def _feats(tok: Token) -> dict[str, str]:
    return dict(f.split("=", 1) for f in tok.feats.split("|") if "=" in f)


def _side(name: str, toks: Sequence[Token], out: list[str]) -> None:
    out.append(f"{name}n={min(len(toks), 3)}")
    for t in toks:
        out.append(f"{name}pos={t.pos}")
        out.extend(f"{name}f={k}={v}" for k, v in _feats(t).items())
    if toks:
        out.append(f"{name}all_punct={all(is_punct(t) for t in toks)}")
    if 0 < len(toks) <= 2:
        out.append(f"{name}w={' '.join(t.lower for t in toks)}")


def edit_features(edit: Edit, orig: Sentence, cor: Sentence, etype: str,
                  is_valid_word: Callable[[str], bool] | None = None) -> list[str]:
    """The feature names of ``edit`` (typed ``etype`` by errtype) in its sentences."""
    o = orig[edit.o_start:edit.o_end]
    c = cor[edit.c_start:edit.c_end]
    out = [f"t={etype}", "bias"]
    parts = etype.split(":")
    out.extend(f"tp={':'.join(parts[:i])}" for i in range(1, len(parts)))
    if len(parts) > 1:
        out.extend(f"tfeat={f}" for f in parts[-1].split("+"))
        out.append(f"tbare={':'.join(parts[1:2])}")
    out.append("op=" + ("M" if not o else "U" if not c else "R"))
    _side("o", o, out)
    _side("c", c, out)
    if o and c:
        a, b = o[-1], c[-1]
        out.append(f"pos2={a.pos}>{b.pos}")
        out.append(f"lemma_eq={a.lemma.lower() == b.lemma.lower()}")
        fa, fb = _feats(a), _feats(b)
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
            fx, fy = _feats(x), _feats(y)
            out.extend(f"dfeat_any={f}" for f in set(fx) | set(fy) if fx.get(f) != fy.get(f))
    if is_valid_word is not None:
        for name, toks in (("o", o), ("c", c)):
            words = [t.text for t in toks if not is_punct(t)]
            if words:
                out.append(f"{name}lex={all(is_valid_word(w) for w in words)}")
    before = orig[edit.o_start - 1] if edit.o_start > 0 else None
    after = orig[edit.o_end] if edit.o_end < len(orig) else None
    out.append(f"prev={before.pos if before else '<s>'}")
    out.append(f"next={after.pos if after else '</s>'}")
    if before is not None and is_punct(before):
        out.append(f"prevw={before.text}")
    if after is not None and is_punct(after):
        out.append(f"nextw={after.text}")
    return out
