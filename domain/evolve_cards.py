"""Cards in the state, evolve's part for them: each side's deck dealt from the match's card
seed (`deal`), dealt again from a fresh seed where an import did not know the order
(`dealt_again`), and what drawing, discarding, playing, shuffling and cutting do to the piles
(applied by `domain.evolve`). Pure, like `evolve`: the event is trusted."""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.dice import SeededDice
from domain.state import MatchState


def noted(state: MatchState, *facts: str) -> dict[str, Any]:
    """The update that notes `facts` as done this turn."""
    return {"this_turn": (*state.this_turn, *facts)}


def deal(created: ev.MatchCreated) -> dict[str, tuple[str, ...]]:
    """Each side's deck at the start: a fork's as its origin dealt them; otherwise in an
    order drawn from the match's card seed (the dice seed for a match created before card
    seeds), so the deal is reproducible, and checkable once the seed is revealed."""
    if created.dealt is not None:
        return dict(created.dealt)
    seed = created.card_seed if created.card_seed is not None else created.dice_seed
    dealer = SeededDice(bytes.fromhex(seed))
    return {side: tuple(dealer.shuffle(cards, f"deal:{side}"))
            for side, cards in created.decks.items()}


def _cards(state: MatchState, side: str, **piles: tuple[str, ...]) -> dict[str, Any]:
    return {name: {**getattr(state, name), side: cards} for name, cards in piles.items()}


def _without(cards: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    left = list(cards)
    for card in gone:
        left.remove(card)
    return tuple(left)


def drawn(event: ev.CardsDrawn, state: MatchState) -> MatchState:
    # The event names the cards drawn (the top of the deck when it was recorded): an import
    # follows it even where this server does not know the deck's order.
    deck = state.decks.get(event.side, ())
    drawn = event.cards or deck[:event.count]
    return state.model_copy(update={**_cards(
        state, event.side, decks=_without(deck, drawn),
        hands=(*state.hands.get(event.side, ()), *drawn)),
        **noted(state, f"drawn:{event.side}")})


def discarded(event: ev.CardsDiscarded, state: MatchState) -> MatchState:
    return state.model_copy(update=_cards(
        state, event.side, hands=_without(state.hands.get(event.side, ()), event.cards),
        discarded=(*state.discarded.get(event.side, ()), *event.cards)))


def played(event: ev.CardPlayed, state: MatchState) -> MatchState:
    return state.model_copy(update=_cards(
        state, event.side, hands=_without(state.hands.get(event.side, ()), (event.card,)),
        discards=(*state.discards.get(event.side, ()), event.card)))


def shuffled(event: ev.DeckShuffled, state: MatchState) -> MatchState:
    return state.model_copy(update={
        **_cards(state, event.side, decks=event.order, hands=(), discards=(),
                 discarded=()),
        "unknown_decks": tuple(s for s in state.unknown_decks if s != event.side),
        **noted(state, f"shuffled:{event.side}")})


def dealt_again(state: MatchState, event: ev.DiceCommitted) -> MatchState:
    """A fresh card seed deals again, from it, each deck whose order this server did not
    know (an imported match's): checkable like the first deal once the end reveals the seed.
    (A seed's commitment is a log fact, not an action: `history.step` calls this alone.)"""
    if not (state.unknown_decks and event.card_seed):
        return state
    dealer = SeededDice(bytes.fromhex(event.card_seed))
    dealt = {side: tuple(dealer.shuffle(sorted(state.decks.get(side, ())),
                                        f"deal:{side}:{event.originator_version}"))
             for side in state.unknown_decks}
    return state.model_copy(update={"decks": {**state.decks, **dealt}, "unknown_decks": ()})


def cut(event: ev.DeckCut, state: MatchState) -> MatchState:
    deck = state.decks[event.side]
    return state.model_copy(update={
        **_cards(state, event.side, decks=(*deck[event.at:], *deck[:event.at])),
        **noted(state, f"cut:{event.side}")})
