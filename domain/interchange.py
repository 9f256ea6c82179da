"""Reading a match export back (docs/interchange.md): the events exactly as they were, for
`Matches.import_match`, one at a time. Pure: the caller supplies the file (anything that
reads its lines again from a given line: `ExportFile`), the new seat token hashes and the
import's own time.

The export leaves out what is private on every surface: the dice seed (unless revealed) and
the SHA-256 of seat tokens. An imported match gets fresh seat tokens; its seed is the one
revealed in the file, or unknown (then the referee commits a fresh seed before any server
roll: `POST .../dice/reveal`). Likewise its card seed (revealed when the match ended), or
unknown: then its decks cannot be shuffled.

Nothing holds the file: `read_export` reads it twice (the seeds it reveals, then `verify`),
and `ExportReader.events` once more for each use, each line loaded and let go.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import islice
from typing import Any, Protocol, runtime_checkable
from uuid import UUID

from pydantic import ValidationError

from domain import events as ev
from domain import json_input
from domain.commands import past_size_limits
from domain.dice import commitment
from domain.errors import InvalidAction
from domain.events.base import EARLIEST
from domain.integrity import event_hash, revealed_seeds, verify
from domain.rulesets import Ruleset, get_ruleset

UNKNOWN_SEED = ""  # the dice seed of an imported match whose seed was never revealed
IMPORTED_TOKEN = "imported"  # a seat token hash no token can have (not a SHA-256)
# (ours) An imported event's time may not be later than the import's own time plus a little
# clock skew between the instance that exported and this one: a file stamped in the future
# is not a match's history. Every event's time is also in the window any event may carry
# (`domain.events.base.usable_time`: a UTC offset, from 1970 to before 3000), or it does not
# load.
SKEW = timedelta(minutes=5)


def refused(detail: str) -> InvalidAction:
    return InvalidAction(detail, rule="core-import")


@runtime_checkable
class ExportFile(Protocol):
    def lines(self, start: int = 1) -> Iterator[str]:
        """The file's lines from line `start` on (1: the header), each with its newline."""
        ...


class ListedExport:
    """An export whose lines are held already (a test's, a bench's)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = list(lines)

    def lines(self, start: int = 1) -> Iterator[str]:
        return islice(self._lines, start - 1, None)


@dataclass(frozen=True)
class ExportReader:
    """A referee's export that verified: its events, loaded again at each reading."""

    file: ExportFile
    match_id: UUID
    revealed: dict[str, str]  # seed by the commitment it opens, as the file reveals them
    token_hashes: dict[str, str]
    verified: dict[str, Any] | None = None  # what `verify` found (`Report.as_dict`)

    def events(self, start: int = 1) -> Iterator[ev.Event]:
        """The events from version `start` on, each loaded and checked as exported."""
        for number, line in enumerate(self.file.lines(start + 1), start=start + 1):
            if ANNOTATION_LINE in line:  # the match's events end here: annotations follow
                return
            yield _event(number, json_input.loads(line), self.match_id, self.revealed,
                         self.token_hashes)


ANNOTATION_LINE = '"type":"Annotation'  # how an annotation's line says its type (canonical)


def read_annotations(file: ExportFile, match_id: UUID, events: int) -> list[ev.Event]:
    """The annotation events a referee's export carries after its `events` events,
    rebuilt under the match's annotation stream: numbered 1, 2, ... in order, each about a
    version of the match, each loading as it was written; refused naming the line."""
    found: list[ev.Event] = []
    classes = {cls.__name__: cls for cls in ev.ANNOTATION_EVENTS}
    for number, line in enumerate(file.lines(events + 2), start=events + 2):
        body = json_input.loads(line)
        cls = classes.get(str(body.get("type")))
        if cls is None or body.get("version") != len(found) + 1:
            raise refused(f"line {number}: annotation {len(found) + 1} was expected here")
        data = {k: v for k, v in body.items() if k not in ("version", "type")}
        try:
            event = cls(**data, originator_id=ev.annotations_stream(match_id),
                        originator_version=body["version"])
        except (ValidationError, TypeError) as error:
            raise refused(f"line {number}: the annotation does not load: {error}") from None
        if max(getattr(event, "at_version", None) or 1,
               getattr(event, "upto_version", None) or 0) > events:
            raise refused(f"line {number}: the annotation is about a version the match "
                          "does not have")
        found.append(event)
    return found


def read_export(file: ExportFile, token_hashes: dict[str, str]) -> ExportReader:
    """A complete (referee's) export that verifies, ready to be read event by event: the
    file is read through twice (what it reveals; then `verify`), one line at a time."""
    revealed = revealed_seeds(file.lines())
    report = verify(file.lines(), revealed)
    if not report.ok:
        raise refused(f"the file does not verify: {report.problems[0]}")
    header = json_input.loads(next(file.lines()))
    try:
        match_id = UUID(str(header.get("match_id")))
    except ValueError:
        raise refused("line 1: no match id in the header") from None
    return ExportReader(file, match_id, revealed, token_hashes, report.as_dict())


def checked(events: Iterable[ev.Event], now: datetime) -> Iterator[ev.Event]:
    """`events` (from `MatchCreated`), each checked as it passes: `fitting`, then `timely`."""
    return timely(fitting(events), now)


def timely(events: Iterable[ev.Event], now: datetime) -> Iterator[ev.Event]:
    """`events` (from `MatchCreated`, each loaded: its time has an offset and lies in the
    window any event may carry), refused at the first whose time is after the import's time
    `now` plus SKEW, or before the event before it. A fork's copied events keep their times
    from its origin, before its own creation: they follow each other, and the events after
    them follow both. The refusal names its line and event."""
    latest = now + SKEW
    previous = EARLIEST
    created, copied = EARLIEST, 1  # the creation's moment; the last copied event's version
    for event in events:
        moment = event.timestamp
        if moment > latest:
            raise refused(f"{_where(event)}: its timestamp {moment.isoformat()} is after "
                          f"the import's time plus {SKEW} ({latest.isoformat()})")
        if moment < previous:
            raise refused(f"{_where(event)}: its timestamp {moment.isoformat()} is before "
                          f"the event before it ({previous.isoformat()})")
        previous = moment
        if isinstance(event, ev.MatchCreated):
            created, copied = moment, 1 + (event.inherited_events or 0)
            if copied > 1:
                previous = EARLIEST  # the copied events: their times in the origin
        if event.originator_version == copied:
            previous = max(moment, created)
        yield event


def fitting(events: Iterable[ev.Event]) -> Iterator[ev.Event]:
    """`events` (from `MatchCreated`), refused at the first where the log stops fitting the
    rules this battlelog has: the match pins its ruleset and version (`MatchCreated`); every
    step the turn marker stood on must still exist. The refusal names the line, event and
    rule."""
    ruleset: Ruleset | None = None
    played = ""
    for event in events:
        if ruleset is None:
            if not isinstance(event, ev.MatchCreated):
                raise refused(f"{_where(event)}: a match starts with MatchCreated")
            too_many = past_size_limits(event.units)
            if too_many:
                raise refused(f"{_where(event)}: {too_many} (rule core-limits)")
            try:
                ruleset = get_ruleset(event.ruleset, event.options, event.ruleset_hash)
                ruleset.check_setup(len(event.sides), event.options, event.units)
            except InvalidAction as error:
                raise refused(f"{_where(event)}: {error.detail}") from None
            played = f"played under {event.ruleset} v{event.ruleset_version}"
        marker = getattr(event, "marker", None)
        if marker is not None and not _has_step(ruleset, marker.step):
            raise refused(f"{_where(event)}: {ruleset.title} v{ruleset.version} has no step "
                          f"'{marker.step}' ({played}; rule {event.rule or 'core-sequence'})")
        yield event


def divergence(events: Iterable[ev.Event]) -> str | None:
    """Where a log stops fitting the rules this battlelog has (`fitting`); None if it fits."""
    try:
        for _ in fitting(events):
            pass
    except InvalidAction as error:
        return error.detail
    return None


def _where(event: ev.Event) -> str:
    version = event.originator_version
    return f"line {version + 1}: event {version} ({event.type_name()})"


def _has_step(ruleset: Ruleset, step: str) -> bool:
    try:
        ruleset.sequence.step(step)
    except KeyError:
        return False
    return True


def _event(number: int, body: dict[str, Any], match_id: UUID, revealed: dict[str, str],
           token_hashes: dict[str, str]) -> ev.Event:
    if "hidden" in body:
        raise refused(f"line {number}: this is a player's export (fields are hidden); "
                      "import the referee's")
    cls = ev.EVENT_TYPES.get(str(body.get("type")))
    if cls is None:
        raise refused(f"line {number}: unknown event type '{body.get('type')}'")
    # the commitments are made again from the values and their salts (and checked, with
    # every other field, by the event's hash below)
    data = {k: v for k, v in body.items() if k not in ("version", "type", "commitments")}
    data.update(originator_id=match_id, originator_version=body["version"])
    if cls in (ev.MatchCreated, ev.DiceCommitted):
        data["dice_seed"] = revealed.get(body["dice_commitment"], UNKNOWN_SEED)
    if cls in (ev.MatchCreated, ev.DiceCommitted) and body.get("card_commitment") is not None:
        data["card_seed"] = revealed.get(body["card_commitment"], UNKNOWN_SEED)
    if cls is ev.MatchCreated:
        data["token_hashes"] = token_hashes
    if cls in (ev.SeatTokenIssued, ev.SeatTokenRevoked):
        data["token_hash"] = IMPORTED_TOKEN
    try:
        event = cls(**data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise refused(f"line {number}: {body['type']} {where}: {first['msg']}") from None
    if event_hash(event.public("referee")) != body["hash"]:
        raise refused(f"line {number}: the event does not load as it was exported "
                      "(a field this version of battlelog does not know?)")
    seed = getattr(event, "dice_seed", None)
    if seed and commitment(bytes.fromhex(seed)) != body.get("dice_commitment"):
        raise refused(f"line {number}: the revealed seed does not open the commitment")
    return event
