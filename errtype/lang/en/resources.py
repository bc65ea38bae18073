"""English resources: the SCOWL en_GB-large word list and the PTB -> classifier POS map."""

from __future__ import annotations

from functools import cache

from ...data import resource_path

#: tags missing from the map file that spaCy can produce (added by ERRANT on load)
_EXTRA_TAGS = {'""': "PUNCT", "SP": "SPACE", "_SP": "SPACE", "BES": "VERB", "HVS": "VERB",
               "ADD": "X", "GW": "X", "NFP": "X", "XX": "X"}
_RENAME = {"ADP": "PREP", "PROPN": "NOUN", "CCONJ": "CONJ"}


@cache
def word_list() -> frozenset[str]:
    """The 170,565 words of SCOWL en_GB-large 2020.12.07 (CRLF stripped), read as UTF-8."""
    with open(resource_path("en_GB-large.txt"), encoding="utf-8") as fh:
        return frozenset(line.rstrip("\r\n") for line in fh)


@cache
def tag_map() -> dict[str, str]:
    """PTB fine tag -> the classifier's coarse POS (ADP->PREP, PROPN->NOUN, CCONJ->CONJ)."""
    mapping: dict[str, str] = {}
    with open(resource_path("en-ptb_map"), encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\r\n").split("\t")
            if len(parts) == 2:
                mapping[parts[0]] = _RENAME.get(parts[1], parts[1])
    mapping.update(_EXTRA_TAGS)
    return mapping
