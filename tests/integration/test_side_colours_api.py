"""Each side's colour comes from one place: the match view gives every side its `colour`,
distinct across the sides, equal to projections/colours.py's (which the report draws with);
and the board view of a hex game carries the map's extent and its cities, from the state."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from api import scenarios
from projections.colours import side_colours

DEMOS = ["atomic-africa-demo", "battlegroup-demo", "extended-sequence-demo", "normandy-demo",
         "wing-command-demo"]


@pytest.mark.parametrize("demo", DEMOS)
def test_the_match_view_gives_every_side_its_one_colour(client: TestClient, demo: str) -> None:
    m = Played(client, scenario(demo))
    for seat in ("referee", "spectator", m.body["sides"][0]["id"]):
        sides = m.get("", seat)["sides"]
        colours = {s["id"]: s["colour"] for s in sides}
        assert colours == side_colours(s["id"] for s in m.body["sides"])
        assert len(set(colours.values())) == len(colours), colours
        assert all(len(c) == 7 and c.startswith("#") for c in colours.values())
        assert [s["name"] for s in sides] == [s["name"] for s in m.body["sides"]]


def test_sides_whose_ids_would_share_a_colour_get_distinct_ones(client: TestClient) -> None:
    body = {"ruleset": "freeform", "scenario": "Four colours",  # freeform: any side count
            "sides": [{"id": "blue", "name": "Blues"}, {"id": "harriers", "name": "Harriers"},
                      {"id": "allied", "name": "Allies"}, {"id": "red", "name": "Reds"}]}
    sides = Played(client, body).get("")["sides"]
    colours = [s["colour"] for s in sides]
    assert len(set(colours)) == 4, colours
    assert colours[0] == "#1f5fbf"  # blue keeps its own
    assert dict(zip([s["id"] for s in sides], colours, strict=True)) == side_colours(
        ["blue", "harriers", "allied", "red"])


def test_the_hex_board_carries_its_extent_and_its_named_cities(client: TestClient) -> None:
    m = Played(client, scenario("normandy-demo"))
    board = m.board
    spec = scenarios.load("normandy-demo")
    hexes = [u.position.hex for u in spec.units if u.position and u.position.hex]
    hexes += list(spec.options["cities"])  # type: ignore[arg-type]
    extent = board["map"]["extent"]
    assert extent == {"first_column": min(int(h[:2]) for h in hexes),
                      "last_column": max(int(h[:2]) for h in hexes),
                      "first_row": min(int(h[2:]) for h in hexes),
                      "last_row": max(int(h[2:]) for h in hexes)}
    assert board["map"]["cities"] == [
        {"hex": "1207", "name": "Carpiquet", "controlled_by": "german"},
        {"hex": "1405", "name": "Caen", "controlled_by": "german"},
        {"hex": "1610", "name": "Bayeux", "controlled_by": "allied"}]


def test_a_table_game_has_no_hex_map(client: TestClient) -> None:
    assert Played(client, scenario("atomic-africa-demo")).board["map"] is None
