"""Players' words in what the service offers (issue 26, item 3), where the browser walk of the
first screens does not reach: battlegroups and cards named by their scenario, a split unit
named in words, new units whose ids the service makes, and no field asking for an id."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario
from test_atomic_africa_api import aa, squad, to_clean_up
from test_battlegroup_api import bg, to_activation


def _choices(legal: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [c for a in legal["actions"] if a["type"] == kind for c in a["choices"]]


def _fields(legal: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for a in legal["actions"] for c in a["choices"] for i in c.get("inputs") or ()]


def _shown(choice: dict[str, Any]) -> list[dict[str, Any]]:
    """The inputs the page asks for: all but the ids the service makes (inputs.js)."""
    return [i for i in choice.get("inputs") or () if i["kind"] != "id"]


def test_battlegroups_and_cards_are_offered_by_the_scenarios_names(client: TestClient) -> None:
    m = bg(client)
    to_activation(m)
    legal = m.get("/legal", "north")
    groups = [c["label"] for c in _choices(legal, "activate_battlegroup")]
    assert "Hale's battlegroup: Captain Hale, Rifle Squad" in groups
    assert not any(label.startswith(("n-", "s-", "w-")) for label in groups), groups
    [north] = [c for c in m.get("/board", "north")["cards"] if c["side"] == "north"]
    names = m.body["options"]["card_names"]
    assert north["hand"] and all(north["titles"][card] == names[card]
                                 for card in (*north["hand"], *north["deck"]))
    played = _choices(legal, "play_card")
    assert played and all(c["label"] == names[c["body"]["card"]] for c in played)
    # another side's hand stays private, its titles too
    [south] = [c for c in m.get("/board", "north")["cards"] if c["side"] == "south"]
    assert south["hand"] is None and south["titles"] == {}


def test_a_split_is_offered_without_an_id_and_named_in_words(client: TestClient) -> None:
    m = aa(client, squad("sq1", "red", 11, "d10", wound=5, suppression=4),
           squad("ml1", "blue", 10, "d8"))
    to_clean_up(m)
    [split] = [c for c in _choices(m.get("/legal", "red"), "split_unit")
               if not any(i["name"] == "figures" for i in c.get("inputs") or ())]
    assert "new_unit_id" not in split["body"]
    assert all("id" not in i["label"].lower().split() for i in _shown(split)), split
    [made] = [i for i in split["inputs"] if i["name"] == "new_unit_id"]
    assert made["kind"] == "id" and not made.get("required")  # a client may give one
    events = m.act("red", **{**split["body"], "odd_to": {"wound": "first"}})
    new = events[0]["new_unit"]  # (the helper names sq1 after its id)
    assert new["id"] == made["example"] == "sq1-2" and new["name"] == "sq1 B"


def test_a_new_unit_is_named_by_the_player_and_its_id_made_by_the_service(
        client: TestClient) -> None:
    body = scenario("atomic-africa-demo", ruleset="freeform")
    m = Played(client, body)
    [axis] = [c for c in _choices(m.get("/legal"), "deploy_unit")
              if c["side"] == body["sides"][1]["id"]]
    labels = [i["label"] for i in _shown(axis)]
    assert "Its name" in labels and not any("id" in label.lower().split() for label in labels)
    assert not any(label in ("Its qv", "Its extra") for label in labels), labels
    assert "id" not in axis["body"]["unit"]
    [made] = [i for i in axis["inputs"] if i["name"] == "unit.id"]
    unit = {**axis["body"]["unit"], "name": "Tiger"}
    [deployed] = m.act("referee", type="deploy_unit", unit=unit)
    assert deployed["unit"]["id"] == made["example"]
    assert m.unit(made["example"])["name"] == "Tiger"


def test_no_demo_asks_any_seat_for_an_id(client: TestClient) -> None:
    for demo in ("atomic-africa-demo", "battlegroup-demo", "extended-sequence-demo",
                 "normandy-demo", "wing-command-demo"):
        m = Played(client, scenario(demo))
        for seat in ("referee", *(s["id"] for s in m.body["sides"])):
            fields = _fields(m.get("/legal", seat))
            # an id input is the service's to fill (never required, never shown: inputs.js)
            assert [i for i in fields if i["kind"] == "id" and i.get("required")] == []
            asked = [i["label"] for i in fields if i["kind"] != "id"
                     and "id" in i["label"].lower().split()]
            assert asked == [], (demo, seat, asked)
