"""Japanese backend: MeCab with UniDic (``fugashi`` + ``unidic-lite``) turns text written without
spaces into Sentences of UniDic short units with UD part-of-speech tags.

Every token gets the UniDic lemma (its disambiguating suffix dropped: ``私-代名詞`` -> ``私``),
a UPOS mapped from the UniDic part of speech (:data:`UPOS`), the UniDic part of speech as its
tag (``動詞-一般``) and, as features, the conjugated form of inflecting words (``Form=Renyo``,
``Form=RenyoI`` for the euphonic form; UniDic's ``cForm``) and the reading of the lemma
(``Reading=アツイ``, UniDic's ``lForm``; a lexical feature, see
:data:`errtype.lang.ud.morph.LEXICAL_FEATURES`), which tells homophones (``熱い``/``暑い``) and
script variants (``わたし``/``私``) apart from other words.

Raw text (``tokenize=True``) is segmented by MeCab; as in the M2 files of languages written
without spaces, tokens are followed by one space (edit strings are space-separated tokens).
Pre-tokenised text (an M2 ``S`` line: tokens separated by spaces) keeps its tokens: the joined
text is analysed once and each token takes the analysis of its morphemes (the last content
morpheme names a token of several); a token whose boundaries MeCab's segmentation crosses is
analysed on its own.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from types import SimpleNamespace
from typing import Any, NamedTuple

from ..errors import ResourceError
from ..tokens import Sentence, Token

__all__ = ["UPOS", "UniDicParser", "upos"]

#: UniDic part of speech (pos1, or "pos1-pos2") -> UPOS, following the UD Japanese treebanks
#: (case, topic and adverbial particles ADP, conjunctive particles SCONJ, auxiliaries AUX)
UPOS: dict[str, str] = {
    "名詞-普通名詞": "NOUN", "名詞-固有名詞": "PROPN", "名詞-数詞": "NUM",
    "名詞-助動詞語幹": "AUX", "名詞": "NOUN", "代名詞": "PRON",
    "形状詞-助動詞語幹": "AUX", "形状詞-タリ": "ADJ", "形状詞": "ADJ",
    "連体詞": "DET", "副詞": "ADV", "接続詞": "CCONJ", "感動詞": "INTJ",
    "動詞": "VERB", "形容詞-非自立可能": "AUX", "形容詞": "ADJ", "助動詞": "AUX",
    "助詞-格助詞": "ADP", "助詞-係助詞": "ADP", "助詞-副助詞": "ADP",
    "助詞-接続助詞": "SCONJ", "助詞-準体助詞": "SCONJ", "助詞-終助詞": "PART", "助詞": "PART",
    "接頭辞": "NOUN", "接尾辞-名詞的": "NOUN", "接尾辞-形容詞的": "ADJ",
    "接尾辞-動詞的": "VERB", "接尾辞-形状詞的": "ADJ", "接尾辞": "NOUN",
    "補助記号": "PUNCT", "記号": "SYM", "空白": "SPACE",
}
#: UniDic conjugated form (the part of cForm before "-") -> the value of the ``Form`` feature
FORMS: dict[str, str] = {
    "語幹": "Stem", "未然形": "Mizen", "意志推量形": "Ishi", "連用形": "Renyo",
    "終止形": "Shushi", "連体形": "Rentai", "仮定形": "Katei", "已然形": "Izen",
    "命令形": "Meirei", "ク語法": "Ku",
}
#: UniDic sub-form of a conjugated form (the part of cForm after "-") -> a suffix of its value:
#: the euphonic forms (``書い`` is 連用形-イ音便, ``書き`` 連用形-一般) are other forms
SUBFORMS: dict[str, str] = {"一般": "", "イ音便": "I", "ウ音便": "U", "促音便": "Sokuon",
                            "撥音便": "Hatsuon", "省略": "Short", "融合": "Fused",
                            "補助": "Aux"}
#: morphemes that never name a token of several (the content morpheme before them does)
_BOUND = frozenset({"AUX", "ADP", "SCONJ", "PART", "PUNCT"})


def upos(pos1: str, pos2: str) -> str:
    """The UPOS of a UniDic part of speech."""
    return UPOS.get(f"{pos1}-{pos2}") or UPOS.get(pos1, "X")


def _fugashi() -> Any:
    try:
        import fugashi
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ResourceError("the Japanese backend needs fugashi and a UniDic dictionary "
                            "(pip install 'errtype[ja]': fugashi, unidic-lite)") from exc
    return fugashi


class _Morpheme(NamedTuple):
    """One of MeCab's morphemes, copied out of its node."""

    surface: str
    white_space: str
    feature: Any


_NUL = "\x00"
#: the features of a morpheme MeCab did not analyse (every field unknown)
_NO_FEATURES = SimpleNamespace(pos1=None, pos2=None, pos3=None, lemma=None, cForm=None,
                               lForm=None)


def _field(value: Any) -> str:
    return "" if value in (None, "*") else str(value)


class UniDicParser:
    """Parser backed by MeCab + UniDic through ``fugashi`` (default dictionary: unidic-lite)."""

    name = "unidic"

    def __init__(self, tagger: Any = None) -> None:
        if tagger is None:
            try:
                tagger = _fugashi().Tagger()
            except RuntimeError as exc:
                raise ResourceError(f"cannot start MeCab with a UniDic dictionary: {exc}; "
                                    "pip install unidic-lite") from exc
        self.tagger = tagger
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "UniDicParser()"

    def _words(self, text: str) -> list[_Morpheme]:
        """MeCab's morphemes of ``text``, copied (MeCab reuses its nodes at the next call).
        MeCab reads a C string, which a NUL character ends: the text is analysed piece by piece
        between NUL characters, and each NUL is a morpheme of its own (tagged ``X``), so that no
        text is lost."""
        out: list[_Morpheme] = []
        with self._lock:
            for k, piece in enumerate(text.split(_NUL)):
                if k:
                    out.append(_Morpheme(_NUL, "", _NO_FEATURES))
                out.extend(_Morpheme(w.surface, w.white_space, w.feature)
                           for w in self.tagger(piece))
        return out

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        """Segment (``tokenize=True``) or keep the space-separated tokens, and tag."""
        text = text.replace("\r", " ").replace("\n", " ")
        if tokenize:
            words = [w for w in self._words(text) if w.surface.strip()]
            last = len(words) - 1
            tokens = [_with_ws(_token(w.surface, [w]), " " if k < last else "")
                      for k, w in enumerate(words)]
            return Sentence(_adjectival(tokens))
        given = text.split()
        return Sentence(_adjectival(self._pretokenised(given)))

    def _pretokenised(self, given: Sequence[str]) -> list[Token]:
        words = self._words("".join(given))
        spans, at = [], 0
        for w in words:
            at += len(w.white_space)
            spans.append((at, at + len(w.surface)))
            at += len(w.surface)
        out: list[Token] = []
        start = 0
        for n, tok in enumerate(given):
            end = start + len(tok)
            inside = [w for w, (s, e) in zip(words, spans, strict=True) if start <= s and e <= end]
            if sum(len(w.surface) for w in inside) != len(tok):
                inside = self._words(tok)   # MeCab's segmentation crosses this token
            out.append(_with_ws(_token(tok, inside), " " if n + 1 < len(given) else ""))
            start = end
        return out

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        """Parse each text in turn (lazily)."""
        for text in texts:
            yield self.parse(text, tokenize)


def _adjectival(tokens: list[Token]) -> list[Token]:
    """A noun UniDic says can be adjectival (``形状詞可能``: 親切, 有名) followed by the copula
    だ in an adjectival form (``親切 な 人``) is an adjective, as in the UD Japanese treebanks."""
    out = list(tokens)
    for k in range(len(out) - 1):
        t, nxt = out[k], out[k + 1]
        if (t.pos == "NOUN" and t.tag.endswith("形状詞可能") and nxt.pos == "AUX"
                and nxt.lemma == "だ"):
            out[k] = Token(t.text, t.lemma, "ADJ", t.tag, t.dep, t.head, t.feats, t.ws)
    return out


def _with_ws(tok: Token, ws: str) -> Token:
    return Token(tok.text, tok.lemma, tok.pos, tok.tag, tok.dep, tok.head, tok.feats, ws)


def _token(text: str, morphemes: Sequence[Any]) -> Token:
    """A token of ``text`` analysed as ``morphemes`` (one or more UniDic words)."""
    if not morphemes:
        return Token(text, text, "X")
    analysed = [(m, upos(_field(m.feature.pos1), _field(m.feature.pos2))) for m in morphemes]
    head = next((a for a in reversed(analysed) if a[1] not in _BOUND), analysed[-1])
    m, pos = head
    f = m.feature
    lemma = _field(f.lemma).split("-")[0] or text
    if len(morphemes) > 1 and head is not analysed[0]:
        lemma = text        # a compound (日本語): the token is its own lemma
    feats = []
    form, _, subform = _field(f.cForm).partition("-")
    if form:
        feats.append("Form=" + FORMS.get(form, "Other") + SUBFORMS.get(subform, subform and "X"))
    reading = _field(f.lForm)
    if reading and len(morphemes) == 1:
        feats.append("Reading=" + reading)
    tag = "-".join(p for p in (_field(f.pos1), _field(f.pos2), _field(f.pos3)) if p)
    return Token(text, lemma, pos, tag, "", -1, "|".join(feats))
