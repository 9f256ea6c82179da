"""`decide(command, state, ruleset, context) -> [events]`: the validating entry point.

Checks the command against the state, the sequence of play and the ruleset, and returns the
events it causes, or raises a `DomainError` that names the rule and says what is allowed.
Time, the acting seat and the dice come in through `Context`: nothing here reads a clock or
draws a random number.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import REFEREE, Context, Emit, own_side, take
from domain.context import side as _side
from domain.context import unit as _unit
from domain.dice import DiceSpec, parse
from domain.errors import InvalidAction, MatchOver, NotYourTurn, OutOfSequence, UndoRefused
from domain.evolve import evolve
from domain.history import UndoRequest
from domain.rulesets import Ruleset
from domain.sequence import ANY, Phase, Step, following, start
from domain.state import Declared, MatchState, TurnMarker

__all__ = ["REFEREE", "Context", "decide", "decide_redo", "decide_undo", "decide_undo_answer",
           "next_marker"]

ALWAYS_ALLOWED = ("advance", "add_note", "end_match", "open_dispute", "record_roll")
RECORDS = ("add_note", "open_dispute")  # accepted even after the end or while a result waits


def decide(
    command: cmd.Command, state: MatchState, ruleset: Ruleset, context: Context
) -> list[ev.Event]:
    kind = getattr(command, "type", type(command).__name__)
    if state.outcome is not None and kind not in RECORDS:
        raise MatchOver("the match has ended; only notes and disputes can be added",
                        rule="core-end")
    step = ruleset.sequence.step(state.turn.step)
    if state.awaiting is not None and kind not in ("enter_result", "record_roll", "end_match",
                                                    *RECORDS):
        needed = "record_roll" if state.awaiting.declared else "enter_result"
        raise OutOfSequence(
            f"{state.awaiting.rule or 'core-results'}: first the result of "
            f"{state.awaiting.what} ({needed})", rule=state.awaiting.rule or "core-results",
            allowed=[needed, "add_note"])
    if kind not in ALWAYS_ALLOWED and ANY not in step.allows and kind not in step.allows:
        raise _out_of_step(kind, state, ruleset, step)
    if kind == "advance":
        _check_acting(step, state, context.actor, step.advanced_by or step.acting)
    elif kind not in RECORDS:
        _check_acting(step, state, context.actor, step.acting)
    _check_owner(command, state, context.actor)
    for check in ruleset.checks:
        check(command, state, context.actor)
    emit = Emit(context, state, evolve)
    procedure = ruleset.actions.get(kind)
    if procedure is not None:
        procedure(command, state, emit)
    else:
        _handle(command, state, ruleset, emit)
    if ruleset.react is not None and emit.events:
        ruleset.react(state, emit)
    return emit.events


def _out_of_step(kind: str, state: MatchState, ruleset: Ruleset, step: Step) -> OutOfSequence:
    """AA-3: units split only in the Clean-Up Split sub-phase; current step: Activation 4."""
    rule, where = ruleset.where.get(kind, (step.rule or "core-sequence", ""))
    repeats = any(isinstance(node, Phase) and (node.repeat_while or node.player_turns)
                  for node in ruleset.sequence.chain(state.turn.step))
    current = (step.title or step.id) + (f" {state.turn.run + 1}" if repeats else "")
    said = f"{rule}: {where}; current step: {current}" if where else (
        f"'{kind}' is not allowed in step '{state.turn.step}' ({current})")
    return OutOfSequence(said, rule=rule, allowed=sorted({*step.allows, *ALWAYS_ALLOWED}))


def _check_acting(step: Step, state: MatchState, actor: str, acting: str) -> None:
    if actor == REFEREE or acting == "any":
        return
    active = state.turn.active_side
    roles = state.options.get("roles")
    allowed: str | None
    if acting == "active":
        allowed = active
    elif acting == "inactive":
        allowed = None if actor == active else actor
    elif acting == REFEREE:
        allowed = None
    else:
        allowed = roles.get(acting) if isinstance(roles, dict) else None
    if actor != allowed:
        raise NotYourTurn(
            f"in step '{state.turn.step}' only the {acting} seat "
            + ("moves the turn marker on" if acting != step.acting else "acts")
            + (f" ({allowed})" if allowed else ""),
            rule=step.rule or "core-sequence",
            allowed=[x for x in (allowed, REFEREE) if x],
        )


def _check_owner(command: cmd.Command, state: MatchState, actor: str) -> None:
    if actor == REFEREE:
        return
    if isinstance(command, cmd.DeployUnit):
        side = command.unit.side
    elif isinstance(command, cmd.MoveUnit | cmd.SetStatus | cmd.SplitUnit | cmd.RallyUnit
                    | cmd.LoseStep | cmd.Fire):
        side = _unit(state, command.unit_id).side
    elif isinstance(command, cmd.RuleRoll) and command.unit_id is not None:
        side = _unit(state, command.unit_id, in_play=False).side
    else:
        return
    if side != actor:
        raise NotYourTurn(f"side '{actor}' acts only for its own units", rule="core-seats")


@singledispatch
def _handle(command: cmd.Command, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    raise InvalidAction(
        f"'{getattr(command, 'type', type(command).__name__)}' is a procedure of another "
        f"ruleset, not of {ruleset.title}", rule="core-actions")


@_handle.register
def _(command: cmd.DeployUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    spec = command.unit
    if spec.id in state.units:
        raise InvalidAction(f"unit id '{spec.id}' is taken", rule="core-units")
    _side(state, spec.side)
    emit(ev.UnitDeployed, unit=spec.to_unit())


@_handle.register
def _(command: cmd.MoveUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    emit(ev.UnitMoved, unit_id=unit.id, origin=unit.position, to=command.to)


@_handle.register
def _(command: cmd.SetStatus, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    to_set = tuple(sorted(set(command.set) - set(unit.status)))
    to_clear = tuple(sorted(set(command.clear) & set(unit.status)))
    if set(command.set) & set(command.clear):
        raise InvalidAction("a flag cannot be both set and cleared", rule="core-units")
    if not to_set and not to_clear:
        raise InvalidAction(
            f"unit '{unit.id}' already has that status ({', '.join(unit.status) or 'none'})",
            rule="core-units",
        )
    emit(ev.UnitStatusChanged, unit_id=unit.id, set=to_set, cleared=to_clear)


def _marker_target(state: MatchState, command: cmd.PlaceMarker | cmd.RemoveMarker) -> dict[str, int]:
    if (command.unit_id is None) == (command.location is None):
        raise InvalidAction("give exactly one of unit_id and location", rule="core-markers")
    if command.unit_id is not None:
        return _unit(state, command.unit_id).markers
    assert command.location is not None
    return state.location_markers.get(command.location, {})


@_handle.register
def _(command: cmd.PlaceMarker, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    _marker_target(state, command)
    emit(ev.MarkerPlaced, kind=command.kind, count=command.count,
         unit_id=command.unit_id, location=command.location)


@_handle.register
def _(command: cmd.RemoveMarker, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    present = _marker_target(state, command)
    take(present, {command.kind: command.count}, command.unit_id or command.location or "")
    emit(ev.MarkerRemoved, kind=command.kind, count=command.count,
         unit_id=command.unit_id, location=command.location)


@_handle.register
def _(command: cmd.RollDice, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    if command.rule is not None and command.rule in ruleset.automated_rules:
        raise InvalidAction(f"{command.rule} is rolled by the service with its own action "
                            f"(rule_roll: {', '.join(ruleset.rolls) or 'none'}; fire; ...); "
                            "leave 'rule' out of a roll of your own", rule=command.rule,
                            allowed=list(ruleset.rolls))
    spec = parse(command.notation)
    for unit_id in command.unit_ids:
        _unit(state, unit_id, in_play=False)
    if command.source == "server":
        if command.results is not None:
            raise InvalidAction("server dice take no results; use source 'table' to record "
                                "physical dice", rule="core-dice")
        roll_index = emit.roll_index
        emit(ev.DiceRolled, notation=spec.notation,
             **_faces(spec, emit.context.dice.roll(spec, roll_index)), purpose=command.purpose,
             source="server", roll_index=roll_index, unit_ids=tuple(command.unit_ids),
             rule=command.rule, success=command.success)
        return
    if command.results is not None:
        _check_table(spec, command.results)
    declared = emit(ev.RollDeclared, notation=spec.notation, purpose=command.purpose,
                    unit_ids=tuple(command.unit_ids), success=command.success,
                    rule=command.rule)
    if command.results is not None:
        _thrown(spec, command.results, emit, declared)


def _check_table(spec: DiceSpec, results: list[int]) -> None:
    if len(results) != spec.count:
        raise InvalidAction(f"table dice need {spec.count} result(s), one per die",
                            rule="core-dice")
    if not all(1 <= r <= spec.sides for r in results):
        raise InvalidAction(f"each result of a d{spec.sides} is 1 to {spec.sides}",
                            rule="core-dice")


def _faces(spec: DiceSpec, faces: list[int]) -> dict[str, Any]:
    return {"dice": tuple(faces), "modifier": spec.modifier,
            "total": sum(faces) + spec.modifier}


def _thrown(spec: DiceSpec, results: list[int], emit: Emit,
            declared: ev.RollDeclared | Declared) -> None:
    """The faces of table dice, answering their declaration."""
    emit(ev.DiceRolled, notation=spec.notation, **_faces(spec, results),
         purpose=declared.purpose, source="table", unit_ids=declared.unit_ids,
         rule=declared.rule, success=declared.success, declared=declared.version)


@_handle.register
def _(command: cmd.RecordRoll, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    declared = state.awaiting.declared if state.awaiting is not None else None
    if declared is None:
        raise InvalidAction("no table roll is declared: roll_dice with source 'table' first",
                            rule="core-dice")
    spec = parse(declared.notation)
    _check_table(spec, command.results)
    _thrown(spec, command.results, emit, declared)


@_handle.register
def _(command: cmd.SplitUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    parent = _unit(state, command.unit_id)
    if command.new_unit_id in state.units:
        raise InvalidAction(f"unit id '{command.new_unit_id}' is taken", rule="core-units")
    if command.figures is None:
        raise InvalidAction("say how many figures split off ('figures')", rule="core-split")
    figures = parent.figures or 0
    if not 1 <= command.figures < figures:
        raise InvalidAction(
            f"unit '{parent.id}' has {figures} figure(s); split off 1 to {max(figures - 1, 0)}",
            rule="core-split",
        )
    take(parent.markers, dict(command.markers), parent.id)
    new_unit = parent.model_copy(update={
        "id": command.new_unit_id,
        "name": f"{parent.name} ({command.new_unit_id})",
        "figures": command.figures,
        "markers": dict(command.markers),
        "position": command.position or parent.position,
    })
    emit(ev.UnitSplit, unit_id=parent.id, new_unit=new_unit)


@_handle.register
def _(command: cmd.RallyUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    cleared = tuple(sorted(set(command.clear) & set(unit.status)))
    take(unit.markers, dict(command.remove_markers), unit.id)
    if not cleared and not command.remove_markers:
        raise InvalidAction(
            f"unit '{unit.id}' has nothing to rally from (status: "
            f"{', '.join(unit.status) or 'none'})", rule="core-rally")
    emit(ev.UnitRallied, unit_id=unit.id, cleared=cleared,
         markers_removed=dict(command.remove_markers))


@_handle.register
def _(command: cmd.RemoveUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    emit(ev.UnitRemoved, unit_id=unit.id, reason=command.reason, to_box=command.to_box)


@_handle.register
def _(command: cmd.SetTrack, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    ruleset.check_track(command.name, command.value)
    emit(ev.TrackSet, name=command.name, value=command.value)


@_handle.register
def _(command: cmd.RuleRoll, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    roll = ruleset.rolls.get(command.roll)
    if roll is None:
        raise InvalidAction(f"{ruleset.title} has no roll '{command.roll}'", rule="core-rolls",
                            allowed=sorted(ruleset.rolls))
    if state.turn.step not in roll.steps:
        raise OutOfSequence(f"{roll.rule}: '{command.roll}' is rolled only in "
                            f"{' or '.join(roll.steps)}; current step: {state.turn.step}",
                            rule=roll.rule, allowed=list(roll.steps))
    roll.procedure(command, state, emit)


@_handle.register
def _(command: cmd.EnterResult, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    awaiting = state.awaiting
    if awaiting is None or awaiting.declared is not None:
        raise InvalidAction("no roll is waiting for a result read from a table" + (
            " (declared table dice are given with record_roll)" if awaiting else ""),
            rule="core-results")
    if emit.context.actor not in (REFEREE, awaiting.by):
        raise NotYourTurn(f"the result of {awaiting.what} is entered by {awaiting.by}",
                          rule=awaiting.rule or "core-results", allowed=[awaiting.by, REFEREE])
    emit(ev.ResultRecorded, of=awaiting.what, result=command.result, failed=command.failed,
         rule=awaiting.rule)


@_handle.register
def _(command: cmd.LoseStep, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    if not unit.steps:
        raise InvalidAction(f"unit '{unit.id}' has no steps to lose", rule="core-steps")
    emit(ev.StepLost, unit_id=unit.id, steps=unit.steps - 1)
    if unit.steps == 1:
        emit(ev.UnitRemoved, unit_id=unit.id, reason="eliminated", rule="core-steps")


@_handle.register
def _(command: cmd.ScoreVP, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    emit(ev.VictoryPointsScored, side=_side(state, command.side), points=command.points,
         reason=command.reason)


@_handle.register
def _(command: cmd.Advance, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    marker = next_marker(state, ruleset, command.to)
    if marker.turn != state.turn.turn:
        if ruleset.end_of_turn is not None:
            ruleset.end_of_turn(state, emit)
            if emit.state.outcome is not None:
                return
        if ruleset.turn_order is not None:  # NO-5: the order is for one turn only
            fresh = start(ruleset.sequence, ruleset.turn_order, marker.turn)
            marker = fresh if fresh.step == marker.step else marker.model_copy(
                update={"initiative": ruleset.turn_order})
        emit(ev.TurnAdvanced, marker=marker)
    else:
        emit(ev.PhaseAdvanced, origin=state.turn.step, marker=marker)
    arrive = ruleset.on_enter.get(marker.step)
    if arrive is not None:
        arrive(emit.state, emit)


def next_marker(state: MatchState, ruleset: Ruleset, to: str | None = None) -> TurnMarker:
    """Where `advance` takes the marker: one step on, or on to step `to` (this turn or the
    next) passing only optional steps. Leaving a step needs its `leave_when` to hold."""
    seq = ruleset.sequence
    if to is not None and to not in seq.steps():
        raise InvalidAction(f"there is no step '{to}'", rule="core-sequence", allowed=seq.steps())
    marker = state.turn
    seen: set[tuple[int, str, str | None]] = set()
    while True:
        # The state does not change during one advance, so meeting a step again with the
        # same active side means a repeating phase would go round for ever.
        place = (marker.turn, marker.step, marker.active_side)
        if place in seen:
            raise OutOfSequence(
                f"step '{to}' cannot be reached: the phase around '{marker.step}' repeats",
                rule=seq.step(marker.step).rule or "core-sequence", allowed=[marker.step],
            )
        seen.add(place)
        step = seq.step(marker.step)
        if step.leave_when and not ruleset.conditions[step.leave_when](state):
            waiting = "; ".join(ruleset.expects(state)) if ruleset.expects else ""
            raise OutOfSequence(
                f"step '{marker.step}' cannot be left yet ({step.leave_when.replace('_', ' ')})"
                + (f": {waiting}" if waiting else ""),
                rule=step.rule or "core-sequence",
            )
        marker = following(seq, marker, state, ruleset.conditions)
        if to is None or marker.step == to:
            return marker
        if not seq.step(marker.step).optional or marker.turn > state.turn.turn + 1:
            raise OutOfSequence(
                f"cannot skip required step '{marker.step}' on the way to '{to}'",
                rule=seq.step(marker.step).rule or "core-sequence",
                allowed=[marker.step],
            )


@_handle.register
def _(command: cmd.ActivateUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    if "activated" in unit.status:
        raise InvalidAction(f"unit '{unit.id}' has already activated this turn",
                            rule="core-activation")
    emit(ev.UnitsActivated, side=unit.side, unit_ids=(unit.id,), run=state.turn.run)


@_handle.register
def _(command: cmd.DrawCards, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    deck = state.decks.get(side, ())
    count = command.count if command.count is not None else ruleset.hand_size(state, side) - len(
        state.hands.get(side, ()))
    if count <= 0:
        raise InvalidAction(f"side '{side}' already holds a full hand", rule="core-cards")
    if not deck:
        raise InvalidAction(f"side '{side}' has no cards left to draw", rule="core-cards")
    cards = deck[:count]
    emit(ev.CardsDrawn, side=side, cards=cards, count=len(cards))


@_handle.register
def _(command: cmd.DiscardCards, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    _in_hand(state, side, command.cards)
    emit(ev.CardsDiscarded, side=side, cards=tuple(command.cards), count=len(command.cards))


@_handle.register
def _(command: cmd.PlayCard, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    _in_hand(state, side, [command.card])
    emit(ev.CardPlayed, side=side, card=command.card)


def _in_hand(state: MatchState, side: str, cards: list[str]) -> None:
    hand = list(state.hands.get(side, ()))
    for card in cards:
        if card not in hand:
            raise InvalidAction(f"'{card}' is not in your hand", rule="core-cards",
                                allowed=sorted(set(state.hands.get(side, ()))))
        hand.remove(card)


@_handle.register
def _(command: cmd.ShuffleDeck, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    cards = (*state.decks.get(side, ()), *state.hands.get(side, ()),
             *state.discards.get(side, ()))
    if not cards:
        raise InvalidAction(f"side '{side}' has no cards", rule="core-cards")
    index = emit.roll_index
    order = emit.context.dice.shuffle(sorted(cards), f"shuffle:{index}")
    emit(ev.DeckShuffled, side=side, order=tuple(order), roll_index=index)


@_handle.register
def _(command: cmd.CutDeck, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    deck = state.decks.get(_side(state, command.side), ())
    if emit.context.actor == command.side:
        raise NotYourTurn("a deck is cut by the opponent, not by its owner", rule="core-cards")
    if not 1 <= command.at < len(deck):
        raise InvalidAction(f"cut side '{command.side}''s deck of {len(deck)} cards at 1 to "
                            f"{max(len(deck) - 1, 0)}", rule="core-cards")
    emit(ev.DeckCut, side=command.side, by=emit.context.actor, at=command.at)


@_handle.register
def _(command: cmd.AddNote, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    if command.about_version is not None and command.about_version > emit.context.version:
        raise InvalidAction(f"version {command.about_version} does not exist yet",
                            rule="core-notes")
    emit(ev.NoteAdded, text=command.text, about_version=command.about_version,
         private=command.private)


@_handle.register
def _(command: cmd.OpenDispute, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    upto = command.upto_version
    if max(command.about_version, upto or 0) > emit.context.version or (
            upto is not None and upto < command.about_version):
        raise InvalidAction(f"a dispute is about versions 1 to {emit.context.version}, "
                            "`upto_version` not before `about_version`", rule="core-disputes")
    emit(ev.DisputeOpened, about_version=command.about_version, upto_version=upto,
         text=command.text)


@_handle.register
def _(command: cmd.EndMatch, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    if command.winner is not None:
        _side(state, command.winner)
    emit(ev.MatchEnded, winner=command.winner, reason=command.reason)


def decide_undo(
    state: MatchState, state_at: Callable[[int], MatchState], context: Context,
    *, to: int | None = None, actions: int = 1, reach: int = 1,
    pending: UndoRequest | None = None,
) -> list[ev.Event]:
    """Undo the last `actions` actions, or back to version `to`. Back to `reach` (the
    acting seat's own actions since the last barrier: `history.undo_reach`) the undo is
    immediate; further back it becomes an `UndoRequested` the other sides answer. The
    referee's undo and any undo in a casual match are immediate."""
    if state.outcome is not None:
        raise MatchOver("the match has ended; it can no longer be undone", rule="core-undo")
    if to is None:
        target, earlier = context.version, state
        for undone in range(actions):
            if earlier.last_command is None:
                raise UndoRefused(f"only {undone} action(s) can be undone", rule="core-undo")
            target = earlier.action_base
            earlier = state_at(target)
    else:
        if not 1 <= to < context.version:
            raise UndoRefused(f"undo to a version from 1 to {context.version - 1}",
                              rule="core-undo")
        target, earlier = to, state_at(to)
    emit = Emit(context, state)
    if state.casual or context.actor == REFEREE or target >= reach:
        emit(ev.ActionsUndone, to=target, resulting_turn=earlier.turn.turn, rule="core-undo")
        return emit.events
    if pending is not None:
        raise UndoRefused(f"the undo {pending.by} asked for (version {pending.version}) waits "
                          "for an answer first", rule="core-undo")
    emit(ev.UndoRequested, to=target, resulting_turn=earlier.turn.turn, rule="core-undo")
    return emit.events


def decide_undo_answer(
    state: MatchState, pending: UndoRequest | None, context: Context, *, accept: bool,
    reason: str = "",
) -> list[ev.Event]:
    """Another side answers a pending undo request; when every other side has accepted,
    or the referee accepts (forcing it), the undo is made. The referee may also refuse."""
    if pending is None:
        raise UndoRefused("no undo request is waiting (a new action lets it lapse)",
                          rule="core-undo")
    actor = context.actor
    others = [side for side in state.side_ids() if side != pending.by]
    if actor == pending.by:
        raise NotYourTurn("the other side(s) answer your undo request", rule="core-undo",
                          allowed=[*others, REFEREE])
    if actor in pending.accepted:
        raise UndoRefused("you have accepted this request already", rule="core-undo")
    emit = Emit(context, state)
    if not accept:
        emit(ev.UndoDeclined, request=pending.version, reason=reason, rule="core-undo")
        return emit.events
    emit(ev.UndoAccepted, request=pending.version, rule="core-undo")
    if actor == REFEREE or set(others) <= {*pending.accepted, actor}:
        emit(ev.ActionsUndone, to=pending.to, resulting_turn=pending.resulting_turn,
             rule="core-undo")
    return emit.events


def decide_redo(
    state: MatchState, redo: tuple[int, ...], state_at: Callable[[int], MatchState],
    context: Context,
) -> list[ev.Event]:
    """Reverse the latest undo not yet reversed (a new action clears what can be redone)."""
    if not redo:
        raise UndoRefused("there is nothing to redo", rule="core-redo")
    target = redo[-1] - 1
    emit = Emit(context, state)
    emit(ev.ActionsRedone, to=target, reverses=redo[-1],
         resulting_turn=state_at(target).turn.turn, rule="core-redo")
    return emit.events
