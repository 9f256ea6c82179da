"""Which legal actions are the step's own move (`own`), decided in the domain for every
client: the step's named game actions, never bookkeeping or what any step allows; in a
step that names only bookkeeping, the first it names; and, where a step names no move and
cannot be left yet, what is not about a single unit."""

from __future__ import annotations

from domain.legal import legal_actions
from domain.legal.model import Choice, LegalAction
from domain.legal.own import own_ids
from tests.unit.legal_play import Match


def owned(name: str, seat: str) -> dict[str, bool]:
    m = Match(name)
    return {a.id: a.own for a in legal_actions(m.state, m.ruleset, seat, version=m.version).actions}


def test_a_steps_named_game_actions_are_its_own_and_bookkeeping_is_not() -> None:
    offered = owned("atomic-africa-demo", "red")
    assert offered["activate_unit"] and offered["draw_cards"]
    for bookkeeping in ("move_unit", "place_marker", "roll_dice", "set_track", "score_vp"):
        assert offered[bookkeeping] is False, bookkeeping
    for anytime in ("add_note", "open_dispute", "end_match", "concede"):
        assert offered[anytime] is False, anytime


def test_in_a_step_naming_only_bookkeeping_the_first_it_names_is_its_move() -> None:
    for name, seat in (("extended-sequence-demo", "germans"), ("normandy-demo", "allied")):
        offered = owned(name, seat)
        assert offered["set_track"] is True, name  # the Weather step sets the weather
        assert offered["roll_dice"] is False, name  # a free roll is never a step's move


def _action(key: str, *units: str | None) -> LegalAction:
    return LegalAction(id=key, type=key, title=key, choices=tuple(
        Choice(label=str(u), body={"type": key}, unit_id=u) for u in units))


def test_a_step_with_no_move_of_its_own_that_cannot_be_left_offers_what_is_not_about_one_unit() -> None:
    actions = (_action("roll_dice", None), _action("place_marker", "u1", "u2"),
               _action("add_note", None))
    # a step naming only a free roll, that cannot be left yet: the roll, not the unit's marker
    assert own_ids(("roll_dice",), actions, advance_legal=False) == {"roll_dice"}
    # once the marker may move on, Next step is the move and nothing else is the step's own
    assert own_ids(("roll_dice",), actions, advance_legal=True) == frozenset()
    # a step naming a move this seat is not offered waits for it: nothing of its own here
    assert own_ids(("activate_battlegroup", "roll_dice"), actions, advance_legal=False) == set()
