"""UDPipe 1 backend (``ufal.udpipe``): a ``.udpipe`` model file turns strings into Sentences.

Pre-tokenised input (the default) is read in UDPipe's "horizontal" format: one sentence, words
separated by runs of ASCII spaces or tabs (a NO-BREAK SPACE stays inside its word and becomes an
ordinary space, as in the Czech ERRANT). With ``tokenize=True`` the model's own tokenizer is run
on raw text; every sentence it finds is concatenated into one Sentence and multi-word tokens are
expanded into syntactic words. Tagging, lemmatisation and parsing use the model's defaults.

A damaged model file can abort the process inside the UDPipe library (a C++ exception nothing
catches), so a model file is checked before this process loads it (:func:`check_model_file`):
its header, then a test load in a child process (once per content: a later process finds a
record of it in the user cache folder), unless its digest was verified against the one
recorded when it was downloaded (``trusted``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import ResourceError
from ..textio import file_key
from ..tokens import Sentence, Token

__all__ = ["UDPipeParser", "check_model_file", "load_model"]

#: how every UDPipe 1 model file starts: the length-prefixed name of its one model type
MAGIC = b"\x12morphodita_parsito"

#: the child's test: load the model, then tag and parse a sentence (3: the library refused it)
_TEST_LOAD = """
import sys, ufal.udpipe as u
m = u.Model.load(sys.argv[1])
if m is None:
    sys.exit(3)
s, e = u.Sentence(), u.ProcessingError()
f = u.InputFormat.newInputFormat("horizontal")
f.setText("a b .")
while f.nextSentence(s, e):
    m.tag(s, u.Model.DEFAULT)
    m.parse(s, u.Model.DEFAULT)
    s = u.Sentence()
"""

#: files a child process loaded in this process's lifetime (:func:`file_key`)
_loadable: set[tuple[str, int, int]] = set()


def _ufal() -> Any:
    try:
        import ufal.udpipe as udpipe
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ResourceError(
            "the UDPipe backend needs the 'ufal.udpipe' package (pip install ufal.udpipe)"
        ) from exc
    return udpipe


def _not_a_model(name: str) -> ResourceError:
    return ResourceError(f"cannot load UDPipe model (not a UDPipe 1 model?): {name}")


def _status(code: int) -> str:
    """A child's exit status in words (``SIGABRT`` for one killed by signal 6)."""
    if code >= 0:
        return f"status {code}"
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def check_model_file(path: str | os.PathLike[str], *, trusted: bool = False,
                     name: str | None = None) -> Path:
    """The model file ``path`` once it is known to load without harm; ResourceError otherwise.

    Its header must be a UDPipe 1 model's (:data:`MAGIC`); unless ``trusted`` (its digest matches
    the one recorded when it was checked: a downloaded model) a child process then loads it and
    tags and parses a sentence, so a file that crashes the UDPipe library is refused by name
    instead of aborting this process. A success is remembered for the file's version
    (:func:`errtype.textio.file_key`) for the rest of the process, and for its content (its
    SHA-256: an empty file ``checked/udpipe-DIGEST`` in the user cache folder) for later
    processes, which then only hash it. ``name``: what messages call the file (default: its
    path).
    """
    _ufal()
    p = Path(path).expanduser()
    name = name or str(p)
    if not p.is_file():
        raise ResourceError(f"UDPipe model not found: {p}")
    try:
        with open(p, "rb") as f:
            head = f.read(len(MAGIC) + 1)
        key = file_key(p)
    except OSError as exc:
        raise ResourceError(f"cannot read UDPipe model {name}: {exc.strerror or exc}") from exc
    if len(head) <= len(MAGIC) or not head.startswith(MAGIC):
        raise _not_a_model(name)
    if trusted or key in _loadable:
        return p
    from ..download import cache_dir, sha256_file

    record = cache_dir() / "checked" / f"udpipe-{sha256_file(p)}"
    if record.is_file():  # these bytes passed a test load before
        _loadable.add(key)
        return p
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(x for x in sys.path if x)}
    done = subprocess.run([sys.executable, "-c", _TEST_LOAD, str(p)], env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    if done.returncode == 3:
        raise _not_a_model(name)
    if done.returncode != 0:
        last = done.stderr.decode("utf-8", "replace").split()
        raise ResourceError(f"cannot load UDPipe model {name}: a test load in a child process "
                            f"ended with {_status(done.returncode)}"
                            + (f" ({' '.join(last[-8:])})" if last else "")
                            + ", so the file is damaged or not a UDPipe 1 model")
    _loadable.add(key)
    with contextlib.suppress(OSError):  # a read-only cache only costs the next run a test load
        record.parent.mkdir(parents=True, exist_ok=True)
        record.touch()
    return p


def load_model(path: str | os.PathLike[str], *, trusted: bool = False,
               name: str | None = None) -> Any:
    """Load a ``.udpipe`` model file after :func:`check_model_file` (``trusted``: its digest was
    verified; ``name``: what messages call it); raises ResourceError if it is missing,
    unreadable or damaged."""
    p = check_model_file(path, trusted=trusted, name=name)
    model = _ufal().Model.load(str(p))
    if model is None:
        raise _not_a_model(name or str(p))
    return model


class UDPipeParser:
    """Parser backed by a UDPipe 1 model (tokenizer optional, tagger + lemmatiser + parser):
    a loaded ``ufal.udpipe.Model`` or the path of a model file, checked first
    (:func:`check_model_file`; ``trusted``: its digest was verified)."""

    def __init__(self, model: str | os.PathLike[str] | Any, *, trusted: bool = False) -> None:
        udpipe = _ufal()
        if isinstance(model, (str, os.PathLike)):
            self.path: str | None = str(model)
            model = load_model(model, trusted=trusted)
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

    def parse_text(self, text: str, tag: bool = True) -> list[Sentence]:
        """Raw text (an essay) tokenised, split into sentences by the model's tokenizer, tagged
        and parsed (``tag=False``: tokens only, as :meth:`segment` gives them): one Sentence per
        sentence; a line break always ends a sentence."""
        udpipe = self._udpipe
        out: list[Sentence] = []
        with self._lock:
            for line in text.splitlines():
                if not line.strip():
                    continue
                reader = self._reader(True)
                reader.setText(line)
                error = udpipe.ProcessingError()
                sent = udpipe.Sentence()
                while reader.nextSentence(sent, error):
                    if tag:
                        self.model.tag(sent, udpipe.Model.DEFAULT)
                        self.model.parse(sent, udpipe.Model.DEFAULT)
                    tokens = _tokens(sent, 0)
                    if tokens and not tag:
                        tokens = [Token(t.text, ws=t.ws) for t in tokens]
                    if tokens:
                        out.append(Sentence(tokens))
                    sent = udpipe.Sentence()
                if error.occurred():
                    raise ResourceError(f"UDPipe failed: {error.message}")
        return out

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
