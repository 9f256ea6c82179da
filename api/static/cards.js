// A side's cards in words, from the board view as this seat's token gets it: counts for every
// seat; the hand, the deck's order and the cards played or discarded only where the service
// shows them to this seat (another side's discards are private: only how many).

/** One line: "Red cards: deck 3, hand 1; played or discarded this turn: 2 (not shown)". */
export function cardsLine(cards, sideName) {
  const pile = cards.pile_count;
  const shown = cards.played.length === pile;
  return `${sideName} cards: deck ${cards.deck_count}, hand ${cards.hand_count}`
    + (cards.hand ? ` (hand: ${cards.hand.join(", ") || "empty"})` : "")
    + (cards.deck ? ` (deck, top first: ${cards.deck.join(", ") || "empty"})` : "")
    + (!pile ? "" : shown ? `; played or discarded this turn: ${cards.played.join(", ")}`
      : `; played or discarded this turn: ${pile} (not shown)`);
}
