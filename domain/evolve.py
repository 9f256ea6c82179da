"""`evolve(state, event) -> state`: pure, total, deterministic, and it never validates.

`decide` has already checked everything; evolve trusts the event (python-chess's `push`).
Undo, redo and seats are not game state: `domain.history` handles them.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from domain import events as ev
from domain import evolve_cards as cards
from domain.evolve_cards import deal, noted
from domain.rulesets import get_ruleset
from domain.sequence import start
from domain.state import (
    TURN_FLAGS,
    Awaiting,
    Declared,
    DiceLog,
    DiceRoll,
    EndProposal,
    MatchState,
    Outcome,
    Position,
    Unit,
    VictoryPoints,
    activation_fact,
    group_fact,
    operation_fact,
    step_fact,
)

RECENT_ROLLS = 10


def initial_state(created: ev.MatchCreated) -> MatchState:
    """The state right after `MatchCreated` (version 1): the scenario's units on the table
    and each side's deck as `deal` gives it."""
    ruleset = get_ruleset(created.ruleset, created.options, created.ruleset_hash)
    order = ruleset.turn_order or tuple(side.id for side in created.sides)
    return MatchState(
        units={unit.id: unit for unit in created.units},
        decks=deal(created),
        unknown_decks=tuple(sorted(created.decks)) if created.dealt is None and not (
            created.card_seed if created.card_seed is not None else created.dice_seed) else (),
        ruleset=created.ruleset,
        ruleset_version=created.ruleset_version,
        ruleset_hash=created.ruleset_hash,
        scenario=created.scenario,
        casual=created.casual,
        options=created.options,
        sides=created.sides,
        vp={side.id: VictoryPoints() for side in created.sides},
        turn=start(ruleset.sequence, order),
    )


def evolve(state: MatchState, event: ev.Event) -> MatchState:
    new = _apply(event, state)
    if event.command_id != state.last_command:
        new = new.model_copy(
            update={"action_base": event.originator_version - 1, "last_command": event.command_id}
        )
    return new


@singledispatch
def _apply(event: ev.Event, state: MatchState) -> MatchState:
    return state  # events without effect on the game state (e.g. a seat joining)


def _with_unit(state: MatchState, unit: Unit) -> MatchState:
    return state.model_copy(update={"units": {**state.units, unit.id: unit}})


def _here(state: MatchState, *facts: str) -> dict[str, Any]:
    """The update that notes `facts` in this run of this step (`MatchState.this_step`)."""
    return {"this_step": (*state.this_step, *facts)}


def _update_unit(state: MatchState, unit_id: str, **changes: Any) -> MatchState:
    return _with_unit(state, state.units[unit_id].model_copy(update=changes))


def _add_counts(counts: dict[str, int], kind: str, delta: int) -> dict[str, int]:
    value = counts.get(kind, 0) + delta
    out = {k: v for k, v in counts.items() if k != kind}
    if value > 0:
        out[kind] = value
    return out


@_apply.register
def _(event: ev.UnitDeployed, state: MatchState) -> MatchState:
    return _with_unit(state, event.unit)


@_apply.register
def _(event: ev.UnitMoved, state: MatchState) -> MatchState:
    moved = _update_unit(state, event.unit_id, position=event.to)
    return moved.model_copy(update=_here(state, step_fact("moved", event.unit_id)))


@_apply.register
def _(event: ev.UnitStatusChanged, state: MatchState) -> MatchState:
    flags = (set(state.units[event.unit_id].status) | set(event.set)) - set(event.cleared)
    return _update_unit(state, event.unit_id, status=tuple(sorted(flags)))


def _markers(state: MatchState, event: ev.MarkerPlaced | ev.MarkerRemoved, sign: int) -> MatchState:
    delta = sign * event.count
    if event.unit_id is not None:
        unit = state.units[event.unit_id]
        return _update_unit(
            state, unit.id, markers=_add_counts(unit.markers, event.kind, delta)
        )
    assert event.location is not None
    here = _add_counts(state.location_markers.get(event.location, {}), event.kind, delta)
    places = {k: v for k, v in state.location_markers.items() if k != event.location}
    if here:
        places[event.location] = here
    return state.model_copy(update={"location_markers": places})


@_apply.register
def _(event: ev.MarkerPlaced, state: MatchState) -> MatchState:
    return _markers(state, event, +1)


@_apply.register
def _(event: ev.MarkerRemoved, state: MatchState) -> MatchState:
    return _markers(state, event, -1)


@_apply.register
def _(event: ev.DiceRolled, state: MatchState) -> MatchState:
    roll = DiceRoll(
        version=event.originator_version,
        roller=event.actor,
        notation=event.notation,
        dice=event.dice,
        total=event.total,
        purpose=event.purpose,
        source=event.source,
    )
    if event.replaces is None:
        dice = DiceLog(count=state.dice.count + 1,
                       recent=(*state.dice.recent, roll)[-RECENT_ROLLS:])
    else:  # made again on a ruling: the new roll takes the old one's place
        kept = tuple(r for r in state.dice.recent if r.version != event.replaces)
        dice = DiceLog(count=state.dice.count, recent=(*kept, roll)[-RECENT_ROLLS:])
    update: dict[str, Any] = {"dice": dice}
    if event.rule is not None and event.unit_ids and event.replaces is None:
        update.update(noted(state, *(f"{event.rule}:{unit}" for unit in event.unit_ids)))
    if event.replaces is None:  # a roll made in this step, and the units it names
        update.update(_here(state, step_fact("rolled"), *(
            step_fact("rolled", unit) for unit in event.unit_ids)))
    if event.awaits is not None:
        update["awaiting"] = Awaiting(what=event.awaits, rule=event.rule, by=event.actor)
    elif event.declared is not None:
        update["awaiting"] = None  # the declared table dice are thrown
    return state.model_copy(update=update)


@_apply.register
def _(event: ev.RollDeclared, state: MatchState) -> MatchState:
    declared = Declared(version=event.originator_version, notation=event.notation,
                        purpose=event.purpose, unit_ids=event.unit_ids, success=event.success,
                        rule=event.rule, replaces=event.replaces, modifier=event.modifier,
                        awaits=event.awaits)
    return state.model_copy(update={"awaiting": Awaiting(
        what=f"the table dice declared at version {declared.version} ({event.purpose})",
        rule=event.rule, by=event.actor, declared=declared)})


@_apply.register
def _(event: ev.ResultRecorded, state: MatchState) -> MatchState:
    facts = (f"failed:{event.rule}:{state.turn.active_side}",) if event.failed else ()
    waiting = state.awaiting if state.awaiting is None or state.awaiting.what != event.of else None
    return state.model_copy(update={"awaiting": waiting, **noted(state, *facts)})


@_apply.register
def _(event: ev.ReinforcementsAnnounced, state: MatchState) -> MatchState:
    units = {**state.units, **{
        uid: state.units[uid].model_copy(update={
            "extra": {**state.units[uid].extra, "entry": event.entry}})
        for uid in event.unit_ids}}
    return state.model_copy(update={"units": units})


@_apply.register
def _(event: ev.OperationDeclared, state: MatchState) -> MatchState:
    return state.model_copy(update={
        "turn": state.turn.model_copy(update={"initiative": event.order}),
        **noted(state, f"operations:{event.side}", *map(operation_fact, event.hqs))})


@_apply.register
def _(event: ev.StepLost, state: MatchState) -> MatchState:
    return _update_unit(state, event.unit_id, steps=event.steps)


@_apply.register
def _(event: ev.StepGained, state: MatchState) -> MatchState:
    return _update_unit(state, event.unit_id, steps=event.steps)


@_apply.register
def _(event: ev.UnitSplit, state: MatchState) -> MatchState:
    parent = state.units[event.unit_id]
    markers = parent.markers
    for kind, count in event.new_unit.markers.items():
        markers = _add_counts(markers, kind, -count)
    figures = (parent.figures or 0) - (event.new_unit.figures or 0)
    state = _update_unit(state, parent.id, figures=figures, markers=markers)
    return _with_unit(state, event.new_unit)


@_apply.register
def _(event: ev.UnitRallied, state: MatchState) -> MatchState:
    unit = state.units[event.unit_id]
    markers = unit.markers
    for kind, count in event.markers_removed.items():
        markers = _add_counts(markers, kind, -count)
    status = tuple(s for s in unit.status if s not in event.cleared)
    rallied = _update_unit(state, unit.id, status=status, markers=markers)
    return rallied.model_copy(update=_here(state, step_fact("rallied", unit.id)))


@_apply.register
def _(event: ev.CombatDeclared, state: MatchState) -> MatchState:
    return state.model_copy(update=_here(
        state, *(step_fact("attacked", unit) for unit in event.attackers),
        *(step_fact("defended", unit) for unit in event.defenders)))


@_apply.register
def _(event: ev.UnitRemoved, state: MatchState) -> MatchState:
    return _update_unit(
        state, event.unit_id, removed=event.reason, position=Position(box=event.to_box)
    )


@_apply.register
def _(event: ev.TrackSet, state: MatchState) -> MatchState:
    return state.model_copy(update={"tracks": {**state.tracks, event.name: event.value}})


@_apply.register
def _(event: ev.VictoryPointsScored, state: MatchState) -> MatchState:
    track = state.vp.get(event.side, VictoryPoints())
    points = track.points + event.points
    track = VictoryPoints(points=points, by_turn={**track.by_turn, state.turn.turn: points})
    return state.model_copy(update={"vp": {**state.vp, event.side: track}})


@_apply.register
def _(event: ev.PhaseAdvanced, state: MatchState) -> MatchState:
    return state.model_copy(update={"turn": event.marker, "this_step": ()})


@_apply.register
def _(event: ev.SideDone, state: MatchState) -> MatchState:
    turn = state.turn.model_copy(update={"done": (*state.turn.done, event.side)})
    return state.model_copy(update={"turn": turn})


@_apply.register
def _(event: ev.TurnAdvanced, state: MatchState) -> MatchState:
    """A new turn: what lasted for the turn ends (activations, morale rolled, flags)."""
    units = {uid: u.model_copy(update={"status": tuple(f for f in u.status
                                                       if f not in TURN_FLAGS)})
             if set(u.status) & TURN_FLAGS else u for uid, u in state.units.items()}
    return state.model_copy(update={"turn": event.marker, "units": units, "this_turn": (),
                                    "this_step": (),
                                    "discards": {}, "discarded": {}, "passing": ()})


@_apply.register
def _(event: ev.StandingPassStarted, state: MatchState) -> MatchState:
    return state.model_copy(update={"passing": (*state.passing, event.side)})


@_apply.register
def _(event: ev.StandingPassEnded, state: MatchState) -> MatchState:
    return state.model_copy(update={"passing": tuple(s for s in state.passing
                                                     if s != event.side)})


@_apply.register
def _(event: ev.UnitsActivated, state: MatchState) -> MatchState:
    units = dict(state.units)
    for unit_id in event.unit_ids:
        unit = units[unit_id]
        units[unit_id] = unit.model_copy(
            update={"status": tuple(sorted({*unit.status, "activated"}))})
    facts = [activation_fact(event.run, event.side)]
    if event.group is not None:
        facts.append(group_fact(event.side, event.group))
    return state.model_copy(update={"units": units, **noted(state, *facts)})


@_apply.register
def _(event: ev.InitiativeRolled, state: MatchState) -> MatchState:
    settled = all(len(group) == 1 for group in event.ranking)
    if not settled:
        return state.model_copy(update={"initiative_groups": event.ranking})
    order = tuple(group[0] for group in event.ranking)
    return state.model_copy(update={
        "initiative_groups": (), "turn": state.turn.model_copy(update={"initiative": order}),
        **noted(state, "initiative")})


@_apply.register
def _(event: ev.InitiativePassed, state: MatchState) -> MatchState:
    return state.model_copy(update={
        "turn": state.turn.model_copy(update={"initiative": event.order}),
        **noted(state, "initiative_passed")})


_apply.register(ev.CardsDrawn)(cards.drawn)
_apply.register(ev.CardsDiscarded)(cards.discarded)
_apply.register(ev.CardPlayed)(cards.played)
_apply.register(ev.DeckShuffled)(cards.shuffled)
_apply.register(ev.DeckCut)(cards.cut)


@_apply.register
def _(event: ev.NoteAdded, state: MatchState) -> MatchState:
    return state.model_copy(update={"notes": state.notes + 1})


@_apply.register
def _(event: ev.MatchEnded, state: MatchState) -> MatchState:
    return state.model_copy(update={"outcome": Outcome(winner=event.winner, reason=event.reason),
                                    "end_proposal": None, "passing": ()})


@_apply.register
def _(event: ev.MatchEndProposed, state: MatchState) -> MatchState:
    outcome = Outcome(winner=event.winner, reason=event.reason)
    proposal = state.end_proposal
    agreed = (*proposal.agreed, event.actor) if proposal and proposal.outcome == outcome else (
        event.actor,)
    return state.model_copy(update={"end_proposal": EndProposal(outcome=outcome, agreed=agreed)})


@_apply.register
def _(event: ev.MatchReopened, state: MatchState) -> MatchState:
    return state.model_copy(update={"outcome": None})
