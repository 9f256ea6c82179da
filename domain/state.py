"""The state of a match: frozen pydantic models, changed only by `domain.evolve`.

Positions are on a table (`x`, `y` in inches), on a hex map (`hex`), or in an off-board
box (`box`). Markers are counted per kind, on a unit or at a location. Everything a
ruleset needs beyond the common attributes goes in `Unit.extra` or `MatchState.tracks`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Name = str  # ids of sides, units, markers, tracks: short, human-readable strings
MoraleDie = Literal["d4", "d6", "d8", "d10", "d12"]
Box = Literal["reserve", "reinforcements", "eliminated", "transport"]
TrackValue = int | float | str
MAX_COORDINATE = 100_000.0  # inches: any table, with room to spare
# A coordinate on the table: finite (JSON has no NaN or infinity, and the store would keep
# them as null) and bounded.
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_COORDINATE, le=MAX_COORDINATE)]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Position(Frozen):
    """Exactly one of: a table point (`x` and `y`, inches), a hex id, an off-board box."""

    x: Coordinate | None = None
    y: Coordinate | None = None
    hex: str | None = Field(default=None, min_length=1, max_length=16)
    box: Box | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Position:
        table = self.x is not None or self.y is not None
        if table and (self.x is None or self.y is None):
            raise ValueError("a table position needs both x and y")
        if [table, self.hex is not None, self.box is not None].count(True) != 1:
            raise ValueError("give exactly one of: x and y, hex, box")
        return self

    def label(self) -> str:
        if self.hex is not None:
            return self.hex
        if self.box is not None:
            return self.box
        return f"{self.x:g},{self.y:g}"


class Unit(Frozen):
    id: Name
    side: Name
    name: str
    kind: str = "unit"
    figures: int | None = Field(default=None, ge=0)
    steps: int | None = Field(default=None, ge=0)
    morale_die: MoraleDie | None = None
    qv: int | None = None
    cv: int | None = None
    lv: int | None = None
    casualty_value: int | None = None
    q: int | None = None
    extra: dict[str, TrackValue] = Field(default_factory=dict)
    position: Position | None = None
    status: tuple[str, ...] = ()  # sorted flags: broken, routed, disrupted, activated, ...
    markers: dict[str, int] = Field(default_factory=dict)  # kind -> count (> 0)
    removed: str | None = None  # why it left play (destroyed, eliminated, ...), or None


TURN_FLAGS = frozenset({"activated", "morale_rolled"})  # unit flags that end with the turn


class Side(Frozen):
    id: Name
    name: str


class TurnMarker(Frozen):
    """Where the match stands in its sequence of play.

    `step` is the path of the current step (`cleanup/split`); `counters` holds, for each
    repeating or player-turn phase on that path, how many times it has restarted this turn.
    """

    turn: int = 1
    step: str
    active_side: Name | None = None
    initiative: tuple[Name, ...] = ()
    counters: dict[str, int] = Field(default_factory=dict)
    done: tuple[Name, ...] = ()  # in a shared step: the sides that have said they are done

    @property
    def run(self) -> int:
        """Which run (0, 1, ...) of the innermost repeating phase the marker is in; 0 outside."""
        inner = max(self.counters, key=len, default=None)
        return 0 if inner is None else self.counters[inner]


class VictoryPoints(Frozen):
    points: int = 0
    by_turn: dict[int, int] = Field(default_factory=dict)  # turn -> total at its last score


class DiceRoll(Frozen):
    version: int
    roller: str
    notation: str
    dice: tuple[int, ...]
    total: int
    purpose: str
    source: Literal["server", "table"]


class DiceLog(Frozen):
    """How many rolls the effective history holds, and the latest few (the full log is the
    `DiceRolled` events)."""

    count: int = 0
    recent: tuple[DiceRoll, ...] = ()


class Outcome(Frozen):
    winner: Name | None  # None: a tie
    reason: str = ""


class EndProposal(Frozen):
    """An end of the match proposed by a side, and the sides that agree to it so far."""

    outcome: Outcome
    agreed: tuple[Name, ...]


class Declared(Frozen):
    """Table dice declared before they are thrown (`RollDeclared`; for a roll a ruling
    ordered made again, the roll it `replaces`, its `modifier` and what it `awaits`)."""

    version: int
    notation: str
    purpose: str
    unit_ids: tuple[Name, ...] = ()
    success: str | None = None
    rule: str | None = None
    replaces: int | None = None
    modifier: int | None = None
    awaits: str | None = None


class Awaiting(Frozen):
    """What the match waits for before anything else: the outcome of a roll the players
    read from their own table (`enter_result`), or the dice of a declared table roll
    (`record_roll`, when `declared` is set)."""

    what: str
    rule: str | None = None
    by: Name  # the seat that rolled (or the referee) enters it
    declared: Declared | None = None


class MatchState(Frozen):
    ruleset: str
    ruleset_version: int
    ruleset_hash: str | None = None  # the ruleset file's content hash; None: built in
    scenario: str
    casual: bool = False
    options: dict[str, TrackValue | list[str] | dict[str, str]] = Field(default_factory=dict)
    sides: tuple[Side, ...]
    units: dict[Name, Unit] = Field(default_factory=dict)
    location_markers: dict[str, dict[str, int]] = Field(default_factory=dict)
    tracks: dict[Name, TrackValue] = Field(default_factory=dict)
    vp: dict[Name, VictoryPoints] = Field(default_factory=dict)
    # Cards, per side: the deck (top first; its order is private to its owner), the hand
    # (private to its owner), the cards played this turn (`discards`: face up, public) and
    # the cards discarded face down this turn (`discarded`: private to its owner).
    decks: dict[Name, tuple[str, ...]] = Field(default_factory=dict)
    hands: dict[Name, tuple[str, ...]] = Field(default_factory=dict)
    discards: dict[Name, tuple[str, ...]] = Field(default_factory=dict)
    discarded: dict[Name, tuple[str, ...]] = Field(default_factory=dict)
    # The sides whose deck order this server does not know: an imported match's, dealt from a
    # card seed that stays secret until its end. They draw again once shuffled here.
    unknown_decks: tuple[Name, ...] = ()
    # Facts that last until the turn advances (`activated:<run>:<side>`, `drawn:<side>`, and
    # `<rule>:<unit>` for each unit in a roll the service made for a rule, ...).
    this_turn: tuple[str, ...] = ()
    # Facts of the current run of the current step (`step_fact`), noted by `domain.evolve` as
    # its events happen and cleared whenever the marker moves: what a duty reads (ES-4: the
    # routed unit moved in this step of this player-turn; NO-2: the unit attacked in this
    # Combat segment; NO-1: the rolls made in Weather). A ruleset file reads them too.
    this_step: tuple[str, ...] = ()
    awaiting: Awaiting | None = None
    # BG-4: the initiative ranking while ties remain (groups, best first); () when settled.
    initiative_groups: tuple[tuple[Name, ...], ...] = ()
    # The sides whose standing pass is on (issue 26, domain.acting.standing): until the turn
    # advances, the match ends, or the side stops it.
    passing: tuple[Name, ...] = ()
    turn: TurnMarker
    dice: DiceLog = DiceLog()
    notes: int = 0
    outcome: Outcome | None = None
    end_proposal: EndProposal | None = None
    # Undo bookkeeping: the version just before the latest effective action began.
    action_base: int = 0
    last_command: str | None = None

    def side_ids(self) -> tuple[Name, ...]:
        return tuple(s.id for s in self.sides)

    def in_play(self, side: Name | None = None) -> list[Unit]:
        return [u for u in self.units.values()
                if u.removed is None and (side is None or u.side == side)]

    def done(self, fact: str) -> bool:
        return fact in self.this_turn

    def times(self, fact: str) -> int:
        return self.this_turn.count(fact)

    def in_step(self, fact: str) -> bool:
        """`fact` holds in this run of this step (`this_step`)."""
        return fact in self.this_step

    def activated_this_run(self) -> bool:
        """The active side has activated in this run of the activation phase."""
        return self.done(activation_fact(self.turn.run, self.turn.active_side))


def activation_fact(run: int, side: str | None) -> str:
    return f"activated:{run}:{side}"


def operation_fact(hq: str) -> str:
    """NO-1: an HQ declared in an operation this Game-Turn."""
    return f"operation:{hq}"


def group_fact(side: str, group: str) -> str:
    """A group of units activated this turn (BG-7's battlegroups, WC-8's moves): a group is
    named within its side, so two sides may each have a group "1"."""
    return f"group:{side}:{group}"



def step_fact(kind: str, unit: str | None = None) -> str:
    """A fact of the current run of the current step (`MatchState.this_step`): `moved`,
    `rallied` (with the unit), `rolled` (a roll; with a unit, each unit it names),
    `attacked` and `defended` (a combat's attackers and defenders)."""
    return kind if unit is None else f"{kind}:{unit}"
