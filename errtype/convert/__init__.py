"""Corpus-level conversions, grouped by direction of flow.

Producers make edits from text (:mod:`.annotate`: parallel text or CoNLL-U -> M2;
:mod:`.reannotate`: M2 -> re-typed M2; :mod:`.hf`: edit columns of a Hugging Face dataset;
:mod:`.gector_files`: GECToR's edit tags of parallel text or M2, and back); exporters turn M2 into
other formats (:mod:`.export`: parallel text, JSON lines; :mod:`.table`: one row per edit as JSON
lines, TSV, Parquet or pandas). :mod:`.gector` is GECToR's tag format and alignment, :mod:`.output`
is where producers write: the :class:`Report`, atomic or resumable output and the identity a
resumed job must share with the run that died.

All stream their input, write exactly one output record per input sentence in input order, and
write atomically (or, given ``resume=True``, resumably). They return what they did; nothing is
printed here.
"""

from ..textio import count_lines
from .annotate import (
    checked,
    conllu_to_m2,
    format_annotation,
    para_to_m2,
    parallel_items,
    parallel_to_m2,
    read_para,
    write_m2_stream,
)
from .export import block_to_json, m2_to_dialect, m2_to_jsonl, m2_to_text
from .output import Formatted, Report, job_identity, m2_sink
from .reannotate import m2_block_count, m2_to_m2, reannotate_block, retype_cherrant_block

__all__ = ["Formatted", "Report", "block_to_json", "checked", "conllu_to_m2", "count_lines",
           "format_annotation", "job_identity", "m2_block_count", "m2_sink", "m2_to_dialect",
           "m2_to_jsonl", "m2_to_m2", "m2_to_text", "para_to_m2", "parallel_items",
           "parallel_to_m2", "read_para", "reannotate_block", "retype_cherrant_block",
           "write_m2_stream"]
