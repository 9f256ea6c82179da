"""Authority: which seat may take an action, and on whose units, tracks and sides.

Decided here and nowhere else (routes and rulesets never grant more). Two questions:

1. Whose turn: `check_acting` reads the current step's `acting` seat (the sequence of play:
   the active side, the inactive one, a role, anyone, or the referee).
2. Whose things: `check_owner` reads `OWNERS`, one entry per action type, which says whose
   units, sides and tracks the action changes. Only their owner takes it.

The referee may take every action (each of its acts is an audited event with actor
`referee`); a spectator takes none. A player acts for its own side. The one thing a player
records on another side's units is the effect of its own fire: markers placed on them
(`place_marker`), as the games have the firing player do. Ending the match is the
referee's; a side concedes (`concede`) or proposes an end that every side must agree to
(`end_match`, see `domain.procedures.records`). Redo belongs to whoever undid
(`check_redo`). `docs/seats.md` states the table in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain import commands as cmd
from domain.context import REFEREE
from domain.duties import Owed
from domain.errors import IdTaken, InvalidAction, NotYourTurn
from domain.sequence import SequenceOfPlay, Step, current_roles
from domain.state import MatchState

Owners = Callable[[Any, MatchState, str], Iterable[str]]
"""The sides whose units, tracks or side an action changes (command, state, actor)."""


def _sides_of(state: MatchState, unit_ids: Iterable[str | None]) -> set[str]:
    """The owners of the units named (unknown ids are left to the procedure to refuse)."""
    return {state.units[u].side for u in unit_ids if u is not None and u in state.units}


def _unit(field: str) -> Owners:
    return lambda command, state, actor: _sides_of(state, [getattr(command, field)])


def _units(field: str) -> Owners:
    return lambda command, state, actor: _sides_of(state, getattr(command, field))


def _nobody(command: Any, state: MatchState, actor: str) -> set[str]:
    """The action changes nothing of another side's: its own roll, note, deck, a marker
    of its fire, the turn marker (whose turn it is: the sequence of play decides)."""
    return set()


def _own_markers(command: cmd.RemoveMarker, state: MatchState, actor: str) -> set[str]:
    """Markers on a unit come off by its owner's hand (a rally, a recovery); markers at a
    location are the table's."""
    return _sides_of(state, [command.unit_id])


def _rule_roll(command: cmd.RuleRoll, state: MatchState, actor: str) -> set[str]:
    """The unit that rolls, and the leader who helps it, are the roller's own."""
    return _sides_of(state, [command.unit_id, command.leader_id])


def _battlegroup(command: cmd.ActivateBattlegroup, state: MatchState, actor: str) -> set[str]:
    """A battlegroup is named within its side (BG-7): the actor's own when it has one of that
    name (another side may have one too), else the name is another side's. The auxiliary
    squads declared with it are their owners'."""
    named = [u for u in state.units.values() if "battlegroup" in u.extra
             and str(u.extra["battlegroup"]) == command.battlegroup]
    own = [u for u in named if u.side == actor]
    return _sides_of(state, [*(u.id for u in own or named), *command.auxiliaries])


def _track(command: cmd.SetTrack, state: MatchState, actor: str) -> set[str]:
    """A track named for a side (`replacements.allied`, `allied.morale`) is that side's;
    the others (weather, sea, air) are the table's, set by whoever's step it is."""
    return set(command.name.split(".")) & set(state.side_ids())


def _side(command: cmd.ScoreVP, state: MatchState, actor: str) -> set[str]:
    return {command.side}


def _declared_by(command: cmd.RecordRoll, state: MatchState, actor: str) -> set[str]:
    """Table dice are thrown by the seat that declared them."""
    by = state.awaiting.by if state.awaiting is not None else None
    return {by} if by is not None and by != REFEREE else set()


OWNERS: dict[str, Owners] = {
    # units: their owner's
    "deploy_unit": lambda command, state, actor: {command.unit.side},
    "move_unit": _unit("unit_id"),
    "set_status": _unit("unit_id"),
    "split_unit": _unit("unit_id"),
    "rally_unit": _unit("unit_id"),
    "remove_unit": _unit("unit_id"),
    "lose_step": _unit("unit_id"),
    "gain_step": _unit("unit_id"),
    "activate_unit": _unit("unit_id"),
    "roll_morale": _unit("unit_id"),
    "fire": _unit("unit_id"),  # the firer is yours; the target may be anyone's
    "rule_roll": _rule_roll,
    "activate_battlegroup": _battlegroup,
    "announce_reinforcements": _units("unit_ids"),
    "set_supply": _units("unit_ids"),
    "resolve_combat": _units("attackers"),  # defenders are the other side's
    "remove_marker": _own_markers,
    # the effect of your fire on another side's unit: yours to record
    "place_marker": _nobody,
    # sides and tracks
    "score_vp": _side,
    "set_track": _track,
    "record_roll": _declared_by,
    # a side's own things, by definition (the procedure acts on the actor's own side)
    "roll_dice": _nobody,
    "draw_cards": _nobody,
    "discard_cards": _nobody,
    "play_card": _nobody,
    "shuffle_deck": _nobody,
    "cut_deck": _nobody,  # the opponent's deck, by the opponent (the procedure checks)
    "declare_operation": _nobody,
    "call_artillery": _nobody,  # a mission is its caller's (the procedure checks)
    "pass_initiative": _nobody,  # the winner's (the procedure checks)
    # (ours) one roll for every side at once, by whoever's step it is: with table dice that
    # seat enters every side's die as thrown at the table
    "roll_initiative": _nobody,
    "enter_result": _nobody,  # by the seat that rolled (the procedure checks)
    "advance": _nobody,
    "add_note": _nobody,
    "open_dispute": _nobody,
    "concede": _nobody,  # a side gives up its own game
    "end_match": _nobody,  # a side's end is a proposal every side must agree to
}
REFEREE_ONLY = frozenset({"reopen_match"})  # so that no player can lock a match shut


def check_owner(command: cmd.Command, state: MatchState, actor: str) -> None:
    """Refuse an action on units, sides or tracks of a side other than the actor's."""
    if actor == REFEREE:
        return
    kind = getattr(command, "type", type(command).__name__)
    if kind in REFEREE_ONLY:
        raise NotYourTurn(f"only the referee may '{kind}'", rule="core-authority",
                          allowed=[REFEREE])
    owners = set(OWNERS[kind](command, state, actor))
    others = sorted(owners - {actor})
    if others:
        raise NotYourTurn(
            f"'{kind}' changes what belongs to {', '.join(others)}; side '{actor}' acts "
            "only for its own units, tracks and score", rule="core-authority",
            allowed=[*others, REFEREE] if len(others) == 1 else [REFEREE])


def check_redo(actor: str, undone_by: str) -> None:
    """Redo belongs to whoever undid (`undone_by`: the undo's actor, or the side whose
    request it answered, even when the referee forced it); an undo by the referee, or
    ordered by a ruling, is redone only by the referee."""
    if actor not in (REFEREE, undone_by):
        raise NotYourTurn(f"the last undo was {undone_by}'s: only {undone_by} redoes it"
                          + ("" if undone_by == REFEREE else " (or the referee)"),
                          rule="core-authority", allowed=sorted({undone_by, REFEREE}))


def check_standing_pass(actor: str, side: str, on: bool, sides: Iterable[str]) -> None:
    """A side's standing pass ("pass until I must act", issue 26) is its own: only that side
    starts it and stops it. (ours) The referee may stop any side's pass (the table is the
    referee's to run) but starts none: a pass declines that side's own optional moves, a
    choice only its player makes."""
    if side not in sides:
        raise InvalidAction(f"there is no side '{side}'", rule="core-sides",
                            allowed=sorted(sides))
    if actor == side or (actor == REFEREE and not on):
        return
    raise NotYourTurn(f"a standing pass is its side's own: only {side} "
                      + ("starts it" if on else "stops it (or the referee)"),
                      rule="core-authority", allowed=[side] if on else [side, REFEREE])


def check_reissue(actor: str) -> None:
    """Reissuing a seat's token (docs/seats.md) is the referee's alone: the remedy for a
    leaked or lost link. A side's reissue ends everything its seat held: the side's tokens
    and its join link (joined or not), its standing pass, its registrations."""
    if actor != REFEREE:
        raise NotYourTurn("only the referee reissues a seat's token",
                          rule="core-seats", allowed=[REFEREE])


def check_clock(kind: str, actor: str) -> None:
    """The game clock is the referee's to start, pause, resume and adjust (docs/clock.md):
    a side never stops or tops up its own time."""
    if actor != REFEREE:
        raise NotYourTurn(f"only the referee may '{kind}': the clock is the referee's",
                          rule="core-authority", allowed=[REFEREE])


def seats(sequence: SequenceOfPlay, state: MatchState, acting: str) -> list[str]:
    """The sides a step's `acting` (or `advanced_by`) names now."""
    active = state.turn.active_side
    if acting == "any":
        return list(state.side_ids())
    if acting == "active":
        return [active] if active else []
    if acting == "inactive":
        return [s for s in state.side_ids() if s != active]
    role = current_roles(sequence, state).get(acting)
    return [role] if role else []


def waiting_for(sequence: SequenceOfPlay, state: MatchState) -> list[str]:
    """In a shared step, the sides that have not yet said they are done."""
    if not sequence.step(state.turn.step).shared:
        return []
    return [s for s in state.side_ids() if s not in state.turn.done]


def movers(sequence: SequenceOfPlay, state: MatchState) -> list[str]:
    """The seats that may `advance` now: in a shared step each side not yet done (the last
    one moves the marker), else the step's `advanced_by` or `acting` seat; the referee
    always."""
    step = sequence.step(state.turn.step)
    sides = waiting_for(sequence, state) if step.shared else seats(
        sequence, state, step.advanced_by or step.acting)
    return [*sides, REFEREE]


def check_acting(sequence: SequenceOfPlay, state: MatchState, actor: str, kind: str = "",
                 duties: Callable[[], Iterable[Owed]] = tuple) -> None:
    """Whether `actor` is the seat the current step waits for (a side that has said it is
    done with a shared step acts no more there). A seat that owes a duty (`duties()`: what
    it owes now, `domain.owed`, read only for a seat the step does not name) takes the
    actions that discharge it (`kind`) out of turn: the defender removes its own unit as
    the attacker's result says."""
    if actor == REFEREE:
        return
    step = sequence.step(state.turn.step)
    allowed = seats(sequence, state, step.acting)
    if actor in allowed and actor not in state.turn.done:
        return
    if any(d.discharges(kind) for d in duties()):
        return
    if actor in state.turn.done:
        raise _done(sequence, state, actor, step)
    raise NotYourTurn(
        f"in step '{state.turn.step}' only "
        + (" or ".join(allowed) if allowed else f"the {step.acting} seat") + " acts",
        rule=step.rule or "core-sequence", allowed=[*allowed, REFEREE])


def check_awaited(sequence: SequenceOfPlay, state: MatchState, actor: str) -> None:
    """The dice or the result the match waits for (`record_roll`, `enter_result`) come from
    the seat that rolled, whatever the step: a roll a referee's ruling made again may be
    another step's. A roll the referee made is entered as the step's acting seat may."""
    if state.awaiting is not None and actor == state.awaiting.by:
        return
    check_acting(sequence, state, actor)


def check_advance(sequence: SequenceOfPlay, state: MatchState, actor: str) -> None:
    """Whether `actor` may move the turn marker on (or, in a shared step, say it is done)."""
    step = sequence.step(state.turn.step)
    if actor == REFEREE:
        return
    if actor in state.turn.done:
        raise _done(sequence, state, actor, step)
    check_untied(state, actor, step)
    allowed = movers(sequence, state)
    if actor not in allowed:
        mover = step.advanced_by or step.acting
        raise NotYourTurn(
            f"in step '{state.turn.step}' only "
            + (" or ".join(allowed[:-1]) if allowed[:-1] else f"the {mover} seat")
            + " moves the turn marker on",
            rule=step.rule or "core-sequence", allowed=allowed)


def check_untied(state: MatchState, actor: str, step: Step) -> None:
    """(ours) A side tied for the initiative owes the throw that breaks the tie: it is not
    done with the step until the tie is thrown again, so that it can still throw its own die
    (a side that had said done could no longer act there)."""
    tied = next((g for g in state.initiative_groups if len(g) > 1 and actor in g), None)
    if tied is not None:
        others = ", ".join(side for side in tied if side != actor)
        raise InvalidAction(f"side '{actor}' is tied for the initiative with {others}: the tie "
                            "is thrown again before it is done", rule=step.rule or "core-sequence",
                            allowed=["roll_initiative"])


def _done(sequence: SequenceOfPlay, state: MatchState, actor: str, step: Step) -> NotYourTurn:
    waiting = waiting_for(sequence, state)
    return NotYourTurn(
        f"side '{actor}' has said it is done with step '{state.turn.step}'; waiting for "
        + (", ".join(waiting) or "the referee"), rule=step.rule or "core-sequence",
        allowed=[*waiting, REFEREE])


def check_notifications(asker: str, seat: str, sides: Iterable[str]) -> None:
    """Whether `asker` may register, read or delete the notifications of `seat` (a side
    of the match or the referee): a side its own, the referee any seat's; a spectator or
    a join token none (docs/notifications.md)."""
    sides = list(sides)
    if asker != REFEREE and asker not in sides:
        raise NotYourTurn("only a side or the referee has notifications (not a spectator, "
                          "nor a join token before it joins)", rule="core-notifications",
                          allowed=[*sides, REFEREE])
    if seat != REFEREE and seat not in sides:
        raise InvalidAction(f"this match has no seat '{seat}'", rule="core-notifications",
                            allowed=[*sides, REFEREE])
    if asker not in (REFEREE, seat):
        raise NotYourTurn(f"'{asker}' may not see or change the notifications of '{seat}': "
                          "a seat has its own, the referee any seat's",
                          rule="core-notifications", allowed=sorted({seat, REFEREE}))


def registrations_shown(asker: str, holder: str) -> str | None:
    """Whose registrations a list shows `asker`, whose token's hash is `holder`: the
    referee every one (None); a side only those made with its current token (ours: a
    registration belongs to the token holder who made it, so whoever holds a reissued
    seat's new token does not see its previous holder's addresses)."""
    return None if asker == REFEREE else holder


def check_registration(asker: str, seat: str, sides: Iterable[str], holder: str,
                       made_by: str | None) -> None:
    """Whether `asker` (holding the token of hash `holder`) may delete one registration of
    `seat`, made with the token of hash `made_by`, or read its attempts: as
    `check_notifications`, and a side only one its own token made (the referee any)."""
    check_notifications(asker, seat, sides)
    if registrations_shown(asker, holder) not in (None, made_by):
        raise NotYourTurn("this registration was made by another holder of the seat's token",
                          rule="core-notifications", allowed=[REFEREE])


def check_viewpoint(asker: str, viewpoint: str, sides: Iterable[str]) -> None:
    """Whose view `asker` may read a replay or export in (docs/replay.md): its own; the
    referee any seat's (a side, the spectator or its own), since it sees all they see."""
    seats = [*sides, "spectator", REFEREE]
    if viewpoint not in seats:
        raise InvalidAction(f"this match has no seat '{viewpoint}'", rule="core-replay",
                            allowed=seats)
    if asker not in (REFEREE, viewpoint):
        raise NotYourTurn(f"'{asker}' reads the match only as itself: the referee may "
                          "choose another seat's view", rule="core-replay",
                          allowed=sorted({asker, REFEREE}))


def check_annotating(asker: str, sides: Iterable[str]) -> None:
    """Whether `asker` may add annotations to a match (docs/seats.md): a side or the
    referee. (ours) Not the spectator: its token is the audience's shared link, so an
    annotation made with it would have no one author to edit or answer for it."""
    sides = list(sides)
    if asker != REFEREE and asker not in sides:
        raise NotYourTurn("only a side or the referee annotates a match (not a spectator)",
                          rule="core-annotations", allowed=[*sides, REFEREE])


def annotation_visible(viewer: str, author: str, visibility: str) -> bool:
    """Whether seat `viewer` sees an annotation of `author`'s: a public one everyone; one
    private to its seat or to its side, its author and the referee (a side is one seat:
    the two differ in what they promise, not yet in who reads them). (ours) The referee
    reads every annotation, as it reads private notes, so that a referee's export (the
    one that imports) carries them all."""
    return visibility == "public" or viewer in (REFEREE, author)


def check_annotation_change(asker: str, author: str, *, deleting: bool,
                            reason: str = "") -> None:
    """Whether `asker` may edit (or delete) an annotation `author` made: a seat only its
    own. (ours) The referee deletes any, naming why (a public comment that gives away a
    hidden hand, an insult), as it moderates the table; it never edits another's words."""
    if asker == author:
        return
    if asker == REFEREE and deleting:
        if not reason:
            raise InvalidAction("the referee deletes another seat's annotation with a "
                                "reason", rule="core-annotations")
        return
    raise NotYourTurn(f"this annotation is {author}'s: only {author} "
                      + ("deletes it (or the referee)" if deleting else "edits it"),
                      rule="core-annotations",
                      allowed=sorted({author, REFEREE}) if deleting else [author])


OPERATOR = "operator"  # who runs the service: its shipped games, its folder, its admin token


def check_ruleset_id(claimant: str | None, owner: str, ruleset_id: str) -> None:
    """A ruleset id belongs to whoever stored a file under it first: the operator for the
    games shipped with battlelog and the configured folder, else the first uploader (known
    by the owner token that upload was given). The operator may store and mark under any
    id; anyone else only under an id it owns (docs/rulesets/authoring.md)."""
    if claimant == OPERATOR or (claimant is not None and claimant == owner):
        return
    whose = "the operator of this server" if owner == OPERATOR else "another uploader"
    raise IdTaken(f"the ruleset id '{ruleset_id}' belongs to {whose}: give your file an id "
                  "of its own, or send the owner token the id's first upload was given "
                  "(Authorization: Bearer ...)", rule="core-ruleset-ids")
