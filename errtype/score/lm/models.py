"""Pluggable language models that return sentence perplexities, in batches.

Backends (heavy ones imported only when used):

* :class:`SphinxLM` — the **offline English default**: the trigram model shipped inside the
  ``pocketsphinx`` wheel (``en-us.lm.bin``, 72k words), queried through pocketsphinx's C n-gram
  code. Text is lowercased, punctuation is dropped and clitics are re-attached (``do n't`` →
  ``don't``) to match its CMU-dictionary vocabulary.
* :class:`ArpaLM` — any ARPA file (plain or ``.gz``), read and scored in pure Python (backoff).
* :class:`KenLM` — a KenLM binary or ARPA file through the ``kenlm`` package.
* :class:`HFCausalLM` — a Hugging Face causal LM (``gpt2`` as in the Scribendi paper) through
  ``transformers``/``torch`` (the ``lm`` extra): BOS prepended, mean token NLL, padded batches.

:func:`load_lm` builds one from a spec string: ``default``, ``sphinx[:PATH]``, ``arpa:PATH``,
``kenlm:PATH``, ``hf:NAME_OR_DIR``.
"""

from __future__ import annotations

import gzip
import math
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ...errors import InputError, ResourceError

LN10 = math.log(10.0)
#: log10 probability given to an out-of-vocabulary word when the model has no ``<unk>``.
DEFAULT_OOV_LOG10 = -7.0


class LanguageModel(ABC):
    """A sentence scorer: natural-log probability and token count of each sentence."""

    #: short description used in metric signatures
    name: str = "lm"
    batch_size: int = 32

    @abstractmethod
    def _score_batch(self, sentences: Sequence[str]) -> list[tuple[float, int]]:
        """(sum of ln p over the predicted tokens, number of predicted tokens) per sentence."""

    def log_probs(self, sentences: Iterable[str], batch_size: int | None = None
                  ) -> list[tuple[float, int]]:
        """Score sentences in batches of ``batch_size`` (default: the model's own)."""
        size = max(1, batch_size or self.batch_size)
        out: list[tuple[float, int]] = []
        for batch in _chunks(list(sentences), size):
            out.extend(self._score_batch(batch))
        return out

    def perplexities(self, sentences: Iterable[str], batch_size: int | None = None
                     ) -> list[float]:
        """exp(mean token NLL) per sentence; ``inf`` when nothing was scored."""
        return [math.exp(-lp / n) if n else math.inf
                for lp, n in self.log_probs(sentences, batch_size)]


def _chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


# --------------------------------------------------------------------------- n-gram models

_WORD_RE = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*|'[^\W_]+")
_CLITICS = {"n't", "'s", "'re", "'ve", "'ll", "'d", "'m", "'t"}


class NGramLM(LanguageModel):
    """Shared n-gram scoring: ``<s> w1 … wn </s>``, every word and ``</s>`` predicted."""

    order: int = 3

    def __init__(self, *, lowercase: bool = False, words_only: bool = False) -> None:
        self.lowercase = lowercase
        self.words_only = words_only

    @abstractmethod
    def _log10(self, word: str, history: tuple[str, ...]) -> float:
        """log10 p(word | history), history oldest first (at most order − 1 words)."""

    def in_vocab(self, word: str) -> bool:
        return True

    def tokenize(self, text: str) -> list[str]:
        """Whitespace tokens, or (``words_only``) words with clitics re-attached."""
        if self.lowercase:
            text = text.lower()
        if not self.words_only:
            return text.split()
        text = text.replace("\u2019", "'").replace("`", "'")
        words: list[str] = []
        for tok in _WORD_RE.findall(text):
            if words and (tok in _CLITICS or tok.startswith("'")):
                joined = words[-1] + tok
                if self.in_vocab(joined) or not self.in_vocab(tok):
                    words[-1] = joined
                    continue
            if "-" in tok and not self.in_vocab(tok):
                words.extend(p for p in tok.split("-") if p)
                continue
            words.append(tok)
        return words

    def sentence_log10(self, words: Sequence[str]) -> float:
        """Total log10 probability of the word sequence plus ``</s>``."""
        hist: tuple[str, ...] = ("<s>",)
        total = 0.0
        keep = self.order - 1
        for w in [*words, "</s>"]:
            total += self._log10(w, hist)
            hist = (hist + (w,))[-keep:] if keep else ()
        return total

    def _score_batch(self, sentences: Sequence[str]) -> list[tuple[float, int]]:
        out = []
        for s in sentences:
            words = self.tokenize(s)
            out.append((self.sentence_log10(words) * LN10, len(words) + 1))
        return out


class ArpaLM(NGramLM):
    """A backoff n-gram model read from an ARPA file (``.arpa`` or ``.arpa.gz``), pure Python."""

    def __init__(self, path: str | os.PathLike[str], *, lowercase: bool = False,
                 words_only: bool = False, oov_log10: float | None = None,
                 batch_size: int = 256) -> None:
        super().__init__(lowercase=lowercase, words_only=words_only)
        self.path = str(path)
        self.batch_size = batch_size
        self._grams: dict[tuple[str, ...], tuple[float, float]] = {}
        self.order = _read_arpa(self.path, self._grams)
        unk = self._grams.get(("<unk>",))
        self.oov_log10 = oov_log10 if oov_log10 is not None else (
            unk[0] if unk else DEFAULT_OOV_LOG10)
        self.name = f"arpa:{Path(self.path).name}"

    def in_vocab(self, word: str) -> bool:
        return (word,) in self._grams

    def _log10(self, word: str, history: tuple[str, ...]) -> float:
        if (word,) not in self._grams:
            return self.oov_log10
        backoff = 0.0
        grams = self._grams
        for k in range(len(history), -1, -1):
            h = history[len(history) - k:]
            hit = grams.get(h + (word,))
            if hit is not None:
                return hit[0] + backoff
            if k:
                he = grams.get(h)
                if he is not None:
                    backoff += he[1]
        return self.oov_log10  # unreachable: the unigram exists


def _read_arpa(path: str, grams: dict[tuple[str, ...], tuple[float, float]]) -> int:
    """Fill ``grams`` with (log10 p, log10 backoff); return the order."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        fh = opener(path, "rt", encoding="utf-8")  # type: ignore[operator]
    except FileNotFoundError:
        raise InputError("no such ARPA file", path=path) from None
    order = 0
    n = 0
    with fh:
        for number, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            if line.startswith("\\"):
                m = re.fullmatch(r"\\(\d+)-grams:", line)
                n = int(m.group(1)) if m else 0
                order = max(order, n)
                continue
            if n == 0:
                continue  # header: \data\ and "ngram N=count" lines
            fields = line.split()
            if len(fields) < n + 1:
                raise InputError(f"malformed {n}-gram line", path=path, line=number)
            try:
                logp = float(fields[0])
                bo = float(fields[n + 1]) if len(fields) > n + 1 else 0.0
            except ValueError:
                raise InputError("malformed probability", path=path, line=number) from None
            grams[tuple(fields[1:n + 1])] = (logp, bo)
    if not order:
        raise InputError("not an ARPA file (no \\1-grams: section)", path=path)
    return order


class KenLM(NGramLM):
    """A KenLM binary or ARPA model through the ``kenlm`` package (whitespace tokens)."""

    def __init__(self, path: str | os.PathLike[str], *, lowercase: bool = False,
                 words_only: bool = False, batch_size: int = 256) -> None:
        super().__init__(lowercase=lowercase, words_only=words_only)
        try:
            import kenlm  # noqa: PLC0415
        except ImportError:
            raise ResourceError("the kenlm backend needs the 'kenlm' package "
                                "(pip install kenlm), or use arpa:PATH") from None
        if not Path(path).exists():
            raise InputError("no such KenLM model file", path=str(path))
        self._model = kenlm.Model(str(path))
        self.order = self._model.order
        self.batch_size = batch_size
        self.name = f"kenlm:{Path(path).name}"

    def in_vocab(self, word: str) -> bool:
        return word in self._model

    def _log10(self, word: str, history: tuple[str, ...]) -> float:  # pragma: no cover
        raise NotImplementedError("KenLM scores whole sentences")

    def _score_batch(self, sentences: Sequence[str]) -> list[tuple[float, int]]:
        out = []
        for s in sentences:
            words = self.tokenize(s)
            lp = self._model.score(" ".join(words), bos=True, eos=True)
            out.append((lp * LN10, len(words) + 1))
        return out


class SphinxLM(NGramLM):
    """The English trigram model shipped in the ``pocketsphinx`` wheel (the offline default).

    Scored with pocketsphinx's own n-gram code (log base 1.0001 converted to natural log).
    Words are lowercased, punctuation is not scored, and OOV words cost ``oov_log10``.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 oov_log10: float = DEFAULT_OOV_LOG10, batch_size: int = 256) -> None:
        super().__init__(lowercase=True, words_only=True)
        try:
            import pocketsphinx  # noqa: PLC0415
        except ImportError:
            raise ResourceError("the default language model needs the 'pocketsphinx' package "
                                "(pip install pocketsphinx)") from None
        if path is None:
            path = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us.lm.bin"
        if not Path(path).exists():
            raise ResourceError(f"language model file not found: {path}")
        with _quiet_stderr():
            self._logmath = pocketsphinx.LogMath()
            config = pocketsphinx.Config()
            self._model = pocketsphinx.NGramModel(config, self._logmath, str(path))
        self._zero = self._logmath.get_zero()
        self._ln_unit = self._logmath.log_to_ln(-100000) / -100000.0
        self.oov_log10 = oov_log10
        self.batch_size = batch_size
        self._vocab: dict[str, bool] = {}
        self.name = f"sphinx:{Path(path).name}"

    def in_vocab(self, word: str) -> bool:
        known = self._vocab.get(word)
        if known is None:
            known = self._vocab[word] = self._model.prob([word]) > self._zero
        return known

    def _log10(self, word: str, history: tuple[str, ...]) -> float:
        if not self.in_vocab(word):
            return self.oov_log10
        ctx = []
        for h in reversed(history):  # pocketsphinx wants the word, then the history newest first
            if not self.in_vocab(h):
                break
            ctx.append(h)
        raw = self._model.prob([word, *ctx])
        return raw * self._ln_unit / LN10


class _quiet_stderr:
    """Silence C-level stderr chatter (pocketsphinx INFO lines) for a block."""

    def __enter__(self) -> None:
        try:
            self._saved = os.dup(2)
            self._null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(self._null, 2)
        except OSError:
            self._saved = -1

    def __exit__(self, *exc: object) -> None:
        if self._saved >= 0:
            os.dup2(self._saved, 2)
            os.close(self._saved)
            os.close(self._null)


# --------------------------------------------------------------------------- transformers

class HFCausalLM(LanguageModel):
    """A Hugging Face causal LM: ``-mean ln p`` of the tokens after a prepended BOS.

    ``model`` is a hub name or local directory (loaded with ``from_pretrained``; pass
    ``local_files_only=True`` to forbid downloads) or an already built model object, in which
    case ``tokenizer`` must be given too. ``device`` is any torch device (``cuda``,
    ``cuda:1``, ``mps``); ``dtype`` the weights' type (``float32``, the default and the
    reference; ``bfloat16`` or ``float16`` on a GPU: faster, scores to about 1e-2).

    :meth:`log_probs` tokenizes the whole input in one call, sorts it by token length (so each
    batch pads little), builds each batch's tensors at once from the flat token ids, scores on
    the device and returns the results in input order. Padding never changes a sentence's
    score: padded positions are masked and follow the sentence (right padding).
    """

    def __init__(self, model: Any = "gpt2", tokenizer: Any = None, *, batch_size: int = 32,
                 device: str = "cpu", add_bos: bool = True, dtype: str | None = None,
                 local_files_only: bool = False) -> None:
        torch, transformers = _import_hf()
        self._torch = torch
        if isinstance(model, (str, os.PathLike)):
            name = str(model)
            try:
                tokenizer = tokenizer or transformers.AutoTokenizer.from_pretrained(
                    name, local_files_only=local_files_only)
                model = transformers.AutoModelForCausalLM.from_pretrained(
                    name, local_files_only=local_files_only)
            except OSError as exc:
                raise ResourceError(f"cannot load language model {name!r}: {exc}") from None
        else:
            name = getattr(getattr(model, "config", None), "name_or_path", "") or "custom"
            if tokenizer is None:
                raise ResourceError("a model object needs its tokenizer")
        self.dtype = dtype or "float32"
        torch_dtype = getattr(torch, self.dtype, None)
        if not isinstance(torch_dtype, torch.dtype) or not torch_dtype.is_floating_point:
            raise InputError(f"unknown dtype {self.dtype!r} (float32, bfloat16, float16)")
        self.model = model.to(device=device, dtype=torch_dtype).eval()
        self.tokenizer = tokenizer
        self.device = device
        self.batch_size = batch_size
        bos = tokenizer.bos_token_id if tokenizer.bos_token_id is not None \
            else tokenizer.eos_token_id
        self.bos_id = bos if add_bos else None
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None \
            else tokenizer.eos_token_id
        self.pad_id = pad if pad is not None else 0
        self.name = f"hf:{name}" + (f"|dtype:{self.dtype}" if self.dtype != "float32" else "")

    def encode(self, sentences: Sequence[str]) -> list[list[int]]:
        """Token ids of every sentence (one tokenizer call), BOS prepended."""
        if not sentences:
            return []
        ids = self.tokenizer(list(sentences), add_special_tokens=False)["input_ids"]
        head = [self.bos_id] if self.bos_id is not None else []
        return [head + list(x) for x in ids]

    def log_probs(self, sentences: Iterable[str], batch_size: int | None = None
                  ) -> list[tuple[float, int]]:
        """Score sentences, sorted by length across the whole input, in batches of
        ``batch_size`` sentences (default: the model's own); results in input order."""
        size = max(1, batch_size or self.batch_size)
        encoded = self.encode(list(sentences))
        results: list[tuple[float, int]] = [(0.0, 0)] * len(encoded)
        todo = sorted((i for i, seq in enumerate(encoded) if len(seq) >= 2),
                      key=lambda i: len(encoded[i]))
        for start in range(0, len(todo), size):
            rows = todo[start:start + size]
            for i, r in zip(rows, self._score_ids([encoded[i] for i in rows]), strict=True):
                results[i] = r
        return results

    def _score_batch(self, sentences: Sequence[str]) -> list[tuple[float, int]]:
        return self.log_probs(sentences, batch_size=max(1, len(sentences)))

    def _score_ids(self, seqs: Sequence[Sequence[int]]) -> list[tuple[float, int]]:
        """(sum ln p, predicted tokens) of token id sequences of 2+ tokens, one batch."""
        torch = self._torch
        lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
        width = int(lengths.max())
        flat = torch.tensor([t for s in seqs for t in s], dtype=torch.long)
        mask = torch.arange(width).unsqueeze(0) < lengths.unsqueeze(1)
        ids = torch.full((len(seqs), width), self.pad_id, dtype=torch.long)
        ids[mask] = flat
        ids = ids.to(self.device, non_blocking=True)
        mask = mask.to(self.device, non_blocking=True)
        with torch.inference_mode():
            logits = self.model(input_ids=ids, attention_mask=mask.long()).logits
            logits = logits[:, :-1, :].float()
            target = ids[:, 1:]
            # ln p(target) = logit(target) - logsumexp(logits), without a vocabulary-sized copy
            picked = logits.gather(-1, target.unsqueeze(-1)).squeeze(-1)
            keep = mask[:, 1:]
            token_lp = (picked - torch.logsumexp(logits, dim=-1)) * keep
            sums = token_lp.sum(dim=1).tolist()
        counts = (lengths - 1).tolist()
        return [(float(a), int(n)) for a, n in zip(sums, counts, strict=True)]


def _import_hf() -> tuple[Any, Any]:
    try:
        import torch  # noqa: PLC0415
        import transformers  # noqa: PLC0415
    except ImportError:
        raise ResourceError("the hf: language models need torch and transformers "
                            "(pip install 'errtype[lm]')") from None
    return torch, transformers


# --------------------------------------------------------------------------- factory

def load_lm(spec: str | None = "default", *, batch_size: int | None = None,
            lowercase: bool = False, local_files_only: bool = False,
            device: str = "cpu", dtype: str | None = None) -> LanguageModel:
    """Build a language model from a spec string (see the module docstring)."""
    spec = spec or "default"
    kind, _, arg = spec.partition(":")
    if spec in ("default", "sphinx", "pocketsphinx"):
        lm: LanguageModel = SphinxLM()
    elif kind in ("sphinx", "pocketsphinx"):
        lm = SphinxLM(arg)
    elif kind == "arpa":
        lm = ArpaLM(arg, lowercase=lowercase)
    elif kind == "kenlm":
        lm = KenLM(arg, lowercase=lowercase)
    elif kind in ("hf", "transformers"):
        lm = HFCausalLM(arg or "gpt2", local_files_only=local_files_only, device=device,
                        dtype=dtype)
    elif spec.endswith((".arpa", ".arpa.gz")):
        lm = ArpaLM(spec, lowercase=lowercase)
    else:
        raise InputError(f"unknown language model spec {spec!r} (use default, sphinx[:PATH], "
                         "arpa:PATH, kenlm:PATH or hf:NAME)")
    if batch_size:
        lm.batch_size = batch_size
    return lm
