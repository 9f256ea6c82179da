"""The outcome of one action in the players' words: what the rule roll, the initiative, the
morale check, the rally, the split, the combat or the activation did, and why, said once here
for every surface that tells it: the page's answer after the tap (`POST .../actions` as
`outcome`), the log (each event's `said` is the same narrator's sentence), the notices (`last`)
and the reports.

The outcome is made of the sentences of the action's events (`projections.sentences`), the
deciding one first (the dice and what they were tested against), then what followed from it
(an action that no rule decided has no outcome: its events' sentences say it);
units taken out of play for one reason are said together, a unit's pieces folded into it
("4e Ligne and its 3 pieces"). Seats and the undo protocol are not outcomes."""

from __future__ import annotations

from collections.abc import Sequence

from domain import events as ev
from projections.sentences import Narrator, words
from projections.sentences_dice import listing
from projections.sentences_records import NOT_GAME

# The events that decide what an action did: said first, whatever came before them.
DECIDING = (ev.DiceRolled, ev.InitiativeRolled, ev.ResultRecorded, ev.CombatDeclared,
            ev.UnitsActivated, ev.UnitRallied, ev.UnitSplit)


def _removed(names: list[str]) -> str:
    """`4e Ligne and its 3 pieces`: a removed unit's pieces (named after it) folded in."""
    wholes = [n for n in names if not any(n != o and n.startswith(f"{o}, ") for o in names)]
    said = []
    for whole in wholes:
        pieces = sum(1 for n in names if n.startswith(f"{whole}, "))
        said.append(whole + (f" and its {pieces} piece{'s' if pieces != 1 else ''}"
                             if pieces else ""))
    return listing(said)


def outcome(events: Sequence[ev.Event], narrator: Narrator) -> str:
    """The outcome of the events one action appended (in log order), as the narrator's
    viewer may read it; "" when no rule decided anything (a move, a marker, a note: the
    event's own sentence says it all)."""
    game = [e for e in events if not isinstance(e, NOT_GAME)]
    if any(isinstance(e, ev.DiceRolled) for e in game):  # the dice declared are thrown
        game = [e for e in game if not isinstance(e, ev.RollDeclared)]
    first = [e for e in game if isinstance(e, DECIDING)]
    if not first:
        return ""
    ordered = first + [e for e in game if not isinstance(e, DECIDING)]
    said: list[str] = []
    gone: dict[str, list[str]] = {}
    for e in ordered:
        if isinstance(e, ev.UnitRemoved):
            reason = e.reason if e.to_box == "eliminated" else (
                f"{e.reason}, to the {words(e.to_box)} box")
            if reason not in gone:
                gone[reason] = []
                said.append(f"\0{reason}")  # where the removal is said, once
            gone[reason].append(narrator.names.unit(e.unit_id))
            continue
        said.append(narrator.sentence(e))
    return " ".join(
        f"Out of play ({s[1:]}): "
        f"{_removed(gone[s[1:]])}." if s.startswith("\0") else s for s in said)


def command_events(events: Sequence[ev.Event], last: ev.Event) -> list[ev.Event]:
    """The events of `last`'s action among `events` (in log order, ending with `last`): the
    run before it that shares its command id."""
    if last.command_id is None:
        return [last]
    run: list[ev.Event] = []
    for e in reversed([e for e in events if e.version <= last.version]):
        if e.command_id != last.command_id or (run and e.version != run[-1].version - 1):
            break
        run.append(e)
    return run[::-1] or [last]


def by_action(events: Sequence[ev.Event], narrator: Narrator) -> list[str]:
    """Events (in log order) in words: one line for each action a rule decided (its
    outcome), one line for each event of any other action."""
    lines: list[str] = []
    run: list[ev.Event] = []

    def flush() -> None:
        said = outcome(run, narrator)
        lines.extend([said] if said else [narrator.sentence(e) for e in run])
        run.clear()

    for e in events:
        if run and (e.command_id is None or e.command_id != run[-1].command_id):
            flush()
        run.append(e)
    if run:
        flush()
    return lines
