"""errtype.dask on a LocalCluster of 2 worker processes (127.0.0.1 only): bag, dataframe and
errtype-m2 --dask give M2 byte-identical to the single-process run on ~2,000 real pairs."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import errtype
from errtype.cli import m2 as cli
from errtype.convert import parallel_to_m2

from .conftest import peer, shared_path


def need_dask() -> None:
    """Skip without Dask, except in CI, which installs the [dask] extra."""
    for module in ("dask.bag", "dask.dataframe", "distributed"):
        peer(module, "pip install 'errtype[dask]'")


def test_errtype_import_does_not_import_dask() -> None:
    import subprocess

    code = "import sys, errtype, errtype.convert, errtype.cli.m2; print('dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "False"


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    """The cluster ``--dask local:2`` starts (errtype.dask.connect)."""
    need_dask()
    from errtype.dask import connect

    c, cluster = connect("local:2")
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def _worker_settings() -> tuple[object, str | None]:
    import dask

    return dask.config.get("distributed.worker.profile.enabled"), \
        os.environ.get("MALLOC_TRIM_THRESHOLD_")


def test_local_cluster_workers_run_without_profiler_or_trim_threshold(client: object) -> None:
    """Dask's defaults cost a worker CPU and memory per pair (bench/bench_scale.py); the cluster
    errtype starts turns them off, and the user's own configuration is left as it was."""
    import dask

    settings = client.run(_worker_settings)  # type: ignore[attr-defined]
    assert len(settings) == 2 and set(settings.values()) == {(False, None)}
    assert dask.config.get("distributed.worker.profile.enabled") is True
    assert dask.config.get("distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_") == 65536


def _worker_log_verdicts() -> tuple[bool, bool]:
    """In a worker: whether distributed.worker's filters pass (a transfer to a requester that
    went away, another error)."""
    import logging

    logger = logging.getLogger("distributed.worker")

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, msg,
                                 ("tcp://127.0.0.1:1", None), None)

    return (bool(logger.filter(record("failed during get data with %s -> %s"))),
            bool(logger.filter(record("Compute Failed %s %s"))))


def test_local_cluster_workers_stay_quiet_when_the_client_goes_away(client: object) -> None:
    """A worker sending a result when the client is killed logged "failed during get data"
    with a traceback (seen by tests/test_faults_processes.py under load); errtype's workers
    drop that record, and only that one."""
    verdicts = client.run(_worker_log_verdicts)  # type: ignore[attr-defined]
    assert len(verdicts) == 2 and set(verdicts.values()) == {(False, True)}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """500 jfleg sentences x 4 references (2,000 pairs) and their single-process M2."""
    jfleg = shared_path("jfleg")
    folder = tmp_path_factory.mktemp("dask")
    paths = []
    for name in ("dev.src", "dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3"):
        lines = (jfleg / name).read_text(encoding="utf-8").splitlines(keepends=True)[:500]
        p = folder / name
        p.write_text("".join(lines), encoding="utf-8")
        paths.append(str(p))
    ref = folder / "single.m2"
    report = parallel_to_m2(errtype.load("en"), paths[0], paths[1:], ref, max_tokens=40)
    assert report.blocks == 500 and report.skipped
    items = []
    columns = [Path(p).read_text(encoding="utf-8").splitlines() for p in paths]
    for row in zip(*columns, strict=True):
        items.append((row[0].strip(), [c.strip() for c in row[1:]]))
    return {"paths": paths, "ref": ref.read_bytes(), "report": report, "items": items,
            "folder": folder}


def test_cli_dask_is_identical(client: object, data: dict, capsys: pytest.CaptureFixture
                               ) -> None:
    out = data["folder"] / "cli.m2"
    address = client.scheduler.address  # type: ignore[attr-defined]
    assert address.startswith("tcp://127.0.0.1:")
    paths = data["paths"]
    assert cli.main(["-orig", paths[0], "-cor", *paths[1:], "-out", str(out), "--dask", address,
                     "--partition-size", "90", "--max-tokens", "40"]) == 0
    assert out.read_bytes() == data["ref"]
    err = capsys.readouterr().err
    expected = [f"errtype-m2: skipped line {line}: {reason}"
                for line, reason in data["report"].skipped]
    assert err.splitlines()[:-1] == expected
    assert err.splitlines()[-1] == f"errtype-m2: {data['report'].summary()}"


def test_bag_is_identical(client: object, data: dict) -> None:
    import dask.bag as db

    from errtype.dask import annotate_bag, write_m2

    bag = db.from_sequence(data["items"], npartitions=7)
    out = data["folder"] / "bag.m2"
    assert write_m2(annotate_bag(bag, "en", max_tokens=40), out) == 500
    assert out.read_bytes() == data["ref"]


def test_dataframe_and_partition_files(client: object, data: dict) -> None:
    import dask.dataframe as dd
    import pandas as pd

    from errtype.dask import annotate_dataframe, write_partitions

    items = data["items"][:80]
    frame = pd.DataFrame({"src": [o for o, _ in items],
                          **{f"ref{i}": [cs[i] for _, cs in items] for i in range(4)}})
    blocks = annotate_dataframe(dd.from_pandas(frame, npartitions=3), "en", orig="src",
                                cors=[f"ref{i}" for i in range(4)], max_tokens=40)
    paths = write_partitions(blocks, data["folder"] / "parts")
    assert [Path(p).name for p in paths] == ["part-00000.m2", "part-00001.m2", "part-00002.m2"]
    joined = b"".join(Path(p).read_bytes() for p in paths)
    ref = data["ref"].decode("utf-8").split("\n\n")[:80]
    assert joined.decode("utf-8") == "".join(b + "\n\n" for b in ref)


def test_dask_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    o = tmp_path / "o.txt"
    o.write_text("a\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        cli.main(["-gold", str(o), "-out", "x", "--dask", "local:2"])
    with pytest.raises(SystemExit):
        cli.main(["-orig", str(o), "-cor", str(o), "-out", "x", "--dask", "local:2", "-j", "2"])
    need_dask()
    assert cli.main(["-orig", str(o), "-cor", str(o), "-out", str(tmp_path / "y"),
                     "--dask", "local:zero", "-q"]) == 2
    assert "--dask local:N needs a number of workers" in capsys.readouterr().err
