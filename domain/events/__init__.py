"""Domain events: immutable facts, past tense, frozen pydantic, `extra="forbid"`.

The package owns the events, their envelope and how an event's public line is made from its
stored record: `base` (the envelope, `Event`, who sees what), `match` (the match's own log:
creation, seats, seeds, undo, disputes, end), `play` (the table), `cards` (cards and
initiative), `clock` (the game clock) and `record_plan` (the export's fast path). It may
import `domain.state` and nothing else of battlelog: everything else in `domain/` reads
events, none is read by them.

Every event carries the envelope eventsourcing needs (`originator_id`, `originator_version`,
`timestamp`) and ours: the `actor` (the seat that caused it), the `command_id` it came
from, the `rule` that produced it (if any) and the `turn` in which it happened.

Schema changes bump `class_version` and add `upcast_vN_vN+1(state: dict)` static methods;
`domain.app.persistence.PydanticMapper` runs the chain when an old event is loaded.
Fields listed in `private_fields` are never shown on a public surface.

This module names them all, and every event keeps the topic it is stored under,
`domain.events:<Name>`, whichever module of the package defines it. The annotations'
events (`annotations`) are not the match's: they are stored in a stream of their own
per match and are not in `EVENT_TYPES`.
"""

from __future__ import annotations

from domain.events.annotations import (
    ANNOTATION_EVENTS,
    ANNOTATION_TYPES,
    AnnotationAdded,
    AnnotationDeleted,
    AnnotationEdited,
    annotations_stream,
)
from domain.events.base import Event, sees_private
from domain.events.cards import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DeckCut,
    DeckShuffled,
    InitiativePassed,
    InitiativeRolled,
    UnitsActivated,
    _CardEvent,
)
from domain.events.clock import (
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    FlagFell,
)
from domain.events.match import (
    ActionsRedone,
    ActionsUndone,
    DiceCommitted,
    DiceSeedRevealed,
    DisputeOpened,
    DisputeRuled,
    MatchCreated,
    MatchEnded,
    MatchEndProposed,
    MatchReopened,
    NoteAdded,
    SeatJoined,
    SeatTokenIssued,
    SeatTokenRevoked,
    UndoAccepted,
    UndoDeclined,
    UndoRequested,
)
from domain.events.play import (
    CombatDeclared,
    DiceRolled,
    MarkerPlaced,
    MarkerRemoved,
    OperationDeclared,
    PhaseAdvanced,
    ReinforcementsAnnounced,
    ResultRecorded,
    RollDeclared,
    SideDone,
    StandingPassEnded,
    StandingPassStarted,
    StepGained,
    StepLost,
    TrackSet,
    TurnAdvanced,
    UnitDeployed,
    UnitMoved,
    UnitRallied,
    UnitRemoved,
    UnitSplit,
    UnitStatusChanged,
    VictoryPointsScored,
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        MatchCreated, SeatJoined, SeatTokenIssued, SeatTokenRevoked, UnitDeployed, UnitMoved,
        UnitStatusChanged, MarkerPlaced,
        MarkerRemoved, DiceRolled, UnitSplit, UnitRallied, UnitRemoved, TrackSet,
        VictoryPointsScored, PhaseAdvanced, TurnAdvanced, SideDone, NoteAdded, ActionsUndone,
        ActionsRedone, MatchEnded, MatchEndProposed, MatchReopened, UnitsActivated,
        InitiativeRolled, InitiativePassed,
        CardsDrawn, CardsDiscarded, CardPlayed, DeckShuffled, DeckCut, ResultRecorded,
        ReinforcementsAnnounced, CombatDeclared, OperationDeclared, StepLost, StepGained,
        DiceSeedRevealed, DiceCommitted, UndoRequested, UndoAccepted, UndoDeclined,
        DisputeOpened, DisputeRuled, RollDeclared,
        ClockStarted, ClockPaused, ClockResumed, ClockAdjusted, FlagFell,
        StandingPassStarted, StandingPassEnded,
    )
}

# The game clock's events (domain.clock): facts about the log's times, not the game.
CLOCK_EVENTS: tuple[type[Event], ...] = (ClockStarted, ClockPaused, ClockResumed,
                                         ClockAdjusted, FlagFell)
# Facts about the match's seats, dice, disputes and clock, not its game: undo never takes
# them back (domain.history), and a fork does not copy them.
SEAT_EVENTS: tuple[type[Event], ...] = (SeatJoined, SeatTokenIssued, SeatTokenRevoked,
                                        DiceSeedRevealed, DiceCommitted, DisputeOpened,
                                        DisputeRuled, *CLOCK_EVENTS)
# The undo consent protocol: not game actions, and no barrier to an undo.
UNDO_PROTOCOL: tuple[type[Event], ...] = (UndoRequested, UndoAccepted, UndoDeclined)
# What an undo cannot cross without the other sides' consent (besides another seat's
# action): dice rolled, cards seen or shown, the dice seed revealed.
UNDO_BARRIERS: tuple[type[Event], ...] = (
    DiceRolled, InitiativeRolled, DeckShuffled, DeckCut, CardsDrawn, CardPlayed,
    DiceSeedRevealed, DiceCommitted)


# Every event is stored under its topic `domain.events:<Name>` (eventsourcing's topic is the
# class's module and name): the classes moved into modules of their own keep it, so that
# stored matches load and compare as before.
for _cls in (Event, _CardEvent, *EVENT_TYPES.values(), *ANNOTATION_EVENTS):
    _cls.__module__ = __name__

__all__ = [
    "ANNOTATION_EVENTS",
    "ANNOTATION_TYPES",
    "CLOCK_EVENTS",
    "EVENT_TYPES",
    "SEAT_EVENTS",
    "UNDO_BARRIERS",
    "UNDO_PROTOCOL",
    "ActionsRedone",
    "ActionsUndone",
    "AnnotationAdded",
    "AnnotationDeleted",
    "AnnotationEdited",
    "CardPlayed",
    "CardsDiscarded",
    "CardsDrawn",
    "ClockAdjusted",
    "ClockPaused",
    "ClockResumed",
    "ClockStarted",
    "CombatDeclared",
    "DeckCut",
    "DeckShuffled",
    "DiceCommitted",
    "DiceRolled",
    "DiceSeedRevealed",
    "DisputeOpened",
    "DisputeRuled",
    "Event",
    "FlagFell",
    "InitiativePassed",
    "InitiativeRolled",
    "MarkerPlaced",
    "MarkerRemoved",
    "MatchCreated",
    "MatchEndProposed",
    "MatchEnded",
    "MatchReopened",
    "NoteAdded",
    "OperationDeclared",
    "PhaseAdvanced",
    "ReinforcementsAnnounced",
    "ResultRecorded",
    "RollDeclared",
    "SeatJoined",
    "SeatTokenIssued",
    "SeatTokenRevoked",
    "SideDone",
    "StandingPassEnded",
    "StandingPassStarted",
    "StepGained",
    "StepLost",
    "TrackSet",
    "TurnAdvanced",
    "UndoAccepted",
    "UndoDeclined",
    "UndoRequested",
    "UnitDeployed",
    "UnitMoved",
    "UnitRallied",
    "UnitRemoved",
    "UnitSplit",
    "UnitStatusChanged",
    "UnitsActivated",
    "VictoryPointsScored",
    "annotations_stream",
    "sees_private",
]
