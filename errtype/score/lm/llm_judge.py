"""LLM judges of corrections (Kobayashi, Mita and Komachi 2024, "Large language models are
state-of-the-art evaluators of grammatical error correction"), in the form gec-metrics runs
them: ``llm-s`` (sentences) and ``llm-e`` (edits).

For each source sentence the distinct hypotheses of all systems scored together are collected;
when there are more than five, the five most frequent are kept (ties: first seen); they are
sorted and shown to the judge as numbered targets (``llm-e`` shows each as its edits,
``[go→goes] [→the]``). The judge scores each target 1..5 and answers with a JSON object
``{"target_score1": 4, ...}`` (``target1_score`` is read as well). A system's sentence score is
its hypothesis' score, or none when its hypothesis was not among the five. The corpus score is
the mean of its scores; the protocol of the paper ranks the systems from the sentence-level
comparisons instead: ``errtype score -m llm-s --aggregation trueskill`` (a pair with an unscored
hypothesis is not compared, systems with the same hypothesis tie).

The judge is any callable ``judge(prompt) -> reply text``, or an OpenAI-compatible chat API:
``-O llm-s.model=gpt-4o-mini-2024-07-18`` with ``-O llm-s.base_url=URL`` (default
``$OPENAI_BASE_URL`` or OpenAI's) and the key in ``$OPENAI_API_KEY`` (``api_key_env`` names
another variable); a local server (vLLM, llama.cpp, Ollama) speaks the same API. Replies are
cached in a JSON-lines file (``cache``) keyed by the prompt's hash, so a rerun asks nothing.
The prompt is errtype's wording of the paper's instructions; ``template`` (text or ``@FILE``)
replaces it: it must contain ``[SOURCE]`` and ``[CORRECTION]``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...errors import InputError, ResourceError
from ...m2 import M2Block
from ..common import ScoreResult, signature
from ..registry import ScoreInput, register

__all__ = ["LLMJudgeMetric", "OpenAIChat", "parse_scores", "SENTENCE_TEMPLATE",
           "EDIT_TEMPLATE"]

Judge = Callable[[str], str]
MAX_TARGETS = 5

SENTENCE_TEMPLATE = """Rate the corrected versions (targets) of a sentence written by a language \
learner.
Read the source sentence and the targets, then give every target a score from 1 (worst) to 5 \
(best) for the quality of its sentence. Several targets may receive the same score.

# source
[SOURCE]

# targets
[CORRECTION]

# output format
Answer with a JSON object only, one key per target, in a ```json code block:
```json
{"target_score1": int, ..., "target_scoreN": int}
```
"""

EDIT_TEMPLATE = """Rate the corrections (targets) of a sentence written by a language learner. \
Each target lists its edits to the source: [a→b] replaces a by b, [→b] inserts b, [a→] \
deletes a.
Read the source sentence and the targets, then give every target a score from 1 (worst) to 5 \
(best) for the quality of the corrected sentence. A target without edits scores 5 if the source \
is correct and 1 if it has an error. Several targets may receive the same score.

# source
[SOURCE]

# targets
[CORRECTION]

# output format
Answer with a JSON object only, one key per target, in a ```json code block:
```json
{"target_score1": int, ..., "target_scoreN": int}
```
"""


def parse_scores(reply: str, n: int) -> list[float]:
    """The n target scores of a judge's reply (a JSON object, possibly in a code block)."""
    match = re.search(r"\{.*\}", reply, re.S)
    try:
        data = json.loads(match.group(0)) if match else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict):
        raise InputError(f"the judge's reply holds no JSON object: {reply[:200]!r}")
    out = []
    for i in range(1, n + 1):
        value = data.get(f"target_score{i}", data.get(f"target{i}_score"))
        if not isinstance(value, (int, float)):
            raise InputError(f"the judge's reply has no score for target {i}: {reply[:200]!r}")
        out.append(float(value))
    return out


@dataclass
class OpenAIChat:
    """A judge behind an OpenAI-compatible ``/chat/completions`` endpoint (standard library
    HTTP; no SDK)."""

    model: str
    base_url: str = "https://api.openai.com/v1"
    api_key: str | None = None
    seed: int | None = 777
    timeout: float = 120.0

    def __call__(self, prompt: str) -> str:
        body: dict[str, Any] = {"model": self.model, "temperature": 0, "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": prompt}]}
        if self.seed is not None:
            body["seed"] = self.seed
        req = urllib.request.Request(
            self.base_url.rstrip("/") + "/chat/completions", json.dumps(body).encode(),
            {"Content-Type": "application/json",
             **({"Authorization": f"Bearer {self.api_key}"} if self.api_key else {})})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                data = json.loads(resp.read().decode("utf-8"))
            return str(data["choices"][0]["message"]["content"])
        except (urllib.error.URLError, OSError, KeyError, IndexError,
                json.JSONDecodeError) as exc:
            raise ResourceError(f"the judge at {self.base_url} failed: {exc}") from None


def edit_form(block: M2Block) -> str:
    """A hypothesis as its edits: ``[a→b]`` per edit of the first coder, in order."""
    toks = block.tokens
    by = block.edits_by_annotator()
    edits = sorted((e for e in by.get(min(by), []) if not e.is_noop) if by else [],
                   key=lambda e: (e.start, e.end))
    cor = lambda c: "" if c == "-NONE-" else c  # noqa: E731
    return " ".join(f"[{' '.join(toks[e.start:e.end])}→{cor(e.cor.split('||')[0])}]"
                    for e in edits)


@dataclass
class LLMJudgeMetric:
    """An LLM judge (see the module docstring); ``form`` is ``sentence`` (``llm-s``) or
    ``edit`` (``llm-e``). Reference-free; all systems are judged together in :meth:`prepare`."""

    form: str = "sentence"
    judge: Judge | None = field(default=None, repr=False)
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    seed: int | None = 777
    template: str | None = None
    cache: str | None = None
    lang: str = "en"
    annotator: Any = field(default=None, repr=False, compare=False)
    name: str = "llm-s"
    main: ClassVar[str] = "score"
    scale: ClassVar[float] = 1
    _scores: dict[str, list[float | None]] = field(default_factory=dict, repr=False)
    _cache: dict[str, str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.form not in ("sentence", "edit"):
            raise InputError(f"the judge's form must be sentence or edit, not {self.form!r}")

    @property
    def uses(self) -> tuple[str, ...]:
        return ("hyp_edits",) if self.form == "edit" else ()

    def settings(self) -> dict[str, Any]:
        return {"form": self.form, "judge": self.model or getattr(self.judge, "__name__",
                                                                    "callable"),
                "targets": f"max{MAX_TARGETS}-by-frequency", "prompt": self._prompt_id()}

    def _template(self) -> str:
        t = self.template or (EDIT_TEMPLATE if self.form == "edit" else SENTENCE_TEMPLATE)
        if t.startswith("@"):
            t = Path(t[1:]).read_text(encoding="utf-8")
        if "[SOURCE]" not in t or "[CORRECTION]" not in t:
            raise InputError("the judge's template must contain [SOURCE] and [CORRECTION]")
        return t

    def _prompt_id(self) -> str:
        return "errtype" if self.template is None else hashlib.md5(
            self._template().encode()).hexdigest()[:8]

    def _judge(self) -> Judge:
        if self.judge is None:
            if not self.model:
                raise InputError(f"{self.name} needs a judge: -O {self.name}.model=NAME (an "
                                 f"OpenAI-compatible API) or a judge callable")
            self.judge = OpenAIChat(self.model, self.base_url or os.environ.get(
                "OPENAI_BASE_URL", "https://api.openai.com/v1"),
                os.environ.get(self.api_key_env), self.seed)
        return self.judge

    def _ask(self, prompt: str) -> str:
        if self._cache is None:
            self._cache = {}
            if self.cache and Path(self.cache).exists():
                for line in Path(self.cache).read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        row = json.loads(line)
                        self._cache[row["id"]] = row["reply"]
        key = hashlib.md5(prompt.encode()).hexdigest()
        if key not in self._cache:
            reply = self._judge()(prompt)
            self._cache[key] = reply
            if self.cache:
                with open(self.cache, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"id": key, "reply": reply}, ensure_ascii=False) + "\n")
        return self._cache[key]

    def prepare(self, systems: Sequence[ScoreInput]) -> None:
        """Judge every source's distinct hypotheses across ``systems``."""
        if not systems:
            return
        template = self._template()
        sources = list(systems[0].sources or [])
        self._scores = {s.name: [] for s in systems}
        for i, src in enumerate(sources):
            hyps = [s.hypotheses[i] for s in systems]
            counts = Counter(hyps)
            chosen = sorted(h for h, _ in counts.most_common(MAX_TARGETS))
            shown = []
            for h in chosen:
                if self.form == "edit":
                    k = hyps.index(h)
                    blocks = systems[k].hyp_blocks
                    if blocks is None:
                        raise InputError("llm-e needs the systems' edits")
                    shown.append(edit_form(blocks[i]))
                else:
                    shown.append(h)
            prompt = template.replace("[SOURCE]", src).replace(
                "[CORRECTION]", "\n".join(f"target{j + 1}: {t}" for j, t in enumerate(shown)))
            scores = dict(zip(chosen, parse_scores(self._ask(prompt), len(chosen)),
                              strict=True))
            for s, h in zip(systems, hyps, strict=True):
                self._scores[s.name].append(scores.get(h))

    def score(self, data: ScoreInput) -> ScoreResult:
        if data.name not in self._scores:
            self.prepare([data])
        values = self._scores[data.name]
        rows = [{"id": i, "score": v} for i, v in enumerate(values)]
        judged = [v for v in values if v is not None]
        corpus = {"score": sum(judged) / len(judged) if judged else 0.0,
                  "judged": float(len(judged))}
        return ScoreResult(self.name, corpus, signature(self.name, self.settings()),
                           sentences=rows)


def _sentence(**settings: Any) -> LLMJudgeMetric:
    return LLMJudgeMetric(form="sentence", **{"name": "llm-s", **settings})


def _edit(**settings: Any) -> LLMJudgeMetric:
    return LLMJudgeMetric(form="edit", **{"name": "llm-e", **settings})


register("llm-s", _sentence)
register("llm-e", _edit)
