"""A whole extended-sequence match through the HTTP API, to its end: three game turns, each
with both sides in the Initial and Rally Phases and one player-turn per side in the Combat
Phase (the Germans attack first, as the scenario lists them). In turns 1 and 2 both sides
announce reinforcements, call artillery, repair, self-rally, rally with a leader, and in
their own player-turn fire prepared fire, move routed and broken units, move and fire,
advancing-fire and advance, and as the defender fire opportunity and defensive fire. Table
dice make every result known; after each phase the whole board (units, markers, statuses,
tracks, location markers, VP) must be exactly what the rules say. Then the log is replayed
from scratch and must reach exactly the state the service holds."""

from __future__ import annotations

from typing import Any

from duty_pay import pay_owed
from fastapi.testclient import TestClient
from rulesets_helpers import Script, assert_replay_matches, scenario

from domain.app import Matches

FIRE_MARKERS = ("shots", "prepared_fire", "rof_spent", "halted")
G, S = "germans", "soviets"


def label(position: dict[str, Any]) -> str:
    return str(position["hex"] or position["box"])


class Flow:
    """The match, and the board the rules say it must show (kept by the script's hand)."""

    def __init__(self, client: TestClient) -> None:
        self.m = Script(client, scenario("extended-sequence-demo"))  # 3 turns
        self.want = self.board()

    def board(self) -> dict[str, Any]:
        board = self.m.board
        units = {u["id"]: {"at": label(u["position"]), "status": u["status"],
                           "markers": u["markers"], "removed": u["removed"],
                           "entry": u["extra"].get("entry")}
                 for u in board["units"] + board["off_board"]}
        return {"units": units, "tracks": board["tracks"], "places": board["location_markers"],
                "vp": {t["side"]: t["points"] for t in board["vp"]["tracks"]},
                "step": board["turn"]["step"], "attacker": board["turn"]["active_side"]}

    def check(self, step: str, attacker: str | None = None) -> None:
        self.want.update(step=step, attacker=attacker)
        board = self.board()
        for unit_id in {*board["units"], *self.want["units"]}:
            assert board["units"].get(unit_id) == self.want["units"].get(unit_id), unit_id
        assert board == self.want

    # ---- what the players do, and what it changes on the board ----------------------------

    def act(self, seat: str, **action: Any) -> None:
        self.m.act(seat, **action)

    def done(self, *seats: str) -> None:
        for seat in seats or (G, S):
            self.act(seat, type="advance")

    def unit(self, unit_id: str, **changes: Any) -> None:
        self.want["units"][unit_id].update(changes)

    def flags(self, unit_id: str, *add: str, clear: tuple[str, ...] = ()) -> None:
        now = set(self.want["units"][unit_id]["status"])
        self.unit(unit_id, status=sorted((now | set(add)) - set(clear)))

    def mark(self, unit_id: str, **counts: int) -> None:
        markers = dict(self.want["units"][unit_id]["markers"])
        for kind, n in counts.items():
            markers[kind] = markers.get(kind, 0) + n
        self.unit(unit_id, markers={k: n for k, n in markers.items() if n})

    def track(self, **tracks: Any) -> None:
        self.want["tracks"].update({k.replace("__", "."): v for k, v in tracks.items()})

    def move(self, seat: str, unit_id: str, to: str) -> None:
        self.act(seat, type="move_unit", unit_id=unit_id, to={"hex": to})
        self.unit(unit_id, at=to)

    def status(self, seat: str, unit_id: str, *add: str, clear: tuple[str, ...] = ()) -> None:
        self.act(seat, type="set_status", unit_id=unit_id, set=list(add), clear=list(clear))
        self.flags(unit_id, *add, clear=clear)

    def suppress(self, seat: str, unit_id: str, count: int = 1) -> None:
        self.act(seat, type="place_marker", kind="suppression", unit_id=unit_id, count=count)
        self.mark(unit_id, suppression=count)

    def shoot(self, seat: str, unit_id: str, target: str, *dice: int) -> None:
        """A shot with table dice; its result read at the table. What it marks is the
        script's to expect (ES-4, ES-5)."""
        self.act(seat, type="fire", unit_id=unit_id, target_id=target, source="table",
                 results=list(dice))
        self.act(seat, type="enter_result", result="as the fire table says")

    def roll(self, seat: str, name: str, unit_id: str, *dice: int, **more: Any) -> None:
        self.act(seat, type="rule_roll", roll=name, unit_id=unit_id, source="table",
                 results=list(dice), **more)

    def artillery(self, seat: str, mission: str, stage: str, *dice: int,
                  at: str | None = None) -> None:
        table = {"source": "table", "results": list(dice)} if dice else {}
        self.act(seat, type="call_artillery", mission=mission, stage=stage, location=at,
                 **table)

    def player_turn_begins(self, attacker: str) -> None:
        """ES-6: the fire markers of the player-turn that ended come off."""
        for unit in self.want["units"].values():
            unit["markers"] = {k: n for k, n in unit["markers"].items()
                               if k not in FIRE_MARKERS}
        self.check("combat/prepared_fire", attacker)


# ---- turn 1 ---------------------------------------------------------------------------------

def weather_roll(f: Flow, seat: str, *dice: int) -> None:
    """ES-1: the weather change roll, owed every game turn; the tracks follow it."""
    f.act(seat, type="roll_dice", notation="2d6", purpose="weather change", source="table",
          results=list(dice))


def turn_1_initial_and_rally(f: Flow) -> None:
    weather_roll(f, S, 2, 5)
    f.act(S, type="set_track", name="weather.visibility", value=8)
    f.act(G, type="set_track", name="weather.wind_direction", value="W")
    f.track(weather__visibility=8, weather__wind_direction="W")
    f.done()
    f.act(G, type="place_marker", kind="smoke", location="0607")
    f.want["places"] = {"0607": {"smoke": 1}}
    f.done()
    f.act(G, type="announce_reinforcements", unit_ids=["g-stug"], entry="0101")
    f.act(S, type="announce_reinforcements", unit_ids=["s-t34"], entry="1212")
    f.unit("g-stug", entry="0101")
    f.unit("s-t34", entry="1212")
    f.done()
    f.act(G, type="roll_dice", notation="d6", purpose="air strike check (scenario)")
    f.done()
    f.artillery(G, "m1", "radio_contact", 5)  # 5 >= 4: contact
    f.artillery(G, "m1", "spotting_round", at="0707")
    f.artillery(G, "m1", "correction", at="0708")
    f.artillery(G, "m1", "fire_for_effect", at="0708")
    f.suppress(S, "s-rifles-1")  # what the fire for effect did
    f.artillery(S, "s1", "radio_contact", 2)  # no contact
    f.track(artillery__m1="fire for effect 1", artillery__m1__at="0708",
            artillery__m1__side=G, artillery__m1__contact_turn=1, artillery__m1__turn=1,
            artillery__s1="no contact", artillery__s1__side=S, artillery__s1__contact_turn=1)
    f.done()
    f.check("rally/repair")
    f.roll(G, "repair", "g-pak", 6, 5)  # 11 > Q 4 + 2: still broken down
    f.roll(S, "repair", "s-atr", 2, 3)  # 5 <= 6: repaired
    f.flags("s-atr", clear=("broken_down",))
    f.done()
    f.act(S, type="roll_dice", notation="2d6", purpose="ammunition at the HQ (scenario)")
    f.done()
    f.roll(G, "self_rally", "g-rifles-2", 4, 4)  # 8 > 6: still broken
    f.roll(S, "self_rally", "s-rifles-2", 1, 1, new_unit_id="s-sergeant")  # an original 2
    f.flags("s-rifles-2", clear=("broken",))
    f.want["units"]["s-sergeant"] = {"at": "0909", "status": [], "markers": {},
                                     "removed": None, "entry": None}
    f.done()
    f.roll(G, "leader_rally", "g-rifles-3", 6, 6, leader_id="g-leader")  # 12 - 1 > 6
    f.roll(S, "leader_rally", "s-rifles-3", 5, 5, leader_id="s-leader")  # 10 + 1 > 6
    f.done()


def turn_1_germans_attack(f: Flow) -> None:
    f.player_turn_begins(G)
    for dice in ((3, 4), (2, 5), (1, 3)):  # ROF 3
        f.shoot(G, "g-hmg", "s-rifles-1", *dice)
    f.mark("g-hmg", shots=3, prepared_fire=1, rof_spent=1)
    f.status(S, "s-rifles-1", "broken")
    f.done(G)
    f.check("combat/routed_movement", G)
    f.move(G, "g-rifles-3", "0106")
    f.shoot(S, "s-hmg", "g-rifles-3", 2, 2)  # opportunity fire
    f.mark("s-hmg", shots=1)
    f.suppress(G, "g-rifles-3")  # 2 of Q 4: it stays
    f.done(G)
    f.move(G, "g-rifles-2", "0105")
    f.done(G)
    f.check("combat/move_and_fire", G)
    f.move(G, "g-stug", "0101")
    f.shoot(G, "g-stug", "s-hmg", 3, 3)
    f.move(G, "g-stug", "0202")  # a vehicle moves on after firing
    f.mark("g-stug", shots=1)
    f.move(G, "g-rifles-1", "0506")
    f.shoot(G, "g-rifles-1", "s-rifles-1", 4, 4)
    f.mark("g-rifles-1", shots=1, rof_spent=1)
    f.shoot(S, "s-hmg", "g-rifles-1", 2, 3)  # the defender halts it
    f.mark("s-hmg", shots=1, rof_spent=1)
    f.mark("g-rifles-1", halted=1)
    f.suppress(G, "g-rifles-1")
    f.done(G)
    f.check("combat/defensive_fire", G)
    f.shoot(S, "s-atr", "g-stug", 1, 2)
    f.mark("s-atr", shots=1, rof_spent=1)
    f.done(S)
    f.check("combat/advancing_fire", G)
    f.shoot(G, "g-rifles-1", "s-atr", 5, 5)  # one advancing shot, no marker
    f.status(S, "s-atr", "broken")
    f.done(G)
    f.move(G, "g-hmg", "0404")  # it fired prepared fire, and advances
    f.move(G, "g-rifles-1", "0607")  # it was halted, and advances
    f.check("combat/advance", G)
    f.done(G)


def turn_1_soviets_attack(f: Flow) -> None:
    f.player_turn_begins(S)
    f.shoot(S, "s-hmg", "g-rifles-1", 2, 4)
    f.shoot(S, "s-hmg", "g-rifles-1", 6, 6)  # an original 12: its equipment breaks down
    f.mark("s-hmg", shots=2, prepared_fire=1, rof_spent=1)
    f.flags("s-hmg", "broken_down")
    f.status(G, "g-rifles-1", "broken", "routed")
    f.done(S)
    f.move(S, "s-rifles-3", "1010")
    f.shoot(G, "g-hmg", "s-rifles-3", 3, 3)
    f.mark("g-hmg", shots=1)
    f.suppress(S, "s-rifles-3", 4)  # its Q: eliminated
    f.unit("s-rifles-3", removed="eliminated", at="eliminated")
    f.done(S)
    f.check("combat/broken_movement", S)
    f.move(S, "s-rifles-1", "0709")
    f.move(S, "s-atr", "0907")
    f.done(S)
    f.move(S, "s-t34", "1212")
    f.shoot(S, "s-t34", "g-stug", 4, 4)
    f.move(S, "s-t34", "1111")
    f.mark("s-t34", shots=1)
    f.move(S, "s-rifles-2", "0708")
    f.shoot(G, "g-stug", "s-rifles-2", 2, 2)
    f.mark("g-stug", shots=1)
    f.mark("s-rifles-2", halted=1)
    f.done(S)
    f.check("combat/defensive_fire", S)
    f.shoot(G, "g-stug", "s-t34", 5, 1)
    f.mark("g-stug", shots=1, rof_spent=1)
    f.done(G)
    f.shoot(S, "s-rifles-2", "g-rifles-3", 3, 3)
    f.status(G, "g-rifles-3", "broken")
    f.done(S)
    f.move(S, "s-hmg", "0707")
    f.move(S, "s-rifles-2", "0608")
    f.check("combat/advance", S)
    f.done(S)


def admin(f: Flow, germans: int, soviets: int) -> None:
    for unit in f.want["units"].values():  # ES-6
        unit["markers"] = {k: n for k, n in unit["markers"].items() if k not in FIRE_MARKERS}
    f.check("admin/victory")
    f.act(G, type="score_vp", side=G, points=germans)
    f.act(S, type="score_vp", side=S, points=soviets)
    f.want["vp"] = {G: f.want["vp"][G] + germans, S: f.want["vp"][S] + soviets}
    f.done()


# ---- turn 2 ---------------------------------------------------------------------------------

def turn_2_initial_and_rally(f: Flow) -> None:
    f.check("initial/weather")
    weather_roll(f, G, 6, 4)
    f.act(G, type="set_track", name="weather.precipitation", value="light")
    f.track(weather__precipitation="light")
    f.done()
    f.act(S, type="remove_marker", kind="smoke", location="0607")
    f.want["places"] = {}
    f.done()
    f.act(G, type="announce_reinforcements", unit_ids=["g-pioneers"], entry="0102")
    f.act(S, type="announce_reinforcements", unit_ids=["s-guards"], entry="1213")
    f.unit("g-pioneers", entry="0102")
    f.unit("s-guards", entry="1213")
    f.done()
    f.act(S, type="roll_dice", notation="d6", purpose="air strike check (scenario)")
    f.done()
    f.artillery(G, "m1", "fire_for_effect", at="0709")
    f.artillery(S, "s1", "radio_contact", 6)
    f.artillery(S, "s1", "spotting_round", at="0404")
    f.artillery(S, "s1", "fire_for_effect", at="0404")
    f.track(artillery__m1="fire for effect 2", artillery__m1__at="0709", artillery__m1__turn=2,
            artillery__s1="fire for effect 1", artillery__s1__at="0404",
            artillery__s1__contact_turn=2, artillery__s1__turn=2)
    f.done()
    f.check("rally/repair")
    f.roll(G, "repair", "g-pak", 1, 2)
    f.roll(S, "repair", "s-hmg", 2, 2)
    f.flags("g-pak", clear=("broken_down",))
    f.flags("s-hmg", clear=("broken_down",))
    f.done()
    f.done()  # no ammunition to replenish
    f.roll(G, "self_rally", "g-rifles-2", 5, 5)  # 10 > 6: still broken
    f.roll(S, "self_rally", "s-rifles-1", 6, 6)  # still broken
    f.done()
    f.roll(G, "leader_rally", "g-rifles-3", 2, 2, leader_id="g-leader")  # 4 - 1 <= 6
    f.roll(S, "leader_rally", "s-atr", 1, 2, leader_id="s-leader")  # 3 + 1 <= 6
    f.flags("g-rifles-3", clear=("broken", "routed"))
    f.flags("s-atr", clear=("broken",))
    f.done()


def turn_2_germans_attack(f: Flow) -> None:
    f.player_turn_begins(G)
    f.shoot(G, "g-pak", "s-t34", 2, 3)
    f.mark("g-pak", shots=1, prepared_fire=1, rof_spent=1)
    f.done(G)
    f.move(G, "g-rifles-1", "0507")  # routed (and broken)
    f.shoot(S, "s-hmg", "g-rifles-1", 4, 5)
    f.mark("s-hmg", shots=1)
    f.done(G)
    f.move(G, "g-rifles-2", "0104")  # broken
    f.done(G)
    f.check("combat/move_and_fire", G)
    f.move(G, "g-pioneers", "0102")
    f.shoot(G, "g-pioneers", "s-rifles-2", 3, 5)
    f.mark("g-pioneers", shots=1, rof_spent=1)
    f.move(G, "g-stug", "0303")
    f.shoot(S, "s-t34", "g-stug", 1, 1)
    f.mark("s-t34", shots=1)
    f.mark("g-stug", halted=1)
    f.done(G)
    f.shoot(S, "s-rifles-2", "g-pioneers", 3, 4)
    f.mark("s-rifles-2", shots=1, rof_spent=1)
    f.done(S)
    f.shoot(G, "g-hmg", "s-rifles-2", 2, 6)
    f.status(S, "s-rifles-2", "routed")
    f.done(G)
    f.move(G, "g-pak", "0406")
    f.move(G, "g-stug", "0403")
    f.check("combat/advance", G)
    f.done(G)


def turn_2_soviets_attack(f: Flow) -> None:
    f.player_turn_begins(S)
    f.shoot(S, "s-hmg", "g-stug", 2, 2)
    f.mark("s-hmg", shots=1, prepared_fire=1)
    f.done(S)
    f.move(S, "s-rifles-2", "0709")
    f.shoot(G, "g-hmg", "s-rifles-2", 3, 3)
    f.mark("g-hmg", shots=1)
    f.suppress(S, "s-rifles-2")  # 1 of Q 3
    f.done(S)
    f.move(S, "s-rifles-1", "0710")
    f.done(S)
    f.move(S, "s-guards", "1213")
    f.shoot(S, "s-guards", "g-pioneers", 4, 4)
    f.mark("s-guards", shots=1, rof_spent=1)
    f.move(S, "s-t34", "1010")
    f.shoot(S, "s-t34", "g-stug", 5, 5)
    f.move(S, "s-t34", "0909")
    f.mark("s-t34", shots=1)
    f.shoot(G, "g-rifles-3", "s-t34", 2, 5)
    f.mark("g-rifles-3", shots=1, rof_spent=1)
    f.mark("s-t34", halted=1)
    f.done(S)
    f.check("combat/defensive_fire", S)
    f.shoot(G, "g-pioneers", "s-guards", 1, 5)
    f.mark("g-pioneers", shots=1, rof_spent=1)
    f.done(G)
    f.shoot(S, "s-atr", "g-pioneers", 3, 6)
    f.done(S)
    f.move(S, "s-hmg", "0607")
    f.move(S, "s-t34", "0808")
    f.check("combat/advance", S)
    f.done(S)


def turn_3(f: Flow) -> None:
    """The last turn: both sides do only what is owed (the weather roll, the routed and
    broken units moved, here where they stand) and pass every step; the end of the turn
    ends the match."""
    f.check("initial/weather")
    while f.m.turn["step"] != "admin/victory":
        pay_owed(f.m)
        for seat in f.m.turn["advanced_by"][:-1]:  # without the referee
            f.act(seat, type="advance")
    admin(f, 1, 0)


def test_a_full_extended_sequence_match(matches: Matches, client: TestClient) -> None:
    f = Flow(client)
    turn_1_initial_and_rally(f)
    turn_1_germans_attack(f)
    turn_1_soviets_attack(f)
    admin(f, 2, 1)
    turn_2_initial_and_rally(f)
    turn_2_germans_attack(f)
    turn_2_soviets_attack(f)
    admin(f, 1, 2)
    turn_3(f)
    outcome = f.m.get("")["outcome"]
    assert outcome["winner"] == G and "turn 3 of 3" in outcome["reason"]  # 4 VP to 3
    assert {"ES-1", "ES-2", "ES-2r", "ES-3", "ES-4", "ES-4a", "ES-5", "ES-6"} <= f.m.rules
    assert_replay_matches(matches, f.m)
