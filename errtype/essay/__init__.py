"""Essays: whole texts (several sentences and paragraphs) rather than single sentences.

:mod:`errtype.essay.multigec` reads and writes MultiGEC-2025's Markdown essay files;
:mod:`errtype.essay.segment` and :mod:`errtype.essay.realign` segment essays into sentences,
align the sentences of an essay and its corrections, and extract edits group by group.
"""

from __future__ import annotations

from .multigec import (
    OFFICIAL_MISSING_HYPOTHESIS,
    Essay,
    Metadata,
    ParallelEssay,
    hypothesis_text,
    is_multigec,
    metadata_notes,
    parse_name,
    read_metadata,
    read_multigec,
    read_parallel_essays,
    write_multigec,
)

__all__ = ["OFFICIAL_MISSING_HYPOTHESIS", "Essay", "Metadata", "ParallelEssay", "hypothesis_text",
           "is_multigec", "metadata_notes", "parse_name", "read_metadata", "read_multigec",
           "read_parallel_essays", "write_multigec"]
