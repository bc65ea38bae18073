"""ERRANT 3.0.2's ``errant.annotator.Annotator``: spaCy Docs in, ERRANT Edit objects out."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ..annotator import Annotator as _Engine
from ..edit import Edit as _EngineEdit
from ..lang import Language
from ..merge import STRATEGIES
from ._bridge import sentence_of, sentence_to_doc
from .alignment import Alignment
from .edit import Edit

__all__ = ["PARSE_CACHE_SIZE", "Annotator", "LanguageClassifier", "LanguageMerger"]

#: how many distinct texts :meth:`Annotator.parse` remembers the Doc of (least recently parsed
#: forgotten first)
PARSE_CACHE_SIZE = 1024


class LanguageMerger:
    """ERRANT's merger-module interface (``get_rule_edits``) for an errtype language."""

    def __init__(self, language: Language) -> None:
        self.language = language

    def get_rule_edits(self, alignment: Alignment) -> list[Edit]:
        if alignment.language is not self.language:
            alignment = _realigned(alignment, self.language)
        return alignment.get_rule_edits()


def _realigned(alignment: Alignment, language: Language) -> Alignment:
    return Alignment(alignment.orig, alignment.cor, alignment.lev, language=language)


class LanguageClassifier:
    """ERRANT's classifier-module interface (``classify``) for an errtype language."""

    def __init__(self, language: Language) -> None:
        self.language = language

    def classify(self, edit: Edit) -> Edit:
        """Set ``edit.type`` from its spans ``o_toks``/``c_toks``; returns the same edit."""
        o, c = edit.o_toks, edit.c_toks
        orig, cor = sentence_of(o.doc), sentence_of(c.doc)
        probe = _EngineEdit(o.start, o.end, c.start, c.end, edit.o_str, edit.c_str)
        edit.type = self.language.classify(probe, orig, cor)
        return edit


class Annotator:
    """ERRANT's Annotator backed by errtype.

    ``lang``: a language code; ``nlp``: the spaCy pipeline whose vocabulary the Docs use;
    ``merger``/``classifier``: objects with ERRANT's ``get_rule_edits(alignment)`` /
    ``classify(edit)`` (default: errtype's for ``lang``). ``engine`` (errtype extension): the
    errtype :class:`errtype.Annotator` that parses (default: ``errtype.load(lang, nlp=nlp)``).
    ``parse_cache_size`` (errtype extension, attribute): how many distinct texts :meth:`parse`
    remembers (default :data:`PARSE_CACHE_SIZE`; 0: none).
    """

    parse_cache_size: int = PARSE_CACHE_SIZE

    def __init__(self, lang: str, nlp: Any = None, merger: Any = None, classifier: Any = None,
                 *, engine: _Engine | None = None) -> None:
        if engine is None:
            engine = _Engine(lang, **({"nlp": nlp} if nlp is not None else {}))
        self.engine = engine
        self.lang = lang
        self.nlp = nlp if nlp is not None else _pipeline_of(engine)
        language = engine.language
        self.merger = merger if merger is not None else LanguageMerger(language)
        self.classifier = classifier if classifier is not None else LanguageClassifier(language)
        self._parsed: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    @property
    def language(self) -> Language:
        return self.engine.language

    def parse(self, text: str, tokenise: bool = False) -> Any:
        """Parse (and, with ``tokenise``, tokenise) a text; returns a new spaCy Doc.

        A text parsed again by the same pipeline (a source sentence met again, a correction
        equal to its source) gives a copy of the Doc it gave before, which is what parsing it
        again gives: a sentence's parse depends on its text and the pipeline alone. The last
        :attr:`parse_cache_size` distinct texts are remembered; a changed pipeline (a component
        added, removed or replaced) parses anew."""
        if self.parse_cache_size <= 0:
            return self._parse(text, tokenise)
        nlp = getattr(self.engine.parser, "nlp", None)
        pipes = tuple(id(proc) for _, proc in nlp.pipeline) if nlp is not None else ()
        key = (text, bool(tokenise), pipes)
        cache = self._parsed
        doc = cache.get(key)
        if doc is None:
            doc = cache[key] = self._parse(text, tokenise)
            while len(cache) > self.parse_cache_size:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return doc.copy()  # the kept Doc is never handed out, so no caller can change it

    def _parse(self, text: str, tokenise: bool) -> Any:
        parser = self.engine.parser
        parse_doc = getattr(parser, "parse_doc", None)
        if parse_doc is not None:
            return parse_doc(text, tokenise)
        return sentence_to_doc(parser.parse(text, tokenise), self.nlp.vocab)

    def align(self, orig: Any, cor: Any, lev: bool = False) -> Alignment:
        """Align two parsed Docs."""
        return Alignment(orig, cor, lev, language=self.language)

    def merge(self, alignment: Alignment, merging: str = "rules") -> list[Edit]:
        """Untyped edits (type "NA") from an alignment with one of ERRANT's four strategies."""
        if merging == "rules":
            return self.merger.get_rule_edits(alignment)
        if merging == "all-split":
            return alignment.get_all_split_edits()
        if merging == "all-merge":
            return alignment.get_all_merge_edits()
        if merging == "all-equal":
            return alignment.get_all_equal_edits()
        raise ValueError(f"Unknown merging strategy {merging!r}. Choose from: "
                         f"{', '.join(STRATEGIES)}.")

    def classify(self, edit: Edit) -> Edit:
        """Set the edit's type; returns the same Edit object."""
        return self.classifier.classify(edit)

    def annotate(self, orig: Any, cor: Any, lev: bool = False, merging: str = "rules"
                 ) -> list[Edit]:
        """Align, merge and classify: the typed edits turning ``orig`` into ``cor``."""
        edits = self.merge(self.align(orig, cor, lev), merging)
        for edit in edits:
            self.classify(edit)
        return edits

    def import_edit(self, orig: Any, cor: Any, edit: Sequence[Any], min: bool = True,
                    old_cat: bool = False) -> Edit:
        """An Edit from ``[o_start, o_end, c_start, c_end(, type)]``: minimised unless
        ``min=False``, classified unless ``old_cat=True``."""
        if len(edit) == 4:
            out = Edit(orig, cor, edit)
        elif len(edit) == 5:
            out = Edit(orig, cor, edit[:4], edit[4])
        else:
            raise ValueError("Edit not of the form: [o_start, o_end, c_start, c_end, (cat)]")
        if min:
            out = out.minimise()
        if not old_cat:
            out = self.classify(out)
        return out


def _pipeline_of(engine: _Engine) -> Any:
    """The spaCy pipeline of the engine's parser, or a blank one for its language (non-spaCy
    backends) so that ``nlp.vocab`` and ``nlp.tokenizer`` exist as in ERRANT."""
    nlp = getattr(engine.parser, "nlp", None)
    if nlp is not None:
        return nlp
    import spacy

    try:
        return spacy.blank(engine.lang)
    except (ImportError, KeyError, ValueError):
        return spacy.blank("xx")


