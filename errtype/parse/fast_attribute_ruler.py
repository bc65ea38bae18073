"""A dict-lookup replacement for spaCy's ``attribute_ruler`` Matcher (same annotations, faster).

spaCy's AttributeRuler matches all patterns on the unmodified Doc, sorts the matches by rule
number and applies each rule's attributes in that order, so for every token the rules that target
it are merged in ascending rule order (later rules override earlier ones, attribute by attribute).
When every pattern is a fixed-length sequence of token specs made of exact values, ``IN`` /
``NOT_IN`` sets and ``REGEX`` tests over plain token attributes, the same matches are found here
by indexing the first token spec on one exact value or ``IN`` set and checking the rest in
Python; the merged attributes (per-token ones only: POS, TAG, MORPH, LEMMA, DEP, NORM) are set
with spaCy's own ``set_token_attrs``. Anything else (operators, fuzzy matching, extension or
lexeme attributes, ...) keeps the original Matcher.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: token attributes a pattern may test: ``doc.to_array`` reads them exactly as the Matcher does
_ATTRS = frozenset({"ORTH", "LOWER", "NORM", "SHAPE", "PREFIX", "SUFFIX", "TAG", "POS", "DEP",
                    "LEMMA", "IS_SPACE", "IS_PUNCT", "IS_ALPHA", "IS_DIGIT", "IS_LOWER",
                    "IS_UPPER", "IS_TITLE", "LIKE_NUM"})
#: attributes a rule may set: per-token ones, so merging a token's rules cannot change what other
#: tokens see (a lexeme attribute would be shared by every token of that word)
_SET = frozenset({"POS", "TAG", "MORPH", "LEMMA", "DEP", "NORM"})
#: preferred attributes to index the first token spec on (most selective first)
_INDEX_ORDER = ("ORTH", "LOWER", "NORM", "LEMMA", "TAG", "DEP", "POS")
#: distinct attribute rows remembered before the memo starts again (bounded memory)
_MAX_ROWS = 200_000

# spec = tuple of (column, kind, value): kind 0 exact int, 1 IN set, 2 NOT_IN set, 3 _Regex
_Spec = tuple[tuple[int, int, Any], ...]


class NotCompilable(ValueError):
    """A pattern the dict lookup cannot reproduce exactly."""


class CompiledRules:
    """The AttributeRuler's rules as lookup tables over ``doc.to_array`` columns."""

    def __init__(self, ruler: Any) -> None:
        from spacy.attrs import IDS
        from spacy.strings import get_string_id

        strings = ruler.vocab.strings
        columns: dict[str, int] = {}
        self.attrs: list[dict] = list(ruler.attrs)
        #: (column, value) of the first spec -> [(rule, specs, target offset)]; a spec indexed
        #: on an ``IN`` set is listed under each of its values
        self.index: dict[tuple[int, int], list[tuple[int, tuple[_Spec, ...], int]]] = {}
        #: rules whose first spec has no exact value: tried at every position
        self.scan: list[tuple[int, tuple[_Spec, ...], int]] = []
        settable = {IDS[name] for name in _SET}
        for rule, attrs in enumerate(self.attrs):
            if not settable.issuperset(attrs):
                raise NotCompilable(f"rule {rule} sets {sorted(map(str, attrs))}")
            for pattern in ruler.matcher.get(str(rule))[1]:
                specs = tuple(self._spec(tok, columns, strings, get_string_id)
                              for tok in pattern)
                index = ruler.indices[rule]
                offset = index if index >= 0 else len(specs) + index
                if not specs or not 0 <= offset < len(specs):
                    raise NotCompilable(f"index {index} outside a {len(specs)}-token pattern")
                entry = (rule, specs, offset)
                keys = self._keys(specs[0], columns)
                for key in keys:
                    self.index.setdefault(key, []).append(entry)
                if not keys:
                    self.scan.append(entry)
        self.columns = [IDS[name] for name in columns]
        tables: dict[int, dict[int, list]] = {}
        for (col, value), entries in self.index.items():
            tables.setdefault(col, {})[value] = entries
        self.tables = sorted(tables.items())
        self._merged: dict[tuple[int, ...], dict] = {}
        #: attribute row -> what it matches (see :meth:`_row`); bounded
        self._rows: dict[tuple[int, ...], tuple[tuple[int, ...], list]] = {}

    @staticmethod
    def _spec(tok: dict, columns: dict[str, int], strings: Any, string_id: Any) -> _Spec:
        out = []
        for name, value in tok.items():
            attr = name.upper() if isinstance(name, str) else None
            attr = "ORTH" if attr == "TEXT" else attr
            if attr not in _ATTRS:
                raise NotCompilable(f"pattern key {name!r}")
            col = columns.setdefault(attr, len(columns))
            if isinstance(value, bool):
                out.append((col, 0, int(value)))
            elif isinstance(value, str):
                out.append((col, 0, strings.add(value)))
            elif isinstance(value, int):
                out.append((col, 0, value))
            elif (isinstance(value, dict) and list(value) == ["REGEX"]
                  and isinstance(value["REGEX"], str) and not attr.startswith(("IS_", "LIKE_"))):
                out.append((col, 3, _Regex(value["REGEX"], strings)))
            elif (isinstance(value, dict) and len(value) == 1
                  and next(iter(value)) in ("IN", "NOT_IN")):
                (pred, values), = value.items()
                if not isinstance(values, list | tuple) or not all(
                        isinstance(v, str | int) and not isinstance(v, bool) for v in values):
                    raise NotCompilable(f"{pred} values {values!r}")
                out.append((col, 1 if pred == "IN" else 2,
                            frozenset(string_id(v) for v in values)))
            else:
                raise NotCompilable(f"pattern value {value!r}")
        return tuple(out)

    @staticmethod
    def _keys(spec: _Spec, columns: dict[str, int]) -> list[tuple[int, int]]:
        """Index keys of a token spec: its exact value on the preferred attribute, else every
        value of its preferred ``IN`` set; none (scan at every token) if it has neither."""
        order = [columns[name] for name in _INDEX_ORDER if name in columns] + list(
            columns.values())
        for kind in (0, 1):
            tests = {col: value for col, k, value in spec if k == kind}
            for col in order:
                if col in tests:
                    values = [tests[col]] if kind == 0 else sorted(tests[col])
                    return [(col, v) for v in values]
        return []

    def _row(self, row: list[int]) -> tuple[tuple[int, ...], list[tuple[int, tuple, int]]]:
        """For a token's attribute row: the single-token rules it matches (sorted), and the
        multi-token patterns whose first token it matches."""
        cands = self.scan
        for col, table in self.tables:
            found = table.get(row[col])
            if found:
                cands = cands + found
        singles: set[int] = set()
        multis = []
        for entry in cands:
            rule, specs, _ = entry
            if _ok(specs[0], row):
                if len(specs) == 1:
                    singles.add(rule)
                else:
                    multis.append(entry)
        return tuple(sorted(singles)), multis

    def apply(self, doc: Any) -> None:
        """Set the attributes the AttributeRuler would set on ``doc``.

        What a token's own attributes match is looked up once per distinct attribute row
        (memoised); multi-token patterns are then checked against the following tokens.
        """
        from spacy.tokens._retokenize import set_token_attrs

        n = len(doc)
        if not n or not self.attrs:
            return
        rows = doc.to_array(self.columns).reshape(n, -1).tolist()
        memo = self._rows
        if len(memo) > _MAX_ROWS:
            memo.clear()
        hits: list[tuple[int, ...]] = []
        extra: dict[int, set[int]] = {}
        for start, row in enumerate(rows):
            key = tuple(row)
            found = memo.get(key)
            if found is None:
                found = memo[key] = self._row(row)
            singles, multis = found
            hits.append(singles)
            for rule, specs, offset in multis:
                if start + len(specs) <= n and all(
                        _ok(specs[k], rows[start + k]) for k in range(1, len(specs))):
                    extra.setdefault(start + offset, set()).add(rule)
        for i, more in extra.items():
            hits[i] = tuple(sorted(more.union(hits[i])))
        merged_of = self._merged
        for i, rules in enumerate(hits):
            if not rules:
                continue
            merged = merged_of.get(rules)
            if merged is None:
                merged = {}
                for rule in rules:
                    merged.update(self.attrs[rule])
                merged_of[rules] = merged
            set_token_attrs(doc[i], merged)


def _ok(spec: _Spec, row: list[int]) -> bool:
    for col, kind, value in spec:
        got = row[col]
        if kind == 0:
            if got != value:
                return False
        elif kind == 3:
            if not value(got):
                return False
        elif (got in value) != (kind == 1):
            return False
    return True


class _Regex:
    """The Matcher's REGEX predicate: ``re.search`` on the attribute's string (memoised)."""

    def __init__(self, pattern: str, strings: Any) -> None:
        self.search = re.compile(pattern).search
        self.strings = strings
        self.seen: dict[int, bool] = {}

    def __call__(self, value: int) -> bool:
        hit = self.seen.get(value)
        if hit is None:
            if len(self.seen) > 100_000:
                self.seen.clear()
            hit = self.seen[value] = bool(self.search(self.strings[value]))
        return hit


def accelerate(nlp: Any, name: str = "attribute_ruler") -> bool:
    """Make ``nlp``'s AttributeRuler ``name`` use :class:`CompiledRules`; True if it now does.

    The component object stays in place (config, patterns and serialisation unchanged); only its
    class becomes a subclass whose ``__call__`` uses the lookup. Nothing changes when a pattern is
    not compilable or the component is not a spaCy AttributeRuler.
    """
    from spacy.pipeline import AttributeRuler

    if name not in nlp.pipe_names:
        return False
    ruler = nlp.get_pipe(name)
    fast = fast_class()
    if type(ruler) is fast:
        return True
    if type(ruler) is not AttributeRuler:
        return False
    try:
        compiled = CompiledRules(ruler)
    except NotCompilable:
        return False
    ruler.__class__ = fast
    ruler._compiled = compiled
    return True


@cache
def fast_class() -> type:
    """The AttributeRuler subclass :func:`accelerate` gives an accelerated component."""
    from spacy.pipeline import AttributeRuler

    class FastAttributeRuler(AttributeRuler):  # type: ignore[misc, valid-type]
        """AttributeRuler applying compiled rules; falls back to the Matcher if they change."""

        _compiled: CompiledRules | None = None

        def __call__(self, doc: Any) -> Any:
            compiled = self._compiled
            if compiled is None:
                try:
                    compiled = self._compiled = CompiledRules(self)
                except NotCompilable:
                    return super().__call__(doc)
            error_handler = self.get_error_handler()
            try:
                compiled.apply(doc)
                return doc
            except Exception as exc:
                return error_handler(self.name, self, [doc], exc)

        def add(self, *args: Any, **kwargs: Any) -> None:
            self._compiled = None
            super().add(*args, **kwargs)

        def clear(self) -> None:
            self._compiled = None
            super().clear()

    FastAttributeRuler.__qualname__ = "FastAttributeRuler"  # picklable as this module's attribute
    return FastAttributeRuler


def __getattr__(name: str) -> Any:
    if name == "FastAttributeRuler":  # spaCy is imported only when the class is first needed
        return fast_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

