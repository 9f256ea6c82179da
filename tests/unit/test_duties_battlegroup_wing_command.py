"""Battlegroup's and Wing Command's duties in their Python modules (issue 38; the service
plays their files, which the differential tests hold to these): BG-2/BG-4 and WC-1 the
initiative, BG-6 the draw, BG-7 the activation and acting with a unit of it, WC-3 the morale
checks and WC-4 the recovery rolls. Owed by the seats the rules name, discharged by their
actions, holding the step with their rule; whose turn names the owing seats."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from duty_play import settle
from legal_play import Match

from domain import rulesets
from domain.errors import DomainError, OutOfSequence
from domain.owed import owed
from domain.waiting import waiting_for_seats


@pytest.fixture(autouse=True)
def python_modules(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(rulesets, "_FROM_FILES", {})
    rulesets._build.cache_clear()
    yield
    rulesets._build.cache_clear()


def seen(m: Match) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(o.seat, o.rule, o.units) for o in owed(m.state, m.ruleset)]


def go_to(m: Match, step: str, side: str | None = None) -> None:
    while m.state.turn.step != step or (side and m.state.turn.active_side != side):
        settle(lambda: m.state, m.ruleset, m.act)
        m.act("referee", {"type": "advance"})


def test_every_side_owes_the_initiative_roll_and_the_draw() -> None:
    m = Match("battlegroup-demo")
    assert seen(m) == [(s, "BG-2", ()) for s in ("north", "south", "west")]
    assert waiting_for_seats(m.state, m.ruleset).seats == ("north", "south", "west")
    with pytest.raises(DomainError) as refused:
        m.act("north", {"type": "advance"})
    assert refused.value.rule == "BG-2"
    m.act("south", {"type": "roll_initiative"})  # one roll for every side
    tied = [g for g in m.state.initiative_groups if len(g) > 1]
    assert [(seat, rule) for seat, rule, _ in seen(m)] == [
        (s, "BG-4") for g in tied for s in m.state.side_ids() if s in g]
    go_to(m, "initiation/cards")
    assert {(seat, rule) for seat, rule, _ in seen(m)} == {
        (s, "BG-6") for s in ("north", "south", "west")}
    m.act("west", {"type": "draw_cards"})
    assert "west" not in {seat for seat, _, _ in seen(m)}


def test_the_side_whose_turn_it_is_activates_then_acts_with_a_unit() -> None:
    m = Match("battlegroup-demo")
    go_to(m, "activation/activate")
    side = m.state.turn.active_side
    assert seen(m) == [(side, "BG-7", ())]
    assert owed(m.state, m.ruleset)[0].says.startswith("activate one of your battlegroups")
    group = next(str(u.extra["battlegroup"]) for u in m.state.in_play(side)
                 if "battlegroup" in u.extra)
    m.act(side, {"type": "activate_battlegroup", "battlegroup": group})
    assert [o.says for o in owed(m.state, m.ruleset)] == [
        "act with at least one unit of the activated battlegroup (move, rally or roll for it)"]
    with pytest.raises(OutOfSequence) as refused:  # an activation ended at once is refused
        m.act(side, {"type": "advance"})
    assert refused.value.rule == "BG-7"
    unit = next(u for u in m.state.in_play(side) if "acting" in u.status)
    m.act(side, {"type": "roll_dice", "notation": "d6", "purpose": "fire",
                 "unit_ids": [unit.id]})
    assert seen(m) == []
    m.act(side, {"type": "advance"})


def test_wing_command_owes_the_initiative_then_morale_and_recovery_by_the_phasing_side() -> None:
    m = Match("wing-command-demo", seed=b"b")  # dice under which the 4e Ligne passes WC-3
    assert seen(m) == [("french", "WC-1", ()), ("british", "WC-1", ())]
    side = "french"  # a piece of the 4e Ligne is disrupted
    go_to(m, "phase/pre_activation/b_unit_morale", side)
    # two of its three pieces disrupted reach its Casualty Value (2): a morale check
    assert seen(m) == [(side, "WC-3", ("f-line",))]
    with pytest.raises(OutOfSequence) as refused:
        m.act(side, {"type": "advance"})
    assert refused.value.rule == "WC-3"
    m.act(side, {"type": "rule_roll", "roll": "unit_morale", "unit_id": "f-line"})
    assert seen(m) == [] and m.state.units["f-line"].removed is None
    m.act(side, {"type": "advance"})
    assert m.state.turn.step == "phase/pre_activation/c_disruption"
    owing = [u.id for u in m.state.in_play(side) if u.kind == "piece"
             and "disrupted" in u.status]
    assert owing and seen(m) == [(side, "WC-4", tuple(owing))]
    with pytest.raises(OutOfSequence) as refused:
        m.act(side, {"type": "advance"})
    assert refused.value.rule == "WC-4"
    for piece in owing:
        m.act(side, {"type": "rule_roll", "roll": "disruption_recovery", "unit_id": piece})
    assert seen(m) == []


def test_only_the_tied_sides_re_roll_the_initiative() -> None:
    """(ours) BG-4: the re-roll is the tied sides' own; a side already ranked may not throw it
    for them (it ended their duty for them: found by test_demo_duties)."""
    for south, west in ((s, w) for s in range(1, 6) for w in range(1, 6)):
        m = Match("battlegroup-demo")
        m.act("referee", {"type": "roll_initiative", "source": "table",
                          "results": {"north": 6, "south": south, "west": west}})
        if [set(g) for g in m.state.initiative_groups if len(g) > 1] == [{"south", "west"}]:
            break
    else:
        pytest.fail("no table dice tie south and west alone")
    with pytest.raises(DomainError) as refused:
        m.act("north", {"type": "roll_initiative"})
    assert refused.value.rule == "BG-4"
    assert {s for s, rule, _ in seen(m) if rule == "BG-4"} == {"south", "west"}
    m.act("west", {"type": "roll_initiative"})  # a tied side re-rolls for the tie
    assert not [g for g in m.state.initiative_groups if len(g) > 1] or seen(m)
