"""Hidden fields are committed, not hashed (docs/integrity.md): a seat that may not see a hand,
a face-down discard, a deck's order after a shuffle, a fork's deal or a private note gets a
commitment under a salt it never sees, so trying every candidate the public deck lists allow
checks nothing, in any seat's export or replay file. The referee's file shows every value
with its salt: the same attack there does find them (so the attack is a real one)."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, battlegroup_north_discards

from api.replay_read import export_of
from domain.events.commitments import commitment_to
from domain.integrity import content_hash, event_hash, split_lines, verify

HEX = re.compile(r"[0-9a-f]{64}")
NOTE = "PLANTED: red holds the ace and means to use it"
DICTIONARY = ["hold the line", NOTE, "north bluffs", ""]  # the attacker's guesses at a note
DECKS = {"red": ["red-ace", "red-king", "red-queen", "red-jack"],
         "blue": ["blue-ace", "blue-king", "blue-queen", "blue-jack"]}


def battlegroup(client: TestClient) -> Played:
    """Every side drew (round 1), north discarded its card face down and drew another, and
    north wrote itself a private note."""
    m = battlegroup_north_discards(client)[0]
    m.act("north", type="add_note", text=NOTE, private=True)
    return m


def freeform(client: TestClient) -> Played:
    """Red draws three, discards one face down, shuffles its deck (AA-8 style), draws two
    and writes a private note; blue draws one; a server roll."""
    m = Played(client, {"scenario": "s", "decks": DECKS,
                        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]})
    [drawn] = m.act("red", type="draw_cards", count=3)
    m.act("red", type="discard_cards", cards=[drawn["cards"][1]])
    m.act("red", type="shuffle_deck")
    m.act("red", type="draw_cards", count=2)
    m.act("blue", type="draw_cards", count=1)
    m.act("red", type="add_note", text=NOTE, private=True)
    m.act("blue", type="roll_dice", notation="2d6", purpose="fire")
    return m


def forked(m: Played) -> Played:
    """A what-if fork of `m` at its head: its first event holds the decks as dealt (the
    referee's alone), its copies the hidden cards; blue joins it."""
    r = m.client.post(f"/api/matches/{m.match}/fork", params={"at": m.version},
                      headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    fork = Played.__new__(Played)
    fork.client, fork.body, fork.match = m.client, m.body, str(r.json()["match_id"])
    fork.tokens = dict(r.json()["tokens"])
    joined = m.client.post(f"/api/matches/{fork.match}/seats", json={"player": "Blue"},
                           headers=fork.auth("join:blue"))
    assert joined.status_code == 201, joined.text
    fork.tokens["blue"] = joined.json()["token"]
    return fork


def candidates(body: dict[str, Any], name: str, decks: dict[str, list[str]]) -> list[Any]:
    """Every value the hidden field `name` of `body` can hold, from what is public: the
    deck lists of the match's first event, the count drawn, the attacker's dictionary."""
    if name == "text":
        return list(DICTIONARY)
    if name == "order":
        return [list(p) for p in itertools.permutations(decks[body["side"]])]
    if name == "dealt":
        sides = sorted(decks)
        return [dict(zip(sides, [list(p) for p in orders], strict=True)) for orders in
                itertools.product(*(itertools.permutations(decks[s]) for s in sides))]
    return [list(p) for p in itertools.permutations(decks[body["side"]], body["count"])]


def digests(body: dict[str, Any], name: str, value: Any, salts: set[str]) -> list[set[str]]:
    """What a guess `value` of the hidden field `name` can be checked against, one set per
    way of checking: the event's hash as the line would have it with the value in (as it
    was before commitments; as it is now), the value's own hash, and its commitment under
    every 64-hex string of the file taken for a salt (and under none)."""
    line = {k: v for k, v in body.items() if k not in ("hash", "hidden")}
    return [{content_hash({**line, name: value})}, {event_hash({**line, name: value})},
            {hashlib.sha256(json.dumps(value, separators=(",", ":")).encode()).hexdigest()},
            {commitment_to(salt, value) for salt in (*salts, "")}]


def recovered(text: str, export: str, lines: list[dict[str, Any]] | None = None
              ) -> list[tuple[int, str]]:
    """(version, field) of each hidden field of the export's `lines` (by default all of
    them) whose value the file `text` gives away: the guesses the file's hashes confirm are
    some of the candidates, not all of them."""
    events = [json.loads(line) for line in export.splitlines()[1:]]
    decks = events[0]["decks"]  # the match's first event: public
    known = set(HEX.findall(text))
    found = []
    for body in events if lines is None else lines:
        for name in body.get("hidden", ()):
            guesses = candidates(body, name, decks)
            assert len(guesses) > 1
            checked = [digests(body, name, g, known) for g in guesses]
            for way in range(len(checked[0])):  # each way of checking a guess apart
                confirmed = [g for g, ways in zip(guesses, checked, strict=True)
                             if not known.isdisjoint(ways[way])]
                if confirmed and len(confirmed) < len(guesses):
                    found.append((body["version"], name))
                    break
    return found


def files(m: Played, seat: str) -> dict[str, tuple[str, str]]:
    """The seat's export and replay file: (the whole text, the export it holds)."""
    export = m.client.get(f"/api/matches/{m.match}/export", headers=m.auth(seat))
    replay = m.client.get(f"/api/matches/{m.match}/replay", headers=m.auth(seat))
    assert export.status_code == replay.status_code == 200, (export.text, replay.text)
    return {"export": (export.text, export.text),
            "replay": (replay.text, export_of(replay.text))}


def hidden_fields(export: str) -> set[tuple[str, str]]:
    return {(body["type"], name) for body in map(json.loads, export.splitlines()[1:])
            for name in body.get("hidden", ())}


@pytest.mark.parametrize("game", ["battlegroup", "freeform"])
def test_no_hidden_field_is_recovered_by_trying_every_candidate_from_the_public_deck_lists(
        client: TestClient, game: str) -> None:
    m = battlegroup(client) if game == "battlegroup" else freeform(client)
    owner, other = ("north", "south") if game == "battlegroup" else ("red", "blue")
    for seat in (other, "spectator"):
        seen = files(m, seat)
        hidden = hidden_fields(seen["export"][1])
        expected = {("CardsDrawn", "cards"), ("CardsDiscarded", "cards"), ("NoteAdded", "text")}
        assert expected | ({("DeckShuffled", "order")} if game == "freeform" else set()) <= hidden
        for kind, (text, export) in seen.items():
            assert recovered(text, export) == [], (seat, kind)
        report = verify(split_lines(seen["export"][1]))
        assert report.ok and report.events_unchecked == 0, (seat, report)
    if game == "freeform":  # a fork: its deal (the referee's alone) and its copies
        fork = forked(m)
        for seat in ("blue", "spectator"):
            seen = files(fork, seat)
            assert ("MatchCreated", "dealt") in hidden_fields(seen["export"][1])
            report = verify(split_lines(seen["export"][1]))
            assert report.ok and report.events_unchecked == 0, (seat, report)
            for kind, (text, export) in seen.items():
                assert recovered(text, export) == [], (seat, kind, "fork")
    # the attack finds what a file shows: the owner's own file gives its values away
    text, export = files(m, "referee")["export"]
    mine = [json.loads(line) for line in export.splitlines()[1:]]
    shown = [{**body, "hidden": [name]} for body in mine for name in body.get("salts", ())
             if body.get("side", body.get("actor")) == owner]
    assert shown, "the referee's file shows no committed value"
    assert len(recovered(text, export, shown)) == len(shown)


def test_the_event_lists_give_a_seat_the_commitment_and_the_salt_only_of_what_it_sees(
        client: TestClient) -> None:
    """`GET .../events` (what the table page's log and live feed read): the owner gets each
    value with its salt and checks it against the commitment; another seat gets the
    commitment alone; every seat's line hashes to the same recorded hash."""
    m = freeform(client)
    lines = {seat: [{k: v for k, v in e.items() if k != "said"}
                    for e in m.get("/events", seat, limit=500)["events"]]
             for seat in ("red", "blue", "spectator", "referee")}
    for seat, events in lines.items():
        for event in events:
            assert event["hash"] == event_hash(event), (seat, event["version"])
        secret = [e for e in events if e["type"] in ("CardsDrawn", "CardsDiscarded",
                                                     "DeckShuffled", "NoteAdded")
                  and e.get("side", e["actor"]) == "red"]
        assert secret and all("commitments" in e for e in secret)
        for event in secret:
            [name] = event["commitments"]
            if seat in ("red", "referee"):
                assert commitment_to(event["salts"][name], event[name]) == (
                    event["commitments"][name])
            else:
                assert "salts" not in event and name not in event and event["hidden"] == [name]
