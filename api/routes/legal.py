"""What the asking seat may do now: its legal actions, each with its choices and the body to
post for each, and whether it may move the turn marker on (docs/legal-actions.md)."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response

from api.deps import MatchesDep, ReaderDep
from domain.legal import legal_actions
from domain.legal_model import LegalActions
from domain.rulesets import get_ruleset

router = APIRouter(prefix="/api/matches/{match_id}", tags=["views"])


class LegalPublic(LegalActions):
    """The legal actions of the asking seat at `version` (post with `If-Match: "<version>"`
    to act on exactly this state)."""

    version: int


@router.get("/legal")
def legal(match_id: UUID, matches: MatchesDep, who: ReaderDep,
          response: Response) -> LegalPublic:
    """What your seat may do now (a side's or the referee's; a spectator gets none, with the
    reason): each action with its title and rule id in the game's words, its choices, the
    exact body to `POST .../actions` for each, and whether `advance` is legal or why not."""
    head = matches.head(match_id)
    state = head.state
    found = legal_actions(state, get_ruleset(state.ruleset, state.options), who.name,
                          version=head.version)
    response.headers["ETag"] = f'"{head.version}"'
    return LegalPublic(version=head.version, **dict(found))

