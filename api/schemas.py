"""Request and response bodies of the HTTP API (`XCreate` in, `XPublic` out)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from domain.commands import MAX_INT
from domain.state import Outcome
from projections.views import BoardView, Point, SideView, TurnView, VPView, WaitingView


class MatchCreated(BaseModel):
    match_id: UUID
    version: int
    links: dict[str, str]
    tokens: dict[str, str] = Field(description=(
        "bearer tokens, shown once: `referee`, `spectator`, and `join:<side>` per side"))
    verified: dict[str, Any] | None = Field(None, description=(
        "an import: what the check of its file found, as `GET .../verify` says it (the "
        "events, the server rolls recomputed and waiting, and `events_hidden` / "
        "`events_unchecked`: the events it could not check fully)"))


class SeatCreate(BaseModel):
    """Join with a side's join token (or the referee's token, to name the referee)."""

    model_config = ConfigDict(extra="forbid")
    player: Annotated[str, Field(min_length=1, max_length=120)]
    entropy: Annotated[str, Field(min_length=1, max_length=200)] | None = Field(
        default=None, description="your contribution to the server's dice, mixed into every "
        "later roll (recorded publicly; see docs/integrity.md)")


class SeatPublic(BaseModel):
    side: str | None
    player: str


class SeatJoinedPublic(SeatPublic):
    token: str | None = Field(description="the seat's own bearer token, shown once")


class TokenCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Annotated[str, Field(min_length=1, max_length=80)] = Field(
        description="`referee`, `spectator`, a side id, or `join:<side>`")


class TokenPublic(BaseModel):
    seat: str
    token: str


class MatchPublic(BaseModel):
    match_id: UUID
    ruleset: str
    ruleset_version: int
    scenario: str
    casual: bool
    sides: tuple[SideView, ...]
    seats: list[SeatPublic]
    version: int
    turn: TurnView
    outcome: Outcome | None
    chain_head: str = Field(description="the hash of the latest event (docs/integrity.md)")
    dice_commitment: str = Field(description="SHA-256 of the current secret dice seed")
    viewer: str = Field(description="whose token asked: `referee`, `spectator` or a side id")
    waiting: WaitingView | None = Field(default=None, description="whose turn: the seats the "
                                        "match waits for now and why (docs/table.md)")


class UndoCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: Annotated[StrictInt, Field(ge=1, le=MAX_INT)] | None = Field(
        default=None, description="make the state after this version current")
    actions: Annotated[StrictInt, Field(ge=1, le=1000)] = Field(
        default=1, description="how many actions to undo (when `to` is not given)")


class UndoDecline(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(max_length=200)] = ""


class TakenBackPublic(BaseModel):
    """What an undo takes back, in words (projections.undo_words)."""

    said: list[str] = Field(description="the sentence of each game event it takes back")
    more: int = Field(description="game events it takes back beyond those said")
    by: str = Field(description="the seat whose action comes first among them")


class UndoRequestPublic(BaseModel):
    version: int = Field(description="the version of the `UndoRequested`")
    to: int
    by: str
    accepted: list[str]
    takes_back: TakenBackPublic


class LastActionPublic(TakenBackPublic):
    """The latest action, which your undo (`actions`: 1) takes back."""

    to: int = Field(description="the version the undo goes back to")
    immediate: bool = Field(description="false: the undo asks the other sides first")


class UndoStatus(BaseModel):
    """What an undo by the asking seat does now."""

    version: int
    immediate_to: int = Field(description=(
        "the earliest version your undo reaches at once; further back is a request"))
    casual: bool
    pending: UndoRequestPublic | None
    last: LastActionPublic | None = Field(description="the action your next undo takes "
                                          "back; null when there is none")


class ActedPublic(BaseModel):
    """What an action, an undo or a redo appended, and the new version."""

    version: int
    events: list[dict[str, Any]]
    outcome: str = Field("", description="what the action did and why, in the players' "
                         "words (an action's answer; each event's `said` is the log's)")


class EventsPublic(BaseModel):
    events: list[dict[str, Any]]
    next_after: int | None = Field(description="pass as `after` for the next page; null: done")


class BoardPublic(BoardView):
    point: Point


class VPPublic(VPView):
    point: Point


class TurnPublic(TurnView):
    point: Point
