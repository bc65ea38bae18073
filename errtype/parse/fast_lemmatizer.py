"""spaCy's rule/lookup lemmatizer, answering each (word, POS, morphology) once.

spaCy's ``Lemmatizer`` costs ~12 % of errtype-m2's CPU, mostly in ``rule_lemmatize`` for words
it has not seen: its ``lemma_index`` tables are lists (57,528 English nouns), so each candidate
lemma is looked for by a linear scan; then every token pays Python overhead even when cached.
For the lemmatizer classes in :data:`PURE` the lemma is a function of the token's text, POS and
morphology alone, so :class:`FastLemmatizer`

* lemmatises each distinct (ORTH, POS, MORPH) once and reuses the answer (a token whose lemma an
  earlier component set is left alone, as spaCy does, unless the component ``overwrite``\\ s);
* computes that answer with the class's own ``rule_lemmatize``/``lookup_lemmatize`` run on a
  view of the component whose ``lemma_index`` lists are frozensets: those methods only test
  membership in them (``form in index``), so the answers are the same.

Token annotations are identical (``tests/test_fast_components.py``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["PURE", "FastLemmatizer", "accelerable"]

#: lemmatizer classes (by qualified name) whose ``lemmatize`` reads only a token's text, POS and
#: morphology and tests ``lemma_index`` entries only for membership, in the modes listed
PURE = {"spacy.pipeline.lemmatizer.Lemmatizer": ("rule", "lookup"),
        "spacy.lang.en.lemmatizer.EnglishLemmatizer": ("rule", "lookup"),
        "spacy.lang.fr.lemmatizer.FrenchLemmatizer": ("rule", "lookup")}
#: answers kept per component before the memo starts again (bounded memory)
MAX_MEMO = 200_000


def accelerable(component: Any) -> bool:
    """Whether :class:`FastLemmatizer` reproduces ``component`` exactly."""
    cls = type(component)
    return getattr(component, "mode", None) in PURE.get(f"{cls.__module__}.{cls.__qualname__}", ())


class _IndexedView:
    """The component as its lemmatize methods see it, with set-valued ``lemma_index`` tables
    and a cache of its own; every other attribute is the component's."""

    def __init__(self, component: Any) -> None:
        from spacy.lookups import Lookups

        self._component = component
        self.cache: dict[Any, Any] = {}
        self.lookups = Lookups()
        for name in component.lookups.tables:
            table = component.lookups.get_table(name)
            if name == "lemma_index":
                indexed = self.lookups.add_table(name)
                for key, words in table.items():
                    indexed.set(key, frozenset(words))
            else:
                self.lookups.set_table(name, table)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._component, name)


class FastLemmatizer:
    """Lemmatises Docs as ``component`` would, answering each distinct token once."""

    def __init__(self, component: Any) -> None:
        if not accelerable(component):
            raise ValueError(f"not a lemmatizer whose answers can be memoised: {component!r}")
        self.component = component
        self.memo: dict[tuple[int, int, int], int] = {}
        self._source: Any = None  # the lookups the view and the memo were built from
        self._lemmatize: Any = None

    def _refresh(self) -> None:
        comp = self.component
        if comp.lookups is not self._source or len(self.memo) > MAX_MEMO:
            self.memo.clear()
            self._source = comp.lookups
            method = getattr(type(comp), f"{comp.mode}_lemmatize")
            view = _IndexedView(comp)
            self._lemmatize = lambda token: method(view, token)

    def __call__(self, doc: Any) -> Any:
        import numpy
        from spacy.attrs import LEMMA, MORPH, ORTH, POS
        from spacy.errors import Errors

        comp = self.component
        if not comp._validated:
            comp._validate_tables(Errors.E1004)
        n = len(doc)
        if not n:
            return doc
        self._refresh()
        rows = doc.to_array([ORTH, POS, MORPH, LEMMA]).tolist()
        memo, overwrite, strings = self.memo, comp.overwrite, doc.vocab.strings
        lemmas = []
        for i, (orth, pos, morph, lemma) in enumerate(rows):
            if overwrite or not lemma:
                key = (orth, pos, morph)
                lemma = memo.get(key)
                if lemma is None:
                    lemma = memo[key] = strings.add(self._lemmatize(doc[i])[0])
            lemmas.append(lemma)
        doc.from_array([LEMMA], numpy.array(lemmas, dtype="uint64").reshape(n, 1))
        return doc
