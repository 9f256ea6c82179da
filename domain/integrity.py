"""Integrity: the hash chain over a match's events, and the offline check of an export.

Every event carries `prev_hash` (the hash of the event before it; 64 zeros for the first) and
`hash`: SHA-256 of its canonical content. The content is the event as the referee's export
shows it (`Event.public("referee")`: never the private fields such as the dice seed), minus
`hash`, with a commitment in place of each field some seat may not see
(`domain.events.commitments.hashed_content`: the same content from every seat's line), in
canonical JSON: top-level null values left out (so a field added later with a null default
leaves old hashes valid), keys sorted, no spaces, UTF-8. Changing any event, its order, or
dropping one breaks the chain from there on. The application salts each such field
(`salted`) before the events are chained.

`verify(lines)` checks an export (docs/integrity.md): each line canonical, the header's own
hash and its agreement with the events, each link, each hash, each hidden field (only one
the file's seat may not see, committed: `domain.hidden_fields`) and each shown committed
field against its commitment, and, once the dice seed is
revealed, every server roll recomputed from the seed, the players' entropy and the roll
index; once the card seed is revealed (at the end), every shuffle likewise (a match created
before card seeds shuffled with the dice seed). Read once, a roll waits for its seed's
reveal further on; a file that can be read twice passes `revealed_seeds` of a first pass,
and then each roll is checked as it is read, nothing held per roll. Pure: no store, no clock.
Lines after the match's last event (the header's `events`) that are annotations
(`domain.events.annotations`) are counted and not chained: they are not the match's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from domain import json_input
from domain.dice import commitment
from domain.events.annotations import ANNOTATION_TYPES
from domain.events.commitments import hashed_content, small_float
from domain.hidden_fields import LineSecrets
from domain.integrity_rolls import InitiativeOrder, faces_of, server_faces
from domain.rulefiles.identity import file_hash

GENESIS = "0" * 64
EXPORT_FORMAT = "battlelog-match"
EXPORT_VERSION = 1
# Header fields that repeat the match's first event (`MatchCreated`).
HEADER_FROM_CREATED = ("ruleset", "ruleset_version", "ruleset_hash", "scenario", "sides",
                       "dice_commitment")


def split_lines(text: str) -> list[str]:
    """An export's lines, each with its newline. Only "\n" ends a line: a note may hold
    other line separators (U+2028, ...), which `str.splitlines` would wrongly split on."""
    parts = text.split("\n")
    return [f"{part}\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def canonical(body: dict[str, Any]) -> str:
    """The canonical JSON of an export line or of an event's content: top-level keys whose
    value is null left out, keys sorted, no spaces, UTF-8."""
    return json.dumps({k: v for k, v in body.items() if v is not None}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)


def canonical_line(body: dict[str, Any], *, floats: bool = True) -> str:
    """`canonical(body) + "\n"`, for a body decoded from JSON (no NaN or infinity), through
    orjson: the same bytes, several times faster. orjson writes a float below 1e-4 in
    magnitude differently from Python's `json` ("0.00001", "2.5e-7" for "1e-05",
    "2.5e-07"): a line that may hold one, or an integer beyond 64 bits, takes `canonical`.
    `floats=False` promises the body holds no float at all (its schema has none)."""
    return _canonical_bytes(body, floats, orjson.OPT_APPEND_NEWLINE).decode()


def _canonical_bytes(body: dict[str, Any], floats: bool = True, option: int = 0) -> bytes:
    """`canonical(body)` encoded (`option`: orjson's `OPT_APPEND_NEWLINE` adds "\n"), as
    `canonical_line` makes it."""
    try:
        out = orjson.dumps(body if None not in body.values() else {
            k: v for k, v in body.items() if v is not None},
            option=orjson.OPT_SORT_KEYS | option)
    except orjson.JSONEncodeError:
        out = None
    if out is None or floats and small_float(out):
        return (canonical(body) + ("\n" if option else "")).encode()
    return out


def content_hash(body: dict[str, Any]) -> str:
    """SHA-256 of an event's content: its canonical JSON without `hash` (a body from JSON or
    from a model's JSON dump: no NaN or infinity), made as `canonical_line` makes a line."""
    content = {k: v for k, v in body.items() if v is not None and k != "hash"}
    return hashlib.sha256(_canonical_bytes(content)).hexdigest()


def event_hash(line: dict[str, Any]) -> str:
    """The hash an event's line (as any seat has it) must carry: SHA-256 of what it covers
    (`hashed_content`), in canonical JSON."""
    return content_hash(hashed_content(line))


def salted(events: Iterable[Any], draw: Callable[[], bytes]) -> list[Any]:
    """`events` (domain events) with a fresh salt (`draw()`, the application's randomness)
    for each field some seat may not see (`Event.committed_fields`), replacing any they
    held (a fork's copies are salted anew); the others as they are."""
    out = []
    for event in events:
        fields = event.committed_fields()
        out.append(event.model_copy(update={"salts": {
            name: draw().hex() for name in sorted(fields)}}) if fields else event)
    return out


def chained(events: Iterable[Any], prev_hash: str) -> list[Any]:
    """`events` (domain events, in order, `salted`) with their `prev_hash` and `hash` set.
    Each is dumped to JSON once (`Event.keep_json`): its hash, its stored record
    (`domain.app.persistence`) and the answer that tells it (`Event.public`) share it."""
    out = []
    for event in events:
        dumped = event.as_json()
        event.keep_json(dumped)
        body = event.public("referee")
        body["prev_hash"] = prev_hash = prev_hash or GENESIS
        digest = event_hash(body)
        linked = event.model_copy(update={"prev_hash": prev_hash, "hash": digest})
        linked.keep_json({**dumped, "prev_hash": prev_hash, "hash": digest})
        out.append(linked)
        prev_hash = digest
    return out


@dataclass
class Report:
    """What `verify` found: `problems` name the line (1: the header) and the event version."""

    events: int = 0
    chain_head: str = ""
    rolls_checked: int = 0
    rolls_unchecked: int = 0  # server rolls whose seed is not revealed yet
    rolls_inherited: int = 0  # a fork's copied rolls: the origin match's to verify
    events_hidden: int = 0  # a player's export: events with hidden fields (not recomputed)
    # of those, events whose hash could not be checked: hidden fields recorded before
    # commitments (their hash covers values the file does not hold)
    events_unchecked: int = 0
    annotations: int = 0  # annotation lines after the events: not the match's, not chained
    problems: list[str] = field(default_factory=list)
    ruleset_hash: str | None = None  # the ruleset file the match was created under, if any

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "events": self.events, "chain_head": self.chain_head,
                "rolls_checked": self.rolls_checked, "rolls_unchecked": self.rolls_unchecked,
                "rolls_inherited": self.rolls_inherited, "events_hidden": self.events_hidden,
                "events_unchecked": self.events_unchecked,
                "annotations": self.annotations, "problems": self.problems,
                **({"ruleset_hash": self.ruleset_hash} if self.ruleset_hash else {})}


REVEALED = '"type":"DiceSeedRevealed"'  # how a reveal's line says its type (canonical JSON)


def revealed_seeds(lines: Iterable[str]) -> dict[str, str]:
    """The seeds an export reveals (`DiceSeedRevealed`), dice and card seeds alike, by the
    commitment each opens (as the line states it: `verify` checks it), in hex. Only lines
    that name the type are parsed."""
    seeds: dict[str, str] = {}
    for line in lines:
        if REVEALED not in line:
            continue
        try:
            body = json_input.loads(line)
        except ValueError:
            continue
        if not isinstance(body, dict) or body.get("type") != "DiceSeedRevealed":
            continue
        for said, seed in (("dice_commitment", "seed"), ("card_commitment", "card_seed")):
            if isinstance(body.get(said), str) and isinstance(body.get(seed), str):
                seeds[body[said]] = body[seed]
    return seeds


def verify(lines: Iterable[str], seeds: Mapping[str, str] | None = None,
           ruleset: str | None = None) -> Report:
    """Check an export: a header line, then one event per line (docs/integrity.md).
    `seeds`: `revealed_seeds` of the same file, read before: each server roll is then
    recomputed as it is read (a seed that does not open its commitment recomputes none).
    A match created from a ruleset file pins the file's hash: the file the header carries
    must have it, and so must the file whose hash is `ruleset` when one is given (the file
    the log is to be replayed under)."""
    report = Report()
    prev = GENESIS
    epochs: list[tuple[str, bytes | None]] = []  # (commitment, seed once revealed) per epoch
    # The card seeds' epochs likewise, if the match has card seeds (a match created before
    # them shuffled with its dice seeds); a commitment of None: no card seed in force.
    cards: list[tuple[str | None, bytes | None]] = []
    # (line, the epochs of its seed, its epoch, the entropy then, the event)
    rolls: list[tuple[int, list[tuple[Any, bytes | None]], int, tuple[str, ...],
                      dict[str, Any]]] = []
    entropy: tuple[str, ...] = ()
    header: dict[str, Any] | None = None
    inherited = 1  # events up to this version were copied from a fork's origin
    rolling = InitiativeOrder()
    secrets = LineSecrets(None)
    for number, line in enumerate(lines, start=1):
        body = _parse(line, number, report)
        if body is None:
            return report
        if header is None:
            header = body
            if body.get("format") != EXPORT_FORMAT or body.get("format_version") != (
                    EXPORT_VERSION):
                report.problems.append(f"line 1: not a {EXPORT_FORMAT} export, version "
                                       f"{EXPORT_VERSION}")
                return report
            if body.get("hash") != content_hash(body):
                report.problems.append("line 1: the header was altered (its content does not "
                                       "match its hash)")
                return report
            viewer = body.get("viewer")
            secrets = LineSecrets(viewer if isinstance(viewer, str) else None)
            continue
        if report.events == header.get("events") and body.get("type") in ANNOTATION_TYPES:
            report.annotations += 1  # after the match's last event: annotations, unchained
            continue
        version = body.get("version")
        if version != report.events + 1:
            report.problems.append(_out_of_place(number, report.events + 1, body))
            return report
        report.events += 1
        kind = body.get("type")
        if body.get("prev_hash") != prev:
            report.problems.append(f"line {number}: event {version} ({kind}) does not follow "
                                   f"event {version - 1} (prev_hash is not its hash): an event "
                                   "was removed, changed or moved")
            return report
        problem, checkable = secrets.check(body)
        if problem is not None:
            report.problems.append(f"line {number}: event {version} ({kind}) {problem}")
            return report
        report.events_hidden += "hidden" in body  # a seat's export: some values not here
        if not checkable:  # hidden fields recorded before commitments: not in the file
            report.events_unchecked += 1
        elif body.get("hash") != event_hash(body):
            report.problems.append(f"line {number}: event {version} ({kind}) was altered (its "
                                   "content does not match its hash)")
            return report
        prev = body["hash"]
        if kind == "MatchCreated":
            epochs.append((body.get("dice_commitment", ""), None))
            if body.get("card_commitment") is not None:
                cards.append((body["card_commitment"], None))
            inherited = 1 + (body.get("inherited_events") or 0)
            rolling.sides = [s.get("id") for s in body.get("sides") or ()]
            differs = [key for key in HEADER_FROM_CREATED if header.get(key) != body.get(key)]
            if differs:
                report.problems.append(f"line 1: the header's {', '.join(differs)} differ(s) "
                                       "from the match's first event")
                return report
            if version == 1 and not _same_ruleset(report, body, header.get("ruleset_file"),
                                                  ruleset):
                return report
        elif kind == "SeatJoined" and body.get("entropy"):
            entropy = (*entropy, body["entropy"])
        elif kind == "DiceSeedRevealed":
            seed, card_seed = _hex(body.get("seed")), _hex(body.get("card_seed"))
            if seed is None or not epochs or commitment(seed) != epochs[-1][0]:
                report.problems.append(f"line {number}: event {version} reveals a seed that "
                                       "does not match the commitment")
                return report
            epochs[-1] = (epochs[-1][0], seed)
            if body.get("card_seed") is not None:
                if card_seed is None or not cards or commitment(card_seed) != cards[-1][0]:
                    report.problems.append(f"line {number}: event {version} reveals a card "
                                           "seed that does not match the commitment")
                    return report
                cards[-1] = (cards[-1][0], card_seed)
        elif kind == "InitiativeRolled":
            body = rolling.ordered(body)
        elif kind == "DiceCommitted":
            epochs.append((body["dice_commitment"], None))
            if cards and body.get("card_commitment") != cards[-1][0]:  # else carried on
                cards.append((body.get("card_commitment"), None))
        epoch = cards if kind == "DeckShuffled" and cards else epochs
        if body.get("roll_index") is None:
            continue
        if version <= inherited:
            report.rolls_inherited += 1
        elif not epoch:
            continue
        elif seeds is None:
            rolls.append((number, epoch, len(epoch) - 1, entropy, body))
        elif not _roll_checked(report, number, _opening(seeds, epoch[-1][0]), entropy, body):
            return report
    report.chain_head = prev
    if header is None:
        report.problems.append("the file is empty")
        return report
    if (header.get("chain_head"), header.get("events")) != (prev, report.events):
        report.problems.append("line 1: the header's chain head or event count is not the "
                               "export's: events are missing at the end")
    for number, held, at, known, body in rolls:
        _roll_checked(report, number, held[at][1], known, body)
    return report


def _out_of_place(number: int, expected: int, body: dict[str, Any]) -> str:
    """The problem of line `number`, which holds not event `expected` but `body`: the
    event missing here, or the one out of its place."""
    version, kind = body.get("version"), body.get("type")
    if kind in ANNOTATION_TYPES:
        return (f"line {number}: event {expected} is missing (the match's events end here, "
                "before the header's count: annotations follow)")
    if isinstance(version, int) and version > expected:
        gone = f"event {expected} is" if version == expected + 1 else (
            f"events {expected} to {version - 1} are")
        return f"line {number}: {gone} missing (this line holds event {version}, {kind})"
    return f"line {number}: event {version} ({kind}) where event {expected} was expected"


def _same_ruleset(report: Report, created: dict[str, Any], carried: Any,
                  given: str | None) -> bool:
    """Whether the match's ruleset file (the hash its first event pins) is the file the
    export carries and the one given (`given`, a hash); each difference is a problem."""
    pinned = created.get("ruleset_hash")
    report.ruleset_hash = pinned if isinstance(pinned, str) else None
    if carried is not None and file_hash(carried) != pinned:
        report.problems.append(f"line 1: the ruleset file the export carries ({file_hash(carried)}"
                               f") is not the file the match was created under ({pinned})")
    if given is not None and given != pinned:
        report.problems.append(f"line 2: the match was created under the ruleset file "
                               f"{pinned or '(none: a built-in game)'}, not under the file "
                               f"given ({given}): replayed under it, the log is not the same "
                               "match")
    return not report.problems


def _opening(seeds: Mapping[str, str], said: str | None) -> bytes | None:
    """The revealed seed that opens the commitment `said`; None if none does."""
    seed = _hex(seeds.get(said)) if said is not None else None
    return seed if seed is not None and commitment(seed) == said else None


def _roll_checked(report: Report, number: int, seed: bytes | None, known: tuple[str, ...],
                  body: dict[str, Any]) -> bool:
    """Recompute one server roll from its seed (None: not revealed, counted unchecked);
    False, with the problem noted, if its faces are not the seed's."""
    if seed is None:
        report.rolls_unchecked += 1
        return True
    expected = server_faces(seed, known, body)
    if expected is None:
        return True
    report.rolls_checked += 1
    if expected != faces_of(body):
        report.problems.append(f"line {number}: event {body['version']}: server roll "
                               f"{body['roll_index']} should be {expected}, not "
                               f"{faces_of(body)}")
        return False
    return True


def _hex(value: Any) -> bytes | None:
    """A revealed seed's bytes; None if it is not hex."""
    try:
        return bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _parse(line: str, number: int, report: Report) -> dict[str, Any] | None:
    text = line.removesuffix("\n")
    try:
        body = json_input.loads(text)
    except ValueError:
        report.problems.append(f"line {number}: not JSON")
        return None
    if not isinstance(body, dict) or canonical(body) != text or not line.endswith("\n"):
        report.problems.append(f"line {number}: not a canonical export line (changed spacing, "
                               "key order or line end)")
        return None
    return body
