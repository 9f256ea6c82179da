// A side's cards in words, from the board view as this seat's token gets it: counts for every
// seat; the cards played this turn (face up: every seat sees them); the hand, the deck's order
// and the cards discarded face down only where the service shows them to this seat (another
// side's discards are private: only how many).

/** One line: "Red cards: deck 3, hand 1; played this turn: X; discarded this turn: 2 (not shown)". */
export function cardsLine(cards, sideName) {
  const discarded = cards.discarded_count;
  return `${sideName} cards: deck ${cards.deck_count}, hand ${cards.hand_count}`
    + (cards.hand ? ` (hand: ${cards.hand.join(", ") || "empty"})` : "")
    + (cards.deck ? ` (deck, top first: ${cards.deck.join(", ") || "empty"})` : "")
    + (cards.played.length ? `; played this turn: ${cards.played.join(", ")}` : "")
    + (!discarded ? "" : cards.discarded ? `; discarded this turn: ${cards.discarded.join(", ")}`
      : `; discarded this turn: ${discarded} (not shown)`);
}
