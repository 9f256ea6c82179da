"""Conditions written as expressions (`when:` in a ruleset file) answer as the Python
rulesets' named conditions do: Battlegroup's `initiative_settled`, `battlegroups_left` and
`side_can_activate` (BG-4, BG-7), on the states of its demo: every step of its first turn,
each with every set of its battlegroups activated, a unit sent to reserve, and the
initiative settled or not."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

from conftest import Table

from domain.rulefiles import RulesetFile
from domain.rulefiles.behaviour import behaviour
from domain.rulesets import get_ruleset
from domain.rulesets.battlegroup import battlegroup
from domain.sequence import following
from domain.state import MatchState, Position

DEMO = json.loads((Path(__file__).parents[2] / "api" / "scenarios"
                   / "battlegroup-demo.json").read_text())
ABLE = ("u.attributes.battlegroup != '' && u.box != 'reserve' && "
        "!(('group:' + {side} + ':' + u.attributes.battlegroup) in facts)")
FILE = {
    "format_version": 1, "id": "bg-conditions", "title": "Battlegroup's conditions",
    "unit_kinds": {"unit": {"attributes": {"battlegroup": {"type": "text"}}}},
    "conditions": {
        "initiative_settled": {"when": "'initiative' in facts"},
        "battlegroups_left": {"when": "units.exists(u, " + ABLE.format(side="u.side") + ")"},
        "side_can_activate": {"when": "active != '' && units.exists(u, u.side == active && "
                                      + ABLE.format(side="active") + ")"},
    },
    "sequence": [{"step": "s"}],
}
GROUPS = sorted({(u["side"], u["extra"]["battlegroup"]) for u in DEMO["units"]
                 if "battlegroup" in u.get("extra", {})})


def states() -> list[MatchState]:
    table = Table(ruleset="battlegroup", sides=tuple(s["id"] for s in DEMO["sides"]),
                  units=DEMO["units"], options=DEMO["options"], decks=DEMO["decks"])
    ruleset = get_ruleset("battlegroup", DEMO["options"])
    state = table.state
    out = []
    reserve = next(u["id"] for u in DEMO["units"] if "battlegroup" in u.get("extra", {}))
    for index in range(40):
        settled = state.model_copy(update={"this_turn": ("initiative",),
                                           "turn": state.turn.model_copy(update={
                                               "initiative": state.side_ids()})})
        for base in (state, settled):
            for count in range(len(GROUPS) + 1):
                for done in combinations(GROUPS, count):
                    facts = (*base.this_turn, *(f"group:{s}:{g}" for s, g in done))
                    out.append(base.model_copy(update={"this_turn": facts}))
            unit = base.units[reserve].model_copy(update={"position": Position(box="reserve")})
            out.append(base.model_copy(update={"units": {**base.units, reserve: unit}}))
        if index and state.turn.turn > 1:
            break
        state = settled.model_copy(update={"turn": following(
            ruleset.sequence, settled.turn, settled, ruleset.conditions)})
    return out


def test_the_files_conditions_answer_as_battlegroups_on_its_demos_states() -> None:
    python = battlegroup(DEMO["options"]).conditions  # the Python ruleset, the reference
    data = behaviour(RulesetFile.model_validate(FILE))["conditions"]
    seen: dict[str, set[bool]] = {name: set() for name in data}
    differ = []
    for state in states():
        for name, holds in data.items():
            answer = python[name](state)
            seen[name].add(answer)
            if holds(state) != answer:
                differ.append((name, state.turn.step, state.turn.active_side,
                               state.this_turn))
    assert differ == []
    assert all(answers == {True, False} for answers in seen.values()), seen  # both met
