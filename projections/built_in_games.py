"""The built-in games written as ruleset files (issue 28): each is played from its file in
projections/rulefiles/ (`GAMES`), not from its Python module, wherever projections is
loaded (the server, the CLI). The domain reads no file: this module reads and checks each
file on its first use, compiles it, and hands the domain its factory
(`domain.rulesets.play_from_file`). The Python modules stay as the reference the
differential tests hold each file to (tests/unit/test_differential_*.py)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from domain.errors import InvalidAction
from domain.rulefiles import RulesetFile
from domain.rulefiles.compile import compile_file
from domain.rulefiles.model_end import OPTION_TURNS_MOST
from domain.rulesets import Ruleset, play_from_file
from projections.rulefile_load import BUILT_IN, check_file

GAMES = {"battlegroup": "battlegroup.yaml"}  # a built-in game's id -> its file


@lru_cache(maxsize=len(GAMES))
def _compiled(name: str) -> tuple[RulesetFile, Ruleset]:
    report = check_file(BUILT_IN / name)
    if report.ruleset is None:  # a shipped file that fails its checks is a broken build
        raise RuntimeError("\n".join(report.lines()))
    return report.ruleset, compile_file(report.ruleset)


def _factory(name: str) -> Any:
    def build(options: Mapping[str, Any]) -> Ruleset:
        file, ruleset = _compiled(name)
        _check_options(file, options)
        return ruleset
    return build


def _check_options(file: RulesetFile, options: Mapping[str, Any]) -> None:
    """A match of a game whose end reads its turn limit from an option is refused without
    it, or with one that is no whole number from 1 to OPTION_TURNS_MOST (BG-1's `rounds`), as the
    Python ruleset refuses it."""
    end = file.end
    if end is None or end.turns_option is None:
        return
    name, rule = end.turns_option, end.option_rule or end.rule
    value = options.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= OPTION_TURNS_MOST:
        raise InvalidAction(f"{rule}: option '{name}' (the scenario's number of "
                            f"{end.turn_word}s, 1 to {OPTION_TURNS_MOST}) is required", rule=rule)


def play_built_in_games() -> None:
    """Every game of `GAMES` is played from its file from now on."""
    for ruleset_id, name in GAMES.items():
        play_from_file(ruleset_id, _factory(name))
