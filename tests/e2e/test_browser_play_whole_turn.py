"""A whole turn of a demo on a 390x844 phone, from the referee's seat (switching to a side's
seat, with Acting as, where only that side may act), only by tapping what the page offers:
each step's own actions (first choice, rolled by the service) and Next step, until the turn
marker reaches turn 2: Wing Command, Normandy and the extended sequence (where each step's own
moves are taken before Next step). After every screen: no sideways overflow, every tapped
control at least 44x44 px, no console error, no failed request.

A turn played in full (issue 38): a whole turn of each of the five demos played from the
sides' seats only (never the referee's), each seat tapping "Pass until I must act" once a
turn where the match waits for it (its done said for it only where it owes nothing and has
nothing to choose), discharging what it owes first (You owe), taking each of the step's own
moves once, and then its own Done with this step ("Done until something is mine" when
offered). The players' taps (all but switching seats: at the table each player has their
own phone) are written to test-artifacts/taps/turn-played-<game>.json beside issue 26's
counts, which were of a pass that skipped the game (see below).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS
from phone import phone_at, play_a_whole_turn

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]


def test_a_whole_turn_of_wing_command(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "wing-command-demo", "play-wing-command")
    play_a_whole_turn(phone, "wing-command")
    phone.close()


def test_a_whole_turn_of_normandy(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "normandy-demo", "play-normandy")
    play_a_whole_turn(phone, "normandy")
    phone.close()


def test_a_whole_turn_of_extended_sequence(browser: Any, server: str, screenshots: Shot) -> None:
    phone = phone_at(browser, server, screenshots, "extended-sequence-demo",
                     "play-extended-sequence")
    done = play_a_whole_turn(phone, "extended-sequence", eager=True)
    # the steps' own moves were taken, not only Next step: the weather tracks set, rolls made
    assert phone.taps["act"] + phone.taps["roll"] >= 3, (phone.taps, done)
    phone.close()


# The counts of issue 26: a turn before it (both sides), and the most its test allowed with
# the standing pass (half of those). (Issue 38) They were met by a pass that said every
# side's done wherever `decide` accepted one: the French never activated, Battlegroup's and
# Atomic Africa's activations ended as their unit was chosen, the extended sequence's turn
# took 2 taps with no weather rolled: they counted a turn not played. The test below plays
# the turn and says its count beside them; it no longer holds the turn to them.
ISSUE_26 = {"atomic-africa": 32, "battlegroup": 30, "wing-command": 47,
            "extended-sequence": 43, "normandy": 70}
ISSUE_26_AT_MOST = {game: n // 2 for game, n in ISSUE_26.items()}
FIRST_SIDE = {"atomic-africa": "red", "battlegroup": "north", "wing-command": "french",
              "extended-sequence": "germans", "normandy": "allied"}
# a step where the first side has a real choice of its own: its pass stops there (issue 38)
CHOICE = {"atomic-africa": "activation/activate", "battlegroup": "activation/activate",
          "wing-command": "phase/activations/activate", "extended-sequence": "initial/weather",
          "normandy": "mutual/weather"}


# (issue 39) the players' taps when issue 38 was done, for the same test: beside this run's
ISSUE_38 = {("declined", "atomic-africa"): 18, ("played", "atomic-africa"): 25,
            ("declined", "battlegroup"): 30, ("played", "battlegroup"): 40,
            ("declined", "wing-command"): 15, ("played", "wing-command"): 41,
            ("declined", "extended-sequence"): 42, ("played", "extended-sequence"): 111,
            ("declined", "normandy"): 47, ("played", "normandy"): 102}

GAMES = [(how, game) for how in ("played", "declined", "full") for game in ISSUE_26]


# (issue 39) `full`: one full turn, every duty discharged and one optional move of its own
# taken by each side that is offered one (its first), the rest declined by its own Done:
# written to test-artifacts/taps/turn-full-<game>.json beside issue 26's counts and the most
# issue 39 asks (half of them). No text field is typed into (phone.py `untyped`).


@pytest.mark.parametrize(("how", "game"), GAMES)
def test_a_whole_turn_played_in_full_from_both_sides_counts_its_taps(
        browser: Any, server: str, screenshots: Shot, game: str, how: str) -> None:
    """Each side's seat taps "Pass until I must act" once, then plays: what it owes first (You
    owe, one tap each), then (`played`) each of the step's own moves once, then its own Done
    with this step (or Done until something is mine) where the pass stops at a choice;
    (`declined`) only what it owes and what a step cannot be left without, each choice the
    pass stops at declined by its own Done: the fewest taps of a turn with every duty
    discharged. Never the referee's seat. The turn must end (every duty discharged: a step
    that owes cannot be left), in `declined` the first side's done with the step where it
    chooses (`CHOICE`) must be its own tap, not its pass's (its pass stopped there), and the count
    is written to test-artifacts/taps/turn-<how>-<game>.json beside issue 26's."""
    phone = phone_at(browser, server, screenshots, f"{game}-demo", f"{how}-{game}",
                     seat=FIRST_SIDE[game])
    phone.screen("first-screen")
    done = phone.play_turn(game, sides=True, eager=how == "played", once=how == "full")
    assert phone.turn() == 2, done
    phone.screen("turn-2")
    events = phone.events()
    passed = [e for e in events if e.get("by") == "standing_pass"]
    left = [(e["type"], e.get("by")) for e in events if e["actor"] == FIRST_SIDE[game]
            and e["type"] in ("SideDone", "PhaseAdvanced")
            and e.get("step", e.get("origin")) == CHOICE[game]]
    if how == "declined":  # (played: the side's move there, then its pass says its done)
        assert ("SideDone", None) in left or ("PhaseAdvanced", None) in left, left
    if how == "full":  # (issue 39) each side took an optional move of its own
        assert len(phone.optional_taken) >= 1, (phone.optional_taken, done)
    taps = phone.player_taps()
    (ARTIFACTS / "taps").mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "taps" / f"turn-{how}-{game}.json").write_text(json.dumps({
        "game": game, "how": how, "taps": taps, "by_kind": dict(phone.taps),
        "passes_said": len(passed),
        "owed_discharged": phone.taps["owed"],
        "issue_26_before": ISSUE_26[game], "issue_26_at_most": ISSUE_26_AT_MOST[game],
        "optional_taken": phone.optional_taken, "typed": 0,
        "issue_38_after": ISSUE_38.get((how, game)),
    }, indent=1, sort_keys=True))
    phone.close()
