"""The layout of errtype.score: metric families in subpackages, no import cycles, a registry that
discovers metrics instead of importing them, and a package that imports no family eagerly."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import errtype.score
from errtype.score import registry

SCORE = Path(errtype.score.__file__).parent
PKG = "errtype.score"


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(SCORE.rglob("*.py")):
        rel = path.relative_to(SCORE).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        out[".".join([PKG, *parts])] = path
    return out


def _top_level_imports(name: str, path: Path) -> set[str]:
    """errtype.score modules imported when ``name`` is imported (module-level statements only:
    imports inside functions run later and cannot make a cycle at import time)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names)  # "from . import x"
    mods = _modules()
    return {m for m in found if m in mods and m != name}


def test_the_import_graph_of_score_has_no_cycle() -> None:
    mods = _modules()
    graph = {m: _top_level_imports(m, p) for m, p in mods.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for dep in sorted(graph[m]):
            if state.get(dep) == 1:
                cycle = path[path.index(dep):] + [dep] if dep in path else [m, dep]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                visit(dep, [*path, dep])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [m])
    # the package and its registry never import a metric at import time
    families = {f"{PKG}.{f}" for f in registry.FAMILIES}
    for top in (PKG, f"{PKG}.registry", f"{PKG}.common"):
        assert not {d for d in graph[top] if d.rpartition(".")[0] in families or d in families}


def test_importing_score_imports_no_family_module() -> None:
    code = ("import sys, errtype.score as s\n"
            "fam = [m for m in sys.modules if m.startswith('errtype.score.') and "
            "m.split('.')[2] in s.registry.FAMILIES]\n"
            "assert not fam, fam\n"
            "names = s.available_metrics()\n"
            "assert {'errant', 'maxmatch', 'gleu', 'scribendi', 'impara', 'some', 'bertscore', "
            "'llm-s', 'llm-e'} <= set(names), names\n"
            "assert 'errtype.score.edits.maxmatch' in sys.modules\n"
            "heavy = {'torch', 'transformers', 'spacy'} & set(sys.modules)\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("module", sorted(_modules()))
def test_every_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True)


def test_every_metric_is_registered_where_it_is_defined() -> None:
    for name in registry.available_metrics():
        factory = registry._FACTORIES[name]
        module = factory.__module__
        assert module.startswith(PKG + "."), (name, module)
        assert module.split(".")[2] in registry.FAMILIES, (name, module)


def test_register_as_call_and_decorator_and_unknown_names() -> None:
    from errtype.errors import InputError

    @registry.register("test-dummy")
    class Dummy:
        name = "test-dummy"

        def __init__(self, k: int = 1) -> None:
            self.k = k

    try:
        assert registry.get_metric("test-dummy", k=3).k == 3
        registry.register("test-dummy", lambda: "other")
        assert registry.get_metric("test-dummy") == "other"
        assert "test-dummy" in registry.available_metrics()
    finally:
        registry._FACTORIES.pop("test-dummy")
    with pytest.raises(InputError, match="unknown metric 'bleu'.*maxmatch"):
        registry.get_metric("bleu")


def test_lazy_exports_of_the_package() -> None:
    from errtype.score.edits.maxmatch import MaxMatch

    assert errtype.score.MaxMatch is MaxMatch
    assert "errant_score" in dir(errtype.score)
    with pytest.raises(AttributeError):
        errtype.score.no_such_thing  # noqa: B018


def test_entry_point_plugins_are_discovered(monkeypatch: pytest.MonkeyPatch) -> None:
    class EP:
        def __init__(self, name: str, obj: object) -> None:
            self.name, self.obj = name, obj

        def load(self) -> object:
            return self.obj

    class Plugin:
        name = "plugin-metric"

    plugins = [EP("plugin-metric", Plugin), EP("maxmatch", object)]  # a built-in name wins
    monkeypatch.setattr(registry, "entry_points", lambda group: plugins
                        if group == registry.ENTRY_POINT_GROUP else [])
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    assert "plugin-metric" in registry.available_metrics()
    assert isinstance(registry.get_metric("plugin-metric"), Plugin)
    assert registry.get_metric("maxmatch").name == "maxmatch"
