"""The match's own log: its creation, seats and tokens, dice seeds, notes, undo and redo
(and the consent an undo across a barrier asks), disputes and rulings, its end."""

from __future__ import annotations

from typing import Any, ClassVar, Literal
from uuid import UUID

from pydantic import Field

from domain.events.base import Event, Salts
from domain.state import Name, Side, Unit


class MatchCreated(Event):
    ruleset: str
    ruleset_version: int
    # The content hash (`sha256:<hex>`) of the ruleset file the match was created from
    # (docs/rulesets/authoring.md); None: a built-in game, and every match created before
    # files could be played.
    ruleset_hash: str | None = None
    scenario: str
    sides: tuple[Side, ...]
    casual: bool = False
    options: dict[str, Any] = Field(default_factory=dict)
    dice_commitment: str  # SHA-256 of the dice seed, hex
    dice_seed: str  # secret until revealed (issue: verifiable dice); never shown
    token_hashes: dict[str, str] = Field(default_factory=dict)  # seat -> SHA-256 of its token
    # The scenario's set-up: units on the table and each side's deck as listed (the match
    # starts with each deck dealt in an order drawn from the card seed: `domain.evolve`).
    units: tuple[Unit, ...] = ()
    decks: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    # A what-if fork: the match and version it was forked from, and how many events after
    # this one were copied from there (their server rolls are the origin's to verify).
    forked_from: UUID | None = None
    forked_at: int | None = None
    inherited_events: int | None = None
    # The card seed (ours): decks are dealt and shuffled from a secret of their own, so that
    # revealing the dice seed mid-match discloses no hand and no deck order. Its SHA-256 is
    # public; the seed is revealed when the match ends (`DiceSeedRevealed.card_seed`).
    # None on matches created before it: their decks come from the dice seed.
    card_commitment: str | None = None
    card_seed: str | None = None  # secret until the match ends; never shown
    # A fork's decks in the order its origin dealt them (the fork's own card seed deals
    # nothing): the referee's to see, like every side's cards.
    dealt: dict[str, tuple[str, ...]] | None = None
    salts: Salts = None
    # (ours) True on every match created since hidden fields are committed
    # (docs/integrity.md): each field a seat may not see has a commitment in its event's
    # hash, and a file that hides one without it is refused. None on matches created before.
    secrets_committed: bool | None = None
    private_fields: ClassVar[frozenset[str]] = frozenset(
        {"dice_seed", "token_hashes", "card_seed"})
    secret_fields: ClassVar[frozenset[str]] = frozenset({"dealt"})  # the referee's alone


class SeatJoined(Event):
    side: Name | None = None  # None: the referee seat
    player: str
    entropy: str | None = None  # the player's contribution to the server dice (public)


class DiceSeedRevealed(Event):
    """The seed of the server dice so far, matching `dice_commitment`: when the match ends,
    or earlier when the referee reveals it to settle a dispute (a `DiceCommitted` follows).
    When the match ends, the card seed too (`card_seed`, matching the `card_commitment` in
    force); never earlier, so that no hand or deck order is disclosed mid-match."""

    seed: str  # hex
    dice_commitment: str
    card_seed: str | None = None  # hex
    card_commitment: str | None = None


class DiceCommitted(Event):
    """A fresh secret seed for the rest of the match; only its SHA-256 is shown. It holds
    the card seed in force from here on too (`card_commitment`; the seed is never shown):
    the same one after a mid-match reveal of the dice seed, a fresh one after the end
    revealed it; None for a match created before card seeds."""

    dice_commitment: str
    dice_seed: str
    card_commitment: str | None = None
    card_seed: str | None = None
    private_fields: ClassVar[frozenset[str]] = frozenset({"dice_seed", "card_seed"})


class SeatTokenIssued(Event):
    """A bearer token for `seat` (`referee`, `spectator`, a side id, or `join:<side>`); only
    its SHA-256 is kept, and even that is never shown."""

    seat: str
    token_hash: str
    private_fields: ClassVar[frozenset[str]] = frozenset({"token_hash"})


class SeatTokenRevoked(Event):
    seat: str
    token_hash: str
    private_fields: ClassVar[frozenset[str]] = frozenset({"token_hash"})


class NoteAdded(Event):
    """A note on the match, or on one version of it. A private note is for its author and
    the referee only (the referee's notes, a player's own reminders)."""

    text: str
    about_version: int | None = None
    private: bool = False
    salts: Salts = None
    secret_fields: ClassVar[frozenset[str]] = frozenset({"text"})
    secret_owner: ClassVar[str | None] = "actor"
    secret_when: ClassVar[str | None] = "private"


class ActionsUndone(Event):
    """The effective state becomes the state after version `to`. `requested_by`: the side
    whose undo request this makes (accepted by the others or forced by the referee)."""

    to: int
    resulting_turn: int
    requested_by: Name | None = None


class ActionsRedone(Event):
    """Reverses the undo at version `reverses`: the state becomes the one after `to`
    (the version just before that undo)."""

    to: int
    reverses: int
    resulting_turn: int


class DisputeOpened(Event):
    """A dispute ticket about event `about_version` (or the range up to `upto_version`)."""

    about_version: int
    upto_version: int | None = None
    text: str


class DisputeRuled(Event):
    """The referee's ruling on the dispute opened at version `dispute`. `order`: `none`, an
    `undo` back to version `to` (the `ActionsUndone` follows), a `reroll` of the roll at
    version `to` (the new roll follows, for the roll's owner: server dice with the next roll
    index, or table dice declared and awaited; it `replaces` the old one), or a `fork` at
    version `to` (a new match, `fork`, whose history is this one's up to there)."""

    dispute: int
    ruling: str
    order: Literal["none", "undo", "reroll", "fork"] = "none"
    to: int | None = None
    fork: UUID | None = None


class UndoRequested(Event):
    """The actor asks to undo back to version `to`, across a barrier (a die roll, private
    information revealed, another seat's action): the other sides must accept."""

    to: int
    resulting_turn: int


class UndoAccepted(Event):
    """The actor (another side, or the referee, who forces it) accepts the pending undo."""

    request: int  # the version of the `UndoRequested`


class UndoDeclined(Event):
    """The actor (another side, or the referee, who refuses it) declines the pending undo."""

    request: int
    reason: str = ""


class MatchEnded(Event):
    winner: Name | None = None  # None: a tie
    reason: str = ""


class MatchEndProposed(Event):
    """A side proposes (or agrees to) ending the match with this outcome; the match ends
    when every side has proposed the same."""

    winner: Name | None = None  # None: a tie
    reason: str = ""


class MatchReopened(Event):
    """The referee reopens an ended match (play goes on, or an undo across the end)."""

    reason: str = ""
