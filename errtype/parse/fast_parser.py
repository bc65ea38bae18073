"""spaCy's greedy transition parser with its per-step scoring moved out of the C loop.

spaCy's ``Parser.greedy_parse`` runs the whole parse in a Cython loop (``_parseC`` ->
``predict_states``) that the current spaCy wheels compile so that a helper called for every
hidden unit of every state at every step (thinc's ``Vec.arg_max``) takes and releases the GIL:
on en_core_web_sm that is 64 GIL round trips per transition, measured with ``perf`` as ~40 % of
the parser's time. spaCy's own Python-level pieces compute the same step: the state features
(``ParserStepModel.get_token_ids``), the hidden layer (``precompute_hiddens``: the same C sum
of precomputed feature rows, the same bias and maxout), the output layer (the same blis
``sgemm`` with the same shapes, then the bias), unseen classes set to the minimum score, and
``Parser.transition_states`` (the same C code choosing the best valid action). Driving that
loop from Python gives bit-identical scores, hence identical parses, at ~0.55x the CPU time
(``tests/test_fast_components.py``; ``bench/bench_components.py``).

:func:`parse_docs` replaces ``Parser.pipe`` (same length-sorted sub-batches, so every matrix
product has the shapes spaCy's own would have); anything it cannot reproduce (beam search, a
parser without a separate output layer or without maxout, GPU ops) is left to spaCy.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

__all__ = ["accelerable", "greedy_parse", "parse_docs"]


def accelerable(parser: Any) -> bool:
    """Whether :func:`parse_docs` reproduces ``parser.pipe`` for this spaCy component."""
    try:
        from spacy.pipeline.transition_parser import Parser
        from thinc.api import NumpyOps
    except ImportError:  # pragma: no cover - spaCy is a core dependency
        return False
    if not isinstance(parser, Parser) or parser.cfg.get("beam_width", 1) != 1:
        return False
    model = getattr(parser, "model", None)
    try:
        lower, upper = model.get_ref("lower"), model.get_ref("upper")
        return (bool(model.attrs.get("has_upper")) and lower.get_dim("nP") >= 2
                and type(lower.ops) is NumpyOps and upper.has_param("W")
                and upper.has_param("b") and upper.name == "linear")
    except (AttributeError, KeyError, ValueError):
        return False


def greedy_parse(parser: Any, docs: list[Any]) -> list[Any]:
    """The final parse states of ``docs`` (``parser.greedy_parse``'s result, same decisions)."""
    import numpy
    from blis.py import gemm

    parser._ensure_labels_are_added(docs)
    batch = parser.moves.init_batch(docs)
    step = parser.model.predict(docs)  # ParserStepModel: token vectors -> precomputed rows
    try:
        upper = step.vec2scores
        weights, bias = upper.get_param("W"), upper.get_param("b")
        unseen = numpy.flatnonzero(step._class_mask == 0)
        state2vec = step.state2vec
        states = [s for s in batch if not s.is_final()]
        while states:
            hidden = state2vec.predict(step.get_token_ids(states))
            scores = gemm(hidden, weights, trans2=True, beta=0.0)  # blis, as the C loop's sgemm
            scores += bias
            if unseen.size:
                scores[:, unseen] = scores.min()
            states = parser.transition_states(states, scores)
    finally:
        step.clear_memory()
    return batch


def parse_docs(parser: Any, docs: Iterable[Any], batch_size: int = 256) -> Iterator[Any]:
    """``parser.pipe(docs, batch_size=batch_size)`` through :func:`greedy_parse`."""
    it = iter(docs)
    while batch := list(islice(it, batch_size)):
        by_length = sorted(batch, key=len)
        step = max(batch_size // 4, 2)
        for start in range(0, len(by_length), step):
            sub = by_length[start:start + step]
            states = (greedy_parse(parser, sub) if any(len(d) for d in sub)
                      else parser.moves.init_batch(sub))
            parser.set_annotations(sub, states)
        yield from batch
