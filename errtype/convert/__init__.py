"""Corpus-level conversions, grouped by direction of flow.

Producers make edits from text (:mod:`.annotate`: parallel text, ChERRANT's parallel format or
CoNLL-U -> M2; :mod:`.reannotate`: M2 -> re-typed M2; :mod:`.hf`: edit columns of a Hugging Face
dataset; :mod:`.gector_files`: GECToR's edit tags of parallel text or M2, and back); exporters
turn M2 into other formats (:mod:`.export`: parallel text, JSON lines; :mod:`.table`: one row per
edit as JSON lines, TSV, Parquet or pandas). :mod:`.gector` is GECToR's tag format and
alignment, :mod:`.output` is where producers write: the :class:`Report`, atomic or resumable
output and the identity a resumed job must share with the run that died.

An annotation job has one home here: :mod:`.options` (the one frozen :class:`JobOptions` of a
run), :mod:`.jobs` (a :class:`Job` is an input read as items; :func:`run_job` annotates, formats
and writes it), :mod:`.ranges` (parallel files cut into line ranges that workers read),
:mod:`.checkpoint` (resumable output) and :mod:`.dask` (a Dask cluster's workers). Nothing here
imports this package back.

All stream their input, write exactly one output record per input sentence in input order, and
write atomically (or, given ``resume=True``, resumably). They return what they did; nothing is
printed here.
"""

from ..textio import count_lines
from .annotate import conllu_to_m2, para_to_m2, parallel_to_m2, read_para
from .export import block_to_json, m2_to_dialect, m2_to_jsonl, m2_to_text
from .jobs import Job, checked, format_annotation, run_job, write_m2_stream
from .options import JobOptions
from .output import Formatted, Report, job_identity, m2_sink
from .ranges import parallel_items, parallel_job
from .reannotate import m2_block_count, m2_to_m2, reannotate_block, retype_cherrant_block

__all__ = ["Formatted", "Job", "JobOptions", "Report", "block_to_json", "checked",
           "conllu_to_m2", "count_lines", "format_annotation", "job_identity", "m2_block_count",
           "m2_sink", "m2_to_dialect", "m2_to_jsonl", "m2_to_m2", "m2_to_text", "para_to_m2",
           "parallel_items", "parallel_job", "parallel_to_m2", "read_para", "reannotate_block",
           "retype_cherrant_block", "run_job", "write_m2_stream"]
