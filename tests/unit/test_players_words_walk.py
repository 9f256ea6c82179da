"""Players' words beyond the first screen (issue 26, item 3): each demo played on by its
legal answers (the step's own move when there is one, else on to the next step), and in
every state reached, every seat's answer (titles, choices, the fields the page asks for,
their options and examples, the way on and why it is refused) and what the step expects
say no id of the match's own, no dotted name, no engine word. The browser walk checks the
pages themselves at the first screen (tests/e2e/test_browser_players_words.py)."""

from __future__ import annotations

from random import Random

import pytest

from domain.errors import DomainError
from domain.legal import legal_actions
from domain.refusal_words import in_words
from tests.players_words import legal_words, wrong
from tests.unit.legal_play import DEMOS, Match, filled

STEPS = 60  # actions per demo: past the first turn's steps in most games


def _ids(match: Match) -> set[str]:
    """The match's own ids: its units (in play or not), battlegroups, cards and tracks."""
    state = match.state
    units = state.units.values()
    return ({u.id for u in units} | {str(u.extra["battlegroup"]) for u in units
                                     if "battlegroup" in u.extra}
            | {c for cards in (*state.hands.values(), *state.decks.values()) for c in cards}
            | set(state.tracks))


@pytest.mark.parametrize("demo", DEMOS)
def test_every_answer_on_the_way_speaks_the_players_words(demo: str) -> None:
    match, rnd = Match(demo), Random(26)
    steps: set[str] = set()
    for _ in range(STEPS):
        answers = {seat: legal_actions(match.state, match.ruleset, seat, version=match.version)
                   for seat in match.seats}
        texts = [t for a in answers.values() for t in legal_words(a.model_dump(mode="json"))]
        expects = match.ruleset.expects(match.state) if match.ruleset.expects else []
        texts += [f"hint: {in_words(x, match.state)}" for x in expects]  # as the page says them
        bad = wrong(texts, _ids(match))
        assert bad == [], f"{demo} at {match.state.turn.step}:\n" + "\n".join(bad)
        steps.add(match.state.turn.step)
        for seat, answer in answers.items():
            own = [a for a in answer.actions if a.own]
            if own and rnd.random() < 0.8:
                try:
                    match.act(seat, filled(rnd.choice(own[0].choices)))
                    break
                except DomainError:
                    pass  # (an example the rules refuse now: go on instead)
            if answer.advance.legal:
                match.act(seat, answer.advance.body)
                break
        else:
            break  # nobody may act or go on (an operation to declare): as far as this walk goes
    assert len(steps) >= 4, steps  # the walk went past the first screen
