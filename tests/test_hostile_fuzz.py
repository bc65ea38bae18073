"""The reader fuzzer of bench/fuzz_readers.py with a small budget: no crash but typed errors."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "fuzz_readers.py"


def test_readers_survive_fuzzing() -> None:
    spec = importlib.util.spec_from_file_location("fuzz_readers", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tallies = module.fuzz(m2_budget=400, parallel_budget=200)
    for name, tally in tallies.items():
        assert tally.crashes == [], f"{name}: {tally.crashes[0]}"
        assert tally.ok > 0 and sum(tally.errors.values()) > 0, name
    assert tallies["m2"].tried == 400 and tallies["parallel"].tried == 200
