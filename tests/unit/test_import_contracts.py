"""The layers of docs/architecture.md, read from the imports: `lint-imports` keeps the
contracts in pyproject.toml ([tool.importlinter]: api -> projections -> domain; inside
domain/, app over legal and clock over the pure core; the events import only the state; no
web framework nor database driver in domain/, eventsourcing only in domain.app; no circle
between the modules of one package), and no module of domain/ is in an import circle, not
even with its own package's __init__ (which import-linter's contracts do not see). Each
contract is shown to break on a copy of the code given a forbidden import."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).parent.parent.parent
PACKAGES = ("api", "projections", "domain")


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` run in `where` (its pyproject.toml and packages), as CI runs it."""
    command = Path(sys.executable).parent / "lint-imports"
    return subprocess.run([str(command), "--no-cache", "--no-logo"], cwd=where,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "200"})


def verdict(output: str, contract: str) -> str:
    """KEPT or BROKEN: what `lint-imports` said of the contract whose name holds `contract`."""
    said = re.search(re.escape(contract) + r"(?:(?!KEPT|BROKEN).)*(KEPT|BROKEN)",
                     " ".join(output.split()))
    assert said is not None, output
    return said.group(1)


def test_the_import_contracts_are_kept() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_no_module_of_domain_is_in_an_import_circle() -> None:
    graph = grimp.build_graph("domain", cache_dir=None)
    circles = sorted(
        f"{module} -> {imported} -> ... -> {module}"
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith("domain") and graph.chain_exists(importer=imported,
                                                                 imported=module))
    assert circles == []


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The packages' Python files and pyproject.toml, copied to be broken."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=lambda folder, names: [
                            n for n in names if not n.endswith(".py")
                            and not (Path(folder) / n).is_dir() or n == "__pycache__"])
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("domain/state.py", "import domain.app", "Inside domain/"),
    ("domain/history.py", "from domain.legal import legal_actions", "Inside domain/"),
    ("domain/legal/words.py", "import domain.clock", "Inside domain/"),
    ("projections/views.py", "import api.app", "api -> projections -> domain"),
    ("domain/events/match.py", "import domain.commands", "The events import"),
    ("domain/rulesets/base.py", "import fastapi", "no web framework"),
    ("domain/decide.py", "import eventsourcing", "Only domain.app"),
    ("domain/dice.py", "import domain.decide", "No import circles"),
], ids=["core->app", "core->legal", "legal->clock", "projections->api", "events->commands",
        "domain->fastapi", "core->eventsourcing", "circle"])
def test_a_forbidden_import_breaks_its_contract(copy: Path, module: str, line: str,
                                                broken: str) -> None:
    assert lint_imports(copy).returncode == 0  # the copy as it is keeps them all
    path = copy / module
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    run = lint_imports(copy)
    assert run.returncode != 0
    assert verdict(run.stdout, broken) == "BROKEN", run.stdout
