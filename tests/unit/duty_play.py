"""Play that discharges what is owed (domain.owed), for the tests of the games' duties and
of the tests that walk a match past them: for one owed item, the bodies that discharge it
(or, for an item owed for several units, one of its units), each to try through `decide`
until one is accepted; `settle` discharges everything owed now, seat by seat."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from domain.duties import Owed
from domain.errors import DomainError
from domain.owed import owed
from domain.rulesets import Ruleset
from domain.rulesets.normandy_duties import neighbours
from domain.state import MatchState, Unit

Act = Callable[[str, dict[str, Any]], object]  # (seat, body): acts, or raises a refusal
ROLLS = {"WC-3": "unit_morale", "WC-4": "disruption_recovery"}  # rule_roll, by rule


def _nearby(unit: Unit) -> Iterator[dict[str, Any]]:
    """Places a unit may move to: a hex next to its own, a point an inch away, then its own
    place (a unit that stays, ES-4's broken unit in cover)."""
    where = unit.position
    if where is not None and where.hex is not None:
        for near in sorted(neighbours(where.hex)):
            yield {"hex": near}
    if where is not None and where.x is not None and where.y is not None:
        yield {"x": where.x + 1, "y": where.y}
    if where is not None:
        yield where.model_dump(exclude_none=True)


def _adjacent_enemies(state: MatchState, unit: Unit) -> list[str]:
    here = unit.position.hex if unit.position is not None else None
    near = neighbours(here) if here is not None else set()
    return [e.id for e in state.in_play() if e.side != unit.side and e.position is not None
            and e.position.hex in near]


def bodies(state: MatchState, item: Owed) -> Iterator[dict[str, Any]]:
    """Bodies that may discharge `item` (or make progress on it), best first."""
    kind = item.done_by[0]
    units = [state.units[u] for u in item.units if u in state.units] or [
        u for u in state.in_play(item.seat) if "acting" in u.status]  # BG-7: the activation's
    if kind in ("roll_dice",):
        yield {"type": "roll_dice", "notation": "2d6", "purpose": item.says[:200]}
    elif kind == "roll_initiative":
        yield {"type": "roll_initiative"}
    elif kind == "draw_cards":
        yield {"type": "draw_cards"}
    elif kind == "shuffle_deck":
        yield {"type": "shuffle_deck"}
    elif kind == "cut_deck":
        for side in state.side_ids():
            if side != item.seat and len(state.decks.get(side, ())) > 1:
                yield {"type": "cut_deck", "side": side, "at": 1}
    elif kind == "activate_unit":
        for unit in state.in_play(item.seat):
            yield {"type": "activate_unit", "unit_id": unit.id}
    elif kind == "activate_battlegroup":
        for group in sorted({str(u.extra["battlegroup"]) for u in state.in_play(item.seat)
                             if "battlegroup" in u.extra}):
            yield {"type": "activate_battlegroup", "battlegroup": group}
    elif kind == "declare_operation":
        yield {"type": "declare_operation", "hqs": []}
    elif kind == "set_supply":
        yield {"type": "set_supply", "unit_ids": list(item.units), "status": "in_supply"}
    for unit in units:
        yield from _for_unit(state, item, kind, unit)


def _for_unit(state: MatchState, item: Owed, kind: str, unit: Unit) -> Iterator[dict[str, Any]]:
    if kind == "split_unit":
        yield {"type": "split_unit", "unit_id": unit.id}
        yield {"type": "remove_unit", "unit_id": unit.id, "reason": "destroyed"}
    elif kind == "roll_morale":
        yield {"type": "roll_morale", "unit_id": unit.id}
    elif kind == "rule_roll":
        yield {"type": "rule_roll", "roll": ROLLS.get(item.rule, ""), "unit_id": unit.id}
    elif kind == "move_unit":
        for to in _nearby(unit):
            yield {"type": "move_unit", "unit_id": unit.id, "to": to}
        if "remove_unit" in item.done_by:
            yield {"type": "remove_unit", "unit_id": unit.id, "reason": "surrendered"}
    elif kind == "resolve_combat":
        enemies = _adjacent_enemies(state, unit)
        if enemies:
            yield {"type": "resolve_combat", "attackers": [unit.id], "defenders": enemies,
                   "odds": "1:1"}
    if kind in ("move_unit", "roll_dice", "rally_unit") and "roll_dice" in item.done_by:
        yield {"type": "roll_dice", "notation": "d6", "purpose": "it acts",
               "unit_ids": [unit.id]}


def discharge(state: MatchState, item: Owed, act: Act) -> dict[str, Any]:
    """Take the first body for `item` that `decide` accepts; the body taken."""
    refusals = []
    for body in bodies(state, item):
        try:
            act(item.seat, body)
        except DomainError as refused:
            refusals.append(f"{body['type']}: {refused}")
            continue
        return body
    raise AssertionError(f"nothing discharges {item}: {refusals}")


def settle(state_of: Callable[[], MatchState], ruleset: Ruleset, act: Act,
           limit: int = 200) -> list[dict[str, Any]]:
    """Discharge everything owed now (a result awaited after an attack is entered as "no
    effect"); the bodies taken, in order."""
    taken: list[dict[str, Any]] = []
    for _ in range(limit):
        state = state_of()
        if state.awaiting is not None:
            act(state.awaiting.by, {"type": "enter_result", "result": "no effect"})
            continue
        due = owed(state, ruleset)
        if not due:
            return taken
        taken.append(discharge(state, due[0], act))
    raise AssertionError(f"still owed after {limit} actions: {owed(state_of(), ruleset)}")

