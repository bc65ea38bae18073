"""Fuzz the M2 reader and the parallel-text reader (issue 6) with hypothesis.

Inputs are raw bytes: either arbitrary, or valid M2 / text files mutated by random edits that
favour the bytes that matter (``|||``, ``\\r``, ``\\n``, BOM, invalid UTF-8, ``S ``/``A ``, digits,
minus signs). The only exceptions allowed are errtype's typed input errors (M2FormatError,
EncodingError, LineCountError); anything else is a crash. Whatever reads without an error must
also survive write -> read -> write unchanged (M2) or match an independent decoding (text).

    python bench/fuzz_readers.py [--m2 N] [--parallel N] [--seed S]

prints the number of inputs tried per target, the typed errors seen and the crashes (exit 1 if
any). The test suite runs the same targets with a small budget (tests/test_hostile_fuzz.py).
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from errtype import EncodingError, InputError, LineCountError, M2FormatError  # noqa: E402
from errtype.errors import LineEndError  # noqa: E402
from errtype.m2 import read_m2  # noqa: E402
from errtype.textio import count_lines, read_parallel  # noqa: E402

SEEDS_M2 = [
    b"S This are a sentences .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n"
    b"A 3 4|||R:NOUN:NUM|||sentence|||REQUIRED|||-NONE-|||0\n"
    b"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\nS Fine .\n"
    b"A 2 2|||M:PUNCT|||!|||REQUIRED|||-NONE-|||0\n\n",
    b"\xef\xbb\xbfS a | b\r\nA 1 2|||U:PUNCT||||||REQUIRED|||-NONE-|||0\r\n\r\n\r\nS \r\n",
    b"S caf\xc3\xa9 \xf0\x9f\x98\x80\nA 0 0|||M:X|||\xe2\x80\x8b|||REQUIRED|||-NONE-|||3",
]
SEEDS_TEXT = [b"a b\nc\n", b"\xef\xbb\xbfx\r\ny \r\n", b"\n\n", b"no newline", b""]
TOKENS = [b"|||", b"|", b"\r", b"\n", b"\n\n", b"\r\n", b"\xef\xbb\xbf", b"\xff", b"\xc3",
          b"\xed\xa0\x80", b"S ", b"A ", b"-1", b"0", b"9", b" ", b"\t", b"\x00", b"\xe2\x80\xa8",
          b"noop", b"-NONE-"]

ALLOWED = (M2FormatError, EncodingError, LineCountError, LineEndError)


def _mutated(seeds: list[bytes]) -> st.SearchStrategy[bytes]:
    """A seed with 0..8 random insertions, deletions or overwrites."""
    edit = st.tuples(st.sampled_from("ido"), st.floats(0, 1), st.one_of(
        st.sampled_from(TOKENS), st.binary(min_size=1, max_size=4)))

    def apply(args: tuple[bytes, list[tuple[str, float, bytes]]]) -> bytes:
        data, edits = args
        for kind, where, piece in edits:
            k = int(where * len(data))
            if kind == "i":
                data = data[:k] + piece + data[k:]
            elif kind == "d":
                data = data[:k] + data[k + len(piece):]
            else:
                data = data[:k] + piece + data[k + len(piece):]
        return data

    return st.tuples(st.sampled_from(seeds), st.lists(edit, max_size=8)).map(apply)


def _inputs(seeds: list[bytes]) -> st.SearchStrategy[bytes]:
    return st.one_of(_mutated(seeds), _mutated(seeds), st.binary(max_size=64),
                     st.lists(st.sampled_from(TOKENS + [b"x", b"1 2"]), max_size=20).map(b"".join))


class Tally:
    """Counts inputs, typed errors and crashes (with the first few crash reports)."""

    def __init__(self) -> None:
        self.tried = 0
        self.ok = 0
        self.errors: collections.Counter[str] = collections.Counter()
        self.crashes: list[str] = []

    def run(self, fn: Callable[[], None]) -> None:
        self.tried += 1
        try:
            fn()
        except ALLOWED as exc:
            self.errors[type(exc).__name__] += 1
            if exc.line is None and not isinstance(exc, LineCountError):
                self.crashes.append(f"typed error without a line number: {exc}")
        except Exception:  # noqa: BLE001 - this is what we are looking for
            self.crashes.append(traceback.format_exc())
        else:
            self.ok += 1


def check_m2(data: bytes, folder: Path) -> None:
    """Read M2 bytes; if they read, write -> read -> write must be stable."""
    path = folder / "in.m2"
    path.write_bytes(data)
    blocks = list(read_m2(path))
    text = "".join(b.to_m2() for b in blocks)
    again = list(read_m2([text]))
    assert "".join(b.to_m2() for b in again) == text, "M2 write -> read -> write changed"
    assert len(again) == len(blocks)
    replaced = list(read_m2(path, errors="replace"))
    assert len(replaced) == len(blocks)


def check_parallel(files: list[bytes], folder: Path) -> None:
    """Read parallel byte files; results must match an independent decoding."""
    paths = []
    for i, data in enumerate(files):
        p = folder / f"f{i}.txt"
        p.write_bytes(data)
        paths.append(p)
    rows = list(read_parallel(paths))
    for i, data in enumerate(files):
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        lines = data.decode("utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        expected = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
        assert [r[1][i] for r in rows] == expected, "parallel reader disagrees"
        assert count_lines(paths[i]) == len(expected)
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))


def fuzz(m2_budget: int, parallel_budget: int, seed: int | None = None) -> dict[str, Tally]:
    """Run both targets; returns a Tally per target."""
    tallies = {"m2": Tally(), "parallel": Tally()}
    common = dict(deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), derandomize=seed is None)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        @settings(max_examples=max(m2_budget, 1), **common)
        @given(_inputs(SEEDS_M2))
        def m2_target(data: bytes) -> None:
            tallies["m2"].run(lambda: check_m2(data, folder))

        @settings(max_examples=max(parallel_budget, 1), **common)
        @given(st.lists(_inputs(SEEDS_TEXT), min_size=1, max_size=3))
        def parallel_target(files: list[bytes]) -> None:
            tallies["parallel"].run(lambda: check_parallel(files, folder))

        if seed is not None:
            from hypothesis import seed as hypothesis_seed

            m2_target = hypothesis_seed(seed)(m2_target)
            parallel_target = hypothesis_seed(seed)(parallel_target)
        if m2_budget:
            m2_target()
        if parallel_budget:
            parallel_target()
    return tallies


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--m2", type=int, default=100_000, help="M2 reader inputs (default 100000)")
    p.add_argument("--parallel", type=int, default=50_000,
                   help="parallel reader inputs (default 50000)")
    p.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: fixed)")
    args = p.parse_args(argv)
    start = time.perf_counter()
    tallies = fuzz(args.m2, args.parallel, args.seed)
    crashed = False
    for name, t in tallies.items():
        errors = ", ".join(f"{k} {v}" for k, v in sorted(t.errors.items())) or "none"
        print(f"{name}: {t.tried} inputs, {t.ok} read cleanly, typed errors: {errors}; "
              f"crashes: {len(t.crashes)}")
        for c in t.crashes[:3]:
            print(c)
        crashed |= bool(t.crashes)
    print(f"elapsed {time.perf_counter() - start:.0f} s")
    return 1 if crashed else 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["InputError", "check_m2", "check_parallel", "fuzz"]
