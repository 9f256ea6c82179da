"""Candidates for what is recorded rather than done to a unit: dice, results, tracks, victory
points, notes, disputes and the end of the match."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from domain.dice import parse
from domain.legal.domains import results_of
from domain.legal.model import Candidate, Input, Option, number, one_of, text
from domain.legal.probe import Probe
from domain.legal.units import Offers
from domain.legal.words import side_name, track_title, words
from domain.owed import owed_by
from domain.refusal_words import in_words
from domain.rulesets.base import TrackValues
from domain.state import MatchState

MAX_VP = 10_000


def roll_dice(p: Probe) -> Offers:
    """Any roll of the players' own: the service's dice, or table dice (declared, then thrown,
    or both at once with `results`)."""
    # The dice as the declared domain lists them (a tap each; others may be given too), and
    # what the roll is for in the game's words: the duty it discharges, where the seat owes
    # a roll, else "a roll" (the players may say more).
    owed = [o for o in owed_by(p.state, p.ruleset, p.seat) if o.discharges("roll_dice")]
    purpose = re.sub(r"^roll (for )?", "", owed[0].says) if owed else "a roll"
    yield "roll_dice", [Candidate(
        label=purpose if owed else "Roll dice",
        body={"type": "roll_dice", "purpose": purpose[:200]},
        inputs=(one_of("notation", "Dice", [(n, n) for n in p.domain("roll_dice", "notation", {})],
                       required=True, open_=True, example="d6"),
                text("purpose", "What for", example="a roll"),
                one_of("unit_ids", "The units it concerns",
                       [(u.id, u.name) for u in p.units], many=True, open_=True),
                one_of("source", "Whose dice", [("server", "the service's dice"),
                                                ("table", "dice thrown at the table")]),
                Input(name="results", label="The faces thrown (table dice)", kind="dice"),
                text("success", "It succeeds when (said before the roll)"),
                text("rule", "The rule it is for")))]


def record_roll(p: Probe) -> Offers:
    declared = p.state.awaiting.declared if p.state.awaiting is not None else None
    if declared is None:
        return
    spec = parse(declared.notation)
    yield "record_roll", [Candidate(
        label=f"{declared.purpose} ({declared.notation})", body={"type": "record_roll"},
        inputs=(Input(name="results", label="The faces thrown", kind="dice", required=True,
                      minimum=1, maximum=spec.sides, example=[1] * spec.count,
                      says=f"{spec.count} face(s) from 1 to {spec.sides}, one per die"),))]


def enter_result(p: Probe) -> Offers:
    awaiting = p.state.awaiting
    yield "enter_result", [Candidate(
        label=in_words(awaiting.what, p.state) if awaiting is not None else "The result",
        body={"type": "enter_result"},
        inputs=(one_of("result", "The result read on your table",
                       [(r, r) for r in results_of(awaiting.rule if awaiting else None)],
                       required=True, open_=True, example="no effect"),
                Input(name="failed", label="It failed", kind="bool", example=True)))]


def set_track(p: Probe) -> Offers:
    """The tracks the game keeps, each with the values it takes; a game that names none
    keeps any track."""
    tracks = p.ruleset.tracks
    if not tracks:
        for name in sorted(p.state.tracks):
            yield "set_track", [Candidate(label=track_title(p.ruleset, name, p.state),
                                          body={"type": "set_track", "name": name},
                                          inputs=(text("value", "Value", required=True,
                                                       example=p.state.tracks[name]),))]
        yield "set_track", [Candidate(label="Another track", body={"type": "set_track"},
                                      inputs=(text("name", "Track", required=True,
                                                   example="track"),
                                              text("value", "Value", required=True,
                                                   example=1)))]
        return
    cities = p.state.options.get("cities")
    for pattern, values in tracks.items():
        names = {n for n in p.state.tracks if fnmatchcase(n, pattern)} | (
            set() if "*" in pattern else {pattern})
        if pattern == "control.*" and isinstance(cities, dict):
            names |= {f"control.{hex_id}" for hex_id in cities}
        for name in sorted(names):
            yield "set_track", [Candidate(label=track_title(p.ruleset, name, p.state),
                                          body={"type": "set_track", "name": name},
                                          inputs=(given,), family="value")
                                for given in _values(values, p.state.tracks.get(name), p.state)]
        if "*" in pattern:
            said = [pattern.replace("*", part) for part in _parts(p, pattern)]
            which = one_of("name", "Which one", [(name, track_title(p.ruleset, name, p.state))
                                                 for name in said],
                           required=True, open_=True) if said else text(
                "name", "Track", required=True, example=pattern.replace("*", "x"),
                says=f"a name of the form {pattern}")
            yield "set_track", [Candidate(
                label=track_title(p.ruleset, pattern.replace("*", "…")),
                body={"type": "set_track"}, family="value", inputs=(which, given))
                for given in _values(values, None, p.state)]


def _parts(p: Probe, pattern: str) -> list[str]:
    """What a pattern's `*` may name, as the page offers it by name: for a side's pattern
    (`support.allied.*`) the side itself (its army) and the side's units that its other units
    name in their data (a corps HQ, `extra.corps`); for `control.*` the hexes units stand on;
    other names are still accepted (the input is open)."""
    if pattern == "control.*":  # (a hex's control: the hexes units stand on, by name)
        return sorted({u.position.hex for u in p.state.in_play()
                       if u.position is not None and u.position.hex})
    side = next((s for s in pattern.split(".") if s in p.state.side_ids()), None)
    if side is None:
        return []
    units = [u for u in p.state.in_play(side)]
    named = {str(v) for u in units for v in u.extra.values()}
    return [side, *(u.id for u in units if u.id in named)]


def _values(values: TrackValues, current: object, state: MatchState) -> list[Input]:
    """The track's value input, once for each example worth trying (the first accepted is
    offered): the current value, else each value in turn; a side's id by the side's name
    ("north" -> "North")."""
    sides = set(state.side_ids())
    if isinstance(values, range):
        start = current if isinstance(current, int) and current in values else values.start
        return [number("value", "Value", values.start, values.stop - 1, required=True,
                       example=start)]
    listed = one_of("value", "Value", [
        (v, side_name(state, str(v)) if str(v) in sides else words(str(v))) for v in values],
        required=True)
    return [listed.model_copy(update={"example": v}) for v in values]


def score_vp(p: Probe) -> Offers:
    """Points for a side: the declared domain's amounts listed (a tap each), others accepted
    too (the input is open, within the schema's bounds)."""
    for side in p.state.sides:
        body = {"type": "score_vp", "side": side.id}
        listed = [(n, f"{n:+d}") for n in p.domain("score_vp", "points", body) if n]
        points = number("points", "Points", -MAX_VP, MAX_VP, required=True, example=1)
        points = points.model_copy(update={"open": True, "values": tuple(
            Option.model_construct(value=n, label=w) for n, w in listed)})
        yield "score_vp", [Candidate(label=side.name, side=side.id, body=body,
                                     inputs=(points, text("reason", "Why")))]


def add_note(p: Probe) -> Offers:
    yield "add_note", [Candidate(
        label="A note", body={"type": "add_note"},
        inputs=(text("text", "The note", required=True, example="a note"),
                Input(name="private", label="For you and the referee only", kind="bool",
                      example=True),
                number("about_version", "About the event", 1, p.version,
                       example=p.version)))]


def open_dispute(p: Probe) -> Offers:
    """A dispute about an event of its declared domain (1 to the match's version): the
    latest the rules let the seat dispute is the example."""
    body = {"type": "open_dispute"}
    yield "open_dispute", [Candidate(
        label="A dispute", body=body, family="about_version",
        examples=tuple(reversed(p.domain("open_dispute", "about_version", body))),
        inputs=(number("about_version", "About the event", 1, p.version, required=True,
                       example=p.version),
                text("text", "What is disputed", required=True, example="a dispute"),
                number("upto_version", "Up to the event", 1, p.version)))]


def end_match(p: Probe) -> Offers:
    proposing = p.side is not None
    for side in (*p.state.sides, None):
        said = f"{side.name} wins" if side is not None else "A tie"
        label = f"Propose: {said}" if proposing else said
        body = {"type": "end_match", **({"winner": side.id} if side is not None else {})}
        yield "end_match", [  # a proposal made already is made again only with a new reason
            Candidate(label=label, side=body.get("winner"), body=body,
                      inputs=(text("reason", "Why"),)),
            Candidate(label=label, side=body.get("winner"), body=body,
                      inputs=(text("reason", "Why (another reason than before)", required=True,
                                   example="another reason"),))]


def concede(p: Probe) -> Offers:
    others = [s.id for s in p.state.sides if s.id != p.seat]
    said = f" ({side_name(p.state, others[0])} wins)" if len(others) == 1 else ""
    yield "concede", [Candidate(label=f"Concede{said}", body={"type": "concede"},
                                inputs=(text("reason", "Why"),))]


def reopen_match(p: Probe) -> Offers:
    yield "reopen_match", [Candidate(label="Reopen the match", body={"type": "reopen_match"},
                                     inputs=(text("reason", "Why"),))]
