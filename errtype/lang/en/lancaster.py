"""Lancaster (Paice/Husk) stemmer, behaving like NLTK's ``LancasterStemmer()``.

Own implementation of the algorithm in C. D. Paice, "Another stemmer", SIGIR Forum 24(3), 1990,
with the standard 115-rule table used by NLTK (and vendored by ERRANT 3.0.2) and no prefix
stripping. Behavioural details reproduced from the reference implementation:

* the input is lower-cased; the "intact" original is remembered;
* rules are looked up by the last letter of the *leading run of alphabetic characters* of the word
  (a word starting with a non-letter is returned unchanged), and a rule matches when the whole
  word ends with the rule's ending;
* intact-only rules (``*``) apply only while nothing has been removed yet;
* a rule is only applied when the result is acceptable: if the word starts with a vowel
  (``aeiouy``) at least 2 letters must remain, otherwise at least 3 must remain and the 2nd or 3rd
  letter of the word must be a vowel or ``y`` (the appended string does not count);
* an acceptable rule is applied, then stemming either stops or restarts with the new last letter;
  when no rule for the last letter applies, stemming stops.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

__all__ = ["stem", "RULES"]


class Rule(NamedTuple):
    """One Paice/Husk rule: replace ``remove`` final letters of a word ending in ``ending``."""

    ending: str
    intact_only: bool
    remove: int
    append: str
    proceed: bool  # True: continue stemming after applying ("> "), False: stop (".")


# (ending, intact-only, letters removed, appended, continue) in the standard table order.
RULES: tuple[Rule, ...] = tuple(
    Rule(*r)
    for r in (
        ("ia", True, 2, "", False),
        ("a", True, 1, "", False),
        ("bb", False, 1, "", False),
        ("ytic", False, 3, "s", False),
        ("ic", False, 2, "", True),
        ("nc", False, 1, "t", True),
        ("dd", False, 1, "", False),
        ("ied", False, 3, "y", True),
        ("ceed", False, 2, "ss", False),
        ("eed", False, 1, "", False),
        ("ed", False, 2, "", True),
        ("hood", False, 4, "", True),
        ("e", False, 1, "", True),
        ("lief", False, 1, "v", False),
        ("if", False, 2, "", True),
        ("ing", False, 3, "", True),
        ("iag", False, 3, "y", False),
        ("ag", False, 2, "", True),
        ("gg", False, 1, "", False),
        ("th", True, 2, "", False),
        ("guish", False, 5, "ct", False),
        ("ish", False, 3, "", True),
        ("i", True, 1, "", False),
        ("i", False, 1, "y", True),
        ("ij", False, 1, "d", False),
        ("fuj", False, 1, "s", False),
        ("uj", False, 1, "d", False),
        ("oj", False, 1, "d", False),
        ("hej", False, 1, "r", False),
        ("verj", False, 1, "t", False),
        ("misj", False, 2, "t", False),
        ("nj", False, 1, "d", False),
        ("j", False, 1, "s", False),
        ("ifiabl", False, 6, "", False),
        ("iabl", False, 4, "y", False),
        ("abl", False, 3, "", True),
        ("ibl", False, 3, "", False),
        ("bil", False, 2, "l", True),
        ("cl", False, 1, "", False),
        ("iful", False, 4, "y", False),
        ("ful", False, 3, "", True),
        ("ul", False, 2, "", False),
        ("ial", False, 3, "", True),
        ("ual", False, 3, "", True),
        ("al", False, 2, "", True),
        ("ll", False, 1, "", False),
        ("ium", False, 3, "", False),
        ("um", True, 2, "", False),
        ("ism", False, 3, "", True),
        ("mm", False, 1, "", False),
        ("sion", False, 4, "j", True),
        ("xion", False, 4, "ct", False),
        ("ion", False, 3, "", True),
        ("ian", False, 3, "", True),
        ("an", False, 2, "", True),
        ("een", False, 0, "", False),
        ("en", False, 2, "", True),
        ("nn", False, 1, "", False),
        ("ship", False, 4, "", True),
        ("pp", False, 1, "", False),
        ("er", False, 2, "", True),
        ("ear", False, 0, "", False),
        ("ar", False, 2, "", False),
        ("or", False, 2, "", True),
        ("ur", False, 2, "", True),
        ("rr", False, 1, "", False),
        ("tr", False, 1, "", True),
        ("ier", False, 3, "y", True),
        ("ies", False, 3, "y", True),
        ("sis", False, 2, "", False),
        ("is", False, 2, "", True),
        ("ness", False, 4, "", True),
        ("ss", False, 0, "", False),
        ("ous", False, 3, "", True),
        ("us", True, 2, "", False),
        ("s", True, 1, "", True),
        ("s", False, 0, "", False),
        ("plicat", False, 4, "y", False),
        ("at", False, 2, "", True),
        ("ment", False, 4, "", True),
        ("ent", False, 3, "", True),
        ("ant", False, 3, "", True),
        ("ript", False, 2, "b", False),
        ("orpt", False, 2, "b", False),
        ("duct", False, 1, "", False),
        ("sumpt", False, 2, "", False),
        ("cept", False, 2, "iv", False),
        ("olut", False, 2, "v", False),
        ("sist", False, 0, "", False),
        ("ist", False, 3, "", True),
        ("tt", False, 1, "", False),
        ("iqu", False, 3, "", False),
        ("ogu", False, 1, "", False),
        ("siv", False, 3, "j", True),
        ("eiv", False, 0, "", False),
        ("iv", False, 2, "", True),
        ("bly", False, 1, "", True),
        ("ily", False, 3, "y", True),
        ("ply", False, 0, "", False),
        ("ly", False, 2, "", True),
        ("ogy", False, 1, "", False),
        ("phy", False, 1, "", False),
        ("omy", False, 1, "", False),
        ("opy", False, 1, "", False),
        ("ity", False, 3, "", True),
        ("ety", False, 3, "", True),
        ("lty", False, 2, "", False),
        ("istry", False, 5, "", False),
        ("ary", False, 3, "", True),
        ("ory", False, 3, "", True),
        ("ify", False, 3, "", False),
        ("ncy", False, 2, "t", True),
        ("acy", False, 3, "", True),
        ("iz", False, 2, "", True),
        ("yz", False, 1, "s", False),
    )
)

_VOWELS = frozenset("aeiouy")


def _index(rules: tuple[Rule, ...]) -> dict[str, tuple[Rule, ...]]:
    """Group rules by the last letter of their ending, keeping table order."""
    index: dict[str, list[Rule]] = {}
    for rule in rules:
        index.setdefault(rule.ending[-1], []).append(rule)
    return {letter: tuple(group) for letter, group in index.items()}


_BY_LAST_LETTER = _index(RULES)


def _last_letter(word: str) -> str | None:
    """Last character of the word's leading run of letters (None if it starts with a non-letter)."""
    end = 0
    for ch in word:
        if not ch.isalpha():
            break
        end += 1
    return word[end - 1] if end else None


def _acceptable(word: str, remove: int) -> bool:
    """Whether removing ``remove`` letters from ``word`` leaves an acceptable stem."""
    kept = len(word) - remove
    if word[0] in _VOWELS:
        return kept >= 2
    return kept >= 3 and (word[1] in _VOWELS or word[2] in _VOWELS)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Return the Lancaster stem of ``word`` (lower-cased first), identical to NLTK's."""
    word = word.lower()
    intact = True
    while True:
        letter = _last_letter(word)
        rules = _BY_LAST_LETTER.get(letter) if letter is not None else None
        if not rules:
            return word
        for rule in rules:
            if rule.intact_only and not intact:
                continue
            if not word.endswith(rule.ending) or not _acceptable(word, rule.remove):
                continue
            word = word[: len(word) - rule.remove] + rule.append
            intact = False
            if not rule.proceed:
                return word
            break
        else:
            return word
