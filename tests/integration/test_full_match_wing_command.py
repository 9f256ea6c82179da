"""The wing-command demo played to its end through the HTTP API by both seats. In turns 1 and
2 each side does every procedure its text gives it: the initiative (WC-1), each step of
Pre-Activation (WC-2..WC-5), activations (WC-6) with their actions, fire combat with the
firing and the target die, opportunity and defensive fire, close combat (WC-7), the wing
commander's special move and the CO's move with a wing (WC-8), a failed activation and a
player stopping (WC-9), a die roll for what the rules do not cover (WC-11) and the victory
check (WC-10). Turn 3 is played on the service's dice. The test keeps its own picture of
the board, worked out from the rules and the dice it throws, and checks the service's
against it after every phase; then the log is replayed from scratch and must reach exactly
the state the service holds."""

from __future__ import annotations

from fastapi.testclient import TestClient
from rulesets_helpers import Script, assert_replay_matches, scenario
from wing_command_full_match import (
    PRE,
    RUN,
    Board,
    activate,
    at,
    close,
    fire,
    initiative,
    move,
    set_flag,
    table,
)

from domain.app import Matches


def test_the_wing_command_demo_played_to_its_end(matches: Matches, client: TestClient) -> None:
    m = Script(client, scenario("wing-command-demo"))  # 3 turns
    b = Board(m.body)
    b.shown(m)

    # ---- turn 1 --------------------------------------------------------------------------
    initiative(m, french=4, british=4)  # 6 against 5: the French go first

    # French Pre-Activation
    move(m, b, "french", "f-co", 11, 6)  # (a) reposition officers
    m.act("french", type="advance")
    # (b) f-line: 2 disrupted pieces = its CV: d6 3 + 1 cube of f-fo = QV 4: it holds
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", leader_id="f-fo",
          leadership=1, **table(3))
    b.spend("f-fo", 1)
    m.act("french", type="advance")
    # (c) f-line-1 rolls 5 against QV 4 and recovers; f-line-2 rolls 2 and does not
    m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-line-1", **table(5))
    b.unflag("f-line-1", "disrupted")
    m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-line-2", **table(2))
    m.act("french", type="advance")
    # (d) f-hussars-1 rolls 3 against QV 3, disengages and moves back one length
    m.act("french", type="rule_roll", roll="disengage", unit_id="f-hussars-1", **table(3))
    b.unflag("f-hussars-1", "corner_locked")
    move(m, b, "french", "f-hussars-1", 16, 13)
    m.act("french", type="advance")
    # (e) line command: f-line-2 cannot be kept in command and is removed as a casualty
    m.act("french", type="remove_unit", unit_id="f-line-2", reason="casualty")
    b.casualty("f-line-2")
    move(m, b, "french", "f-line-3", 6, 12)
    m.act("french", type="advance")
    b.shown(m)

    # French activation 1: f-line, two dice against QV 4
    at(m, f"{RUN}/activate", "french")
    activate(m, b, "french", "f-line", (4, 5), "two actions")
    m.act("french", type="advance")
    move(m, b, "french", "f-line-3", 7, 29)  # (a) into contact with b-guards-1
    fire(m, b, "british", "b-rifles-2", "f-line-1", (2, 5), 0, "no effect")  # opportunity
    m.act("french", type="advance")
    fire(m, b, "french", "f-line-1", "b-guards-1", (5, 2), 1, "b-guards-1 disrupted")  # (b)
    set_flag(m, b, "british", "b-guards-1", "disrupted")
    fire(m, b, "british", "b-guards-2", "f-line-1", (1, 6), 0, "no effect")  # defensive
    m.act("french", type="advance")
    close(m, "french", ["f-line-3"], ["b-guards-1"], 1, (4, 3), "both corner-locked")  # (c)
    set_flag(m, b, "french", "f-line-3", "corner_locked")
    set_flag(m, b, "british", "b-guards-1", "corner_locked")
    m.act("french", type="advance")
    # the left wing's FO rolls 3: two moves
    _rolled, moves = m.act("french", type="rule_roll", roll="special_move", unit_id="f-fo",
                           **table(3))
    assert moves["result"] == "2 move(s)"
    move(m, b, "french", "f-fo", 6, 14)
    m.act("french", type="advance")
    # French activation 2: f-hussars rolls 2 against QV 3: the activation fails
    b.unflag("f-line", "acting")
    activate(m, b, "french", "f-hussars", (2,), "halted", failed=True)
    m.act("french", type="advance")  # the phase passes
    b.end_phase()
    at(m, f"{PRE}/a_reposition", "british")
    b.shown(m)

    # British Pre-Activation
    move(m, b, "british", "b-co", 10, 39)  # (a)
    *_, uncovered = m.act("british", type="roll_dice", notation="d6", rule="WC-11",
                        purpose="WC-11: is the sunken lane passable? 4+ it is", **table(4))
    assert uncovered["rule"] == "WC-11"
    m.act("british", type="advance")
    # (b) b-rifles: 1 disrupted = its CV: d6 2 + 2 cubes of b-co = QV 4: it holds
    assert m.turn["expects"] == ["units owing a morale check: b-rifles"]
    m.act("british", type="rule_roll", roll="unit_morale", unit_id="b-rifles", leader_id="b-co",
          leadership=2, **table(2))
    b.spend("b-co", 2)
    m.act("british", type="advance")
    # (c) b-rifles-1 rolls a natural 1: removed; b-guards-1 rolls 4 against QV 3: recovers
    m.act("british", type="rule_roll", roll="disruption_recovery", unit_id="b-rifles-1",
          **table(1))
    b.casualty("b-rifles-1")
    m.act("british", type="rule_roll", roll="disruption_recovery", unit_id="b-guards-1",
          **table(4))
    b.unflag("b-guards-1", "disrupted")
    m.act("british", type="advance")
    # (d) b-guards-2 disengages on 5; b-guards-1 fails on 1
    m.act("british", type="rule_roll", roll="disengage", unit_id="b-guards-2", **table(5))
    b.unflag("b-guards-2", "corner_locked")
    move(m, b, "british", "b-guards-2", 9, 31)
    m.act("british", type="rule_roll", roll="disengage", unit_id="b-guards-1", **table(1))
    m.act("british", type="advance")
    move(m, b, "british", "b-rifles-2", 15, 27)  # (e)
    m.act("british", type="advance")
    b.shown(m)

    # British activation 1: b-guards, three dice 6, 2, 1 against QV 3, one cube of b-fo: the
    # cube lifts the 2 to 3, so two of three pass
    activate(m, b, "british", "b-guards", (6, 2, 1), "two actions", leader_id="b-fo",
             leadership=1)
    m.act("british", type="advance")
    m.act("british", type="set_status", unit_id="b-guards-2", clear=["unloaded"])  # reload
    b.unflag("b-guards-2", "unloaded")
    move(m, b, "british", "b-guards-2", 9, 29)
    fire(m, b, "french", "f-hussars-1", "b-guards-2", (6, 1), 0, "b-guards-2 disrupted")
    set_flag(m, b, "british", "b-guards-2", "disrupted")
    m.act("british", type="advance")
    fire(m, b, "british", "b-guards-2", "f-hussars-2", (4, 1), 2, "f-hussars-2 disrupted")
    set_flag(m, b, "french", "f-hussars-2", "disrupted")
    fire(m, b, "french", "f-hussars-2", "b-rifles-2", (5, 2), 0, "b-rifles-2 disrupted")
    set_flag(m, b, "british", "b-rifles-2", "disrupted")
    m.act("british", type="advance")
    close(m, "british", ["b-guards-1"], ["f-line-3"], -1, (2, 6), "both stay locked")
    m.act("british", type="advance")
    # the CO commands no wing: one move with the centre wing, no roll; the FO rolls 6
    move(m, b, "british", "b-co", 10, 37)
    b.flag("b-co", "activated")
    m.act("british", type="rule_roll", roll="special_move", unit_id="b-fo", **table(6))
    move(m, b, "british", "b-fo", 10, 31)
    m.act("british", type="advance")
    # British activation 2: none; the player stops and the phase passes
    b.unflag("b-guards", "acting")
    at(m, f"{RUN}/activate", "british")
    m.act("british", type="advance")
    b.end_phase()
    at(m, "victory", None)
    b.shown(m)

    # Victory check
    m.act("french", type="score_vp", side="french", points=1, reason="holds the ridge road")
    b.vp["french"] = 1
    m.act("french", type="advance")
    m.act("british", type="advance")
    b.end_turn()
    b.shown(m)

    # ---- turn 2 --------------------------------------------------------------------------
    initiative(m, french=1, british=5)  # 3 against 6: the British go first

    # British Pre-Activation
    move(m, b, "british", "b-fo", 10, 32)  # (a)
    m.act("british", type="advance")
    # (b) b-rifles rolls 3 against QV 4: the unit and its piece leave play
    m.act("british", type="rule_roll", roll="unit_morale", unit_id="b-rifles", **table(3))
    b.casualty("b-rifles", marker="unit_casualty")
    m.act("british", type="advance")
    m.act("british", type="rule_roll", roll="disruption_recovery", unit_id="b-guards-2",
          **table(6))  # (c)
    b.unflag("b-guards-2", "disrupted")
    m.act("british", type="advance")
    m.act("british", type="rule_roll", roll="disengage", unit_id="b-guards-1", **table(3))
    b.unflag("b-guards-1", "corner_locked")  # (d)
    move(m, b, "british", "b-guards-1", 6, 31)
    m.act("british", type="advance")
    move(m, b, "british", "b-guards", 8, 31)  # (e)
    m.act("british", type="advance")
    b.shown(m)

    # British activation: b-guards, one die
    activate(m, b, "british", "b-guards", (5,), "one action")
    m.act("british", type="advance")
    m.act("british", type="set_status", unit_id="b-guards-2", clear=["unloaded"])  # reload
    b.unflag("b-guards-2", "unloaded")
    move(m, b, "british", "b-guards-2", 8, 29)  # into contact with f-line-3
    fire(m, b, "french", "f-hussars-3", "b-guards-2", (3, 4), 0, "no effect")  # opportunity
    m.act("british", type="advance")
    fire(m, b, "british", "b-guards-1", "f-line-1", (6, 2), 0, "f-line-1 destroyed")
    m.act("french", type="remove_unit", unit_id="f-line-1", reason="destroyed")
    b.casualty("f-line-1")
    fire(m, b, "french", "f-line-3", "b-guards-2", (2, 2), 0, "no effect")  # defensive
    m.act("british", type="advance")
    close(m, "british", ["b-guards-2"], ["f-line-3"], 0, (5, 5), "b-guards-2 disrupted")
    set_flag(m, b, "british", "b-guards-2", "disrupted")
    m.act("british", type="advance")
    move(m, b, "british", "b-co", 10, 36)  # a new turn: a new move with the centre wing
    b.flag("b-co", "activated")
    m.act("british", type="rule_roll", roll="special_move", unit_id="b-fo", **table(2))
    move(m, b, "british", "b-fo", 10, 33)
    m.act("british", type="advance")  # no unit left to activate: the phase passes
    b.end_phase()
    at(m, f"{PRE}/a_reposition", "french")
    b.shown(m)

    # French Pre-Activation
    move(m, b, "french", "f-fo", 6, 13)  # (a)
    m.act("french", type="advance")
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-hussars", **table(3))
    m.act("french", type="advance")  # (b) 3 against QV 3: it holds
    m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-hussars-2",
          **table(3))
    b.unflag("f-hussars-2", "disrupted")  # (c)
    m.act("french", type="advance")
    m.act("french", type="rule_roll", roll="disengage", unit_id="f-line-3", **table(4))
    b.unflag("f-line-3", "corner_locked")  # (d)
    move(m, b, "french", "f-line-3", 7, 28)
    m.act("french", type="advance")
    move(m, b, "french", "f-line", 6, 20)  # (e)
    m.act("french", type="advance")
    b.shown(m)

    # French activation 1: f-hussars, one die
    activate(m, b, "french", "f-hussars", (4,), "one action")
    m.act("french", type="advance")
    m.act("french", type="set_status", unit_id="f-hussars-1", clear=["unloaded"])  # reload
    b.unflag("f-hussars-1", "unloaded")
    move(m, b, "french", "f-hussars-1", 7, 30)
    fire(m, b, "british", "b-guards-2", "f-hussars-1", (1, 1), 0, "no effect")  # opportunity
    m.act("french", type="set_status", unit_id="f-hussars-2", clear=["unloaded"])
    b.unflag("f-hussars-2", "unloaded")
    m.act("french", type="advance")
    fire(m, b, "french", "f-hussars-2", "b-guards-2", (6, 1), 1, "b-guards-2 destroyed")
    fire(m, b, "british", "b-guards-3", "f-hussars-2", (2, 3), 0, "no effect")  # defensive
    m.act("british", type="remove_unit", unit_id="b-guards-2", reason="destroyed")
    b.casualty("b-guards-2")
    m.act("french", type="advance")
    close(m, "french", ["f-hussars-1"], ["b-guards-1"], 2, (6, 1), "b-guards-1 destroyed")
    m.act("british", type="remove_unit", unit_id="b-guards-1", reason="destroyed")
    b.casualty("b-guards-1")
    m.act("french", type="advance")
    # the French CO commands the right wing: he rolls its special move (5: three moves)
    m.act("french", type="rule_roll", roll="special_move", unit_id="f-co", **table(5))
    move(m, b, "french", "f-co", 12, 9)
    m.act("french", type="advance")
    # French activation 2: f-line rolls 1 against QV 4: it fails and the phase passes
    b.unflag("f-hussars", "acting")
    activate(m, b, "french", "f-line", (1,), "halted", failed=True)
    m.act("french", type="advance")
    b.end_phase()
    at(m, "victory", None)
    b.shown(m)

    m.act("french", type="score_vp", side="french", points=2, reason="the Guards broken")
    b.vp["french"] = 3
    m.act("british", type="advance")
    m.act("french", type="advance")
    b.end_turn()
    b.shown(m)

    # ---- turn 3, on the service's dice -------------------------------------------------------
    while m.turn["step"] == "initiative":
        if m.turn["expects"][0].startswith(("initiative rolls", "tied")):
            m.act("french", type="roll_initiative")
        else:
            m.act("french", type="advance")
            m.act("british", type="advance")
    for side in m.turn["initiative"]:
        at(m, f"{PRE}/a_reposition", side)
        assert m.turn["expects"] == [f"{side}: (a) Reposition officers (optional), then go on"]
        m.act(side, type="advance")
        assert m.turn["expects"] == ["no morale check is due: go on"]
        m.act(side, type="advance")
        assert m.turn["expects"] == ["no disrupted piece left to roll: go on"]
        m.act(side, type="advance", to=f"{RUN}/activate")
        m.act(side, type="advance")  # no activation: the phase passes
    at(m, "victory", None)
    b.shown(m)
    m.act("french", type="advance")
    m.act("british", type="advance")

    outcome = m.get("")["outcome"]
    assert outcome["winner"] == "french" and "turn 3 of 3" in outcome["reason"]
    assert {f"WC-{n}" for n in range(1, 12)} - {"WC-9", "WC-10"} <= m.rules
    assert {"WC-9", "WC-10"} <= m.rules
    assert_replay_matches(matches, m)
