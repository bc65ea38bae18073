"""The LLM judges of Kobayashi, Mita and Komachi (BEA 2024, "Large Language Models Are
State-of-the-Art Evaluator for Grammatical Error Correction"): ``llm-s`` shows a model the
source and the corrected sentences, ``llm-e`` the source and each correction's edits, and asks
for a 1–5 score per correction; the systems are then ranked by TrueSkill over the comparisons
the scores imply.

For every source sentence:

1. the distinct hypotheses of the systems are counted; at most ``max_hypotheses`` (5) are judged:
   all of them when there are that few, else the most frequent (ties: the first met in the
   order of the systems); the judged ones are sorted as strings (a fixed order, so a prompt is
   reproducible);
2. the prompt (``[SOURCE]``: the source; ``[CORRECTION]``: the judged hypotheses one per line,
   or for ``llm-e`` their edits ``orig→corr`` separated by spaces, an unchanged one an empty
   line) is sent as the user message after the system message "You are a helpful assistant.";
   the answer is JSON ``{"target_score1": s1, ..., "target_scoreN": sN}`` (requested as a JSON
   schema when ``structured``; ``targetN_score`` keys and a fenced JSON block are read too);
   every score must be an integer from 1 to 5, or the request is retried;
3. two systems whose hypotheses were both judged compare their scores (equal hypotheses tie);
   a system whose hypothesis was not judged takes no part for this sentence.

The comparisons, sentence by sentence and pair by pair in the order of the systems, rate the
systems by one TrueSkill pass with gec-metrics' settings (mu 0, sigma 0.5, beta 0.25, tau 0,
draw probability 0.25): a system's score is its mean skill. This is gec-metrics'
``LLMKobayashi24OpenAISent``/``...Edit`` with ``rank_systems(aggregation="trueskill")`` (MIT);
where it differs: ``criteria`` is inserted before the first heading of either prompt
(gec-metrics inserts it only into the ``llm-e`` prompt: the ``llm-s`` one has no ``# context``
heading), and an answer outside 1–5 is refused.

Answers are cached in a JSON-lines file (``{"id": md5(prompt), "results": response}``, the
format gec-metrics writes) so a rerun sends nothing already answered.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...errors import InputError, ServiceError
from ..common import ScoreResult, signature
from ..meta.correlation import Ranking
from ..meta.trueskill import GEC_METRICS
from ..options import option
from ..registry import ScoreInput, register
from .chat import ChatClient, redact_url

SYSTEM_MESSAGE = "You are a helpful assistant."

#: the LLM-S prompt of Kobayashi et al. (2024), as gec-metrics sends it
SENT_TEMPLATE = """The goal of this task is to rank the presented targets based on the quality of the sentences.
After reading the source sentence and target sentences, please assign a score from a minimum of 1 point to a maximum of 5 points to each target based on the quality of the sentence (note that you can assign the same score multiple times).

# source
[SOURCE]

# targets
[CORRECTION]

# output format
The output should be a markdown code snippet formatted in the following schema, including the leading and trailing "```json" and "```":
```json
{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}
```
"""  # noqa: E501

#: the LLM-E prompt of Kobayashi et al. (2024), as gec-metrics sends it
EDIT_TEMPLATE = """The goal of this task is to rank the presented targets based on the quality of the sentences.
After reading the source sentence and target sentences, please assign a score from a minimum of 1 point to a maximum of 5 points to each target based on the quality of the sentence (note that you can assign the same score multiple times).
For targets without any edits, if the sentence is correct, they will be awarded 5 points; if there is an error, they will receive 1 point.
The edits in each target are indicated as follows:
Insert "the": [→the]
Delete "the": [the→]
Replace "the" with "a": [the→a]

# context
[SOURCE]

# targets
[CORRECTION]

# output format
The output should be a markdown code snippet formatted in the
following schema, including the leading and trailing "```json" and "```":
```json
{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}
```
"""  # noqa: E501

#: the sentences the paper adds to focus the judge on one criterion
SENT_CRITERIA = {
    "grammaticality": "Please evaluate each target with a focus on the grammaticality of the "
                      "sentence.",
    "fluency": "Please evaluate each target with a focus on the fluency of the sentence.",
    "meaning": "Please evaluate each target with a focus on preserving the meaning between "
               "each target and the source, which is the middle sentence in the context.",
}
EDIT_CRITERIA = {
    "difficulty": "Please evaluate each edit in the target with a focus on the difficulty of "
                  "corrections.",
    "impact": "Please evaluate each edit in the target with a focus on its impact on the "
              "sentence.",
}

#: gec-metrics' aggregation: one pass, no dynamics (the one preset, shared with --aggregation)
RATER = GEC_METRICS

_FENCED = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.S)


def sample_hypotheses(hypotheses: Sequence[str], max_n: int = 5) -> list[str]:
    """The hypotheses judged for one sentence (step 1 of the module docstring)."""
    counts = Counter(hypotheses)  # first met first
    chosen = list(counts) if len(counts) <= max_n else [
        h for h, _ in sorted(counts.items(), key=lambda kv: kv[1], reverse=True)[:max_n]]
    return sorted(chosen)


def parse_scores(content: str, n: int) -> list[int]:
    """The ``n`` scores of an answer; ValueError saying what is wrong with it."""
    text = content.strip()
    try:
        obj = json.loads(text)
    except ValueError:
        fenced = _FENCED.search(text)
        start, end = text.find("{"), text.rfind("}")
        raw = fenced.group(1) if fenced else text[start:end + 1] if 0 <= start < end else ""
        try:
            obj = json.loads(raw)
        except ValueError:
            raise ValueError("no JSON object in the answer") from None
    if not isinstance(obj, dict):
        raise ValueError("the answer's JSON is not an object")
    scores = []
    for i in range(1, n + 1):
        value = obj.get(f"target_score{i}", obj.get(f"target{i}_score"))
        if value is None:
            raise ValueError(f"no score for target {i} of {n}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            raise ValueError(f"target {i}: {value!r} is not an integer")
        if not 1 <= value <= 5:
            raise ValueError(f"target {i}: {value} is outside 1-5")
        scores.append(int(value))
    return scores


def response_format(n: int) -> dict[str, Any]:
    """The JSON schema of an answer with ``n`` scores (OpenAI structured outputs)."""
    keys = [f"target_score{i}" for i in range(1, n + 1)]
    return {"type": "json_schema", "json_schema": {
        "name": f"scores{n}", "strict": True,
        "schema": {"type": "object", "properties": {k: {"type": "integer"} for k in keys},
                   "required": keys, "additionalProperties": False}}}


def edit_text(block: Any, brackets: bool = False) -> str:
    """The edits of a hypothesis M2 block as LLM-E shows them: ``orig→corr`` (``[orig→corr]``
    with ``brackets``, the notation the prompt explains) separated by spaces."""
    tokens = block.tokens
    out = []
    for e in block.edits:
        if e.is_noop:
            continue
        orig = " ".join(tokens[e.start:e.end])
        corr = "" if e.cor == "-NONE-" else e.cor
        out.append(f"[{orig}→{corr}]" if brackets else f"{orig}→{corr}")
    return " ".join(out)


class AnswerCache:
    """The JSON-lines cache of answers, keyed by the md5 of the prompt (gec-metrics' format)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.answers: dict[str, dict[str, Any]] = {}
        if path is None or not path.exists():
            return
        lines = path.read_text(encoding="utf-8").split("\n")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                self.answers[entry["id"]] = entry["results"]
            except (ValueError, KeyError, TypeError):
                if number == len(lines):  # a last line cut short by a stopped run: re-ask
                    continue
                raise InputError("not an answer cache line ({\"id\", \"results\"})",
                                 path=str(path), line=number) from None

    def add(self, key: str, response: dict[str, Any]) -> None:
        self.answers[key] = response
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"id": key, "results": response}, ensure_ascii=False) + "\n")


@dataclass
class LLMJudge:
    """Settings of both judges (see the module docstring). ``model``: the model name the
    server knows; ``base_url``: the API (default ``$OPENAI_BASE_URL``, else OpenAI's);
    ``api_key_env``: the environment variable holding the key; ``template``: a prompt file
    with ``[SOURCE]`` and ``[CORRECTION]`` instead of the paper's; ``cache``: ``auto`` (the
    user cache folder), ``none``, or a file; ``workers``: requests in flight at once;
    ``allow_http_key``: send a key over plain http to a host that is not loopback (refused
    otherwise: :mod:`errtype.score.lm.chat`)."""

    model: str = "gpt-4o-mini-2024-07-18"
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    criteria: str | None = None
    template: str | None = None
    seed: int | None = option(777)
    temperature: float | None = option(None, ge=0, le=2)
    structured: bool = True
    max_hypotheses: int = option(5, ge=1)
    cache: str = "auto"
    workers: int = option(4, ge=1)
    timeout: float = option(120.0, gt=0)
    retries: int = option(4, ge=0)
    backoff: float = option(2.0, ge=0)
    allow_http_key: bool = False
    name: str = "llm-judge"
    main: ClassVar[str] = "trueskill"
    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    scale: ClassVar[float] = 1
    #: the paper's prompt and criteria of this judge
    TEMPLATE: ClassVar[str] = SENT_TEMPLATE
    CRITERIA: ClassVar[dict[str, str]] = SENT_CRITERIA
    _ratings: dict[str, tuple[int, float]] = field(default_factory=dict, init=False,
                                                   repr=False, compare=False)
    _judged: dict[str, list[int | None]] = field(default_factory=dict, init=False, repr=False,
                                                 compare=False)
    _client: ChatClient | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.criteria is not None and self.criteria not in self.CRITERIA:
            raise InputError(f"{self.name}: unknown criteria {self.criteria!r} (choose from "
                             f"{', '.join(self.CRITERIA)})")
        try:
            self.client()  # a base URL that is no http(s) URL, a key for plain http: refused now
        except ServiceError as exc:
            raise ServiceError(f"{self.name}: {exc}") from None

    def ready(self) -> None:
        """Called by :func:`errtype.score.suite.score_systems` before any work: a missing API
        key is refused then, unless the answer cache holds answers (a run whose prompts are all
        cached needs no key; a missing one is then refused at the first prompt that is not)."""
        try:
            self.client()._key()
        except ServiceError as exc:
            path = self.cache_path()
            if path is None or not path.is_file() or path.stat().st_size == 0:
                raise ServiceError(f"{self.name}: {exc}") from None

    # ------------------------------------------------------------ prompt
    def prompt_template(self) -> str:
        """The prompt with ``[SOURCE]``/``[CORRECTION]`` (and the criterion, if any)."""
        if self.template is None:
            text = self.TEMPLATE
        else:
            try:
                text = Path(self.template).read_text(encoding="utf-8")
            except OSError as exc:
                raise InputError(f"cannot read the prompt template: {exc.strerror}",
                                 path=self.template) from None
            for slot in ("[SOURCE]", "[CORRECTION]"):
                if slot not in text:
                    raise InputError(f"the prompt template has no {slot}", path=self.template)
        if self.criteria:
            head, sep, rest = text.partition("\n\n# ")
            text = f"{head}\n{self.CRITERIA[self.criteria]}{sep}{rest}" if sep else text
        return text

    def targets(self, data: ScoreInput, index: int, hypothesis: str) -> str:
        """How a judged hypothesis is shown (LLM-S: as is)."""
        return hypothesis

    def settings(self) -> dict[str, Any]:
        prompt = ("kobayashi24" if self.template is None else
                  f"{Path(self.template).name}:"
                  f"{hashlib.md5(self.prompt_template().encode()).hexdigest()[:8]}")
        return {"model": self.model, "api": redact_url(self.client().base_url), "prompt": prompt,
                "criteria": self.criteria or "none", "seed": self.seed,
                "temperature": self.temperature, "structured": self.structured,
                "max_hypotheses": self.max_hypotheses,
                "aggregation": "trueskill(mu=0,sigma=0.5,beta=0.25,tau=0,draw=0.25,runs=1)"}

    # ------------------------------------------------------------ judging
    def client(self) -> ChatClient:
        if self._client is None:
            self._client = ChatClient(self.model, self.base_url, self.api_key_env,
                                      self.timeout, self.retries, self.backoff,
                                      allow_http_key=self.allow_http_key, owner=self.name)
        return self._client

    def cache_path(self) -> Path | None:
        if self.cache in ("none", ""):
            return None
        if self.cache != "auto":
            return Path(self.cache)
        from ...download import cache_dir

        safe = re.sub(r"[^\w.-]+", "-", self.model).strip("-") or "model"
        return cache_dir() / "llm-judge" / f"{safe}.jsonl"

    def judge(self, prompts: Sequence[tuple[str, int]]) -> list[list[int]]:
        """The scores of each ``(prompt, number of targets)``: from the cache, else asked
        (``workers`` at a time), every new answer written to the cache as it comes; the first
        failure stops the run (the answers already in are kept)."""
        cache = AnswerCache(self.cache_path())
        keys = [hashlib.md5(p.encode()).hexdigest() for p, _ in prompts]
        todo: dict[str, tuple[int, str, int]] = {}
        for i, (key, (prompt, n)) in enumerate(zip(keys, prompts, strict=True)):
            if key not in cache.answers and key not in todo:
                todo[key] = (i, prompt, n)
        client = self.client()

        def ask(key: str, i: int, prompt: str, n: int) -> tuple[str, dict[str, Any]]:
            messages = [{"role": "system", "content": SYSTEM_MESSAGE},
                        {"role": "user", "content": prompt}]
            try:
                _, response = client.complete(
                    messages, accept=lambda content: parse_scores(content, n),
                    seed=self.seed, temperature=self.temperature,
                    response_format=response_format(n) if self.structured else None)
            except ServiceError as exc:
                raise ServiceError(f"{self.name}: sentence {i + 1}: {exc}") from None
            return key, response

        if todo:
            with ThreadPoolExecutor(max_workers=max(1, self.workers)) as pool:
                futures = [pool.submit(ask, key, *item) for key, item in todo.items()]
                try:
                    for future in as_completed(futures):
                        cache.add(*future.result())
                except BaseException:
                    for future in futures:
                        future.cancel()
                    raise
        out = []
        for key, (_, n) in zip(keys, prompts, strict=True):
            try:
                out.append(parse_scores(cache.answers[key]["choices"][0]["message"]["content"],
                                        n))
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise InputError(f"the cached answer {key} cannot be used ({exc}); delete its "
                                 "line to ask again", path=str(cache.path)) from None
        return out

    def prepare(self, systems: Sequence[ScoreInput]) -> None:
        """Judge every sentence of these systems and rate them (see the module docstring)."""
        if not systems:
            return
        sources = list(systems[0].sources or [])
        for s in systems:
            if list(s.sources or []) != sources:
                raise InputError(f"{self.name}: {s.name} has other sources than "
                                 f"{systems[0].name}")
        template = self.prompt_template()
        prompts, chosen = [], []
        for i, src in enumerate(sources):
            hyps = [s.hypotheses[i] for s in systems]
            sampled = sample_hypotheses(hyps, self.max_hypotheses)
            first = {h: systems[hyps.index(h)] for h in sampled}
            shown = [self.targets(first[h], i, h) for h in sampled]
            prompts.append((template.replace("[SOURCE]", src).replace(
                "[CORRECTION]", "\n".join(shown)), len(sampled)))
            chosen.append(sampled)
        scores = self.judge(prompts)
        rankings = []
        for s in systems:
            self._judged[s.name] = []
        for i, (sampled, values) in enumerate(zip(chosen, scores, strict=True)):
            by_hyp = dict(zip(sampled, values, strict=True))
            ranks = {}
            for s in systems:
                value = by_hyp.get(s.hypotheses[i])
                self._judged[s.name].append(value)
                if value is not None:
                    ranks[s.name] = -value  # a lower rank is better
            rankings.append(Ranking(str(i), i, "llm", ranks))
        rated = RATER.rate(rankings)
        for s in systems:
            self._ratings[s.name] = (_fingerprint(s), rated.get(s.name, RATER.mu))

    def score(self, data: ScoreInput) -> ScoreResult:
        rating = self._ratings.get(data.name)
        if rating is None or rating[0] != _fingerprint(data):
            self.prepare([data])
            rating = self._ratings[data.name]
        judged = self._judged[data.name]
        values = [v for v in judged if v is not None]
        rows = [{"score": v} if v is not None else {"judged": False} for v in judged]
        corpus = {"trueskill": rating[1],
                  "mean": sum(values) / len(values) if values else 0.0,
                  "judged": len(values)}
        notes = [] if len(self._ratings) > 1 else [
            "one system: TrueSkill ranks systems against each other, so its score is the "
            "initial 0; see the mean judge score"]
        return ScoreResult(self.name, corpus, signature(self.name, self.settings()),
                           counts={"sentences": len(judged)}, sentences=rows, notes=notes)


def _fingerprint(data: ScoreInput) -> int:
    return hash((tuple(data.sources or ()), tuple(data.hypotheses)))


@register("llm-s")
@dataclass
class LLMSent(LLMJudge):
    """LLM-S: the judge reads the corrected sentences (see the module docstring)."""

    name: str = "llm-s"
    uses: ClassVar[tuple[str, ...]] = ()


@register("llm-e")
@dataclass
class LLMEdit(LLMJudge):
    """LLM-E: the judge reads each correction's edits, extracted by ``lang``'s annotator
    (ERRANT's for English); ``brackets`` writes them ``[orig→corr]``, the notation the prompt
    explains (gec-metrics writes ``orig→corr``)."""

    lang: str = "en"
    annotator: Any = field(default=None, repr=False, compare=False)
    brackets: bool = False
    name: str = "llm-e"
    uses: ClassVar[tuple[str, ...]] = ("hyp_edits",)
    TEMPLATE: ClassVar[str] = EDIT_TEMPLATE
    CRITERIA: ClassVar[dict[str, str]] = EDIT_CRITERIA

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "edits": f"errtype-{self.lang}",
                "brackets": self.brackets}

    def targets(self, data: ScoreInput, index: int, hypothesis: str) -> str:
        from ..extract import hypothesis_blocks

        key = ("llm-e blocks", self.lang)
        if key not in data.shared:
            data.shared[key] = hypothesis_blocks(data, self.lang, self.annotator)
        return edit_text(data.shared[key][index], self.brackets)
