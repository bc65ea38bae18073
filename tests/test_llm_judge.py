"""The LLM judges (llm-s, llm-e) against a fake chat API on a loopback server: prompts, answer
parsing, the TrueSkill ranking, the answer cache, retries and errors, and no network."""

from __future__ import annotations

import base64
import itertools
import json
import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from errtype.errors import InputError, ServiceError
from errtype.score import get_metric
from errtype.score.lm.chat import ChatClient
from errtype.score.lm.llm_judge import (
    RATER,
    SENT_CRITERIA,
    edit_text,
    parse_scores,
    response_format,
    sample_hypotheses,
)
from errtype.score.registry import ScoreInput

from .loopback import serve_api

SRCS = ["I has a pen .", "She go home .", "It is fine ."]
SYSTEMS = {
    "A": ["I have a pen .", "She goes home .", "It is fine ."],
    "B": ["I had a pen .", "She go home .", "It is fine ."],
    "C": ["I have a pen .", "She went home .", "It is fine !"],
}
#: the fake judge's opinion of each hypothesis (others: 3)
OPINION = {"I have a pen .": 5, "I had a pen .": 4, "She goes home .": 5, "She go home .": 1,
           "She went home .": 4, "It is fine .": 5, "It is fine !": 2}


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch) -> Iterator[None]:
    """Every connection of these tests goes to 127.0.0.1 (a test that reached anything else
    would fail here); proxies from the environment are left out."""
    real = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        assert host in ("127.0.0.1", "localhost"), f"network access to {address!r}"
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                "all_proxy", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    yield


def targets_of(prompt: str) -> list[str]:
    """The target lines of a prompt (between '# targets' and '# output format')."""
    block = prompt.split("# targets\n", 1)[1].split("\n\n# output format", 1)[0]
    return block.split("\n")


class FakeJudge:
    """A chat API answering from :data:`OPINION`, recording every request; ``script`` gives
    the first answers instead ((status, headers, body) or a content string)."""

    def __init__(self, *script: Any, fenced: bool = False) -> None:
        self.script = list(script)
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        self.fenced = fenced

    def __call__(self, path: str, headers: dict[str, str], body: Any
                 ) -> tuple[int, dict[str, str], Any]:
        self.requests.append((path, headers, body))
        if self.script:
            step = self.script.pop(0)
            if not isinstance(step, str):
                return step
            return 200, {}, chat(step)
        lines = targets_of(body["messages"][1]["content"])
        scores = {f"target_score{i}": OPINION.get(t, 3) for i, t in enumerate(lines, 1)}
        content = json.dumps(scores)
        if self.fenced:
            content = f"Here you are:\n```json\n{content}\n```"
        return 200, {}, chat(content)


def chat(content: str) -> dict[str, Any]:
    return {"id": "x", "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": "stop"}]}


def inputs(systems: dict[str, list[str]] = SYSTEMS, srcs: list[str] = SRCS) -> list[ScoreInput]:
    return [ScoreInput([], hyps, sources=srcs, name=name) for name, hyps in systems.items()]


def judge(url: str, name: str = "llm-s", **settings: Any) -> Any:
    return get_metric(name, **{"model": "fake-model", "base_url": url, "cache": "none",
                                "backoff": 0.0, **settings})


# ---------------------------------------------------------------- pieces

def test_sample_hypotheses() -> None:
    assert sample_hypotheses(["b", "a", "b"]) == ["a", "b"]
    # more than 5 distinct: the most frequent, ties in first-met order, then sorted
    hyps = ["f", "e", "e", "d", "c", "b", "a", "g", "g"]
    assert sample_hypotheses(hyps) == ["c", "d", "e", "f", "g"]
    assert sample_hypotheses(hyps, 2) == ["e", "g"]


def test_parse_scores() -> None:
    assert parse_scores('{"target_score1": 4, "target_score2": 1}', 2) == [4, 1]
    assert parse_scores('```json\n{"target1_score": 5, "target2_score": 3.0}\n```', 2) == [5, 3]
    assert parse_scores('Sure. {"target_score1": 2} Hope it helps.', 1) == [2]
    for bad, why in [('{"target_score1": 4}', "no score for target 2 of 2"),
                     ('{"target_score1": 4, "target_score2": 6}', "outside 1-5"),
                     ('{"target_score1": 4, "target_score2": "x"}', "not an integer"),
                     ('{"target_score1": 4, "target_score2": 2.5}', "not an integer"),
                     ('{"target_score1": true, "target_score2": 1}', "not an integer"),
                     ("I cannot judge these.", "no JSON object"), ("[4, 1]", "not an object")]:
        with pytest.raises(ValueError, match=why):
            parse_scores(bad, 2)
    schema = response_format(2)["json_schema"]["schema"]
    assert schema["required"] == ["target_score1", "target_score2"]
    assert schema["properties"]["target_score2"] == {"type": "integer"}


def test_prompts_and_criteria(tmp_path) -> None:
    m = get_metric("llm-s", criteria="fluency")
    text = m.prompt_template()
    # the criterion goes on its own line after the instructions, before '# source'
    assert f"(note that you can assign the same score multiple times).\n" \
           f"{SENT_CRITERIA['fluency']}\n\n# source\n[SOURCE]\n\n# targets\n[CORRECTION]\n" in text
    e = get_metric("llm-e", criteria="impact").prompt_template()
    assert "[the→a]\nPlease evaluate each edit in the target with a focus on its impact on " \
           "the sentence.\n\n# context\n[SOURCE]" in e
    with pytest.raises(InputError, match="unknown criteria 'fluency'.*difficulty, impact"):
        get_metric("llm-e", criteria="fluency")
    own = tmp_path / "prompt.txt"
    own.write_text("Rate [CORRECTION] for [SOURCE].")
    assert get_metric("llm-s", template=str(own)).prompt_template() == \
        "Rate [CORRECTION] for [SOURCE]."
    own.write_text("Rate the targets.")
    with pytest.raises(InputError, match=r"prompt.txt: the prompt template has no \[SOURCE\]"):
        get_metric("llm-s", template=str(own)).prompt_template()


def test_edit_text() -> None:
    from errtype.m2 import M2Block, M2Edit

    block = M2Block("I has a pen .", [M2Edit(1, 2, "R:VERB:SVA", "have", 0),
                                      M2Edit(3, 4, "U:NOUN", "", 0),
                                      M2Edit(5, 5, "M:PUNCT", "!", 0)])
    assert edit_text(block) == "has→have pen→ →!"
    assert edit_text(block, brackets=True) == "[has→have] [pen→] [→!]"
    assert edit_text(M2Block("x", [M2Edit(-1, -1, "noop", "-NONE-", 0)])) == ""


# ---------------------------------------------------------------- against the fake judge

def gec_metrics_trueskill(tables: list[list[list[int | None]]]) -> list[float]:
    """gec-metrics' run_trueskill protocol, written out: sentence by sentence, pairs (i1, i2)
    in index order, a None pair skipped, one TrueSkill update per comparison."""
    games = []
    for table in tables:
        for i1, i2 in itertools.combinations(range(len(table)), 2):
            r = table[i1][i2]
            if r is None:
                continue
            games.append((str(i1), str(i2), r == 0) if r >= 0 else (str(i2), str(i1), False))
    mu = RATER._pass(games)
    return [mu.get(str(i), 0.0) for i in range(len(tables[0]))]


def test_llm_s_ranks_systems_as_gec_metrics(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake = FakeJudge()
    with serve_api(fake) as url:
        m = judge(url, seed=7, temperature=0.0)
        systems = inputs()
        m.prepare(systems)
        results = {s.name: m.score(s) for s in systems}
    assert len(fake.requests) == 3  # one per sentence (sent 4 at a time: in any order)
    path, headers, body = next(r for r in fake.requests
                               if "\nI has a pen .\n" in r[2]["messages"][1]["content"])
    assert path == "/chat/completions" and headers["Authorization"] == "Bearer sk-test"
    assert body["model"] == "fake-model" and body["seed"] == 7 and body["temperature"] == 0.0
    assert body["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}
    prompt = body["messages"][1]["content"]
    assert "# source\nI has a pen .\n\n# targets\nI had a pen .\nI have a pen .\n\n" in prompt
    assert body["response_format"]["json_schema"]["schema"]["required"] == [
        "target_score1", "target_score2"]
    # every hypothesis judged (3 distinct at most): the sentence scores are the opinions
    for name, hyps in SYSTEMS.items():
        assert [r["score"] for r in results[name].sentences] == [OPINION[h] for h in hyps]
        assert results[name].corpus["mean"] == pytest.approx(
            sum(OPINION[h] for h in hyps) / 3)
    # the TrueSkill scores follow gec-metrics' pairwise protocol
    tables = []
    for i in range(3):
        scores = [OPINION[SYSTEMS[n][i]] for n in SYSTEMS]
        tables.append([[(a > b) - (a < b) for b in scores] for a in scores])
    want = gec_metrics_trueskill(tables)
    assert [results[n].corpus["trueskill"] for n in SYSTEMS] == pytest.approx(want, abs=1e-12)
    # A never loses; B beats C in the last comparison, which weighs most in one pass
    assert [round(results[n].corpus["trueskill"], 4) for n in SYSTEMS] == [0.2598, -0.0866,
                                                                          -0.1821]
    sig = results["A"].signature
    assert sig.startswith(f"llm-s|model:fake-model|api:{url}|prompt:kobayashi24|criteria:none|"
                          "seed:7|temperature:0.0|structured:True|max_hypotheses:5|")
    assert "sk-test" not in sig


def test_unjudged_systems_sit_out(monkeypatch) -> None:
    """Six systems with six different hypotheses: the least frequent is not judged and takes
    part in no comparison of that sentence."""
    systems = {f"S{k}": [f"it is {w} ."] for k, w in enumerate("abcdef")}
    systems["S6"] = ["it is b ."]
    fake = FakeJudge()
    with serve_api(fake) as url:
        m = judge(url, structured=False)
        data = inputs(systems, ["it is x ."])
        m.prepare(data)
        res = {d.name: m.score(d) for d in data}
    body = fake.requests[0][2]
    assert "response_format" not in body and "seed" in body
    assert targets_of(body["messages"][1]["content"]) == [
        "it is a .", "it is b .", "it is c .", "it is d .", "it is e ."]
    assert res["S5"].sentences == [{"judged": False}] and res["S5"].corpus["judged"] == 0
    assert res["S5"].corpus["trueskill"] == 0.0  # never rated
    # all judged ones scored 3 (no opinion): every comparison a draw; S1 and S6 tie too
    table = [[0 if k != 5 and j != 5 else None for j in range(7)] for k in range(7)]
    assert [res[f"S{k}"].corpus["trueskill"] for k in range(7)] == pytest.approx(
        gec_metrics_trueskill([table]), abs=1e-12)


def test_llm_e_shows_edits() -> None:
    data = inputs({"A": SYSTEMS["A"], "B": SYSTEMS["B"]})

    def prompts(**settings: Any) -> tuple[list[str], Any]:
        fake = FakeJudge(fenced=True)
        with serve_api(fake) as url:
            m = judge(url, "llm-e", **settings)
            m.prepare(data)
        sent = [r[2]["messages"][1]["content"] for r in fake.requests]
        return sorted(sent, key=lambda p: SRCS.index(p.split("# context\n")[1].split("\n")[0])
                      ), m

    plain, m = prompts()
    assert "# context\nI has a pen .\n\n# targets\nhas→had\nhas→have\n\n" in plain[0]
    # sorted by hypothesis: B's unchanged "She go home ." first, an empty line
    assert targets_of(plain[1]) == ["", "go→goes"]
    assert targets_of(plain[2]) == [""]
    # the fake judge scores edit lines 3 (no opinion): all draws, read from fenced JSON
    res = m.score(data[0])
    assert [r["score"] for r in res.sentences] == [3, 3, 3]
    assert "edits:errtype-en|brackets:False" in res.signature
    bracketed, _ = prompts(brackets=True)
    assert targets_of(bracketed[0]) == ["[has→had]", "[has→have]"]


def test_cache_answers_and_reuse(tmp_path, monkeypatch) -> None:
    cache = tmp_path / "judge.jsonl"
    fake = FakeJudge()
    with serve_api(fake) as url:
        first = judge(url, cache=str(cache))
        first.prepare(inputs())
        assert len(fake.requests) == 3
        lines = cache.read_text().splitlines()
        entry = json.loads(lines[0])
        assert set(entry) == {"id", "results"} and re.fullmatch(r"[0-9a-f]{32}", entry["id"])
        assert entry["results"]["choices"][0]["message"]["content"].startswith(
            '{"target_score1"')
        again = judge(url, cache=str(cache))
        again.prepare(inputs())
        assert len(fake.requests) == 3  # everything from the cache
        # a last line cut short by a stopped run is asked again
        cache.write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])
        judge(url, cache=str(cache)).prepare(inputs())
        assert len(fake.requests) == 4
        cache.write_text("not json\n" + "\n".join(lines) + "\n")
        with pytest.raises(InputError, match=r"judge.jsonl, line 1: not an answer cache line"):
            judge(url, cache=str(cache)).prepare(inputs())
    # the default cache lives in the user's cache folder, one file per model
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path / "c"))
    auto = get_metric("llm-s", model="org/model:v1")
    assert auto.cache_path() == tmp_path / "c" / "llm-judge" / "org-model-v1.jsonl"


# ---------------------------------------------------------------- failures

def test_retries_then_success() -> None:
    fake = FakeJudge((429, {"Retry-After": "0"}, {"error": {"message": "slow down"}}),
                     (503, {}, {"error": "busy"}), (200, {}, b"<html>oops"),
                     "I think the first is better.")
    with serve_api(fake) as url:
        m = judge(url, retries=4, workers=1)
        m.prepare(inputs({"A": SYSTEMS["A"][:1]}, SRCS[:1]))
    assert len(fake.requests) == 5 and m._judged["A"] == [5]


@pytest.mark.parametrize("answer, why", [
    ((500, {}, {"error": {"message": "boom"}}), "HTTP 500: boom"),
    ('{"target_score1": 9}', r"unusable answer \(target 1: 9 is outside 1-5\): "
                             r"'\{\"target_score1\": 9\}'"),
])
def test_gives_up_after_retries(answer: Any, why: str) -> None:
    fake = FakeJudge(*[answer] * 3)
    with serve_api(fake) as url:
        with pytest.raises(ServiceError, match=(
                rf"llm-s: sentence 1: {re.escape(url)}/chat/completions: gave up after 3 "
                rf"attempts; the last: {why}")):
            judge(url, retries=2).prepare(inputs({"A": SYSTEMS["A"][:1]}, SRCS[:1]))
    assert len(fake.requests) == 3


@pytest.mark.parametrize("status, hint", [(401, "check the key in \\$MY_KEY"),
                                          (404, "check the base URL and the model name"),
                                          (400, "a server without structured outputs "
                                                r"\(JSON schemas\) needs the judge's "
                                                "structured=False")])
def test_refusals_stop_at_once(status: int, hint: str) -> None:
    fake = FakeJudge((status, {}, {"error": {"message": "no such thing"}}))
    with serve_api(fake) as url:
        with pytest.raises(ServiceError, match=rf"HTTP {status}: no such thing \(model "
                                               rf"'fake-model'\); {hint}"):
            judge(url, api_key_env="MY_KEY").prepare(inputs({"A": SYSTEMS["A"][:1]}, SRCS[:1]))
    assert len(fake.requests) == 1


def test_unreachable_and_missing_key() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = ChatClient("m", f"http://127.0.0.1:{port}/v1", retries=1, backoff=0.0)
    with pytest.raises(ServiceError, match=rf"127.0.0.1:{port}/v1/chat/completions: gave up "
                                           r"after 2 attempts; the last: no answer: "):
        client.complete([{"role": "user", "content": "hi"}])
    # OpenAI's API without a key: refused before any connection (the fixture would catch one)
    with pytest.raises(ServiceError, match=r"no API key: set \$OPENAI_API_KEY"):
        ChatClient("gpt-4o").complete([{"role": "user", "content": "hi"}])


def test_cli_score_with_a_judge(tmp_path, capsys) -> None:
    from errtype.cli.score import main

    src = tmp_path / "src.txt"
    src.write_text("\n".join(SRCS) + "\n")
    files = []
    for name, hyps in SYSTEMS.items():
        (tmp_path / name).write_text("\n".join(hyps) + "\n")
        files.append(f"{name}={tmp_path / name}")
    fake = FakeJudge()
    with serve_api(fake) as url:
        assert main(["-m", "llm-s", "--src", str(src), "--hyp", *files, "--tsv",
                     "-O", "llm-s.model=fake-model", "-O", f"llm-s.base_url={url}",
                     "-O", "llm-s.cache=none"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0].startswith("system\tmetric\tscore")
        rows = {r.split("\t")[0]: float(r.split("\t")[2]) for r in out[1:4]}
        assert rows == pytest.approx({"A": 0.2598, "B": -0.0866, "C": -0.1821}, abs=1e-4)
        assert len(fake.requests) == 3
        # a refusal is one error line and exit 2
        fake.script = [(401, {}, {"error": {"message": "bad key"}})]
        assert main(["-m", "llm-s", "--src", str(src), "--hyp", *files,
                     "-O", f"llm-s.base_url={url}", "-O", "llm-s.cache=none"]) == 2
        err = capsys.readouterr().err
        assert "HTTP 401: bad key" in err and "Traceback" not in err


# ---------------------------------------------------------------- keys (issue 33, hostile 7)
USER_KEY, QUERY_KEY, ENV_KEY = "sk-user-7f3a9c1e", "sk-query-2b8d4e6f", "sk-env-9a1c5e7b"


def _files(tmp_path) -> list[str]:
    src = tmp_path / "src.txt"
    src.write_text("\n".join(SRCS) + "\n")
    files = ["--src", str(src), "--hyp"]
    for name, hyps in SYSTEMS.items():
        (tmp_path / name).write_text("\n".join(hyps) + "\n")
        files.append(f"{name}={tmp_path / name}")
    return files


def test_keys_in_the_base_url_are_never_shown(tmp_path, capsys) -> None:
    """A key in the base URL's user information or query: used, never printed (signature,
    errors, an error body that echoes it)."""
    from errtype.cli.score import main

    fake = FakeJudge()
    with serve_api(fake) as url:
        base = url.replace("http://", f"http://me:{USER_KEY}@") + f"/v1?api_key={QUERY_KEY}&v=1"
        common = ["-m", "llm-s", *_files(tmp_path), "-O", "llm-s.model=fake-model", "-O",
                  f"llm-s.base_url={base}", "-O", "llm-s.cache=none", "-O", "llm-s.backoff=0"]
        assert main([*common, "--tsv"]) == 0
        out, err = capsys.readouterr()
        shown = url.replace("http://", "http://***@") + "/v1?api_key=***&v=1"
        assert f"|api:{shown}|" in out
        # the server got both: the user information as basic authentication, the query as is
        path, headers, _ = fake.requests[0]
        assert path == f"/v1/chat/completions?api_key={QUERY_KEY}&v=1"
        assert headers["Authorization"] == "Basic " + base64.b64encode(
            f"me:{USER_KEY}".encode()).decode()
        # an error that echoes the key, retried answers, a refused connection
        fake.script = [(401, {}, {"error": {"message": f"invalid key {USER_KEY} / {QUERY_KEY}"}})]
        assert main(common) == 2
        out2, err2 = capsys.readouterr()
        assert "HTTP 401: invalid key *** / ***" in err2 and len(err2.splitlines()) == 1
        fake.script = [(503, {}, {"error": {"message": f"busy, {QUERY_KEY}"}})] * 2
        assert main([*common, "-O", "llm-s.retries=1", "-O", "llm-s.workers=1"]) == 2
        out3, err3 = capsys.readouterr()
        assert f"{shown.replace('/v1?', '/v1/chat/completions?')}: gave up after 2 attempts; " \
               "the last: HTTP 503: busy, ***" in err3
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://me:{USER_KEY}@127.0.0.1:{s.getsockname()[1]}/v1?token={QUERY_KEY}"
    assert main(["-m", "llm-s", *_files(tmp_path), "-O", f"llm-s.base_url={dead}", "-O",
                 "llm-s.retries=0", "-O", "llm-s.cache=none"]) == 2
    out4, err4 = capsys.readouterr()
    assert "gave up after 1 attempts; the last: no answer" in err4
    for text in (out, err, out2, err2, out3, err3, out4, err4):
        assert USER_KEY not in text and QUERY_KEY not in text


def test_no_key_over_plain_http_unasked(monkeypatch, tmp_path, capsys) -> None:
    """$OPENAI_API_KEY goes to a loopback or https server; to another plain http host only
    with allow_http_key (the host here resolves to the loopback fake server)."""
    from errtype.cli.score import main

    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **k: real(
        "127.0.0.1" if host == "judge.test" else host, *a, **k))
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    fake = FakeJudge()
    with serve_api(fake) as url:
        remote = url.replace("127.0.0.1", "judge.test") + "/v1"
        with pytest.raises(ServiceError, match=r"llm-s: http://judge.test:\d+/v1/chat/completions"
                                               r": not sending the API key in \$OPENAI_API_KEY "
                                               r"over plain http to judge.test: use an https "
                                               r"base URL, or -O llm-s.allow_http_key=true"):
            judge(remote)
        common = ["-m", "llm-s", *_files(tmp_path), "-O", "llm-s.cache=none", "-O",
                  f"llm-s.base_url={remote}"]
        assert main(common) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "not sending the API key" in err
        assert fake.requests == []
        # explicitly allowed: sent; no key wanted: none sent; a loopback server: sent
        judge(remote, allow_http_key=True).prepare(inputs({"A": SYSTEMS["A"][:1]}, SRCS[:1]))
        judge(remote, api_key_env="").prepare(inputs({"A": SYSTEMS["A"][:1]}, SRCS[:1]))
        judge(url + "/v1").prepare(inputs({"A": SYSTEMS["A"][:1]}, SRCS[:1]))
        assert [h.get("Authorization") for _, h, _ in fake.requests] == [
            f"Bearer {ENV_KEY}", None, f"Bearer {ENV_KEY}"]
        assert main([*common, "-O", "llm-s.allow_http_key=true", "--tsv"]) == 0
        assert ENV_KEY not in "".join(capsys.readouterr())
    with pytest.raises(ServiceError, match="must be an http or https URL"):
        judge("file:///etc/passwd")
