"""A referee's ruling that orders a roll made again (docs/disputes.md): which rolls can be,
and the events that make it again, for the roll's owner.

The new roll takes the old one's place in the effective history (`DiceRolled.replaces`: the
dice log, the board's last roll, the statistics); the old one stays in the log. Server dice
are rolled at once from the match's dice source, with the next roll index; table dice are
declared for the roll's owner, and the match waits for them (`record_roll`). The new roll
keeps the old one's notation, modifier, purpose, units and rule, and waits for its result
to be read where the old one did. The events are the owner's roll (its `actor`), in the
ruling's action, right after the `DisputeRuled` that orders it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from domain import events as ev
from domain.context import Context, Emit
from domain.dice import parse
from domain.errors import InvalidAction, MatchOver
from domain.rulesets import Ruleset
from domain.state import MatchState

RULE = "core-disputes"


def rolled_again(old: ev.Event | None, version: int, effective: Iterable[ev.Event],
                 state: MatchState, ruleset: Ruleset) -> ev.DiceRolled:
    """The roll at `version` (`old`), if a ruling may have it made again now; else refused,
    saying why."""
    if not isinstance(old, ev.DiceRolled):
        raise InvalidAction(f"version {version} is not a roll of the dice: a re-roll names the "
                            "roll (`to`, or the dispute's own version)", rule=RULE)
    if state.outcome is not None:
        raise MatchOver("the match has ended: reopen it before a roll is made again", rule=RULE)
    if old.rule is not None and old.rule in ruleset.automated_rules:
        raise InvalidAction(f"the roll at version {version} was resolved by the service "
                            f"({old.rule}), and what it decided follows it in the log: order "
                            "an undo back before it instead", rule=RULE)
    kept = list(effective)
    if all(e.version != version for e in kept):
        raise InvalidAction(f"the roll at version {version} was undone", rule=RULE)
    again = next((e.version for e in kept if isinstance(e, ev.DiceRolled | ev.RollDeclared)
                  and e.replaces == version), None)
    if again is not None:
        raise InvalidAction(f"the roll at version {version} was made again already (version "
                            f"{again}); a dispute about that roll may order it made again",
                            rule=RULE)
    waiting = state.awaiting
    if waiting is not None and not (waiting.declared is None and waiting.what == old.awaits):
        raise InvalidAction(f"the match waits for {waiting.what} first", rule=RULE)
    return old


def decide_reroll(old: ev.DiceRolled, state: MatchState, context: Context) -> list[ev.Event]:
    """The events that make `old` again, numbered after `context.version` (the ruling's)."""
    emit = Emit(replace(context, actor=old.actor), state)
    fields = {"purpose": old.purpose, "unit_ids": old.unit_ids, "success": old.success,
              "rule": old.rule, "awaits": old.awaits, "replaces": old.version}
    if old.source == "table":
        emit(ev.RollDeclared, notation=old.notation, modifier=old.modifier, **fields)
        return emit.events
    index = emit.roll_index
    faces = context.dice.roll(parse(old.notation), index)
    emit(ev.DiceRolled, notation=old.notation, dice=tuple(faces), modifier=old.modifier,
         total=sum(faces) + old.modifier, source="server", roll_index=index, **fields)
    return emit.events
