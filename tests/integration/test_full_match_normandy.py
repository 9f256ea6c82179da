"""A whole Normandy match through the HTTP API, to the end of Game-Turn 4, with the server's
dice. In Game-Turns 1 and 2 each side does every procedure its text gives it (Game-Turn 2
opens with a German operation that puts the German player-turn first); Game-Turns 3 and 4
are played more briefly. After every step the whole board (units, markers, statuses,
tracks, VP) is compared with what the rules say it must be, kept here beside the match.
Then the log is replayed from scratch and must reach exactly the state the service holds."""

from __future__ import annotations

import copy
from typing import Any

from duty_pay import pay_owed
from fastapi.testclient import TestClient
from rulesets_helpers import Script, assert_replay_matches, scenario

from domain.app import Matches

ALLIED, GERMAN = "allied", "german"
SUPPLY = ("in_supply", "out_of_supply", "isolated")


class Match(Script):
    """The match, and the board it must show (`units`, `places`, `tracks`, `vp`)."""

    def start(self) -> None:
        self.units: dict[str, dict[str, Any]] = {u["id"]: {
            "side": u["side"],
            "at": (u["position"] or {}).get("hex") or (u["position"] or {}).get("box"),
            "steps": u.get("steps"), "markers": dict(u.get("markers", {})),
            "status": set(u.get("status", [])), "removed": None} for u in self.body["units"]}
        self.places: dict[str, dict[str, int]] = {}
        self.tracks: dict[str, Any] = {}
        self.vp = {ALLIED: 0, GERMAN: 0}
        self.checked: list[tuple[int, str, str | None]] = []  # the steps whose board was checked

    # ---- actions, and what each does to the board ------------------------------------

    def track(self, seat: str, name: str, value: Any) -> None:
        self.act(seat, type="set_track", name=name, value=value)
        self.tracks[name] = value

    def move(self, seat: str, unit: str, to: str, tactical: bool = False,
             reserve: bool = False) -> None:
        self.act(seat, type="move_unit", unit_id=unit, to={"hex": to})
        self.units[unit]["at"] = to
        if tactical:  # NO-2: the service flags it; strategic movement is for the others
            self.units[unit]["status"].add("moved_tactically")
        if reserve:  # NO-2: the service flags it; only the Reserve units that moved attack
            self.units[unit]["status"].add("moved_in_reserve")

    def lose(self, seat: str, unit: str) -> None:
        self.act(seat, type="lose_step", unit_id=unit)
        self.units[unit]["steps"] -= 1
        if self.units[unit]["steps"] == 0:
            self.units[unit].update(removed="eliminated", at="eliminated")

    def gain(self, seat: str, unit: str, rule: str) -> None:
        self.act(seat, type="gain_step", unit_id=unit, rule=rule)
        self.units[unit]["steps"] += 1
        if rule == "NO-2":  # a replacement point spent
            self.tracks[f"replacements.{seat}"] -= 1

    def mark(self, seat: str, kind: str, unit: str | None = None, at: str | None = None,
             remove: int = 0) -> None:
        """Place one marker, or `remove` that many, on a unit or at a hex."""
        self.act(seat, type="remove_marker" if remove else "place_marker", kind=kind,
                 count=remove or 1, **({"unit_id": unit} if unit else {"location": at}))
        if unit:
            self.count(self.units[unit]["markers"], kind, -remove or 1)
        else:
            self.place(at or "", kind, -remove or 1)

    def place(self, at: str, kind: str, by: int) -> None:
        self.count(self.places.setdefault(at, {}), kind, by)
        if not self.places[at]:
            del self.places[at]

    @staticmethod
    def count(markers: dict[str, int], kind: str, by: int) -> None:
        markers[kind] = markers.get(kind, 0) + by
        if not markers[kind]:
            del markers[kind]

    def supply(self, seat: str, status: str, *units: str) -> None:
        self.act(seat, type="set_supply", unit_ids=list(units), status=status)
        for unit in units:
            self.units[unit]["status"] = self.units[unit]["status"] - set(SUPPLY) | {status}

    def combat(self, seat: str, attackers: list[str], defenders: list[str], odds: str) -> None:
        self.act(seat, type="resolve_combat", attackers=attackers, defenders=defenders,
                 odds=odds, modifiers={"ground support": 1})
        self.enter_result()

    def score(self, seat: str, points: int, reason: str) -> None:
        self.act(seat, type="score_vp", side=seat, points=points, reason=reason)
        self.vp[seat] += points

    # ---- the marker, and the board after each step -----------------------------------

    def done(self, step: str, *seats: str) -> None:
        """The seats that end `step` advance (both, in a shared step); the board is checked."""
        assert self.turn["step"] == step, (self.turn["step"], step)
        self.check()
        for seat in seats:
            assert seat in self.turn["advanced_by"], (step, seat)
            self.act(seat, type="advance")

    def check(self) -> None:
        board = self.board
        shown = {u["id"]: {"side": u["side"],
                           "at": u["position"].get("hex") or u["position"].get("box"),
                           "steps": u["steps"], "markers": u["markers"],
                           "status": set(u["status"]), "removed": u["removed"]}
                 for u in board["units"] + board["off_board"]}
        assert shown == self.units
        assert board["location_markers"] == self.places
        assert board["tracks"] == self.tracks
        assert {t["side"]: t["points"] for t in board["vp"]["tracks"]} == self.vp
        turn = board["turn"]
        self.checked.append((turn["turn"], turn["step"], turn["active_side"]))

    # ---- what the service does itself as a step begins -------------------------------

    def arrive_supply(self) -> None:
        for unit in self.units.values():
            if unit["removed"] is None and unit["at"] != "reinforcements":
                unit["status"] -= set(SUPPLY)

    def arrive_regroup(self, phasing: str) -> None:
        for unit in self.units.values():
            markers = unit["markers"]
            if unit["side"] == phasing:
                markers.pop("regroup", None)
                markers.pop("reserve", None)
            elif markers.get("disorganized"):
                markers["regroup"] = markers.get("regroup", 0) + markers.pop("disorganized")
            unit["status"] -= {"moved_tactically", "moved_in_reserve"}


def mutual(m: Match, turn: int, plan: dict[str, Any]) -> None:
    """NO-1, every Game-Turn."""
    if turn > 1:  # this turn's weather is revealed: the one rolled last turn
        m.tracks["weather.now"] = m.tracks["weather.next"]
    else:
        m.track(ALLIED, "weather.now", "clear")
    m.act(ALLIED, type="roll_dice", notation="2d6", purpose="next turn's weather", rule="NO-1")
    m.track(ALLIED, "weather.next", plan["weather"])
    m.act(ALLIED, type="roll_dice", notation="d6", purpose="sea conditions", rule="NO-1")
    m.track(ALLIED, "sea.now", plan["sea"])
    m.done("mutual/weather", ALLIED)

    m.track(ALLIED, "air.received", 4)
    m.track(ALLIED, "air.interdiction", 1)
    m.track(ALLIED, "air.ground_support", 3)
    m.done("mutual/allied_air", ALLIED)

    m.track(ALLIED, "support.allied.i-corps", 2)
    m.track(GERMAN, "support.german.lxxxvi-corps", 1 + turn % 2)
    for seat, artillery in ((ALLIED, "a-4agra"), (GERMAN, "g-1716art")):
        if m.units[artillery]["steps"] == 1:  # reduced artillery re-supplied
            m.gain(seat, artillery, "NO-1")
    m.done("mutual/support", ALLIED, GERMAN)

    for unit in m.units.values():  # last turn's operations end
        unit["status"].discard("operation")
    m.act(ALLIED, type="declare_operation", hqs=["a-1corps"], carpet_bombing=plan["carpet"])
    m.units["a-1corps"]["status"].add("operation")
    if plan["carpet"]:  # the air units go on the target hex
        m.place(plan["carpet"], "carpet_bombing", 1)
    first = plan["german_first"]
    m.act(GERMAN, type="declare_operation", hqs=["g-86corps"] if first else [], first=first)
    # a German HQ in an operation has no Operation side to turn to: no flag (NO-1)
    m.done("mutual/operations", ALLIED, GERMAN)
    assert m.turn["initiative"] == ([GERMAN, ALLIED] if first else [ALLIED, GERMAN])

    m.track(ALLIED, "support.allied.second-army", 3)
    m.track(GERMAN, "support.german.7th-army", 2)
    m.done("mutual/army_support", ALLIED, GERMAN)

    m.arrive_supply()  # every status is determined again
    for seat in (ALLIED, GERMAN):
        units = [u for u, x in m.units.items() if x["side"] == seat and x["removed"] is None
                 and x["at"] != "reinforcements"]
        cut = [u for u in units if u in plan["out_of_supply"]]
        m.supply(seat, "in_supply", *[u for u in units if u not in cut])
        if cut:
            m.supply(seat, "out_of_supply", *cut)
    m.done("mutual/supply", ALLIED, GERMAN)


def player_turn(m: Match, side: str, turn: int, plan: dict[str, Any]) -> None:
    """NO-2 (Allied) or NO-3 (German): every segment, as `plan[side]` says."""
    do = plan[side]
    foe = GERMAN if side == ALLIED else ALLIED
    assert m.turn["active_side"] == side
    m.track(side, f"replacements.{side}", len(do["rebuild"]))
    for unit in do["rebuild"]:
        m.gain(side, unit, "NO-2")
    if do.get("boundary"):
        m.track(side, f"boundary.{side}", do["boundary"])
    m.done("player_turn/replacement", side)

    if side == GERMAN:  # the Allied player determines the effects of air interdiction
        m.act(ALLIED, type="roll_dice", notation="d6", purpose="interdiction effects",
              rule="NO-3")
        for hex_id in list(m.places):
            if m.places[hex_id].get("interdiction"):
                m.mark(ALLIED, "interdicted", at=hex_id)
        m.done("player_turn/interdiction_effects", ALLIED)

    for unit in do["reserve"]:
        m.mark(side, "reserve", unit=unit)
    for unit, to in do["tactical"]:
        m.move(side, unit, to, tactical=True)
    m.done("player_turn/tactical_movement", side)

    for unit, to in do["strategic"]:
        m.move(side, unit, to)
    m.done("player_turn/strategic_movement", side)

    if side == ALLIED:
        target = plan["carpet"]
        if target:  # announced: resolved now; the service takes the marker off
            m.act(ALLIED, type="roll_dice", notation="2d6", purpose=f"carpet bombing {target}",
                  rule="NO-2")
            m.place(target, "carpet_bombing", -1)
            for unit in plan["bombed"]:
                m.lose(GERMAN, unit)
        m.done("player_turn/carpet_bombing", ALLIED)

    for attackers, defenders, losses, disorganized, retreats, advances in do["combat"]:
        m.combat(side, attackers, defenders, "2:1")
        for unit in losses:
            m.lose(foe, unit)
        for unit in disorganized:
            m.mark(side, "disorganized", unit=unit)
        for unit, to in retreats:
            m.move(foe, unit, to)
        for unit, to in advances:
            m.move(side, unit, to)
    pay_owed(m)  # NO-2: the other units next to an enemy unit attack it (no effect)
    m.done("player_turn/combat", side)

    for (unit, to), (defender, lost) in do["reserve_attack"]:
        m.move(side, unit, to, reserve=True)
        m.combat(side, [unit], [defender], "1:1")
        if lost:
            m.lose(foe, defender)
        else:
            m.mark(side, "disorganized", unit=defender)
    for hex_id in do.get("captured", ()):
        m.track(side, f"control.{hex_id}", side)
    m.done("player_turn/reserve_movement", side)

    for kind, at, remove in do["engineering"]:
        m.mark(side, kind, at=at, remove=int(remove))
    m.done("player_turn/engineering", side)

    if side == ALLIED:  # last turn's interdiction is over; new hexes are interdicted
        for hex_id in list(m.places):
            for kind in ("interdiction", "interdicted"):
                if m.places.get(hex_id, {}).get(kind):
                    m.mark(ALLIED, kind, at=hex_id, remove=m.places[hex_id][kind])
        m.mark(ALLIED, "interdiction", at=plan["interdict"])
        m.track(ALLIED, "air.interdiction", 0)  # the Air Points are spent
        m.done("player_turn/air_interdiction", ALLIED)

    m.arrive_regroup(side)
    m.done("player_turn/regroup", ALLIED, GERMAN)


def end_of_turn(m: Match, turn: int) -> None:
    """NO-4: both sides record VP; every fourth turn, one Allied VP per Allied city."""
    if turn % 4 == 0:
        cities = {**m.body["options"]["cities"],
                  **{k.split(".")[1]: v for k, v in m.tracks.items() if k.startswith("control.")}}
        m.vp[ALLIED] += sum(side == ALLIED for side in cities.values())
    m.score(ALLIED, 1, "the bridgehead holds")
    m.score(GERMAN, 1 if turn < 4 else -1, "the line holds" if turn < 4 else "withdrawal")
    m.done("end/victory_points", ALLIED, GERMAN)


QUIET = {"reserve": [], "tactical": [], "strategic": [], "combat": [], "reserve_attack": [],
         "engineering": [], "rebuild": []}
# A combat: attackers, defenders, the defenders' step losses, the units disorganized, the
# defenders' retreats and the attackers' advances. A reserve attack: the move, then the
# defender and whether it loses a step (else it is disorganized).
PLANS: list[dict[str, Any]] = [
    {"weather": "overcast", "sea": "calm", "carpet": "1305", "bombed": ["g-1716art"],
     "german_first": False, "out_of_supply": ["a-6para"], "interdict": "1304",
     ALLIED: {"rebuild": ["a-6para"], "boundary": "Seulles", "reserve": ["a-27arm"],
              "tactical": [("a-3div", "1408")], "strategic": [("a-6para", "1607")],
              "combat": [(["a-3div"], ["g-716"], ["g-716"], ["g-716"], [("g-716", "1307")],
                          [("a-3div", "1407")])],
              "reserve_attack": [(("a-27arm", "1506"), ("g-21pz", True))],
              "engineering": [("construction", "1508", False)]},
     GERMAN: {"rebuild": ["g-716"], "reserve": [],
              "tactical": [("g-12ss", "1306"), ("g-21pz", "1405")],
              "strategic": [("g-86corps", "1205")],
              # NO-2: an attack is on units next to the attackers (the artillery at 1612 is not)
              "combat": [(["g-12ss", "g-716"], ["a-3div"], [], ["a-3div"], [], [])],
              "reserve_attack": [], "engineering": [("entrenchment", "1405", False)]}},
    {"weather": "rain", "sea": "moderate", "carpet": "1406", "bombed": ["g-21pz"],
     "german_first": True, "out_of_supply": ["g-12ss"], "interdict": "1306",
     GERMAN: {"rebuild": ["g-21pz"], "boundary": "Orne", "reserve": ["g-21pz"],
              "tactical": [("g-12ss", "1505")], "strategic": [("g-716", "1308")],
              "combat": [(["g-12ss"], ["a-27arm"], ["a-27arm"], [], [("a-27arm", "1507")],
                          [("g-12ss", "1506")])],
              "reserve_attack": [(("g-21pz", "1406"), ("a-3div", False))],  # next to it (NO-2)
              "engineering": [("construction", "1204", False), ("entrenchment", "1308", False)]},
     ALLIED: {"rebuild": ["a-27arm"], "reserve": ["a-27arm"],
              "tactical": [("a-6para", "1507")], "strategic": [("a-4agra", "1610")],
              # NO-2: every German unit next to them attacked (12. SS stands at 1506)
              "combat": [(["a-3div", "a-6para"], ["g-21pz", "g-12ss"], ["g-21pz"], [], [],
                          [("a-3div", "1406")])],
              # NO-2: the unit next to Caen's hex, the artillery at 1305, is the one attacked
              "reserve_attack": [(("a-27arm", "1405"), ("g-1716art", True))],
              "captured": ["1405"],
              "engineering": [("construction", "1508", True), ("improved_position", "1508", False),
                              ("bridge_construction", "1509", False)]}},
    {"weather": "clear", "sea": "rough", "carpet": None, "german_first": False,
     "out_of_supply": [], "interdict": "1307", ALLIED: QUIET, GERMAN: QUIET},
    {"weather": "clear", "sea": "calm", "carpet": None, "german_first": False,
     "out_of_supply": [], "interdict": "1307", ALLIED: QUIET, GERMAN: QUIET},
]


def test_a_full_normandy_match(matches: Matches, client: TestClient) -> None:
    m = Match(client, scenario("normandy-demo"))  # 4 Game-Turns
    m.start()
    for turn, plan in enumerate(copy.deepcopy(PLANS), start=1):
        assert m.turn["turn"] == turn
        mutual(m, turn, plan)
        for side in m.turn["initiative"]:
            player_turn(m, side, turn, plan)
        end_of_turn(m, turn)
    outcome = m.get("")["outcome"]
    assert outcome is not None and "Game-Turn 4 of 4" in outcome["reason"]
    assert outcome["winner"] == (ALLIED if m.vp[ALLIED] > m.vp[GERMAN] else GERMAN)
    assert {"NO-1", "NO-2", "NO-3", "NO-4", "NO-5", "core-steps"} <= m.rules
    # every step of every Game-Turn was played and checked: 6 mutual segments, 10 segments in
    # each player-turn less the 3 that are one side's own (NO-3's determination is German,
    # carpet bombing and air interdiction Allied), 1 at the end
    assert len(set(m.checked)) == len(m.checked) == 4 * (6 + 2 * 10 - 3 + 1)
    assert_replay_matches(matches, m)
