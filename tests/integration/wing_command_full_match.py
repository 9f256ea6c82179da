"""The wing-command full-match test's own picture of the board (`Board`: what the service
must show, worked out from the rules and the dice the test throws) and the moves both seats
make through the HTTP API (move, fire, close combat, activate, the initiative)."""

from __future__ import annotations

from typing import Any

from rulesets_helpers import Script

PRE = "phase/pre_activation"
RUN = "phase/activations"


def table(*results: int) -> dict[str, Any]:
    return {"source": "table", "results": list(results)}


class Board:
    """What the board must show: each unit's flags, place, markers and whether it is in
    play; the markers left on the table; the victory points."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.units: dict[str, dict[str, Any]] = {
            u["id"]: {"status": set(u.get("status", [])),
                      "at": (u["position"]["x"], u["position"]["y"]),
                      "markers": dict(u.get("markers", {})), "removed": False}
            for u in body["units"]}
        self.pieces = {u["id"]: [p["id"] for p in body["units"]
                                 if p.get("extra", {}).get("unit") == u["id"]]
                       for u in body["units"]}
        self.places: dict[str, dict[str, int]] = {}
        self.vp = {"french": 0, "british": 0}

    def flag(self, unit: str, *flags: str) -> None:
        self.units[unit]["status"] |= set(flags)

    def unflag(self, unit: str, *flags: str) -> None:
        self.units[unit]["status"] -= set(flags)

    def move(self, unit: str, x: int, y: int) -> None:
        self.units[unit]["at"] = (x, y)

    def spend(self, officer: str, cubes: int) -> None:
        self.units[officer]["markers"]["leadership"] -= cubes

    def casualty(self, unit: str, marker: str = "casualty") -> None:
        """Out of play, with a marker where it stood (its pieces go with a unit)."""
        x, y = self.units[unit]["at"]
        here = self.places.setdefault(f"{x:g},{y:g}", {})
        here[marker] = here.get(marker, 0) + 1
        for gone in [unit, *self.pieces[unit]]:
            self.units[gone].update(removed=True, at=(None, None))  # off the table

    def activate(self, unit: str) -> None:
        """WC-5: a piece still corner-locked is left out of its unit's activation."""
        for piece in [unit, *self.pieces[unit]]:
            if not self.units[piece]["removed"] and (
                    "corner_locked" not in self.units[piece]["status"]):
                self.flag(piece, "activated")
        self.flag(unit, "acting")

    def end_phase(self) -> None:
        for unit in self.units:
            self.unflag(unit, "acting")

    def end_turn(self) -> None:
        for unit in self.units:
            self.unflag(unit, "acting", "activated")

    def shown(self, m: Script) -> None:
        board = m.board
        seen = {u["id"]: {"status": set(u["status"]),
                          "at": (u["position"]["x"], u["position"]["y"]),
                          "markers": u["markers"], "removed": u["removed"] is not None}
                for u in board["units"] + board["off_board"]}
        assert seen == self.units
        assert board["location_markers"] == self.places
        assert {t["side"]: t["points"] for t in board["vp"]["tracks"]} == self.vp


def move(m: Script, b: Board, side: str, unit: str, x: int, y: int) -> list[dict[str, Any]]:
    b.move(unit, x, y)
    return m.act(side, type="move_unit", unit_id=unit, to={"x": x, "y": y})


def set_flag(m: Script, b: Board, side: str, unit: str, flag: str) -> None:
    b.flag(unit, flag)
    m.act(side, type="set_status", unit_id=unit, set=[flag])


def fire(m: Script, b: Board, side: str, firer: str, target: str, faces: tuple[int, int],
         differential: int, result: str) -> None:
    """WC-7: the firing piece's die + dF and the target's die, recorded apart."""
    firing, hit, _unloaded = m.act(side, type="fire", unit_id=firer, target_id=target,
                                   differential=differential, **table(*faces))
    assert (firing["unit_ids"], firing["dice"], firing["total"]) == (
        [firer], [faces[0]], faces[0] + differential)
    assert (hit["unit_ids"], hit["dice"], hit["total"]) == ([target], [faces[1]], faces[1])
    b.flag(firer, "unloaded")
    m.act(side, type="enter_result", result=result)


def close(m: Script, side: str, attackers: list[str], defenders: list[str], dc: int,
          faces: tuple[int, ...], result: str) -> None:
    """WC-7: one die for each piece in contact, dC on the attackers' dice."""
    events = m.act(side, type="resolve_combat", attackers=attackers, defenders=defenders,
                   odds=f"{len(attackers)}:{len(defenders)}", modifiers={"dC": dc},
                   **table(*faces))
    assert [(e["unit_ids"], e["total"]) for e in events] == [
        ([piece], face + (dc if i < len(attackers) else 0))
        for i, (piece, face) in enumerate(zip(attackers + defenders, faces, strict=True))]
    m.act(side, type="enter_result", result=result)


def activate(m: Script, b: Board, side: str, unit: str, faces: tuple[int, ...],
             result: str, failed: bool = False, **leadership: Any) -> None:
    *_, settled = m.act(side, type="rule_roll", roll="activation", unit_id=unit,
                        dice=len(faces), **leadership, **table(*faces))
    b.activate(unit)
    if "leader_id" in leadership:
        b.spend(leadership["leader_id"], leadership["leadership"])
    # (ours) the service settles the activation from the faces: none passing is a failure
    assert settled["type"] == "ResultRecorded" and settled["failed"] is failed, (result, settled)


def at(m: Script, step: str, side: str | None) -> None:
    assert (m.turn["step"], m.turn["active_side"]) == (step, side)


def initiative(m: Script, french: int, british: int) -> None:
    [rolled] = m.act("british", type="roll_initiative", source="table",
                     results={"french": french, "british": british})
    assert rolled["cv"] == {"french": 2, "british": 1}  # the COs' LV
    first = "french" if french + 2 > british + 1 else "british"
    assert m.turn["initiative"][0] == first
    m.act("french", type="advance")
    m.act("british", type="advance")
    at(m, f"{PRE}/a_reposition", first)
