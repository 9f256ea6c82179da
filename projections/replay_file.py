"""What a replay file carries (docs/replay.md): for one viewpoint, the match's export (the
same JSON Lines `GET .../export` gives that seat, byte for byte: the file checks its hash
chain and dice in the browser, and `battlelog import`/`verify` read it back), the board at
version 1 as that seat's board view, and for every later version the change to that view
(an RFC 6902 JSON Patch) with the event's sentence, kind and seat, and the turn and step of
the sequence of play the board shows after it (the page finds its way by turn and step
without applying every change first), and the clocks then when the match has a game clock;
the annotations that seat sees (its chapters are the file's table of contents), each
variation's fork after its branch, stepped the same way (`variations`); and the after-action
report's charts (`projections.replay_charts`).

Everything here is what the seat's own reads give it (`board_view` with the viewer,
`Narrator` with the viewer, `export_lines` and `Matches.annotations` with the viewer, the
report built for the viewer): a file holds no more than its seat may see.

Writing one costs a board view and its change per version (variations included): its work
is counted as the units on the board at each version, summed (`Work`), and a file whose
work would pass the bound is refused (413, `ReplayTooLarge`), before anything is read when
the head's board already says so (versions x units), else as soon as the count passes it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

import orjson

from domain import events as ev
from domain.annotations import Annotation
from domain.app import Matches
from domain.clock import ClockFold, step
from domain.errors import DomainError, MatchNotFound
from domain.history import Frame, fold
from projections.clock import view as clock_view
from projections.export import export_lines
from projections.json_diff import diff
from projections.replay_charts import replay_charts
from projections.sentences import Narrator
from projections.views import BoardView, board_view, side_views

CHUNK = 1000
MAX_WORK = 250_000  # the server's default bound, board units x versions (docs/replay.md "Cost")


class ReplayTooLarge(DomainError):
    """The replay file would take more work to write than the server allows."""

    status = 413
    title = "Replay file too large"


@dataclass
class Work:
    """The work a replay file has taken (`spent`: units on the board, summed over its
    versions), at most `most`; `between` runs after each version (a worker thread lets
    other requests' threads run there)."""

    most: int = sys.maxsize  # none: `battlelog replay` reads its own store
    between: Callable[[], None] = lambda: None
    spent: int = 0

    def _refuse(self, work: int) -> ReplayTooLarge:
        return ReplayTooLarge(
            f"this match's replay file is too large to write here: about {work:,} board "
            f"units over its versions, at most {self.most:,} (BATTLELOG_REPLAY_MAX_WORK); "
            "its export (GET .../export) holds the same log", rule="core-replay")

    def ahead(self, versions: int, units: int) -> None:
        """Refuse at once a file whose head board alone over its versions passes the bound."""
        if versions * (units + 1) > self.most:
            raise self._refuse(versions * (units + 1))

    def charge(self, units: int) -> None:
        self.spent += units + 1
        if self.spent > self.most:
            raise self._refuse(self.spent)
        self.between()


def replay_data(matches: Matches, match_id: UUID, viewer: str,
                work: Work | None = None) -> dict[str, Any]:
    """The replay of a match as `viewer` sees it, up to its head now, within `work` (by
    default, unbounded)."""
    work = work or Work()
    now = matches.head(match_id)
    work.ahead(now.version, len(now.state.units))
    export = "".join(export_lines(matches, match_id, viewer))
    # the head the export ends in (it was read first: a later event is not in the file)
    last = int(orjson.loads(export[:export.index("\n")])["events"])
    head = matches.frame_at(match_id, last)
    log = list(_events(matches, match_id, last))
    first, steps = played(matches, match_id, viewer, log, work=work)
    notes = [a for a in matches.annotations(match_id, viewer) if a.at_version <= last]
    return {"format": "battlelog-replay", "format_version": 1, "match_id": str(match_id),
            "viewer": viewer, "scenario": head.state.scenario,
            "sides": [s.model_dump(mode="json") for s in side_views(head.state)],
            "head": last, "chain_head": head.chain_head, "board": first, "steps": steps,
            "annotations": [a.public() for a in notes],
            "variations": variations(matches, viewer, notes, work),
            "charts": replay_charts(log, viewer), "export": export}


def played(matches: Matches, match_id: UUID, viewer: str, log: list[ev.Event],
           start: int = 1, work: Work | None = None
           ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The board at version `start` as `viewer` sees it, and for each version from `start`
    to the last of `log` (the match's events from 1) its step: the change to the board,
    the event's sentence, kind and seat, the turn and step after it, and the clocks as they
    stood then (when the match has a game clock). Each version is charged to `work`."""
    work = work or Work()
    last = log[-1].version
    head = matches.frame_at(match_id, last)
    frame = matches.frame_at(match_id, start)

    def lookup(since: int, upto: int) -> list[Any]:
        return list(matches.events_of(match_id, after=since, upto=min(upto, last),
                                      limit=max(1, upto - since)))

    narrator = Narrator.of_state(head.state, viewer, lookup)
    clock: ClockFold | None = None
    if matches.clock_of(match_id, head).started:
        clock = ClockFold() if start == 1 else matches.clock_of(match_id, frame)
    shown = board_view(frame.state, viewer, frame.undo_request)
    first = shown.model_dump(mode="json")
    before = first
    steps: list[dict[str, Any]] = []
    for event in log:
        narrator.see(event)
        if event.version < start:
            continue
        work.charge(len(frame.state.units))
        change: list[dict[str, Any]] = []
        if event.version > start:
            # an undo goes back to an earlier state: read from the nearest checkpoint, so
            # that no version's state is held beyond its own step
            frame = fold(frame, [event], lambda k: matches.state_at(match_id, k))
            view = board_view(frame.state, viewer, frame.undo_request)
            now = _dumped(view, shown, before)
            change = diff(before, now)
            before, shown = now, view
        said = {"v": event.version, "type": event.type_name(), "actor": event.actor,
                "said": narrator.sentence(event), "turn": before["turn"]["turn"],
                "step": before["turn"]["step"], "patch": change}
        if clock is not None:
            if start == 1 or event.version > start:
                clock = step(clock, event, frame)
            clocks = _clocks(clock, frame, event)
            if clocks is not None:
                said["clock"] = clocks
        steps.append(said)
    return first, steps


def _dumped(view: BoardView, was: BoardView, dumped: dict[str, Any]) -> dict[str, Any]:
    """`view` as JSON, from `was` (the board before it) and its JSON `dumped`: only the
    fields that changed are dumped again (most events change one or two of the board's
    fields; the others, its map and sequence of play among them, are kept as they were).
    (ours) A field is kept when Python finds it equal: the board's values keep their JSON
    type (a count an int, a position a float, a ruleset's computed value one type per
    key), and the page reads 1 and 1.0 alike."""
    changed = {name for name in BoardView.model_fields if getattr(view, name) != getattr(was, name)}
    if not changed:
        return dumped
    return {**dumped, **view.model_dump(mode="json", include=changed)}


def _clocks(clock: ClockFold, frame: Frame, event: ev.Event) -> dict[str, Any] | None:
    """The clocks at `event`'s version as the table page's time travel shows them
    (`projections.clock`, read at the moment of the event): each side's seconds left
    (a tenth), whether its time ran, whether its flag had fallen; None before the start."""
    if not clock.started:
        return None
    shown = clock_view(clock, frame.state, event.timestamp, event.version)
    return {"paused": shown.paused, "sides": [[s.side, round(s.remaining, 1), s.running,
                                               s.flag_fallen] for s in shown.sides]}


def variations(matches: Matches, viewer: str, notes: Iterable[Annotation],
               work: Work | None = None) -> list[dict[str, Any]]:
    """Each variation the viewer sees (an annotation naming a fork of this match): the
    fork's own events after the version it was forked at, as `played` gives them to the
    same viewer (what that seat may see of the fork, nothing more), and where it branches:
    `from`, the main line's version, and `start`, the fork's version that stands for it."""
    out = []
    for note in notes:
        if note.kind != "variation" or note.fork is None:
            continue
        try:
            head = matches.head(note.fork).version
        except MatchNotFound:  # (ours) a fork since removed: the annotation alone stays
            continue
        log = list(_events(matches, note.fork, head))
        created = cast(ev.MatchCreated, log[0])
        start = 1 + (created.inherited_events or 0)
        board, steps = played(matches, note.fork, viewer, log, start, work)
        out.append({"id": note.id, "fork": str(note.fork), "from": created.forked_at,
                    "start": start, "board": board, "steps": steps})
    return out


def _events(matches: Matches, match_id: UUID, last: int) -> Iterator[Any]:
    after = 0
    while after < last:
        chunk = list(matches.events_of(match_id, after=after, upto=last, limit=CHUNK))
        if not chunk:
            return
        yield from chunk
        after = chunk[-1].version
