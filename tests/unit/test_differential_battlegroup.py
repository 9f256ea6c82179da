"""Battlegroup played at random on the Python ruleset (domain/rulesets/battlegroup.py, the
reference) and on its file (projections/rulefiles/battlegroup.yaml) side by side
(tests/unit/differential.py): 500 sequences from the demo, server dice from a fixed seed
for each and table dice among the offers, undo and redo among the moves, and actions tried
by seats that may not take them. At every version the two give the same events (types and
payloads) or the same refusal (its kind and rule), the same state and turn marker, and the
same legal actions (at one move in three).

Every 25th sequence is a long walk from the start (a trunk); each of the others starts
where an earlier trunk stood after a random number of its moves (that part checked by the
trunk) and walks on from there on its own dice and choices, so that the rounds, the
activations and the match's end are reached often at a cost CI can pay."""

from __future__ import annotations

from domain.rulesets.battlegroup import battlegroup
from tests.unit.differential import Twin, sequences, shipped

SEQUENCES = 500
TRUNK_EVERY = 25
TRUNK_MOVES = 80
BRANCH_MOVES = 4
DEMO = "battlegroup-demo"


def test_battlegroup_plays_the_same_on_its_file_as_on_the_python_ruleset() -> None:
    file = shipped("battlegroup.yaml")

    def start(index: int) -> Twin:
        rounds = 1 + index // TRUNK_EVERY % 3  # the demo's 3, and shorter matches
        return Twin.of(DEMO, battlegroup({"rounds": rounds}), file,
                       f"battlegroup-{index}".encode(), {"rounds": rounds})

    taken = ended = activated = reached = limits = 0
    for twin, walk in sequences(SEQUENCES, start, TRUNK_EVERY, TRUNK_MOVES, BRANCH_MOVES):
        taken += walk.taken
        state = twin.state
        ended += state.outcome is not None
        limits += state.outcome is not None and " played; " in state.outcome.reason
        reached = max(reached, state.turn.turn)
        activated += any(type(e).__name__ == "UnitsActivated" for e in twin.python.log)
    # the walks went through the game: actions taken, battlegroups activated, later rounds
    # reached, matches ended by their round limit
    assert taken > SEQUENCES * 3
    assert activated > SEQUENCES // 10
    assert reached >= 2
    assert limits > 0
