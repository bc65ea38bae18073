"""The report's edit attribution (``--attribution METRIC[:METHOD]``): per error type, the sum
and the mean over the hypothesis edits of their contributions to a sentence-level metric
(:mod:`errtype.score.attribution`), shown in the per-type tables beside ERRANT's P/R/F."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from ..score.attribution import MAX_EXACT, METHODS, SAMPLES, attribute_corpus, per_type

__all__ = ["attribution_label", "parse_attribution", "report_attribution"]


def parse_attribution(spec: str) -> tuple[str, str]:
    """``METRIC[:METHOD]`` -> (metric, method); the method defaults to ``shapley``."""
    from ..score.registry import ALIASES, available_metrics

    name, _, method = spec.partition(":")
    method = method or "shapley"
    if method not in METHODS:
        raise InputError(f"--attribution {spec}: unknown method {method!r} (choose from "
                         f"{', '.join(METHODS)})")
    canon = ALIASES.get(name, name)
    if canon not in available_metrics():
        raise InputError(f"--attribution {spec}: unknown metric {name!r} (errtype score --list)")
    return name, method


def attribution_label(spec: str) -> str:
    """The column label of a spec: ``green:shapley``."""
    name, method = parse_attribution(spec)
    return f"{name}:{method}"


def report_attribution(inp: Any, specs: Sequence[str], seed: int, beta: float
                       ) -> tuple[dict[str, dict[str, dict[str, dict[str, float]]]],
                                  dict[str, str]]:
    """``{system: {label: {type: {"n", "sum", "mean"}}}}`` over the input's sentences, and the
    signature of every attribution (keyed ``attribution LABEL``)."""
    from ..score.common import with_setting
    from ..score.registry import ScoreInput, get_metric, metric_signature

    out: dict[str, dict[str, dict[str, dict[str, float]]]] = {s.name: {} for s in inp.systems}
    sigs = {}
    for spec in specs:
        name, method = parse_attribution(spec)
        label = f"{name}:{method}"
        metric = get_metric(name)
        for s in inp.systems:
            data = ScoreInput(inp.gold, s.hypotheses, sources=inp.sources, name=s.name)
            sents = attribute_corpus(metric, data, s.blocks, method=method, seed=seed,
                                     beta=beta)
            out[s.name][label] = per_type(sents)
        sig = with_setting(metric_signature(metric), "attribution", method)
        if method == "shapley":
            for key, value in (("max_exact", MAX_EXACT), ("samples", SAMPLES), ("seed", seed)):
                sig = with_setting(sig, key, value)
        sigs[f"attribution {label}"] = sig
    return out, sigs
