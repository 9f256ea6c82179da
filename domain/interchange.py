"""Reading a match export back (docs/interchange.md): the events exactly as they were, for
`Matches.import_match`. Pure: the caller supplies the new seat token hashes.

The export leaves out what is private on every surface: the dice seed (unless revealed) and
the SHA-256 of seat tokens. An imported match gets fresh seat tokens; its seed is the one
revealed in the file, or unknown (then the referee commits a fresh seed before any server
roll: `POST .../dice/reveal`). Likewise its card seed (revealed when the match ended), or
unknown: then its decks cannot be shuffled.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from pydantic import ValidationError

from domain import events as ev
from domain import json_input
from domain.dice import commitment
from domain.errors import InvalidAction
from domain.integrity import content_hash, verify
from domain.rulesets import get_ruleset

UNKNOWN_SEED = ""  # the dice seed of an imported match whose seed was never revealed
IMPORTED_TOKEN = "imported"  # a seat token hash no token can have (not a SHA-256)


def refused(detail: str) -> InvalidAction:
    return InvalidAction(detail, rule="core-import")


def read_export(lines: Iterable[str], token_hashes: dict[str, str]
                ) -> tuple[UUID, list[ev.Event]]:
    """The match id and the events of a complete (referee's) export, each checked: the file
    verifies, every line is an event that loads and hashes as exported."""
    text = list(lines)
    report = verify(text)
    if not report.ok:
        raise refused(f"the file does not verify: {report.problems[0]}")
    header = json_input.loads(text[0])
    try:
        match_id = UUID(str(header.get("match_id")))
    except ValueError:
        raise refused("line 1: no match id in the header") from None
    bodies = [json_input.loads(line) for line in text[1:]]
    revealed = {body["dice_commitment"]: body["seed"] for body in bodies
                if body.get("type") == "DiceSeedRevealed"}
    revealed.update({body["card_commitment"]: body["card_seed"] for body in bodies
                     if body.get("type") == "DiceSeedRevealed" and body.get("card_seed")})
    events = []
    for number, body in enumerate(bodies, start=2):
        events.append(_event(number, body, match_id, revealed, token_hashes))
    diverged = divergence(events)
    if diverged is not None:
        raise refused(diverged)
    return match_id, events


def divergence(events: list[ev.Event]) -> str | None:
    """Where a log stops fitting the rules this battlelog has: the match pins its ruleset
    and version (`MatchCreated`); every step the turn marker stood on must still exist. The
    first divergence, with its line, event and rule; None if the log fits."""
    created = events[0]
    assert isinstance(created, ev.MatchCreated)
    try:
        ruleset = get_ruleset(created.ruleset, created.options)
        ruleset.sides.check(len(created.sides), ruleset.title)
    except InvalidAction as error:
        return f"line 2: event 1 (MatchCreated): {error.detail}"
    played = f"played under {created.ruleset} v{created.ruleset_version}"
    for event in events:
        marker = getattr(event, "marker", None)
        if marker is None:
            continue
        try:
            ruleset.sequence.step(marker.step)
        except KeyError:
            return (f"line {event.version + 1}: event {event.version} ({event.type_name()}): "
                    f"{ruleset.title} v{ruleset.version} has no step '{marker.step}' "
                    f"({played}; rule {event.rule or 'core-sequence'})")
    return None


def _event(number: int, body: dict[str, Any], match_id: UUID, revealed: dict[str, str],
           token_hashes: dict[str, str]) -> ev.Event:
    if "hidden" in body:
        raise refused(f"line {number}: this is a player's export (fields are hidden); "
                      "import the referee's")
    cls = ev.EVENT_TYPES.get(str(body.get("type")))
    if cls is None:
        raise refused(f"line {number}: unknown event type '{body.get('type')}'")
    data = {k: v for k, v in body.items() if k not in ("version", "type")}
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
    if content_hash(event.public("referee")) != body["hash"]:
        raise refused(f"line {number}: the event does not load as it was exported "
                      "(a field this version of battlelog does not know?)")
    seed = getattr(event, "dice_seed", None)
    if seed and commitment(bytes.fromhex(seed)) != body.get("dice_commitment"):
        raise refused(f"line {number}: the revealed seed does not open the commitment")
    return event
