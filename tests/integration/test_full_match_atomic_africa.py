"""A whole Atomic Africa match (the demo's three turns and decks, a larger force) through the
HTTP API, each player doing everything the rules give it: Activation Phases in turn, with
the reacting player answering (AA-1); fire recorded as wounds and suppression, the Morale die
shifting down (AA-2); compulsory splits, a unit too small to split destroyed, voluntary
splits, by both sides (AA-3..AA-5); Morale rolls (AA-7); decks collected, shuffled and cut
(AA-8); to the end of the match. The board is checked against a model of the table after
every phase; then the log is replayed from scratch and must reach exactly the state the
service holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Script, assert_replay_matches, scenario

from domain.app import Matches

SIDES = ("red", "blue")
CHAIN = ("d12", "d10", "d8", "d6", "d4")


def squad(unit_id: str, side: str, figures: int, die: str, x: float, y: float,
          **markers: int) -> dict[str, Any]:
    return {"id": unit_id, "side": side, "name": unit_id, "figures": figures, "morale_die": die,
            "markers": markers, "position": {"x": x, "y": y}}


FORCES = [squad("sq1", "red", 11, "d10", 10, 12, wound=2), squad("sq2", "red", 8, "d8", 14, 10),
          squad("ml1", "blue", 10, "d8", 30, 24), squad("ml2", "blue", 12, "d10", 34, 28),
          squad("mg1", "blue", 5, "d6", 26, 20)]


def shifted(die: str, wounds: int) -> str | None:
    """The Morale die after one shift down the chain per wound; None below d4."""
    index = CHAIN.index(die) + wounds
    return CHAIN[index] if index < len(CHAIN) else None


def halves(count: int, odd_to_first: bool = True) -> tuple[int, int]:
    big, small = (count + 1) // 2, count // 2
    return (big, small) if odd_to_first else (small, big)


@dataclass
class Game(Script):
    table: dict[str, dict[str, Any]] = field(init=False)
    hands: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    decks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 6))
    vp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))

    def __post_init__(self) -> None:
        super().__post_init__()
        self.table = {u["id"]: {"at": (u["position"]["x"], u["position"]["y"]),
                                "figures": u["figures"], "die": u["morale_die"],
                                "status": [], "markers": dict(u["markers"]), "removed": None}
                      for u in self.body["units"]}

    def check(self) -> None:
        board = self.board
        seen = {u["id"]: {"at": (u["position"]["x"], u["position"]["y"]) if u["position"][
                    "box"] is None else u["position"]["box"], "figures": u["figures"],
                    "die": u["morale_die"], "status": u["status"], "markers": u["markers"],
                    "removed": u["removed"]} for u in board["units"] + board["off_board"]}
        assert seen == self.table
        for u in board["units"]:  # AA-2: the Morale die after the wounds, worked out
            assert u["computed"]["current_die"] == shifted(u["morale_die"],
                                                           u["markers"].get("wound", 0))
        assert {c["side"]: (c["hand_count"], c["deck_count"]) for c in board["cards"]} == {
            side: (self.hands[side], self.decks[side]) for side in SIDES}
        assert {t["side"]: t["points"] for t in board["vp"]["tracks"]} == self.vp

    def flag(self, unit: str, flag: str, on: bool = True) -> None:
        status = set(self.table[unit]["status"])
        self.table[unit]["status"] = sorted(status | {flag} if on else status - {flag})

    def both_done(self) -> None:
        where = (self.turn["turn"], self.turn["step"])
        assert self.turn["waiting_for"] == list(SIDES)
        self.act("red", type="advance")
        assert (self.turn["turn"], self.turn["step"]) == where
        self.act("blue", type="advance")
        assert (self.turn["turn"], self.turn["step"]) != where

    # ---- Activation Phases (AA-1) -----------------------------------------------------------

    def activate(self, side: str, unit: str) -> None:
        assert (self.turn["step"], self.turn["active_side"]) == ("activation/activate", side)
        self.act(side, type="activate_unit", unit_id=unit)
        self.flag(unit, "activated")

    def end_phase(self, side: str) -> None:
        self.act(side, type="advance")

    def fire(self, side: str, firer: str, target: str, wounds: int = 0,
             suppression: int = 0) -> None:
        """The firing player records the shot and what the table says it does."""
        self.act(side, type="roll_dice", notation="2d6", purpose=f"{firer} fires at {target}",
                 unit_ids=[firer, target])
        for kind, count in (("wound", wounds), ("suppression", suppression)):
            if count:
                self.act(side, type="place_marker", kind=kind, count=count, unit_id=target)
                markers = self.table[target]["markers"]
                markers[kind] = markers.get(kind, 0) + count

    def move(self, side: str, unit: str, x: float, y: float) -> None:
        self.act(side, type="move_unit", unit_id=unit, to={"x": x, "y": y})
        self.table[unit]["at"] = (x, y)

    def draw(self, side: str, count: int) -> None:
        self.act(side, type="draw_cards", count=count)
        self.hands[side] += count
        self.decks[side] -= count

    def play(self, side: str) -> None:
        hand = next(c for c in self.get("/board", side)["cards"] if c["side"] == side)["hand"]
        self.act(side, type="play_card", card=hand[0])
        self.hands[side] -= 1

    # ---- Clean-Up (AA-3..AA-8) --------------------------------------------------------------

    def destroyed(self, *units: str) -> None:
        for unit in units:
            self.table[unit].update(removed="destroyed", at="eliminated")

    def split(self, side: str, unit: str, new: str, rule: str, **odd_to: str) -> None:
        parent = self.table[unit]
        [split] = self.act(side, type="split_unit", unit_id=unit, new_unit_id=new,
                           odd_to=odd_to)
        assert split["rule"] == rule
        kept, given = halves(parent["figures"])
        markers: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for kind, count in parent["markers"].items():
            for half, n in zip(markers, halves(count, odd_to.get(kind, "first") == "first"),
                               strict=True):
                if n:
                    half[kind] = n
        self.table[new] = {**parent, "figures": given, "markers": markers[1],
                           "status": list(parent["status"])}
        parent.update(figures=kept, markers=markers[0])

    def morale(self, side: str, unit: str, result: int | None = None) -> None:
        """AA-7: the shifted die; one suppression marker goes when the score beats them."""
        dice = {"source": "table", "result": result} if result else {}
        [rolled, *_] = self.act(side, type="roll_morale", unit_id=unit, **dice)
        markers = self.table[unit]["markers"]
        assert rolled["notation"] == shifted(self.table[unit]["die"], markers.get("wound", 0))
        if rolled["total"] > markers["suppression"]:
            markers["suppression"] -= 1
            if not markers["suppression"]:
                del markers["suppression"]
        self.flag(unit, "morale_rolled")

    def reset_decks(self) -> None:
        """AA-8: each side collects and shuffles its cards; the other side cuts them."""
        for side in SIDES:
            self.act(side, type="shuffle_deck")
        self.act("blue", type="cut_deck", side="red", at=3)
        self.act("red", type="cut_deck", side="blue", at=2)
        self.decks = dict.fromkeys(SIDES, 6)
        self.hands = dict.fromkeys(SIDES, 0)
        self.both_done()
        for unit in self.table:
            self.flag(unit, "activated", on=False)
            self.flag(unit, "morale_rolled", on=False)


def owner(unit: str) -> str:
    return "red" if unit.startswith("sq") else "blue"


def owed(m: Game) -> list[str]:
    """The units the Morale sub-phase says still owe a roll."""
    said = m.turn["expects"][0]
    return said.split(": ")[1].split(", ") if said.startswith("units owing") else []


def test_a_full_atomic_africa_match(matches: Matches, client: TestClient) -> None:
    m = Game(client, scenario("atomic-africa-demo", units=FORCES))  # 3 turns
    m.check()

    # ---- turn 1: Activation Phases, red first, alternating ----------------------------------
    m.activate("red", "sq1")
    m.draw("red", 2)
    m.fire("red", "sq1", "ml1", wounds=3, suppression=2)  # d8 shifted 3 times: below d4
    m.fire("blue", "mg1", "sq1", suppression=1)  # the reacting player answers
    m.refused("blue", 403, "AA-1", type="advance")  # the activating player ends the phase
    m.end_phase("red")
    m.check()
    m.activate("blue", "ml1")
    m.draw("blue", 2)
    m.move("blue", "ml1", 28, 20)
    m.fire("blue", "ml1", "sq1", wounds=2, suppression=2)  # sq1: 4 wounds, d10 below d4
    m.play("blue")
    m.end_phase("blue")
    m.activate("red", "sq2")
    m.move("red", "sq2", 18, 14)
    m.fire("red", "sq2", "mg1", wounds=3, suppression=1)  # mg1 must split: only 5 figures
    m.play("red")
    m.end_phase("red")
    m.activate("blue", "ml2")
    m.fire("blue", "ml2", "sq2", wounds=1, suppression=2)
    m.end_phase("blue")
    # red has no unit left: blue activates phase after phase
    m.activate("blue", "mg1")
    m.fire("blue", "mg1", "sq2", suppression=1)
    m.end_phase("blue")

    # Clean-Up, Split: mg1 is destroyed as the sub-phase begins (AA-4)
    assert m.turn["step"] == "cleanup/split"
    m.destroyed("mg1")
    m.check()
    assert m.turn["expects"] == ["units that must split: sq1, ml1"]
    m.split("red", "sq1", "sq1b", "AA-3", suppression="second")  # compulsory
    m.split("blue", "ml1", "ml1b", "AA-3")  # compulsory
    m.split("blue", "ml2", "ml2b", "AA-5")  # voluntary
    m.split("red", "sq2", "sq2b", "AA-5")  # voluntary
    m.check()
    m.both_done()

    # Clean-Up, Morale: each side rolls for its suppressed units
    assert m.turn["expects"] == ["units owing a Morale roll: sq1, sq2, ml1, sq1b, ml1b, sq2b"]
    m.morale("red", "sq1", 2)
    m.morale("red", "sq1b", 2)
    m.morale("red", "sq2")  # the server's die
    m.morale("red", "sq2b", 1)
    m.morale("blue", "ml1", 4)
    m.morale("blue", "ml1b", 1)
    m.check()
    m.both_done()

    assert m.turn["step"] == "cleanup/cards"
    m.reset_decks()
    assert (m.turn["turn"], m.turn["active_side"]) == (2, "red")
    m.check()

    # ---- turn 2 -----------------------------------------------------------------------------
    for red, blue in (("sq1", "ml2"), ("sq1b", "ml2b"), ("sq2", "ml1"), ("sq2b", "ml1b")):
        m.activate("red", red)
        if red == "sq1":
            m.draw("red", 1)
            m.fire("red", "sq1", "ml2", wounds=5, suppression=1)  # d10 below d4
            m.fire("blue", "ml2b", "sq1", wounds=3)  # the reaction: d10 +2 +3: below d4
        if red == "sq2":
            m.act("red", type="score_vp", side="red", points=1, reason="holds the ford")
            m.vp["red"] += 1
        m.end_phase("red")
        m.activate("blue", blue)
        if blue == "ml2":
            m.fire("blue", "ml2", "sq2b", suppression=2)
        m.end_phase("blue")
    m.check()
    assert m.turn["step"] == "cleanup/split"
    assert m.turn["expects"] == ["units that must split: sq1, ml2"]
    m.refused("red", 422, "AA-3", type="advance")  # sq1 must split first
    m.split("red", "sq1", "sq1c", "AA-3")  # 6 figures: 3 + 3, wounds 3 + 2
    m.split("blue", "ml2", "ml2c", "AA-3", wound="second")  # 3 + 3, wounds 2 + 3
    m.split("blue", "ml2b", "ml2d", "AA-5")  # voluntary: 6 figures
    m.check()
    m.both_done()
    for unit in owed(m):
        m.morale(owner(unit), unit)
    m.check()
    m.both_done()
    m.reset_decks()
    m.check()

    # ---- turn 3, the last -------------------------------------------------------------------
    while m.turn["step"] == "activation/activate":
        side = m.turn["active_side"]
        unit = m.turn["expects"][0].split(": ")[1].split(", ")[0]
        m.activate(side, unit)
        if unit == "ml1":
            m.act("blue", type="score_vp", side="blue", points=3, reason="took the crossing")
            m.vp["blue"] += 3
        m.end_phase(side)
    m.check()
    m.both_done()  # nothing must split; no one splits by choice
    for unit in owed(m):
        m.morale(owner(unit), unit)
    m.check()
    m.both_done()
    for side in SIDES:
        m.act(side, type="shuffle_deck")
    m.act("blue", type="cut_deck", side="red", at=1)
    m.act("red", type="cut_deck", side="blue", at=1)
    m.act("red", type="advance")
    m.check()
    ended = [e for e in m.act("blue", type="advance") if e["type"] == "MatchEnded"]
    assert [e["rule"] for e in ended] == ["AA-1"]
    outcome = m.get("")["outcome"]
    assert outcome["winner"] == "blue" and outcome["reason"].startswith("turn 3 of 3")
    assert {"AA-3", "AA-4", "AA-5", "AA-7"} <= m.rules
    assert_replay_matches(matches, m)
