"""GET /api/rulesets: every hosted ruleset with its title, and enough to build a scenario of
it that the service accepts (the lobby's scenario form is built on it)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.commands import UnitSpec
from domain.rulesets import get_ruleset, ruleset_ids

CORE_FIELDS = set(UnitSpec.model_fields)


def _value(field: dict[str, Any], side_units: list[dict[str, Any]]) -> Any:
    if field["kind"] == "number":
        return max(field["minimum"] if field["minimum"] is not None else 1, 1)
    if field["kind"] == "choice":
        return field["values"][0]["value"]
    if field["kind"] == "unit":
        return side_units[0]["id"] if side_units else None
    return "first"


def _put(unit: dict[str, Any], name: str, value: Any) -> None:
    if "." in name:
        group, key = name.split(".", 1)
        unit.setdefault(group, {})[key] = value
    else:
        unit[name] = value


def _body(info: dict[str, Any], count: int = 2) -> dict[str, Any]:
    """A scenario built only from what the route says: `count` sides, two units each with
    every field it lists filled in, starting at each place it allows, and required options
    (roles go to the first sides)."""
    sides = [{"id": f"s{n}", "name": f"Side {n}"} for n in range(1, count + 1)]
    units: list[dict[str, Any]] = []
    for side in sides:
        mine: list[dict[str, Any]] = []
        for n, place in enumerate(info["places"][:2] * 2 if len(info["places"]) == 1
                                  else info["places"][:2]):
            unit: dict[str, Any] = {"id": f"{side['id']}-u{n}", "side": side["id"],
                                    "name": f"Unit {n}"}
            kinds = [k["value"] for k in info["kinds"]] or ["unit"]
            unit["kind"] = kinds[(len(units) + len(mine)) % len(kinds)]
            for field in info["fields"]:
                if field["only"] is not None and unit["kind"] not in field["only"]:
                    continue
                value = _value(field, mine)
                if value is not None:
                    _put(unit, field["name"], value)
            unit["position"] = ({"x": 3, "y": 4} if place == "point" else {"hex": "0101"}
                                if place == "hex" else {"box": info["boxes"][0]["value"]})
            mine.append(unit)
        units += mine
    options: dict[str, Any] = {}
    for option in info["options"]:
        if option["kind"] == "roles":
            options[option["name"]] = {r["value"]: s["id"]
                                       for r, s in zip(option["roles"], sides, strict=False)}
        elif option["required"]:
            options[option["name"]] = option["minimum"]
    body: dict[str, Any] = {"ruleset": info["id"], "scenario": f"A {info['title']} test",
                            "sides": sides, "units": units, "options": options}
    if info["cards"]:
        body["decks"] = {"s1": ["Ambush", "Barrage"]}
    return body


def built_in(client: TestClient) -> list[dict[str, Any]]:
    """The built-in games of the listing (after them come the ruleset files it holds: at
    least the games shipped as files, tests/integration/test_shipped_demo.py)."""
    listed = client.get("/api/rulesets").json()
    return [r for r in listed if r["hash"] is None]


def test_every_ruleset_is_listed_with_its_own_title(client: TestClient) -> None:
    listed = built_in(client)
    assert listed[0]["id"] == "freeform"
    assert sorted(r["id"] for r in listed) == ruleset_ids()
    for info in listed:
        assert info["about"] and info["title"]
        assert info["title"] == get_ruleset(info["id"], _body(info)["options"]).title
        for field in info["fields"]:
            assert field["name"].split(".")[0] in CORE_FIELDS, field["name"]
    by_id = {r["id"]: r for r in listed}
    assert {f["name"] for f in by_id["atomic-africa"]["fields"] if f["required"]} == {
        "figures", "morale_die"}
    assert "qv" in {f["name"] for f in by_id["wing-command"]["fields"]}
    assert by_id["battlegroup"]["options"][0]["name"] == "rounds"
    assert by_id["battlegroup"]["options"][0]["required"]
    for info in listed:  # a field for some kinds only names kinds the ruleset knows
        kinds = {k["value"] for k in info["kinds"]}
        for field in info["fields"]:
            assert field["only"] is None or set(field["only"]) <= kinds, (info["id"], field)


def test_a_scenario_built_from_the_route_is_accepted_for_every_ruleset(
        client: TestClient) -> None:
    for info in built_in(client):
        body = _body(info)
        created = client.post("/api/matches", json=body)
        assert created.status_code == 201, (info["id"], created.json())
        match = created.json()
        board = client.get(f"/api/matches/{match['match_id']}/board",
                           headers={"Authorization": f"Bearer {match['tokens']['referee']}"})
        units = {u["id"]: u for u in board.json()["units"]}
        assert set(units) == {u["id"] for u in body["units"]}
        for sent in body["units"]:
            got = units[sent["id"]]
            for name, value in sent.items():
                if name == "position":
                    assert {k: v for k, v in got["position"].items() if v is not None} == value
                else:
                    assert got[name] == value, (info["id"], name)
        if info["cards"]:
            decks = {c["side"]: c for c in board.json()["cards"]}
            assert decks["s1"]["deck_count"] == 2


# what each text says of its players (RULES.md); freeform takes any count a match may have
SIDES = {"freeform": (2, 8, "core-sides"), "atomic-africa": (2, 2, "AA-1"),
         "battlegroup": (2, 8, "BG-2"), "wing-command": (2, 2, "WC-9"),
         "extended-sequence": (2, 2, "ES-4"), "normandy": (2, 2, "NO-1")}


def _catalogued(client: TestClient) -> int:
    listed = client.get("/api/matches", params={"limit": 200},
                        headers={"Authorization": "Bearer admin-token"})
    assert listed.status_code == 200, listed.text
    return len(listed.json())


def test_each_ruleset_says_how_many_sides_it_plays_and_creation_refuses_any_other_count(
        client: TestClient) -> None:
    listed = built_in(client)
    assert {r["id"]: (r["sides"]["fewest"], r["sides"]["most"], r["sides"]["rule"])
            for r in listed} == SIDES
    for info in listed:
        fewest, most, rule = SIDES[info["id"]]
        for count in sorted({fewest, most}):  # the counts it plays are created
            created = client.post("/api/matches", json=_body(info, count))
            assert created.status_code == 201, (info["id"], count, created.json())
        if most == 8:
            continue  # nine sides is refused by the schema for every ruleset
        before = _catalogued(client)
        refused = client.post("/api/matches", json=_body(info, most + 1))
        assert refused.status_code == 422, (info["id"], refused.json())
        assert refused.json()["rule"] == rule
        assert f"played by {most} sides, not {most + 1}" in refused.json()["detail"]
        assert _catalogued(client) == before  # nothing was created
