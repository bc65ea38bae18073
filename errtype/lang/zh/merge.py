"""ChERRANT's merge rules (scorers/ChERRANT/modules/merger.py of HillZhang1999/MuCGEC), as the
Chinese language's ``merge_rules``: alignment operations -> edit spans, each with the operation
it settled on (``S``, ``D``, ``I`` or ``T<k>``), which the classifier turns into the type.

1. Runs of matches and of transpositions are kept apart from runs of other operations; a
   transposition is an edit of its own. A run of other operations becomes one edit: all
   deletions or all insertions merge; deletions mixed only with insertions stay split;
   substitutions merge at char level and stay split at word level; any other mix merges into
   one substitution (a run of matches merges too, and is dropped below).
2. Left to right, three consecutive items make one word-order edit ``T<n>`` (n = the source
   tokens covered):
   * substitution, match, substitution whose sides swap: exactly when a side is a single
     character, else within Levenshtein distance 1 each;
   * deletion, match or transposition, insertion (or insertion, ..., deletion) moving a text
     that is not punctuation (ChERRANT's substring test), the two texts at most one character
     apart in length and equal (one character), or within Levenshtein distance 1, or rotations
     of each other.
   Matches are then dropped.
3. An edit whose two sides read the same is dropped; a substitution whose sides share leading
   or trailing tokens (a segmentation artefact at word level) is trimmed to the rest, and
   becomes an insertion or deletion when one side is left empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from rapidfuzz.distance import Levenshtein

from ...align import AlignOp
from ...tokens import Sentence

#: an edit with its operation: (operation, o_start, o_end, c_start, c_end)
OpSpan = tuple[str, int, int, int, int]

#: ChERRANT's punctuation for the merge rules (ASCII punctuation, then its Chinese list)
MERGE_PUNCT = ("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
               "！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝"
               "～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟–—‘'‛“”„‟…‧.")


def _joined(op: OpSpan, o: Sequence[str], c: Sequence[str]) -> tuple[str, str]:
    return "".join(o[op[1]:op[2]]), "".join(c[op[3]:op[4]])


def _covering(items: Sequence[OpSpan], tag: str) -> OpSpan:
    return (tag, items[0][1], items[-1][2], items[0][3], items[-1][4])


def _run(run: list[OpSpan], char_level: bool) -> list[OpSpan]:
    """Step 1 for one run of operations."""
    if len(run) <= 1:
        return run
    ops = {r[0] for r in run}
    if ops in ({"D"}, {"I"}, {"M"}):
        return [_covering(run, ops.pop())]
    if ops == {"D", "I"} or (ops == {"S"} and not char_level):
        return run
    return [_covering(run, "S")]


def _swapped(first: OpSpan, third: OpSpan, o: Sequence[str], c: Sequence[str]) -> bool:
    """Step 2, substitution - match - substitution."""
    w1, w2 = _joined(first, o, c)
    w3, w4 = _joined(third, o, c)
    if min(len(w1), len(w2), len(w3), len(w4)) == 1:
        return w1 == w4 and w2 == w3
    return Levenshtein.distance(w1, w4) <= 1 and Levenshtein.distance(w2, w3) <= 1


def _moved(first: OpSpan, third: OpSpan, o: Sequence[str], c: Sequence[str]) -> bool:
    """Step 2, deletion - match - insertion (either order)."""
    deleted, inserted = (first, third) if first[0] == "D" else (third, first)
    a, b = "".join(o[deleted[1]:deleted[2]]), "".join(c[inserted[3]:inserted[4]])
    if len(a) < len(b):
        a, b = b, a
    if a in MERGE_PUNCT or b in MERGE_PUNCT or len(a) - len(b) > 1:
        return False
    if len(b) == 1:
        return a == b
    return Levenshtein.distance(a, b) <= 1 or (len(a) == len(b) and b in a + a)


def _word_order(edits: list[OpSpan], o: Sequence[str], c: Sequence[str]) -> list[OpSpan]:
    """Step 2: the three-item word-order patterns, then matches dropped."""
    out: list[OpSpan] = []
    i = 0
    while i < len(edits):
        e1 = edits[i][0][0]
        if i < len(edits) - 2:
            e2, e3 = edits[i + 1][0][0], edits[i + 2][0][0]
            if e1 == "S" and e2 == "M" and e3 == "S":
                merged = _swapped(edits[i], edits[i + 2], o, c)
            elif (e1, e3) in (("D", "I"), ("I", "D")) and e2 in ("M", "T"):
                merged = _moved(edits[i], edits[i + 2], o, c)
            else:
                merged = None
            if merged is not None:
                if merged:
                    out.append(_covering(edits[i:i + 3],
                                         f"T{edits[i + 2][2] - edits[i][1]}"))
                    i += 3
                else:
                    out.append(edits[i])
                    i += 1
                continue
        if e1 != "M":
            out.append(edits[i])
        i += 1
    return out


def _trimmed(edit: OpSpan, o: Sequence[str], c: Sequence[str]) -> OpSpan:
    """Step 3 for a substitution: shared leading, then trailing, tokens trimmed."""
    _, o_s, o_e, c_s, c_e = edit
    target = "".join(c[c_s:c_e])
    changed = False
    # leading: the longest run of source tokens that starts the target and ends on a target
    # token boundary
    common, o_next = "", o_s
    for i in range(o_s, o_e):
        if not target.startswith(common + o[i]):
            break
        common += o[i]
        o_next = i + 1
    new_o_s, new_c_s = o_s, c_s
    if common:
        acc = ""
        for i in range(c_s, c_e):
            acc += c[i]
            if acc == common:
                new_o_s, new_c_s, changed = o_next, i + 1, True
                break
            if len(acc) > len(common):
                break
    # trailing, within what is left of the source
    common, o_prev = "", o_e
    new_o_e, new_c_e = o_e, c_e
    for i in reversed(range(new_o_s, o_e)):
        if not target.endswith(o[i] + common):
            break
        common = o[i] + common
        o_prev = i
    if common:
        acc = ""
        for i in reversed(range(new_c_s, c_e)):
            acc = c[i] + acc
            if acc == common:
                new_o_e, new_c_e, changed = o_prev, i, True
                break
            if len(acc) > len(common):
                break
    if not changed:
        return edit
    op = "I" if new_o_s == new_o_e else "D" if new_c_s == new_c_e else "S"
    return (op, new_o_s, new_o_e, new_c_s, new_c_e)


def merge_ops(seq: Sequence[AlignOp], orig: Sentence, cor: Sentence, char_level: bool
              ) -> list[OpSpan]:
    """ChERRANT's edits of one alignment, each with its operation (see the module docstring)."""
    o, c = orig.texts, cor.texts
    edits: list[OpSpan] = []
    for key, group in groupby(seq, lambda a: a.op[0] if a.op[0] in "MT" else ""):
        items = [tuple(a) for a in group]
        edits.extend(items if key == "T" else _run(items, char_level))  # type: ignore[arg-type]
    out: list[OpSpan] = []
    for e in _word_order(edits, o, c):
        src, tgt = _joined(e, o, c)
        if src == tgt:
            continue
        out.append(_trimmed(e, o, c) if e[0] == "S" else e)
    return out
