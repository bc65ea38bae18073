"""ERRANT scorer (errtype.score.edits.errant, errtype-compare) against errant_compare 3.0.2."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

import pytest

from errtype.cli.compare import main
from errtype.errors import InputError, LineCountError, M2FormatError
from errtype.m2 import M2Block, M2Edit, read_m2
from errtype.score.edits.errant import (
    SentenceCountError,
    SourceMismatchError,
    aggregate_types,
    coder_edits,
    compare_edits,
    errant_prf,
    errant_score,
)

from .conftest import peer, shared_path


def _oracle_sections() -> list[tuple[str, list[str], str]]:
    """(header, argv, expected stdout) of every command recorded in en_compare/outputs.txt."""
    try:
        folder = shared_path("oracles", "en_compare")
    except pytest.skip.Exception:
        return []
    text = (folder / "outputs.txt").read_text(encoding="utf-8")
    out = []
    for section in text.split("######## ")[1:]:
        head, _, body = section.partition("\n")
        argv = [str(folder / a) if a.endswith(".m2") else a for a in shlex.split(head)[1:]]
        out.append((head.strip(), argv, body))
    return out


_SECTIONS = _oracle_sections()


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


# ------------------------------------------------------------------------------------------
# Fidelity: the recorded outputs of errant_compare 3.0.2, character for character


def test_oracle_has_15_commands() -> None:
    shared_path("oracles", "en_compare", "outputs.txt")
    assert len(_SECTIONS) == 15


@pytest.mark.parametrize("argv, expected", [(a, e) for _, a, e in _SECTIONS],
                         ids=[h.replace("errant_compare -hyp hyp.m2 -ref ref.m2", "").strip()
                              or "default" for h, _, _ in _SECTIONS])
def test_en_compare_outputs(capsys: pytest.CaptureFixture[str], argv: list[str],
                            expected: str) -> None:
    code, out, _ = run(capsys, argv)
    assert code == 0
    assert out == expected


@pytest.mark.parametrize("options, expected", [
    ([], "compare_default.txt"),
    (["-v", "-cat", "3"], "compare_verbose_cat3.txt"),
])
def test_issue49(capsys: pytest.CaptureFixture[str], options: list[str], expected: str) -> None:
    folder = shared_path("oracles", "en_issue49")
    code, out, _ = run(capsys, ["-hyp", str(folder / "hyp.m2"), "-ref", str(folder / "ref.m2"),
                                *options])
    assert code == 0
    assert out == (folder / expected).read_text(encoding="utf-8")


def test_issue49_library_counts_duplicate_reference_twice() -> None:
    folder = shared_path("oracles", "en_issue49")
    res = errant_score(folder / "hyp.m2", folder / "ref.m2")
    assert (res.counts["tp"], res.counts["fp"], res.counts["fn"]) == (4, 0, 9)
    assert res.per_type["M:PUNCT"]["tp"] == 3


# ------------------------------------------------------------------------------------------
# Small self-contained cases


def m2(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text.lstrip("\n"), encoding="utf-8")
    return str(p)


def edit(start: int, end: int, cor: str = "x", type: str = "R:NOUN", coder: int = 0) -> M2Edit:
    return M2Edit(start, end, type, cor, coder)


def test_prf_rounding_and_empty_denominators() -> None:
    assert errant_prf(0, 0, 0) == (1.0, 1.0, 1.0)
    assert errant_prf(0, 1, 0) == (0.0, 1.0, 0.0)
    assert errant_prf(5, 2, 1) == (0.7143, 0.8333, 0.7353)
    assert errant_prf(0, 0, 3, beta=0.0) == (1.0, 0.0, 0.0)  # errant would divide by zero


def test_block_without_edits_is_noop_of_coder_0() -> None:
    assert coder_edits([]) == {0: {(-1, -1, "-NONE-"): ["noop"]}}
    assert compare_edits(coder_edits([])[0], coder_edits([])[0]) == (0, 0, 0, {})


def test_dt_keys_insertion_and_multi_token() -> None:
    d = coder_edits([edit(2, 2, ","), edit(3, 5, "a b"), edit(4, 5, "c", "R:X"),
                     M2Edit(-1, -1, "noop", "-NONE-", 1)], mode="dt")
    assert d[0] == {(2, 3): ["R:NOUN"], (3, 4): ["R:NOUN"], (4, 5): ["R:NOUN", "R:X"]}
    assert d[1] == {(-1, -1): ["noop"]}


def test_keys_per_mode_and_none_deletion() -> None:
    e = edit(1, 2, "-NONE-", "U:DET")
    assert coder_edits([e], "cs")[0] == {(1, 2, ""): ["U:DET"]}
    assert coder_edits([e], "cse")[0] == {(1, 2, "U:DET", ""): ["U:DET"]}
    assert coder_edits([e], "ds")[0] == {(1, 2): ["U:DET"]}
    # "-NONE-" is a deletion: it matches the empty correction ERRANT writes for one
    hyp = coder_edits([edit(1, 2, "")])[0]
    assert compare_edits(hyp, coder_edits([e])[0])[:3] == (1, 0, 0)
    # errant_compare's reading: a literal correction, not a deletion
    assert coder_edits([e], "cs", literal_none=True)[0] == {(1, 2, "-NONE-"): ["U:DET"]}
    assert compare_edits(hyp, coder_edits([e], literal_none=True)[0])[:3] == (0, 1, 1)


def test_compare_none_deletion_and_errant_compat(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33: a correct deletion against a gold writing it ``-NONE-`` is a TP (errant_compare:
    FP + FN, kept by ``--errant-compat``)."""
    hyp = m2(tmp_path, "h.m2", "S a a b\nA 0 1|||U:NOUN||||||REQUIRED|||-NONE-|||0\n\n")
    ref = m2(tmp_path, "r.m2", "S a a b\nA 0 1|||U:NOUN|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    assert "\n1\t0\t0\t1.0\t1.0\t1.0\n" in run(capsys, ["-hyp", hyp, "-ref", ref])[1]
    assert "\n0\t1\t1\t0.0\t0.0\t0.0\n" in run(capsys, ["-hyp", hyp, "-ref", ref,
                                                         "--errant-compat"])[1]


def test_filters_keep_coder_registered() -> None:
    edits = [edit(0, 1, "a", "UNK", 0), edit(0, 2, "a b", "R:WO", 1), edit(1, 1, "a", "M:DET", 1)]
    assert coder_edits(edits, "cs") == {0: {}, 1: {(0, 2, "a b"): ["R:WO"],
                                                   (1, 1, "a"): ["M:DET"]}}
    assert coder_edits(edits, "ds")[0] == {(0, 1): ["UNK"]}  # UNK kept in detection
    assert coder_edits(edits, single=True)[1] == {(1, 1, "a"): ["M:DET"]}
    assert coder_edits(edits, multi=True)[1] == {(0, 2, "a b"): ["R:WO"]}
    assert coder_edits(edits, filt=["R:WO"])[1] == {(1, 1, "a"): ["M:DET"]}
    # -multi removes noops but the coder still takes part
    assert coder_edits([], multi=True) == {0: {}}


def test_compare_attribution() -> None:
    hyp = coder_edits([edit(0, 1, "a", "R:A"), edit(2, 2, ",", "M:P")])[0]
    ref = coder_edits([edit(0, 1, "a", "R:B"), edit(0, 1, "a", "R:C"), edit(3, 4, "", "U:D")])[0]
    tp, fp, fn, cats = compare_edits(hyp, ref)
    assert (tp, fp, fn) == (2, 1, 1)
    assert cats == {"R:B": [1, 0, 0], "R:C": [1, 0, 0], "M:P": [0, 1, 0], "U:D": [0, 0, 1]}


def test_aggregate_levels() -> None:
    cats = {"R:NOUN:NUM": [1, 0, 0], "M:NOUN:NUM": [0, 1, 0], "UNK": [0, 0, 1], "R:DET": [1, 1, 1]}
    assert aggregate_types(cats, 1) == {"R": [2, 1, 1], "M": [0, 1, 0], "UNK": [0, 0, 1]}
    assert aggregate_types(cats, 2) == {"NOUN:NUM": [1, 1, 0], "UNK": [0, 0, 1],
                                        "DET": [1, 1, 1]}
    assert aggregate_types(cats, 3) == cats


def _block(*edits: M2Edit, source: str = "a b c d e") -> M2Block:
    return M2Block(source, list(edits))


def test_tie_break_order() -> None:
    # Equal F (1.0): more TP wins (a duplicated reference edit scores two TPs, issue #49)
    hyp = [_block(edit(0, 1, "x"))]
    ref = [_block(edit(0, 1, "x", coder=0), edit(0, 1, "x", coder=1), edit(0, 1, "x", coder=1))]
    assert errant_score(hyp, ref).sentences[0]["ref_coder"] == 1
    # Equal F (0) and TP (0): fewer FP wins -> second hypothesis coder
    hyp2 = [_block(edit(0, 1, "x", coder=0), edit(1, 2, "y", coder=0), edit(2, 3, "z", coder=1))]
    ref2 = [_block(edit(3, 4, "w"))]
    assert errant_score(hyp2, ref2).sentences[0]["hyp_coder"] == 1
    # Equal F, TP and FP: fewer FN wins
    hyp3 = [_block(edit(0, 1, "x"))]
    ref3 = [_block(edit(1, 2, "a", coder=0), edit(2, 3, "b", coder=0), edit(3, 4, "c", coder=1))]
    assert errant_score(hyp3, ref3).sentences[0]["ref_coder"] == 1
    # Complete tie: the earliest pair (coders in order of first appearance) is kept
    ref4 = [_block(edit(0, 1, "x", coder=3), edit(0, 1, "x", coder=1))]
    assert errant_score([_block(edit(0, 1, "x"))], ref4).sentences[0]["ref_coder"] == 3


def test_running_corpus_f_drives_choice() -> None:
    noop = M2Edit(-1, -1, "noop", "-NONE-", 0)
    # sentence 0 leaves the corpus at TP 1, FP 0, FN 3
    hyp = [_block(edit(0, 1, "x")),
           _block(noop, edit(0, 1, "x", coder=1), edit(1, 2, "y", coder=1),
                  edit(2, 3, "z", coder=1))]
    ref = [_block(edit(0, 1, "x"), edit(1, 2, "a"), edit(2, 3, "b"), edit(3, 4, "c")),
           _block(noop, edit(0, 1, "x", coder=1), edit(1, 2, "y", coder=1))]
    # locally HYP 0/REF 0 (0, 0, 0: F 1.0) beats HYP 1/REF 1 (2, 1, 0: F 0.7143), but on the
    # running corpus (1, 0, 3) -> F 0.625 versus (3, 1, 3) -> F 0.6818
    res = errant_score(hyp, ref)
    assert (res.sentences[1]["hyp_coder"], res.sentences[1]["ref_coder"]) == (1, 1)
    assert (res.counts["tp"], res.counts["fp"], res.counts["fn"]) == (3, 1, 3)
    assert res.corpus == {"p": 0.75, "r": 0.5, "f0.5": 0.6818}


def test_sentence_count_mismatch_names_file_and_line(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    hyp = m2(tmp_path, "hyp.m2", "S a b\n\nS c d\nA 0 1|||R:X|||e|||REQUIRED|||-NONE-|||0\n\n")
    ref = m2(tmp_path, "ref.m2", "S a b\n\n")
    with pytest.raises(SentenceCountError) as exc:
        errant_score(hyp, ref)
    assert exc.value.path == hyp and exc.value.line == 3
    assert isinstance(exc.value, LineCountError)
    with pytest.raises(SentenceCountError) as exc:
        errant_score(ref, hyp)
    assert exc.value.path == hyp and exc.value.line == 3
    code, out, err = run(capsys, ["-hyp", hyp, "-ref", ref])
    assert code == 2 and out == ""
    assert f"{hyp}, line 3:" in err and "more sentences" in err


def test_source_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = m2(tmp_path, "hyp.m2", "S a b\n\nS c d\n\n")
    ref = m2(tmp_path, "ref.m2", "S a b\n\nS c  e\n\n")
    with pytest.raises(SourceMismatchError) as exc:
        errant_score(hyp, ref)
    assert exc.value.path == hyp and exc.value.line == 3
    assert "token 1: 'd' vs 'e'" in str(exc.value) and "ref.m2 line 3" in str(exc.value)
    code, _, err = run(capsys, ["-hyp", hyp, "-ref", ref])
    assert code == 2 and "hyp.m2, line 3" in err
    # whitespace differences alone do not count; check_source=False disables the check
    ref_ws = m2(tmp_path, "ws.m2", "S a  b\n\nS c d\n\n")
    assert errant_score(hyp, ref_ws).counts["sentences"] == 2
    assert errant_score(hyp, ref, check_source=False).counts["sentences"] == 2


def test_malformed_m2_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = m2(tmp_path, "hyp.m2", "S a b\nA 0 1|||R:X|||e|||REQUIRED|||-NONE-\n\n")
    ref = m2(tmp_path, "ref.m2", "S a b\n\n")
    with pytest.raises(M2FormatError) as exc:
        errant_score(hyp, ref)
    assert exc.value.line == 2 and exc.value.path == hyp
    code, _, err = run(capsys, ["-hyp", hyp, "-ref", ref])
    assert code == 2 and "hyp.m2, line 2" in err
    missing = str(tmp_path / "nope.m2")
    code, _, err = run(capsys, ["-hyp", missing, "-ref", ref])
    assert code == 2 and "nope.m2" in err


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["-hyp", "h"], ["-hyp", "h", "-ref", "r", "-dt", "-ds"],
                 ["-hyp", "h", "-ref", "r", "-cat", "4"],
                 ["-orig", "o", "-hyp_text", "h"], ["-orig", "o", "-hyp", "h", "-ref", "r"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
    capsys.readouterr()


def test_json_tsv_signature(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = m2(tmp_path, "hyp.m2", "S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
                                 "A 2 3|||U:DET||||||REQUIRED|||-NONE-|||0\n\n")
    ref = m2(tmp_path, "ref.m2", "S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n\n")
    code, plain, _ = run(capsys, ["-hyp", hyp, "-ref", ref])
    js, tsv = tmp_path / "r.json", tmp_path / "r.tsv"
    code, out, _ = run(capsys, ["-hyp", hyp, "-ref", ref, "--json", str(js), "--tsv", str(tsv),
                                "--signature", "-b", "1"])
    assert code == 0
    body, sig = out.rstrip("\n").rsplit("\n", 1)
    assert sig.startswith("errant|mode:cs|beta:1.0|") and "version:errtype-" in sig
    assert plain.replace("F0.5", "F1.0").replace("0.5556", "0.6667") == body + "\n"
    data = json.loads(js.read_text())
    assert data["counts"] == {"tp": 1, "fp": 1, "fn": 0, "sentences": 1}
    assert data["corpus"] == {"p": 0.5, "r": 1.0, "f1.0": 0.6667}
    assert data["sentences"][0]["types"] == {"R:NOUN": [1, 0, 0], "U:DET": [0, 1, 0]}
    assert data["per_type"]["U:DET"] == {"tp": 0, "fp": 1, "fn": 0, "p": 0.0, "r": 1.0, "f": 0.0}
    assert tsv.read_text().splitlines() == [
        "type\tTP\tFP\tFN\tP\tR\tF1.0", "R:NOUN\t1\t0\t0\t1.0\t1.0\t1.0",
        "U:DET\t0\t1\t0\t0.0\t1.0\t0.0", "TOTAL\t1\t1\t0\t0.5\t1.0\t0.6667"]
    code, out, _ = run(capsys, ["-hyp", hyp, "-ref", ref, "-cat", "1", "--tsv", "-"])
    assert out.endswith("type\tTP\tFP\tFN\tP\tR\tF0.5\nR\t1\t0\t0\t1.0\t1.0\t1.0\n"
                        "U\t0\t1\t0\t0.0\t1.0\t0.0\nTOTAL\t1\t1\t0\t0.5\t1.0\t0.5556\n")


def test_verbose_needs_trace() -> None:
    res = errant_score([_block(edit(0, 1))], [_block(edit(0, 1))])
    with pytest.raises(ValueError, match="trace=True"):
        res.errant_text(verbose=True)
    assert "Local results:" in errant_score([_block(edit(0, 1))], [_block(edit(0, 1))],
                                            trace=True).errant_text(verbose=True)


def test_library_input_errors_are_input_errors() -> None:
    with pytest.raises(InputError):
        errant_score([_block()], [_block(source="x y")])
    with pytest.raises(ValueError):
        errant_score([], [], mode="xx")


# ------------------------------------------------------------------------------------------
# Czech types (GECCC sentence-level M2)


@pytest.mark.slow
def test_czech_geccc_cat3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = shared_path("geccc", "sentence.m2")
    code, out, _ = run(capsys, ["-hyp", str(gold), "-ref", str(gold), "-cat", "3"])
    assert code == 0
    lines = out.splitlines()
    table = lines[3:lines.index("", 3)]
    assert any(ln.startswith("R:DIACR ") for ln in table)
    assert any(ln.startswith("R:ORTH:CASING ") for ln in table)
    assert all(ln.split()[2:4] == ["0", "0"] and ln.endswith(" 1.0") for ln in table)
    # a perturbed system: drop, mis-correct and mis-type some edits
    rng = random.Random(7)
    perturbed = []
    for ln in gold.read_text(encoding="utf-8").splitlines(keepends=True):
        if ln.startswith("A ") and "|||noop|||" not in ln:
            f = ln.rstrip("\n").split("|||")
            x = rng.random()
            if x < 0.2:
                continue
            if x < 0.3:
                f[2] += "x"
            elif x < 0.4:
                f[1] = "R:OTHER"
            ln = "|||".join(f) + "\n"
        perturbed.append(ln)
    sys_m2 = tmp_path / "sys.m2"
    sys_m2.write_text("".join(perturbed), encoding="utf-8")
    res = errant_score(sys_m2, gold, mode="cse", cat=3)
    # regression pins, equal to errant_compare 3.0.2's output on these files when written
    # (test_random_against_peer compares with the live peer)
    assert (res.counts["tp"], res.counts["fp"], res.counts["fn"]) == (12138, 2581, 5690)
    assert res.corpus["f0.5"] == 0.7912  # errant_compare -cse gives the same
    assert res.per_type["R:DIACR"]["fn"] > 0 and res.per_type["R:OTHER"]["fp"] > 0
    res = errant_score(sys_m2, gold)
    assert (res.counts["tp"], res.counts["fp"], res.counts["fn"]) == (13719, 1198, 4228)
    assert res.corpus["f0.5"] == 0.8838  # identical to errant_compare 3.0.2 on the same files


# ------------------------------------------------------------------------------------------
# Differential test against the installed peer (skipped locally without errant, fails in CI)


def _peer_compare():  # type: ignore[no-untyped-def]
    return peer("errant.commands.compare_m2", "the bench extra installs errant 3.0.2")


def _random_m2(rng: random.Random, sentences: list[list[str]], max_coders: int) -> str:
    types = ["R:NOUN", "M:DET", "U:DET", "UNK", "R:PUNCT", "R:NOUN:NUM", "noop"]
    cors = ["a", "", "-NONE-", "a b", ","]
    blocks = []
    for toks in sentences:
        lines = ["S " + " ".join(toks)]
        for c in rng.sample(range(4), rng.randint(0, max_coders)):
            if rng.random() < 0.2:
                lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{c}")
                continue
            for _ in range(rng.randint(1, 4)):
                s = rng.randint(0, len(toks))
                e = min(len(toks), s + rng.choice([0, 1, 1, 2, 3]))
                lines.append(f"A {s} {e}|||{rng.choice(types[:-1])}|||{rng.choice(cors)}"
                             f"|||REQUIRED|||-NONE-|||{c}")
                if rng.random() < 0.15:
                    lines.append(lines[-1])
        blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


@pytest.mark.slow
def test_random_against_peer(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    peer = _peer_compare()
    rng = random.Random(2024)
    options = [[], ["-ds"], ["-dt", "-cat", "2"], ["-cse", "-cat", "1"], ["-single"], ["-multi"],
               ["-filt", "R:NOUN", "noop"], ["-v", "-cat", "3"], ["-v", "-dt"], ["-b", "2"]]
    for _ in range(40):
        sents = [[rng.choice("abcdef") for _ in range(rng.randint(1, 6))]
                 for _ in range(rng.randint(1, 5))]
        hyp = m2(tmp_path, "h.m2", _random_m2(rng, sents, 2))
        ref = m2(tmp_path, "r.m2", _random_m2(rng, sents, 3))
        # errant_compare reads -NONE- literally; errtype as the deletion ERRANT writes empty
        hyp_e = m2(tmp_path, "he.m2", _empty_deletions(Path(hyp).read_text()))
        ref_e = m2(tmp_path, "re.m2", _empty_deletions(Path(ref).read_text()))
        for opt in options:
            for ours_argv, peer_argv in ((["-hyp", hyp, "-ref", ref, *opt, "--errant-compat"],
                                          ["-hyp", hyp, "-ref", ref, *opt]),
                                         (["-hyp", hyp, "-ref", ref, *opt],
                                          ["-hyp", hyp_e, "-ref", ref_e, *opt])):
                assert main(ours_argv) == 0
                ours = capsys.readouterr().out
                monkeypatch.setattr("sys.argv", ["errant_compare", *peer_argv])
                peer.main()
                assert ours == capsys.readouterr().out, (ours_argv, Path(hyp).read_text(),
                                                         Path(ref).read_text())


def _empty_deletions(text: str) -> str:
    """M2 text with every ``-NONE-`` correction of an edit (not a noop) written empty."""
    return "\n".join(line.replace("|||-NONE-|||REQUIRED", "||||||REQUIRED", 1)
                     if line.startswith("A ") and not line.startswith("A -1 -1") else line
                     for line in text.split("\n"))


# ------------------------------------------------------------------------------------------
# Text mode (edit extraction by errtype's own annotator)


def test_text_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orig = tmp_path / "orig.txt"
    hyp = tmp_path / "hyp.txt"
    r1, r2 = tmp_path / "r1.txt", tmp_path / "r2.txt"
    orig.write_text("This are a sentence .\nI like it .\n", encoding="utf-8")
    hyp.write_text("This is a sentence .\nI like it .\n", encoding="utf-8")
    r1.write_text("This is a sentence .\nI like it .\n", encoding="utf-8")
    r2.write_text("These are sentences .\nI really like it .\n", encoding="utf-8")
    code, out, _ = run(capsys, ["-orig", str(orig), "-hyp_text", str(hyp), "-ref_text", str(r1),
                                str(r2), "-cat", "3", "-v"])
    assert code == 0
    assert "R:VERB:SVA" in out
    assert "1\t0\t0\t1.0\t1.0\t1.0" in out
    # the same via M2 files written by hand gives the same main table
    h2 = m2(tmp_path, "h.m2", "S This are a sentence .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||"
                              "-NONE-|||0\n\nS I like it .\n\n")
    r2m = m2(tmp_path, "r.m2", "S This are a sentence .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||"
                               "-NONE-|||0\n\nS I like it .\n\n")
    code, out2, _ = run(capsys, ["-hyp", h2, "-ref", r2m])
    assert out.endswith(out2)
    # mismatched line counts
    r2.write_text("These are sentences .\n", encoding="utf-8")
    code, _, err = run(capsys, ["-orig", str(orig), "-hyp_text", str(hyp), "-ref_text", str(r1),
                                str(r2)])
    assert code == 2 and "different numbers of lines" in err


def test_read_m2_blocks_reused() -> None:
    blocks = list(read_m2(["S a b", "A 0 1|||R:X|||c|||REQUIRED|||-NONE-|||2", "", "S c"]))
    res = errant_score(blocks, blocks)
    assert res.sentences[0]["hyp_coder"] == 2 and res.corpus["p"] == 1.0


def test_text_mode_reproduces_issue49(capsys: pytest.CaptureFixture[str]) -> None:
    folder = shared_path("oracles", "en_issue49")
    code, out, _ = run(capsys, ["-orig", str(folder / "orig.txt"),
                                "-hyp_text", str(folder / "sys.txt"),
                                "-ref_text", str(folder / "ref.txt"), "-v", "-cat", "3"])
    assert code == 0
    assert out == (folder / "compare_verbose_cat3.txt").read_text(encoding="utf-8")
