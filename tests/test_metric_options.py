"""Metric options are declared (type and allowed values) and checked before any work (issue 33,
hostile input 6): ``-O METRIC.KEY=VALUE``, ``--beta`` and ``get_metric`` refuse a bad value in
one line naming the option, the value and what is allowed."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest

from errtype.cli.report import main as report_main
from errtype.cli.score import main as score_main
from errtype.errors import InputError
from errtype.score.options import check_settings, declared_options, parse_value, supported
from errtype.score.registry import _FACTORIES, available_metrics, factory_of, get_metric


def _numeric(tp: typing.Any) -> bool:
    return tp in (int, float) or any(a in (int, float) for a in typing.get_args(tp))


@pytest.mark.parametrize("name", available_metrics())
def test_every_metric_declares_its_options(name: str) -> None:
    """Walks the registry: a new metric joins. Each has a declaration (a dataclass, or a factory
    whose return annotation names one); every option has a type the check understands, every
    number a declared range, every default passes its own declaration, and nothing built from
    the defaults differs from the metric built with no settings."""
    factory = _FACTORIES[name]
    specs = declared_options(factory)
    assert specs is not None, f"{name}: its options are not declared (make it a dataclass, or " \
                              "annotate its factory's return type)"
    assert specs, name
    for spec in specs.values():
        assert supported(spec.type), f"{name}.{spec.name}: type {spec.type} cannot be checked"
        if _numeric(spec.type):
            assert spec.allowed is not None, \
                f"{name}.{spec.name}: a number option needs option(..., ge/gt/le=) (or option()" \
                " for any finite number)"
    defaults = {k: s.default for k, s in specs.items() if s.default is not None}
    assert check_settings(name, factory, defaults).keys() == defaults.keys()


BAD = [
    ("llm-s", "retries=-3", "-O llm-s.retries=-3: option 'retries' of metric llm-s must be an "
                            "integer >= 0"),
    ("llm-s", "retries=many", "must be an integer >= 0"),
    ("llm-s", "timeout=0", "must be a finite number > 0"),
    ("llm-s", "temperature=3", "must be none or a finite number >= 0 and <= 2"),
    ("green", "beta=-2", "-O green.beta=-2: option 'beta' of metric green must be a finite "
                         "number >= 0"),
    ("green", "beta=nan", "must be a finite number >= 0"),
    ("green", "unit=byte", "-O green.unit=byte: option 'unit' of metric green must be one of "
                           "word, char"),
    ("gleu", "iterations=1.5", "must be an integer >= 1"),
    ("gleu", "order=0", "must be an integer >= 1"),
    ("gleu", "sentence_level=maybe", "must be true or false"),
    ("errant", "mode=xx", "must be one of dt, ds, cs, cse"),
    ("errant", "cat=4", "must be none or one of 1, 2, 3"),
    ("maxmatch", "max_unchanged_words=-1", "must be an integer >= 0"),
    ("goto", "a=inf", "must be a finite number"),
    ("cleme2", "factors=1,2", "must be none or 4 numbers"),
    ("gleu", "iteratoins=3", "-O gleu.iteratoins=3: metric gleu has no option 'iteratoins' "
                             "(its options: order, iterations, draw, tokenize, sentence_level, "
                             "missing, unit, name)"),
    ("green", "_green=1", "metric green has no option '_green'"),
]


@pytest.fixture
def gold(tmp_path: Path) -> tuple[Path, Path]:
    m2 = tmp_path / "g.m2"
    m2.write_text("S This is a test .\nA 0 1|||R:DET|||That|||REQUIRED|||-NONE-|||0\n\n",
                  encoding="utf-8")
    hyp = tmp_path / "h.txt"
    hyp.write_text("That is a test .\n", encoding="utf-8")
    return m2, hyp


@pytest.mark.parametrize(("metric", "setting", "message"), BAD)
def test_bad_option_values_are_refused_before_any_work(
        gold: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch:
        pytest.MonkeyPatch, metric: str, setting: str, message: str) -> None:
    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the files were read before the options were checked")

    monkeypatch.setattr("errtype.score.suite.load_suite", no_work)
    m2, hyp = gold
    assert score_main(["-m", metric, "--ref", str(m2), "--hyp", f"A={hyp}", "-O",
                       f"{metric}.{setting}"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and message in err, err


def test_beta_flags_are_checked(gold: tuple[Path, Path], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    m2, hyp = gold
    assert score_main(["-m", "errant", "m2", "--ref", str(m2), "--hyp", f"A={hyp}", "--beta",
                       "-2"]) == 2
    assert capsys.readouterr().err.strip() == (
        "errtype score: error: --beta -2: option 'beta' of metric errant must be a finite number"
        " >= 0")
    out = tmp_path / "r.html"
    for beta in ("-2", "nan"):
        assert report_main(["--ref", str(m2), "--hyp", f"A={hyp}", "-o", str(out),
                            f"--beta={beta}"]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and f"--beta {beta}: option 'beta'" in err, err
    assert not out.exists()


def test_good_values_are_read_as_their_type(gold: tuple[Path, Path],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    specs = declared_options(factory_of("errant"))
    assert specs is not None
    assert parse_value(specs["single"], "true") is True
    assert parse_value(specs["single"], "False") is False
    assert parse_value(specs["filt"], "R:NOUN,M:DET") == ["R:NOUN", "M:DET"]
    assert parse_value(specs["cat"], "none") is None and parse_value(specs["cat"], "2") == 2
    assert parse_value(specs["mode"], "'cse'") == "cse" and parse_value(specs["name"], "12") == "12"
    m2, hyp = gold
    assert score_main(["-m", "errant", "--ref", str(m2), "--hyp", f"A={hyp}", "-O",
                       "errant.single=true", "-O", "errant.filt=R:NOUN,M:DET"]) == 0
    assert "single:yes" in capsys.readouterr().out


def test_the_library_checks_too() -> None:
    with pytest.raises(InputError, match=r"llm-s\.retries=-3: option 'retries' of metric llm-s "
                                         r"must be an integer >= 0"):
        get_metric("llm-s", retries=-3)
    with pytest.raises(InputError, match="metric maxmatch has no option 'bta'"):
        get_metric("maxmatch", bta=1)
    assert get_metric("maxmatch", beta=1).beta == 1.0  # an int where a float is declared
    assert get_metric("errant", filt=["R:NOUN"]).filt == ("R:NOUN",)


def test_a_plug_in_without_a_declaration_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    @dataclasses.dataclass
    class Declared:
        k: int = 1

    def undeclared(**settings: object) -> object:
        return settings

    monkeypatch.setitem(_FACTORIES, "x-undeclared", undeclared)
    assert get_metric("x-undeclared", anything=3) == {"anything": 3}
    assert declared_options(undeclared) is None and declared_options(Declared) is not None
