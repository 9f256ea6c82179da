"""Wing Command played at random on the Python ruleset (domain/rulesets/wing_command*.py, the
reference) and on its file (projections/rulefiles/wing-command.yaml) side by side
(tests/unit/differential.py): 500 sequences from the demo, server dice from a fixed seed
for each and table dice among the offers, undo and redo among the moves, and actions tried
by seats that may not take them. At every version the two give the same events (types and
payloads: rules, purposes and sentences included) or the same refusal (its kind and rule),
the same state and turn marker, and the same legal actions (at one move in three).

Every 25th sequence is a long walk from the start (a trunk); each of the others starts
where an earlier trunk stood after a random number of its moves (that part checked by the
trunk) and walks on from there on its own dice and choices. The matches end by their turn
limit (WC-10, the option `turns`): the demo's three turns, or one in every third trunk. (ours) The walks
neither end nor concede the match themselves: a Wing Command seat the step does not wait
for often has nothing but the asides to offer, and a walk that conceded there would seldom
reach an activation."""

from __future__ import annotations

from collections import Counter

from domain.rulesets.wing_command import wing_command
from tests.unit.differential import Twin, sequences, shipped

SEQUENCES = 500
TRUNK_EVERY = 25
TRUNK_MOVES = 150
BRANCH_MOVES = 5
DEMO = "wing-command-demo"


def test_wing_command_plays_the_same_on_its_file_as_on_the_python_ruleset() -> None:
    file = shipped("wing-command.yaml")

    def start(index: int) -> Twin:
        options = {"turns": 1 if index // TRUNK_EVERY % 3 == 2 else 3}  # the demo's: 3
        return Twin.of(DEMO, wing_command(options), file, f"wing-command-{index}".encode(),
                       options)

    taken = reached = 0
    made: Counter[str] = Counter()  # the rules the walks' events name, in every sequence
    for twin, walk in sequences(SEQUENCES, start, TRUNK_EVERY, TRUNK_MOVES, BRANCH_MOVES,
                                endings=False):
        taken += walk.taken
        reached = max(reached, twin.state.turn.turn)
        made.update(f"{type(e).__name__}:{getattr(e, 'rule', None)}" for e in twin.python.log)
    # the walks went through the game: actions taken, later turns reached, each of its
    # rolls, its fire and close combat, the phase passing at once and the turn limit made
    # somewhere
    assert taken > SEQUENCES * 3
    assert reached >= 2
    for rolled in ("WC-1", "WC-3", "WC-4", "WC-5", "WC-6", "WC-7", "WC-8"):
        assert made[f"DiceRolled:{rolled}"] + made[f"InitiativeRolled:{rolled}"] > 0, rolled
    assert made["UnitsActivated:WC-6"] > SEQUENCES // 10
    assert made["PhaseAdvanced:WC-9"] > 0 and made["UnitStatusChanged:WC-9"] > 0
    assert made["MatchEnded:WC-10"] > 0  # a turn limit reached
