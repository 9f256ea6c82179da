"""Card procedures: draw, discard, play, shuffle and cut a side's deck."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit, own_side
from domain.context import side as _side
from domain.errors import InvalidAction, NotYourTurn
from domain.procedures.dispatch import handle as _handle
from domain.rulesets import Ruleset
from domain.state import MatchState


@_handle.register
def _(command: cmd.DrawCards, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    deck = state.decks.get(side, ())
    count = command.count if command.count is not None else ruleset.hand_size(state, side) - len(
        state.hands.get(side, ()))
    if count <= 0:
        raise InvalidAction(f"side '{side}' already holds a full hand", rule="core-cards")
    if not deck:
        raise InvalidAction(f"side '{side}' has no cards left to draw", rule="core-cards")
    if side in state.unknown_decks:
        raise InvalidAction(
            f"the order of side '{side}''s deck is not known here: the match was imported "
            "before its end and its card seed stays secret. The referee's Reveal dice commits "
            "a fresh seed that deals it again", rule="core-cards")
    cards = deck[:count]
    emit(ev.CardsDrawn, side=side, cards=cards, count=len(cards))


@_handle.register
def _(command: cmd.DiscardCards, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    _in_hand(state, side, command.cards)
    emit(ev.CardsDiscarded, side=side, cards=tuple(command.cards), count=len(command.cards))


@_handle.register
def _(command: cmd.PlayCard, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    _in_hand(state, side, [command.card])
    emit(ev.CardPlayed, side=side, card=command.card)


def _in_hand(state: MatchState, side: str, cards: list[str]) -> None:
    hand = list(state.hands.get(side, ()))
    for card in cards:
        if card not in hand:
            raise InvalidAction(f"'{card}' is not in your hand", rule="core-cards",
                                allowed=sorted(set(state.hands.get(side, ()))))
        hand.remove(card)


@_handle.register
def _(command: cmd.ShuffleDeck, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    side = own_side(state, emit.context.actor, "core-cards")
    cards = (*state.decks.get(side, ()), *state.hands.get(side, ()),
             *state.discards.get(side, ()), *state.discarded.get(side, ()))
    if not cards:
        raise InvalidAction(f"side '{side}' has no cards", rule="core-cards")
    index = emit.roll_index
    order = emit.context.dice.shuffle(sorted(cards), f"shuffle:{index}")
    emit(ev.DeckShuffled, side=side, order=tuple(order), roll_index=index)


@_handle.register
def _(command: cmd.CutDeck, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    deck = state.decks.get(_side(state, command.side), ())
    if emit.context.actor == command.side:
        raise NotYourTurn("a deck is cut by the opponent, not by its owner", rule="core-cards")
    if not 1 <= command.at < len(deck):
        raise InvalidAction(f"cut side '{command.side}''s deck of {len(deck)} cards at 1 to "
                            f"{max(len(deck) - 1, 0)}", rule="core-cards")
    emit(ev.DeckCut, side=command.side, by=emit.context.actor, at=command.at)


