"""GECToR edit tags: byte-identical to GECToR's utils/preprocess_data.py (pinned outputs of its
script, and the script itself when a GECToR checkout is at hand), the round trip tags -> text on
real corpora, tags from M2 edits, the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from errtype.cli import convert as cli_convert
from errtype.convert import m2_to_text
from errtype.convert.gector import (
    DELIMITER,
    EMPTY,
    UNTAGGABLE,
    Tagger,
    VerbForms,
    format_line,
    parse_line,
)
from errtype.convert.gector_files import (
    gector_to_text,
    m2_to_gector,
    parallel_to_gector,
    tag_pair,
)
from errtype.errors import InputError

from .conftest import bench_module, peer, peer_repo, shared_path

DATA = Path(__file__).parent / "data" / "gector"


@pytest.fixture(scope="module")
def vocab() -> VerbForms:
    return VerbForms.read(DATA / "vocab.txt")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def test_pinned_output_of_gectors_script(tmp_path: Path, vocab: VerbForms) -> None:
    """tests/data/gector/expected.tags is GECToR's own output (see the README there): same
    bytes, the same three pairs left out (two empty lines; REPLACE_x, whose tags read back as
    'x'), and -j 2 writes the same."""
    out = tmp_path / "out.tags"
    report = parallel_to_gector(DATA / "src.txt", DATA / "tgt.txt", out, verbs=vocab)
    assert out.read_bytes() == (DATA / "expected.tags").read_bytes()
    assert (report.pairs, report.written) == (26, 23)
    assert report.dropped == {EMPTY: 2, UNTAGGABLE: 1}
    assert report.lines == {EMPTY: [21, 22], UNTAGGABLE: [17]}
    parallel_to_gector(DATA / "src.txt", DATA / "tgt.txt", tmp_path / "j2.tags", verbs=vocab,
                       jobs=2)
    assert (tmp_path / "j2.tags").read_bytes() == out.read_bytes()


def test_every_label_family_in_the_pinned_output() -> None:
    """The pinned file covers what it claims to (a guard on the fixture itself)."""
    text = (DATA / "expected.tags").read_text(encoding="utf-8")
    for label in ("$KEEP", "$DELETE", "$APPEND_", "$REPLACE_", "$MERGE_SPACE", "$MERGE_HYPHEN",
                  "$TRANSFORM_CASE_CAPITAL", "$TRANSFORM_CASE_UPPER", "$TRANSFORM_CASE_LOWER",
                  "$TRANSFORM_SPLIT_HYPHEN", "$TRANSFORM_AGREEMENT_PLURAL",
                  "$TRANSFORM_AGREEMENT_SINGULAR", "$TRANSFORM_VERB_VB_VBD",
                  "$TRANSFORM_VERB_VBZ_VBG", "SEPL__SEPR"):
        assert label in text, label


@pytest.mark.parametrize(("tags", "text"), [
    # GECToR's preprocess_data.convert_tagged_line on these lines (commit 3d41d28, vocab.txt)
    ([("very", "$MERGE_SWAP"), ("good", "$KEEP"), (".", "$KEEP")], "good very ."),
    ([("It", "$KEEP"), ("very", "$MERGE_SWAP"), ("good", "$KEEP"), ("is", "$KEEP")],
     "It very $MERGE_SWAP good is"),
    ([("a", "$KEEP"), ("b", "$MERGE_SPACE")], "a b $MERGE_SPACE"),
    ([("a", "$APPEND_ySEPL__SEPR$APPEND_z"), ("b", "$REPLACE_cSEPL__SEPR$APPEND_d")],
     "x a y z c d"),
    ([("go", "$TRANSFORM_VERB_VB_VBZ"), ("went", "$TRANSFORM_VERB_VBD_VB")], "goes go"),
    ([("iphone", "$TRANSFORM_CASE_CAPITAL_1"), ("abc", "$TRANSFORM_CASE_UPPER_-1")],
     "iPhone ABc"),
    ([("a", "$DELETESEPL__SEPR$APPEND_b"), ("c", "$KEEP")], "b c"),
])
def test_gectors_reading_quirks_included(tags: list[tuple[str, str]], text: str,
                                         vocab: VerbForms) -> None:
    """A swap takes effect only as the result's second token, a merge at the sentence end stays
    in the text: what GECToR's check does, so the same pairs are dropped."""
    start = "$APPEND_x" if text.startswith("x ") else "$KEEP"
    line = " ".join(f"{t}SEPL|||SEPR{ls}" for t, ls in [("$START", start), *tags])
    assert Tagger(vocab).read(*parse_line(line)) == text


def test_format_line_and_parse_line_are_inverse() -> None:
    labels = [["$APPEND_A"], ["$KEEP"], ["$REPLACE_x", "$APPEND_y"]]
    line = format_line(["b", "c"], labels)
    assert line == "$STARTSEPL|||SEPR$APPEND_A bSEPL|||SEPR$KEEP cSEPL|||SEPR$REPLACE_x" \
                   "SEPL__SEPR$APPEND_y"
    assert parse_line(line) == (["b", "c"], labels)
    with pytest.raises(ValueError, match="no SEPL"):
        parse_line("$START b")


def test_verb_vocabulary_first_line_decodes_last_encodes(tmp_path: Path) -> None:
    """GECToR's get_verb_form_dicts: a line whose word1_T1_T2 was seen is ignored; among the
    others the last of a word1_word2 encodes."""
    path = tmp_path / "v.txt"
    path.write_text("put_puts:VB_VBZ\nput_puts:VBD_VBZ\nput_putz:VB_VBZ\n", encoding="utf-8")
    v = VerbForms.read(path)
    assert v.encoded("put", "puts") == "VBD_VBZ"
    assert v.encoded("put", "putz") is None
    assert v.decoded("put", "VB_VBZ") == "puts"
    path.write_text("go_went:VB_VBD\ngo went VB VBD\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a verb-form line") as info:
        VerbForms.read(path)
    assert info.value.line == 2


def test_default_vocabulary_tags_common_verbs() -> None:
    tagger = Tagger()
    assert tagger.transformation("go", "went") == "$TRANSFORM_VERB_VB_VBD"
    assert tagger.transformation("take", "taken") == "$TRANSFORM_VERB_VB_VBN"
    assert tagger.transformation("use", "used") == "$TRANSFORM_VERB_VB_VBN"  # the later tag
    assert tagger.transformation("is", "be") == "$TRANSFORM_VERB_VBZ_VB"
    assert tagger.verbs.decoded("dream", "VB_VBD") == "dreamed"  # the preferred spelling
    assert len(tagger.verbs.encode) > 80_000  # word pairs (128,656 lines)


def test_keep_untaggable_writes_one_line_per_pair(tmp_path: Path, vocab: VerbForms) -> None:
    out = tmp_path / "all.tags"
    report = parallel_to_gector(DATA / "src.txt", DATA / "tgt.txt", out, verbs=vocab,
                                keep_untaggable=True)
    lines = _lines(out)
    assert len(lines) == report.written == 26
    assert report.kept == {EMPTY: 2, UNTAGGABLE: 1} and not report.dropped
    assert lines[21 - 1] == "$STARTSEPL|||SEPR$APPEND_AnSEPL__SEPR$APPEND_emptySEPL__SEPR" \
                            "$APPEND_sourceSEPL__SEPR$APPEND_precedesSEPL__SEPR$APPEND_."
    # GECToR recovers the token from its alignment tag 'REPLACE_REPLACE_x' as 'x', equal to the
    # correction: $KEEP, which reads back as REPLACE_x
    assert lines[17 - 1].startswith("$STARTSEPL|||SEPR$KEEP REPLACE_xSEPL|||SEPR$KEEP ")


def test_delimiter_inside_a_pair(tmp_path: Path, vocab: VerbForms) -> None:
    """GECToR's script stops on such a pair; errtype leaves it out and says why, or with
    --keep-untaggable (one line per pair promised) stops naming the line."""
    src, tgt = tmp_path / "s.txt", tmp_path / "t.txt"
    src.write_text("a b\nx SEPL__SEPR y\n", encoding="utf-8")
    tgt.write_text("a c\nx y\n", encoding="utf-8")
    report = parallel_to_gector(src, tgt, tmp_path / "o", verbs=vocab)
    assert report.dropped == {DELIMITER: 1} and report.written == 1
    with pytest.raises(InputError) as info:
        parallel_to_gector(src, tgt, tmp_path / "o2", verbs=vocab, keep_untaggable=True)
    assert (info.value.path, info.value.line) == (str(tgt), 2)
    assert not (tmp_path / "o2").exists()


def test_tag_pair_strips_like_gector(vocab: VerbForms) -> None:
    tagger = Tagger(vocab)
    assert tag_pair(tagger, "  a  b \t", "a b") == (
        "$STARTSEPL|||SEPR$KEEP aSEPL|||SEPR$KEEP bSEPL|||SEPR$KEEP", None)
    assert tag_pair(tagger, " ", "a") == (None, EMPTY)


# --- real corpora ---------------------------------------------------------------------------

def _real_pairs(tmp_path: Path) -> list[tuple[str, Path, Path]]:
    m2_to_text(shared_path("conll14", "official-2014.combined.m2"), tmp_path / "c14")
    jfleg = shared_path("jfleg")
    return [("conll14.0", tmp_path / "c14.orig", tmp_path / "c14.cor.0"),
            ("conll14.1", tmp_path / "c14.orig", tmp_path / "c14.cor.1"),
            *((f"jfleg.{r}", jfleg / "dev.src", jfleg / f"dev.ref{r}") for r in range(4))]


def test_round_trip_on_real_corpora(tmp_path: Path) -> None:
    """Tags -> text gives back the correction, token for token, on every pair GECToR keeps
    (CoNLL-2014 test, both annotators; JFLEG dev, four references); the only pairs left out
    are CoNLL-2014 annotator 1's three empty corrections. Regression pin: 1312 + 1309 + 4 x 754
    lines."""
    tagger = Tagger()
    written = []
    for name, src, tgt in _real_pairs(tmp_path):
        tags, text = tmp_path / f"{name}.tags", tmp_path / f"{name}.txt"
        report = parallel_to_gector(src, tgt, tags, verbs=tagger.verbs)
        assert gector_to_text(tags, text, source_out=tmp_path / "src") == report.written
        kept = [(s, t) for s, t in zip(_lines(src), _lines(tgt), strict=True)
                if tag_pair(tagger, s, t)[0] is not None]
        assert [t.split() for _, t in kept] == [line.split() for line in _lines(text)]
        assert [s.split() for s, _ in kept] == [line.split() for line in
                                                 _lines(tmp_path / "src")]
        written.append(report.written)
        assert set(report.dropped) <= {EMPTY}
    assert written == [1312, 1309, 754, 754, 754, 754]


@pytest.mark.slow
def test_identical_to_gectors_script(tmp_path: Path) -> None:
    """GECToR's preprocess_data.py itself (a checkout named by $ERRTYPE_GECTOR, its utils/
    copied to a temporary folder) and errtype, the same vocabulary: byte-identical
    on CoNLL-2014 (both annotators), JFLEG ref0 and GECCC paragraphs 200-300 (long
    rewrites; two of them left out by both, two-token swaps that GECToR's check rejects)."""
    checkout = peer_repo("gector")
    bench = bench_module("bench_gector")
    peer("numpy", "GECToR's script imports numpy")
    vocab = Path(cli_convert.__file__).parents[2] / "resources" / "verb-form-vocab.txt"
    script, _ = bench.extract_gector(checkout, tmp_path / "gector", vocab)
    geccc = shared_path("geccc")
    pairs = _real_pairs(tmp_path)[:3]
    for name, path in (("src", geccc / "paragraph.input"), ("tgt", geccc / "paragraph.gold")):
        (tmp_path / f"p.{name}").write_text("\n".join(_lines(path)[199:300]) + "\n", "utf-8")
    pairs.append(("geccc", tmp_path / "p.src", tmp_path / "p.tgt"))
    for name, src, tgt in pairs:
        theirs, ours = tmp_path / f"{name}.gector", tmp_path / f"{name}.errtype"
        bench.run_gector(script, src, tgt, theirs)
        report = parallel_to_gector(src, tgt, ours)
        assert ours.read_bytes() == theirs.read_bytes(), name
    assert report.dropped == {UNTAGGABLE: 2}


def test_from_m2_uses_the_edits_spans(tmp_path: Path) -> None:
    """--from-m2 on CoNLL-2014's gold edits: every kept line reads back to the annotator's
    correction; the 22 left out (regression pin) all hold a $MERGE_SWAP of a word-order edit
    that GECToR's check rejects mid-sentence, and --keep-untaggable keeps them."""
    m2 = shared_path("conll14", "official-2014.combined.m2")
    out = tmp_path / "m2.tags"
    report = m2_to_gector(m2, out, jobs=2)
    assert report.pairs == 2 * 1312
    assert report.dropped == {UNTAGGABLE: 22, EMPTY: 3}
    m2_to_text(m2, tmp_path / "c14")
    tagger = Tagger()
    corrections = {0: _lines(tmp_path / "c14.cor.0"), 1: _lines(tmp_path / "c14.cor.1")}
    expected = [corrections[a][i].split() for i in range(1312) for a in (0, 1)]
    read = [tagger.read(*parse_line(line)).split() for line in _lines(out)]
    assert all(r in expected for r in read)
    everything = tmp_path / "all.tags"
    kept = m2_to_gector(m2, everything, keep_untaggable=True, annotator=1)
    assert kept.written == 1312 and kept.kept[UNTAGGABLE] == 18
    dropped = [line for line in _lines(everything)
               if " ".join(tagger.read(*parse_line(line)).split()) not in
               {" ".join(c.split()) for c in corrections[1]}]
    assert len(dropped) == 18 and all("$MERGE_SWAP" in line for line in dropped)


def test_command_line(tmp_path: Path) -> None:
    out, text = tmp_path / "o.tags", tmp_path / "o.txt"
    argv = ["parallel-to-gector", "-orig", str(DATA / "src.txt"), "-cor", str(DATA / "tgt.txt"),
            "-o", str(out), "--verb-vocab", str(DATA / "vocab.txt"), "-j", "2"]
    proc = subprocess.run([sys.executable, "-m", "errtype.cli.main", "convert", *argv, "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == (DATA / "expected.tags").read_bytes()
    # left-out pairs are reported even with -q
    assert "3 left out: 2 because an empty line on either side (lines 21, 22)" in proc.stderr
    assert cli_convert.main(["gector-to-text", str(out), "-o", str(text), "--verb-vocab",
                             str(DATA / "vocab.txt"), "-q"]) == 0
    assert _lines(text)[0] == "He went to school every day ."
    bad = tmp_path / "bad.tags"
    bad.write_text("$STARTSEPL|||SEPR$KEEP aSEPL|||SEPR$KEEP\nnot tags\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "errtype.cli.main", "convert", "gector-to-text",
                           str(bad), "-o", str(tmp_path / "x")], capture_output=True, text=True)
    assert proc.returncode == 2 and f"{bad}, line 2" in proc.stderr
    for wrong in (["parallel-to-gector", "-orig", str(DATA / "src.txt"), "-o", str(out)],
                  ["parallel-to-gector", "--from-m2", "x.m2", "-orig", "a", "-cor", "b", "-o",
                   "o"],
                  ["parallel-to-gector", "-orig", "a", "-cor", "b", "--annotator", "1", "-o",
                   "o"]):
        with pytest.raises(SystemExit) as info:
            cli_convert.main(wrong)
        assert info.value.code == 2


@pytest.mark.parametrize("label", ["$FOO", "KEEP", "$MERGE_TAB", "$TRANSFORM_CASE_TITLE",
                                   "$TRANSFORM_AGREEMENT_DUAL", "$APPEND_", "$REPLACE_",
                                   "$TRANSFORM_VERB_VB", "$TRANSFORM_SPLIT_SPACE", ""])
def test_gector_to_text_refuses_an_unknown_label(tmp_path: Path, label: str) -> None:
    """A label GECToR's tagging never writes is an error naming file and line (GECToR's reading
    passes over most of them: the line would come back uncorrected, silently); exit 2, and no
    output is written."""
    tags = tmp_path / "t.tags"
    tags.write_text(f"$STARTSEPL|||SEPR$KEEP aSEPL|||SEPR$KEEP\n"
                    f"$STARTSEPL|||SEPR$KEEP aSEPL|||SEPR$KEEPSEPL__SEPR{label}\n",
                    encoding="utf-8")
    with pytest.raises(InputError, match="unknown label") as exc:
        gector_to_text(tags, tmp_path / "out")
    assert (exc.value.path, exc.value.line) == (str(tags), 2)
    assert not (tmp_path / "out").exists()
    proc = subprocess.run([sys.executable, "-m", "errtype.cli.main", "convert", "gector-to-text",
                           str(tags), "-o", str(tmp_path / "out")], capture_output=True,
                          text=True)
    assert proc.returncode == 2 and f"{tags}, line 2" in proc.stderr, proc.stderr
    assert "unknown label" in proc.stderr and not (tmp_path / "out").exists()


def test_every_label_the_tagger_writes_is_known() -> None:
    from errtype.convert.gector import known_label

    for line in _lines(DATA / "expected.tags"):
        assert all(known_label(x) for ops in parse_line(line)[1] for x in ops), line
    assert known_label("$TRANSFORM_VERB_VBZ_VBG") and known_label("$APPEND_,")


def _full_programme(tagger: Tagger, src: list[str], tgt: list[str]) -> list[tuple[int, int]]:
    from rapidfuzz.distance import Levenshtein

    n, m, inf = len(src), len(tgt), 10 ** 9
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back = [[0] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0
    for i, token in enumerate(src):
        for j in range(m + 1):
            if cost[i][j] >= inf:
                continue
            for k in range(j, m + 1):
                text = "   ".join(tgt[j:k])
                if k - j < 2:
                    zero = tagger.transformation(token, text)
                else:
                    zero = token.split("-") == tgt[j:k] or tagger.verbs.encoded(token, text)
                total = cost[i][j] + (0 if zero else Levenshtein.distance(token, text))
                if cost[i + 1][k] > total:
                    cost[i + 1][k], back[i + 1][k] = total, j
    spans, k = [], m
    for i in range(n, 0, -1):
        spans.append((back[i][k], k))
        k = back[i][k]
    return spans[::-1]


def test_token_spans_are_gectors_programme() -> None:
    """The bounded alignment of a replaced span gives the slices of GECToR's full programme
    (every slice tried), ties included: random spans of hyphenated words, case changes, verb
    forms, plurals, and a vocabulary whose entries hold spaces."""
    import random

    spaced = VerbForms({"go_went": "VB_VBD", "a_b   c": "X_Y"},
                       {"go_VB_VBD": "went", "a_X_Y": "b   c"})
    words = ["a", "b", "c", "go", "went", "cat", "cats", "Cat", "CAT", "well-known", "well",
             "known", "x-y-z", "x", "y", "z", "s", "-", "the", "house", "houses"]
    rng = random.Random(7)
    for verbs in (spaced, VerbForms.default()):
        tagger = Tagger(verbs)
        for _ in range(1500):
            src = [rng.choice(words) for _ in range(rng.randint(1, 7))]
            tgt = [rng.choice(words) for _ in range(rng.randint(1, 9))]
            assert tagger._token_spans(src, tgt) == _full_programme(tagger, src, tgt), (src, tgt)
    tagger = Tagger()
    for _ in range(150):  # longer spans of random words, mostly related
        src = ["".join(rng.choice("abcde") for _ in range(rng.randint(1, 6)))
               for _ in range(rng.randint(1, 25))]
        tgt = [w if rng.random() < 0.6 else w + "s" for w in src if rng.random() < 0.9]
        tgt = tgt or ["x"]
        assert tagger._token_spans(src, tgt) == _full_programme(tagger, src, tgt), (src, tgt)


def test_a_long_repetitive_pair_is_tagged_in_bounded_time(tmp_path: Path) -> None:
    """A 600-token repetitive line (difflib finds nothing to match in it: one replaced span of
    600 x 600 tokens) ran for minutes, a joined string held for every slice; now it is tagged
    at once (no slice is joined before it is read, most are never read) and reads back."""
    import time

    src, tgt = tmp_path / "src", tmp_path / "tgt"
    src.write_text("the cat sat on the mat . " * 86 + "\n", encoding="utf-8")
    tgt.write_text("the cat sits on a mat . " * 86 + "\n", encoding="utf-8")
    started = time.monotonic()
    report = parallel_to_gector(src, tgt, tmp_path / "out.tags")
    assert time.monotonic() - started < 60  # a safety ceiling, not a measurement
    assert report.written == 1
    assert gector_to_text(tmp_path / "out.tags", tmp_path / "back") == 1
    assert (tmp_path / "back").read_text(encoding="utf-8").split() == \
        tgt.read_text(encoding="utf-8").split()


def test_max_tokens_skips_long_pairs(tmp_path: Path) -> None:
    """--max-tokens is errtype-m2's: a pair with more tokens on either side is not tagged, and
    is reported (also with -q) by line; --keep-untaggable writes it with $KEEP labels only, as
    errtype-m2 writes a noop block; -j 2 and --from-m2 alike; a limit below 1 is a usage
    error."""
    long_src = "the cat sat on the mat . " * 800
    src, tgt = tmp_path / "src", tmp_path / "tgt"
    src.write_text(f"He go home .\n{long_src}\nShe like it .\n", encoding="utf-8")
    tgt.write_text(f"He goes home .\n{long_src.replace('sat', 'sits')}\nShe likes it .\n",
                   encoding="utf-8")
    out = tmp_path / "out.tags"
    report = parallel_to_gector(src, tgt, out, max_tokens=1000)
    assert (report.pairs, report.written, report.skipped) == (3, 2, 1)
    assert "1 skipped (more than 1000 tokens (the max_tokens limit); lines 2)" in report.summary()
    assert [line.split()[1] for line in _lines(out)] == [
        "HeSEPL|||SEPR$KEEP", "SheSEPL|||SEPR$KEEP"]
    kept = tmp_path / "kept.tags"
    report = parallel_to_gector(src, tgt, kept, max_tokens=1000, keep_untaggable=True, jobs=2)
    assert report.written == 3 and report.skipped_written == 1
    assert all(ops == ["$KEEP"] for ops in parse_line(_lines(kept)[1])[1])
    proc = subprocess.run([sys.executable, "-m", "errtype.cli.main", "convert",
                           "parallel-to-gector", "-orig", str(src), "-cor", str(tgt), "-o",
                           str(out), "--max-tokens", "1000", "-q"], capture_output=True, text=True)
    assert proc.returncode == 0 and "1 skipped (more than 1000 tokens" in proc.stderr
    m2 = tmp_path / "in.m2"
    m2.write_text(f"S {long_src.strip()}\nA 2 3|||R:VERB|||sits|||REQUIRED|||-NONE-|||0\n\n"
                  "S He go home .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n\n",
                  encoding="utf-8")
    report = m2_to_gector(m2, out, max_tokens=1000)
    assert (report.pairs, report.written, report.skipped, report.lines[report.too_long]) == \
        (2, 1, 1, [1])
    for limit in ("0", "-3", "x"):
        with pytest.raises(SystemExit) as info:
            cli_convert.main(["parallel-to-gector", "-orig", str(src), "-cor", str(tgt), "-o",
                              str(out), "--max-tokens", limit])
        assert info.value.code == 2
