"""errtype's Chinese char level beside ChERRANT itself, on MuCGEC dev, in one process run.

ChERRANT (HillZhang1999/MuCGEC, ``scorers/ChERRANT``) is imported from a checkout of its
repository (never committed) and run as its ``parallel_to_m2.py -g char`` does (its own
``main``, default options: all equal-cost alternatives, references in simplified characters).
Its char mode uses pypinyin, python-Levenshtein, OpenCC and its data files, never LTP, but its
modules import ``ltp`` and ``torch`` at import time: both are stubbed with empty modules, and
``tqdm`` with a pass-through (no progress bars on either side).

Each tool is timed from cold in this process (its imports, its data files, then the whole
file), errtype first; printed: blocks, identical blocks, wall and CPU seconds, and the ratios.

    python bench/bench_cherrant.py [--cherrant DIR] [--para FILE] [--keep DIR]

``--cherrant`` (default ``$ERRTYPE_CHERRANT``) is a checkout of the repository
(``git clone https://github.com/HillZhang1999/MuCGEC``; ``bench/peer_repos.py``); ``--para``
replaces MuCGEC dev (``data/MuCGEC/MuCGEC_dev.txt`` there). Needs the extras ``zh`` and ``bench``
(python-Levenshtein for the peer).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from peer_repos import bench_checkout  # noqa: E402

DEV = "data/MuCGEC/MuCGEC_dev.txt"


def _passthrough(iterable: Any = None, *args: Any, **kwargs: Any) -> Any:
    return iterable


@contextlib.contextmanager
def stubbed() -> Iterator[None]:
    """``ltp`` and ``torch`` as empty modules (ChERRANT's char mode never uses them) and
    ``tqdm`` as a pass-through, for the time of the block."""
    saved = {name: sys.modules.get(name) for name in ("ltp", "torch", "tqdm")}
    ltp = types.ModuleType("ltp")
    ltp.LTP = object  # type: ignore[attr-defined]
    tqdm = types.ModuleType("tqdm")
    tqdm.tqdm = _passthrough  # type: ignore[attr-defined]
    sys.modules.update({"ltp": ltp, "torch": types.ModuleType("torch"), "tqdm": tqdm})
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def peer_runner(root: Path) -> Callable[[Path, Path], None]:
    """``run(para, out)``: ChERRANT's ``parallel_to_m2.main`` at char level, from ``root``
    (imported on the first call, so that the import is part of the peer's time)."""
    folder = root / "scorers" / "ChERRANT"

    def run(para: Path, out: Path) -> None:
        with stubbed():
            sys.path.insert(0, str(folder))
            try:
                import parallel_to_m2  # type: ignore[import-not-found]
            finally:
                sys.path.remove(str(folder))
            args = argparse.Namespace(
                file=str(para), output=str(out), batch_size=128, device=0, worker_num=1,
                granularity="char", merge=False, multi_cheapest_strategy="all",
                segmented=False, no_simplified=False, bpe=False)
            parallel_to_m2.args = args  # its annotate() reads the module's global args
            parallel_to_m2.main(args)

    return run


def errtype_run(para: Path, out: Path) -> None:
    """errtype-m2 --lang zh --granularity char --para PARA -o OUT, through the library."""
    from errtype import load
    from errtype.convert import para_to_m2

    para_to_m2(load("zh", granularity="char"), para, out)


def timed(fn: Callable[[], None]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call."""
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def blocks(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n\n")


def compare(ours: Path, theirs: Path) -> tuple[int, int, list[int]]:
    """(blocks of ChERRANT, identical blocks, 0-based indices of the differing ones)."""
    a, b = blocks(ours), blocks(theirs)
    if a and not a[-1].strip():
        a.pop()
    if b and not b[-1].strip():
        b.pop()
    differ = [k for k in range(max(len(a), len(b)))
              if k >= len(a) or k >= len(b) or a[k] != b[k]]
    return len(b), max(len(a), len(b)) - len(differ), differ


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cherrant", type=Path,
                   help="a checkout of HillZhang1999/MuCGEC (default: $ERRTYPE_CHERRANT)")
    p.add_argument("--para", type=Path, help="a ChERRANT parallel file (default: MuCGEC dev)")
    p.add_argument("--keep", type=Path, help="write both M2 files into this folder")
    args = p.parse_args(argv)
    root = bench_checkout("cherrant", args.cherrant)
    with tempfile.TemporaryDirectory(prefix="bench_cherrant_") as tmp:
        para = args.para or root / DEV
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        ours, theirs = out / "errtype.m2", out / "cherrant.m2"
        lines = sum(1 for ln in para.read_text(encoding="utf-8").splitlines() if ln.strip())
        print(f"input: {para.name} ({lines} lines), ChERRANT from {root}")
        e_wall, e_cpu = timed(lambda: errtype_run(para, ours))
        c_wall, c_cpu = timed(lambda: peer_runner(root)(para, theirs))
        total, same, differ = compare(ours, theirs)
        print(f"blocks identical: {same} / {total}"
              + (f" (first differing blocks: {differ[:5]})" if differ else ""))
        print(f"{'tool':<10} {'wall s':>8} {'CPU s':>8}")
        print(f"{'ChERRANT':<10} {c_wall:>8.2f} {c_cpu:>8.2f}")
        print(f"{'errtype':<10} {e_wall:>8.2f} {e_cpu:>8.2f}")
        print(f"ratio (ChERRANT / errtype): wall {c_wall / e_wall:.1f}x, CPU {c_cpu / e_cpu:.1f}x")
    return 0 if not differ else 1


if __name__ == "__main__":
    raise SystemExit(main())
