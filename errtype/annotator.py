"""Annotator = parser + language: parse, align, merge, classify, annotate, stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from .align import Alignment, align
from .edit import Edit, minimise
from .lang import Language, Parser, get_language
from .merge import STRATEGIES, merge
from .tokens import Sentence


@dataclass
class Annotation:
    """One original sentence with its corrections and the typed edits of each correction."""

    orig: Sentence
    cors: list[Sentence] = field(default_factory=list)
    edits: list[list[Edit]] = field(default_factory=list)
    #: per correction: True when it is token-identical to the original (an M2 noop)
    noop: list[bool] = field(default_factory=list)


class Annotator:
    """Extract and type edits for one language with one parser."""

    def __init__(self, language: Language | str, parser: Parser | None = None,
                 **backend_options: Any) -> None:
        options = {k: backend_options.pop(k) for k in ("feats",) if k in backend_options}
        if isinstance(language, str):
            language = get_language(language, **options)
        elif options:
            language = language.with_options(**options)
        self.language = language
        self.parser = parser if parser is not None else self.language.make_parser(**backend_options)

    @property
    def lang(self) -> str:
        return self.language.code

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        """Parse one sentence (whitespace-tokenised unless ``tokenize``)."""
        return self.parser.parse(text, tokenize)

    def _sent(self, x: str | Sentence, tokenize: bool = False) -> Sentence:
        return x if isinstance(x, Sentence) else self.parse(x, tokenize)

    def align(self, orig: str | Sentence, cor: str | Sentence, lev: bool = False) -> Alignment:
        return align(self._sent(orig), self._sent(cor), self.language, lev)

    def merge(self, alignment: Alignment, merging: str = "rules") -> list[Edit]:
        """Untyped edits (type "NA") from an alignment."""
        o, c = alignment.orig, alignment.cor
        spans = merge(alignment.align_seq, o, c, self.language, merging)
        return [Edit.from_spans(o, c, *s) for s in spans]

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> Edit:
        """The edit with its type set."""
        return edit.with_type(self.language.classify(edit, orig, cor))

    def annotate(self, orig: str | Sentence, cor: str | Sentence, lev: bool = False,
                 merging: str = "rules") -> list[Edit]:
        """Align, merge and classify: the typed edits turning ``orig`` into ``cor``."""
        if merging not in STRATEGIES:
            raise ValueError(f"unknown merging strategy {merging!r}; choose from: "
                             f"{', '.join(STRATEGIES)}")
        o, c = self._sent(orig), self._sent(cor)
        alignment = align(o, c, self.language, lev)
        return [self.classify(e, o, c) for e in self.merge(alignment, merging)]

    def import_edit(self, orig: str | Sentence, cor: str | Sentence,
                    edit: Sequence[Any] | Edit, min: bool = True, old_cat: bool = False) -> Edit:
        """Build an Edit from ``[o_start, o_end, c_start, c_end(, type)]``, minimise and type it."""
        o, c = self._sent(orig), self._sent(cor)
        if isinstance(edit, Edit):
            span, etype = list(edit.span), edit.type
        else:
            if len(edit) not in (4, 5):
                raise ValueError("edit not of the form [o_start, o_end, c_start, c_end, (type)]")
            span, etype = list(edit[:4]), (edit[4] if len(edit) == 5 else "NA")
        e = Edit.from_spans(o, c, *span, type=etype)
        if min:
            e = minimise(e, o, c)
        if not old_cat:
            e = self.classify(e, o, c)
        return e

    def annotate_stream(self, items: Iterable[tuple[str, str | Sequence[str]]],
                        lev: bool = False, merging: str = "rules", tokenize: bool = False,
                        batch_size: int = 512) -> Iterator[Annotation]:
        """Annotate pairs (orig, cor) or (orig, [cor, ...]) lazily, parsing in batches.

        Memory is bounded by ``batch_size`` pairs, whatever the corpus size; one Annotation is
        yielded per input item, in order.
        """
        it = iter(items)
        while batch := list(islice(it, batch_size)):
            texts: list[str] = []
            shapes: list[int] = []
            for orig, cors in batch:
                cors = [cors] if isinstance(cors, str) else list(cors)
                texts.append(orig)
                texts.extend(cors)
                shapes.append(len(cors))
            parsed = iter(self.parser.parse_many(texts, tokenize))
            for n in shapes:
                o = next(parsed)
                ann = Annotation(o)
                for _ in range(n):
                    c = next(parsed)
                    ann.cors.append(c)
                    same = o.texts == c.texts
                    ann.noop.append(same)
                    ann.edits.append([] if same else self.annotate(o, c, lev, merging))
                yield ann
