"""Realignment of one line-aligned pair whose original holds several sentences (``errtype-m2``'s
default for such lines; ``--no-realign`` and ``--errant-compat`` align the line as one sentence).

The pair comes parsed as one :class:`~errtype.tokens.Sentence` each; both sides are cut into
sentences by :func:`errtype.document.sentence_starts` on their tokens (no second parse: the tags
of the whole-line parse are kept), grouped by :func:`errtype.essay.realign.align_sentences`, and
each group whose tokens differ is annotated alone. The edits come back at offsets over the whole
line, so a line still gives one M2 block.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..document import sentence_starts
from ..edit import Edit
from ..merge import MAX_RULE_RUN
from ..tokens import Sentence, split_sentence
from .realign import EssayAnnotation, align_sentences, annotate_groups

__all__ = ["realigned_edits"]


def realigned_edits(annotator: Any, orig: Sentence, cor: Sentence,
                    starts: Sequence[int] | None = None, *, lev: bool = False,
                    merging: str = "rules", merge_run_limit: int = MAX_RULE_RUN) -> list[Edit]:
    """The edits turning ``orig`` into ``cor`` (module docstring), at token offsets over the
    pair. ``starts``: the original's sentence starts, if already known."""
    os_ = split_sentence(orig, starts if starts is not None else sentence_starts(orig.texts))
    cs_ = split_sentence(cor, sentence_starts(cor.texts)) if len(cor) else []
    groups = align_sentences(os_, cs_)
    per_group = annotate_groups(annotator, os_, cs_, groups, lev=lev, merging=merging,
                                merge_run_limit=merge_run_limit)
    ea = EssayAnnotation(os_, [cs_], [groups], [per_group])
    return ea.annotation().edits[0]
