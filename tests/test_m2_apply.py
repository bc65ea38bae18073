"""The one edit-application function (errtype.m2.apply_edits) and its named rules, checked on
hand-made edits, against ERRANT 3.0.2's own get_cor_and_edits, and on GECCC's gold text."""

from __future__ import annotations

from errtype import m2
from errtype.m2 import ERRANT, GOLD, LITERAL, M2SCORER, M2Edit, apply_edits, read_m2

from .conftest import peer, shared_path


def E(s: int, e: int, cor: str, type: str = "X", ann: int = 0) -> M2Edit:
    return M2Edit(s, e, type, cor, ann)


TOKS = "a b c d".split()


def test_none_and_alternatives_per_rules() -> None:
    edits = [E(1, 2, "-NONE-"), E(3, 4, "D||dd")]
    assert apply_edits(TOKS, edits).text == "a c D"
    second = m2.ApplyRules(alternative=1)
    assert apply_edits(TOKS, edits, second).text == "a c dd"
    assert apply_edits(TOKS, [E(3, 4, "D")], second).text == "a b c D"  # clipped to the last
    assert apply_edits(TOKS, edits, LITERAL).text == "a -NONE- c D||dd"
    assert apply_edits(TOKS, edits, ERRANT).text == "a -NONE- c D||dd"


def test_outer_edit_wins_whatever_the_file_order() -> None:
    # EstGEC dev, line 50: the word-order edit's correction already holds the inner correction
    toks = "või ennem helista mulle .".split()
    edits = [E(0, 1, "Või"), E(1, 2, "enne"), E(1, 4, "helista mulle enne", "R:WO")]
    for order in (edits, edits[::-1]):
        cor = apply_edits(toks, order)
        assert cor.text == "Või helista mulle enne ."
        assert cor.left_out == [edits[1]]
    # ERRANT's sequential application happens to give the same text here, but places the inner
    # edit on the wrong corrected tokens
    errant = apply_edits(toks, edits, ERRANT)
    assert errant.text == "Või helista mulle enne ."
    assert [(p.c_start, p.c_end) for p in errant.placed] == [(0, 1), (1, 2), (1, 4)]


def test_overlap_ties_file_order_insertions_and_placements() -> None:
    assert apply_edits(TOKS, [E(0, 2, "X"), E(1, 3, "Y")]).text == "X c d"  # same length
    assert apply_edits(TOKS, [E(1, 3, "Y"), E(0, 2, "X")]).text == "a Y d"
    assert apply_edits(TOKS, [E(1, 1, "x"), E(1, 1, "y")]).text == "a x y b c d"
    assert apply_edits(TOKS, [E(2, 2, "i"), E(1, 3, "Y")]).text == "a Y d"  # inside: left out
    assert apply_edits(TOKS, [E(1, 1, "i"), E(1, 3, "Y")]).text == "a i Y d"  # at the boundary
    cor = apply_edits(TOKS, [E(3, 4, "D E"), E(0, 1, ""), E(-1, -1, "-NONE-", "noop")])
    assert cor.text == "b c D E"
    assert [(p.edit.start, p.c_start, p.c_end) for p in cor.placed] == [(3, 2, 4), (0, 0, 0)]


def test_detection_edits() -> None:
    edits = [E(1, 3, "", "Um")]
    assert apply_edits(TOKS, edits, M2SCORER).text == "a d"  # m2scorer scores it as written
    assert apply_edits(TOKS, edits, GOLD).text == "a b c d"  # errant_m2 keeps the words
    assert apply_edits(TOKS, edits, ERRANT).text == "a b c d"


def test_compatibility_names_use_the_one_function() -> None:
    from errtype.edit import Edit
    from errtype.edit import apply_edits as edit_apply
    from errtype.score.extract import apply_edits as ratio_apply

    assert ratio_apply(TOKS, [E(1, 2, "-NONE-"), E(3, 4, "D||dd")]) == "a c D"
    assert edit_apply(TOKS, [Edit(0, 1, 0, 2, "a", "A B")]) == ["A", "B", "b", "c", "d"]


def _peer_get_cor_and_edits():
    return peer("errant.commands.m2_to_m2", "pip install '.[bench]'").get_cor_and_edits


def test_errant_rules_equal_errant_get_cor_and_edits() -> None:
    """Differential: ERRANT rules == errant_m2's get_cor_and_edits on every annotator of EstGEC
    dev (overlaps, -NONE-, alternatives, unsorted edits) and the CoNLL-2014 combined M2."""
    peer = _peer_get_cor_and_edits()
    checked = 0
    for name in (("multilingual", "estgec.dev.m2"), ("conll14", "official-2014.combined.m2")):
        for block in read_m2(shared_path(*name)):
            for edits in block.edits_by_annotator().values():
                if edits[0].is_noop:
                    continue
                want_text, want = peer(block.source,
                                       [[e.start, e.end, e.type, e.cor] for e in edits])
                got = apply_edits(block.tokens, edits, ERRANT)
                assert got.text == want_text
                placed = sorted(got.placed, key=lambda p: (p.edit.start, p.edit.end))
                assert [[p.edit.start, p.edit.end, p.c_start, p.c_end] for p in placed] == \
                    [w[:4] for w in want]
                checked += 1
    assert checked > 3000


def test_geccc_m2_rebuilds_the_gold_text() -> None:
    """GECCC dev ships its corrections as text (sentence.gold, one tab-separated column per
    annotator): every annotator's correction rebuilt from sentence.m2 equals it (spaces aside)."""
    gold = shared_path("geccc", "sentence.gold").read_text(encoding="utf-8").splitlines()
    n = 0
    for block, line in zip(read_m2(shared_path("geccc", "sentence.m2")), gold, strict=True):
        cols = line.split("\t")
        per = block.edits_by_annotator()
        assert len(per) == len(cols)
        for (_, edits), col in zip(sorted(per.items()), cols, strict=True):
            assert apply_edits(block.tokens, edits).text.replace(" ", "") == col.replace(" ", "")
            n += 1
    assert n == 12954  # every correction of the 8,478 sentences (sentence.gold columns)
