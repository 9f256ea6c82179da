"""`legal_actions(state, ruleset, seat)`: what a seat can do now, derived from `decide`.

For every action the current step allows (and those allowed at any step) the generators
(`legal_units`, `legal_records`, `legal_games`) propose candidate commands drawn from the
state: the units in play, the sides, the seat's own hand, the rolls of the step, the tracks
the game keeps. Each is decided as the seat, with stand-in dice (`legal_probe`); what
`decide` accepts is offered, with its title and rule id in the game's words, and what it
refuses is not. There is no second copy of the rules here: `decide` is the one source of
truth, and the refusal it gives to `advance` is the reason the marker cannot move on.
`offered` says whether a body is one of the choices (docs/legal-actions.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from domain import events as ev
from domain import legal_games as games
from domain import legal_records as records
from domain import legal_units as units
from domain.authority import waiting_for
from domain.commands import ACTION_TYPES
from domain.context import REFEREE
from domain.decide import ALWAYS_ALLOWED
from domain.errors import DomainError
from domain.legal_model import Choice, Input, LegalAction, LegalActions, NextStep
from domain.legal_own import own_ids
from domain.legal_probe import ACTIONS, COMMANDS, Probe
from domain.legal_units import Offers
from domain.legal_words import in_words, side_name, title
from domain.rulesets import Ruleset
from domain.sequence import ANY
from domain.state import MatchState

__all__ = ["legal_actions", "offered"]

GENERATORS: dict[str, Callable[[Probe], Offers]] = {
    "deploy_unit": units.deploy, "move_unit": units.move, "set_status": units.status,
    "place_marker": units.place_marker, "remove_marker": units.remove_marker,
    "split_unit": units.split, "rally_unit": units.rally, "remove_unit": units.remove_unit,
    "lose_step": units.lose_step, "gain_step": units.gain_step,
    "activate_unit": units.activate, "roll_morale": units.morale,
    "roll_dice": records.roll_dice, "record_roll": records.record_roll,
    "enter_result": records.enter_result, "set_track": records.set_track,
    "score_vp": records.score_vp, "add_note": records.add_note,
    "open_dispute": records.open_dispute, "end_match": records.end_match,
    "concede": records.concede, "reopen_match": records.reopen_match,
    "roll_initiative": games.roll_initiative, "pass_initiative": games.pass_initiative,
    "activate_battlegroup": games.activate_battlegroup, "draw_cards": games.draw_cards,
    "discard_cards": games.discard_cards, "play_card": games.play_card,
    "shuffle_deck": games.shuffle_deck, "cut_deck": games.cut_deck,
    "rule_roll": games.rule_roll, "fire": games.fire, "resolve_combat": games.resolve_combat,
    "announce_reinforcements": games.announce_reinforcements,
    "call_artillery": games.call_artillery, "declare_operation": games.declare_operation,
    "set_supply": games.set_supply,
}
SPECTATOR = "spectators watch; they do not act"


def legal_actions(state: MatchState, ruleset: Ruleset, seat: str, *,
                  version: int = 1) -> LegalActions:
    """What `seat` (a side, or the referee) may do now, at `version` of the match."""
    here = {"seat": seat, "turn": state.turn.turn, "step": state.turn.step}
    if seat != REFEREE and seat not in state.side_ids():
        return LegalActions(**here, reason=SPECTATOR,
                            advance=NextStep(legal=False, title="Next step", reason=SPECTATOR))
    probe = Probe(state, ruleset, seat, version)
    step = ruleset.sequence.step(state.turn.step)
    groups: dict[str, list[Choice]] = {}
    for kind in _kinds(step.allows):
        for key, alternatives in GENERATORS[kind](probe):
            choice = probe.choose(alternatives)
            if choice is not None:
                groups.setdefault(key, []).append(choice)
    actions = tuple(_action(key, choices, probe) for key, choices in groups.items())
    advance = next_step(probe)
    own = own_ids(step.allows, actions, advance.legal)
    actions = tuple(a.model_copy(update={"own": a.id in own}) for a in actions)
    reason = advance.reason if state.outcome is not None else None
    return LegalActions(**here, reason=reason, actions=actions, advance=advance)


def _kinds(allows: tuple[str, ...]) -> list[str]:
    """The action types to try: the step's own first (in its order), then the others it
    allows, then those allowed at any step."""
    named = [k for k in allows if k in GENERATORS]
    rest = [k for k in ACTION_TYPES if k in GENERATORS and k not in named and k not in
            ALWAYS_ALLOWED and ANY in allows]
    return [*named, *rest, *(k for k in ACTION_TYPES if k in ALWAYS_ALLOWED and k in GENERATORS)]


def _action(key: str, choices: list[Choice], probe: Probe) -> LegalAction:
    kind, _, roll = key.partition(":")
    said, rule = title(kind, probe.state, probe.ruleset, roll or None)
    if kind == "end_match" and probe.side is not None:
        said = said.replace("End the match", "Propose the end of the match")
    return LegalAction(id=key, type=kind, title=said, rule=rule, choices=tuple(choices))


def next_step(probe: Probe) -> NextStep:
    """Whether the seat may `advance`, where it leads, and the later steps it may go on to;
    or `decide`'s refusal, with names for ids."""
    state, seq = probe.state, probe.ruleset.sequence
    step = seq.step(state.turn.step)
    events = probe.decide({"type": "advance"})
    done = step.shared and probe.side is not None
    if isinstance(events, DomainError):
        return NextStep(legal=False, title="Done with this step" if done else "Next step",
                        reason=in_words(events.detail, state, seq), rule=events.rule or step.rule)
    said = _leads_to(events, probe)
    skips = []
    goes = _marker(events)
    for path in seq.steps() if goes is not None and seq.step(goes).optional else ():
        # (a skip passes only optional steps: the first it would pass is the next one)
        if path in (state.turn.step, goes):
            continue
        body = {"type": "advance", "to": path}
        went = probe.decide(body)
        if not isinstance(went, DomainError):
            skips.append(Choice(label=f"On to {_step_title(probe, path)}", body=body))
    return NextStep(legal=True, title=said, to=goes, rule=step.rule, skips=tuple(skips))


def _marker(events: list[ev.Event]) -> str | None:
    moved = [e.marker.step for e in events if isinstance(e, ev.PhaseAdvanced | ev.TurnAdvanced)]
    return moved[0] if moved else None


def _step_title(probe: Probe, path: str) -> str:
    found = probe.ruleset.sequence.step(path)
    return f"{found.title or found.id} ({found.rule})" if found.rule else (found.title or found.id)


def _leads_to(events: list[ev.Event], probe: Probe) -> str:
    state = probe.state
    if any(isinstance(e, ev.SideDone) for e in events):
        others = [side_name(state, s) for s in waiting_for(probe.ruleset.sequence, state)
                  if s != probe.seat]
        return "Done with this step" + (f" (then waiting for {', '.join(others)})"
                                        if others else "")
    if any(isinstance(e, ev.MatchEnded) for e in events):
        return "End of the last turn: the match ends"
    # where the marker comes to rest (the service may move it on at once: WC-9)
    moved = [e.marker for e in events if isinstance(e, ev.PhaseAdvanced | ev.TurnAdvanced)]
    if not moved:
        return "Next step"
    said = _step_title(probe, moved[-1].step)
    return (f"Next turn: turn {moved[-1].turn}, {said}" if moved[-1].turn != state.turn.turn
            else f"Next step: {said}")


# ---- whether a body is offered ----------------------------------------------------------------

_MISSING = object()


def offered(legal: LegalActions, body: dict[str, Any]) -> bool:
    """Whether `body` is one of the choices offered: some choice's body (or its body with table
    dice) on every field but the choice's inputs, and each input within what it takes."""
    try:
        command = ACTIONS.validate_python(body)
    except ValidationError:
        return False
    kind = command.type
    wanted = _normal(kind, command.model_dump(mode="json", exclude_defaults=True))
    if kind == "advance":
        return (legal.advance.legal and wanted.get("to") in (None, legal.advance.to)) or any(
            _fits(c.body, c.inputs, wanted) for c in legal.advance.skips)
    for action in legal.actions:
        if action.type != kind:
            continue
        for choice in action.choices:
            if _fits(_normal(kind, choice.body), choice.inputs, wanted):
                return True
            table = choice.table
            if table is not None and _fits(_normal(kind, table.body), (
                    *choice.inputs, Input(name=table.field, label="", kind="dice")), wanted):
                return True
    return False


def _normal(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body without fields at their defaults (as a client may send them or not)."""
    model = COMMANDS[kind]
    out: dict[str, Any] = {"type": kind}
    for name, value in body.items():
        field = model.model_fields.get(name)
        if field is not None and not field.is_required() and value == field.get_default(
                call_default_factory=True):
            continue
        out[name] = value
    return out


def _flat(body: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in body.items():
        if isinstance(value, dict) and value:
            out |= _flat(value, f"{prefix}{name}.")
        else:
            out[f"{prefix}{name}"] = value
    return out


def _fits(base: dict[str, Any], inputs: tuple[Input, ...], body: dict[str, Any]) -> bool:
    def owner(key: str) -> Input | None:
        return next((i for i in inputs if key == i.name or key.startswith(f"{i.name}.")), None)

    fixed, given = _flat(base), _flat(body)
    for key, value in fixed.items():
        if owner(key) is None and given.get(key, _MISSING) != value:
            return False
    for key, value in given.items():
        if key in fixed and owner(key) is None:
            continue
        found = owner(key)
        if found is None or not _within(found, key, value):
            return False
    return True


def _within(given: Input, key: str, value: Any) -> bool:
    if key != given.name:
        return True  # inside an object the input leaves free
    if given.values is not None and not given.open:
        allowed = [o.value for o in given.values]
        items = value if given.kind == "choices" and isinstance(value, list) else [value]
        if not all(item in allowed for item in items):
            return False
    if given.kind == "number" and isinstance(value, int):
        low = given.minimum if given.minimum is not None else value
        high = given.maximum if given.maximum is not None else value
        return low <= value <= high
    return True
