"""What `legal_actions` offers a seat, in the demos and a freeform match: only what the rules
accept now (no Activate on a unit already activated, no Morale roll owed by nobody, no Split
of a five-figure unit), in the game's words (unit and side names, each game's rule ids), the
body to post for each choice, and whether the turn marker may move on, with decide's reason
when it may not."""

from __future__ import annotations

import json
from typing import Any

from domain.legal import legal_actions, offered
from domain.legal.model import Choice, LegalAction, LegalActions
from tests.unit.legal_play import Match, filled


def legal(match: Match, seat: str) -> LegalActions:
    return legal_actions(match.state, match.ruleset, seat, version=match.version)


def action(answer: LegalActions, key: str) -> LegalAction | None:
    return next((a for a in answer.actions if a.id == key), None)


def must(answer: LegalActions, key: str) -> LegalAction:
    found = action(answer, key)
    assert found is not None, [a.id for a in answer.actions]
    return found


def units_offered(answer: LegalActions, key: str) -> list[str]:
    found = action(answer, key)
    return [] if found is None else [c.unit_id for c in found.choices if c.unit_id]


def choice(answer: LegalActions, key: str, **about: Any) -> Choice:
    found = action(answer, key)
    assert found is not None, [a.id for a in answer.actions]
    return next(c for c in found.choices if all(getattr(c, k) == v for k, v in about.items()))


def take(match: Match, seat: str, key: str, **about: Any) -> None:
    """Act with an offered choice (its required inputs at their examples)."""
    match.act(seat, filled(choice(legal(match, seat), key, **about)))


def advance(match: Match, *seats: str) -> None:
    for seat in seats:
        answer = legal(match, seat)
        assert answer.advance.legal, (seat, answer.advance.reason)
        match.act(seat, answer.advance.body)


def atomic_africa_at_cleanup() -> Match:
    """Every unit activated once; three more wounds on 1st Squad (it must split), two
    suppression markers on the Militia Band (it owes a Morale roll)."""
    m = Match("atomic-africa-demo")
    m.act("referee", {"type": "place_marker", "kind": "wound", "count": 3, "unit_id": "sq1"})
    m.act("referee", {"type": "place_marker", "kind": "suppression", "count": 2,
                      "unit_id": "ml1"})
    for side, unit in (("red", "sq1"), ("blue", "ml1"), ("red", "sq2"), ("blue", "mg1")):
        take(m, side, "activate_unit", unit_id=unit)
        advance(m, side)
    assert m.state.turn.step == "cleanup/split"
    return m


def test_activate_is_offered_to_the_activating_side_for_its_units_not_yet_activated() -> None:
    m = Match("atomic-africa-demo")
    assert units_offered(legal(m, "red"), "activate_unit") == ["sq1", "sq2"]
    assert units_offered(legal(m, "blue"), "activate_unit") == []
    take(m, "red", "activate_unit", unit_id="sq1")
    assert units_offered(legal(m, "red"), "activate_unit") == []  # one unit a phase
    advance(m, "red")
    take(m, "blue", "activate_unit", unit_id="ml1")
    advance(m, "blue")
    red = legal(m, "red")
    assert units_offered(red, "activate_unit") == ["sq2"]
    assert must(red, "activate_unit").title == "Activate a unit (AA-1)"


def test_split_is_offered_for_the_unit_that_must_split_and_never_for_five_figures() -> None:
    m = atomic_africa_at_cleanup()
    assert units_offered(legal(m, "red"), "split_unit") == ["sq1", "sq2"]  # sq2: voluntary
    assert units_offered(legal(m, "blue"), "split_unit") == ["ml1"]  # mg1 has 5 figures
    split = choice(legal(m, "red"), "split_unit", unit_id="sq1")
    assert split.label == "1st Squad"
    # no id asked of the player: the service makes the new unit's (a client may give one)
    assert split.body == {"type": "split_unit", "unit_id": "sq1"}
    [made] = [i for i in split.inputs if i.name == "new_unit_id"]
    assert made.kind == "id" and not made.required and made.example == "sq1-2"
    # which half takes the odd figure and the odd wound: the owner's taps (issue 39)
    assert [i.name for i in split.inputs if i.name.startswith("odd_to.")] == [
        "odd_to.figures", "odd_to.wound"]
    m.act("red", split.body)
    assert m.state.units["sq1-2"].name == "1st Squad B"


def test_next_step_is_refused_with_decides_reason_in_unit_names() -> None:
    m = atomic_africa_at_cleanup()
    red = legal(m, "red").advance
    assert not red.legal and red.title == "Done with this step"
    assert red.reason is not None and "1st Squad" in red.reason and "sq1" not in red.reason
    assert red.rule == "AA-3"
    blue = legal(m, "blue").advance
    assert blue.legal and blue.title == "Done with this step (then waiting for Expeditionary Force)"
    m.act("red", legal(m, "red").actions[0].choices[0].body)  # the split, as offered
    assert legal(m, "red").advance.legal


def test_morale_is_offered_only_for_the_units_that_owe_a_roll() -> None:
    m = atomic_africa_at_cleanup()
    take(m, "red", "split_unit", unit_id="sq1")
    advance(m, "red", "blue")
    assert m.state.turn.step == "cleanup/morale"
    assert units_offered(legal(m, "red"), "roll_morale") == []
    blue = legal(m, "blue")
    morale = action(blue, "roll_morale")
    assert morale is not None and morale.title == "Roll for morale (AA-7)"
    [roll] = morale.choices
    assert (roll.unit_id, roll.label, roll.body) == (
        "ml1", "Militia Band", {"type": "roll_morale", "unit_id": "ml1"})
    assert [d.sides for d in roll.dice] == [8]  # the unit's Morale die, d8
    assert roll.table is not None and roll.table.field == "result"
    m.act("blue", roll.table.body)  # the players' own die, as offered
    assert units_offered(legal(m, "blue"), "roll_morale") == []


def test_decks_are_shuffled_by_their_side_and_cut_by_the_other_named() -> None:
    m = atomic_africa_at_cleanup()
    take(m, "red", "split_unit", unit_id="sq1")
    advance(m, "red", "blue")
    take(m, "blue", "roll_morale", unit_id="ml1")
    advance(m, "red", "blue")
    assert m.state.turn.step == "cleanup/cards"
    assert action(legal(m, "blue"), "cut_deck") is None  # red has not shuffled yet
    shuffle = action(legal(m, "red"), "shuffle_deck")
    assert shuffle is not None and shuffle.title == "Shuffle your deck (AA-8)"
    m.act("red", shuffle.choices[0].body)
    cut = action(legal(m, "blue"), "cut_deck")
    assert cut is not None and cut.title == "Cut a deck (AA-8)"
    [deck] = cut.choices
    assert (deck.label, deck.side, deck.body) == (
        "Cut Expeditionary Force's deck", "red", {"type": "cut_deck", "side": "red"})
    [at] = deck.inputs
    assert (at.name, at.required, at.minimum, at.maximum) == ("at", True, 1, 5)


def test_each_game_cites_its_own_rule_for_the_initiative() -> None:
    for demo, rule in (("battlegroup-demo", "BG-2"), ("wing-command-demo", "WC-1")):
        m = Match(demo)
        found = action(legal(m, "referee"), "roll_initiative")
        # both demos are played from their ruleset files: the file's own title (issue 38)
        assert found is not None and found.title == f"Roll for the initiative ({rule})"


def test_initiative_with_table_dice_takes_one_die_for_each_side_by_name() -> None:
    m = Match("battlegroup-demo")
    [roll] = must(legal(m, "north"), "roll_initiative").choices
    assert roll.table is not None and roll.table.field == "results"
    assert [d.key for d in roll.dice] == ["north", "south", "west"]
    assert [d.purpose for d in roll.dice] == [
        "initiative of Northern Column", "initiative of Southern Column",
        "initiative of Western Column"]
    m.act("north", {**roll.table.body, "results": {"north": 6, "south": 2, "west": 1}})
    assert action(legal(m, "north"), "roll_initiative") is None  # settled
    handing = action(legal(m, "north"), "pass_initiative")
    assert handing is not None and handing.choices[0].label == (
        "Hand first place to Southern Column")
    assert action(legal(m, "south"), "pass_initiative") is None  # the winner's alone


def test_battlegroups_are_offered_by_their_units_names_to_the_side_whose_turn_it_is() -> None:
    m = Match("battlegroup-demo")
    m.act("referee", {"type": "roll_initiative", "source": "table",
                      "results": {"north": 6, "south": 2, "west": 1}})
    advance(m, "referee")
    for side in ("north", "south", "west"):
        take(m, side, "draw_cards")
    advance(m, "referee", "referee")
    first = m.state.turn.active_side
    assert first == "north"
    found = action(legal(m, "north"), "activate_battlegroup")
    assert found is not None and found.title == "Activate a battlegroup (BG-7)"
    assert [(c.label, c.body) for c in found.choices] == [
        ("Hale's battlegroup: Captain Hale, Rifle Squad", {"type": "activate_battlegroup",
                                                            "battlegroup": "n-1"}),
        ("Armoured battlegroup: Armoured Car", {"type": "activate_battlegroup",
                                                "battlegroup": "n-2"})]
    [auxiliaries] = found.choices[0].inputs
    assert [o.label for o in auxiliaries.values or ()] == ["Sniper Team"]
    assert action(legal(m, "south"), "activate_battlegroup") is None


def test_no_seat_is_offered_or_shown_another_sides_hand() -> None:
    m = Match("atomic-africa-demo")
    m.act("red", {"type": "draw_cards", "count": 2})
    hand = list(m.state.hands["red"])
    red = legal(m, "red")
    assert [c.body for c in must(red, "play_card").choices] == [
        {"type": "play_card", "card": card} for card in hand]
    for seat in ("blue", "referee", "spectator"):
        answer = legal(m, seat)
        assert action(answer, "play_card") is None and action(answer, "discard_cards") is None
        said = json.dumps(answer.model_dump(mode="json"))
        assert not [card for card in hand if card in said], seat


def test_a_freeform_match_offers_deploying_units_and_going_on_to_any_later_step() -> None:
    m = Match("a match of one's own", body={
        "scenario": "Hill 112", "sides": [{"id": "red", "name": "Red"},
                                          {"id": "blue", "name": "Blue"}]})
    red = legal(m, "red")
    deploy = choice(red, "deploy_unit", side="red")
    assert deploy.body == {"type": "deploy_unit", "unit": {"side": "red"}}
    assert [i.name for i in deploy.inputs if i.required] == ["unit.name"]  # no id asked
    assert must(red, "deploy_unit").choices == (deploy,)
    assert len(must(legal(m, "referee"), "deploy_unit").choices) == 2
    assert red.advance.title == "Next step: Movement"  # the freeform default phases
    assert [(s.label, s.body) for s in red.advance.skips] == [
        ("On to Combat", {"type": "advance", "to": "combat"}),
        ("On to End", {"type": "advance", "to": "end"})]
    m.act("red", filled(deploy))
    m.act("red", filled(deploy))  # the service makes each new unit's id
    assert [(u.id, u.side) for u in m.state.units.values()] == [("red-1", "red"),
                                                                 ("red-2", "red")]


def test_a_spectator_is_offered_nothing_and_told_why() -> None:
    answer = legal(Match("normandy-demo"), "spectator")
    assert answer.actions == () and answer.reason == "spectators watch; they do not act"
    assert not answer.advance.legal


def test_after_the_end_notes_and_disputes_remain_and_the_referee_may_reopen() -> None:
    m = Match("wing-command-demo")
    m.act("referee", {"type": "end_match", "winner": "french", "reason": "the bridge fell"})
    french = legal(m, "french")
    assert [a.id for a in french.actions] == ["add_note", "open_dispute"]
    assert not french.advance.legal and french.reason == french.advance.reason
    assert french.reason is not None and "the match has ended" in french.reason
    assert [a.id for a in legal(m, "referee").actions] == [
        "add_note", "open_dispute", "reopen_match"]


def test_offered_says_whether_a_body_is_one_of_the_choices() -> None:
    m = Match("atomic-africa-demo")
    red = legal(m, "red")
    assert offered(red, {"type": "move_unit", "unit_id": "sq1", "to": {"hex": "0101"}})
    assert not offered(red, {"type": "move_unit", "unit_id": "ml1", "to": {"x": 1, "y": 1}})
    assert offered(red, {"type": "activate_unit", "unit_id": "sq2"})
    assert not offered(red, {"type": "activate_unit", "unit_id": "ml1"})
    assert not offered(red, {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "x"})
    assert not offered(red, {"type": "advance"})  # red must activate first
    assert not offered(red, {"type": "no_such_action"})
