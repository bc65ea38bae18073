"""The invariant matrix (issue 33): every registry metric x every language with a model here x
every input form, generated from the registries (``tests/invariant_matrix.py``). Its size is in
the id of ``test_matrix_size`` (``pytest -q tests/test_invariant_matrix.py -k size -v``): 1,040
combinations with the extras CI installs and ../shared's stand-in models (20 metrics x 9
languages x 9 forms, where a form applies).

The invariants, each a test parametrized over the matrix:

* ``test_works_or_refused``: every combination scores, or is refused with a one-line message
  before any work (before an edit is extracted); a refusal must be a documented one
  (:data:`DOCUMENTED`), and a documented one must happen;
* ``test_gold_gets_the_maximum``: the gold's own corrections as a system get the metric's maximum
  (1), or the documented value;
* ``test_source_gets_recall_zero``: the source as a system gets recall 0 (metrics with a recall);
* ``test_equal_across_forms``: every form scores every system as the base form ``text`` does
  (``-NONE-`` or empty deletions, standard or ChERRANT M2, segmented or unsegmented systems,
  text or M2 systems, a gold made with ``-j 1`` or ``-j 2``).

Documented exceptions are in ONE table (:data:`DOCUMENTED`), known defects in ONE list
(:data:`KNOWN`, strict xfails: they turn red once fixed). The library runs the matrix (the code
``errtype score`` runs); the CLI runs a slice of it (``test_cli_*``); the forms marked slow (the
``-j 2`` gold) and real processes are ``slow``.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

import errtype
from errtype.lang import available
from errtype.score.registry import available_metrics

from . import invariant_matrix as im

ROOT = Path(__file__).resolve().parents[1]
METRICS = available_metrics()
LANGS = {lang.key: lang for lang in im.languages()}
BASE = "text"


# ------------------------------------------------------------------ documented exceptions
def _extra_missing(*modules: str) -> Callable[[], str | None]:
    def check() -> str | None:
        gone = [m for m in modules if not im._installed(m)]
        return f"{', '.join(gone)} not installed" if gone else None

    return check


def _always(reason: str) -> Callable[[], str | None]:
    return lambda: reason


@dataclass(frozen=True)
class Documented:
    """What holds instead of an invariant for one metric, and where the docs say so.

    ``maximum``: the gold's value (None: the metric has no maximum; a callable of the run's
    :class:`Ctx` may return None where the exception applies); ``source_recall`` likewise;
    ``refused``: a check returning why the metric is refused here (None: it is not);
    ``downloads``: it downloads models when it runs (the matrix then leaves it out)."""

    doc: str
    maximum: Any = 1.0
    source_recall: Any = 0.0
    refused: Callable[[], str | None] = lambda: None
    downloads: bool = False


@dataclass(frozen=True)
class Ctx:
    lang: im.Lang
    gold: Path
    form: str = "text"


def _unchanged_inside(a: list[str], b: list[str]) -> int:
    """Tokens an edit ``a -> b`` keeps inside it (their longest common subsequence)."""
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], prev + 1 if x == y else max(row[j], row[j - 1])
    return row[-1]


def _maxmatch_maximum(ctx: Ctx) -> float | None:
    """1, unless a gold edit keeps more than max_unchanged_words (2) tokens inside it: m2scorer's
    lattice cannot propose it (a word-order change in characters, e.g. 了商店买 -> 商店买了)."""
    from errtype.m2 import read_m2
    from errtype.score.units import char_block

    for block in read_m2(ctx.gold):
        if ctx.lang.unspaced and ctx.lang.opt("granularity") == "char":
            block = char_block(block)
        for e in block.edits:
            cor = [] if e.cor.strip() in ("", "-NONE-") else e.cor.split()
            if e.start >= 0 and _unchanged_inside(block.tokens[e.start:e.end], cor) > 2:
                return None
    return 1.0


def _unchanged_share(ctx: Ctx) -> float | None:
    """The share of unchanged sentences; essays (docs/essays.md): None, the average is over the
    realigned units, where a word-order change across a boundary joins two sentences."""
    if ctx.form == "essays-md":
        return None
    rows = im.SENTENCES[ctx.lang.code]
    return sum(src == cor for src, cor, _ in rows) / len(rows)


_NEURAL = Documented("docs/metrics.md, 'Neural metrics and LLM judges': the extra lm (torch, "
                     "transformers); a model's score, no maximum", None, None,
                     _extra_missing("torch", "transformers"), downloads=True)
_JUDGE = Documented("docs/metrics.md, 'Neural metrics and LLM judges': a chat API (the matrix "
                    "never sends a key); TrueSkill ratings, no maximum", None, None,
                    _always("no API key"))
_SENT = "docs/metrics.md, 'SentM2 and SentERRANT': a sentence without gold edits scores 1"
_M2 = ("docs/metrics.md, 'Scoring units': a gold edit keeping more than max_unchanged_words "
       "tokens inside it cannot be proposed (m2scorer 3.2)")

#: THE table of documented exceptions: metric -> what holds instead, with the doc reference
DOCUMENTED: dict[str, Documented] = {
    "scribendi": Documented("docs/metrics.md, The metrics: 'Scribendi score (reference-free; "
                            "sum over sentences)' of an LM's judgements: no maximum", None),
    "green": Documented("docs/metrics.md, GREEN: TP counts the kept n-grams, so the source's "
                        "recall is not 0", source_recall=None),
    "green-char": Documented("docs/metrics.md, GREEN (as green, in characters)",
                             source_recall=None),
    "sentm2": Documented(f"{_SENT}; {_M2}", _maxmatch_maximum, _unchanged_share),
    "senterrant": Documented(_SENT, source_recall=_unchanged_share),
    "maxmatch": Documented(_M2, _maxmatch_maximum),
    "bertscore": _NEURAL, "impara": _NEURAL, "some": _NEURAL,
    "llm-s": _JUDGE, "llm-e": _JUDGE,
}
_PLAIN = Documented("")
#: the metrics the matrix runs: all but those that would download models
RUN = [m for m in METRICS if not (DOCUMENTED.get(m, _PLAIN).downloads
                                  and DOCUMENTED[m].refused() is None)]


# ------------------------------------------------------------------ known defects
@dataclass(frozen=True)
class Known:
    """Combinations that fail an invariant because of a known defect (fnmatch patterns)."""

    reason: str
    invariants: tuple[str, ...]
    metrics: tuple[str, ...]
    langs: tuple[str, ...]
    forms: tuple[str, ...]

    def covers(self, invariant: str, metric: str, lang: str, form: str) -> bool:
        return (invariant in self.invariants and any(fnmatch(metric, p) for p in self.metrics)
                and any(fnmatch(lang, p) for p in self.langs)
                and any(fnmatch(form, p) for p in self.forms))


_ERRANT = ("errant", "senterrant", "goto", "pt-errant")
_TEXT_HYPS = tuple(form for form in im.FORMS if form != "hyp-m2")

#: THE list of known defects (issue 33), as strict xfails: remove an entry once it is fixed
KNOWN: list[Known] = [
]


# ------------------------------------------------------------------ the matrix
def _combos() -> list[tuple[str, str, str]]:
    return [(m, key, form) for m in METRICS for key, lang in LANGS.items()
            for form, f in im.FORMS.items() if f.applies(lang)]


COMBOS = _combos()


def _params(invariant: str, forms: Callable[[str], bool] = lambda f: True) -> list[Any]:
    out = []
    for metric, lang, form in COMBOS:
        if not forms(form):
            continue
        marks = [pytest.mark.xfail(strict=True, reason=f"issue 33: {k.reason}")
                 for k in KNOWN if k.covers(invariant, metric, lang, form)][:1]
        if im.FORMS[form].slow:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(metric, lang, form, marks=marks, id=f"{metric}-{lang}-{form}"))
    return out


class Matrix:
    """The runs of the matrix, each done once per session: one workspace and annotator per
    language, one outcome per metric, language and form."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._ann: dict[str, Any] = {}
        self._ws: dict[str, im.Workspace] = {}
        self._inputs: dict[tuple[str, str], im.Inputs] = {}
        self._out: dict[tuple[str, str], dict[str, im.Outcome]] = {}

    def annotator(self, key: str) -> Callable[[], Any]:
        lang = LANGS[key]

        def make() -> Any:
            if key not in self._ann:
                self._ann[key] = errtype.load(lang.code, **lang.load_options())
            return self._ann[key]

        return make

    def workspace(self, key: str) -> im.Workspace:
        if key not in self._ws:
            self._ws[key] = im.Workspace(LANGS[key], self.root, self.annotator(key))
        return self._ws[key]

    def inputs(self, key: str, form: str) -> im.Inputs:
        if (key, form) not in self._inputs:
            self._inputs[key, form] = im.FORMS[form].build(self.workspace(key))
        return self._inputs[key, form]

    def outcome(self, metric: str, key: str, form: str) -> im.Outcome:
        """The metric's outcome (skipped for a metric that would download models: with its
        extra installed, tests/test_neural_metrics.py scores it with tiny local models)."""
        if metric not in RUN:
            pytest.skip(f"{metric} downloads its models (scored by tests/test_neural_metrics.py)")
        if (key, form) not in self._out:
            self._out[key, form] = im.score_api(LANGS[key], self.inputs(key, form), RUN,
                                                self.annotator(key))
        return self._out[key, form][metric]

    def ctx(self, key: str, form: str) -> Ctx:
        return Ctx(LANGS[key], self.inputs(key, form).gold, form)


@pytest.fixture(scope="session")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> Matrix:
    return Matrix(tmp_path_factory.mktemp("matrix"))


@pytest.fixture(autouse=True)
def _no_api_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The LLM judges never reach a remote API from the matrix."""
    import os

    for name in list(os.environ):
        if name.endswith("_API_KEY") or name == "OPENAI_BASE_URL":
            monkeypatch.delenv(name)


def _scored(matrix: Matrix, metric: str, key: str, form: str) -> im.Outcome:
    out = matrix.outcome(metric, key, form)
    if out.refused:
        pytest.skip(f"refused (checked by test_works_or_refused): {out.refused}")
    return out


def _expected(value: Any, ctx: Ctx) -> float | None:
    return value(ctx) if callable(value) else value


# ------------------------------------------------------------------ the invariants
@pytest.mark.parametrize(("metric", "lang", "form"), _params("works"))
def test_works_or_refused(matrix: Matrix, metric: str, lang: str, form: str) -> None:
    out = matrix.outcome(metric, lang, form)
    why = DOCUMENTED.get(metric, _PLAIN).refused()
    if out.refused is None:
        assert why is None, f"{metric} should be refused here ({why}) but scored"
        assert set(out.main) == set(im.SYSTEMS)
        return
    assert "\n" not in out.refused, out.refused
    assert not out.worked_before_refusal, f"refused only after extracting edits: {out.refused}"
    assert why is not None, f"undocumented refusal: {out.refused}"


@pytest.mark.parametrize(("metric", "lang", "form"), _params("maximum"))
def test_gold_gets_the_maximum(matrix: Matrix, metric: str, lang: str, form: str) -> None:
    out = _scored(matrix, metric, lang, form)
    doc = DOCUMENTED.get(metric, _PLAIN)
    want = _expected(doc.maximum, matrix.ctx(lang, form))
    if want is None:
        pytest.skip(f"no maximum: {doc.doc}")
    assert out.main["gold"] == pytest.approx(want), out.corpus["gold"]


@pytest.mark.parametrize(("metric", "lang", "form"), _params("recall"))
def test_source_gets_recall_zero(matrix: Matrix, metric: str, lang: str, form: str) -> None:
    out = _scored(matrix, metric, lang, form)
    if "r" not in out.corpus["source"]:
        pytest.skip(f"{metric} has no recall")
    doc = DOCUMENTED.get(metric, _PLAIN)
    want = _expected(doc.source_recall, matrix.ctx(lang, form))
    if want is None:
        pytest.skip(f"documented: {doc.doc}")
    assert out.corpus["source"]["r"] == pytest.approx(want), out.corpus["source"]


@pytest.mark.parametrize(("metric", "lang", "form"),
                         _params("equal", lambda f: im.FORMS[f].same_as is not None))
def test_equal_across_forms(matrix: Matrix, metric: str, lang: str, form: str) -> None:
    base = matrix.outcome(metric, lang, im.FORMS[form].same_as or BASE)
    out = matrix.outcome(metric, lang, form)
    assert (out.refused is None) == (base.refused is None), (base.refused, out.refused)
    if out.refused:
        return
    for system in im.SYSTEMS:
        assert out.corpus[system] == pytest.approx(base.corpus[system]), system


# ------------------------------------------------------------------ coverage
@pytest.mark.parametrize("size", [len(COMBOS)], ids=[f"{len(COMBOS)}-combinations"])
def test_matrix_size(size: int) -> None:
    """The matrix: metrics x languages x forms (printed with -v/-s)."""
    print(f"invariant matrix: {len(METRICS)} metrics x {len(LANGS)} languages "
          f"({', '.join(LANGS)}) x {len(im.FORMS)} forms = {size} combinations")
    assert size == sum(f.applies(lang) for lang in LANGS.values()
                       for f in im.FORMS.values()) * len(METRICS)


def test_matrix_covers_every_registry_metric_and_language() -> None:
    """Every registry metric is in the matrix; every registered language is in it or has no
    model here (and every language with a model has a sentence set); the built-in languages
    and the extras CI installs are always in it, so it cannot silently shrink."""
    assert {m for m, _, _ in COMBOS} == set(METRICS)
    assert set(DOCUMENTED) <= set(METRICS), "an exception for a metric that is not registered"
    covered = {lang.code for lang in LANGS.values()}
    assert covered | set(im.uncovered_languages()) == set(available())
    assert covered <= set(im.SENTENCES), f"no sentences for {covered - set(im.SENTENCES)}"
    assert {"en", "cs", "zh", "zh-word"} <= set(LANGS)
    if im._installed("fr_core_news_sm"):
        assert "fr" in LANGS
    if im._installed("fugashi"):
        assert "ja" in LANGS
    forms = {form for _, _, form in COMBOS}
    assert forms == set(im.FORMS), set(im.FORMS) - forms
    for key, lang in LANGS.items():
        sents = im.SENTENCES[lang.code]
        assert len(sents) >= 5 and any(s == c for s, c, _ in sents), key


# ------------------------------------------------------------------ refusals before any work
def test_metrics_needing_a_missing_extra_are_refused_by_the_registry(monkeypatch) -> None:
    """A metric registered as needing an extra (``extra = "lm"``) is refused by
    ``get_metric`` itself when the extra is missing, naming it; the others are built."""
    from errtype.errors import ResourceError
    from errtype.score.registry import get_metric

    monkeypatch.setitem(sys.modules, "torch", None)
    for name in METRICS:
        if DOCUMENTED.get(name) is _NEURAL:
            with pytest.raises(ResourceError, match=rf"^metric {name} needs torch.* \(pip "
                                                    r"install 'errtype\[lm\]'\)$"):
                get_metric(name)
        else:
            get_metric(name)


def test_cli_refuses_a_missing_extra_before_any_work(matrix: Matrix, monkeypatch,
                                                     capsys) -> None:
    """``errtype score -m errant bertscore`` without torch: exit 2 and one line before the
    annotator is loaded (errant first in the list did no work)."""
    from errtype.cli.score import main

    inputs = matrix.inputs("en", BASE)

    def no_work(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the annotator was loaded before the refusal")

    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setattr(errtype, "load", no_work)
    for name in (m for m in METRICS if DOCUMENTED.get(m) is _NEURAL):
        code = main(im.score_argv(LANGS["en"], inputs, ["errant", name]))
        err = capsys.readouterr().err
        assert code == 2, err
        assert err.count("\n") == 1 and "pip install 'errtype[lm]'" in err, err


# ------------------------------------------------------------------ building the gold
def _schemes(key: str) -> list[str]:
    """The type schemes the language declares (its module's ``SCHEMES``), else its default."""
    from errtype.lang import get_language

    module = sys.modules[type(get_language(LANGS[key].code)).__module__]
    return list(getattr(module, "SCHEMES", ("default",)))


def _gold_params(invariant: str, variants: bool) -> list[Any]:
    """(language, scheme) pairs: every scheme a language declares (``variants``; the default
    gold of every language is made by the matrix itself), or just the default."""
    out = []
    for key in LANGS:
        for scheme in [s for s in _schemes(key) if s != "default"] if variants else ["default"]:
            form = f"scheme-{scheme}"
            marks = [pytest.mark.xfail(strict=True, reason=f"issue 33: {k.reason}")
                     for k in KNOWN if k.covers(invariant, "*", key, form)][:1]
            out.append(pytest.param(key, scheme, marks=marks, id=f"{key}-{form}"))
    return out


def _m2_run(matrix: Matrix, key: str, extra: list[str], out: Path) -> int:
    """``errtype-m2`` on the language's source and corrections, with ``extra`` options."""
    from errtype.cli.m2 import main

    ws = matrix.workspace(key)
    return main(["-orig", str(ws.raw("source")), "-cor", str(ws.raw("gold")), "-o", str(out),
                 "-q", *LANGS[key].cli(), *extra])


@pytest.mark.parametrize(("lang", "scheme"), _gold_params("gold", True))
def test_gold_builds_or_is_refused_before_any_work(matrix: Matrix, lang: str, scheme: str,
                                                   tmp_path: Path, monkeypatch, capsys) -> None:
    """errtype-m2 with every type scheme the language declares: it writes the gold, or exits 2
    with one line before its parser is made."""
    from errtype.lang import get_language

    cls = type(get_language(LANGS[lang].code))
    made: list[bool] = []
    make = cls.make_parser

    def spy(self: Any, **options: Any) -> Any:
        made.append(True)
        return make(self, **options)

    monkeypatch.setattr(cls, "make_parser", spy)
    out = tmp_path / "gold.m2"
    code = _m2_run(matrix, lang, [] if scheme == "default" else ["--scheme", scheme], out)
    err = capsys.readouterr().err
    if code == 0:
        assert out.is_file() and "没有错误" not in out.read_text("utf-8").split("\n\n")[0]
        return
    assert code == 2 and err.count("\n") == 1, err
    assert not made, f"refused only after making the parser: {err}"
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "scheme"), _gold_params("bounded", False))
def test_gold_honours_max_tokens(matrix: Matrix, lang: str, scheme: str, tmp_path: Path,
                                 capsys) -> None:
    """errtype-m2 --max-tokens 2 skips (and reports) every sentence of the set: none has 2
    tokens or fewer."""
    from errtype.m2 import read_m2

    out = tmp_path / "gold.m2"
    code = _m2_run(matrix, lang, ["--max-tokens", "2"], out)
    err = capsys.readouterr().err
    assert code == 0, err
    blocks = list(read_m2(out))
    assert len(blocks) == len(im.SENTENCES[LANGS[lang].code])
    assert all(e.is_noop for b in blocks for e in b.edits), "a sentence over the limit was typed"
    assert err.count("max_tokens") == len(blocks), err


# ------------------------------------------------------------------ the CLI slice
def _cli_params() -> list[Any]:
    """Every language; those on a spaCy model other than English's are slow (one more model
    load each)."""
    out = []
    for key, lang in LANGS.items():
        marks = [pytest.mark.xfail(strict=True, reason=f"issue 33: {k.reason}")
                 for k in KNOWN if k.covers("cli", "*", key, BASE)][:1]
        if lang.model.startswith("spaCy") and key != "en":
            marks.append(pytest.mark.slow)
        out.append(pytest.param(key, marks=marks))
    return out


@pytest.mark.parametrize("lang", _cli_params())
def test_cli_scores_as_the_library(matrix: Matrix, lang: str, capsys, tmp_path: Path) -> None:
    """The slice run by ``errtype score`` itself: every metric the library scored on the base
    form, in one command (--json), gives the library's numbers."""
    import json

    from errtype.cli.score import main

    runnable = [m for m in RUN if matrix.outcome(m, lang, BASE).refused is None]
    out = tmp_path / "scores.json"
    code = main([*im.score_argv(LANGS[lang], matrix.inputs(lang, BASE), runnable), "--json",
                 "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    got = {(r["system"], r["metric"]): r["score"]
           for r in json.loads(out.read_text("utf-8"))["results"]}
    want = {(s, m): matrix.outcome(m, lang, BASE).main[s] for m in runnable for s in im.SYSTEMS}
    assert got == pytest.approx(want)


@pytest.mark.slow
def test_cli_refusal_is_one_line_in_a_real_process(matrix: Matrix, tmp_path: Path) -> None:
    """A real ``errtype score`` process refused (a word-segmented Chinese gold against texts,
    no --unit): exit 2, one line, no traceback."""
    lang = LANGS["zh-word"]
    inputs = matrix.inputs("zh-word", BASE)
    argv = [a for a in im.score_argv(lang, inputs, ["m2"]) if a not in lang.score_options]
    proc = subprocess.run([sys.executable, "-m", "errtype.cli.main", "score", *argv],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "--unit" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
