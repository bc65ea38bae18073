"""A third-party language package registered through the ``errtype.languages`` entry point."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import errtype
from errtype.lang import _CACHE, available, get_language

PACKAGE = '''
"""A toy language: every hook but the parser is errtype's default."""
from errtype.lang import Language
from errtype.tokens import Sentence, Token


class WordParser:
    """Whitespace words; the lemma drops a final "s", plural words get Number=Plur."""

    def parse(self, text, tokenize=False):
        toks = []
        for w in text.split():
            plural = w.endswith("s")
            pos = "PUNCT" if not w.isalnum() else "NOUN"
            feats = "" if pos == "PUNCT" else ("Number=Plur" if plural else "Number=Sing")
            toks.append(Token(w, w[:-1] if plural else w, pos, feats=feats))
        return Sentence(toks)

    def parse_many(self, texts, tokenize=False):
        for t in texts:
            yield self.parse(t, tokenize)


class Toy(Language):
    code = "zz"
    name = "Toy"

    def make_parser(self, **options):
        return WordParser()
'''


@pytest.fixture
def toy_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The package ``errtype_toy`` with its dist-info (entry point) on sys.path."""
    (tmp_path / "errtype_toy").mkdir()
    (tmp_path / "errtype_toy" / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    info = tmp_path / "errtype_toy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: errtype-toy\nVersion: 0.1\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[errtype.languages]\nzz = errtype_toy:Toy\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    _CACHE.pop("zz", None)
    yield
    _CACHE.pop("zz", None)
    sys.modules.pop("errtype_toy", None)


def test_entry_point_language_end_to_end(toy_installed: None) -> None:
    assert "zz" in available()
    lang = get_language("zz")
    assert type(lang).__name__ == "Toy" and type(lang).__module__ == "errtype_toy"
    ann = errtype.load("zz", feats=True)
    edits = ann.annotate("two cat sleeps", "two cats sleep !")
    assert [(e.o_str, e.c_str, e.type) for e in edits] == [
        ("cat", "cats", "R:NOUN:INFL:Number"), ("sleeps", "sleep", "R:NOUN:INFL:Number"),
        ("", "!", "M:PUNCT")]
    # the default classifier (built at first use) notes that the toy has no pack resources
    assert "no language pack" in ann.language.__dict__["_classifier"].resources_missing[0]


def test_the_base_class_knows_no_subclass_and_no_merge_rules() -> None:
    """lang/base.py imports neither the generic UD language nor the merge module: the registry
    supplies the default components (issue 26)."""
    import ast

    import errtype.lang.base as base
    from errtype.errors import ResourceError
    from errtype.lang import with_defaults
    from errtype.merge import RuleMerger

    tree = ast.parse(Path(base.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {m for m in imported if m and (m.startswith("ud") or m == "merge"
                                               or m.endswith((".ud", ".merge")))}, imported

    class Bare(base.Language):
        code = "zz"
    bare = Bare()
    with pytest.raises(ResourceError, match="has no classifier_factory"):
        bare.classify(errtype.Edit(0, 0, 0, 0), errtype.tokens.Sentence([]),
                      errtype.tokens.Sentence([]))
    lang = with_defaults(Bare())
    assert isinstance(lang.merger, RuleMerger) and lang.classifier_factory is not None
