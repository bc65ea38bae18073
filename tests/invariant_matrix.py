"""The invariant matrix's registries (issue 33): languages, sentence sets, input forms, the
documented exceptions and the known defects, and the runs that score them.

The matrix is every metric of the registry (:func:`errtype.score.registry.available_metrics`) x
every language of the language registry (:func:`errtype.lang.available`) that has a bundled or
stand-in model here, with each option variant its language declares (Chinese: ``granularity``) x
every input form of :data:`FORMS` that applies to the language. A new metric, language or form
joins it by being registered; a language with a model but no sentence set in :data:`SENTENCES`
fails ``test_matrix_covers_every_registered_language``.

Each language's inputs are written by the tests: a few sentences with an insertion, a deletion,
a replacement, a word-order change and an unchanged sentence (``source``, ``correction``), and a
system output (``system``: some corrections made, some missed, one wrong). The gold M2 is made by
``errtype-m2`` from them; the systems scored are the gold's own corrections (``gold``), the source
(``source``) and the system output (``system``).

Scoring goes through the library (:func:`errtype.score.suite.load_suite` and
:func:`~errtype.score.suite.score_systems`, with the settings ``errtype score`` builds from its
options: :func:`errtype.cli.score.metric_settings`), one suite per language and form, the
annotator loaded once per language; the CLI runs a slice of it
(``tests/test_invariant_matrix.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from errtype.errors import ErrtypeError

from .conftest import SHARED

#: the systems every run scores, in this order
SYSTEMS = ("gold", "source", "system")

# ----------------------------------------------------------------------------------- languages
#: (source, correction, system) per language code: the sentences of the matrix. Every set has a
#: replacement (1), a deletion (2), an insertion (3), a word-order change (4) and an unchanged
#: sentence (5); the system fixes 1 and 3, misses 2 and makes a wrong change in 4 (some sets have
#: more). Languages written without spaces are given unsegmented (the tests segment them as each
#: form asks).
SENTENCES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "en": (
        ("She go to school every days .", "She goes to school every day .",
         "She goes to school every day ."),
        ("We discussed about the problem yesterday .", "We discussed the problem yesterday .",
         "We discussed about the problem yesterday ."),
        ("I want go home .", "I want to go home .", "I want to go home ."),
        ("Can you tell me where is the station ?", "Can you tell me where the station is ?",
         "Can you tell me where is a station ?"),
        ("The weather is nice today .", "The weather is nice today .",
         "The weather is nice today ."),
    ),
    "cs": (
        ("Bydlim v Praze uz dva roky .", "Bydlím v Praze už dva roky .",
         "Bydlím v Praze už dva roky ."),
        ("Včera jsem byl v v kině .", "Včera jsem byl v kině .", "Včera jsem byl v v kině ."),
        ("Mám rád kuchyni .", "Mám rád českou kuchyni .", "Mám rád českou kuchyni ."),
        ("Já rád mám kávu .", "Já mám rád kávu .", "Já rád mám kávy ."),
        ("To je dobrý nápad .", "To je dobrý nápad .", "To je dobrý nápad ."),
    ),
    "fr": (
        ("Elle a acheter une robe rouge .", "Elle a acheté une robe rouge .",
         "Elle a acheté une robe rouge ."),
        ("Je suis allé au au marché .", "Je suis allé au marché .",
         "Je suis allé au au marché ."),
        ("Nous avons mangé dans un restaurant italien",
         "Nous avons mangé dans un restaurant italien .",
         "Nous avons mangé dans un restaurant italien ."),
        ("Il a une rouge voiture .", "Il a une voiture rouge .", "Il a un rouge voiture ."),
        ("Il fait beau aujourd'hui .", "Il fait beau aujourd'hui .",
         "Il fait beau aujourd'hui ."),
    ),
    "ja": (
        ("私は学校を行きます。", "私は学校に行きます。", "私は学校に行きます。"),
        ("私は本をを読みました。", "私は本を読みました。", "私は本をを読みました。"),
        ("これはペンです", "これはペンです。", "これはペンです。"),
        ("私は毎日コーヒーを飲みます。", "毎日私はコーヒーを飲みます。",
         "私は毎日コーヒーが飲みます。"),
        ("今日はいい天気です。", "今日はいい天気です。", "今日はいい天気です。"),
        # samples/ja.*.txt: an inflection and an orthographic replacement
        ("昨日は雨が降ります。", "昨日は雨が降りました。", "昨日は雨が降りました。"),
        ("わたしは日本語が勉強しています。", "私は日本語を勉強しています。",
         "わたしは日本語が勉強しています。"),
    ),
    "zh": (
        ("他们很高心地去了公园。", "他们很高兴地去了公园。", "他们很高兴地去了公园。"),
        ("这本书是非常有意思。", "这本书非常有意思。", "这本书是非常有意思。"),
        ("虽然天气很冷，我们去爬山了。", "虽然天气很冷，但是我们去爬山了。",
         "虽然天气很冷，但是我们去爬山了。"),
        ("我昨天去了商店买东西。", "我昨天去商店买了东西。", "我昨天去了商店卖东西。"),
        ("今天天气很好。", "今天天气很好。", "今天天气很好。"),
    ),
    "uk": (
        ("Я живу у великому місти .", "Я живу у великому місті .",
         "Я живу у великому місті ."),
        ("Він він читає книгу .", "Він читає книгу .", "Він він читає книгу ."),
        ("Ми йдемо школи .", "Ми йдемо до школи .", "Ми йдемо до школи ."),
        ("Я книгу читаю .", "Я читаю книгу .", "Я книга читаю ."),
        ("Сьогодні гарна погода .", "Сьогодні гарна погода .", "Сьогодні гарна погода ."),
    ),
    "ru": (
        ("Я живу в большом городи .", "Я живу в большом городе .",
         "Я живу в большом городе ."),
        ("Он он читает книгу .", "Он читает книгу .", "Он он читает книгу ."),
        ("Мы идём школу .", "Мы идём в школу .", "Мы идём в школу ."),
        ("Я книгу читаю .", "Я читаю книгу .", "Я книга читаю ."),
        ("Сегодня хорошая погода .", "Сегодня хорошая погода .", "Сегодня хорошая погода ."),
    ),
    "et": (
        ("Ma elan suures linas .", "Ma elan suures linnas .", "Ma elan suures linnas ."),
        ("Ta ta loeb raamatut .", "Ta loeb raamatut .", "Ta ta loeb raamatut ."),
        ("Me läheme .", "Me läheme kooli .", "Me läheme kooli ."),
        ("Mina raamatut loen .", "Mina loen raamatut .", "Mina raamat loen ."),
        ("Täna on ilus ilm .", "Täna on ilus ilm .", "Täna on ilus ilm ."),
    ),
}


@dataclass(frozen=True)
class Lang:
    """One language of the matrix: a registry code with the options of one variant."""

    key: str
    code: str
    #: language options (``granularity``) and backend options (``udpipe_model``)
    options: tuple[tuple[str, str], ...] = ()
    #: written without spaces (its sentences are segmented by the parser)
    unspaced: bool = False
    #: what model it runs on, in words
    model: str = ""
    #: what ``errtype score`` needs beside ``--lang`` (the word level of Chinese: ``--unit token``)
    score_options: tuple[str, ...] = ()

    def opt(self, name: str) -> str | None:
        return dict(self.options).get(name)

    def cli(self) -> list[str]:
        """The language's options on an ``errtype-m2`` or ``errtype score`` command line
        (``--lang``, the language's and the backend's)."""
        out = ["--lang", self.code]
        for k, v in self.options:
            out += [f"--{k.replace('_', '-')}", v]
        return out

    def load_options(self) -> dict[str, Any]:
        return dict(self.options)


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def model_of(code: str) -> tuple[dict[str, str], str] | None:
    """The model a language runs on here, as ``(backend options, description)``, or None: a
    spaCy pipeline of its pack that is installed, MeCab + UniDic (the ``ja`` extra), Chinese's
    own segmenter, or the stand-in UDPipe model ``../shared/models/CODE.udpipe``."""
    from errtype.lang.packs import get_pack

    pack = get_pack(code)
    if pack is None:
        return None
    if pack.segmenter is not None:
        return ({}, f"{pack.segmenter} + character segmenter")
    if pack.parser == "unidic":
        ok = _installed("fugashi") and _installed("unidic_lite")
        return ({}, "MeCab + unidic-lite") if ok else None
    for name in pack.spacy:
        if _installed(name):
            return {}, f"spaCy {name}"
    stand_in = SHARED / "models" / f"{code}.udpipe"
    if pack.udpipe is not None and stand_in.is_file():
        return {"udpipe_model": str(stand_in)}, f"stand-in UDPipe {stand_in.name}"
    return None


def _variants(code: str) -> list[tuple[tuple[str, str], ...]]:
    """The option variants a language declares: every ``GRANULARITIES`` value of its module
    (Chinese: char and word), else just the default."""
    from errtype.lang import get_language

    module = sys.modules[type(get_language(code)).__module__]
    values = getattr(module, "GRANULARITIES", None)
    return [()] if not values else [(("granularity", v),) for v in values]


#: the scoring unit of each granularity (a word-level Chinese gold is scored in its words)
UNITS = {"char": "char", "word": "token"}


@cache
def languages() -> tuple[Lang, ...]:
    """Every registered language with a model here, one entry per option variant."""
    from errtype.lang import available, get_language

    out = []
    for code in available():
        found = model_of(code)
        if found is None:
            continue
        backend, what = found
        default = get_language(code)
        for variant in _variants(code):
            key = "".join([code, *(f"-{v}" for k, v in variant
                                   if getattr(default, k, None) != v)])
            unit = ("--unit", UNITS[dict(variant)["granularity"]]) if variant else ()
            out.append(Lang(key, code, (*variant, *backend.items()), not default.spaced, what,
                            unit))
    return tuple(out)


def uncovered_languages() -> dict[str, str]:
    """Registered languages outside the matrix, with why (no model here)."""
    from errtype.lang import available

    covered = {lang.code for lang in languages()}
    return {code: "no bundled or stand-in model here (errtype download " + code + ")"
            for code in available() if code not in covered}


# ----------------------------------------------------------------------------------- forms
@dataclass
class Inputs:
    """What one run of ``errtype score`` reads: the gold M2, the systems, and options."""

    gold: Path
    hyps: dict[str, Path]
    options: list[str] = field(default_factory=list)
    #: what ``--ref`` reads when it is not the gold M2 (essays: the Markdown references)
    ref: Path | None = None


@dataclass
class Form:
    """An input form: ``build(workspace)`` writes its inputs; ``applies(lang)`` whether the
    form exists for the language; ``same_as``: the form whose scores it must equal (None: the
    base of its family)."""

    build: Callable[[Workspace], Inputs]
    applies: Callable[[Lang], bool] = lambda lang: True
    same_as: str | None = "text"
    slow: bool = False


def _rewrite_deletions(m2: str, cor: str) -> str:
    """The M2 text with every deletion's correction written as ``cor`` (``-NONE-`` or empty)."""
    return re.sub(r"^(A \d+ \d+\|\|\|[^|]*\|\|\|)(?:-NONE-)?(\|\|\|)", rf"\g<1>{cor}\g<2>",
                  m2, flags=re.M)


def _standard(m2: str) -> str:
    """The M2 text without ChERRANT's ``T`` lines (standard M2)."""
    return "".join(line for line in m2.splitlines(keepends=True) if not line.startswith("T"))


def _annotator_lines(m2: str, k: int) -> str:
    """The M2 text with only annotator ``k``'s ``A`` and ChERRANT ``T`` lines, as annotator 0."""
    out = []
    for line in m2.splitlines():
        if line.startswith("A "):
            head, _, who = line.rpartition("|||")
            if int(who) != k:
                continue
            line = f"{head}|||0"
        elif line.startswith("T"):
            who, sep, rest = line[1:].partition("-") if "-" in line.split()[0] else \
                line[1:].partition(" ")
            if int(who) != k:
                continue
            line = f"T0{sep}{rest}"
        out.append(line)
    return "\n".join(out) + "\n"


def _form_text(ws: Workspace) -> Inputs:
    """Gold M2 as errtype-m2 writes it; systems as segmented text (the gold's tokens)."""
    return Inputs(ws.gold(), ws.texts(segmented=True))


def _form_none(ws: Workspace) -> Inputs:
    return Inputs(ws.write("gold-none.m2", _rewrite_deletions(ws.gold().read_text("utf-8"),
                                                              "-NONE-")),
                  ws.texts(segmented=True))


def _form_empty(ws: Workspace) -> Inputs:
    return Inputs(ws.write("gold-empty.m2", _rewrite_deletions(ws.gold().read_text("utf-8"),
                                                               "")),
                  ws.texts(segmented=True))


def _form_standard(ws: Workspace) -> Inputs:
    return Inputs(ws.write("gold-standard.m2", _standard(ws.gold().read_text("utf-8"))),
                  ws.texts(segmented=True))


def _form_unsegmented(ws: Workspace) -> Inputs:
    return Inputs(ws.gold(), ws.texts(segmented=False))


def _form_m2_hyp(ws: Workspace) -> Inputs:
    """The systems as M2: each one's edits extracted by errtype-m2 from the source."""
    return Inputs(ws.gold(), {name: ws.system_m2(name) for name in SYSTEMS})


def _form_unit_char(ws: Workspace) -> Inputs:
    return Inputs(ws.gold(), ws.texts(segmented=True), ["--unit", "char"])


def _form_unit_char_unsegmented(ws: Workspace) -> Inputs:
    return Inputs(ws.gold(), ws.texts(segmented=False), ["--unit", "char"])


def _form_essays(ws: Workspace) -> Inputs:
    """MultiGEC Markdown essays (errtype.score.essays): the sentences as two essays, one
    sentence a line, the systems' essays in the other order (matched by id)."""
    def md(system: str, order: int = 1) -> Path:
        rows = ws.plain[system]
        essays = [("a", rows[:2]), ("b", rows[2:])][::order]
        return ws.write(f"essays-{system}{order}.md", "".join(
            f"### essay_id = {i}\n" + "\n".join(t) + "\n\n" for i, t in essays))

    return Inputs(ws.gold(), {s: md(s, -1) for s in SYSTEMS}, ["--src", str(md("source"))],
                  ref=md("gold"))


def _form_jobs2(ws: Workspace) -> Inputs:
    return Inputs(ws.gold(jobs=2), ws.texts(segmented=True))


#: input form name -> how it is built. ``text`` is the base every other form must score alike.
FORMS: dict[str, Form] = {
    "text": Form(_form_text, same_as=None),
    "m2-none": Form(_form_none),
    "m2-empty": Form(_form_empty),
    # ChERRANT's dialect (T lines) is what errtype-m2 writes for Chinese; this is its standard M2
    "m2-standard": Form(_form_standard, lambda lang: lang.code == "zh"),
    "hyp-unsegmented": Form(_form_unsegmented, lambda lang: lang.unspaced),
    "hyp-m2": Form(_form_m2_hyp),
    # scored in characters: a unit of its own (no form to equal); Chinese has its own variant
    "unit-char": Form(_form_unit_char, lambda lang: lang.unspaced and
                      lang.opt("granularity") is None, same_as=None),
    "unit-char-unsegmented": Form(_form_unit_char_unsegmented, lambda lang: lang.unspaced and
                                  lang.opt("granularity") is None, same_as="unit-char"),
    "jobs-2": Form(_form_jobs2, slow=True),
    # realigned units and essays: scored on units of their own (no form to equal)
    "essays-md": Form(_form_essays, lambda lang: "--unit" not in lang.score_options,
                      same_as=None),
    # (essays are scored in tokens: not where the language variant scores characters)
}


# ----------------------------------------------------------------------------------- workspace
def _segment(lang: Lang, ann: Any, text: str) -> str:
    """``text`` as the language's tokens joined by spaces (spaced languages: as written)."""
    if not lang.unspaced:
        return text
    return " ".join(ann.parse(text, tokenize=True).texts)


class Workspace:
    """The files of one language: sentences, gold and systems, written once (cached)."""

    def __init__(self, lang: Lang, root: Path, annotator: Callable[[], Any]) -> None:
        self.lang = lang
        self.dir = root / lang.key
        self.dir.mkdir(parents=True, exist_ok=True)
        self.annotator = annotator
        self._files: dict[str, Path] = {}
        rows = SENTENCES[lang.code]
        self.plain = {"source": [r[0] for r in rows], "gold": [r[1] for r in rows],
                      "system": [r[2] for r in rows]}

    def write(self, name: str, text: str) -> Path:
        path = self.dir / name
        path.write_text(text, encoding="utf-8")
        return path

    def _once(self, name: str, make: Callable[[], Path]) -> Path:
        if name not in self._files:
            self._files[name] = make()
        return self._files[name]

    def raw(self, system: str) -> Path:
        """A system's sentences as written in :data:`SENTENCES` (unsegmented for unspaced
        languages)."""
        return self._once(f"raw-{system}", lambda: self.write(
            f"{system}.raw.txt", "".join(s + "\n" for s in self.plain[system])))

    def m2(self, cors: Sequence[str], out: str, jobs: int = 1) -> Path:
        """``errtype-m2 -orig SOURCE -cor COR... -o OUT`` (with the language's options)."""
        from errtype.cli.m2 import main as m2_main

        def make() -> Path:
            path = self.dir / out
            argv = ["-orig", str(self.raw("source")), "-cor", *(str(self.raw(c)) for c in cors),
                    "-o", str(path), "-q", "-j", str(jobs), *self.lang.cli()]
            code = m2_main(argv)
            if code != 0:
                raise ErrtypeError(f"errtype-m2 {' '.join(argv)} exited {code}")
            return path

        return self._once(out, make)

    def gold(self, jobs: int = 1) -> Path:
        """The gold M2: errtype-m2 with the corrections as its one annotator (``jobs`` 1: the
        gold's lines of :meth:`all_m2`, the same run)."""
        if jobs != 1:
            return self.m2(["gold"], f"gold-j{jobs}.m2", jobs)
        return self.system_m2("gold")

    def all_m2(self) -> Path:
        """One errtype-m2 run for every system: annotator k = system k of :data:`SYSTEMS`."""
        return self.m2(SYSTEMS, "systems.m2")

    def system_m2(self, system: str) -> Path:
        """The system's edits as M2: annotator k's lines of :meth:`all_m2` as annotator 0."""
        k = SYSTEMS.index(system)
        return self._once(f"m2-{system}", lambda: self.write(
            f"{system}.m2", _annotator_lines(self.all_m2().read_text("utf-8"), k)))

    def texts(self, segmented: bool) -> dict[str, Path]:
        """Every system as text: segmented as the gold's tokens, or as written."""
        if not segmented or not self.lang.unspaced:
            return {s: self.raw(s) for s in SYSTEMS}

        def make(system: str) -> Callable[[], Path]:
            ann = self.annotator()
            return lambda: self.write(f"{system}.seg.txt", "".join(
                _segment(self.lang, ann, s) + "\n" for s in self.plain[system]))

        return {s: self._once(f"seg-{s}", make(s)) for s in SYSTEMS}


# ----------------------------------------------------------------------------------- scoring
@dataclass
class Outcome:
    """A metric's result on one language and form: the corpus scores per system, or the
    refusal (its one-line message, and whether any work had been done before it)."""

    corpus: dict[str, dict[str, float]] = field(default_factory=dict)
    main: dict[str, float] = field(default_factory=dict)
    refused: str | None = None
    worked_before_refusal: bool = False


def score_argv(lang: Lang, inputs: Inputs, metrics: Sequence[str]) -> list[str]:
    """The ``errtype score`` command line of one run."""
    return ["-m", *metrics, "--ref", str(inputs.ref or inputs.gold),
            "--hyp", *(f"{n}={p}" for n, p in inputs.hyps.items()),
            *lang.cli(), *lang.score_options, *inputs.options]


def _suite(args: Any, built: Sequence[tuple[str, Any]], annotator: Callable[[], Any]) -> Any:
    from errtype.score.registry import describe
    from errtype.score.suite import load_suite, parse_system_arg

    return load_suite([parse_system_arg(h) for h in args.hyp], args.ref, args.src,
                      lang=args.lang, annotator=annotator, unit=args.unit,
                      same_source=any(describe(m).same_source for _, m in built))


def score_api(lang: Lang, inputs: Inputs, metrics: Sequence[str],
              annotator: Callable[[], Any]) -> dict[str, Outcome]:
    """Every metric over one language's inputs through the library, as ``errtype score`` runs
    them: settings from its options, one suite read and checked, then scored metric by metric
    (the suite's extracted edits shared). A refusal is an :class:`~errtype.errors.ErrtypeError`;
    a metric refused while scoring is run again alone, with a fresh suite, to tell whether the
    annotator had been asked for (edits extracted) before the refusal."""
    from errtype.cli.score import build_parser, metric_settings
    from errtype.score.registry import get_metric
    from errtype.score.suite import score_systems

    out: dict[str, Outcome] = {}
    built = []
    for name in metrics:
        args = build_parser().parse_args(score_argv(lang, inputs, [name]))
        try:
            settings = metric_settings([name], args)[name]
            built.append((name, get_metric(name, **settings)))
        except (TypeError, ValueError) as exc:  # as errtype score's _build
            out[name] = Outcome(refused=f"metric {name}: {exc}")
        except ErrtypeError as exc:
            out[name] = Outcome(refused=str(exc))
    try:
        suite = _suite(args, built, annotator)
    except ErrtypeError as exc:
        return {**out, **{n: Outcome(refused=str(exc)) for n, _ in built}}
    for name, metric in built:
        try:
            rows = score_systems([(name, metric)], suite)
        except ErrtypeError:
            out[name] = _alone(lang, inputs, name, annotator)
            continue
        result = out[name] = Outcome()
        for r in rows:
            result.corpus[r.system] = dict(r.result.corpus)
            result.main[r.system] = r.value
    return out


def _alone(lang: Lang, inputs: Inputs, name: str, annotator: Callable[[], Any]) -> Outcome:
    """One metric scored with a suite of its own, the annotator watched."""
    from errtype.cli.score import build_parser, metric_settings
    from errtype.score.registry import get_metric
    from errtype.score.suite import check_ready, score_systems

    used: list[bool] = []

    def spy() -> Any:
        used.append(True)
        return annotator()

    args = build_parser().parse_args(score_argv(lang, inputs, [name]))
    metric = get_metric(name, **metric_settings([name], args)[name])
    try:
        check_ready([(name, metric)])  # as errtype score does before it reads the inputs
        score_systems([(name, metric)], _suite(args, [(name, metric)], spy))
    except ErrtypeError as exc:
        return Outcome(refused=str(exc), worked_before_refusal=bool(used))
    raise AssertionError(f"{name} was refused with the other metrics but scored alone")


def env_without_keys() -> dict[str, str]:
    """The environment with no LLM API key (the matrix never calls a remote API)."""
    return {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
