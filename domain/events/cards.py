"""Cards and initiative: a side's cards drawn, discarded, played, shuffled and cut (what
is private to the side and the referee is hidden from the other seats), activations,
initiative rolled and passed."""

from __future__ import annotations

from typing import ClassVar, Literal

from domain.events.base import Event, Salts
from domain.state import Name


class _CardEvent(Event):
    """An event about one side's cards; its `secret_fields` are for that side and the referee."""

    side: Name
    secret_owner: ClassVar[str | None] = "side"


class UnitsActivated(Event):
    """`side` activates units (AA-1: one unit; BG-7: a battlegroup, `group`, with the
    auxiliary squads declared with it) in run `run` of the activation phase."""

    side: Name
    unit_ids: tuple[Name, ...]
    group: Name | None = None
    run: int = 0


class InitiativeRolled(Event):
    """BG-2..BG-4: one initiative roll for `dice` (side -> natural roll), with the CV added;
    `ranking` is the order after it, best first, tied sides still grouped."""

    dice: dict[Name, int]
    cv: dict[Name, int]
    source: Literal["server", "table"]
    roll_index: int | None = None
    ranking: tuple[tuple[Name, ...], ...]


class InitiativePassed(Event):
    """BG-5: the winner hands first place to the second-placed player."""

    side: Name
    to: Name
    order: tuple[Name, ...]


class CardsDrawn(_CardEvent):
    cards: tuple[str, ...]
    count: int
    salts: Salts = None
    secret_fields: ClassVar[frozenset[str]] = frozenset({"cards"})


class CardsDiscarded(_CardEvent):
    """Cards leave the hand unseen (BG-6: unwanted Command Cards)."""

    cards: tuple[str, ...]
    count: int
    salts: Salts = None
    secret_fields: ClassVar[frozenset[str]] = frozenset({"cards"})


class CardPlayed(_CardEvent):
    card: str


class DeckShuffled(_CardEvent):
    """AA-8: every card of `side` (deck, hand, played) collected and shuffled with the
    server's dice; the order is for the owner and the referee."""

    order: tuple[str, ...]
    roll_index: int
    salts: Salts = None
    secret_fields: ClassVar[frozenset[str]] = frozenset({"order"})


class DeckCut(_CardEvent):
    """AA-8: `by` cuts `side`'s deck: the top `at` cards go to the bottom."""

    by: Name
    at: int
