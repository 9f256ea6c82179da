"""Chance in the players' words: rolls declared, thrown and read (with passes counted against a
QV), initiative with its re-roll and the order, the cards (drawn, played, shuffled, cut; a
hand hidden from the viewer never read) and the dice seed; with the words for lists and
counts (`listing`, `plural`) every sentence uses.

`DiceSentences` is a part of `projections.sentences.Narrator`, which gives it the names and
the reading of other events; it keeps each turn's initiative rolls, to say a re-roll beside
the first roll."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from domain import events as ev
from domain.rulesets.wing_command_rolls import activation_passes

_QV_DICE = re.compile(r"(\d+) dice against QV (\d+), (\d+) leadership")
_QV_ONE = re.compile(r"against QV (\d+)")


def listing(items: Iterable[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    out = list(items)
    if len(out) <= 1:
        return "".join(out)
    return f"{', '.join(out[:-1])} {last} {out[-1]}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def faces(dice: Sequence[int]) -> str:
    return listing(str(d) for d in dice)


def outcome_of_dice(e: ev.DiceRolled) -> str:
    """The roll's outcome: passes counted where each die is tested against a value (WC-6),
    a single die passed or failed against a QV, else the total."""
    many = _QV_DICE.search(e.purpose)
    if many:
        qv, cubes = int(many[2]), int(many[3])
        _, passed = activation_passes(list(e.dice), qv, cubes)
        extra = f", with {plural(cubes, 'leadership cube')}" if cubes else ""
        if len(e.dice) == 1:
            return f"{'passed' if passed else 'failed'} (needed {qv}+{extra})"
        return f"{passed} of {len(e.dice)} dice passed (needed {qv}+{extra})"
    one = _QV_ONE.search(e.purpose)
    if one and len(e.dice) == 1:
        qv = int(one[1])
        score = (f"{e.dice[0]} {'+' if e.modifier > 0 else '-'} {abs(e.modifier)} = {e.total}"
                 if e.modifier else str(e.total))  # the die and what the rules added
        return f"{score}, {'passed' if e.total >= qv else 'failed'} (needed {qv}+)"
    return str(e.total)


def notation(e: ev.DiceRolled) -> str:
    base = e.notation.split("+")[0].split("-")[0]
    return f"{base}{e.modifier:+d}" if e.modifier else base


class DiceNames(Protocol):
    """What these sentences ask of the match's names (`projections.sentences.Names`)."""

    def side(self, side: str | None) -> str: ...

    def seat(self, seat: str) -> str: ...

    def sides_of(self, ids: Iterable[str]) -> str: ...

    def card(self, card: str) -> str: ...

    def text(self, text: str, sides: bool | None = None) -> str: ...


class DiceSentences:
    """Rolls, initiative and cards, said by the `Narrator` it is part of."""

    names: DiceNames
    # The last initiative roll of each turn, to say a re-roll beside the first roll.
    initiative: dict[int, ev.InitiativeRolled]
    earlier: dict[int, dict[str, int]]  # version -> the rolls before a re-roll
    _events: Callable[[int, int], list[ev.Event]]

    def _initiative(self, event: ev.InitiativeRolled) -> None:
        before = self.initiative.get(event.turn)
        ranked = {s for group in event.ranking for s in group}
        if before is not None and before.version < event.version and set(event.dice) < ranked:
            self.earlier[event.version] = {
                **self.earlier.get(before.version, {}),
                **{s: before.dice[s] + before.cv.get(s, 0) for s in before.dice}}
        self.initiative[event.turn] = event

    def _rerolled(self, event: ev.InitiativeRolled) -> dict[str, int] | None:
        """The rolls a re-roll follows (read back a few events when not seen), or None."""
        ranked = {s for group in event.ranking for s in group}
        if event.version in self.earlier or not set(event.dice) < ranked:
            return self.earlier.get(event.version)
        back = [e for e in self._events(max(0, event.version - 40), event.version - 1)
                if isinstance(e, ev.InitiativeRolled) and e.turn == event.turn]
        for e in back:
            self._initiative(e)
        self._initiative(event)
        return self.earlier.get(event.version)

    # ---- saying --------------------------------------------------------------------------

    def _replaced(self, version: int | None) -> str:
        """`, made again on the referee's ruling in place of ...` for a roll a ruling had
        made again, else nothing."""
        if version is None:
            return ""
        found = self._events(version - 1, version)
        old = (f" ({faces(found[0].dice)}: {outcome_of_dice(found[0])})"
               if found and isinstance(found[0], ev.DiceRolled) else "")
        return f", made again on the referee's ruling in place of the roll at version {version}{old}"

    def _say_RollDeclared(self, e: ev.RollDeclared, who: str, hidden: set[str]) -> str:
        success = f" (it succeeds when {e.success})" if e.success else ""
        return (f"{who} declared {e.notation} for {self.names.text(e.purpose)}{success}"
                f"{self._replaced(e.replaces)}: the dice are thrown at the table next.")

    def _say_DiceRolled(self, e: ev.DiceRolled, who: str, hidden: set[str]) -> str:
        verb = "threw" if e.source == "table" else "rolled"
        dice = notation(e)
        dice = "" if dice in e.purpose else f" ({dice})"  # a rule's purpose says its dice
        said = (f"{who} {verb} {faces(e.dice)} for {self.names.text(e.purpose)}{dice}: "
                f"{outcome_of_dice(e)}{self._replaced(e.replaces)}")
        if e.success:
            said += f" (it succeeds when {e.success})"
        if e.awaits:
            said += "; the result is read from the table next"
        return said + "."

    def _say_ResultRecorded(self, e: ev.ResultRecorded, who: str, hidden: set[str]) -> str:
        failed = " (failed)" if e.failed else ""
        return (f"Result of {self.names.text(e.of)}: {self.names.text(e.result)}{failed} "
                f"({who}).")

    def _say_InitiativeRolled(self, e: ev.InitiativeRolled, who: str,
                              hidden: set[str]) -> str:
        n = self.names
        earlier = self._rerolled(e)

        def score(side: str) -> str:
            die, cv = e.dice[side], e.cv.get(side, 0)
            return f"{die}" if not cv else f"{die} + {cv} = {die + cv}"

        ranked = [s for group in e.ranking for s in group]
        if earlier is not None:
            parts = [f"{n.side(s)} {earlier[s]}" + (f" (re-roll {score(s)})" if s in e.dice
                                                    else "") for s in ranked if s in earlier]
            title = "Initiative"
        else:
            parts = [f"{n.side(s)} {score(s)}" for s in ranked if s in e.dice]
            title = "Initiative re-roll" if set(e.dice) < set(ranked) else "Initiative"
        order = []
        for group in e.ranking:
            order.append(n.side(group[0]) if len(group) == 1
                         else f"{n.sides_of(group)} (tied: roll again)")
        return f"{title}: {', '.join(parts)}; order: {', '.join(order)}."

    def _say_InitiativePassed(self, e: ev.InitiativePassed, who: str,
                              hidden: set[str]) -> str:
        return (f"{self.names.side(e.side)} handed first place to {self.names.side(e.to)}; "
                f"order: {', '.join(self.names.side(s) for s in e.order)}.")

    def _cards(self, e: ev.CardsDrawn | ev.CardsDiscarded, verb: str, hidden: set[str]) -> str:
        side = self.names.side(e.side)
        cards = plural(e.count, "card")
        if "cards" in hidden or not e.cards:
            return f"{side} {verb} {cards}."
        return f"{side} {verb} {cards}: {listing(self.names.card(c) for c in e.cards)}."

    def _say_CardsDrawn(self, e: ev.CardsDrawn, who: str, hidden: set[str]) -> str:
        return self._cards(e, "drew", hidden)

    def _say_CardsDiscarded(self, e: ev.CardsDiscarded, who: str, hidden: set[str]) -> str:
        return self._cards(e, "discarded", hidden)

    def _say_CardPlayed(self, e: ev.CardPlayed, who: str, hidden: set[str]) -> str:
        return f"{self.names.side(e.side)} played {self.names.card(e.card)}."

    def _say_DeckShuffled(self, e: ev.DeckShuffled, who: str, hidden: set[str]) -> str:
        return (f"{who} shuffled every card of {self.names.side(e.side)} into a new deck "
                "with the server's dice.")

    def _say_DeckCut(self, e: ev.DeckCut, who: str, hidden: set[str]) -> str:
        return (f"{self.names.seat(e.by)} cut {self.names.side(e.side)}'s deck: the top "
                f"{plural(e.at, 'card')} went to the bottom.")

    def _say_DiceSeedRevealed(self, e: ev.DiceSeedRevealed, who: str,
                              hidden: set[str]) -> str:
        cards = " and the card seed" if e.card_seed else ""
        return (f"{who} revealed the dice seed{cards}: anyone can now check every server "
                "roll so far.")

    def _say_DiceCommitted(self, e: ev.DiceCommitted, who: str, hidden: set[str]) -> str:
        return "A fresh secret dice seed was sealed for the rest of the match."
