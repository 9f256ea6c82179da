"""The built-in games written as ruleset files (issue 28): each is played from its file in
projections/rulefiles/ (`GAMES`), not from its Python module, wherever projections is
loaded (the server, the CLI). The domain reads no file: this module reads and checks each
file on its first use, compiles it, and hands the domain its factory; a match's set-up is
checked against the file at creation (`domain.rulefiles.fits`, with its end's turn-limit
option)
(`domain.rulesets.play_from_file`). The Python modules stay as the reference the
differential tests hold each file to (tests/unit/test_differential_*.py)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from domain.rulefiles.compile import compile_file
from domain.rulesets import Ruleset, play_from_file
from projections.rulefile_load import BUILT_IN, check_file

GAMES = {"battlegroup": "battlegroup.yaml", "wing-command": "wing-command.yaml"}  # id -> file


@lru_cache(maxsize=len(GAMES))
def _compiled(name: str) -> Ruleset:
    report = check_file(BUILT_IN / name)
    if report.ruleset is None:  # a shipped file that fails its checks is a broken build
        raise RuntimeError("\n".join(report.lines()))
    # (ours) in play, a built-in game keeps its Python module's freedom of markers, statuses
    # and deployed units (the differential tests hold the file to the module); its set-up fits
    # the file (`fits`: kinds, attributes, markers, statuses, the turn-limit option)
    return compile_file(report.ruleset, declared_in_play=False)


def _factory(name: str) -> Any:
    def build(options: Mapping[str, Any]) -> Ruleset:
        return _compiled(name)
    return build


def play_built_in_games() -> None:
    """Every game of `GAMES` is played from its file from now on."""
    for ruleset_id, name in GAMES.items():
        play_from_file(ruleset_id, _factory(name))
