"""What a report looks at: error-type selectors (``--types``) and sentence subsets
(``--subset``).

Type selectors are shell-style patterns (``*``, ``?``, ``[...]``), matched case-sensitively:

* a selector is matched against the whole type: ``R:VERB*`` selects ``R:VERB``,
  ``R:VERB:SVA``, ``R:VERB:TENSE``, ...; ``M:*`` every missing-word type; ``?:DET`` the three
  determiner types; a type without an operation (NUCLE's ``Vt``) is matched so only;
* a selector without an operation (``M:``, ``R:``, ``U:``) is also matched against the type
  after its operation: ``DET`` selects ``M:DET``, ``R:DET`` and ``U:DET``; ``VERB:*`` every
  verb subtype of every operation.

A type is selected when any selector matches it; a selector matching no type of the report is an
error (a misspelt type would otherwise give an empty table).

Subsets keep the sentences every one of them selects:

* ``len:A-B``: sentences of A to B source tokens (``len:-20``, ``len:30-``, ``len:12``);
* ``edits:A-B``: sentences whose gold annotator with the most edits has A to B of them
  (noop edits do not count; ``edits:0`` are the sentences no annotator changed, the ones
  over-correction is measured on);
* ``ids:FILE``: the sentences whose 1-based numbers (as the sentence browser shows them) FILE
  lists, separated by white space or commas; ``A-B`` is a range, ``#`` starts a comment.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase

from ..errors import InputError
from ..m2 import M2Block
from .inputs import ReportInput

__all__ = ["Subset", "match_type", "parse_subset", "select_sentences", "select_types",
           "subset_input"]

_OPERATION = re.compile(r"[MRU]:")


def match_type(etype: str, selector: str) -> bool:
    """Whether ``selector`` selects the error type ``etype`` (see the module docstring)."""
    if fnmatchcase(etype, selector):
        return True
    return (_OPERATION.match(etype) is not None and _OPERATION.match(selector) is None
            and fnmatchcase(etype[2:], selector))


def select_types(types: Sequence[str], selectors: Sequence[str]) -> list[str]:
    """The types (in their order) any selector selects; every selector must select one."""
    if not selectors:
        return list(types)
    for sel in selectors:
        if not sel or not any(match_type(t, sel) for t in types):
            shown = ", ".join(types[:12]) + (", ..." if len(types) > 12 else "")
            raise InputError(f"--types {sel!r} selects none of the report's {len(types)} "
                             f"error types ({shown or 'none'})")
    return [t for t in types if any(match_type(t, s) for s in selectors)]


@dataclass(frozen=True)
class Subset:
    """One sentence selector: ``kind`` ``len``/``edits`` with an inclusive range, or ``ids``
    with the 1-based sentence numbers of a file."""

    spec: str
    kind: str
    low: int = 0
    high: int | None = None
    ids: frozenset[int] = frozenset()

    def keeps(self, number: int, block: M2Block) -> bool:
        """Whether the sentence ``number`` (1-based) with gold ``block`` is in the subset."""
        if self.kind == "ids":
            return number in self.ids
        value = len(block.tokens) if self.kind == "len" else edit_count(block)
        return self.low <= value and (self.high is None or value <= self.high)


def edit_count(block: M2Block) -> int:
    """The number of edits of the gold annotator with the most (noops do not count)."""
    by = block.edits_by_annotator()
    return max((sum(not e.is_noop for e in edits) for edits in by.values()), default=0)


_RANGE = re.compile(r"(\d*)-(\d*)|(\d+)")


def _range(spec: str, text: str) -> tuple[int, int | None]:
    m = _RANGE.fullmatch(text.strip())
    if m is None or m.group(0) == "-":
        raise InputError(f"--subset {spec!r}: expected a number or a range A-B (A-, -B), "
                         f"not {text!r}")
    if m.group(3) is not None:
        return int(m.group(3)), int(m.group(3))
    low, high = int(m.group(1) or 0), int(m.group(2)) if m.group(2) else None
    if high is not None and high < low:
        raise InputError(f"--subset {spec!r}: the range is empty ({low} > {high})")
    return low, high


def _read_ids(spec: str, path: str) -> frozenset[int]:
    from ..textio import read_lines

    ids: set[int] = set()
    for line in read_lines(path):
        for item in line.text.split("#", 1)[0].replace(",", " ").split():
            m = _RANGE.fullmatch(item)
            if m is None or m.group(0) == "-":
                raise InputError(f"not a sentence number or range: {item!r} (--subset "
                                 f"{spec})", path=path, line=line.number)
            low, high = _range(spec, item)
            if high is None:
                raise InputError(f"an open range {item!r} has no end (--subset {spec})",
                                 path=path, line=line.number)
            if low < 1:
                raise InputError(f"sentence numbers start at 1, not {low} (--subset {spec})",
                                 path=path, line=line.number)
            ids.update(range(low, high + 1))
    return frozenset(ids)


def parse_subset(spec: str) -> Subset:
    """A :class:`Subset` from ``len:A-B``, ``edits:A-B`` or ``ids:FILE``."""
    kind, sep, value = spec.partition(":")
    if not sep or kind not in ("len", "edits", "ids") or not value:
        raise InputError(f"--subset {spec!r}: expected len:A-B, edits:A-B or ids:FILE")
    if kind == "ids":
        return Subset(spec, kind, ids=_read_ids(spec, value))
    low, high = _range(spec, value)
    return Subset(spec, kind, low, high)


def select_sentences(gold: Sequence[M2Block], subsets: Iterable[Subset]) -> list[int]:
    """The 0-based indices of the sentences every subset keeps."""
    subsets = list(subsets)
    return [i for i, b in enumerate(gold) if all(s.keeps(i + 1, b) for s in subsets)]


def subset_input(inp: ReportInput, subsets: Sequence[Subset]) -> tuple[ReportInput, list[int]]:
    """The input restricted to the sentences the subsets keep, and their 0-based indices in
    the whole input; an empty selection is an error."""
    n = len(inp.gold)
    for s in subsets:
        beyond = sorted(i for i in s.ids if i > n)
        if beyond:
            raise InputError(f"--subset {s.spec}: sentence {beyond[0]} is beyond the gold's "
                             f"{n} sentences")
    keep = select_sentences(inp.gold, subsets)
    if not keep:
        raise InputError(f"--subset {' '.join(s.spec for s in subsets)} selects none of the "
                         f"{len(inp.gold)} sentences")
    systems = [replace(s, hypotheses=[s.hypotheses[i] for i in keep],
                       blocks=[s.blocks[i] for i in keep]) for s in inp.systems]
    return replace(inp, gold=[inp.gold[i] for i in keep], systems=systems), keep
