"""``import errant`` served by errtype: in one process, or installed as an alias distribution.

* :func:`install_alias` makes ``import errant`` and every ``import errant.<module>`` (``annotator``,
  ``alignment``, ``edit``, ``en.classifier``, ``commands.compare_m2``, ...) return the modules of
  :mod:`errtype.errant` themselves, in this process. Call it before the client imports errant.
* :func:`build_wheel` writes ``errant-3.0.2+errtype<version>-py3-none-any.whl``: a distribution
  named ``errant`` (so requirements such as ``errant`` or ``errant==3.0.2`` are met and ``pip
  check`` is clean) whose ``errant`` package installs the alias when imported, requiring this
  errtype version, with ERRANT's three commands (``errant_parallel``, ``errant_m2``,
  ``errant_compare``) run by errtype. Pure Python, no compiler, built offline::

      python -m errtype.cli.errant_alias DIR        # then: pip install DIR/errant-*.whl

  It takes the place of ERRANT in that environment (both provide the ``errant`` package); to
  go back, ``pip uninstall errant`` and install ERRANT.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import zipfile
from pathlib import Path
from types import ModuleType

__all__ = ["ALIAS", "COMMANDS", "build_wheel", "install_alias", "uninstall_alias"]

#: the package this module stands in for, and the package that implements it
ALIAS, TARGET = "errant", "errtype.errant"
#: ERRANT 3.0.2's console scripts -> the errtype functions behind them
COMMANDS = {"errant_parallel": "errtype.errant.commands.parallel_to_m2:main",
            "errant_m2": "errtype.errant.commands.m2_to_m2:main",
            "errant_compare": "errtype.errant.commands.compare_m2:main"}


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``errant`` and ``errant.*`` as the already imported ``errtype.errant`` modules."""

    def find_spec(self, fullname: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        real = TARGET + fullname[len(ALIAS):]
        if importlib.util.find_spec(real) is None:
            return None
        module = importlib.import_module(real)
        return importlib.util.spec_from_loader(fullname, self,
                                               is_package=hasattr(module, "__path__"))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        # the very module object: one set of classes, whichever name imported it
        return importlib.import_module(TARGET + spec.name[len(ALIAS):])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was imported under its errtype name."""


def _installed() -> _AliasFinder | None:
    return next((f for f in sys.meta_path if isinstance(f, _AliasFinder)), None)


def install_alias() -> None:
    """Serve ``import errant`` (and its submodules) from :mod:`errtype.errant` in this process.

    Idempotent. Raises :class:`RuntimeError` if another ``errant`` (e.g. ERRANT itself) was
    already imported here: modules already handed out cannot be replaced.
    """
    current = sys.modules.get(ALIAS)
    target = importlib.import_module(TARGET)
    if (current is not None and current is not target
            and not getattr(current, "__errtype_alias__", False)):
        raise RuntimeError(f"another 'errant' module is already imported ({current!r}); call "
                           "install_alias() before anything imports errant")
    if _installed() is None:
        sys.meta_path.insert(0, _AliasFinder())
    sys.modules[ALIAS] = target


def uninstall_alias() -> None:
    """Undo :func:`install_alias`: ``errant`` modules imported through it are forgotten."""
    finder = _installed()
    if finder is not None:
        sys.meta_path.remove(finder)
    for name in [n for n in sys.modules if n == ALIAS or n.startswith(ALIAS + ".")]:
        real = sys.modules.get(TARGET + name[len(ALIAS):])
        if real is not None and sys.modules[name] is real:
            del sys.modules[name]


# --- the alias distribution ----------------------------------------------------------------------

_INIT = '''"""ERRANT 3.0.2's API served by errtype (the errant alias distribution of errtype)."""
__errtype_alias__ = True

from errtype.errant.alias import install_alias as _install  # noqa: E402

_install()  # replaces this module in sys.modules with errtype.errant itself
'''


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(dest: str | Path) -> Path:
    """Write the alias distribution's wheel into ``dest``; returns its path."""
    from ..version import __version__ as errtype_version
    from .version import __version__ as errant_version

    local = "errtype" + errtype_version.replace("-", ".").replace("+", ".")
    version = f"{errant_version}+{local}"
    info = f"errant-{version}.dist-info"
    files = {
        "errant/__init__.py": _INIT,
        f"{info}/METADATA": "\n".join([
            "Metadata-Version: 2.1", "Name: errant", f"Version: {version}",
            "Summary: ERRANT 3.0.2's Python API and commands, served by errtype",
            "License: MIT", "Requires-Python: >=3.11",
            f"Requires-Dist: errtype=={errtype_version}", "", ""]),
        f"{info}/WHEEL": "\n".join([
            "Wheel-Version: 1.0", f"Generator: errtype {errtype_version}", "Root-Is-Purelib: true",
            "Tag: py3-none-any", "", ""]),
        f"{info}/entry_points.txt": "[console_scripts]\n" + "".join(
            f"{name} = {target}\n" for name, target in COMMANDS.items()),
        f"{info}/top_level.txt": "errant\n",
    }
    out = Path(dest) / f"errant-{version}-py3-none-any.whl"
    out.parent.mkdir(parents=True, exist_ok=True)
    record = []
    tmp = out.with_suffix(".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in files.items():
            data = text.encode("utf-8")
            zf.writestr(name, data)
            record.append(_record_line(name, data))
        record.append(f"{info}/RECORD,,")
        zf.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    tmp.replace(out)
    return out
