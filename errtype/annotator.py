"""Annotator = parser + language: parse, align, merge, classify, annotate, stream."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .align import Alignment, align
from .edit import Edit, minimise
from .errors import ErrtypeError
from .lang import Language, Parser, declared_options, get_language, option_names
from .merge import MAX_RULE_RUN, STRATEGIES, merge
from .records import Annotation, Item
from .stream import StreamOptions, annotate_batches
from .tokens import Sentence


class Annotator:
    """Extract and type edits for one language with one parser."""

    def __init__(self, language: Language | str, parser: Parser | None = None,
                 **backend_options: Any) -> None:
        """``backend_options``: the options the language declares
        (:attr:`errtype.lang.base.Language.options`, e.g. ``feats=True``; those of another
        built-in language are refused) and the parser's (``spacy_model=`` ...)."""
        names = {o.name for _, o, _ in declared_options()} | (
            option_names(language) if isinstance(language, str)
            else {o.name for o in language.options})
        options = {k: backend_options.pop(k) for k in names if k in backend_options}
        if isinstance(language, str):
            language = get_language(language, **options)
        elif options:
            language = language.with_options(**options)
        self.language = language
        self.parser = parser if parser is not None else self.language.make_parser(**backend_options)
        self._warm = False

    @property
    def lang(self) -> str:
        return self.language.code

    def parse(self, text: str, tokenize: bool | None = None) -> Sentence:
        """Parse one sentence. ``tokenize=None`` (default): as annotation reads a string,
        segmented by the parser in a language written without spaces (Japanese, Chinese) and
        whitespace-tokenised in the others; ``True``: tokenised by the parser; ``False``:
        pre-tokenised text, its tokens separated by spaces."""
        return self.parser.parse(text, not self.language.spaced if tokenize is None
                                 else tokenize)

    def segment(self, texts: Iterable[str], corrections: bool = False) -> list[str]:
        """The texts tokenised as annotation tokenises strings (:meth:`annotate`,
        ``errtype-m2``), tokens joined by single spaces: segmented by the parser in a language
        written without spaces (``corrections``: first rewritten as the language rewrites a
        correction, e.g. Chinese in simplified characters), unchanged in the others."""
        texts = list(texts)
        if self.language.spaced:
            return texts
        if corrections:
            texts = [self.language.correction_text(t) for t in texts]
        return [" ".join(s.texts) for s in self.parser.parse_many(texts, True)]

    def _sent(self, x: str | Sentence, tokenize: bool = False) -> Sentence:
        return x if isinstance(x, Sentence) else self.parse(x, tokenize)

    def _pair(self, orig: str | Sentence, cor: str | Sentence) -> tuple[Sentence, Sentence]:
        """Both sides parsed; two strings in one parse batch (text written without spaces is
        segmented; the language may normalise a correction string first)."""
        raw = not self.language.spaced
        if isinstance(cor, str):
            cor = self.language.correction_text(cor)
        if isinstance(orig, str) and isinstance(cor, str):
            o, c = self.parser.parse_many([orig, cor], raw)
            return o, c
        return self._sent(orig, raw), self._sent(cor, raw)

    def align(self, orig: str | Sentence, cor: str | Sentence, lev: bool = False) -> Alignment:
        return align(*self._pair(orig, cor), self.language, lev)

    def merge(self, alignment: Alignment, merging: str = "rules",
              run_limit: int = MAX_RULE_RUN) -> list[Edit]:
        """Untyped edits (type "NA") from an alignment (``run_limit``: see
        :data:`errtype.merge.MAX_RULE_RUN`)."""
        o, c = alignment.orig, alignment.cor
        spans = merge(alignment.align_seq, o, c, self.language, merging, run_limit)
        return [Edit.from_spans(o, c, *s) for s in spans]

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> Edit:
        """The edit with its type set."""
        return edit.with_type(self.language.classify(edit, orig, cor))

    def annotate(self, orig: str | Sentence, cor: str | Sentence, lev: bool = False,
                 merging: str = "rules", merge_run_limit: int = MAX_RULE_RUN) -> list[Edit]:
        """Align, merge and classify: the typed edits turning ``orig`` into ``cor`` (strings are
        whitespace-tokenised, or segmented by the parser in a language written without spaces;
        ``merge_run_limit``: see :data:`errtype.merge.MAX_RULE_RUN`; 0 = unbounded)."""
        _check_merging(merging, merge_run_limit)
        o, c = self._pair(orig, cor)
        alignment = align(o, c, self.language, lev)
        return [self.classify(e, o, c) for e in self.merge(alignment, merging, merge_run_limit)]

    def annotate_alternatives(self, orig: str | Sentence, cor: str | Sentence, lev: bool = False,
                              merging: str = "rules", merge_run_limit: int = MAX_RULE_RUN
                              ) -> list[list[Edit]]:
        """Every distinct edit sequence of the alignments the language lists
        (:meth:`errtype.lang.base.Language.alignments`: equal-cost ones for Chinese), the first
        being :meth:`annotate`'s; sequences with the same spans are listed once."""
        _check_merging(merging, merge_run_limit)
        o, c = self._pair(orig, cor)
        alignment = align(o, c, self.language, lev)
        seqs = [alignment.align_seq] if lev else self.language.alignments(alignment)
        seen: list[list] = []
        out: list[list[Edit]] = []
        for seq in seqs:
            spans = merge(seq, o, c, self.language, merging, merge_run_limit)
            if spans in seen:
                continue
            seen.append(spans)
            out.append([self.classify(Edit.from_spans(o, c, *s), o, c) for s in spans])
        return out

    def import_edit(self, orig: str | Sentence, cor: str | Sentence,
                    edit: Sequence[Any] | Edit, min: bool = True, old_cat: bool = False) -> Edit:
        """Build an Edit from ``[o_start, o_end, c_start, c_end(, type)]``, minimise and type it."""
        o, c = self._pair(orig, cor)
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

    def warm_up(self) -> None:
        """Load what annotation loads lazily (word lists, lexicons), e.g. before forking (once:
        later calls return at once)."""
        if getattr(self, "_warm", False):
            return
        texts = ("He go to scool .", "He goes to the school !")
        try:
            orig, cor = (self.parse(t) for t in texts)
        except ErrtypeError:  # a parser for pre-parsed input only: bare words still classify
            orig, cor = (Sentence.from_words(t.split()) for t in texts)
        self.annotate(orig, cor)
        self._warm = True

    def annotate_stream(self, items: Iterable[Item], lev: bool = False, merging: str = "rules",
                        tokenize: bool = False, batch_size: int = 512, *, jobs: int = 1,
                        on_error: str = "fail", max_tokens: int | None = None,
                        parse_noops: bool = False, merge_run_limit: int = MAX_RULE_RUN,
                        transform: Callable[[Annotation, Any], Any] | None = None,
                        pretokenised: bool = False,
                        realign: Callable[..., list[Edit]] | None = None) -> Iterator[Any]:
        """Annotate items ``(orig, cor)`` or ``(orig, [cor, ...])`` lazily; one Annotation per
        item, in input order. Strings are parsed in batches; Sentences are used as they are.

        Only what can yield an edit is parsed: an item whose corrections are all token-identical
        to the original gets the parser's tokens without tagging (``parse_noops=True`` parses
        it anyway), and a string repeated in a batch is parsed once. Output is the same.

        ``on_error="fail"`` raises :class:`~errtype.errors.AnnotationError` (with the item's
        0-based ``index``) for an item that cannot be annotated; ``"skip"`` yields it with
        ``error`` set. Items with more than ``max_tokens`` tokens (in the original or a
        correction, counted as the language aligns them: characters for Chinese, MeCab's words
        for Japanese) are skipped likewise.
        ``merge_run_limit``: see :data:`errtype.merge.MAX_RULE_RUN` (0 = ERRANT's unbounded).
        ``jobs > 1`` annotates batches in forked worker processes sharing the loaded models, a
        worker's batch at most :data:`~errtype.stream.WORKER_TASK` items (so that the workers
        finish together); at most ``2 * jobs`` batches are in flight, so memory stays bounded.
        While such a stream is open, this process keeps the parser's BLAS thread policy (one
        thread by default; :mod:`errtype.parse.blas`), which the workers inherit.
        ``transform(annotation, (orig, [cor, ...]))``, if given, runs where the item was
        annotated (in the worker) and its result is yielded instead: e.g. M2 formatting, so
        only strings cross process boundaries. ``pretokenised``: strings are tokens separated
        by spaces in every language (a language written without spaces segments them
        otherwise, whatever ``tokenize`` says), e.g. characters scored as tokens.
        ``realign`` (e.g. :func:`errtype.essay.pairs.realigned_edits`): an item whose original
        holds more than one sentence is aligned sentence by sentence by it (edits still at
        offsets over the item), in time linear in its length; a one-sentence original is
        unaffected.
        """
        _check_merging(merging, merge_run_limit)
        if on_error not in ("fail", "skip"):
            raise ValueError(f"on_error must be 'fail' or 'skip', not {on_error!r}")
        tokenize = not pretokenised and (tokenize or not self.language.spaced)
        options = StreamOptions(lev, merging, tokenize, on_error, max_tokens, parse_noops,
                                merge_run_limit, realign)
        return annotate_batches(self, items, options, batch_size, jobs, transform)


def _check_merging(merging: str, run_limit: int) -> None:
    if merging not in STRATEGIES:
        raise ValueError(f"unknown merging strategy {merging!r}; choose from: "
                         f"{', '.join(STRATEGIES)}")
    if not isinstance(run_limit, int) or run_limit < 0:
        raise ValueError(f"merge_run_limit must be an integer >= 0, not {run_limit!r}")
