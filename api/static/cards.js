// A side's cards in words, from the board view as this seat's token gets it: counts for every
// seat; the cards played this turn (face up: every seat sees them); the hand, the deck's order
// and the cards discarded face down only where the service shows them to this seat (another
// side's discards are private: only how many).

/** One line: "Red cards: deck 3, hand 1; played this turn: X; discarded this turn: 2 (not shown)". */
export function cardsLine(cards, sideName) {
  const discarded = cards.discarded_count;
  const said = (list) => list.map((c) => cards.titles?.[c] || c).join(", ");
  return `${sideName} cards: deck ${cards.deck_count}, hand ${cards.hand_count}`
    + (cards.hand ? ` (hand: ${said(cards.hand) || "empty"})` : "")
    + (cards.deck ? ` (deck, top first: ${said(cards.deck) || "empty"})` : "")
    + (cards.played.length ? `; played this turn: ${said(cards.played)}` : "")
    + (!discarded ? "" : cards.discarded ? `; discarded this turn: ${said(cards.discarded)}`
      : `; discarded this turn: ${discarded} (not shown)`);
}
