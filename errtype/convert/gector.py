"""GECToR's edit tags: the labelled format of grammarly/gector's ``utils/preprocess_data.py``.

A tagged sentence is ``$START`` followed by the source tokens, each written ``TOKEN`` +
``SEPL|||SEPR`` + its labels joined by ``SEPL__SEPR``; tokens are separated by single spaces. A
label is ``$KEEP``, ``$DELETE``, ``$APPEND_w`` (insert ``w`` after the token), ``$REPLACE_w``,
``$MERGE_SPACE`` / ``$MERGE_HYPHEN`` (join the token with the next), ``$MERGE_SWAP`` (swap it with
the next), or a transformation: ``$TRANSFORM_CASE_*``, ``$TRANSFORM_SPLIT_HYPHEN``,
``$TRANSFORM_AGREEMENT_SINGULAR/PLURAL`` and ``$TRANSFORM_VERB_<T1>_<T2>`` (a verb form looked up
in a :class:`VerbForms` vocabulary).

:class:`Tagger` reproduces GECToR's script exactly (same labels, same pairs dropped): the word
alignment is ``difflib``'s (as GECToR's), each replaced span is split into single-token
operations by GECToR's dynamic programme (costs: 0 for a transformation, else the Levenshtein
distance), and a pair is kept only when GECToR's own reading of its tags (:meth:`Tagger.read`,
quirks included) gives back the correction, whitespace ignored. :meth:`Tagger.tag_edits` takes
the spans from edits instead (M2, errtype's alignment). The file conversions are in
:mod:`errtype.convert.gector_files`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import accumulate

from rapidfuzz.distance import Levenshtein

from ..errors import InputError

PathLike = str | os.PathLike[str]

START = "$START"
LABELS = "SEPL|||SEPR"  # between a token and its labels
OPERATIONS = "SEPL__SEPR"  # between two labels of one token
KEEP = "$KEEP"
DELETE = "$DELETE"
APPEND = "$APPEND_"
REPLACE = "$REPLACE_"
TRANSFORM = "$TRANSFORM"
MERGE = "$MERGE_"
SPLIT_HYPHEN = "$TRANSFORM_SPLIT_HYPHEN"
VERB = "$TRANSFORM_VERB_"
VERB_FORMS = "verb-form-vocab.txt"  # errtype's default vocabulary, in resources/

#: why GECToR's script leaves a pair out (the keys of :attr:`GectorReport.dropped`)
EMPTY = "an empty line on either side"
UNTAGGABLE = "its tags do not read back to the correction"
DELIMITER = "it contains GECToR's delimiter SEPL|||SEPR or SEPL__SEPR (GECToR's script stops " \
            "with an error on it)"
FAILS = "GECToR's reading of its tags fails (GECToR's script stops with an error on it)"

Labels = list[list[str]]
#: one edit span for :meth:`Tagger.tag_edits`: (source start, source end, corrected tokens)
Span = tuple[int, int, Sequence[str]]


class VerbForms:
    """A verb-form vocabulary as GECToR reads ``data/verb-form-vocab.txt``: lines
    ``word1_word2:T1_T2``; the first line of each ``word1_T1_T2`` decodes, and the last line
    (among those) of each ``word1_word2`` encodes."""

    __slots__ = ("decode", "encode", "longest", "name", "spaced")

    def __init__(self, encode: dict[str, str], decode: dict[str, str], name: str = "") -> None:
        self.encode = encode  # "word1_word2" -> "T1_T2"
        self.decode = decode  # "word1_T1_T2" -> "word2"
        self.name = name
        self.spaced = any(" " in key for key in encode)  # can a multi-token string match?
        #: no text of several tokens longer than this is an entry's ``word2`` (0: none is)
        self.longest = max((len(key) for key in encode if " " in key), default=0)

    @classmethod
    def read(cls, path: PathLike) -> VerbForms:
        """Read a vocabulary file (:class:`InputError` naming the line of a malformed one)."""
        from ..textio import _open_binary, read_lines

        with _open_binary(path) as fh:
            raw = fh.read()
        try:
            text = raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:  # read again, for the error naming line and byte
            text = "\n".join(line.text for line in read_lines(path))
        encode: dict[str, str] = {}
        decode: dict[str, str] = {}
        for number, line in enumerate(text.split("\n"), 1):
            words, _, tags = line.partition(":")
            w1, _, w2 = words.partition("_")
            t1, _, t2 = tags.partition("_")
            if words.count("_") != 1 or tags.count("_") != 1 or ":" in tags:
                if not line.strip():
                    continue
                raise InputError(f"not a verb-form line 'word1_word2:TAG1_TAG2': {line!r}",
                                 path=str(path), line=number)
            key = f"{w1}_{t1}_{t2.strip()}"
            if key in decode:
                continue
            encode[words] = tags.strip()
            decode[key] = w2
        return cls(encode, decode, str(path))

    @classmethod
    def default(cls) -> VerbForms:
        """errtype's vocabulary, generated from LemmInflect (see ``resources/README.md``)."""
        return _default_verbs()

    def encoded(self, word: str, form: str) -> str | None:
        """``T1_T2`` when ``form`` is a form of the verb ``word`` (GECToR's encode_verb_form)."""
        tags = self.encode.get(f"{word}_{form}")
        return tags if word and tags else None

    def decoded(self, word: str, tags: str) -> str | None:
        return self.decode.get(f"{word}_{tags}")


@lru_cache(maxsize=1)
def _default_verbs() -> VerbForms:
    from ..data import resource_path

    return VerbForms.read(resource_path(VERB_FORMS))


def _case(src: str, tgt: str) -> str | None:
    if src.lower() != tgt.lower():
        return None
    if src.lower() == tgt:
        return "$TRANSFORM_CASE_LOWER"
    if src.capitalize() == tgt:
        return "$TRANSFORM_CASE_CAPITAL"
    if src.upper() == tgt:
        return "$TRANSFORM_CASE_UPPER"
    if src[1:].capitalize() == tgt[1:] and src[0] == tgt[0]:
        return "$TRANSFORM_CASE_CAPITAL_1"
    if src[:-1].upper() == tgt[:-1] and src[-1] == tgt[-1]:
        return "$TRANSFORM_CASE_UPPER_-1"
    return None


def _case_back(token: str, label: str) -> str:
    if not label.startswith("$TRANSFORM_CASE_"):
        return token
    for suffix, change in (("LOWER", str.lower), ("UPPER", str.upper),
                           ("CAPITAL", str.capitalize)):
        if label.endswith(suffix):
            return change(token)
    if label.endswith("CAPITAL_1"):
        return token[0] + token[1:].capitalize()
    if label.endswith("UPPER_-1"):
        return token[:-1].upper() + token[-1]
    return token


class Tagger:
    """GECToR's tagging and its reading of tags, with one verb-form vocabulary."""

    def __init__(self, verbs: VerbForms | None = None) -> None:
        self.verbs = VerbForms.default() if verbs is None else verbs

    # --- labels of a pair -----------------------------------------------------------------

    def transformation(self, src: str, tgt: str) -> str | None:
        """The label that turns token ``src`` into ``tgt`` (several space-separated tokens only
        by a hyphen split), or None: equal, case, verb form, singular/plural, in that order."""
        if " " in tgt and src.split("-") == tgt.split():  # tokens hold no whitespace
            return SPLIT_HYPHEN
        if src == tgt:
            return KEEP
        label = _case(src, tgt)
        if label is not None:
            return label
        tags = self.verbs.encoded(src, tgt)
        if tags:
            return VERB + tags
        if src.endswith("s") and src[:-1] == tgt:
            return "$TRANSFORM_AGREEMENT_SINGULAR"
        if tgt.endswith("s") and src == tgt[:-1]:
            return "$TRANSFORM_AGREEMENT_PLURAL"
        return None

    def _token_spans(self, src: list[str], tgt: list[str]) -> list[tuple[int, int]]:
        """GECToR's alignment of a replaced span: each source token's slice of ``tgt``
        (contiguous, possibly empty) at the least total cost, ties to the earliest slice. A
        slice costs 0 when a transformation turns the token into it, else their Levenshtein
        distance to the slice's tokens joined by three spaces; several tokens (tokens hold no
        whitespace, nor does a change of case make any) can only be a hyphen split or a
        vocabulary entry holding spaces.

        GECToR's programme tries every slice for every token (cubic, and its joined strings
        take memory to match). This one gives the same slices reading far fewer: no slice is
        joined before it is read, the last token takes the rest, and a slice is left out when
        a lower bound of any path through it (the cost so far plus the difference of lengths)
        exceeds the cost of a complete alignment found first (:meth:`_some_spans`). A path
        left out is dearer than the cheapest, so every cheapest path keeps its exact costs and
        the earliest-slice ties of the full programme.
        """
        n, m = len(src), len(tgt)
        text = "   ".join(tgt)
        starts = list(accumulate((len(t) + 3 for t in tgt), initial=0))  # of tgt[j] in text
        bound = self._path_cost(src, tgt, text, starts, self._some_spans(n, m))
        distance, zero_cost = Levenshtein.distance, self._zero_cost
        inf = 10 ** 9
        cost: list[dict[int, int]] = [{0: 0}]  # per row, the reachable columns' costs
        back: list[dict[int, int]] = [{}]
        for i in range(n):
            token, here = src[i], cost[i]
            size = len(token)
            row: dict[int, int] = {}
            row_back: dict[int, int] = {}
            parts = len(token.split("-"))
            for j in sorted(here):
                base = here[j]
                if base > bound:
                    continue
                for k in range(m if i == n - 1 else j, m + 1):  # the last token takes the rest
                    length = starts[k] - starts[j] - 3 if k > j else 0
                    over = length - size - (bound - base)  # > 0: too long to be this cheap
                    if over > 0 and k - j > max(parts, 1) and length > self.verbs.longest:
                        break  # longer slices only get dearer, none can cost 0
                    best = row.get(k, inf)
                    if best <= base:
                        continue
                    piece = text[starts[j]:starts[k] - 3] if k > j else ""
                    if zero_cost(token, piece, tgt, j, k):
                        row[k], row_back[k] = base, j
                        continue
                    cutoff = min(best - 1, bound) - base
                    if over > 0 or abs(length - size) > cutoff:
                        continue
                    d = distance(token, piece, score_cutoff=cutoff)
                    if d <= cutoff:
                        row[k], row_back[k] = base + d, j
            cost.append(row)
            back.append(row_back)
        spans: list[tuple[int, int]] = []
        k = m
        for i in range(n, 0, -1):
            j = back[i][k]
            spans.append((j, k))
            k = j
        spans.reverse()
        return spans

    def _zero_cost(self, token: str, piece: str, tgt: Sequence[str], j: int, k: int) -> bool:
        """Whether a transformation turns ``token`` into ``piece`` (``tgt[j:k]`` joined)."""
        if k - j < 2:
            return self.transformation(token, piece) is not None
        return (k - j == len(token.split("-")) and token.split("-") == list(tgt[j:k])) \
            or bool(self.verbs.spaced and self.verbs.encoded(token, piece))

    @staticmethod
    def _some_spans(n: int, m: int) -> list[tuple[int, int]]:
        """A complete alignment: the target shared out in proportion."""
        return [(i * m // n, (i + 1) * m // n) for i in range(n)]

    def _path_cost(self, src: list[str], tgt: list[str], text: str, starts: list[int],
                   spans: list[tuple[int, int]]) -> int:
        total = 0
        for token, (j, k) in zip(src, spans, strict=True):
            piece = text[starts[j]:starts[k] - 3] if k > j else ""
            if not self._zero_cost(token, piece, tgt, j, k):
                total += Levenshtein.distance(token, piece)
        return total

    def _replaced(self, token: str, tgt: Sequence[str], at: int) -> list[tuple[int, str]]:
        """Labels (label index, label) of source token ``at`` written as ``tgt``."""
        token = token.replace("REPLACE_", "")  # as GECToR recovers it from its alignment tag
        if not tgt:
            return [(at + 1, DELETE)]
        parts = len(token.split("-"))
        joined = tgt[0]
        for i in range(1, len(tgt)):
            joined += " " + tgt[i]
            if i >= parts and len(joined) > self.verbs.longest:
                break  # only a hyphen split or a vocabulary entry makes several tokens
            label = self.transformation(token, joined)
            if label:
                return [(at + 1, label)] + [(at + 1, APPEND + w) for w in tgt[i + 1:]]
        labels, costs = [], []
        for w in tgt:
            label = self.transformation(token, w)
            labels.append(label)
            costs.append(0 if label else Levenshtein.distance(token, w))
        best = costs.index(min(costs))
        out = [(at, APPEND + w) for w in tgt[:best]]
        out.append((at + 1, labels[best] or REPLACE + tgt[best]))
        out.extend((at + 1, APPEND + w) for w in tgt[best + 1:])
        return out

    def _span_labels(self, src: list[str], tgt: list[str], i1: int) -> list[tuple[int, str]]:
        """Labels of source tokens ``src`` (from ``i1``) replaced by ``tgt``."""
        if not src:
            return [(i1, APPEND + w) for w in tgt]
        if not tgt:
            return [(i1 + k + 1, DELETE) for k in range(len(src))]
        if len(src) > 1 and len(tgt) == 1:
            merge = "$MERGE_SPACE" if "".join(src) == tgt[0] else \
                "$MERGE_HYPHEN" if "-".join(src) == tgt[0] else None
            if merge:
                return [(i1 + k + 1, merge) for k in range(len(src) - 1)]
        if len(src) == len(tgt) == 2 and src == tgt[::-1]:
            return [(i1 + 1, "$MERGE_SWAP")]
        out: list[tuple[int, str]] = []
        for k, (j, e) in enumerate(self._token_spans(src, tgt)):
            out.extend(self._replaced(src[k], tgt[j:e], i1 + k))
        return out

    @staticmethod
    def _labels(n: int, found: Iterable[tuple[int, str]]) -> Labels:
        labels: Labels = [[] for _ in range(n + 1)]
        for at, label in found:
            labels[at].append(label)
        for slot in labels:
            if not slot:
                slot.append(KEEP)
        return labels

    def tag(self, src: list[str], tgt: list[str]) -> Labels:
        """The labels of ``$START`` and every token of ``src`` (GECToR's ``align_sequences``:
        difflib's opcodes, autojunk included)."""
        found: list[tuple[int, str]] = []
        if src != tgt:
            for op, i1, i2, j1, j2 in SequenceMatcher(None, src, tgt).get_opcodes():
                if op != "equal":
                    found.extend(self._span_labels(src[i1:i2], tgt[j1:j2], i1))
        return self._labels(len(src), found)

    def tag_edits(self, src: list[str], edits: Iterable[Span]) -> Labels:
        """The labels of ``src`` with the spans of ``edits`` (sorted, not overlapping) in place of
        difflib's: an insertion appends to the token before it, a deletion deletes, a
        replacement is labelled as GECToR labels a replaced span."""
        found: list[tuple[int, str]] = []
        for start, end, cor in edits:
            found.extend(self._span_labels(src[start:end], list(cor), start))
        return self._labels(len(src), found)

    # --- GECToR's reading of tags ---------------------------------------------------------

    def _reverse(self, token: str, label: str) -> str:
        """A ``$TRANSFORM`` label applied to ``token`` (GECToR's ``apply_reverse_transformation``;
        an unknown one raises ValueError)."""
        if label.startswith("$TRANSFORM_CASE"):
            return _case_back(token, label)
        if label.startswith("$TRANSFORM_VERB"):
            if not label.startswith(VERB):
                raise ValueError(f"unknown label {label}")
            word = self.verbs.decoded(token, label[len(VERB):])
            return token if word is None else word
        if label.startswith("$TRANSFORM_SPLIT"):
            return " ".join(token.split("-"))
        if label.startswith("$TRANSFORM_AGREEMENT"):
            if label.endswith("PLURAL"):
                return token + "s"
            if label.endswith("SINGULAR"):
                return token[:-1]
        raise ValueError(f"unknown label {label}")

    def read(self, tokens: Sequence[str], labels: Labels) -> str:
        """The corrected sentence GECToR's ``preprocess_data.py`` reads from ``labels`` (its
        check of every pair): labels applied level by level (a token's first label, then its
        second, ...), merges at the last level. Its quirks are kept: ``$MERGE_SWAP`` takes
        effect only as the second or the last token of the result, and a ``$MERGE_*`` at either
        end of the sentence stays in the text. Raises IndexError or ValueError where GECToR's
        script stops with an error."""
        pending = [(i - 1, ops) for i, ops in enumerate(labels) if ops != [KEEP]]
        out = list(tokens)
        if not pending:
            return " ".join(out)
        levels = max(len(ops) for _, ops in pending)
        for level in range(levels):
            last = level == levels - 1
            later: list[tuple[int, list[str]]] = []
            shift = 0
            for start, ops in pending:
                label = ops[0]
                at = start + shift
                token = out[at] if at >= 0 else START
                if label == DELETE:
                    del out[at]
                    shift -= 1
                elif label.startswith(APPEND):
                    out[at + 1:at + 1] = [label.replace(APPEND, "")]
                    shift += 1
                elif label.startswith(REPLACE):
                    out[at] = label.replace(REPLACE, "")
                elif label.startswith(TRANSFORM):
                    out[at] = self._reverse(token, label)
                elif label.startswith(MERGE):
                    if last:
                        out[at + 1:at + 1] = [label]
                        shift += 1
                    else:
                        later.append((start + shift, [label]))
                if len(ops) > 1:
                    later.append((start + shift, ops[1:]))
            pending = later
        return " ".join(_merged(out))

    def reads_back(self, tokens: Sequence[str], labels: Labels, target: str) -> bool | None:
        """Whether GECToR keeps the pair: :meth:`read` equals ``target`` with all whitespace
        removed (None: GECToR's reading fails)."""
        try:
            text = self.read(tokens, labels)
        except (IndexError, ValueError):
            return None
        return "".join(text.split()) == "".join(target.split())


#: the complete labels (the rest of a label is a word or a verb form's tags)
_WHOLE = frozenset({KEEP, DELETE, SPLIT_HYPHEN, "$MERGE_SPACE", "$MERGE_HYPHEN", "$MERGE_SWAP",
                    "$TRANSFORM_AGREEMENT_SINGULAR", "$TRANSFORM_AGREEMENT_PLURAL",
                    *(f"$TRANSFORM_CASE_{c}" for c in ("LOWER", "UPPER", "CAPITAL", "CAPITAL_1",
                                                       "UPPER_-1"))})


def known_label(label: str) -> bool:
    """Whether ``label`` is one GECToR's tagging writes: a label of the module docstring,
    ``$APPEND_w`` and ``$REPLACE_w`` with a word ``w``, ``$TRANSFORM_VERB_T1_T2`` with two tags.
    (GECToR's reading passes over any other label, or stops on some: never what a tag file
    means.)"""
    if label in _WHOLE:
        return True
    for prefix in (APPEND, REPLACE):
        if label.startswith(prefix):
            return len(label) > len(prefix)
    if label.startswith(VERB):
        first, sep, second = label[len(VERB):].partition("_")
        return bool(first and sep and second) and "_" not in second
    return False


def _merged(tokens: list[str]) -> list[str]:
    """GECToR's ``replace_merge_transforms`` of preprocess_data.py, quirks included."""
    if not any(t.startswith(MERGE) for t in tokens):
        return tokens
    out = tokens[:]
    edges = (1, len(tokens) - 1)  # GECToR tests membership of this pair, not a range
    for i, token in enumerate(tokens):
        if token.startswith("$MERGE_SWAP") and i in edges:
            out[i - 1] = tokens[i + 1]
            out[i + 1] = tokens[i - 1]
            out[i:i + 1] = []
    text = " ".join(out).replace(" $MERGE_HYPHEN ", "-").replace(" $MERGE_SPACE ", "")
    return text.split()


# --- the line format ----------------------------------------------------------------------------

def writable(text: str) -> bool:
    """False when ``text`` holds one of the format's delimiters (GECToR's ``is_sent_ok``)."""
    return LABELS not in text and OPERATIONS not in text


def format_line(tokens: Sequence[str], labels: Labels) -> str:
    """``$START`` and ``tokens`` with their labels, as GECToR writes them."""
    return " ".join(f"{t}{LABELS}{OPERATIONS.join(ops)}"
                    for t, ops in zip([START, *tokens], labels, strict=True))


def parse_line(line: str) -> tuple[list[str], Labels]:
    """The tokens (without ``$START``) and labels of a tagged line (ValueError if malformed)."""
    tokens: list[str] = []
    labels: Labels = []
    for part in line.split(" "):
        token, sep, ops = part.partition(LABELS)
        if not sep:
            raise ValueError(f"{part!r} has no {LABELS} between the token and its labels")
        tokens.append(token)
        labels.append(ops.split(OPERATIONS))
    if not tokens or tokens[0] != START:
        raise ValueError(f"a tagged line starts with {START}{LABELS}")
    return tokens[1:], labels


__all__ = ["DELIMITER", "EMPTY", "FAILS", "UNTAGGABLE", "Tagger", "VerbForms", "format_line",
           "known_label", "parse_line", "writable"]
