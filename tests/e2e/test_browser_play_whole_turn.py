"""A whole turn of a demo on a 390x844 phone, from the referee's seat (switching to a side's
seat, with Acting as, where only that side may act), only by tapping what the page offers:
each step's own actions (first choice, rolled by the service) and Next step, until the turn
marker reaches turn 2: Wing Command, Normandy and the extended sequence (where each step's own
moves are taken before Next step). After every screen: no sideways overflow, every tapped
control at least 44x44 px, no console error, no failed request.

Fewer taps (issue 26): a whole turn of each of the five demos played from the sides' seats
only (never the referee's), each seat taking the step's first action when the step waits for
it, else "Done until something is mine" when offered, else Next step. The players' taps (all
but switching seats: at the table each player has their own phone) are at most half of what
the issue counted for a turn: Atomic Africa 32, Battlegroup 30, Wing Command 47, Extended
sequence 43, Normandy 70.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
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


# the counts of a turn, both sides, halved (rounded down)
AT_MOST = {"atomic-africa": 32 // 2, "battlegroup": 30 // 2, "wing-command": 47 // 2,
           "extended-sequence": 43 // 2, "normandy": 70 // 2}
FIRST_SIDE = {"atomic-africa": "red", "battlegroup": "north", "wing-command": "french",
              "extended-sequence": "germans", "normandy": "allied"}


# Not yet at half (issue 26, open): the taps this test counted on the branch that brought
# "Done until something is mine" (on main before it: atomic-africa 28, battlegroup 31,
# extended-sequence 34, wing-command 33, normandy 65). Each side still says it is done with
# each shared step where it has a move of its own (ES's reinforcements, artillery and
# rallies; BG's cards, special rules and Round Up with cards in hand, for three sides), and
# AA's and BG's cards are shuffled, cut and drawn before it. Strict: the test fails as soon
# as one of them reaches half, to take its mark off.
NOT_YET = {"atomic-africa": 19, "battlegroup": 25, "extended-sequence": 24}
# Wing Command's count goes with the dice (each roll the rules ask for is two taps, the
# action and Roll here, and a failed morale check leaves one recovery roll fewer): 20 to 24
# here, around its half (23). Not strict, as either may happen; still open.
BY_THE_DICE = {"wing-command": "20 to 24"}


def _marked(game: str) -> Any:
    if game in NOT_YET:
        return pytest.param(game, marks=pytest.mark.xfail(strict=True, reason=(
            f"{NOT_YET[game]} taps on this branch, more than {AT_MOST[game]}: not yet half")))
    if game in BY_THE_DICE:
        return pytest.param(game, marks=pytest.mark.xfail(strict=False, reason=(
            f"{BY_THE_DICE[game]} taps by the dice, half is {AT_MOST[game]}")))
    return game


@pytest.mark.parametrize("game", [_marked(game) for game in AT_MOST])
def test_a_whole_turn_from_both_sides_takes_at_most_half_the_taps(
        browser: Any, server: str, screenshots: Shot, game: str) -> None:
    phone = phone_at(browser, server, screenshots, f"{game}-demo", f"sides-{game}",
                     seat=FIRST_SIDE[game])
    phone.screen("first-screen")
    done = phone.play_turn(game, sides=True)
    assert phone.turn() == 2, done
    phone.screen("turn-2")
    taps = phone.player_taps()
    phone.close()
    said = f"{taps} taps for a turn of {game}, more than {AT_MOST[game]}: {dict(phone.taps)}"
    assert taps <= AT_MOST[game], (said, phone.tapped)
