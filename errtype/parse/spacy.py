"""spaCy backend: any spaCy pipeline -> Sentences (pre-tokenised input by default)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, Literal

from ..document import sentence_starts
from ..errors import ResourceError
from ..tokens import Sentence, Token, split_sentence, tokens_from_columns
from .blas import BlasThreads, default_threads
from .spacy_import import import_spacy

Step = Callable[[list[Any]], list[Any]]


def load_pipeline(names: str | Sequence[str], exclude: Sequence[str] = ("ner",),
                  numpy_blas: bool = True) -> Any:
    """Load the first installed spaCy pipeline among ``names`` (package names or paths).

    Components named in ``exclude`` are not loaded at all (names a pipeline lacks are ignored).
    ``numpy_blas``: run the models' matrix products through numpy (see :func:`use_numpy_blas`).
    """
    candidates = [names] if isinstance(names, str) else list(names)
    spacy = import_spacy(candidates)
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


#: the fewest Docs for which the tok2vec shares repeated tokens and windows and the fast parser
#: runs: for one or two (a client parsing sentence by sentence) little repeats, and spaCy's
#: own parser loop costs less (the sharing and the Python-driven loop pay off from three or four
#: Docs on); fewer Docs get every row computed without thinc's layer-by-layer calls, and
#: spaCy's parser. All give the same annotations.
FAST_BATCH = 3

#: strings of the hashes seen by :func:`doc_to_sentence` (hash -> str is the same in every
#: StringStore); bounded
_STRINGS: dict[int, str] = {}
_MAX_STRINGS = 500_000


def doc_to_sentence(doc: Any) -> Sentence:
    """Convert a spaCy Doc (or Span) to a Sentence (head = index within it; a root points to
    itself). Reads the annotation as arrays, one column per attribute, instead of one spaCy
    Token object per attribute."""
    import numpy
    from spacy.attrs import DEP, HEAD, LEMMA, LOWER, MORPH, ORTH, POS, SPACY, TAG

    n = len(doc)
    if not n:
        return Sentence()
    array = doc.to_array([ORTH, LEMMA, POS, TAG, DEP, MORPH, LOWER, SPACY, HEAD])
    known = _STRINGS
    if len(known) > _MAX_STRINGS:
        known.clear()
    get, strings = known.get, doc.vocab.strings
    columns = array[:, :7].T.tolist()
    for column in columns:  # hashes -> strings, in place
        hashes = column[:]
        column[:] = map(get, hashes)
        if None in column:
            for k, s in enumerate(column):
                if s is None:
                    column[k] = known[hashes[k]] = strings[hashes[k]]
    texts, lemmas, pos, tags, deps, feats, lowers = columns
    # HEAD is the offset to the head, stored as an unsigned 64-bit integer
    heads = (array[:, 8].view(numpy.int64) + numpy.arange(n)).tolist()
    ws = [" " if space else "" for space in array[:, 7].tolist()]
    feats = ["" if f == "_" else f for f in feats]
    return Sentence(tokens_from_columns(texts, lemmas, pos, tags, deps, heads, feats, ws, lowers))


class SpacyParser:
    """Parse with a spaCy pipeline.

    ``tokenize=False`` (default): the text is split on whitespace and the Doc is built from those
    words, so every input token is kept. ``tokenize=True``: spaCy's tokenizer runs on the raw text.

    Every parse, of one sentence or of a batch, runs under the BLAS thread policy
    (:class:`~errtype.parse.blas.BlasThreads`: ``blas_threads`` threads, default 1 or
    ``$ERRTYPE_BLAS_THREADS``; ``None`` leaves BLAS alone). The pipeline's components run in
    order as ``nlp.pipe`` runs them; with ``accelerate`` (default) a greedy dependency parser
    runs through :mod:`errtype.parse.fast_parser` and a rule/lookup lemmatizer through
    :mod:`errtype.parse.fast_lemmatizer` (both spaCy's annotations exactly), and a CNN tok2vec
    embeds each distinct token of a batch once (:mod:`errtype.parse.fast_tok2vec`); the
    sharing tok2vec and the fast parser run for :data:`FAST_BATCH` Docs or more.
    """

    def __init__(self, nlp: Any, batch_size: int = 256,
                 blas_threads: int | Literal["default"] | None = "default",
                 accelerate: bool = True) -> None:
        self.nlp = nlp
        self.batch_size = batch_size
        self.blas = BlasThreads(default_threads() if blas_threads == "default" else blas_threads)
        self.accelerate = accelerate
        self._steps: dict[int, tuple[Any, Step]] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_steps"] = {}  # closures over components: rebuilt on first use
        return state

    @property
    def name(self) -> str:
        meta = getattr(self.nlp, "meta", {}) or {}
        return f"spacy:{meta.get('lang', '?')}_{meta.get('name', '?')}-{meta.get('version', '?')}"

    def _doc(self, text: str, tokenize: bool) -> Any:
        from spacy.tokens import Doc

        if tokenize:
            return self.nlp.make_doc(text)
        return Doc(self.nlp.vocab, words=text.split())

    def _step(self, proc: Any) -> Step:
        """How one component processes a list of Docs (cached per component object)."""
        cached = self._steps.get(id(proc))
        if cached is not None and cached[0] is proc:
            return cached[1]
        from . import fast_lemmatizer, fast_parser, fast_tok2vec

        size = self.batch_size
        step: Step
        if self.accelerate and fast_tok2vec.accelerable(proc):
            def step(docs: list[Any]) -> list[Any]:
                share = len(docs) >= FAST_BATCH
                return list(fast_tok2vec.process_docs(proc, docs, size, share))
        elif self.accelerate and fast_parser.accelerable(proc):
            def step(docs: list[Any]) -> list[Any]:
                if len(docs) < FAST_BATCH:
                    return list(proc.pipe(docs, batch_size=size))
                return list(fast_parser.parse_docs(proc, docs, size))
        elif self.accelerate and fast_lemmatizer.accelerable(proc):
            lemmatize = fast_lemmatizer.FastLemmatizer(proc)

            def step(docs: list[Any]) -> list[Any]:
                return [lemmatize(d) for d in docs]
        elif hasattr(proc, "pipe"):
            def step(docs: list[Any]) -> list[Any]:
                return list(proc.pipe(docs, batch_size=size))
        else:
            def step(docs: list[Any]) -> list[Any]:
                return [proc(d) for d in docs]
        self._steps[id(proc)] = (proc, step)
        return step

    def process(self, docs: list[Any]) -> list[Any]:
        """Run the pipeline's components over ``docs`` (as ``nlp.pipe`` would), under the BLAS
        thread policy."""
        with self.blas:
            for _, proc in self.nlp.pipeline:
                docs = self._step(proc)(docs)
        return docs

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        doc = self._doc(text, tokenize)
        if len(doc) == 0:
            return Sentence()
        return doc_to_sentence(self.process([doc])[0])

    def parse_doc(self, text: str, tokenize: bool = False) -> Any:
        """The processed spaCy Doc itself (what ERRANT's ``Annotator.parse`` returns)."""
        return self.process([self._doc(text, tokenize)])[0]

    def segment(self, text: str, tokenize: bool = False) -> Sentence:
        """The tokens (text and whitespace) :meth:`parse` gives, without running the pipeline."""
        if not tokenize:
            return Sentence.from_words(text.split())
        return Sentence([Token(t.text, ws=t.whitespace_) for t in self.nlp.make_doc(text)])

    @property
    def splits_sentences(self) -> bool:
        """The pipeline sets sentence boundaries (it runs a parser, a senter or a
        sentencizer)."""
        return any(name in ("parser", "senter", "sentencizer") or
                   type(proc).__name__ in ("DependencyParser", "SentenceRecognizer",
                                           "Sentencizer")
                   for name, proc in self.nlp.pipeline)

    def parse_text(self, text: str, tag: bool = True) -> list[Sentence] | None:
        """Raw text (an essay) tokenised by spaCy, split into sentences where the pipeline puts
        their boundaries (``doc.sents``) and where errtype's rule on tokens does
        (:func:`errtype.document.sentence_starts`: a parser misses many boundaries of learner
        text), one Sentence each; a line break always ends a sentence. None when the pipeline
        sets no boundaries (:attr:`splits_sentences`). The sentences are always tagged and
        parsed (finding them takes the pipeline): ``tag`` is ignored."""
        return next(self.parse_texts([text]))

    def parse_texts(self, texts: Iterable[str], tag: bool = True
                    ) -> Iterator[list[Sentence] | None]:
        """:meth:`parse_text` of each text, the lines of ``batch_size`` texts parsed in one
        batch."""
        from spacy.attrs import SENT_START

        if not self.splits_sentences:
            for _ in texts:
                yield None
            return
        it = iter(texts)
        while chunk := list(islice(it, self.batch_size)):
            lines = [[line.strip() for line in t.splitlines() if line.strip()]
                     for t in chunk]
            docs = iter(self.process([self.nlp.make_doc(line) for ls in lines for line in ls]))
            for ls in lines:
                out: list[Sentence] = []
                for _ in ls:
                    doc = next(docs)
                    if not len(doc):
                        continue
                    sent = doc_to_sentence(doc)
                    starts = {i for i, s in enumerate(doc.to_array([SENT_START]).tolist())
                              if s == 1}
                    out.extend(split_sentence(sent, sorted(starts.union(
                        sentence_starts(sent.texts)))))
                yield out

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        """Sentences of ``texts`` in order, parsed ``batch_size`` at a time."""
        it = iter(texts)
        while chunk := list(islice(it, self.batch_size)):
            docs = self.process([self._doc(t, tokenize) for t in chunk])
            yield from (doc_to_sentence(doc) if len(doc) else Sentence() for doc in docs)
