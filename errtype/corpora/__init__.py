"""Readers of the formats GEC corpora ship in, producing errtype's M2.

:mod:`.bea_json`: BEA-2019's JSON (W&I+LOCNESS, FCE; character offsets, per-annotator edits,
re-typed by errtype's classifier); :mod:`.uagec`: UA-GEC's inline-annotated text (the corpus's
own error types kept); :mod:`.spans`: the one mapping of character-offset edits to token-level
M2 blocks that both use. Parallel CoNLL-U treebanks (L1-L2) are read by
:mod:`errtype.parse.conllu` (``errtype-m2 --conllu-orig/--conllu-cor``).
"""
