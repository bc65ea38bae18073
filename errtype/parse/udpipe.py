"""UDPipe 1 backend (``ufal.udpipe``): a ``.udpipe`` model file turns strings into Sentences.

Pre-tokenised input (the default) is read in UDPipe's "horizontal" format: one sentence, words
separated by runs of ASCII spaces or tabs (a NO-BREAK SPACE stays inside its word and becomes an
ordinary space, as in the Czech ERRANT). With ``tokenize=True`` the model's own tokenizer is run
on raw text; every sentence it finds is concatenated into one Sentence and multi-word tokens are
expanded into syntactic words. Tagging, lemmatisation and parsing use the model's defaults.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import ResourceError
from ..tokens import Sentence, Token

__all__ = ["UDPipeParser", "load_model"]


def _ufal() -> Any:
    try:
        import ufal.udpipe as udpipe
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ResourceError(
            "the UDPipe backend needs the 'ufal.udpipe' package (pip install ufal.udpipe)"
        ) from exc
    return udpipe


def load_model(path: str | os.PathLike[str]) -> Any:
    """Load a ``.udpipe`` model file; raises ResourceError if it is missing or unreadable."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ResourceError(f"UDPipe model not found: {p}")
    model = _ufal().Model.load(str(p))
    if model is None:
        raise ResourceError(f"cannot load UDPipe model (not a UDPipe 1 model?): {p}")
    return model


class UDPipeParser:
    """Parser backed by a UDPipe 1 model (tokenizer optional, tagger + lemmatiser + parser)."""

    def __init__(self, model: str | os.PathLike[str] | Any) -> None:
        udpipe = _ufal()
        if isinstance(model, (str, os.PathLike)):
            self.path: str | None = str(model)
            model = load_model(model)
        else:
            self.path = None
        self.model = model
        self._udpipe = udpipe
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"UDPipeParser({self.path!r})"

    @property
    def name(self) -> str:
        """A short description of the backend (for logs and signatures)."""
        return "udpipe:" + (os.path.basename(self.path) if self.path else "<model>")

    def _reader(self, tokenize: bool) -> Any:
        if tokenize:
            reader = self.model.newTokenizer(self._udpipe.Model.DEFAULT)
            if reader is None:
                raise ResourceError("this UDPipe model has no tokenizer; use tokenize=False")
            return reader
        return self._udpipe.InputFormat.newInputFormat("horizontal")

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        """Tag, lemmatise and parse one line of text into a Sentence."""
        return self._read(text, tokenize, analyse=True)

    def segment(self, text: str, tokenize: bool = False) -> Sentence:
        """The tokens (text and whitespace) :meth:`parse` gives, without tagging or parsing."""
        return Sentence([Token(t.text, ws=t.ws) for t in self._read(text, tokenize, False)])

    def _read(self, text: str, tokenize: bool, analyse: bool) -> Sentence:
        udpipe = self._udpipe
        text = text.replace("\r", " ").replace("\n", " ")
        tokens: list[Token] = []
        with self._lock:
            reader = self._reader(tokenize)
            reader.setText(text)
            error = udpipe.ProcessingError()
            sent = udpipe.Sentence()
            while reader.nextSentence(sent, error):
                if analyse:
                    self.model.tag(sent, udpipe.Model.DEFAULT)
                    self.model.parse(sent, udpipe.Model.DEFAULT)
                tokens.extend(_tokens(sent, len(tokens)))
                sent = udpipe.Sentence()
            if error.occurred():
                raise ResourceError(f"UDPipe failed: {error.message}")
        if tokens:
            tokens[-1] = _with_ws(tokens[-1], "")
        return Sentence(tokens)

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        """Parse each text in turn (lazily)."""
        for text in texts:
            yield self.parse(text, tokenize)


def _with_ws(tok: Token, ws: str) -> Token:
    return Token(tok.text, tok.lemma, tok.pos, tok.tag, tok.dep, tok.head, tok.feats, ws)


def _tokens(sent: Any, offset: int) -> list[Token]:
    """Tokens of one UDPipe sentence (words 1..n), heads made absolute with ``offset``.

    A word is followed by a space unless its token (the multi-word token it ends, if any) has
    ``SpaceAfter=No``; words inside a multi-word token are separated by spaces.
    """
    words = sent.words
    mwt_end: dict[int, Any] = {}
    inside: set[int] = set()
    for m in sent.multiwordTokens:
        mwt_end[m.idLast] = m
        inside.update(range(m.idFirst, m.idLast))
    out = []
    for k in range(1, len(words)):
        w = words[k]
        head = offset + (w.head - 1 if w.head > 0 else k - 1)
        dep = "ROOT" if w.deprel == "root" else w.deprel
        owner = mwt_end.get(k, w)
        ws = " " if k in inside or owner.getSpaceAfter() else ""
        out.append(Token(w.form, w.lemma, w.upostag, w.xpostag, dep, head, w.feats, ws))
    return out
