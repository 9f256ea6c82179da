"""What `legal_actions` answers: the actions a seat may take now, each with its choices, the
body to post for each, the inputs a player still gives, and whether the turn marker may move
on (docs/legal-actions.md). Plain data: the API serves it as it is.

Inside the domain a generator describes each choice as `Candidate`s (alternatives, the first
that `decide` accepts is offered); `domain.legal.probe` turns them into `Choice`s."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

InputKind = Literal["text", "id", "number", "choice", "choices", "position", "location", "bool",
                    "dice", "object"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Option(_Frozen):
    """One value an input takes, with its label in the players' words."""

    value: Any
    label: str


class Input(_Frozen):
    """A field of the body the player fills in (`name`, dotted for a nested field: `unit.id`).

    `values` lists what it takes (each one accepted by the rules now); with `open` they are
    suggestions and other values may be accepted too. A `choices` input takes a list of them.
    `minimum`/`maximum` bound a number (the schema's and the game's bounds; the rules may still
    refuse a value within them, naming the rule). `example` is a value the rules accept here,
    to show what is meant, not advice. A `required` input is not in the choice's body: add it.
    """

    name: str
    label: str
    kind: InputKind
    required: bool = False
    says: str = ""
    values: tuple[Option, ...] | None = None
    open: bool = False
    minimum: int | None = None
    maximum: int | None = None
    example: Any = None


class Die(_Frozen):
    """One die of a roll: what it is and what it is for."""

    sides: int
    purpose: str
    key: str | None = None  # roll_initiative: the side whose die it is


class TableDice(_Frozen):
    """The same choice with the players' own dice: `body` (with example faces) is accepted;
    put the faces thrown at the table in `field`, one for each of the choice's `dice`, in that
    order (a list; for `roll_morale` one number; for `roll_initiative` an object keyed by each
    die's `key`)."""

    field: str
    body: dict[str, Any]


class Choice(_Frozen):
    """One way to take the action: `label` in the players' words, and the JSON `body` to post
    to `/api/matches/{id}/actions` (add the `required` inputs first)."""

    label: str
    body: dict[str, Any]
    unit_id: str | None = None  # the unit the choice is about (its card shows it)
    side: str | None = None  # the side the choice is about (a deck to cut, a winner, ...)
    inputs: tuple[Input, ...] = ()
    dice: tuple[Die, ...] = ()  # what the service rolls for it
    table: TableDice | None = None
    # "... and done" (issue 26, fewer taps): this side's Next step, refused now, is accepted
    # once this choice is made (its inputs at their examples): post it with `?then=done`
    then_done: bool = False


class LegalAction(_Frozen):
    """An action the seat may take now: its `title` in the game's words with its rule id."""

    id: str  # unique in the answer: the action type, or `rule_roll:<roll>`
    type: str
    title: str
    rule: str | None = None
    choices: tuple[Choice, ...]
    own: bool = False  # the step's own move (shown first), not bookkeeping (domain.legal.own)


class NextStep(_Frozen):
    """Whether this seat may `advance` now: where it leads (or that this side says it is done
    with a step every side acts in), or why not, in words."""

    legal: bool
    title: str
    # the step `advance` moves the marker to, as its `to` names it (None: the marker stays);
    # the title says where it comes to rest when the service moves it on at once (WC-9)
    to: str | None = None
    # where the marker comes to rest, when the service moves it on at once past `to` (WC-9):
    # an advance naming it is the same advance, offered as Next step (None: at `to`)
    rests: str | None = None
    reason: str | None = None
    rule: str | None = None
    body: dict[str, Any] = Field(default_factory=lambda: {"type": "advance"})
    skips: tuple[Choice, ...] = ()  # on to a later step, passing optional ones
    # "Done until something is mine" (domain.acting.ahead): offered to a side when it moves
    # on through more than this step; `ahead` are the later steps it passes (they hold
    # nothing for this seat), `stops` the step where it stops, in words (None: at the last
    # of them, said done, the other sides still to say so)
    until: Choice | None = None
    ahead: tuple[str, ...] = ()
    stops: str | None = None


class StandingPassOffer(_Frozen):
    """The seat's standing pass ("pass until I must act", domain.acting.standing): whether it
    is `on`, the `choice` that starts it (off) or stops it (on), and what it does, in words;
    `stops`: the step where it stops next (the first from this one on where the side owes a
    duty or has a move of its own, the other seats moving on as if they had nothing to do;
    "this step, ..." when it is this one; "the end of the turn" when none before it), `why`
    in words ("yours to choose", "you owe: ..."); None where that cannot be told (a duty
    another seat owes first, a result owed)."""

    on: bool
    choice: Choice
    says: str
    stops: str | None = None
    why: str | None = None


class Page(_Frozen):
    """Which units' choices the answer holds (docs/legal-actions.md, "Large boards"). A board
    of many units is answered in pages of units, each page's work bounded: the first page also
    holds every choice not about one unit; `unit` narrows an answer to one unit's choices.
    `truncated` says the answer does not hold every choice: read page `next` for the next
    units, or one unit's choices with `unit`; `says` tells how, in words."""

    number: int = 1
    pages: int = 1
    unit: str | None = None  # the answer holds this unit's choices only
    units: tuple[str, ...] = ()  # the units whose choices this answer holds
    in_play: int = 0  # the units in play
    truncated: bool = False
    next: int | None = None  # the page to read next, when there is one
    says: str | None = None


class LegalActions(_Frozen):
    seat: str
    turn: int
    step: str
    reason: str | None = None  # why there is nothing to do (a spectator, the end, ...)
    actions: tuple[LegalAction, ...] = ()
    advance: NextStep
    page: Page = Field(default_factory=Page)
    standing_pass: StandingPassOffer | None = None  # a side's, until the match ends


@dataclass(frozen=True)
class Candidate:
    """A choice as a generator proposes it: the body without its required inputs; `dice`
    when the service rolls for it (the players may throw their own instead)."""

    label: str
    body: dict[str, Any]
    inputs: tuple[Input, ...] = ()
    unit_id: str | None = None
    side: str | None = None
    dice: bool = False
    # Alternatives of one family try the input `family` names at each value of its
    # declared domain (domain.legal.domains: a target, a leader, a split's figures), in
    # turn, until `decide` accepts one: the first accepted is the choice's example. Every
    # value is tried: what a refusal says never cuts the family short.
    family: str | None = None
    # The alternatives of a family in one: the input `family` tried at each of these
    # examples in turn (built once, shared by every unit, expanded only as far as tried).
    examples: tuple[Any, ...] = ()

    def alternatives(self) -> Iterator[Candidate]:
        """This candidate, or one for each of its `examples`, made as they are asked for."""
        if not self.examples:
            yield self
            return
        for example in self.examples:
            yield replace(self, examples=(), inputs=tuple(
                given.model_copy(update={"example": example}) if given.name == self.family
                else given for given in self.inputs))


# ---- inputs, as the generators write them ---------------------------------------------------

def text(name: str, label: str, *, required: bool = False, example: Any = None,
         says: str = "") -> Input:
    return Input(name=name, label=label, kind="text", required=required, example=example,
                 says=says)


def number(name: str, label: str, low: int, high: int, *, required: bool = False,
           example: int | None = None, says: str = "") -> Input:
    return Input(name=name, label=label, kind="number", required=required, minimum=low,
                 maximum=high, example=example, says=says or f"a whole number from {low} to {high}")


LISTED_MOST = 100  # a number input lists at most this many values of its domain


def listed_number(name: str, label: str, counts: list[int]) -> Input:
    """A whole number of a declared domain (`counts`, in order), each value listed (only
    those `decide` accepts are kept); past LISTED_MOST values the first are listed and the
    input is open: more may be accepted, between its bounds ("more" said in `says`)."""
    low, high = (counts[0], counts[-1]) if counts else (1, 1)
    shown = counts[:LISTED_MOST]
    more = len(counts) > len(shown)
    return Input(name=name, label=label, kind="number", required=True, minimum=low,
                 maximum=high, example=counts[0] if counts else low, open=more,
                 values=tuple(Option.model_construct(value=c, label=str(c)) for c in shown),
                 says=f"a whole number from {low} to {high}" + (
                     f" (the first {LISTED_MOST} the rules accept are listed; more may be)"
                     if more else ""))


def one_of(name: str, label: str, options: list[tuple[Any, str]], *, required: bool = False,
           many: bool = False, open_: bool = False, example: Any = None) -> Input:
    """An input whose values are listed (each is tried; only those accepted are offered)."""
    try:
        return _listed(name, label, tuple(options), required, many, open_, example)
    except TypeError:  # a value that cannot be a key: made anew
        return _listed.__wrapped__(name, label, tuple(options), required, many, open_, example)


@lru_cache(maxsize=64)
def _listed(name: str, label: str, options: tuple[tuple[Any, str], ...], required: bool,
            many: bool, open_: bool, example: Any) -> Input:
    """`one_of`'s input, made once for equal arguments (the inputs listing every unit in
    play are the same on every page of an answer and in every answer at one version)."""
    return Input(name=name, label=label, kind="choices" if many else "choice",
                 required=required, open=open_, example=example,
                 values=tuple(Option.model_construct(value=v, label=w) for v, w in options))


def position(name: str, label: str, example: Any, *, required: bool = True) -> Input:
    return Input(name=name, label=label, kind="position", required=required, example=example,
                 says="a point on the table (x and y, inches), a hex id, or an off-board box "
                      "(reserve, reinforcements, eliminated, transport)")


def location(name: str, label: str, example: str, *, required: bool = True) -> Input:
    return Input(name=name, label=label, kind="location", required=required, example=example,
                 says="a hex id, an off-board box, or a table point as 'x,y'")
