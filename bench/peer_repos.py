"""The peer repositories errtype is compared with, each a plain ``git clone`` named by the user.

A bench takes a peer's checkout from its flag, else from the peer's environment variable; a test
takes it from the environment variable (``tests/conftest.py::peer_repo``) and is skipped without
it, the reason giving the ``git clone`` command. Nothing is looked for anywhere else.

=========  ====================  =============================================  ==========
peer       environment variable  clone                                          commit
=========  ====================  =============================================  ==========
cherrant   ``ERRTYPE_CHERRANT``  https://github.com/HillZhang1999/MuCGEC       3922193
gector     ``ERRTYPE_GECTOR``    https://github.com/grammarly/gector            3d41d28
imeasure   ``ERRTYPE_IMEASURE``  https://github.com/mfelice/imeasure            fc79fdf
=========  ====================  =============================================  ==========

The I-measure's scorer is Python 2.7 code needing numpy: ``ERRTYPE_IMEASURE_PYTHON`` names that
interpreter (default ``python2``).

UD treebanks (``bench/lexicon_health.py``) are a folder of clones named by
``ERRTYPE_UD_TREEBANKS`` (:func:`ud_clone` gives the command for one treebank).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


class PeerUnavailable(LookupError):
    """A peer checkout that is not named (``named`` False) or is not the repository or commit
    the comparison needs (``named`` True)."""

    def __init__(self, message: str, named: bool) -> None:
        super().__init__(message)
        self.named = named


@dataclass(frozen=True)
class PeerRepo:
    """One peer repository: who it is, how the user names a checkout, how to get one."""

    name: str  #: the tool's name, e.g. ``ChERRANT``
    env: str  #: the environment variable naming a checkout
    url: str  #: the repository to clone
    commit: str  #: the commit errtype's pinned comparisons were measured at
    marker: str  #: a file every checkout holds, relative to its root

    @property
    def folder(self) -> str:
        """The folder ``git clone URL`` creates."""
        return self.url.rstrip("/").rsplit("/", 1)[1]

    def clone(self) -> str:
        """The shell commands that make a checkout at the pinned commit and name it."""
        return (f"git clone {self.url} && git -C {self.folder} checkout -q {self.commit[:7]} "
                f"&& export {self.env}=$PWD/{self.folder}")

    def checkout(self, given: str | os.PathLike[str] | None = None, pinned: bool = False
                 ) -> Path:
        """The checkout named by ``given`` (a bench's flag), else by ``$ENV``.

        Raises :class:`PeerUnavailable` when none is named, when the folder does not hold
        :attr:`marker`, and, with ``pinned``, when a git checkout is at another commit than
        :attr:`commit`.
        """
        given = given or os.environ.get(self.env)
        if not given:
            raise PeerUnavailable(f"{self.name} not available: set {self.env} to a checkout of "
                                  f"{self.url} ({self.clone()})", named=False)
        root = Path(given).expanduser()
        if not (root / self.marker).is_file():
            raise PeerUnavailable(f"{root} is not a checkout of {self.url} (no {self.marker}): "
                                  f"{self.clone()}", named=True)
        head = self.head(root)
        if pinned and head is not None and head != self.commit:
            raise PeerUnavailable(f"{root} is at commit {head[:7]}; errtype's comparisons with "
                                  f"{self.name} are pinned to {self.commit[:7]}: "
                                  f"git -C {root} checkout -q {self.commit[:7]}", named=True)
        return root

    @staticmethod
    def head(root: Path) -> str | None:
        """The commit checked out in ``root``, None when it is not a git checkout."""
        try:
            done = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                  capture_output=True, text=True, check=False)
        except OSError:  # no git
            return None
        return done.stdout.strip() if done.returncode == 0 else None


PEERS: dict[str, PeerRepo] = {
    "cherrant": PeerRepo("ChERRANT (MuCGEC)", "ERRTYPE_CHERRANT",
                         "https://github.com/HillZhang1999/MuCGEC",
                         "39221934ee4ccf07801879136a75dd7e11319977",
                         "scorers/ChERRANT/compare_m2_for_evaluation.py"),
    "gector": PeerRepo("GECToR", "ERRTYPE_GECTOR", "https://github.com/grammarly/gector",
                       "3d41d2841512d2690cffce1b5ac6795fe9a0a5dd", "utils/preprocess_data.py"),
    # human ratings (Östling et al. 2024, Swedish), read by bench/bench_swedish_meta.py
    "textlevel_eval": PeerRepo("text-level-gec-evaluation (Swedish GEC ratings)",
                               "ERRTYPE_TEXTLEVEL_EVAL",
                               "https://github.com/harisont/text-level-gec-evaluation",
                               "ff8606cf0e7ec745b96815f42a69dea07277a69b",
                               "annotator/annotator.py"),
    "imeasure": PeerRepo("I-measure", "ERRTYPE_IMEASURE", "https://github.com/mfelice/imeasure",
                         "fc79fdfd36d338299274b8a357c3cd09cc19d8a5", "ieval.py"),
}

def bench_checkout(key: str, given: str | os.PathLike[str] | None = None) -> Path:
    """The checkout of peer ``key`` for a bench (its flag ``given``, else the environment
    variable): exits with status 2 and the message when there is none, and notes on standard
    error a checkout at another commit than the pinned one."""
    repo = PEERS[key]
    try:
        root = repo.checkout(given)
    except PeerUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    head = repo.head(root)
    if head is not None and head != repo.commit:
        print(f"note: {repo.name} at commit {head[:7]}, errtype's figures are measured at "
              f"{repo.commit[:7]}", file=sys.stderr)
    return root


#: the environment variable naming a folder of UD treebank clones (``bench/lexicon_health.py``)
UD_TREEBANKS_ENV = "ERRTYPE_UD_TREEBANKS"


def ud_clone(treebank: str) -> str:
    """The command that clones the UD treebank ``treebank`` (``UD_German-GSD``)."""
    return f"git clone https://github.com/UniversalDependencies/{treebank}"
