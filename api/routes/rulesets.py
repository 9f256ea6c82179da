"""The rulesets the service hosts, for a client building a scenario: each one's id, title,
what it is in a line, how many sides it plays, the unit fields and the options it uses,
where its units start and whether its sides hold decks of cards. Read-only; the lobby's scenario form is built on it.

The ruleset files the service holds are listed a page at a time, each id once (the file
creation by that id picks), by its id, title, version and hash: what a scenario of one
needs is read from `GET /api/rulesets/{hash}/info` once it is chosen."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from api import scenarios
from api.problems import RulesetFileNotFound
from domain.rulefiles.identity import PATTERN
from domain.rulefiles.model_pieces import (
    Attribute,
    ChoiceAttribute,
    IntegerAttribute,
    TextAttribute,
)
from domain.rulesets import get_ruleset, ruleset_ids
from projections.ruleset_store import MOST, PAGE, StoredRuleset, store_of
from projections.ruleset_table import Row

router = APIRouter(prefix="/api/rulesets", tags=["scenarios"])

Place = Literal["point", "hex", "box"]


class Choice(BaseModel):
    value: str
    label: str


class UnitField(BaseModel):
    """A unit field: `name` says where it goes in a unit of `CreateMatch` (`figures`,
    `morale_die`, `extra.wing` in `extra`, `markers.leadership` a marker count)."""

    name: str
    label: str
    kind: Literal["number", "choice", "text", "unit"]  # unit: another unit of its side, by name
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    values: list[Choice] | None = None
    says: str = ""
    only: list[str] | None = None  # the kinds of unit that have it (None: every kind)


class OptionField(BaseModel):
    """A match option: a whole `number`, or `roles` (each role given to one side)."""

    name: str
    label: str
    kind: Literal["number", "roles"]
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    roles: list[Choice] | None = None
    says: str = ""


class SideCount(BaseModel):
    """How many sides a match of the ruleset has (`fewest` to `most`) and the rule that says
    so: creating a match with another number is refused (422 naming `rule`)."""

    fewest: int
    most: int
    rule: str


class RulesetInfo(BaseModel):
    id: str
    title: str
    about: str
    sides: SideCount
    kinds: list[Choice]  # the kinds of unit it knows (empty: any kind, named by the player)
    fields: list[UnitField]
    places: list[Place]  # where its units may start, the usual first
    boxes: list[Choice]  # the off-board boxes it uses
    cards: bool  # whether its sides hold decks of cards
    options: list[OptionField]
    sample: str | None  # the sample scenario of this ruleset, if any (GET /api/scenarios)
    # where the form reads a sample set-up (a `CreateMatch` body): the sample scenario's
    # address, or a stored file's own sample (GET /api/rulesets/{hash}/sample)
    sample_at: str | None = None
    # a ruleset file the service holds (docs/rulesets/authoring.md): its content hash, which
    # a match created from it gives as `ruleset_hash`; None: a built-in game
    hash: str | None = None


def _c(value: str, label: str) -> Choice:
    return Choice(value=value, label=label)


DIE = [_c(d, d) for d in ("d12", "d10", "d8", "d6", "d4")]
TURNS = OptionField(name="turns", label="Turns", kind="number", minimum=1, maximum=100,
                    says="the match ends after this turn (leave empty for no limit)")
BOXES = {"reserve": "Reserve", "reinforcements": "Reinforcements", "transport": "Transport",
         "eliminated": "Eliminated"}


def _boxes(*names: str) -> list[Choice]:
    return [_c(n, BOXES[n]) for n in names]


def _r(**parts: Any) -> dict[str, Any]:
    return parts


_INFO: dict[str, dict[str, Any]] = {
    "freeform": _r(
        about="Any game: a ledger with a turn marker (setup, movement, combat, end); "
              "every action is open in every phase.",
        kinds=[], places=["point", "hex", "box"],
        boxes=_boxes("reserve", "reinforcements", "transport", "eliminated"), cards=True,
        fields=[UnitField(name="figures", label="Figures", kind="number", minimum=0, maximum=10_000,
                          says="the models in the unit"),
                UnitField(name="steps", label="Steps", kind="number", minimum=0, maximum=100,
                          says="its strength steps, for a counter")],
        options=[]),
    "atomic-africa": _r(
        about="Two players, miniatures on a table: alternating activations, morale on a "
              "shifting die, squads that split (AA-1 to AA-8).",
        kinds=[_c("squad", "Squad"), _c("team", "Team")], places=["point", "box"], boxes=_boxes("reserve"),
        cards=True,
        fields=[UnitField(name="figures", label="Figures", kind="number", required=True,
                          minimum=1, maximum=10_000, says="the models in the squad"),
                UnitField(name="morale_die", label="Morale die", kind="choice", required=True,
                          values=DIE, says="its base Morale die: wounds shift it down")],
        options=[TURNS]),
    "battlegroup": _r(
        about="Two or more players: battlegroups activated in initiative order, Commanders "
              "and Command Cards, round by round (BG-1 to BG-9).",
        kinds=[_c("squad", "Squad"), _c("commander", "Commander"), _c("vehicle", "Vehicle")],
        places=["point", "box"], boxes=_boxes("reserve", "transport"), cards=True,
        fields=[UnitField(name="figures", label="Figures", kind="number", minimum=0,
                          maximum=10_000, says="the models in a squad", only=["squad"]),
                UnitField(name="cv", label="Command Value", kind="number", minimum=-20,
                          maximum=20, says="a Commander's CV", only=["commander"]),
                UnitField(name="extra.battlegroup", label="Battlegroup", kind="text",
                          says="the battlegroup it belongs to (empty: an auxiliary squad)")],
        options=[OptionField(name="rounds", label="Rounds", kind="number", required=True,
                             minimum=1, maximum=100, says="the scenario's number of rounds")]),
    "wing-command": _r(
        about="Two players commanding units grouped in wings, with officers and their "
              "leadership cubes (WC-1 to WC-11).",
        kinds=[_c("unit", "Unit"), _c("piece", "Piece"), _c("fo", "Field Officer"),
               _c("co", "Commanding Officer")],
        places=["point", "box"], boxes=_boxes("reserve", "eliminated"), cards=False,
        fields=[UnitField(name="qv", label="Quality Value", kind="number", minimum=-20,
                          maximum=20, says="a unit's or a piece's QV", only=["unit", "piece"]),
                UnitField(name="casualty_value", label="Casualty Value", kind="number",
                          minimum=0, maximum=100, says="a unit's CV", only=["unit"]),
                UnitField(name="lv", label="Leadership Value", kind="number", minimum=-20,
                          maximum=20, says="an officer's LV", only=["fo", "co"]),
                UnitField(name="markers.leadership", label="Leadership cubes", kind="number",
                          minimum=0, maximum=1000, says="an officer's white cubes", only=["fo", "co"]),
                UnitField(name="extra.wing", label="Wing", kind="text",
                          says="the wing it belongs to or commands", only=["unit", "fo", "co"]),
                UnitField(name="extra.unit", label="Belongs to unit", kind="unit",
                          says="a piece's unit, by that unit's name", only=["piece"])],
        options=[TURNS]),
    "extended-sequence": _r(
        about="Two sides, attacker and defender, on a hex map: Initial, Rally and Combat "
              "phases, Q rolls and rates of fire (ES-1 to ES-6).",
        kinds=[_c("base", "Base"), _c("leader", "Leader"), _c("vehicle", "Vehicle")],
        places=["hex", "box"], boxes=_boxes("reinforcements", "eliminated"), cards=False,
        fields=[UnitField(name="q", label="Quality (Q)", kind="number", required=True,
                          minimum=-20, maximum=20, says="its quality"),
                UnitField(name="extra.rof", label="Rate of fire", kind="number", minimum=1,
                          maximum=20, says="shots a player-turn (1 if empty)", only=["base", "vehicle"]),
                UnitField(name="extra.modifier", label="Leader's modifier", kind="number",
                          minimum=-6, maximum=6, says="a Q4+1 leader has +1", only=["leader"])],
        options=[TURNS,
                 OptionField(name="radio_contact", label="Radio contact score", kind="number",
                             minimum=1, maximum=6, says="the d6 score artillery needs (4 if empty)"),
                 OptionField(name="q_roll_margin", label="Q roll margin", kind="number",
                             minimum=0, maximum=10, says="added to Q for a Q roll (2 if empty)")]),
    "normandy": _r(
        about="Allied against German on a hex map: operations, supply and air power, "
              "Game-Turn by Game-Turn (NO-1 to NO-5).",
        kinds=[_c("division", "Division"), _c("brigade", "Brigade"), _c("hq", "Corps HQ"),
               _c("artillery", "Artillery")],
        places=["hex", "box"], boxes=_boxes("reinforcements", "eliminated"), cards=False,
        fields=[UnitField(name="steps", label="Steps", kind="number", minimum=0, maximum=100,
                          says="2 at full strength, 1 reduced", only=["division", "brigade", "artillery"]),
                UnitField(name="extra.movement", label="Movement", kind="number", minimum=0,
                          maximum=100, says="its printed movement allowance", only=["division", "brigade", "artillery"]),
                UnitField(name="extra.corps", label="Corps HQ", kind="unit",
                          says="its corps HQ, by that unit's name", only=["division", "brigade", "artillery"])],
        options=[OptionField(name="roles", label="Who plays whom", kind="roles", required=True,
                             roles=[_c("allied", "Allied"), _c("german", "German")],
                             says="each side's part in the game"),
                 OptionField(name="turns", label="Game-Turns", kind="number", minimum=1,
                             maximum=200, says="the last Game-Turn (leave empty for no limit)")]),
}


def _samples() -> dict[str, str]:
    out: dict[str, str] = {}
    for name in scenarios.names():
        out.setdefault(scenarios.load(name).ruleset, name)
    return out


def _info(ruleset_id: str, sample: str | None) -> RulesetInfo:
    """What the ruleset itself declares (title, sides; built with its sample's options),
    beside what a scenario form needs of it."""
    ruleset = get_ruleset(ruleset_id, scenarios.load(sample).options if sample else {})
    sides = SideCount(fewest=ruleset.sides.fewest, most=ruleset.sides.most,
                      rule=ruleset.sides.rule)
    return RulesetInfo(id=ruleset_id, title=ruleset.title, sides=sides, sample=sample,
                       sample_at=f"/api/scenarios/{sample}" if sample else None,
                       **_INFO[ruleset_id])


def _field(name: str, attribute: Attribute, kind: str) -> UnitField:
    """A unit kind's attribute, as the scenario form asks for it (in the unit's `extra`)."""
    said = {"name": f"extra.{name}", "label": attribute.title or name, "only": [kind]}
    if isinstance(attribute, IntegerAttribute):
        return UnitField(**said, kind="number", required=attribute.required,
                         minimum=attribute.minimum, maximum=attribute.maximum)
    if isinstance(attribute, ChoiceAttribute):
        return UnitField(**said, kind="choice", required=attribute.required,
                         values=[_c(v, v) for v in attribute.values])
    if isinstance(attribute, TextAttribute):
        return UnitField(**said, kind="text", required=attribute.required)
    return UnitField(**said, kind="choice", values=[_c("yes", "yes")])  # a flag: set or not


def _stored_info(stored: StoredRuleset) -> RulesetInfo:
    """What a stored ruleset file declares, as the scenario form needs it."""
    file = stored.file()
    low, high = file.sides.bounds()
    return RulesetInfo(
        id=file.id, title=file.title, hash=stored.hash,
        about=file.description or f"A ruleset file (version {file.version}).",
        sides=SideCount(fewest=low, most=high, rule=file.sides.rule),
        kinds=[_c(k, kind.title or k) for k, kind in file.unit_kinds.items()],
        fields=[_field(name, attribute, k) for k, kind in file.unit_kinds.items()
                for name, attribute in kind.attributes.items()],
        places=["point", "hex", "box"], boxes=_boxes("reserve", "reinforcements",
                                                     "eliminated"),
        cards=False, options=[], sample=None, sample_at=f"/api/rulesets/{stored.hash}/sample")


class StoredEntry(BaseModel):
    """A ruleset file the service holds, as the list gives it: never the file, nor what a
    scenario of it needs (`info_at`: where that is read)."""

    id: str
    title: str
    version: int
    hash: str
    info_at: str  # GET /api/rulesets/{hash}/info: its RulesetInfo
    sample_at: str  # GET /api/rulesets/{hash}/sample: a sample set-up


def _entry(row: Row) -> StoredEntry:
    return StoredEntry(id=row.id, title=row.title, version=row.version, hash=row.hash,
                       info_at=f"/api/rulesets/{row.hash}/info",
                       sample_at=f"/api/rulesets/{row.hash}/sample")


@router.get("")
async def list_rulesets(
        request: Request, response: Response,
        limit: Annotated[int, Query(ge=1, le=MOST)] = PAGE,
        cursor: Annotated[str | None, Query(max_length=400)] = None,
) -> list[RulesetInfo | StoredEntry]:
    """The rulesets the service hosts: on the first page the built-in games (freeform
    first, each with what a scenario of it needs), then up to `limit` of the ruleset files
    it holds, by title, each id once (the version creation by that id picks) with its id,
    title, version and `hash`, and where what a scenario of it needs is read (`info_at`).
    A `Link` header (`rel="next"`) gives the next page's address while there is one."""
    store = store_of(request.app.state.matches)
    rows, after = await run_in_threadpool(lambda: store.page(limit=limit, after=cursor))
    if after is not None:
        response.headers["Link"] = f'</api/rulesets?limit={limit}&cursor={after}>; rel="next"'
    built_in: list[RulesetInfo | StoredEntry] = []
    if cursor is None:
        samples = _samples()
        ids = sorted(ruleset_ids(), key=lambda r: (r != "freeform", r))
        built_in = [_info(r, samples.get(r)) for r in ids if r in _INFO]
    return built_in + [_entry(row) for row in rows]


@router.get("/{content_hash}/info")
async def stored_ruleset_info(content_hash: Annotated[str, Path(pattern=PATTERN)],
                              request: Request) -> RulesetInfo:
    """What a scenario of a stored ruleset file needs (as the list gives it for a built-in
    game): how many sides, the unit fields it reads, where units start."""
    found = await run_in_threadpool(store_of(request.app.state.matches).get, content_hash)
    if found is None:
        raise RulesetFileNotFound(f"no ruleset file {content_hash} is stored here",
                                  rule="core-rulesets")
    return _stored_info(found)
