"""spaCy backend: any spaCy pipeline -> Sentences (pre-tokenised input by default)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from ..errors import ResourceError
from ..tokens import Sentence, Token


def load_pipeline(names: str | Sequence[str], exclude: Sequence[str] = ("ner",),
                  numpy_blas: bool = True) -> Any:
    """Load the first installed spaCy pipeline among ``names`` (package names or paths).

    Components named in ``exclude`` are not loaded at all (names a pipeline lacks are ignored).
    ``numpy_blas``: run the models' matrix products through numpy (see :func:`use_numpy_blas`).
    """
    import spacy

    candidates = [names] if isinstance(names, str) else list(names)
    errors = []
    for name in candidates:
        try:
            nlp = spacy.load(name, exclude=list(exclude))
        except OSError as exc:
            errors.append(f"{name}: {exc}".splitlines()[0].rstrip("."))
            continue
        if numpy_blas:
            use_numpy_blas(nlp)
        return nlp
    packages = [n.replace("_", "-") for n in candidates if n.isidentifier()]
    example = f" (e.g. pip install {packages[-1]})" if packages else ""
    raise ResourceError("no spaCy pipeline could be loaded; tried " + "; ".join(errors)
                        + f"; install one of them{example} or give the path of a pipeline folder")


def use_numpy_blas(nlp: Any) -> int:
    """Make the thinc models of ``nlp`` multiply matrices with numpy's BLAS instead of blis.

    thinc's CPU ops call blis for float32 matrix products; on CPUs where blis falls back to its
    generic kernel, numpy's bundled OpenBLAS is several times faster, and spaCy's tok2vec is
    mostly matrix products. Only models on plain blis-backed CPU ops are switched (GPU or Apple
    ops are left alone); the parser's own Cython inner loop is unaffected. The products differ
    from blis's in the last bits of a float, which has not changed an annotation on the test
    corpora (``bench/bench_spacy.py --compare blas``). Returns the number of layers switched.
    """
    from thinc.api import NumpyOps

    fast = NumpyOps(use_blis=False)
    switched = 0
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is None or not hasattr(model, "walk"):
            continue
        for node in model.walk():
            ops = node.ops
            if type(ops) is NumpyOps and getattr(ops, "use_blis", False):
                node.ops = fast
                switched += 1
    return switched


def doc_to_sentence(doc: Any) -> Sentence:
    """Convert a spaCy Doc to a Sentence (head = absolute token index)."""
    return Sentence([
        Token(t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i - doc[0].i if len(doc) else -1,
              str(t.morph), t.whitespace_, t.lower_)
        for t in doc
    ])


class SpacyParser:
    """Parse with a spaCy pipeline.

    ``tokenize=False`` (default): the text is split on whitespace and the Doc is built from those
    words, so every input token is kept. ``tokenize=True``: spaCy's tokenizer runs on the raw text.
    """

    def __init__(self, nlp: Any, batch_size: int = 256) -> None:
        self.nlp = nlp
        self.batch_size = batch_size

    @property
    def name(self) -> str:
        meta = getattr(self.nlp, "meta", {}) or {}
        return f"spacy:{meta.get('lang', '?')}_{meta.get('name', '?')}-{meta.get('version', '?')}"

    def _doc(self, text: str, tokenize: bool) -> Any:
        from spacy.tokens import Doc

        if tokenize:
            return self.nlp.make_doc(text)
        return Doc(self.nlp.vocab, words=text.split())

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        doc = self._doc(text, tokenize)
        if len(doc) == 0:
            return Sentence()
        return doc_to_sentence(self.nlp(doc))

    def parse_doc(self, text: str, tokenize: bool = False) -> Any:
        """The processed spaCy Doc itself (what ERRANT's ``Annotator.parse`` returns)."""
        return self.nlp(self._doc(text, tokenize))

    def segment(self, text: str, tokenize: bool = False) -> Sentence:
        """The tokens (text and whitespace) :meth:`parse` gives, without running the pipeline."""
        if not tokenize:
            return Sentence.from_words(text.split())
        return Sentence([Token(t.text, ws=t.whitespace_) for t in self.nlp.make_doc(text)])

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        """Sentences of ``texts`` in order, parsed ``batch_size`` at a time with numpy's BLAS
        on one thread (a parse is one thread's work, as with blis; ``-j`` and Dask add
        processes, and BLAS threads on top of them would only compete for the same cores)."""
        from threadpoolctl import threadpool_limits

        it = iter(texts)
        while chunk := list(islice(it, self.batch_size)):
            with threadpool_limits(1, user_api="blas"):
                docs = list(self.nlp.pipe((self._doc(t, tokenize) for t in chunk),
                                          batch_size=self.batch_size))
            yield from (doc_to_sentence(doc) if len(doc) else Sentence() for doc in docs)
