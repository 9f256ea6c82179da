"""The checks a ruleset file's meaning must pass beyond its shape, read from the file as
parsed (so that they run, and say everything, even when its shape has errors too):

- `unknown-action`: an action type the service does not know (the near name suggested);
- `undeclared-action`: a step allows an action type the file's `actions` do not declare;
- `undeclared-role`: a step or a player-turn names a role the file's `sides.roles` do not
  declare (or a seat that is none of any, active, inactive, referee and the roles);
- `undeclared-condition`: a step or a phase reads a condition `conditions` does not declare;
- `unreachable-step`: a step the marker never reaches (a second step or phase of the same
  id in one phase; a step of one role's player-turn, `only`, outside any player-turn);
- the checks of rolls (`rolls_checks`: `table-gap`, `table-overlap`, ...);
- the expression checks (`expression_checks`: `undeclared-name`, `expression-type`, ...),
  the initiative's, the cards', the activation's and the steps' computed words among them
  (`initiative_checks`, `cards_checks`, `words_checks`);
- the checks of each step's duties (`duties_checks`: `never-discharged`, ...);
- `never-left`: a step that only its `active` (or `inactive`) side moves on, outside any
  player-turn or alternating phase, where no side is active: no player can leave it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domain.commands import ACTION_TYPES
from domain.rulefiles.after_action import check_after_action
from domain.rulefiles.cards_checks import check_cards, conditions_made
from domain.rulefiles.does_checks import check_does
from domain.rulefiles.duties_checks import check_duties
from domain.rulefiles.end_checks import check_ending
from domain.rulefiles.expression_checks import Budget, check_expressions
from domain.rulefiles.initiative_checks import check_initiative
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.rolls_checks import check_rolls
from domain.rulefiles.shows_checks import check_shows
from domain.rulefiles.words_checks import check_words
from domain.sequence import ANY

SEATS = ("any", "active", "inactive", "referee")


@dataclass(frozen=True)
class _Declared:
    roles: frozenset[str]
    actions: frozenset[str]
    conditions: frozenset[str]
    near: Near


@dataclass(frozen=True)
class _Around:
    """What the phases around a node make of it."""

    turns: bool = False  # inside a player-turn or an alternating phase: a side is active
    player_turn: bool = False  # inside a player-turn phase


def check_meaning(data: Any, near: Near) -> list[Problem]:
    if not isinstance(data, dict):
        return []
    declared = _Declared(_keys(_get(data, "sides", "roles")), _keys(data.get("actions")),
                         _keys(data.get("conditions")) | conditions_made(data), near)
    budget = Budget()
    problems = [*_action_types(data.get("actions"), near),
                *check_expressions(data, near, budget), *check_rolls(data, near, budget),
                *check_ending(data, near, budget), *check_initiative(data, near, budget),
                *check_cards(data, near, budget), *check_words(data, near, budget),
                *check_shows(data, near, budget), *check_does(data, near, budget),
                *check_after_action(data, near, budget), *check_duties(data, near, budget)]
    sequence = data.get("sequence")
    if isinstance(sequence, list):
        problems += _nodes(sequence, ("sequence",), declared, _Around(), "the sequence")
    return problems


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _keys(section: Any) -> frozenset[str]:
    return frozenset(k for k in section if isinstance(k, str)) if isinstance(
        section, dict) else frozenset()


def _action_types(actions: Any, near: Near) -> Iterator[Problem]:
    for name in actions if isinstance(actions, dict) else ():
        if name not in ACTION_TYPES:
            meant = near(str(name), ACTION_TYPES)
            yield Problem("unknown-action", ("actions", name),
                          f"battlelog knows no action type '{name}'"
                          + (f"; did you mean '{meant}'?" if meant else ""), True)


def _nodes(nodes: list[Any], path: Path, declared: _Declared, around: _Around,
           where: str) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    for index, node in enumerate(nodes):
        if not isinstance(node, dict):
            continue
        here = (*path, index)
        key = "phase" if "phase" in node or "steps" in node else "step"
        name = node.get(key)
        if isinstance(name, str):
            if name in seen:
                problems.append(Problem("unreachable-step", (*here, key),
                                        f"a second '{name}' in {where} is never reached: the "
                                        "marker goes to the first one of that id"))
            seen.add(name)
        if key == "phase":
            problems += _phase(node, here, declared, around)
        else:
            problems += _step(node, here, declared, around)
    return problems


def _phase(node: dict[Any, Any], here: Path, declared: _Declared,
           around: _Around) -> list[Problem]:
    problems = []
    for key in ("repeat_while", "eligible"):
        problems += _condition(node, key, here, declared)
    roles = node.get("roles")
    for index, role in enumerate(roles if isinstance(roles, list) else ()):
        if isinstance(role, str) and role not in declared.roles:
            problems.append(_undeclared_role(role, (*here, "roles", index), declared))
    children = node.get("steps")
    if isinstance(children, list):
        inner = _Around(
            turns=around.turns or node.get("player_turns") is True
            or node.get("alternate") is True,
            player_turn=around.player_turn or node.get("player_turns") is True)
        problems += _nodes(children, (*here, "steps"), declared, inner,
                           f"phase '{node.get('phase')}'")
    return problems


def _step(node: dict[Any, Any], here: Path, declared: _Declared,
          around: _Around) -> list[Problem]:
    problems = _condition(node, "leave_when", here, declared)
    allows = node.get("allows")
    for index, action in enumerate(allows if isinstance(allows, list) else ()):
        if isinstance(action, str) and action != ANY and action not in declared.actions:
            problems.append(Problem("undeclared-action", (*here, "allows", index),
                                    f"step '{node.get('step')}' allows '{action}', which the "
                                    "file's actions do not declare"))
    for key in ("acting", "advanced_by", "only"):
        seat = node.get(key)
        if isinstance(seat, str) and seat not in declared.roles and (
                key == "only" or seat not in SEATS):
            problems.append(_undeclared_role(seat, (*here, key), declared))
    only = node.get("only")
    if isinstance(only, str) and not around.turns:
        problems.append(Problem("unreachable-step", (*here, "only"),
                                f"step '{node.get('step')}' is in {only}'s player-turn only, "
                                "but no player-turn or alternating phase holds it: it is "
                                "never reached"))
    mover = node.get("advanced_by") or node.get("acting")
    if mover in ("active", "inactive") and node.get("shared") is not True and not around.turns:
        key = "advanced_by" if node.get("advanced_by") else "acting"
        problems.append(Problem("never-left", (*here, key),
                                f"step '{node.get('step')}' is moved on by the {mover} side, "
                                "but no player-turn or alternating phase holds it, so no side "
                                "is active: no player can leave it"))
    return problems


def _condition(node: dict[Any, Any], key: str, here: Path,
               declared: _Declared) -> list[Problem]:
    name = node.get(key)
    if not isinstance(name, str) or name in declared.conditions:
        return []
    return [Problem("undeclared-condition", (*here, key),
                    f"'{name}' is no condition the file's conditions declare")]


def _undeclared_role(role: str, path: Path, declared: _Declared) -> Problem:
    known = sorted(declared.roles)
    meant = declared.near(role, [*known, *SEATS])
    return Problem("undeclared-role", path,
                   f"'{role}' is no role the file's sides declare"
                   + (f" (it declares: {', '.join(known)})" if known else " (it declares none)")
                   + (f"; did you mean '{meant}'?" if meant else ""))
