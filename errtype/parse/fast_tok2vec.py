"""spaCy's ``tok2vec`` with its per-token embedding computed once per distinct token.

A spaCy CNN ``tok2vec`` (``build_Tok2Vec_model``) is ``embed >> encode``. The embedding part
(``MultiHashEmbed``: hash embeddings of NORM, PREFIX, SUFFIX, SHAPE, ... concatenated, then
maxout and layer normalisation) maps each token's feature row to a vector on its own; only the
encoder's convolutions look at neighbours. In a batch of real sentences most tokens repeat
(``the``, ``,``, ``.``), so :func:`predict` embeds each distinct feature row of the batch once
and gathers the rows back, then runs the encoder as spaCy does. It saves ~60 % of the embedding
work, ~20 % of tok2vec's CPU.

Exactness: every step is row-wise, so each token's vector is the same function of its features;
the only difference is the number of rows in the maxout's matrix product, and BLAS libraries may
round the last bit of a row differently for different matrix shapes (as spaCy's own batching
already does: the same sentence in another ``nlp.pipe`` batch). No annotation differed on
the 7,687 distinct sentences of ``bench/bench_m2.py``'s corpora nor on the fidelity corpora
(``tests/test_fast_components.py``); ``SpacyParser(accelerate=False)`` runs spaCy's own.
Only models made of layers known to be row-wise (:data:`ROW_WISE`) are accelerated.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

__all__ = ["ROW_WISE", "accelerable", "predict", "process_docs"]

#: layers computing each output row from the same input row alone
ROW_WISE = frozenset({"ints-getitem", "hashembed", "maxout", "layernorm", "dropout"})


def _parts(component: Any) -> tuple[Any, list[Any], Any] | None:
    """(feature extractor, row-wise layers, encoder) of a CNN tok2vec, or None."""
    try:
        embed, encode = component.model.layers
        extract, to_ragged, *middle, from_ragged = embed.layers
    except (AttributeError, ValueError):
        return None
    if (extract.name, to_ragged.name, from_ragged.name) != (
            "extract_features", "list2ragged", "ragged2list") or not middle:
        return None
    inner = []
    for layer in middle:
        if not layer.name.startswith("with_array(") or len(layer.layers) != 1:
            return None
        leaves = {node.name for node in layer.layers[0].walk() if not node.layers}
        if not leaves <= ROW_WISE:
            return None
        inner.append(layer.layers[0])
    return extract, inner, encode


def accelerable(component: Any) -> bool:
    """Whether ``component`` is a spaCy Tok2Vec whose embedding :func:`predict` can share."""
    try:
        from spacy.pipeline import Tok2Vec
    except ImportError:  # pragma: no cover - spaCy is a core dependency
        return False
    return type(component) is Tok2Vec and _parts(component) is not None


def predict(component: Any, docs: list[Any]) -> list[Any]:
    """``component.predict(docs)`` with each distinct token feature row embedded once."""
    import numpy

    if not any(len(doc) for doc in docs):
        width = component.model.get_dim("nO")
        return [component.model.ops.alloc((0, width)) for _ in docs]
    parts = _parts(component)
    assert parts is not None, "predict() needs an accelerable component"
    extract, inner, encode = parts
    features = extract.predict(docs)
    lengths = [len(f) for f in features]
    distinct, which = numpy.unique(numpy.concatenate(features), axis=0, return_inverse=True)
    rows = distinct
    for layer in inner:
        rows = layer.predict(rows)
    vectors = rows[which.reshape(-1)]
    return encode.predict(numpy.split(vectors, numpy.cumsum(lengths)[:-1]))


def process_docs(component: Any, docs: Iterable[Any], batch_size: int = 256) -> Iterator[Any]:
    """``component.pipe(docs, batch_size=batch_size)`` through :func:`predict`."""
    it = iter(docs)
    while batch := list(islice(it, batch_size)):
        component.set_annotations(batch, predict(component, batch))
        yield from batch
