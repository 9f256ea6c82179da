"""What the Matches application's tests share (test_application, test_checkpoints): two
sides, a checkpoint every few versions (the fixtures `env`, `app` and `second` in conftest.py
use it), a match created, and a mix of use cases to play."""

from __future__ import annotations

from uuid import UUID

from domain.app import Matches
from domain.commands import Advance, CreateMatch, RollDice, SetTrack

SIDES = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]
SETUP = CreateMatch(scenario="test", sides=SIDES)
CASUAL = CreateMatch(scenario="test", casual=True, sides=SIDES)
INTERVAL = 5


def created(app: Matches, setup: CreateMatch = SETUP) -> UUID:
    return app.create_match(setup).events[0].originator_id


def play(app: Matches, match_id: UUID, n: int) -> None:
    """n use cases: tracks, advances, server rolls and undos of two actions (a casual match)."""
    for i in range(n):
        if i % 7 == 6:
            app.undo(match_id, actions=2)
        elif i % 5 == 4:
            app.act(match_id, RollDice(notation="d6", purpose="x"))
        elif i % 3 == 0:
            app.act(match_id, Advance())
        else:
            app.act(match_id, SetTrack(name="t", value=i))
