"""What-if forks of matches with cards, splits and undos: a fork at any version starts from
exactly the origin's state there (units, decks in their order, hands, discards, tracks,
turn marker), for every ruleset, and a fork that fails (or a ruling whose fork fails)
leaves nothing in the store."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from eventsourcing.utils import get_topic
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from api import scenarios
from domain import events as ev
from domain import history
from domain.app import Matches
from domain.commands import Action, CreateMatch
from domain.errors import DomainError
from domain.integrity import verify
from domain.state import MatchState
from projections.export import export_lines

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
REFEREE = "referee"
# The parts of the state a fork must reproduce (versions inside the dice log and the
# awaited roll are renumbered in a fork, so those are left out).
GAME = {"units", "location_markers", "tracks", "vp", "decks", "hands", "discards",
        "this_turn", "initiative_groups", "turn", "outcome", "notes"}
# A freeform match allows every action in every step: shuffles and cuts come often.
FREEFORM = CreateMatch.model_validate({
    "ruleset": "freeform", "scenario": "Cards on the table",
    "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
    "units": [{"id": "r1", "side": "red", "name": "Red 1", "figures": 9,
               "position": {"x": 1, "y": 1}},
              {"id": "b1", "side": "blue", "name": "Blue 1", "figures": 7,
               "position": {"x": 5, "y": 5}}],
    "decks": {"red": [f"r{i}" for i in range(8)], "blue": [f"b{i}" for i in range(8)]}})
SETUPS = ("freeform-cards", "battlegroup-demo", "atomic-africa-demo", "wing-command-demo",
          "normandy-demo", "extended-sequence-demo")


def game(state: MatchState) -> dict[str, Any]:
    return {**state.model_dump(include=GAME), "dice_rolls": state.dice.count}


def match_count(matches: Matches) -> int:
    """How many matches the store holds: its `MatchCreated` events, counted on from the
    previous call's position in the notification log."""
    seen = _counted.setdefault(id(matches), [0, 0])  # [last notification id, matches]
    while True:
        batch = matches.recorder.select_notifications(
            start=seen[0] + 1, limit=1000, topics=[get_topic(ev.MatchCreated)])
        if not batch:
            return seen[1]
        seen[0], seen[1] = batch[-1].id, seen[1] + len(batch)


_counted: dict[int, list[int]] = {}


# ---- a match played by generated moves --------------------------------------------------

Tried = list[tuple[str, dict[str, Any]]]  # (seat, action), tried in turn until one is taken


def pick(items: tuple[str, ...] | list[str], i: int) -> str | None:
    return items[i % len(items)] if items else None


def progress(state: MatchState, start: int) -> Tried:
    """What moves a match on: the initiative, an activation, a morale roll, a split, a full
    hand, a deck reset (AA-8), or the next step; tried from the `start`-th on."""
    tried: Tried = [(REFEREE, {"type": "roll_initiative"})]
    active = state.turn.active_side
    for unit_id, unit in sorted(state.units.items()):
        if unit.removed is not None:
            continue
        group = unit.extra.get("battlegroup")
        if unit.side == active:
            tried.append((unit.side, {"type": "activate_battlegroup", "battlegroup": group}
                          if group else {"type": "activate_unit", "unit_id": unit_id}))
        tried.append((unit.side, {"type": "roll_morale", "unit_id": unit_id}))
        tried.append((unit.side, {"type": "split_unit", "unit_id": unit_id,
                                  "new_unit_id": f"{unit_id}h{state.turn.turn}"}))
    for side in state.side_ids():
        other = next(s for s in state.side_ids() if s != side)
        tried += [(side, {"type": "draw_cards"}), (side, {"type": "shuffle_deck"}),
                  (other, {"type": "cut_deck", "side": side, "at": 1})]
    tried.append((REFEREE, {"type": "advance"}))
    start %= len(tried)
    return tried[start:] + tried[:start]


def tried_for(move: tuple[Any, ...], state: MatchState) -> Tried:
    """The seat and action (or actions, tried in turn) a generated move stands for."""
    sides = state.side_ids()
    kind, *args = move
    side = sides[args[0] % len(sides)] if args else sides[0]
    units = sorted(u for u, unit in state.units.items() if unit.removed is None)
    if kind in ("play", "discard") and not state.hands.get(side):  # a side holding cards
        side = next((s for s in sides if state.hands.get(s)), side)
    hand = state.hands.get(side, ())
    if kind == "draw" or (kind in ("play", "discard") and not hand):  # no hand: draw one
        count = args[1] if kind == "draw" else 3
        return [(side, {"type": "draw_cards", "count": count}), (side, {"type": "draw_cards"})]
    if kind == "play" and hand:
        return [(side, {"type": "play_card", "card": pick(hand, args[1])})]
    if kind == "discard" and hand:
        return [(side, {"type": "discard_cards",
                        "cards": sorted({hand[i % len(hand)] for i in args[1]})})]
    if kind == "shuffle":
        return [(side, {"type": "shuffle_deck"})]
    if kind == "cut":
        return [(sides[(args[0] + 1) % len(sides)],
                 {"type": "cut_deck", "side": side, "at": args[1]})]
    if kind == "split" and units:
        unit = units[args[1] % len(units)]
        split = {"type": "split_unit", "unit_id": unit, "new_unit_id": f"{unit}s{args[2]}"}
        return [(state.units[unit].side, {**split, "figures": 1}),
                (state.units[unit].side, split)]  # AA-3: the ruleset halves it
    if kind == "track":
        return [(REFEREE, {"type": "set_track", "name": "weather", "value": args[1]})]
    if kind == "roll":
        return [(side, {"type": "roll_dice", "notation": "2d6", "purpose": "fire"})]
    if kind == "progress":
        return progress(state, args[0])
    return []


side_i = st.integers(0, 5)
cards = st.one_of(
    st.tuples(st.just("draw"), side_i, st.integers(1, 3)),
    st.tuples(st.just("discard"), side_i, st.lists(st.integers(0, 9), min_size=1, max_size=2)),
    st.tuples(st.just("play"), side_i, st.integers(0, 9)),
    st.tuples(st.just("shuffle"), side_i),
    st.tuples(st.just("cut"), side_i, st.integers(1, 7)),
)
moves = st.lists(st.one_of(
    cards, cards, cards,
    st.tuples(st.just("progress"), st.integers(0, 50)),
    st.tuples(st.just("progress"), st.just(0)),
    st.tuples(st.just("split"), side_i, st.integers(0, 20), st.integers(0, 99)),
    st.tuples(st.just("track"), side_i, st.sampled_from(["rain", "fog"])),
    st.tuples(st.just("roll"), side_i),
    st.tuples(st.just("undo"), st.integers(1, 3)),
    st.tuples(st.just("undo_own"), side_i, st.booleans()),
    st.tuples(st.just("redo")),
), min_size=10, max_size=40)


def play(matches: Matches, match_id: UUID, generated: list[tuple[Any, ...]]) -> None:
    """Each move is tried; what the rules refuse is skipped (nothing appended)."""
    for move in generated:
        state = matches.head(match_id).state
        try:
            if move[0] == "undo":
                matches.undo(match_id, actions=move[1])
            elif move[0] == "undo_own":
                side = state.side_ids()[move[1] % len(state.side_ids())]
                matches.undo(match_id, actor=side)
                if matches.head(match_id).undo_request is not None:
                    matches.answer_undo(match_id, actor=REFEREE, accept=move[2])
            elif move[0] == "redo":
                matches.redo(match_id)
        except DomainError:
            pass
        for seat, action in tried_for(move, state):
            try:
                matches.act(match_id, ACTIONS.validate_python(action), actor=seat)
                break
            except DomainError:
                pass


def create(matches: Matches, setup: str) -> UUID:
    body = FREEFORM if setup == "freeform-cards" else scenarios.load(setup)
    return matches.create_match(body).events[0].originator_id


# ---- the properties -------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(SETUPS[:3] * 2 + SETUPS), moves)  # more of those with cards
def test_a_fork_at_any_version_starts_from_exactly_the_origins_state_there(
        matches: Matches, setup: str, generated: list[tuple[Any, ...]]) -> None:
    match_id = create(matches, setup)
    play(matches, match_id, generated)
    head = matches.head(match_id)
    for version in range(1, head.version + 1):
        origin = matches.state_at(match_id, version)
        before = match_count(matches)
        try:
            forked = matches.fork(match_id, version)
        except DomainError as error:
            assert origin.outcome is not None, f"fork at {version} refused: {error}"
            assert match_count(matches) == before  # a refused fork leaves nothing behind
            continue
        assert match_count(matches) == before + 1
        fork_id = forked.events[0].originator_id
        assert game(matches.head(fork_id).state) == game(origin), f"fork at {version}"
        assert game(forked.frame.state) == game(origin)
    assert matches.head(match_id) == head  # the origin is untouched


@pytest.mark.parametrize("setup", ["atomic-africa-demo", "battlegroup-demo", "freeform-cards"])
def test_a_fork_deals_each_side_the_hand_and_deck_order_the_origin_had(
        matches: Matches, setup: str) -> None:
    match_id = create(matches, setup)
    state = matches.head(match_id).state
    if setup == "battlegroup-demo":  # cards are drawn after the initiative (BG-2, BG-6)
        while matches.head(match_id).state.turn.step != "initiation/cards":
            try:
                matches.act(match_id, ACTIONS.validate_python({"type": "roll_initiative"}))
            except DomainError:
                matches.act(match_id, ACTIONS.validate_python({"type": "advance"}))
    draw = {"type": "draw_cards"} if setup == "battlegroup-demo" else {  # BG-6: a full hand
        "type": "draw_cards", "count": 3}
    for side in state.side_ids():
        matches.act(match_id, ACTIONS.validate_python(draw), actor=side)
    for side in state.side_ids() if setup != "battlegroup-demo" else ():
        hand = matches.head(match_id).state.hands[side]
        matches.act(match_id, ACTIONS.validate_python({"type": "play_card", "card": hand[1]}),
                    actor=side)
    head = matches.head(match_id)
    for version in range(1, head.version + 1):
        forked = matches.fork(match_id, version)
        copy = matches.head(forked.events[0].originator_id).state
        origin = matches.state_at(match_id, version)
        assert (copy.decks, copy.hands, copy.discards) == (
            origin.decks, origin.hands, origin.discards), f"fork at {version}"


def test_every_fork_of_a_match_with_cards_answers_over_http(
        matches: Matches, client: TestClient) -> None:
    created = matches.create_match(scenarios.load("atomic-africa-demo"))
    match_id, referee = created.events[0].originator_id, created.tokens[REFEREE]
    for side in ("red", "blue"):
        matches.act(match_id, ACTIONS.validate_python({"type": "draw_cards", "count": 3}),
                    actor=side)
        hand = matches.head(match_id).state.hands[side]
        matches.act(match_id, ACTIONS.validate_python({"type": "play_card", "card": hand[2]}),
                    actor=side)
    before = match_count(matches)
    head = matches.head(match_id).version
    for version in range(1, head + 1):
        r = client.post(f"/api/matches/{match_id}/fork", params={"at": version},
                        headers={"Authorization": f"Bearer {referee}"})
        assert r.status_code == 201, (version, r.text)
    assert match_count(matches) == before + head


def broken_evolve(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, folding a `CardPlayed` fails (as a bug in evolve would)."""
    real = history.evolve

    def evolve(state: MatchState, event: ev.Event) -> MatchState:
        if event.type_name() == "CardPlayed":
            raise ValueError("evolve failed")
        return real(state, event)

    monkeypatch.setattr(history, "evolve", evolve)


def card_played(matches: Matches) -> UUID:
    match_id = create(matches, "freeform-cards")
    matches.act(match_id, ACTIONS.validate_python({"type": "draw_cards", "count": 2}),
                actor="red")
    hand = matches.head(match_id).state.hands["red"]
    matches.act(match_id, ACTIONS.validate_python({"type": "play_card", "card": hand[0]}),
                actor="red")
    return match_id


def test_a_fork_whose_copy_does_not_replay_saves_nothing(
        matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = card_played(matches)
    head = matches.head(match_id)
    before = match_count(matches)
    broken_evolve(monkeypatch)
    with pytest.raises(ValueError, match="evolve failed"):
        matches.fork(match_id, head.version)
    assert match_count(matches) == before
    assert matches.head(match_id) == head


def test_a_ruling_whose_fork_fails_appends_nothing_and_leaves_no_fork(
        matches: Matches, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = card_played(matches)
    opened = matches.act(match_id, ACTIONS.validate_python(
        {"type": "open_dispute", "about_version": 3, "text": "that card was not in hand"}),
        actor="blue").events[0].originator_version
    head = matches.head(match_id)
    before = match_count(matches)
    broken_evolve(monkeypatch)
    with pytest.raises(ValueError, match="evolve failed"):
        matches.rule_dispute(match_id, opened, ruling="play it out", order="fork",
                             to=head.version)
    assert match_count(matches) == before
    assert matches.head(match_id).version == head.version
    assert not any(isinstance(e, ev.DisputeRuled) for e in matches.events_of(match_id))


def test_a_ruling_that_forks_a_match_with_cards_links_a_fork_that_replays(
        matches: Matches) -> None:
    match_id = card_played(matches)
    opened = matches.act(match_id, ACTIONS.validate_python(
        {"type": "open_dispute", "about_version": 3, "text": "replay from the play"}),
        actor="blue").events[0].originator_version
    result = matches.rule_dispute(match_id, opened, ruling="play it out", order="fork", to=3)
    ruled = result.events[0]
    assert isinstance(ruled, ev.DisputeRuled) and ruled.fork is not None
    assert game(matches.head(ruled.fork).state) == game(matches.state_at(match_id, 3))
    before = match_count(matches)
    with pytest.raises(DomainError):  # ruled once; and no second fork is made
        matches.rule_dispute(match_id, opened, ruling="again", order="fork", to=3)
    assert match_count(matches) == before


def test_a_fork_has_fresh_secrets_and_its_export_imports_to_the_same_cards(
        matches: Matches) -> None:
    match_id = card_played(matches)
    fork_id = matches.fork(match_id, 3).events[0].originator_id
    origin, fork = (next(iter(matches.events_of(m, upto=1))) for m in (match_id, fork_id))
    assert isinstance(origin, ev.MatchCreated) and isinstance(fork, ev.MatchCreated)
    assert fork.dice_seed != origin.dice_seed and fork.dice_commitment != origin.dice_commitment
    assert fork.card_seed is not None and fork.card_commitment is not None
    assert fork.card_seed != origin.card_seed and fork.card_commitment != origin.card_commitment
    lines = list(export_lines(matches, fork_id))
    assert verify(lines).ok
    elsewhere = Matches()  # another instance
    imported = elsewhere.import_match(lines).frame.state
    assert game(imported) == game(matches.head(fork_id).state)
    assert fork.public(REFEREE)["dealt"] == origin_deal(matches, match_id)
    for seat in ("red", "blue", "spectator"):  # the dealt order is the referee's to see
        assert "dealt" not in fork.public(seat) and "dealt" in fork.public(seat)["hidden"]


def origin_deal(matches: Matches, match_id: UUID) -> dict[str, list[str]]:
    return {side: list(deck) for side, deck in matches.state_at(match_id, 1).decks.items()}
