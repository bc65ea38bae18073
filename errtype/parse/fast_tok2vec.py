"""spaCy's CNN ``tok2vec`` computing each distinct token, and each distinct window, once.

A spaCy CNN ``tok2vec`` (``build_Tok2Vec_model``) is ``embed >> encode``. The embedding part
(``MultiHashEmbed``: hash embeddings of NORM, PREFIX, SUFFIX, SHAPE, ... concatenated, then
maxout and layer normalisation) maps each token's feature row to a vector on its own. The
encoder (``MaxoutWindowEncoder``) runs on the batch's sentences joined into one array with
``pad`` zero rows between them, ``depth`` residual blocks of ``expand_window`` (each row beside
its ``window`` neighbours, zeros past the ends) then maxout and layer normalisation: after block
``k`` a row is a function of the rows of block ``k - 1`` in its window alone. In a batch of
real sentences most tokens and most short windows repeat (``of the``, the pad rows, and in GEC
data the unchanged parts of every correction of a sentence), so :func:`predict` embeds each
distinct feature row once, then gives every row of each block a class, the classes of its
window in the block before, and computes each class once (about half the rows of the encoder
on ``bench/bench_m2.py``'s corpora), gathering the rows back at the end.

Exactness: every step is row-wise, so each row is the same function of the same inputs; the
only difference is the number of rows in a matrix product, and BLAS libraries may round the
last bit of a row differently for different matrix shapes (as spaCy's own batching already
does: the same sentence in another ``nlp.pipe`` batch). No annotation differed on the 7,687
distinct sentences of ``bench/bench_m2.py``'s corpora nor on the fidelity corpora
(``tests/test_fast_components.py``); ``SpacyParser(accelerate=False)`` runs spaCy's own. Only
models made of layers known to be row-wise (:data:`ROW_WISE`) and encoders of exactly that
shape (:func:`_blocks`) are accelerated; another encoder runs as spaCy runs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

__all__ = ["ROW_WISE", "accelerable", "predict", "process_docs"]

#: layers computing each output row from the same input row alone
ROW_WISE = frozenset({"ints-getitem", "hashembed", "maxout", "layernorm", "dropout"})
#: the leaves of one encoder block, in order (inside ``residual``)
WINDOW_BLOCK = ["expand_window", "maxout", "layernorm", "dropout"]


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


def _leaves(model: Any) -> list[Any]:
    """The layers without sublayers under ``model``, left to right."""
    return [leaf for layer in model.layers for leaf in _leaves(layer)] if model.layers \
        else [model]


def _blocks(encode: Any) -> tuple[int, int, list[list[Any]]] | None:
    """(pad, window, per block its maxout, layernorm and dropout) of a MaxoutWindowEncoder
    (``with_array(residual(expand_window >> maxout >> layernorm >> dropout) >> ...)``), or
    None for any other encoder."""
    from thinc.layers.chain import forward as chain_forward
    from thinc.layers.residual import forward as residual_forward

    if not encode.name.startswith("with_array(") or len(encode.layers) != 1:
        return None
    pad = encode.attrs.get("pad")
    stack = encode.layers[0]
    residuals = stack.layers if stack._func is chain_forward else [stack]
    blocks, window = [], None
    for res in residuals:
        if res._func is not residual_forward or len(res.layers) != 1:
            return None
        leaves = _leaves(res.layers[0])
        if [n.name for n in leaves] != WINDOW_BLOCK:
            return None
        size = leaves[0].attrs.get("window_size")
        if not isinstance(size, int) or size < 1 or window not in (None, size):
            return None
        window = size
        blocks.append(leaves[1:])
    if not blocks or not isinstance(pad, int) or pad < 0 or window is None:
        return None
    return pad, window, blocks


def accelerable(component: Any) -> bool:
    """Whether ``component`` is a spaCy Tok2Vec whose embedding :func:`predict` can share."""
    try:
        from spacy.pipeline import Tok2Vec
    except ImportError:  # pragma: no cover - spaCy is a core dependency
        return False
    return type(component) is Tok2Vec and _parts(component) is not None


#: per component: its (feature extractor, row-wise layers, encoder) and encoder blocks, found once
_SHAPES: dict[int, tuple[Any, tuple[Any, list[Any], Any], Any]] = {}


def _shape(component: Any) -> tuple[tuple[Any, list[Any], Any], Any]:
    """:func:`_parts` and :func:`_blocks` of ``component`` (cached: walking the model costs
    more than embedding one sentence)."""
    cached = _SHAPES.get(id(component))
    if cached is not None and cached[0] is component:
        return cached[1], cached[2]
    parts = _parts(component)
    assert parts is not None, "predict() needs an accelerable component"
    blocks = _blocks(parts[2])
    if len(_SHAPES) > 64:
        _SHAPES.clear()
    _SHAPES[id(component)] = (component, parts, blocks)
    return parts, blocks


def predict(component: Any, docs: list[Any], share: bool = True) -> list[Any]:
    """``component.predict(docs)`` with each distinct token feature row embedded once, and
    each distinct window of the encoder computed once (``share=False``: every row computed,
    as spaCy computes it, without thinc's layer-by-layer calls: cheaper for a Doc or two,
    where little repeats)."""
    import numpy

    if not any(len(doc) for doc in docs):
        width = component.model.get_dim("nO")
        return [component.model.ops.alloc((0, width)) for _ in docs]
    (extract, inner, encode), blocks = _shape(component)
    features = extract.predict(docs)
    lengths = [len(f) for f in features]
    if share:
        rows, which = _distinct_rows(numpy.concatenate(features))
    else:
        rows, which = numpy.concatenate(features), None
    for layer in inner:
        rows = layer.predict(rows)
    if blocks is None:
        rows = rows if which is None else rows[which]
        return encode.predict(numpy.split(rows, numpy.cumsum(lengths)[:-1]))
    if which is None:
        return _encode_all(rows, lengths, *blocks)
    return _encode(rows, which, lengths, *blocks)


def _distinct_rows(features: Any) -> tuple[Any, Any]:
    """The distinct rows of an integer matrix and each row's index among them: rows compared
    as bytes (3.5x faster than ``numpy.unique(axis=0)``, which compares column by column; only
    the order of the distinct rows differs, and each is embedded on its own)."""
    import numpy

    features = numpy.ascontiguousarray(features)
    if features.ndim != 2 or not features.shape[1]:
        distinct, which = numpy.unique(features, axis=0, return_inverse=True)
        return distinct, which.reshape(-1)
    keys = features.view(numpy.dtype((numpy.void, features.shape[1] * features.itemsize)))
    _, first, which = numpy.unique(keys.reshape(-1), return_index=True, return_inverse=True)
    return features[first], which.reshape(-1)


def _joined_rows(lengths: list[int], pad: int) -> tuple[Any, int]:
    """Where each token sits in the encoder's joined array (``pad`` zero rows before each
    non-empty doc and at the end, as thinc's ``with_array`` joins them), and its length."""
    import numpy

    sizes = numpy.asarray(lengths, dtype=numpy.int64)
    sizes = sizes[sizes > 0]
    tokens = int(sizes.sum())
    where = numpy.arange(tokens) + pad * numpy.repeat(numpy.arange(1, len(sizes) + 1), sizes)
    return where, tokens + pad * (len(sizes) + 1)


def _encode_all(rows: Any, lengths: list[int], pad: int, window: int,
                blocks: list[list[Any]]) -> list[Any]:
    """The encoder's output per doc, every row of the joined array computed (the matrix
    products have spaCy's shapes)."""
    import numpy

    width = rows.shape[1]
    where, total = _joined_rows(lengths, pad)
    X = numpy.zeros((total, width), dtype=rows.dtype)
    X[where] = rows
    edge = numpy.zeros((window, width), dtype=rows.dtype)
    for maxout, norm, dropout in blocks:
        padded = numpy.concatenate([edge, X, edge])
        # expand_window: each row beside its neighbours, left to right, zeros past the ends
        expanded = numpy.concatenate([padded[s:s + total] for s in range(2 * window + 1)],
                                     axis=1)
        X = X + dropout.predict(norm.predict(_maxout(maxout, expanded)))
    return numpy.split(X[where], numpy.cumsum(lengths)[:-1])


def _encode(rows: Any, which: Any, lengths: list[int], pad: int, window: int,
            blocks: list[list[Any]]) -> list[Any]:
    """The encoder's output per doc, each distinct window computed once.

    ``rows[which]`` are the embedded tokens of the docs, one after another. Row ``k`` of a
    block's table is the vector of class ``k``; class 0 is the zero row (the pad rows before the
    first block, and whatever ``expand_window`` reads past either end of the joined array).
    """
    import numpy

    width = rows.shape[1]
    table = numpy.concatenate([numpy.zeros((1, width), dtype=rows.dtype), rows])
    # joined index of each token: its index among the tokens plus the pads before its doc
    where, total = _joined_rows(lengths, pad)
    joined = numpy.zeros(total, dtype=numpy.int64)
    joined[where] = which + 1
    span = 2 * window + 1
    for maxout, norm, dropout in blocks:
        size = len(table)
        edge = numpy.zeros(window, dtype=numpy.int64)
        padded = numpy.concatenate([edge, joined, edge])
        columns = [padded[s:s + len(joined)] for s in range(span)]
        if size ** span < 2 ** 62:  # one integer per window
            key = columns[0].copy()
            for column in columns[1:]:
                key *= size
                key += column
            distinct, inverse = numpy.unique(key, return_inverse=True)
            parts = []
            for _ in range(span):
                distinct, part = numpy.divmod(distinct, size)
                parts.append(part)
            parts.reverse()
        else:
            distinct_rows, inverse = numpy.unique(numpy.stack(columns, axis=1), axis=0,
                                                  return_inverse=True)
            parts = list(distinct_rows.T)
        # the rows expand_window would build: the window's vectors side by side, left to right
        expanded = table[numpy.stack(parts, axis=1)].reshape(len(parts[0]), span * width)
        out = dropout.predict(norm.predict(_maxout(maxout, expanded)))
        out = table[parts[window]] + out  # residual: the block's input plus its output
        table = numpy.concatenate([numpy.zeros((1, width), dtype=out.dtype), out])
        joined = inverse.reshape(-1) + 1
    return numpy.split(table[joined[where]], numpy.cumsum(lengths)[:-1])


def _maxout(layer: Any, X: Any) -> Any:
    """``layer.predict(X)`` for a thinc ``Maxout``: the same matrix product and bias, then the
    largest piece of each unit by elementwise ``maximum`` (the value thinc's ``ops.maxout``
    picks, exactly; it also computes the argmax, which only training needs, at 3x the cost)."""
    import numpy

    ops = layer.ops
    n_out, pieces, n_in = layer.get_dim("nO"), layer.get_dim("nP"), layer.get_dim("nI")
    Y = ops.gemm(X, ops.reshape2f(layer.get_param("W"), n_out * pieces, n_in), trans2=True)
    Y += ops.reshape1f(layer.get_param("b"), n_out * pieces)
    Z = Y.reshape(len(Y), n_out, pieces)
    if pieces == 1:
        return Z[:, :, 0].copy()
    best = numpy.maximum(Z[:, :, 0], Z[:, :, 1])
    for piece in range(2, pieces):
        numpy.maximum(best, Z[:, :, piece], out=best)
    return best


def process_docs(component: Any, docs: Iterable[Any], batch_size: int = 256,
                 share: bool = True) -> Iterator[Any]:
    """``component.pipe(docs, batch_size=batch_size)`` through :func:`predict`."""
    it = iter(docs)
    while batch := list(islice(it, batch_size)):
        component.set_annotations(batch, predict(component, batch, share))
        yield from batch
