"""Hidden cards stay hidden when the referee reveals the dice seed mid-match: decks are dealt
and shuffled from a card seed of their own, committed at creation and revealed only when
the match ends; `verify` then recomputes every shuffle (docs/integrity.md)."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from pydantic import TypeAdapter

from domain import events as ev
from domain.app import Matches
from domain.commands import Action, CreateMatch
from domain.dice import SeededDice, commitment
from domain.events.commitments import commitment_to
from domain.integrity import GENESIS, canonical, content_hash, event_hash, verify
from projections.export import export_lines

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
SIDES = ("red", "blue")
MATCH = CreateMatch.model_validate({
    "ruleset": "freeform", "scenario": "Cards face down",
    "sides": [{"id": side, "name": side.title()} for side in SIDES],
    "decks": {side: [f"{side}-{i:02}" for i in range(20)] for side in SIDES}})


@pytest.fixture
def matches(store_env: dict[str, str]) -> Iterator[Matches]:
    """The service with known secrets, drawn in turn (pinned: the test is deterministic)."""
    counter = itertools.count()
    matches = Matches(env=store_env, seed_source=lambda: hashlib.sha256(
        f"secret {next(counter)}".encode()).digest())
    yield matches
    matches.close()


def act(matches: Matches, match_id: UUID, seat: str, **action: Any) -> list[ev.Event]:
    return matches.act(match_id, ACTIONS.validate_python(action), actor=seat).events


def played(matches: Matches) -> UUID:
    """Players joined with entropy; cards drawn, played, shuffled (AA-8 style), cut, and
    drawn again; a server roll."""
    match_id = matches.create_match(MATCH).events[0].originator_id
    for side in SIDES:
        matches.join(match_id, side=side, player=side, entropy=f"{side} entropy")
    for side in SIDES:
        act(matches, match_id, side, type="draw_cards", count=5)
    hand = matches.head(match_id).state.hands["red"]
    act(matches, match_id, "red", type="play_card", card=hand[2])
    act(matches, match_id, "red", type="shuffle_deck")
    act(matches, match_id, "blue", type="cut_deck", side="red", at=7)
    act(matches, match_id, "red", type="draw_cards", count=4)
    act(matches, match_id, "blue", type="roll_dice", notation="2d6", purpose="fire")
    return match_id


def seen_by(matches: Matches, match_id: UUID, seat: str) -> list[dict[str, Any]]:
    return [e.public(seat) for e in matches.events_of(match_id)]


def recomputed(events: list[dict[str, Any]], seed: bytes) -> dict[str, dict[str, list[str]]]:
    """What a seat works out from the events it sees and a dice seed, assuming decks come
    from that seed (as they did before card seeds): every deck and hand."""
    created = events[0]
    entropy: list[str] = []
    decks = {side: SeededDice(seed).shuffle(cards, f"deal:{side}")
             for side, cards in created["decks"].items()}
    hands: dict[str, list[str]] = {side: [] for side in decks}
    played: dict[str, list[str]] = {side: [] for side in decks}
    for event in events[1:]:
        side = event.get("side")
        if event["type"] == "SeatJoined" and event.get("entropy"):
            entropy.append(event["entropy"])
        elif event["type"] == "CardsDrawn":
            hands[side] += decks[side][:event["count"]]
            decks[side] = decks[side][event["count"]:]
        elif event["type"] == "CardPlayed":  # (face up: a wrong guess of the hand shows)
            hands[side] = [card for card in hands[side] if card != event["card"]]
            played[side].append(event["card"])
        elif event["type"] == "DeckShuffled":
            everything = sorted(decks[side] + hands[side] + played[side])
            decks[side] = SeededDice(seed, tuple(entropy)).shuffle(
                everything, f"shuffle:{event['roll_index']}")
            hands[side], played[side] = [], []
        elif event["type"] == "DeckCut":
            decks[side] = decks[side][event["at"]:] + decks[side][:event["at"]]
    return {"decks": decks, "hands": hands}


def test_a_dice_seed_revealed_mid_match_discloses_no_hand_and_no_deck_order(
        matches: Matches) -> None:
    match_id = played(matches)
    revealed = matches.reveal_seed(match_id).events[0]
    assert isinstance(revealed, ev.DiceSeedRevealed)
    state = matches.head(match_id).state
    for seat, other in (("blue", "red"), ("red", "blue"), ("spectator", "red")):
        guess = recomputed(seen_by(matches, match_id, seat), bytes.fromhex(revealed.seed))
        assert guess["hands"][other] != list(state.hands[other])
        assert guess["decks"][other] != list(state.decks[other])
    assert revealed.card_seed is None and revealed.card_commitment is None  # not yet
    created = next(iter(matches.events_of(match_id, upto=1)))
    assert isinstance(created, ev.MatchCreated) and created.card_seed is not None
    card_seed = created.card_seed
    for seat in (*SIDES, "spectator", "referee"):  # the card seed is on no surface
        assert card_seed not in json.dumps(seen_by(matches, match_id, seat))
    export = "".join(export_lines(matches, match_id))
    assert card_seed not in export
    # ... while the card seed itself does give every deck and hand away: it is the secret
    truth = recomputed(seen_by(matches, match_id, "referee"), bytes.fromhex(card_seed))
    assert truth["hands"] == {side: list(hand) for side, hand in state.hands.items()}
    assert truth["decks"] == {side: list(deck) for side, deck in state.decks.items()}


def test_the_card_seed_is_revealed_when_the_match_ends_and_verify_recomputes_every_shuffle(
        matches: Matches) -> None:
    match_id = played(matches)
    matches.reveal_seed(match_id)
    act(matches, match_id, "red", type="shuffle_deck")
    act(matches, match_id, "blue", type="roll_dice", notation="d6", purpose="fire")
    report = verify(list(export_lines(matches, match_id)))
    assert report.ok, report.problems
    assert (report.rolls_checked, report.rolls_unchecked) == (1, 3)  # the shuffles wait

    act(matches, match_id, "referee", type="end_match", winner=None)
    events = list(matches.events_of(match_id))
    created, revealed = events[0], events[-1]
    assert isinstance(created, ev.MatchCreated) and isinstance(revealed, ev.DiceSeedRevealed)
    assert revealed.card_seed == created.card_seed
    assert revealed.card_commitment == created.card_commitment == commitment(
        bytes.fromhex(revealed.card_seed or ""))
    lines = list(export_lines(matches, match_id))
    report = verify(lines)
    assert report.ok, report.problems
    assert (report.rolls_checked, report.rolls_unchecked) == (4, 0)

    # a shuffle that is not the card seed's is named, even in a re-chained export
    shuffle = next(i for i, line in enumerate(lines) if '"type":"DeckShuffled"' in line)
    forged = rechained(lines, shuffle, lambda body: {**body, "order": body["order"][::-1]})
    assert any(f"event {shuffle}: server roll" in p for p in verify(forged).problems)
    # ... and so is a card seed that does not open the commitment
    for wrong in ("00" * 32, "not hex"):
        forged = rechained(lines, len(lines) - 1,
                           lambda body, wrong=wrong: {**body, "card_seed": wrong})
        assert "reveals a card seed that does not match" in verify(forged).problems[0]


def rechained(lines: list[str], at: int, change: Any) -> list[str]:
    """The export with line `at` changed and every hash after it made anew (a forgery that
    keeps the chain whole: the referee's file holds the salts, so the forger commits to the
    changed values too)."""
    bodies = [json.loads(line) for line in lines]
    bodies[at] = change(bodies[at])
    salts = bodies[at].get("salts") or {}
    bodies[at]["commitments"] = {name: commitment_to(salt, bodies[at][name])
                                 for name, salt in salts.items()} or None
    prev = GENESIS
    for body in bodies[1:]:
        body["prev_hash"] = prev
        body["hash"] = prev = event_hash(body)
    header = {**bodies[0], "chain_head": prev}
    bodies[0] = {**header, "hash": content_hash(header)}
    return [canonical(body) + "\n" for body in bodies]


def test_an_imported_finished_match_has_the_decks_and_hands_it_had(matches: Matches) -> None:
    match_id = played(matches)
    act(matches, match_id, "referee", type="end_match", winner="red")
    elsewhere = Matches()
    imported = elsewhere.import_match(list(export_lines(matches, match_id))).frame.state
    state = matches.head(match_id).state
    assert (imported.decks, imported.hands, imported.discards) == (
        state.decks, state.hands, state.discards)
    here, there = (next(iter(m.events_of(match_id, upto=1))) for m in (matches, elsewhere))
    assert isinstance(here, ev.MatchCreated) and isinstance(there, ev.MatchCreated)
    assert there.card_seed == here.card_seed  # revealed at the end, so known there too


def ended_and_reopened(matches: Matches) -> tuple[UUID, bytes]:
    """A match played, ended (its card seed revealed) and reopened; the revealed seed."""
    match_id = played(matches)
    act(matches, match_id, "referee", type="end_match", winner=None)
    revealed = list(matches.events_of(match_id))[-1]
    assert isinstance(revealed, ev.DiceSeedRevealed) and revealed.card_seed is not None
    act(matches, match_id, "referee", type="reopen_match", reason="one more turn")
    return match_id, bytes.fromhex(revealed.card_seed)


def test_a_reopened_match_never_shuffles_with_the_card_seed_its_end_revealed(
        matches: Matches) -> None:
    match_id, public = ended_and_reopened(matches)
    state = matches.head(match_id).state
    cards = sorted([*state.decks["red"], *state.hands["red"], *state.discards["red"]])
    [shuffled] = act(matches, match_id, "red", type="shuffle_deck")  # a fresh card seed
    assert isinstance(shuffled, ev.DeckShuffled)
    entropy = tuple(f"{side} entropy" for side in SIDES)
    assert list(shuffled.order) != SeededDice(public, entropy).shuffle(
        cards, f"shuffle:{shuffled.roll_index}")


def test_a_fresh_card_seed_committed_on_reopening_shuffles_and_verifies(
        matches: Matches) -> None:
    match_id, _ = ended_and_reopened(matches)
    [reopened, committed] = list(matches.events_of(match_id))[-2:]
    assert isinstance(reopened, ev.MatchReopened) and isinstance(committed, ev.DiceCommitted)
    assert committed.card_seed is not None
    fresh = bytes.fromhex(committed.card_seed)
    act(matches, match_id, "red", type="shuffle_deck")
    matches.reveal_seed(match_id)  # the dice seed only: the fresh card seed is carried on
    act(matches, match_id, "blue", type="shuffle_deck")
    report = verify(list(export_lines(matches, match_id)))
    assert report.ok and report.rolls_unchecked == 2, report
    act(matches, match_id, "referee", type="end_match", winner="blue")
    revealed = list(matches.events_of(match_id))[-1]
    assert isinstance(revealed, ev.DiceSeedRevealed) and revealed.card_seed == fresh.hex()
    report = verify(list(export_lines(matches, match_id)))
    assert report.ok, report.problems
    assert (report.rolls_checked, report.rolls_unchecked) == (4, 0)
