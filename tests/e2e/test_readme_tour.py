"""The README's curl tour works as written, against a real `battlelog serve` process."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def _block(heading: str) -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split(f"## {heading}", 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert match, f"the README has a ```sh block under '{heading}'"
    return match.group(1)


def test_readme_sample_scenario_starts_a_match(server: str) -> None:
    script = _block("Play a sample scenario").replace("http://127.0.0.1:8000", server)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], check=False,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    created = json.loads(done.stdout)
    assert set(created["tokens"]) == {"referee", "spectator", "join:red", "join:blue"}


def test_readme_curl_tour_runs_as_written(server: str) -> None:
    script = _block("A 5-minute tour with curl").replace("http://127.0.0.1:8000", server)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], check=False,
                          capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout
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
