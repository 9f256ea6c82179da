"""What an undo takes back, in the players' words: the sentences (`projections.sentences`)
of the game events after the version it goes back to that still count (what an earlier undo
took back, seats, disputes and the consent protocol left out). The table page names the
action on its Undo button and in the consent prompt with these (docs/table.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from domain import events as ev
from domain.history import effective_events
from domain.state import MatchState
from projections.sentences import Narrator

SAID_AT_MOST = 10  # sentences named; the rest are counted
READ_AT_MOST = 500  # events read after the target (an undo far back is counted, not read)

Events = Callable[[int, int], Iterable[ev.Event]]  # (after, upto] in log order


@dataclass(frozen=True, slots=True)
class TakenBack:
    by: str  # the seat whose action comes first among those taken back ("" if none)
    said: tuple[str, ...]
    more: int  # game events taken back beyond those said


def taken_back(events: Events, state: MatchState, to: int, upto: int,
               viewer: str) -> TakenBack:
    """The game events an undo back to `to` takes back at version `upto`, said for `viewer`."""
    read = list(events(to, min(upto, to + READ_AT_MOST)))
    kept = effective_events(read, after=to)
    narrator = Narrator.of_state(state, viewer, lambda a, b: list(events(a, b)))
    for event in read:
        narrator.see(event)
    said = tuple(narrator.sentence(e) for e in kept[:SAID_AT_MOST])
    more = len(kept) - len(said) + (1 if upto > to + READ_AT_MOST else 0)
    return TakenBack(by=kept[0].actor if kept else "", said=said, more=more)
