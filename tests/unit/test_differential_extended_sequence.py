"""The WW2 extended sequence played at random on the Python ruleset
(domain/rulesets/extended_sequence*.py, the reference) and on its file
(projections/rulefiles/extended-sequence.yaml) side by side (tests/unit/differential.py):
server dice from a fixed seed for each sequence and table dice among the offers, undo and
redo among the moves, and actions tried by seats that may not take them. At every version
the two give the same events (types and payloads) or the same refusal (its kind and rule),
the same state and turn marker, and the same legal actions (at one move in three).

The file says fire (ES-4, ES-5: its 2d6, the shots against the ROF, the fire markers, the
breakdown on a 12, the halt), the reinforcements announced (ES-1), the fire markers cleared
as the marker arrives (ES-6), the routed unit eliminated (ES-4), the repair (ES-2), the
leader's rally (ES-3) and the turn limit (ES-6). What it still leaves to Python is lent to
the file's ruleset here, as the gaps docs/rulesets/authoring.md lists: the procedure
`call_artillery` (ES-1) and the roll `self_rally` (ES-2).

Every 20th sequence is a long walk from the start (a trunk); each of the others starts where
an earlier trunk stood after a random number of its moves and walks on from there. Every
other trunk starts from the demo with its routed units one suppression marker short of their
Q (ours: so that the walks reach ES-4's elimination, which random markers seldom do). The
walks neither end nor concede the match themselves (as Wing Command's)."""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.history import first_frame
from domain.rulesets import Ruleset
from domain.rulesets.extended_sequence import extended_sequence
from tests.unit.differential import Copy, Twin, created, sequences, shipped, tally

SEQUENCES = 100
TRUNK_EVERY = 20
TRUNK_MOVES = 150
BRANCH_MOVES = 5
DEMO = "extended-sequence-demo"
OPTIONS: dict[str, Any] = {"turns": 3, "radio_contact": 4, "q_roll_margin": 2}  # the demo's
GAPS = ("call_artillery",)  # the actions the file still names a procedure for
GAP_ROLLS = ("self_rally",)  # the roll it does not say yet


def with_gaps(file: Ruleset, python: Ruleset) -> Ruleset:
    """The file's ruleset with the Python procedures it still names (the gaps) lent."""
    return dataclasses.replace(
        file, actions={**file.actions, **{n: python.actions[n] for n in GAPS}},
        rolls={**file.rolls, **{n: python.rolls[n] for n in GAP_ROLLS}})


def near_elimination(twin: Twin) -> Twin:
    """The same match with each routed unit one suppression marker short of its Q."""
    first = twin.python.log[0]
    assert hasattr(first, "units")
    units = tuple(u.model_copy(update={"markers": {**u.markers, "suppression": u.q - 1}})
                  if "routed" in u.status and u.q else u for u in first.units)
    changed = first.model_copy(update={"units": units})
    copies = [Copy(c.ruleset, c.seed, [first_frame(changed)], [changed])
              for c in (twin.python, twin.file)]
    return Twin(*copies)


def test_the_extended_sequence_plays_the_same_on_its_file_as_on_the_python_ruleset() -> None:
    python = extended_sequence(OPTIONS)
    file = with_gaps(shipped("extended-sequence.yaml"), python)
    assert created(DEMO, b"x").options == OPTIONS

    def start(index: int) -> Twin:
        twin = Twin.of(DEMO, python, file, f"extended-sequence-{index}".encode())
        return near_elimination(twin) if index // TRUNK_EVERY % 2 == 0 else twin

    walked = tally(sequences(SEQUENCES, start, TRUNK_EVERY, TRUNK_MOVES, BRANCH_MOVES,
                             endings=False))
    made = walked.made  # the rules the walks' events name, in every sequence
    # the walks went through the game: actions taken, a later turn reached; fire (its rolls,
    # the fire markers, a halt), announcements, artillery, the markers cleared (ES-6) and a
    # routed unit eliminated (ES-4) made somewhere
    assert walked.taken > SEQUENCES * 2
    assert walked.reached >= 2
    assert made["DiceRolled:ES-4"] > 0 and made["DiceRolled:ES-4a"] > 0
    assert made["MarkerPlaced:ES-5"] > 0 and made["MarkerPlaced:ES-4"] > 0  # ROF; halted
    assert made["ReinforcementsAnnounced:ES-1"] > 0
    assert made["DiceRolled:ES-1"] > 0  # artillery's radio contact
    assert made["MarkerRemoved:ES-6"] > 0
    assert made["UnitRemoved:ES-4"] > 0
    assert made["DiceRolled:ES-3"] > 0 and made["UnitStatusChanged:ES-3"] > 0  # a rally
