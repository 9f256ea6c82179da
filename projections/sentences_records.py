"""The table's records in the players' words: undo and redo (asked, agreed, refused, done),
notes, disputes and rulings, each naming the event it is about by that event's own sentence.

`RecordSentences` is a part of `projections.sentences.Narrator`, which gives it the names, the
events seen, the `lookup` for the ones not seen and `sentence`; it holds the narrator's
reading of other events (`_events`), which the initiative re-roll reads back through too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from domain import events as ev

# Events (after, upto] of the match, in log order: how a narrator reads an event it has not
# seen (the one an undo goes back before, the one a note is about).
Lookup = Callable[[int, int], Sequence[ev.Event]]

NOT_GAME = (*ev.SEAT_EVENTS, *ev.UNDO_PROTOCOL)


class RecordNames(Protocol):
    """What these sentences ask of the match's names (`projections.sentences.Names`)."""

    def learn(self, event: ev.Event) -> None: ...

    def side(self, side: str | None) -> str: ...


class RecordSentences:
    """Undo and redo, notes, disputes and rulings, said by the `Narrator` it is part of."""

    names: RecordNames
    lookup: Lookup | None
    seen: dict[int, ev.Event]
    sentence: Callable[[ev.Event], str]

    # ---- reading other events ------------------------------------------------------------

    def _events(self, after: int, upto: int) -> list[ev.Event]:
        wanted = range(after + 1, upto + 1)
        if all(v in self.seen for v in wanted):
            return [self.seen[v] for v in wanted]
        if self.lookup is None:
            return [self.seen[v] for v in wanted if v in self.seen]
        found = list(self.lookup(after, upto))
        for e in found:
            self.seen.setdefault(e.version, e)
            self.names.learn(e)
        return found

    def _about(self, version: int | None) -> str:
        """The event at `version` by its own sentence (without a trailing full stop)."""
        if version is None:
            return "the match"
        found = self._events(version - 1, version)
        if not found:
            return "an earlier event"
        return self.sentence(found[0]).rstrip(".")

    def _undone(self, to: int, upto: int, redo: bool = False) -> str:
        """`the last 3 events (back to before: Blue moved 2nd Squad)`: the game events in
        (to, upto] that an undo back to `to` takes back."""
        span = min(upto, to + 500)
        game = [e for e in self._events(to, span) if not isinstance(e, NOT_GAME)]
        first = self.sentence(game[0]).rstrip(".") if game else "the match as it was"
        many = "the last event" if len(game) == 1 else f"the last {len(game)} events"
        if redo:
            many = "one event" if len(game) == 1 else f"{len(game)} events"
        if upto > span:
            many = "more than 500 events"
        return f"{many} (back to before: {first})"

    # ---- saying --------------------------------------------------------------------------

    def _say_NoteAdded(self, e: ev.NoteAdded, who: str, hidden: set[str]) -> str:
        about = f" about: {self._about(e.about_version)}" if e.about_version else ""
        if "text" in hidden:
            return f"{who} wrote a private note{about}."
        private = "a private note" if e.private else "a note"
        return f"{who} wrote {private}{about}: “{e.text}”"

    def _say_ActionsUndone(self, e: ev.ActionsUndone, who: str, hidden: set[str]) -> str:
        asked = (f", as {self.names.side(e.requested_by)} asked"
                 if e.requested_by and self.names.side(e.requested_by) != who else "")
        return f"{who} undid {self._undone(e.to, e.version - 1)}{asked}."

    def _say_ActionsRedone(self, e: ev.ActionsRedone, who: str, hidden: set[str]) -> str:
        found = self._events(e.reverses - 1, e.reverses)
        if found and isinstance(found[0], ev.ActionsUndone):
            undo = found[0]
            return (f"{who} redid what the undo took back: "
                    f"{self._undone(undo.to, undo.version - 1, redo=True)}.")
        return f"{who} redid what the last undo took back."

    def _say_DisputeOpened(self, e: ev.DisputeOpened, who: str, hidden: set[str]) -> str:
        upto = (f" and what followed, up to: {self._about(e.upto_version)}"
                if e.upto_version else "")
        return f"{who} disputed: {self._about(e.about_version)}{upto}. “{e.text}”"

    def _say_DisputeRuled(self, e: ev.DisputeRuled, who: str, hidden: set[str]) -> str:
        found = self._events(e.dispute - 1, e.dispute)
        about = (self._about(found[0].about_version) if found
                 and isinstance(found[0], ev.DisputeOpened) else "an earlier event")
        return f"{who} ruled on the dispute about {about}: “{e.ruling}”{self._order(e)}"

    def _order(self, e: ev.DisputeRuled) -> str:
        """What a ruling orders, in the words the referee picked it by (docs/disputes.md)."""
        if e.order == "reroll":
            return f" Roll again: {self._about(e.to)}. The new roll takes its place."
        if e.order in ("undo", "fork") and e.to is not None:
            game = [x for x in self._events(e.to, min(e.to + 50, e.version - 1))
                    if not isinstance(x, NOT_GAME)]
            before = (f"before: {self.sentence(game[0]).rstrip('.')}" if game
                      else f"the table as it stood at event {e.to}")
            if e.order == "undo":
                return f" Taken back to {before}."
            return f" Played out as a what-if from {before}, in a copy of the match."
        return ""

    def _say_UndoRequested(self, e: ev.UndoRequested, who: str, hidden: set[str]) -> str:
        return (f"{who} asked to undo {self._undone(e.to, e.version - 1)}: "
                "the other side must agree.")

    def _say_UndoAccepted(self, e: ev.UndoAccepted, who: str, hidden: set[str]) -> str:
        if e.actor == "referee":
            return "Referee allowed the undo for everyone."
        return f"{who} agreed to the undo."

    def _say_UndoDeclined(self, e: ev.UndoDeclined, who: str, hidden: set[str]) -> str:
        reason = f": “{e.reason}”" if e.reason else "."
        return (f"Referee refused the undo{reason}" if e.actor == "referee"
                else f"{who} declined the undo{reason}")
