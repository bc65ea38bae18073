"""Pack word lists: closed-class words and suppletive comparison of a language.

One UTF-8 file per language, ``resources/ud/<code>.txt`` (installed as ``errtype.resources``).
Each non-comment line is a key and whitespace-separated words::

    # comment
    SCONJ що щоб як коли якщо
    ADP в у на до від
    DEGREE добрий кращий найкращий
    INFINITIVE ти тися
    COMPARATIVE більш менш найбільш
    LINK s es n en
    CONTRACTION du de le
    ELISION que je le la de ne se si
    PARADIGM ik mij me mijn

A UPOS key lists members of that closed class (a word may be listed under several); a ``DEGREE``
line is one suppletive comparison (positive, comparative and superlative lemmas or forms), so
``добрий`` -> ``кращий`` is a comparison error, not a word choice; ``INFINITIVE`` lists the
endings of the language's verb lemmas (citation forms), which tell a verb the tagger misread
from the lexicon's lemma; ``COMPARATIVE`` lists the words of analytic comparison (``plus bon`` ->
``meilleur``, ``більш помітним`` -> ``помітнішим`` are comparison errors); ``LINK`` lists the
linking elements between the parts of a compound (German ``Arbeit-s-platz``); a ``CONTRACTION``
line is one contracted form and the words it stands for (French ``du`` = ``de le``, Italian
``nella`` = ``in la``, German ``im`` = ``in dem``); ``ELISION`` lists the words the language writes
with their final vowel elided before another word (``*``: any word; Italian ``bell'``); a
``PARADIGM`` line lists the forms (or lemmas) of one pronoun or determiner that taggers lemmatise
apart (Dutch ``ik`` -> ``mij``: one lexeme in another case; different lexemes, Estonian ``kõik``
-> ``kogu``, share no line). Words are matched lower-cased.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from ...data import resource_path
from ...errors import ResourceError
from .morph import common_prefix

__all__ = ["CLOSED_CLASSES", "WordLists", "load_wordlists", "parse_wordlists"]

#: the UD classes a word list may name
CLOSED_CLASSES = frozenset({"ADP", "AUX", "CCONJ", "DET", "NUM", "PART", "PRON", "SCONJ"})


@dataclass(frozen=True)
class WordLists:
    """Closed-class membership and suppletive comparison groups of one language."""

    classes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    degrees: Mapping[str, frozenset[int]] = field(default_factory=dict)
    infinitives: tuple[str, ...] = ()
    comparatives: frozenset[str] = frozenset()
    links: tuple[str, ...] = ()
    contractions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    elisions: frozenset[str] = frozenset()
    paradigms: Mapping[str, frozenset[int]] = field(default_factory=dict)

    def word_classes(self, word: str) -> frozenset[str]:
        """The closed classes the list puts ``word`` in (empty when unlisted)."""
        return self.classes.get(word.lower(), frozenset())

    def comparison(self, a: str, b: str) -> bool:
        """``a`` and ``b`` are two different degrees of one suppletive comparison."""
        a, b = a.lower(), b.lower()
        return a != b and bool(self.degrees.get(a, frozenset()) & self.degrees.get(b, frozenset()))

    def same_paradigm(self, a: str, b: str) -> bool:
        """``a`` and ``b`` are forms of one pronoun or determiner by a ``PARADIGM`` line."""
        return bool(self.paradigms.get(a.lower(), frozenset())
                    & self.paradigms.get(b.lower(), frozenset()))

    def expand(self, words: Iterable[str]) -> list[tuple[str, int]]:
        """The lower-cased words with each contraction replaced by the words it stands for,
        each with the index of the word it comes from."""
        out: list[tuple[str, int]] = []
        for k, word in enumerate(words):
            low = word.lower()
            out.extend((w, k) for w in self.contractions.get(low, (low,)))
        return out

    def number_word(self, word: str) -> bool:
        """``word`` is a number in words by the pack's ``NUM`` list: listed; a compound of
        listed numbers written as one word (German ``neunzehnhundertneunzig``, Swedish
        ``nittonhundranittio``; a part may drop its final vowel before the next, as Italian
        ``millenovecentottanta`` = ``mille novecento ottanta`` does, and a listed conjunction
        may join two: ``dreiundachtzig``); or a listed number of five or more letters with
        another ending of up to three letters, after all but at most its last letter (the
        inflected numeral: Latvian ``septiņus`` of ``septiņi``; not ``Zweifel`` beside
        ``zweite``)."""
        low = word.lower()
        if "NUM" in self.word_classes(low):
            return True
        numbers = self._numbers()
        if not numbers or not low.isalpha():
            return False
        return _compound_number(low, numbers, self._joints()) or any(
            len(w) >= 5 and common_prefix(low, w) >= max(4, len(w) - 1)
            and len(low) - common_prefix(low, w) <= 3 for w in numbers)

    def _numbers(self) -> frozenset[str]:
        return frozenset(w for w, k in self.classes.items() if "NUM" in k and w.isalpha())

    def _joints(self) -> frozenset[str]:
        return frozenset(w for w, k in self.classes.items() if "CCONJ" in k and w.isalpha())

    def elides(self, word: str) -> bool:
        """The language writes ``word`` elided (pack ``ELISION``)."""
        return "*" in self.elisions or word.lower() in self.elisions

    def infinitive(self, lemma: str) -> bool:
        """``lemma`` ends like the language's verb lemmas."""
        return bool(self.infinitives) and lemma.lower().endswith(self.infinitives)

    def infinitive_stem(self, lemma: str) -> str | None:
        """``lemma`` less the longest verb-lemma ending it has (pack ``INFINITIVE``), or None."""
        ends = [e for e in self.infinitives if lemma.endswith(e)]
        return lemma[:len(lemma) - max(map(len, ends))] if ends else None


def _compound_number(word: str, numbers: frozenset[str], joints: frozenset[str]) -> bool:
    """``word`` is two or more of ``numbers`` written together (a part may lose its final
    vowel before the next; a word of ``joints`` may stand between two)."""
    # ends[i]: the ways to reach position i: (parts so far, the last piece was a joint)
    ends: dict[int, set[tuple[bool, bool]]] = {0: {(False, True)}}
    for i in range(len(word)):
        for several, joint in ends.get(i, ()):
            for w in numbers | (frozenset() if joint else joints):
                is_joint = w in joints and w not in numbers
                pieces = [w] + ([w[:-1]] if len(w) > 3 and w[-1] in "aeiouy" else [])
                for piece in pieces:
                    if piece != w and i + len(piece) >= len(word):
                        continue        # only a part followed by another drops its vowel
                    if word.startswith(piece, i):
                        k = i + len(piece)
                        ends.setdefault(k, set()).add((several or (not is_joint and i > 0),
                                                       is_joint))
    return any(several and not joint for several, joint in ends.get(len(word), ()))


def parse_wordlists(lines: Iterable[str], source: str = "<word lists>") -> WordLists:
    """Word lists from the lines of a pack file (format in the module docstring)."""
    classes: dict[str, set[str]] = {}
    degrees: dict[str, set[int]] = {}
    paradigms: dict[str, set[int]] = {}
    infinitives: list[str] = []
    comparatives: list[str] = []
    links: list[str] = []
    contractions: dict[str, tuple[str, ...]] = {}
    elisions: list[str] = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].split()
        if not text:
            continue
        key, words = text[0], [w.lower() for w in text[1:]]
        if key in ("DEGREE", "PARADIGM"):
            for w in words:
                (degrees if key == "DEGREE" else paradigms).setdefault(w, set()).add(number)
        elif key == "INFINITIVE":
            infinitives.extend(words)
        elif key == "COMPARATIVE":
            comparatives.extend(words)
        elif key == "LINK":
            links.extend(words)
        elif key == "CONTRACTION":
            if len(words) < 3:
                raise ResourceError(f"{source}, line {number}: a CONTRACTION line is the "
                                    "contracted form and the two or more words it stands for")
            contractions[words[0]] = tuple(words[1:])
        elif key == "ELISION":
            elisions.extend(words)
        elif key in CLOSED_CLASSES:
            for w in words:
                classes.setdefault(w, set()).add(key)
        else:
            raise ResourceError(f"{source}, line {number}: unknown key {key!r} (expected one of "
                                f"{', '.join(sorted(CLOSED_CLASSES))}, DEGREE, PARADIGM, "
                                "INFINITIVE, COMPARATIVE, LINK, CONTRACTION or ELISION)")
    return WordLists({w: frozenset(k) for w, k in classes.items()},
                     {w: frozenset(k) for w, k in degrees.items()}, tuple(infinitives),
                     frozenset(comparatives), tuple(links), contractions,
                     frozenset(elisions), {w: frozenset(k) for w, k in paradigms.items()})


@cache
def load_wordlists(code: str) -> WordLists | None:
    """The word lists of language ``code`` shipped in ``resources/ud``, or None."""
    try:
        path = resource_path(f"ud/{code}.txt")
    except ResourceError:
        return None
    with open(path, encoding="utf-8") as handle:
        return parse_wordlists(handle, str(path))
