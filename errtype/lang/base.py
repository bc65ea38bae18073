"""Language: everything language-specific the engine needs, supplied as methods.

A language plugs into the pipeline stages (alignment costs, transposition test, merge rules,
classifier, default parser) instead of forking them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rapidfuzz.distance import Indel

from ..align import Alignment, AlignOp
from ..errors import ResourceError
from ..parse import Parser
from ..tokens import Sentence, Token
from .options import LanguageOption

if TYPE_CHECKING:
    from ..edit import Edit

__all__ = ["AlignOp", "CONTENT_POS", "Classifier", "Language", "Merger", "Parser",
           "linguistic_cost", "prefixed_type"]

#: an edit span (o_start, o_end, c_start, c_end)
Span = tuple[int, int, int, int]


class Classifier(Protocol):
    """What types edits: ``classify(edit, orig, cor)`` -> the type with its M:/U:/R: prefix."""

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str: ...


#: merge rules: ``merger(alignment, orig, cor, run_limit)`` -> edit spans
Merger = Callable[[Sequence[AlignOp], Sentence, Sentence, int], list[Span]]

#: the option of the languages typed by the generic UD classifier (and Czech's)
FEATS = LanguageOption(
    "feats", "UD languages: name the differing UD features of inflection errors "
             "(R:NOUN:INFL:Case)")

#: a corpus profile (:mod:`errtype.profile`): the span granularity and categories of a corpus
PROFILE = LanguageOption(
    "profile", "UD languages: a corpus profile fitted by 'errtype fit' (JSON): extract with the "
               "corpus's span granularity and type in its categories", metavar="PROFILE.json",
    path=True)

#: open-class UPOS for the substitution cost (0.25 between two of them instead of 0.5)
CONTENT_POS = frozenset({"ADJ", "ADV", "NOUN", "VERB"})


class Language:
    """Base class of a language plug-in.

    Every hook has a language-independent default, so a language needs only a pack row
    (:mod:`errtype.lang.packs`): ERRANT's linguistic cost with an Indel character cost and
    ERRANT's case-insensitive transposition test here; the parser, the merge rules and the
    classifier from the components below, which whoever builds the language supplies (the
    registry, :func:`errtype.lang.get_language`, gives the pack's backends, ERRANT 2.0.0's merge
    rules and the generic UD classifier). This class knows no subclass and no merge rules.
    """

    code: str = ""
    name: str = ""
    #: transposition walk condition: False = neighbouring diagonal cells differ (ERRANT >= 2.1),
    #: True = the later cell is strictly larger (ERRANT 2.0.0 / Czech ERRANT).
    strict_walk: bool = False
    #: name the differing UD features of inflection errors (``R:NOUN:INFL:Case``)
    feats: bool = False
    #: the corpus profile applied (its path or :class:`errtype.profile.Profile`), or None
    profile: Any = None
    #: words are separated by spaces; False for a language written without them (Japanese):
    #: raw text is then always segmented by the parser, while M2 sentences keep their tokens
    spaced: bool = True
    #: annotation lists every equal-cost edit sequence of a correction (:meth:`alignments`)
    equal_cost_alternatives: bool = False
    #: the M2 dialect errtype-m2 writes: ``standard`` or ``cherrant`` (T lines, see errtype.m2)
    m2_dialect: str = "standard"
    #: the options this language takes (:meth:`with_options`), as data the commands and
    #: :class:`errtype.Annotator` build from; each is an attribute of the configured language
    options: ClassVar[tuple[LanguageOption, ...]] = (FEATS, PROFILE)
    #: the command line's heading of the options, None: with the backend options
    options_title: ClassVar[str | None] = None
    #: how to segment as a segmented gold was segmented (scoring text written without spaces)
    segmenter_hint: ClassVar[str] = ""
    #: ``factory(code, options)``: the parser of :meth:`make_parser`
    parser_factory: Callable[[str, dict[str, Any]], Parser] | None = None
    #: the merge rules of :meth:`merge_rules`
    merger: Merger | None = None
    #: ``factory(code, feats)``: the classifier of :meth:`classify`, built at first use
    classifier_factory: Callable[[str, bool], Classifier] | None = None

    def _component(self, name: str) -> Any:
        found = getattr(self, name)
        if found is None:
            raise ResourceError(f"language {self.code or type(self).__name__!r} has no {name}: "
                                "override the hook or build it with errtype.lang.get_language")
        return found

    def make_parser(self, **options: Any) -> Parser:
        """The default parser of this language, configured by backend options (``nlp``,
        ``spacy_model``, ``udpipe_model``, ``backend``): :attr:`parser_factory` (from the
        registry: :func:`errtype.lang.ud.backend.default_parser`)."""
        return self._component("parser_factory")(self.code, options)

    def with_options(self, **options: Any) -> Language:
        """A copy of this language with classifier options (``feats=True``, ``profile=PATH``:
        :func:`errtype.profile.apply.profiled`) applied."""
        unknown = set(options) - {o.name for o in self.options}
        if unknown:
            raise TypeError(f"unknown language option(s): {', '.join(sorted(unknown))}")
        new = copy.copy(self)
        new.feats = bool(options.get("feats", self.feats))
        new.__dict__["_classifier"] = None
        if options.get("profile") is not None:
            from ..profile.apply import profiled

            return profiled(new, options["profile"])
        return new

    def option_values(self) -> dict[str, Any]:
        """The value of each declared option (what a resumed job must share)."""
        return {o.name: getattr(self, o.name, None) for o in self.options}

    def unit_hint(self, unit: str) -> str | None:
        """What to change so that this configured language extracts edits in scoring ``unit``
        (``token`` or ``char``), or None: it does already."""
        return None

    def correction_text(self, text: str) -> str:
        """A correction's text as the language annotates it (default: unchanged; Chinese
        converts it to simplified characters). The original is never passed here."""
        return text

    def alignments(self, alignment: Alignment) -> list[list[AlignOp]]:
        """The alignments whose edits are listed, the first being ``alignment.align_seq``
        (default: only that one; used when :attr:`equal_cost_alternatives` is set)."""
        return [alignment.align_seq]

    def substitution_cost(self, o: Token, c: Token) -> float:
        """Cost of substituting ``o`` by ``c`` (texts differ); must be in (0, 2).

        Default: ERRANT's linguistic cost with the Indel character distance (ERRANT 3)."""
        return linguistic_cost(o, c, Indel.normalized_distance, CONTENT_POS)

    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        """Whether the equal-length windows ``o`` and ``c`` count as a transposition.

        Default: ERRANT's test, the sorted lower-cased texts are equal."""
        return sorted(t.lower for t in o) == sorted(t.lower for t in c)

    def substitution_matrix(self, orig: Sentence, cor: Sentence) -> list[list[float]] | None:
        """Optional fast path: every ``substitution_cost(orig[i], cor[j])`` at once, or None.

        Must return exactly the values ``substitution_cost`` would (cells whose texts match are
        never read).
        """
        return None

    #: smallest window (tokens per side) from which ``transposable`` is exactly "the multisets of
    #: the ``transposition_keys`` are equal"; shorter windows are tested with ``transposable``
    transposition_key_window: int = 2

    def transposition_keys(self, sent: Sentence) -> Sequence[object] | None:
        """Optional fast path: per-token keys whose multiset equality decides ``transposable`` for
        windows of at least ``transposition_key_window`` tokens (the aligner then finds such
        windows in O(1) instead of walking), else None. Default: the lower-cased texts, which
        decide the default ``transposable``; a language overriding that returns None or its own
        keys."""
        if type(self).transposable is not Language.transposable:
            return None
        return sent.lowers

    def merge_rules(self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
                    run_limit: int) -> Sequence[Span | tuple[int, int, int, int, str]]:
        """Linguistic merging of a full alignment into edit spans (the ``rules`` strategy;
        ``run_limit``: :data:`errtype.merge.MAX_RULE_RUN`). A span may carry a fifth item, a
        provisional type (the operation the rules settled on), which :meth:`classify` then
        finds in the edit's ``type``.

        Default: :attr:`merger` (from the registry: ERRANT 2.0.0's rules, no English possessive
        rules, ERRANT 3's Indel split test)."""
        return self._component("merger")(seq, orig, cor, run_limit)

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        """The error type of ``edit`` (with M:/U:/R: prefix, or UNK).

        Default: the classifier :attr:`classifier_factory` builds at first use (from the
        registry: the generic UD classifier with the resources of this language's pack)."""
        classifier = self.__dict__.get("_classifier")
        if classifier is None:
            factory = self._component("classifier_factory")
            classifier = self.__dict__["_classifier"] = factory(self.code, self.feats)
        return classifier.classify(edit, orig, cor)


def prefixed_type(o: Sequence[Token], c: Sequence[Token], same_text: bool,
                  one_sided: Callable[[Sequence[Token]], str],
                  two_sided: Callable[[Sequence[Token], Sequence[Token]], str]) -> str:
    """ERRANT's language-independent top level of typing.

    UNK for an empty or detection-only edit; ``M:``/``U:`` + one_sided for insertions and
    deletions; when the last tokens differ only in case and a side has several tokens, the last
    token is dropped from both sides and typing starts again (so "Cat" -> "The cat" is M:DET);
    otherwise ``R:`` + two_sided.
    """
    if not o and not c:
        return "UNK"
    if same_text and o and c:
        return "UNK"
    while o and c and o[-1].lower == c[-1].lower and (len(o) > 1 or len(c) > 1):
        o, c = o[:-1], c[:-1]
    if not o:
        return "M:" + one_sided(c)
    if not c:
        return "U:" + one_sided(o)
    return "R:" + two_sided(o, c)


def linguistic_cost(o: Token, c: Token, char_cost: Callable[[str, str], float],
                    content_pos: frozenset[str]) -> float:
    """ERRANT's substitution cost: 0 for a case-only change, else lemma (0/0.499) + POS
    (0 equal / 0.25 both content / 0.5) + character cost, summed in that order."""
    if o.lower == c.lower:
        return 0.0
    lemma_cost = 0.0 if o.lemma == c.lemma else 0.499
    if o.pos == c.pos:
        pos_cost = 0.0
    elif o.pos in content_pos and c.pos in content_pos:
        pos_cost = 0.25
    else:
        pos_cost = 0.5
    return (lemma_cost + pos_cost) + char_cost(o.text, c.text)
