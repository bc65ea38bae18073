"""A tiny UDPipe 1 model trained at test time from CoNLL-U written here (no downloads)."""

from __future__ import annotations

from pathlib import Path

from .conftest import peer

#: one sentence per string; tokens "form lemma upos xpos head deprel", "+" = no space after
_DATA = [
    "Bydlím bydlet VERB VB 0 root;v v ADP RR 3 case;"
    "Praze+ Praha PROPN NN 1 obl;. . PUNCT Z 1 punct",
    "Toto tento DET PD 4 nsubj;je být AUX VB 4 cop;krátká krátký ADJ AA 4 amod;"
    "věta+ věta NOUN NN 0 root;. . PUNCT Z 4 punct",
    "Jak jak ADV Db 4 advmod;se se PRON P7 4 expl;dneska dneska ADV Db 4 advmod;"
    "máš+ mít VERB VB 0 root;? ? PUNCT Z 4 punct",
    "Zeptal zeptat VERB Vp 0 root;se se PRON P7 1 expl;ho+ on PRON PP 1 obj;, , PUNCT Z 6 punct;"
    "co co PRON PQ 6 obj;má mít VERB VB 1 ccomp;za za ADP RR 8 case;"
    "předměty+ předmět NOUN NN 6 obl;. . PUNCT Z 1 punct",
]
_SENTENCES = [
    [(f.rstrip("+"), lemma, upos, xpos, int(head), rel, not f.endswith("+"))
     for f, lemma, upos, xpos, head, rel in (tok.split(" ") for tok in sent.split(";"))]
    for sent in _DATA
]


def conllu(repeat: int = 3) -> str:
    """The training data as CoNLL-U text."""
    blocks = []
    for sent in _SENTENCES:
        text = "".join(f + (" " if sp else "") for f, *_r, sp in sent).strip()
        rows = [f"# text = {text}"]
        for i, (form, lemma, upos, xpos, head, rel, sp) in enumerate(sent, 1):
            misc = "_" if sp or i == len(sent) else "SpaceAfter=No"
            rows.append(f"{i}\t{form}\t{lemma}\t{upos}\t{xpos}\t_\t{head}\t{rel}\t_\t{misc}")
        blocks.append("\n".join(rows) + "\n")
    return "\n".join(blocks * repeat) + "\n"


def train(path: Path) -> Path:
    """Train a minimal tokenizer+tagger+parser model and write it to ``path``."""
    udpipe = peer("ufal.udpipe", "the cs extra")
    reader = udpipe.InputFormat.newInputFormat("conllu")
    reader.setText(conllu())
    sentences, sent, error = udpipe.Sentences(), udpipe.Sentence(), udpipe.ProcessingError()
    while reader.nextSentence(sent, error):
        sentences.push_back(sent)
        sent = udpipe.Sentence()
    assert not error.occurred(), error.message
    model = udpipe.Trainer.train(
        "morphodita_parsito", sentences, udpipe.Sentences(),
        "epochs=2;dimension=16",
        "guesser_suffix_rules=2;iterations=2",
        "iterations=1;hidden_layer=8;embedding_form=8;embedding_lemma=0;embedding_upostag=4;"
        "embedding_xpostag=0;embedding_feats=0;embedding_deprel=4",
        error)
    assert not error.occurred(), error.message
    path.write_bytes(model)
    return path
