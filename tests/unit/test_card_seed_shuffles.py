"""The card seed: decks are dealt and shuffled from a secret of their own, not from the dice
seed; matches (and exports) from before card seeds keep dealing and verifying from the dice
seed."""

from __future__ import annotations

import json

from conftest import T0, Table

from domain import events as ev
from domain.dice import DiceSpec, MatchDice, SeededDice, commitment
from domain.evolve import initial_state
from domain.integrity import GENESIS, canonical, chained, content_hash, verify
from domain.state import Side

DECKS = {"red": tuple(f"red-{i:02}" for i in range(12)),
         "blue": tuple(f"blue-{i:02}" for i in range(12))}


def created(dice: bytes, cards: bytes | None) -> ev.MatchCreated:
    return ev.MatchCreated(
        originator_id=Table().match_id, originator_version=1, timestamp=T0, actor="referee",
        ruleset="freeform", ruleset_version=1, scenario="s",
        sides=(Side(id="red", name="Red"), Side(id="blue", name="Blue")),
        dice_commitment=commitment(dice), dice_seed=dice.hex(), decks=DECKS,
        **({} if cards is None else {"card_commitment": commitment(cards),
                                     "card_seed": cards.hex()}))


def test_decks_are_dealt_from_the_card_seed_whatever_the_dice_seed() -> None:
    one = initial_state(created(b"dice one", b"cards")).decks
    assert initial_state(created(b"dice two", b"cards")).decks == one
    assert initial_state(created(b"dice one", b"other cards")).decks != one
    assert one != {side: tuple(SeededDice(b"dice one").shuffle(cards, f"deal:{side}"))
                   for side, cards in DECKS.items()}
    assert sorted(one["red"]) == sorted(DECKS["red"])


def test_a_match_created_before_card_seeds_still_deals_from_its_dice_seed() -> None:
    assert initial_state(created(b"dice", None)).decks == {
        side: tuple(SeededDice(b"dice").shuffle(cards, f"deal:{side}"))
        for side, cards in DECKS.items()}


def test_a_matchs_dice_roll_with_one_seed_and_shuffle_with_the_other() -> None:
    dice, cards = SeededDice(b"dice", ("ann",)), SeededDice(b"cards", ("ann",))
    both = MatchDice(dice, cards)
    spec = DiceSpec(3, 6)
    assert [both.roll(spec, i) for i in range(5)] == [dice.roll(spec, i) for i in range(5)]
    items = list(range(30))
    assert both.shuffle(items, "shuffle:4") == cards.shuffle(items, "shuffle:4")
    assert both.shuffle(items, "shuffle:4") != dice.shuffle(items, "shuffle:4")


def export(log: list[ev.Event]) -> list[str]:
    first = log[0]
    assert isinstance(first, ev.MatchCreated)
    top = {"format": "battlelog-match", "format_version": 1, "ruleset": first.ruleset,
           "ruleset_version": first.ruleset_version, "scenario": first.scenario,
           "sides": [s.model_dump() for s in first.sides],
           "dice_commitment": first.dice_commitment, "events": len(log),
           "chain_head": log[-1].hash}
    return [canonical({**top, "hash": content_hash(top)}) + "\n",
            *(canonical(e.public("referee")) + "\n" for e in log)]


def test_an_export_from_before_card_seeds_verifies_its_shuffles_with_the_dice_seed() -> None:
    """The unit tests' table is such a match: no card seed, one seed for dice and shuffles."""
    table = Table(decks={side: list(cards) for side, cards in DECKS.items()})
    table.act("red", type="draw_cards", count=3)
    table.act("red", type="shuffle_deck")
    table.act("blue", type="roll_dice", notation="2d6", purpose="fire")
    table.act("blue", type="shuffle_deck")
    table.act(type="end_match", winner=None)
    log = chained(table.log, GENESIS)
    seed = b"test-seed"
    log = chained([*log, ev.DiceSeedRevealed(
        originator_id=table.match_id, originator_version=len(log) + 1, timestamp=T0,
        actor="referee", seed=seed.hex(), dice_commitment=commitment(seed))], GENESIS)
    lines = export(log)
    assert '"card_' not in "".join(lines)  # the old format, byte for byte
    report = verify(lines)
    assert report.ok, report.problems
    assert (report.rolls_checked, report.rolls_unchecked) == (3, 0)

    shuffled = next(i for i, line in enumerate(lines) if '"DeckShuffled"' in line)
    body = json.loads(lines[shuffled])
    body["order"] = body["order"][::-1]
    forged = [ev.EVENT_TYPES["DeckShuffled"].model_validate(
        {**e.model_dump(), "order": body["order"]}) if e.version == shuffled else e
        for e in log]
    problems = verify(export(chained(forged, GENESIS))).problems
    assert any(f"event {shuffled}: server roll" in p for p in problems)
