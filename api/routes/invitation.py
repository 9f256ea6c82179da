"""What a join link invites to, for the join page: the match and the side, named as the players
named them. A join token only joins (it reads no view), but its holder may know what it joins
before taking the seat."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.deps import MatchesDep, SeatDep
from api.schemas import SeatPublic
from domain.app import JOIN
from domain.rulesets import get_ruleset
from domain.state import Side

router = APIRouter(prefix="/api/matches", tags=["matches"])


class InvitationPublic(BaseModel):
    match_id: UUID
    scenario: str
    ruleset: str = Field(description="the ruleset's id (`atomic-africa`)")
    ruleset_title: str = Field(description="the game's name (`Atomic Africa`)")
    side: Side | None = Field(description="the side a join token takes; None for another seat's "
                                          "token")
    sides: tuple[Side, ...]
    seats: list[SeatPublic] = Field(description="who already sits where")
    ended: bool


@router.get("/{match_id}/invitation")
def invitation(match_id: UUID, matches: MatchesDep, who: SeatDep) -> InvitationPublic:
    """The match a token belongs to and, for a join token, the side it takes (any of the
    match's tokens; a used or replaced join token opens nothing: 401)."""
    head = matches.head(match_id)
    state = head.state
    side_id = who.name.removeprefix(JOIN) if who.name.startswith(JOIN) else None
    return InvitationPublic(
        match_id=match_id, scenario=state.scenario, ruleset=state.ruleset,
        ruleset_title=get_ruleset(state.ruleset, state.options, state.ruleset_hash).title,
        side=next((s for s in state.sides if s.id == side_id), None), sides=state.sides,
        seats=[SeatPublic(side=side, player=player) for side, player in head.seats],
        ended=state.outcome is not None)
