"""A writer decides on the head its process holds and reads the store again only when that
head turns out stale (issue 18): on both stores, two `Matches` on one store stand for two
processes. Whatever the other process appended first still counts: a revoked token acts no
more, an If-Match that names the newer version passes, a repeated Idempotency-Key is
answered with the first answer, and a stale If-Match is still a conflict."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

from domain.app import Matches
from domain.commands import Advance, CreateMatch, SetTrack
from domain.errors import NotSeated, VersionConflict

SETUP = CreateMatch(scenario="test", sides=[{"id": "red", "name": "Red"},
                                            {"id": "blue", "name": "Blue"}])


@pytest.fixture
def pair(store_env: dict[str, str]) -> Iterator[tuple[Matches, Matches]]:
    one, two = Matches(env=store_env), Matches(env=store_env)
    yield one, two
    one.close()
    two.close()


def joined(app: Matches) -> tuple[UUID, str]:
    """A match with red joined: (its id, red's seat token)."""
    created = app.create_match(SETUP)
    match_id = created.events[0].originator_id
    red = app.join(match_id, side="red", player="r", token=created.tokens["join:red"])
    return match_id, red.tokens["red"]


def test_a_token_revoked_by_another_process_acts_no_more(
        pair: tuple[Matches, Matches]) -> None:
    one, two = pair
    match_id, token = joined(one)
    two.act(match_id, Advance(), actor="red", token=token)  # two holds the head now
    one.reissue(match_id, "red")  # revoked in the other process
    before = one.head(match_id).version
    with pytest.raises(NotSeated):
        two.act(match_id, SetTrack(name="t", value=1), actor="red", token=token)
    assert one.head(match_id).version == before  # nothing appended


def test_an_if_match_naming_another_process_s_newer_version_passes(
        pair: tuple[Matches, Matches]) -> None:
    one, two = pair
    match_id, _ = joined(one)
    two.head(match_id)
    one.act(match_id, Advance())  # two's held head is one version behind
    newest = one.head(match_id).version
    result = two.act(match_id, SetTrack(name="t", value=1), expected_version=newest)
    assert result.frame.version == newest + 1


def test_a_stale_if_match_is_still_a_conflict_and_appends_nothing(
        pair: tuple[Matches, Matches]) -> None:
    one, two = pair
    match_id, _ = joined(one)
    held = two.head(match_id).version
    one.act(match_id, Advance())
    with pytest.raises(VersionConflict):
        two.act(match_id, SetTrack(name="t", value=1), expected_version=held)
    assert [e.type_name() for e in one.events_of(match_id, after=held)] == ["PhaseAdvanced"]


def test_a_repeated_key_answered_by_another_process_is_replayed_not_appended(
        pair: tuple[Matches, Matches]) -> None:
    one, two = pair
    match_id, _ = joined(one)
    two.head(match_id)
    first = one.act(match_id, SetTrack(name="t", value=1), idempotency_key="k1")
    again = two.act(match_id, SetTrack(name="t", value=1), idempotency_key="k1")
    assert again.replayed and [e.version for e in again.events] == [
        e.version for e in first.events]
    assert one.head(match_id).version == first.frame.version  # nothing appended twice
