"""What Hold the Towns' steps owe (projections/rulefiles/hold-the-towns.yaml, `owes:`;
docs/rulesets/hold-the-towns.md, "What each step owes"): the phasing side brings on each
reinforcement due (HT-3) and attacks a defender it has named (HT-5); a combat result's
retreat falls on the retreating unit's owner (HT-6), and the attacked marker comes off by
its owner's hand once the result is carried out (HT-5). North attacks South's unit: the
match then waits for South, North's step is not left while South owes, and South carries
out its result in North's player-turn, and nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table
from pydantic import TypeAdapter

from domain.commands import Action
from domain.decide import decide
from domain.errors import NotYourTurn, OutOfSequence
from domain.evolve import evolve
from domain.owed import owed
from domain.rulefiles import sequence_of
from domain.rulefiles.compile import compile_file
from domain.sequence import following, start
from domain.state import MatchState
from domain.waiting import waiting_for_seats
from projections.rulefile_load import BUILT_IN, check_file

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
FILE = check_file(BUILT_IN / "hold-the-towns.yaml").ruleset
assert FILE is not None
RULESET = compile_file(FILE)
RETREAT = ("retreat its unit one hex as the combat result says, then take the retreat "
           "marker off (or eliminate the unit if no empty hex away from every enemy is left)")
MARKER = "take the attacked marker off its unit, the attack's result carried out"


def unit(uid: str, side: str, at: str, attack: int, defence: int,
         **extra: Any) -> dict[str, Any]:
    """A unit in hex `at` (or, with `at` empty, on the reinforcement track)."""
    return {"id": uid, "side": side, "name": uid.upper(), "kind": "infantry",
            "position": {"hex": at} if at else {"box": "reinforcements"},
            "extra": {"attack": attack, "defence": defence, "movement": 3, **extra}}


class Match:
    """A match of the file, its marker at `step` of North's player-turn."""

    def __init__(self, units: list[dict[str, Any]], step: str, turn: int = 1) -> None:
        self.table = Table(sides=("north", "south"), units=units)
        seq = sequence_of(FILE)
        state = self.table.state
        marker = start(seq, state.side_ids()).model_copy(update={"turn": turn})
        while marker.step != step:
            marker = following(seq, marker, state.model_copy(update={"turn": marker}), {})
        self.state = state.model_copy(update={"turn": marker})

    def act(self, actor: str, **body: Any) -> MatchState:
        for event in decide(ACTIONS.validate_python(body), self.state, RULESET,
                            self.table.context(actor)):
            self.state = evolve(self.state, event)
        return self.state

    def owed(self) -> list[tuple[str, str, tuple[str, ...]]]:
        return [(o.seat, o.rule, o.units) for o in owed(self.state, RULESET)]


def attack(die: int, attack_factor: int = 9) -> Match:
    """North's unit in 0303 attacks South's in 0304 (defence 3), a `die` thrown."""
    match = Match([unit("n1", "north", "0303", attack_factor, 2),
                   unit("s1", "south", "0304", 2, 3)], "player_turn/combat")
    match.act("north", type="place_marker", unit_id="s1", kind="defender")
    assert match.owed() == [("north", "HT-5", ("s1",))]  # named: North owes the attack
    match.act("north", type="rule_roll", roll="attack", unit_id="n1", source="table",
              results=[die])
    return match


def test_a_defender_retreat_is_owed_by_its_owner_who_carries_it_out_out_of_turn() -> None:
    match = attack(2)  # 9 to 3: 3-1, a 2: DR
    assert match.state.units["s1"].markers == {"attacked": 1, "retreat": 1}
    assert match.owed() == [("south", "HT-6", ("s1",))]
    waiting = waiting_for_seats(match.state, RULESET)
    assert waiting.seats == ("south",)  # not North, whose step it is: South owes
    assert waiting.reasons("south") == (f"to {RETREAT}",)
    with pytest.raises(OutOfSequence) as refused:
        match.act("north", type="advance")
    assert refused.value.rule == "HT-6" and f"South is to {RETREAT} (S1)" in (
        refused.value.detail)
    with pytest.raises(NotYourTurn):  # South acts in North's step only for what it owes
        match.act("south", type="place_marker", unit_id="n1", kind="defender")
    match.act("south", type="move_unit", unit_id="s1", to={"hex": "0305"})
    match.act("south", type="remove_marker", unit_id="s1", kind="retreat")
    assert match.owed() == [("south", "HT-5", ("s1",))]  # then the attacked marker
    with pytest.raises(OutOfSequence, match=f"HT-5: .*South is to {MARKER}"):
        match.act("north", type="advance")
    match.act("south", type="remove_marker", unit_id="s1", kind="attacked")
    assert match.owed() == [] and waiting_for_seats(match.state, RULESET).seats == ("north",)
    assert match.act("north", type="advance").turn.step == "player_turn/reinforcement"


def test_an_attacker_retreat_is_the_phasing_sides_and_the_marker_the_defenders() -> None:
    match = attack(2, attack_factor=2)  # 2 to 3: 1-2, a 2: AR
    assert match.state.units["n1"].markers == {"retreat": 1}
    assert match.owed() == [("north", "HT-6", ("n1",)), ("south", "HT-5", ("s1",))]
    assert set(waiting_for_seats(match.state, RULESET).seats) == {"north", "south"}


def test_an_elimination_is_the_services_and_leaves_nothing_owed() -> None:
    match = attack(1)  # 3-1, a 1: DE
    assert match.state.units["s1"].removed == "eliminated"
    assert match.owed() == []
    match = attack(1, attack_factor=2)  # 1-2, a 1: NE; the marker is South's to take off
    assert match.owed() == [("south", "HT-5", ("s1",))]


def test_a_defender_is_named_only_where_a_unit_can_still_attack_it() -> None:
    match = attack(2, attack_factor=2)
    match.act("north", type="remove_marker", unit_id="n1", kind="retreat")
    match.act("south", type="remove_marker", unit_id="s1", kind="attacked")
    with pytest.raises(Exception, match="HT-5"):  # the 1st attacked once this player-turn
        match.act("north", type="place_marker", unit_id="s1", kind="defender")


def test_each_reinforcement_due_is_owed_by_the_phasing_side() -> None:
    match = Match([unit("n1", "north", "0303", 3, 3), unit("s1", "south", "0909", 3, 3),
                   unit("n2", "north", "", 3, 3, arrives=2, enters="0101"),
                   unit("n3", "north", "", 3, 3, arrives=3, enters="0102")],  # not yet due
                  "player_turn/reinforcement", turn=2)
    assert match.owed() == [("north", "HT-3", ("n2",))]
    with pytest.raises(OutOfSequence, match="HT-3: .*North is to bring on each "
                                            "reinforcement due this game turn"):
        match.act("north", type="advance")
    match.act("north", type="move_unit", unit_id="n2", to={"hex": "0101"})
    assert match.owed() == []


def test_a_ruleset_reads_every_duty_of_the_file() -> None:
    owes = {path: [(d.rule, d.by, d.done_by) for d in RULESET.sequence.step(path).owes]
            for path in RULESET.sequence.steps()}
    assert owes == {
        "player_turn/reinforcement": [("HT-3", "phasing", ("move_unit",))],
        "player_turn/movement": [],
        "player_turn/combat": [("HT-5", "phasing", ("rule_roll",)),
                               ("HT-6", "owner", ("move_unit", "remove_marker",
                                                  "remove_unit")),
                               ("HT-5", "owner", ("remove_marker", "remove_unit"))],
        "end_of_turn": [],
    }
