"""ChERRANT's substitution cost between two Chinese tokens (scorers/ChERRANT/modules/alignment.py
of HillZhang1999/MuCGEC): meaning, from the semantic thesaurus Cilin (同义词词林), plus form, from
the character confusion sets and pinyin, plus a punctuation or part-of-speech term.

* meaning: 4 when either token is not in Cilin, 0 for the same class, else 2 x the number of
  levels (of three: letter, letter, two digits) on which the classes differ; divided by 6;
* form: 0.5 unless both tokens are all CJK Unified Ideographs (U+4E00-U+9FFF); else, for each
  character of the shorter token, whether some character of the longer one is the same, in the
  confusion set of the other, or the two tokens share a reading (any heteronym of the first
  pinyin item pypinyin gives for the token); cost = (unmatched characters) / (2 x length);
* char granularity: 0 when both are punctuation, 0.25 when neither is, else 0.499 ("is
  punctuation" is ChERRANT's substring test against its punctuation string); word granularity:
  0 for equal tags, else 0.499.

Sums are taken in ChERRANT's order (meaning + form + punctuation at char level, meaning + tag +
form at word level) so that equal-cost alternatives tie exactly as they do there. Every cost is
cached per pair of token texts (and tags).
"""

from __future__ import annotations

import gzip
import string
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from ...data import resource_path

#: ChERRANT's punctuation for the alignment cost (its Chinese list, then ASCII punctuation)
ALIGN_PUNCT = ("！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝"
               "～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘'‛“”„‟…‧﹏"
               + string.punctuation)

#: the token ChERRANT keeps whole in char mode (its marker of a missing constituent)
MISSING = "[缺失成分]"


@lru_cache(maxsize=1)
def cilin() -> dict[str, tuple[str, str, str]]:
    """Cilin word -> (level 1, level 2, levels 3) of its class code; a later line wins, as in
    ChERRANT's reader (the file is GBK)."""
    with gzip.open(resource_path("zh/cilin.txt.gz"), "rb") as fh:
        text = fh.read().decode("gbk")
    out: dict[str, tuple[str, str, str]] = {}
    for line in text.strip().split("\n"):
        code, *words = line.split(" ")
        cls = (code[0], code[1], code[2:4])
        for w in words:
            out[w] = cls
    return out


@lru_cache(maxsize=1)
def confusion() -> dict[str, frozenset[str]]:
    """Character -> the characters of its confusion set (a later line for the same character
    replaces an earlier one, as in ChERRANT's reader)."""
    out: dict[str, frozenset[str]] = {}
    with gzip.open(resource_path("zh/confusion_dict.txt.gz"), "rt", encoding="utf-8") as fh:
        for line in fh:
            items = line.rstrip("\n").split(" ")
            out[items[0]] = frozenset(items[1:])
    return out


def _pinyin_function() -> Callable[[str], frozenset[str]]:
    try:
        from pypinyin import Style, pinyin
    except ImportError as exc:
        from ...errors import ResourceError
        raise ResourceError("Chinese needs pypinyin: pip install 'errtype[zh]'") from exc

    @cache
    def readings(token: str) -> frozenset[str]:
        return frozenset(pinyin(token, style=Style.NORMAL, heteronym=True)[0])

    return readings


def _all_cjk(text: str) -> bool:
    return all("\u4e00" <= ch <= "\u9fff" for ch in text)


class SubstitutionCost:
    """ChERRANT's substitution cost for one granularity (``"char"`` or ``"word"``); call with
    two token texts (and their tags at word level). The texts are assumed to differ."""

    def __init__(self, granularity: str) -> None:
        if granularity not in ("char", "word"):
            raise ValueError(f"granularity must be 'char' or 'word', not {granularity!r}")
        self.granularity = granularity
        self._cilin = cilin()
        self._confusion = confusion()
        self._readings = _pinyin_function()
        self._cache: dict[tuple[str, str], float] = {}
        #: char granularity: token -> {other token: cost} (0.0 for itself)
        self._rows: dict[str, dict[str, float]] = {}

    def meaning(self, a: str, b: str) -> float:
        ca, cb = self._cilin.get(a), self._cilin.get(b)
        if ca is None or cb is None:
            return 4
        if ca == cb:
            return 0
        return 2 * (3 - sum(x == y for x, y in zip(ca, cb, strict=True)))

    def form(self, a: str, b: str) -> float:
        if not (_all_cjk(a) and _all_cjk(b)):
            return 0.5
        if len(a) > len(b):
            a, b = b, a
        if a == b:
            return 0
        shared = bool(self._readings(a) & self._readings(b))
        conf = self._confusion
        matched = 0
        for x in a:
            for y in b:
                if x == y or shared or x in conf.get(y, ()) or y in conf.get(x, ()):
                    matched += 1
                    break
        return (len(a) - matched) / (len(a) * 2)

    def chars(self, a: str, b: str) -> float:
        """Char granularity: the cost of substituting token ``a`` by ``b``."""
        key = (a, b)
        cost = self._cache.get(key)
        if cost is None:
            pa, pb = a in ALIGN_PUNCT, b in ALIGN_PUNCT
            punct = 0.0 if pa and pb else 0.25 if not (pa or pb) else 0.499
            cost = self._cache[key] = self.meaning(a, b) / 6.0 + self.form(a, b) + punct
        return cost

    def matrix(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> list[list[float]]:
        """Char granularity: ``chars(o, c)`` for every pair (0.0 where the texts are equal),
        one row per original token; rows of equal tokens are the same list (read-only)."""
        rows: dict[str, list[float]] = {}
        out = []
        known = self._rows
        distinct = dict.fromkeys(c_texts)
        for o in o_texts:
            row = rows.get(o)
            if row is None:
                costs = known.get(o)
                if costs is None:
                    costs = known[o] = {o: 0.0}
                missing = [c for c in distinct if c not in costs]
                if missing:
                    self._fill_row(o, missing, costs)
                row = rows[o] = list(map(costs.__getitem__, c_texts))
            out.append(row)
        return out

    def _fill_row(self, o: str, others: Sequence[str], costs: dict[str, float]) -> None:
        """``costs[c] = chars(o, c)`` for each of ``others``: the sum of :meth:`chars`, spelt
        out for two single characters (the same floating-point operations, in its order)."""
        if len(o) != 1:
            for c in others:
                costs[c] = self.chars(o, c)
            return
        cls_o = self._cilin.get(o)
        cjk_o = "\u4e00" <= o <= "\u9fff"
        read_o = self._readings(o) if cjk_o else frozenset()
        conf = self._confusion
        conf_o = conf.get(o, frozenset())
        punct_o = o in ALIGN_PUNCT
        cilin_get, readings = self._cilin.get, self._readings
        for c in others:
            if len(c) != 1:
                costs[c] = self.chars(o, c)
                continue
            cls_c = cilin_get(c)
            if cls_o is None or cls_c is None:
                meaning = 4
            elif cls_o == cls_c:
                meaning = 0
            else:
                meaning = 2 * (3 - ((cls_o[0] == cls_c[0]) + (cls_o[1] == cls_c[1])
                                    + (cls_o[2] == cls_c[2])))
            if cjk_o and "\u4e00" <= c <= "\u9fff":
                close = read_o & readings(c) or c in conf_o or o in conf.get(c, ())
                form = 0.0 if close else 0.5
            else:
                form = 0.5
            punct_c = c in ALIGN_PUNCT
            punct = 0.0 if punct_o and punct_c else 0.25 if not (punct_o or punct_c) else 0.499
            costs[c] = meaning / 6.0 + form + punct

    def words(self, a: str, b: str, tag_a: str, tag_b: str) -> float:
        """Word granularity: the cost of substituting word ``a`` (tag ``tag_a``) by ``b``."""
        key = (a, b)
        base = self._cache.get(key)
        if base is None:
            base = self._cache[key] = self.meaning(a, b) / 6.0
        return base + (0 if tag_a == tag_b else 0.499) + self.form(a, b)
