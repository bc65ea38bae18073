"""Lexicon health: how many real words of a language each pack's Hunspell dictionary accepts.

For every pack of ``errtype/lang/packs.py`` with a Hunspell dictionary, the gold word forms of a
UD treebank's test file (the dev file where the snapshot has no test file) are looked up

* as errtype loads the lexicon today (``errtype.lang.ud.load_resources``: the generic classifier's
  lexicon; for Czech, the Czech classifier's default lexicon), and
* with the dictionary's own compound rules enabled (the full ``.aff`` read by Hunspell as it is,
  whatever errtype's loading does),

and the share of accepted tokens is printed; a pack below 95 % is flagged: its dictionary rejects
real words, so the classifier calls correct words misspellings.

Which tokens count (``counted_forms``): syntactic words of the CoNLL-U file that are

* written words: not part of a multi-word token range (``del`` = ``di`` + ``il``: the parts are
  not written forms, and the range has no UPOS to filter by);
* alphabetic (``str.isalpha``): what the classifier looks up (it never calls a token with digits,
  hyphens or apostrophes unknown);
* of a class a lexicon lists: not PROPN, X, SYM, NUM or PUNCT (names, foreign words, symbols and
  numbers are open-ended);
* not marked ``Typo=Yes`` (treebank misspellings), ``Abbr=Yes``, ``Foreign=Yes`` or
  ``NumForm=Roman`` (a number).

Forms are looked up as written (a sentence-initial capital included: Hunspell accepts a
capitalised lower-case word), as the classifier looks them up.

    python bench/lexicon_health.py [--treebanks DIR] [--file LANG=PATH ...] [--lang LANG ...]
                                   [--show N] [--json OUT]

``--treebanks DIR`` (default: ``$ERRTYPE_UD_TREEBANKS``) holds one clone per treebank, as
``git clone https://github.com/UniversalDependencies/UD_German-GSD`` makes it (``UD_German-GSD``;
a bare clone ``UD_German-GSD.git`` is read with ``git show``). ``--file LANG=PATH`` names a
CoNLL-U file directly.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a source checkout without installing
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from peer_repos import UD_TREEBANKS_ENV, ud_clone  # noqa: E402

#: the UD treebanks read for each language, in order of preference (the first one with a test
#: file, else a dev file; the AnCora snapshot lists its files without their contents)
TREEBANKS = {
    "ca": "UD_Catalan-AnCora", "cs": "UD_Czech-FicTree", "de": "UD_German-GSD",
    "el": "UD_Greek-GDT",
    "en": "UD_English-EWT", "es": "UD_Spanish-AnCora UD_Spanish-PUD", "et": "UD_Estonian-EDT",
    "fr": "UD_French-GSD", "is": "UD_Icelandic-Modern", "it": "UD_Italian-ISDT",
    "lv": "UD_Latvian-LVTB", "nl": "UD_Dutch-Alpino", "pl": "UD_Polish-PDB",
    "pt": "UD_Portuguese-Bosque", "ro": "UD_Romanian-RRT", "ru": "UD_Russian-GSD",
    "sl": "UD_Slovenian-SSJ", "sv": "UD_Swedish-Talbanken", "tr": "UD_Turkish-BOUN",
    "uk": "UD_Ukrainian-IU",
}
#: word classes a lexicon does not list exhaustively
EXCLUDED_UPOS = frozenset({"PROPN", "X", "SYM", "NUM", "PUNCT"})
#: features that mark a token as no ordinary word of the language
EXCLUDED_FEATS = frozenset({"Typo=Yes", "Abbr=Yes", "Foreign=Yes", "NumForm=Roman"})
#: below this share of accepted tokens a pack's dictionary is misconfigured (issue 26)
HEALTHY = 95.0


def counted_forms(lines: Iterable[str]) -> Iterator[str]:
    """The gold word forms of CoNLL-U ``lines`` that count (see the module docstring)."""
    inside: set[int] = set()
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            inside = set()
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise ValueError(f"not a CoNLL-U word line: {line!r}")
        wid, form, upos, feats = cols[0], cols[1], cols[3], cols[5]
        if "-" in wid:
            first, last = (int(x) for x in wid.split("-", 1))
            inside.update(range(first, last + 1))
            continue
        if "." in wid or int(wid) in inside:
            continue
        if upos in EXCLUDED_UPOS or not form.isalpha():
            continue
        if feats != "_" and EXCLUDED_FEATS.intersection(feats.split("|")):
            continue
        yield form


@dataclass
class Health:
    """Acceptance of one treebank file's counted tokens by one pack's dictionary."""

    lang: str
    source: str
    tokens: int = 0
    loaded: int = 0
    compounds: int = 0
    #: token counts of the forms rejected even with compounds
    rejected: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def loaded_pct(self) -> float:
        return 100 * self.loaded / self.tokens if self.tokens else 0.0

    @property
    def compounds_pct(self) -> float:
        return 100 * self.compounds / self.tokens if self.tokens else 0.0


def measure(lang: str, source: str, forms: Iterable[str], loaded: Callable[[str], bool],
            compounds: Callable[[str], bool]) -> Health:
    """Look every form up in both lexicons (each distinct form once)."""
    counts = Counter(forms)
    health = Health(lang, source, tokens=sum(counts.values()))
    t0 = time.process_time()
    for form, n in counts.items():
        as_loaded = loaded(form)
        with_compounds = as_loaded or compounds(form)
        health.loaded += n * as_loaded
        health.compounds += n * with_compounds
        if not with_compounds:
            health.rejected[form] = n
    health.seconds = time.process_time() - t0
    return health


def lexicons(lang: str) -> tuple[Callable[[str], bool], Callable[[str], bool]] | str:
    """(the lexicon as errtype loads it, the same dictionary with its compound rules), or why
    there is none."""
    from errtype.errors import ResourceError
    from errtype.lang.packs import get_pack
    from errtype.lang.ud import load_resources
    from errtype.lang.ud.resources import hunspell_dir

    pack = get_pack(lang)
    if pack is None or pack.hunspell is None:
        return "no Hunspell dictionary in the pack"
    try:
        full = full_dictionary(pack.hunspell, hunspell_dir())
    except ResourceError as exc:
        return str(exc)
    if lang == "cs":  # the Czech classifier's lexicon (Hunspell + Common Czech endings)
        from errtype.lang.cs.spelling import CommonCzechLexicon, default_lexicon
        return default_lexicon(), CommonCzechLexicon(full)
    lexicon = load_resources(pack)[0]
    if lexicon is None:
        return "the pack's dictionary did not load"
    return lexicon, full


def full_dictionary(name: str, data_dir: Path) -> Callable[[str], bool]:
    """Lookup in the Hunspell dictionary ``name`` as Hunspell reads its ``.aff`` and ``.dic``,
    compound rules included (whatever errtype's own loading does)."""
    from errtype.errors import ResourceError
    try:
        from hunspell import Hunspell
    except ImportError as exc:
        raise ResourceError("the lexicon bench needs 'chunspell' (pip install chunspell)") from exc
    if not (data_dir / f"{name}.dic").is_file():
        raise ResourceError(f"Hunspell dictionary {name}.dic not found in {data_dir}")
    dictionary = Hunspell(name, hunspell_data_dir=str(data_dir))

    def accepts(word: str) -> bool:
        try:
            return bool(dictionary.spell(word))
        except UnicodeError:  # not representable in the dictionary's 8-bit encoding
            return False
    return accepts


def _git_dir(folder: Path) -> Path | None:
    for cand in (folder, folder / ".git"):
        if (cand / "HEAD").is_file() and (cand / "objects").is_dir():
            return cand
    return None


def treebank_file(folder: Path) -> tuple[str, Callable[[], list[str]]] | None:
    """(name, reader of its lines) of the test file of a treebank folder, else its dev file;
    None if neither is there. A bare git repository is read with ``git show HEAD:FILE`` (a
    file listed but whose blob is missing counts as absent)."""
    git = _git_dir(folder)
    if git is None or (folder / ".git").exists():
        for split in ("test", "dev"):
            files = sorted(folder.glob(f"*-ud-{split}.conllu"))
            if files:
                def read_file(path: Path = files[0]) -> list[str]:
                    return path.read_text(encoding="utf-8").splitlines()
                return str(files[0]), read_file
        return None
    names = subprocess.run(["git", "--git-dir", str(git), "ls-tree", "--name-only", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.split()
    for split in ("test", "dev"):
        for name in sorted(n for n in names if n.endswith(f"-ud-{split}.conllu")):
            probe = subprocess.run(["git", "--git-dir", str(git), "cat-file", "-e",
                                    f"HEAD:{name}"], capture_output=True)
            if probe.returncode == 0:
                def read(name: str = name) -> list[str]:
                    return subprocess.run(
                        ["git", "--git-dir", str(git), "show", f"HEAD:{name}"],
                        capture_output=True, check=True).stdout.decode("utf-8").splitlines()
                return f"{folder.name.removesuffix('.git')}:{name}", read
    return None


def find_treebank(root: Path, name: str) -> Path | None:
    """The clone of treebank ``name`` (``UD_German-GSD``) under ``root``: a checkout ``name`` or
    a bare clone ``name.git``."""
    for cand in (root / name, root / f"{name}.git"):
        if cand.is_dir():
            return cand
    return None


def table(results: list[Health], skipped: dict[str, str]) -> str:
    head = (f"{'lang':5s} {'treebank file':50s} {'tokens':>7s} {'as loaded':>10s} "
            f"{'compounds':>10s}  flag")
    lines = [head]
    for h in results:
        flag = "" if h.loaded_pct >= HEALTHY else (
            f"< {HEALTHY:.0f} % as loaded" + ("" if h.compounds_pct >= HEALTHY
                                              else ", also with compounds"))
        lines.append(f"{h.lang:5s} {h.source[-50:]:50s} {h.tokens:7d} {h.loaded_pct:9.1f}% "
                     f"{h.compounds_pct:9.1f}%  {flag}")
    for lang, why in skipped.items():
        lines.append(f"{lang:5s} {why}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--treebanks", type=Path, default=os.environ.get(UD_TREEBANKS_ENV),
                    help=f"folder of UD treebank clones (default: ${UD_TREEBANKS_ENV})")
    ap.add_argument("--file", nargs="+", default=[], metavar="LANG=PATH",
                    help="a CoNLL-U file for LANG instead of the treebank's")
    ap.add_argument("--lang", nargs="+", help="only these languages (default: every pack with "
                                               "a Hunspell dictionary)")
    ap.add_argument("--show", type=int, default=0, metavar="N",
                    help="print the N most frequent forms rejected even with compounds")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = ap.parse_args(argv)
    from errtype.lang.packs import PACKS

    files = dict(item.split("=", 1) for item in args.file)
    langs = args.lang or sorted(PACKS)
    results: list[Health] = []
    skipped: dict[str, str] = {}
    for lang in langs:
        found = lexicons(lang)
        if isinstance(found, str):
            skipped[lang] = found
            continue
        if lang in files:
            path = Path(files[lang])
            source = str(path)
            lines = path.read_text(encoding="utf-8").splitlines()
        else:
            got = None
            names = TREEBANKS.get(lang, "").split()
            for name in names if args.treebanks else ():
                folder = find_treebank(args.treebanks, name)
                got = treebank_file(folder) if folder else None
                if got:
                    break
            if got is None:
                where = (f"under {args.treebanks}" if args.treebanks else
                         f"give --treebanks DIR or set {UD_TREEBANKS_ENV}")
                skipped[lang] = (f"no treebank file ({where}: "
                                 + " or ".join(map(ud_clone, names)) + ")" if names else
                                 "no UD treebank listed for it")
                continue
            source, read = got
            lines = read()
        health = measure(lang, source, counted_forms(lines), *found)
        results.append(health)
        print(f"{lang}: {health.tokens} tokens, {health.loaded_pct:.1f} % as loaded, "
              f"{health.compounds_pct:.1f} % with compounds ({health.seconds:.1f} s CPU)",
              file=sys.stderr, flush=True)
        if args.show:
            print("  most frequent rejected: " + ", ".join(
                f"{w} ({n})" for w, n in health.rejected.most_common(args.show)), file=sys.stderr)
    print(table(results, skipped))
    if args.json:
        args.json.write_text(json.dumps([{
            "lang": h.lang, "source": h.source, "tokens": h.tokens, "loaded": h.loaded,
            "compounds": h.compounds, "loaded_pct": h.loaded_pct,
            "compounds_pct": h.compounds_pct,
            "rejected": h.rejected.most_common(200)} for h in results], indent=1,
            ensure_ascii=False), encoding="utf-8")
    return 0 if results else 2


if __name__ == "__main__":
    sys.exit(main())
