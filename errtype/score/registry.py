"""The metric protocol and registry: every scorer as an object with a name, settings, a signature
and ``score(data) -> ScoreResult`` whose sentences carry per-sentence statistics.

A metric registers itself where it is defined (``@register("maxmatch")``). The registry finds the
built-in metrics by importing every module of the family packages (``edits``, ``ngram``, ``lm``,
``meta``) on the first lookup, and third-party ones through the entry point group
``errtype.metrics`` (name = metric name, value = a factory, or a module that registers on import).
Importing this module imports no metric.

A metric that needs an optional extra says so (``extra = "lm"``, a class attribute of its factory;
:data:`EXTRAS`): :func:`get_metric` refuses it when the extra's packages are missing, before any
input is read, so a run never does work it cannot finish.

A count-based metric (``errant``, ``maxmatch``, ...) gives every sentence ``tp``/``fp``/``fn``, so
bootstraps, significance tests and meta-evaluation need no per-metric conversion.

    >>> m = get_metric("maxmatch", beta=0.5)
    >>> m.score(ScoreInput(gold_blocks, hypotheses)).corpus   # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..errors import InputError, LineCountError, ResourceError
from ..m2 import M2Block
from .common import ScoreResult, signature

__all__ = ["ALIASES", "EXTRAS", "FAMILIES", "Metric", "MetricInfo", "ScoreInput",
           "available_metrics", "describe", "factory_of", "get_metric", "metric_signature",
           "missing_extra", "register"]

#: the packages under errtype.score whose modules define metrics
FAMILIES = ("edits", "ngram", "lm", "meta")
ENTRY_POINT_GROUP = "errtype.metrics"
#: the optional extras a metric can need (its ``extra``): extra -> the packages it installs
EXTRAS = {"lm": ("torch", "transformers"), "meta": ("sacrebleu",)}

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class ScoreInput:
    """What a metric scores: one system's hypotheses against the gold, sentence by sentence.

    ``gold`` are the gold M2 blocks (empty for a reference-free run: then ``sources`` are
    required). ``hyp_blocks`` are the hypothesis' own edits (edit-based metrics extract them with
    their language's annotator when absent). ``sources`` default to the blocks' sentences.
    ``references`` are reference texts (``references[k][i]``) when the gold came from them; text
    metrics use them instead of applying the gold edits. ``shared`` holds what metrics of one
    family compute for this system and can share (extracted edits, MaxMatch's edit paths), keyed
    by what determines it.
    """

    gold: Sequence[M2Block]
    hypotheses: Sequence[str]
    hyp_blocks: Sequence[M2Block] | None = None
    sources: Sequence[str] | None = None
    name: str = "<hyp>"
    references: Sequence[Sequence[str]] | None = None
    shared: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.sources is None:
            if not self.gold and self.hypotheses:
                raise InputError(f"{self.name}: no gold and no sources to score against")
            self.sources = [b.source for b in self.gold]
        n = len(self.gold) if self.gold else len(self.sources)
        if len(self.hypotheses) != n:
            what = "gold" if self.gold else "source"
            raise LineCountError(f"{self.name}: {len(self.hypotheses)} hypotheses for {n} "
                                 f"{what} sentences")
        if len(self.sources) != n:
            raise LineCountError(f"{self.name}: {len(self.sources)} sources for {n} gold "
                                 f"sentences")
        if self.hyp_blocks is not None and len(self.hyp_blocks) != n:
            raise LineCountError(f"{self.name}: {len(self.hyp_blocks)} hypothesis M2 blocks "
                                 f"for {n} sentences")
        for k, ref in enumerate(self.references or ()):
            if len(ref) != n:
                raise LineCountError(f"reference {k + 1} has {len(ref)} sentences for {n}")


@runtime_checkable
class Metric(Protocol):
    """A configured metric.

    Optional members, read with :func:`describe`: ``main`` (the key of
    :attr:`ScoreResult.corpus` that is the metric's headline number; default the first key),
    ``scale`` (100 for a proportion printed as a percentage, the default; 1 for a count),
    ``uses`` (what of :class:`ScoreInput` it reads: ``"gold"`` blocks, ``"hyp_edits"``,
    ``"references"``; default ``("gold",)``; empty for a reference-free metric; ``"dialect"``:
    the M2 blocks as read, ChERRANT's ``T`` lines and every edit sequence kept, instead of
    standard M2), ``same_source`` (False for a metric that pairs hypothesis and gold blocks by
    position whatever their sources, as ChERRANT does: a suite then notes a differing source
    instead of refusing it; default True), ``columns`` (the columns of ``errtype score --tsv``
    when every metric asked for has the same; default the generic ``score p r f signature``)
    and ``prepare(systems)``, which a metric whose definition depends on the set of systems
    scored together (GoToScorer's difficulty weights) has;
    :func:`errtype.score.suite.score_systems` calls it before scoring.
    """

    name: str

    def settings(self) -> dict[str, Any]: ...

    def score(self, data: ScoreInput) -> ScoreResult: ...


@dataclass(frozen=True)
class MetricInfo:
    """What a scoring run needs to know of a metric beyond the protocol."""

    main: str | None
    scale: float
    uses: tuple[str, ...]
    needs_systems: bool
    same_source: bool = True
    columns: tuple[str, ...] | None = None
    #: the optional extra it needs (:data:`EXTRAS`), or None
    extra: str | None = None


def describe(metric: Metric) -> MetricInfo:
    """The optional members of a metric, with their defaults."""
    columns = getattr(metric, "columns", None)
    return MetricInfo(getattr(metric, "main", None), getattr(metric, "scale", 100),
                      tuple(getattr(metric, "uses", ("gold",))), hasattr(metric, "prepare"),
                      bool(getattr(metric, "same_source", True)),
                      tuple(columns) if columns else None, getattr(metric, "extra", None))


def missing_extra(extra: str | None) -> list[str]:
    """The packages of ``extra`` (:data:`EXTRAS`) that cannot be imported (none are imported)."""
    missing = []
    for name in EXTRAS.get(extra or "", ()):
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def metric_signature(metric: Metric) -> str:
    """The metric's reproducibility string (as printed by its command)."""
    return signature(metric.name, metric.settings())


#: metric name -> factory taking the metric's settings as keyword arguments
_FACTORIES: dict[str, Callable[..., Metric]] = {}
#: other names of built-in metrics (the names papers use)
ALIASES = {"m2": "maxmatch", "gotoscorer": "goto"}
_discovered = False


def register(name: str, factory: F | None = None) -> Any:
    """Make ``get_metric(name, **settings)`` build ``factory(**settings)``.

    Call it (``register("bleu", Bleu)``) or use it as a class decorator (``@register("bleu")``).
    A later registration of the same name replaces the earlier one.
    """
    if factory is None:
        def decorate(f: F) -> F:
            _FACTORIES[name] = f
            return f

        return decorate
    _FACTORIES[name] = factory
    return factory


def _discover() -> None:
    """Import every module of the family packages, then the installed plug-ins (once)."""
    global _discovered
    if _discovered:
        return
    for family in FAMILIES:
        pkg = importlib.import_module(f"{__package__}.{family}")
        for mod in pkgutil.iter_modules(pkg.__path__):
            importlib.import_module(f"{pkg.__name__}.{mod.name}")
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _FACTORIES:
            continue  # built-in and explicitly registered metrics win
        obj = ep.load()
        if not isinstance(obj, ModuleType):
            register(ep.name, obj)
    _discovered = True


def available_metrics() -> list[str]:
    """Names of every known metric (built-in, registered and installed plug-ins), sorted."""
    _discover()
    return sorted(_FACTORIES)


def factory_of(name: str) -> Callable[..., Metric]:
    """The registered factory of the metric ``name`` (or an alias of one); InputError if none."""
    _discover()
    try:
        return _FACTORIES[ALIASES.get(name, name) if name not in _FACTORIES else name]
    except KeyError:
        raise InputError(f"unknown metric {name!r} (choose from "
                         f"{', '.join(sorted(_FACTORIES))})") from None


def get_metric(name: str, **settings: Any) -> Metric:
    """A configured metric from the registry (``errant``, ``maxmatch``, ``gleu``, ...). A metric
    whose extra is not installed is refused (ResourceError naming the ``pip install``), and the
    settings are checked against the options the metric declares
    (:func:`errtype.score.options.check_settings`: InputError names a bad one), before any work."""
    from .options import check_settings

    factory = factory_of(name)
    extra = getattr(factory, "extra", None)
    missing = missing_extra(extra)
    if missing:
        raise ResourceError(f"metric {name} needs {' and '.join(missing)} "
                            f"(pip install 'errtype[{extra}]')")
    return factory(**check_settings(name, factory, settings))
