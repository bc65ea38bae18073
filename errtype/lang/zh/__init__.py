"""Chinese, as ChERRANT (HillZhang1999/MuCGEC, ``scorers/ChERRANT``, at commit 3922193) annotates
it, on errtype's engine.

* **Granularity** ``char`` (default: every character a token) or ``word`` (jieba's words and
  tags, mapped to UPOS by the pack); see :mod:`errtype.parse.segment`.
* **Costs**: ChERRANT's substitution cost (:mod:`.costs`: Cilin classes, confusion sets, pinyin,
  punctuation or tags) in the engine's DP; a transposition is a window whose tokens are the
  same multiset (case kept, unlike ERRANT).
* **Equal-cost alternatives**: every minimal-cost back-trace of the DP
  (:func:`errtype.align.cheapest_paths`), or only the first when the lengths differ by more than
  10 tokens, as ChERRANT does; each one merged, identical edit sequences listed once. They are
  the ``T{i}-A{j}`` lines of ChERRANT's M2 dialect.
* **Merging**: ChERRANT's rules (:mod:`.merge`), which settle each edit's operation.
* **Types**: at char granularity the operation only, in ChERRANT's letters: ``M`` missing
  (ERRANT's ``M``), ``R`` redundant (ERRANT's ``U``), ``S`` substitution (ERRANT's ``R``), ``W``
  word order. At word granularity the generic UD classifier's types (``scheme="errtype"``), or
  ChERRANT's word-level scheme (``scheme="cherrant"``, to come: the option reaches
  :meth:`Chinese.classify`).
* **References** are converted to simplified characters with OpenCC ``t2s`` before annotation
  (``simplified=False``: ChERRANT's ``--no_simplified``); the original is never converted.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from ...align import Alignment, AlignOp, cheapest_paths
from ...errors import ErrtypeError, ResourceError
from ...merge import MAX_RULE_RUN
from ...parse import Parser
from ...tokens import Sentence, Token
from ..base import Language
from ..options import LanguageOption
from ..packs import get_pack
from .costs import SubstitutionCost
from .merge import merge_ops
from .spelling import char_meta_path, sound_alike

if TYPE_CHECKING:
    from ...edit import Edit

__all__ = ["Chinese", "GRANULARITIES", "SCHEMES"]

GRANULARITIES = ("char", "word")
#: ``errtype``: the generic UD types at word level; ``cherrant``: ChERRANT's type set
SCHEMES = ("errtype", "cherrant")
#: Chinese's options (:class:`errtype.lang.options.LanguageOption`), as the commands offer them
OPTIONS = (
    LanguageOption("granularity", "tokens: characters (default; ChERRANT's char level) or words "
                                  "(segmented and tagged by jieba)", choices=GRANULARITIES),
    LanguageOption("scheme", "word-level error types: errtype's UD types (default) or ChERRANT's "
                             "(char level types are always ChERRANT's operation letters M/R/S/W)",
                   choices=SCHEMES),
    LanguageOption("simplified", "keep the references as written (default: converted to "
                                 "simplified characters with OpenCC t2s, as ChERRANT does)",
                   flags=("--no-simplified", "--no_simplified"), negative=True),
)
#: ChERRANT lists every equal-cost alternative only when the lengths differ by at most this
ALTERNATIVES_MAX_LENGTH_DIFFERENCE = 10
#: ChERRANT's type letter of each operation at char level
CHAR_TYPES = {"T": "W", "D": "R", "I": "M", "S": "S"}


class Chinese(Language):
    """Chinese (see the module docstring). Options: ``granularity`` (``char``/``word``),
    ``scheme`` (``errtype``/``cherrant``), ``simplified`` (convert references with OpenCC
    ``t2s``, default True)."""

    code = "zh"
    name = "Chinese"
    equal_cost_alternatives = True
    m2_dialect = "cherrant"
    spaced = False
    options: ClassVar[tuple[LanguageOption, ...]] = OPTIONS
    options_title: ClassVar[str | None] = "languages written without spaces (zh)"
    segmenter_hint: ClassVar[str] = "Chinese words: --granularity word"

    def __init__(self, granularity: str = "char", scheme: str = "errtype",
                 simplified: bool = True) -> None:
        if granularity not in GRANULARITIES:
            raise ValueError(f"granularity must be one of {', '.join(GRANULARITIES)}, "
                             f"not {granularity!r}")
        if scheme not in SCHEMES:
            raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, not {scheme!r}")
        if scheme == "cherrant" and granularity == "word":
            char_meta_path()  # ChERRANT's word types need the character table: refused now
        self.granularity = granularity
        self.scheme = scheme
        self.simplified = simplified

    def with_options(self, **options: Any) -> Chinese:
        names = [o.name for o in self.options]
        unknown = set(options) - set(names)
        if unknown:
            raise TypeError(f"unknown option(s) for Chinese: {', '.join(sorted(unknown))} "
                            f"(Chinese takes {', '.join(names)})")
        return type(self)(options.get("granularity", self.granularity),
                          options.get("scheme", self.scheme),
                          bool(options.get("simplified", self.simplified)))

    @property
    def char_level(self) -> bool:
        return self.granularity == "char"

    def unit_hint(self, unit: str) -> str | None:
        if unit == "char" and not self.char_level:
            return "extract the edits in characters too (--granularity char, the default)"
        return None

    # --- parsing ---------------------------------------------------------------------------

    def make_parser(self, **options: Any) -> Parser:
        from ...parse.segment import CharSegmenter, WordSegmenter

        if options:
            raise ErrtypeError("Chinese segments its text itself (--granularity char|word); "
                               f"it takes no parser options ({', '.join(sorted(options))})")
        if self.char_level:
            return CharSegmenter()
        pack = get_pack(self.code)
        return WordSegmenter(dict(pack.tag_map) if pack else {})

    def correction_text(self, text: str) -> str:
        """A reference as ChERRANT annotates it: without whitespace, then in simplified
        characters (OpenCC ``t2s``, which converts phrases, so after the whitespace is gone)
        unless ``simplified`` is off."""
        from ...parse.segment import unspaced

        text = unspaced(text)
        return self._t2s(text) if self.simplified else text

    @cached_property
    def _t2s(self) -> Any:
        try:
            from opencc import OpenCC
        except ImportError as exc:
            raise ResourceError("Chinese references are converted to simplified characters "
                                "with OpenCC: pip install 'errtype[zh]' (or pass "
                                "simplified=False / --no-simplified)") from exc
        return OpenCC("t2s").convert

    # --- alignment -------------------------------------------------------------------------

    @cached_property
    def _costs(self) -> SubstitutionCost:
        return SubstitutionCost(self.granularity)

    def substitution_cost(self, o: Token, c: Token) -> float:
        if self.char_level:
            return self._costs.chars(o.text, c.text)
        return self._costs.words(o.text, c.text, o.tag, c.tag)

    def substitution_matrix(self, orig: Sentence, cor: Sentence) -> list[list[float]] | None:
        if not self.char_level:
            return None
        return self._costs.matrix(orig.texts, cor.texts)

    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        return sorted(t.text for t in o) == sorted(t.text for t in c)

    transposition_key_window = 2

    def transposition_keys(self, sent: Sentence) -> Sequence[object] | None:
        return sent.texts

    def alignments(self, alignment: Alignment) -> list[list[AlignOp]]:
        """ChERRANT's equal-cost alignments: all minimal-cost back-traces, or only the first
        when the lengths differ by more than 10 tokens."""
        far = abs(len(alignment.orig) - len(alignment.cor)) > ALTERNATIVES_MAX_LENGTH_DIFFERENCE
        return cheapest_paths(alignment, first_only=far)

    # --- merging and typing ----------------------------------------------------------------

    def merge_rules(self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
                    run_limit: int = MAX_RULE_RUN) -> list[tuple[int, int, int, int, str]]:
        """ChERRANT's merge rules; each span carries its operation (``S``, ``D``, ``I``,
        ``T<k>``) as the edit's provisional type, which :meth:`classify` reads."""
        return [(o_s, o_e, c_s, c_e, op)
                for op, o_s, o_e, c_s, c_e in merge_ops(seq, orig, cor, self.char_level)]

    @staticmethod
    def operation(edit: Edit, orig: Sentence, cor: Sentence) -> str:
        """The edit's operation letter: from the merger (its provisional type), else from the
        spans (an edit merged another way, or read from an M2 file)."""
        if edit.type[:1] in CHAR_TYPES:
            return edit.type[0]
        if edit.type[:1] == "W":
            return "T"
        if edit.o_start == edit.o_end:
            return "I"
        if edit.c_start == edit.c_end:
            return "D"
        o = sorted(orig.texts[edit.o_start:edit.o_end])
        return "T" if o == sorted(cor.texts[edit.c_start:edit.c_end]) else "S"

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        op = self.operation(edit, orig, cor)
        if self.char_level:
            return CHAR_TYPES[op]
        if self.scheme == "cherrant":
            return self.cherrant_word_type(edit, orig, cor, op)
        if op == "S" and sound_alike(edit.o_str.replace(" ", ""), edit.c_str.replace(" ", "")):
            return "R:SPELL"
        return self._generic.classify(edit.with_type("NA"), orig, cor)

    def cherrant_word_type(self, edit: Edit, orig: Sentence, cor: Sentence, op: str) -> str:
        """ChERRANT's word-level type of an edit with operation ``op``
        (:func:`.cherrant_types.cherrant_type`)."""
        from .cherrant_types import cherrant_type
        from .spelling import char_table

        return cherrant_type(op, orig[edit.o_start:edit.o_end], cor[edit.c_start:edit.c_end],
                             char_table())

    @cached_property
    def _generic(self) -> Any:
        from ..ud import make_classifier
        return make_classifier(self.code)
