"""The README's curl tour and its `battlelog` commands work as written, against a real
`battlelog serve` process on the port the reader chose (`PORT`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def _block(heading: str) -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split(f"## {heading}", 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert match, f"the README has a ```sh block under '{heading}'"
    return match.group(1)


def _run(script: str, server: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a README block as a reader would, with `PORT` set to the server's port (the README
    says to set it when `make run PORT=...` chose another than 8000)."""
    assert "127.0.0.1:8000" not in script, "every address in the README follows PORT"
    port = str(urlsplit(server).port)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], check=False, cwd=cwd,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PORT": port})
    assert done.returncode == 0, done.stderr
    return done


def test_readme_says_how_to_choose_a_port() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make run PORT=" in readme


def test_readme_sample_scenario_starts_a_match(server: str) -> None:
    done = _run(_block("Play a sample scenario"), server)
    created = json.loads(done.stdout)
    assert set(created["tokens"]) == {"referee", "spectator", "join:red", "join:blue"}


def test_readme_curl_tour_runs_as_written(server: str) -> None:
    out = _run(_block("A 5-minute tour with curl"), server).stdout
    # Every action in the tour was accepted: no problem detail came back.
    assert '"status":4' not in out.replace(" ", "") and '"status":5' not in out.replace(" ", "")
    lines = out.strip().splitlines()
    # After undoing the advance the marker is back in setup; two actions ago: no markers yet.
    assert lines[-3] == "setup"
    assert json.loads(lines[-2].replace("'", '"')) == {}
    events = json.loads(lines[-1])["events"]
    assert [e["type"] for e in events] == [
        "MatchCreated", *["SeatJoined", "SeatTokenRevoked", "SeatTokenIssued"] * 2,
        "UnitDeployed", "DiceRolled", "MarkerPlaced", "PhaseAdvanced", "ActionsUndone",
    ]
    assert [e["actor"] for e in events][7:] == ["allies", "axis", "axis", "referee", "referee"]


def test_readme_battlelog_commands_run_after_the_tour(own_server: str, tmp_path: Path) -> None:
    """The README's `.venv/bin/battlelog` lines, run from the folder of the server's store
    (as `make run` keeps ./battlelog.db), on the tour's match."""
    server = own_server  # its store is tmp_path/battlelog.db, where the commands look
    installed = f"{Path(sys.executable).parent}/battlelog"
    commands = _block("The battlelog command")
    assert ".venv/bin/battlelog" in commands
    script = _block("A 5-minute tour with curl") + commands.replace(".venv/bin/battlelog",
                                                                    installed)
    out = _run(script, server, cwd=tmp_path).stdout
    assert "\nOK\n" in out
    assert (tmp_path / "report.md").read_text().startswith("# After-action")
    exported = (tmp_path / "match.jsonl").read_text().splitlines()
    assert len(exported) == 1 + 12  # the header, then every event of the tour
    assert re.search(r"imported match \S+ into other\.db \(12 events\)", out)
    assert "usage: battlelog" in out
