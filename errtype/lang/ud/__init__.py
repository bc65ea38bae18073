"""The generic UD language: any language with a UD tagger, typed by :class:`UDClassifier`.

Resources come from the language's pack (:mod:`errtype.lang.packs`); what is missing (no
Hunspell dictionary, no Snowball stemmer, package not installed) is listed in
``resources_missing`` and logged once, and the classifier falls back (no lexicon-based SPELL;
the common-prefix stem test for MORPH).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Sequence
from typing import Any

from ...errors import ResourceError
from ...merge import MAX_RULE_RUN, MergeSettings, apply_merge_settings, errant2_rules
from ...tokens import Sentence, Token
from ..base import AlignOp, Language
from ..packs import Pack, get_pack, variant_test
from .backend import default_parser
from .classifier import UDClassifier
from .joins import join_moves, join_touching
from .resources import HunspellLexicon, prefix_same_stem, snowball_same_stem
from .text import fold_marks
from .wordlists import load_wordlists

__all__ = ["UDClassifier", "UDLanguage", "load_resources", "make_classifier"]

log = logging.getLogger("errtype.lang")


def load_resources(pack: Pack | None
                   ) -> tuple[Callable[[str], bool] | None, Callable[[str, str], bool], list[str]]:
    """(lexicon or None, stem test, notes on what is missing) for a pack."""
    missing: list[str] = []
    lexicon = None
    stem: Callable[[str, str], bool] = prefix_same_stem
    if pack is None:
        return None, stem, ["no language pack: no spelling lexicon (SPELL only from the "
                            "string rules), common-prefix stem test"]
    if pack.hunspell is None:
        missing.append(f"no Hunspell dictionary for {pack.name}: no lexicon-based SPELL")
    else:
        try:
            lexicon = HunspellLexicon(pack.hunspell)
        except ResourceError as exc:
            missing.append(f"{exc}: no lexicon-based SPELL")
    if pack.snowball is None:
        missing.append(f"no Snowball stemmer for {pack.name}: common-prefix stem test")
    else:
        try:
            stem = _either(snowball_same_stem(pack.snowball), prefix_same_stem)
        except ResourceError as exc:
            missing.append(f"{exc}: common-prefix stem test")
    return lexicon, stem, missing


def _either(first: Callable[[str, str], bool], second: Callable[[str, str], bool]
            ) -> Callable[[str, str], bool]:
    """Stems agree by the stemmer, or share the long prefix of the fallback test (Snowball
    stemmers miss stem alternations such as Estonian consonant gradation: kell/kella)."""
    def same_stem(a: str, b: str) -> bool:
        return second(a, b) or first(a, b)      # the cheap prefix test first
    return same_stem


def make_classifier(code: str, feats: bool = False) -> UDClassifier:
    """The generic classifier with the resources of ``code``'s pack (missing ones logged)."""
    lexicon, stem, missing = load_resources(get_pack(code))
    for note in missing:
        log.info("errtype %s: %s", code, note)
    pack = get_pack(code)
    variants = variant_test(pack.variants) if pack else None
    lemmas = isinstance(lexicon, HunspellLexicon) and pack is not None and pack.lexicon_lemmas
    stems = lexicon.stems if lemmas else None
    classifier = UDClassifier(lexicon, stem, feats, variants, stems, load_wordlists(code))
    classifier.resources_missing = missing
    classifier.bound_aux = bool(pack and pack.bound_aux)
    classifier.spaced = pack.spaced if pack else True
    return classifier


#: word classes whose words make a move (a verb, a clause, an adverbial), not function words
_CONTENT = frozenset({"NOUN", "PROPN", "VERB", "AUX", "ADJ", "ADV", "NUM", "PRON", "X"})


def _moves_content(toks: Sequence[Token]) -> bool:
    return any(t.pos in _CONTENT for t in toks)


#: a verb or adjective, or one of its endings (``bound_aux`` languages)
_HOSTS = frozenset({"VERB", "ADJ", "AUX", "SCONJ"})
_ENDINGS = frozenset({"AUX", "SCONJ"})
#: what the learner may have written in place of an ending
_FUNCTION = frozenset({"AUX", "SCONJ", "ADP", "CCONJ", "PART"})


class UDLanguage(Language):
    """A language typed by the generic UD classifier (every other hook at its default but the
    transposition test, which ignores diacritics)."""

    def __init__(self, code: str, feats: bool = False) -> None:
        pack = get_pack(code)
        self.code = code
        self.name = pack.name if pack else code
        self.pack = pack
        self.feats = feats
        self.spaced = pack.spaced if pack else True
        self.parser_factory = default_parser
        self.merger = errant2_rules()
        #: how adjacent changes merge after the rules (the pack's, or a corpus profile's)
        self.merge_settings: MergeSettings = pack.merge if pack else MergeSettings()
        #: a corpus profile's learned cuts and joins (:class:`errtype.profile.spanmodel.SpanModel`
        #: or None), applied after :attr:`merge_settings`
        self.span_model: Any = None
        self.classifier_factory = make_classifier
        self._classifier: UDClassifier | None = None

    def __repr__(self) -> str:
        return f"UDLanguage({self.code!r})"

    def merge_rules(self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
                    run_limit: int = MAX_RULE_RUN) -> list[tuple[int, int, int, int]]:
        """The default rules, then the pieces of one error joined (:mod:`.joins`):

        * a long move (the same words, up to case and diacritics, deleted at one place and
          inserted at another, with a content word among them): one ``WO`` edit
          (:func:`.joins.join_moves`);
        * punctuation beside the conjunction that replaces it (``, et je`` -> ``. Je``, a
          clause link: :meth:`UDClassifier.clause_link`), and a contraction beside the word it
          absorbs (``à`` -> ``au`` and ``le`` deleted: ``à le`` -> ``au``,
          :meth:`UDClassifier.contraction`), and the words of one number the alignment
          split (``tisoč devetsto`` -> ``1980`` and ``osemdeset`` deleted:
          :meth:`UDClassifier.is_number_form`);
        * in a language whose auxiliaries are endings (pack ``bound_aux``), an edit whose
          correction is endings alone (auxiliaries, conjunctive particles) in place of function
          words, or which drops endings, right after an edit whose correction ends in a verb,
          adjective or ending: one word's form changes once (``高い で`` -> ``高く て``,
          ``たい です`` -> ``まし た``);
        * then the granularity of :attr:`merge_settings`
          (:func:`errtype.merge.apply_merge_settings`; nothing changes at the default);
        * then a profile's learned cuts and joins (:attr:`span_model`; none by default)."""
        spans = self.rule_spans(seq, orig, cor, run_limit)
        spans = apply_merge_settings(spans, orig, cor, self.merge_settings)
        if self.span_model is not None:
            lexicon = getattr(self.classifier, "is_valid_word", None)
            spans = self.span_model.apply(spans, seq, orig, cor, lexicon)
        return spans

    def with_merge_settings(self, settings: MergeSettings) -> UDLanguage:
        """A copy of this language merging adjacent changes by ``settings``."""
        new = copy.copy(self)
        new.merge_settings = settings
        return new

    def rule_spans(self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
                    run_limit: int) -> list[tuple[int, int, int, int]]:
        """The spans of the rules and joins, before :attr:`merge_settings`."""
        spans = super().merge_rules(seq, orig, cor, run_limit)
        spans = join_moves(spans, orig, cor, self.transposition_keys, _moves_content)
        clf = self.classifier
        spans = join_touching(spans, orig, cor, lambda o, c: (
            clf.clause_link(o, c) is not None or clf.contracted_pieces(o, c)
            or clf.is_number_form(o, c)))
        if not (self.pack and self.pack.bound_aux):
            return spans
        out: list[tuple[int, int, int, int]] = []
        for span in spans:
            prev = out[-1] if out else None
            if (prev is not None and prev[1] == span[0] and prev[3] == span[2]
                    and prev[2] < prev[3] and cor[prev[3] - 1].pos in _HOSTS
                    and all(t.pos in _ENDINGS for t in cor[span[2]:span[3]])
                    and all(t.pos in (_FUNCTION if span[2] < span[3] else _ENDINGS)
                            for t in orig[span[0]:span[1]])):
                out[-1] = (out[-1][0], span[1], out[-1][2], span[3])
            else:
                out.append(span)
        return out

    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        """ERRANT's transposition test up to case and diacritics: the moved words may also lose
        or gain their accents (``français tres bien`` -> ``très bien français`` is one edit)."""
        return sorted(fold_marks(t.lower) for t in o) == sorted(fold_marks(t.lower) for t in c)

    def transposition_keys(self, sent: Sentence) -> Sequence[object]:
        return [fold_marks(w) for w in sent.lowers]

    @property
    def classifier(self) -> UDClassifier:
        """The classifier (resources loaded at first use)."""
        if self._classifier is None:
            self._classifier = make_classifier(self.code, self.feats)
        return self._classifier

    @property
    def resources_missing(self) -> list[str]:
        """What this language runs without (empty when every pack resource loaded)."""
        return self.classifier.resources_missing
