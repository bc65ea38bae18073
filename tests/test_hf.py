"""errtype.convert.hf.EditColumns with Hugging Face datasets: Dataset.map(batched=True,
num_proc=2) on a real corpus gives errtype-m2's edits, the models load once per process, BLAS
keeps one thread."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli import m2 as cli_m2
from errtype.convert import hf, m2_to_text
from errtype.m2 import read_m2

from .conftest import peer, shared_path

N = 120  # CoNLL-2014 sentences


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    tmp = tmp_path_factory.mktemp("hf")
    m2_to_text(shared_path("conll14", "official-2014.combined.m2"), tmp / "full")
    paths = []
    for name in ("orig", "cor.0", "cor.1"):
        lines = (tmp / f"full.{name}").read_text(encoding="utf-8").split("\n")[:N]
        (tmp / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(tmp / name)
    return paths[0], paths[1], paths[2]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _m2_edits(m2: Path) -> list[list[tuple]]:
    """Per block: (annotator, start, end, orig, cor, type) of every edit line, as errtype-m2
    wrote them."""
    out = []
    for block in read_m2(m2):
        tokens = block.tokens
        out.append([(e.annotator, -1 if e.is_noop else e.start, -1 if e.is_noop else e.end,
                     "" if e.is_noop else " ".join(tokens[e.start:e.end]), e.cor, e.type)
                    for e in block.edits])
    return out


def _columns(ds: object, prefix: str = "edits_") -> list[list[tuple]]:
    cols = [ds[prefix + f] for f in hf.FIELDS]  # type: ignore[index]
    return [list(zip(*per, strict=True)) for per in zip(*cols, strict=True)]


def test_dataset_map_num_proc_2_equals_errtype_m2(corpus: tuple[Path, Path, Path],
                                                  tmp_path: Path) -> None:
    datasets = peer("datasets")
    orig, cor0, cor1 = corpus
    m2 = tmp_path / "ref.m2"
    assert cli_m2.main(["-orig", str(orig), "-cor", str(cor0), str(cor1), "-o", str(m2),
                        "-q"]) == 0
    expected = _m2_edits(m2)
    ds = datasets.Dataset.from_dict({
        "src": _lines(orig), "refs": [list(r) for r in zip(_lines(cor0), _lines(cor1),
                                                            strict=True)]})
    fn = hf.EditColumns("en", source="src", target="refs")
    mapped = ds.map(fn, batched=True, batch_size=32, num_proc=2,
                    cache_file_name=str(tmp_path / "cache.arrow"))
    assert mapped.num_rows == N
    assert set(fn.columns) <= set(mapped.column_names)
    assert _columns(mapped) == expected
    assert mapped["edits_skipped"] == [None] * N
    features = mapped.features
    assert features["edits_start"].feature.dtype == "int64"
    assert features["edits_type"].feature.dtype == "string"
    # one target column of strings: annotator 0 only, the same edits as that annotator's
    single = ds.map(lambda b: {"ref0": [r[0] for r in b["refs"]]}, batched=True).map(
        hf.EditColumns("en", source="src", target="ref0", prefix="e_"), batched=True)
    assert _columns(single, "e_") == [[e for e in block if e[0] == 0] for block in expected]


def test_models_load_once_per_process_and_blas_keeps_one_thread(
        corpus: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import errtype

    loads = []
    real = errtype.load
    monkeypatch.setattr(errtype, "load", lambda *a, **k: loads.append(a) or real(*a, **k))
    monkeypatch.setattr(hf, "_ANNOTATORS", {})
    orig, cor0, _ = corpus
    fn = hf.EditColumns("en", source="s", target="t")
    batch = {"s": _lines(orig)[:10], "t": _lines(cor0)[:10]}
    first, second = fn(batch), fn(batch)
    assert first == second and len(loads) == 1
    assert fn.annotator().parser.blas.threads == 1
    # the function pickles without its models (datasets fingerprints and ships it)
    import pickle

    assert len(pickle.dumps(fn)) < 1000


def test_missing_column_is_named() -> None:
    with pytest.raises(KeyError, match="no column 'source'"):
        hf.EditColumns("en")({"src": ["a"], "target": ["b"]})
