"""How `Phone` plays a turn only by tapping what the page offers (`PlaysTurns.play_turn`):
Next step, the step's own actions and their choices, "Pass until I must act", "Done until
something is mine", switching seats on the same device, and a step's action asked again (a tie
rolled again). A mixin of tests/e2e/phone.py's `Phone`, whose page, taps and reads it uses."""

from __future__ import annotations

from typing import Any

EAGER = 4  # the most of a step's own moves a seat takes when `eager`


class PlaysTurns:
    """The turn-playing half of `Phone` (the other half opens, taps, counts and checks)."""

    page: Any
    play: Any
    counted: str

    def play_turn(self, name: str, moves: int = 150, *, eager: bool = False,
                  sides: bool = False, once: bool = False) -> list[str]:
        """Play on to the next turn as this seat, only by tapping what the page offers: Next
        step when it is enabled (`eager`: once each of the step's actions offered to this
        seat has been taken; `sides`: "Pass until I must act" first where the match waits
        for the seat, "Done until something is mine" instead of Next step when offered,
        "Then done with this step" ticked once per seat where offered, and only the sides'
        seats switched to, never the referee's; `once`: as `eager` until each
        seat has taken one optional move of a step's own, then as not), else the first of the
        step's actions (its first choice,
        rolled here, the first value of a choice, a number's least value). Returns what
        was done, in the notices' words. After each action that activates, the unit's card
        no longer offers Activate."""
        start = self.turn()
        self.keyboard_free = True  # (issue 39) a turn is played with no keyboard
        done: list[str] = []
        taken: set[str] = set()
        switches: dict[str | None, int] = {}  # seats switched to, at each version
        seats = self.page.locator("#seat-switch option").count()
        eager_taken: list[str] = []
        optional: set[str] = set()  # (`once`) the seats that took an optional move
        for n in range(moves):
            if self.turn() > start:
                return done
            start_pass = self.page.locator("#pass-until")
            if sides and start_pass.count() and self.waited():
                # "Pass until I must act": once a turn per seat, its done said for it
                # wherever its moves are only optional (domain.acting.standing)
                if "pass" not in taken:  # the first one seen, checked and saved
                    taken.add("pass")
                    self.screen(f"{name}-pass-until")
                self.tap(start_pass, "pass")
                done.append(self.acted())
                if self.page.locator("#passing").count() and "passing" not in taken:
                    taken.add("passing")
                    self.screen(f"{name}-passing")
                continue
            # (`eager`: at most EAGER of a step's own moves per seat: a move the rules let a
            # side make again and again, as Normandy's attacks, is taken that often)
            viewer = self.page.locator('#viewer').inner_text()
            here = f"eager|{self.step()}|{viewer}"
            keen = eager or (once and viewer not in optional)
            chosen = keen and sum(k == here for k in eager_taken) < EAGER and self.choose(
                taken, once=True)
            if chosen:
                eager_taken.append(here)
                if self.counted != "owed":
                    optional.add(viewer)
                    self.optional_taken.append(f"{viewer} @ {self.step()}")
            until = self.page.locator("#done-until")
            if not chosen and sides and until.count() and until.is_enabled():
                if "until" not in taken:  # the first one seen, checked and saved
                    taken.add("until")
                    self.screen(f"{name}-done-until")
                self.tap(until, "next step")
                done.append(self.acted())
                continue
            if not chosen and self.page.locator("#advance").is_enabled():
                self.next_step()
                done.append(f"next step ({self.step()})")
                if n % 4 == 0:
                    self.screen(f"{name}-{self.step().replace('/', '-')}")
                continue
            if not chosen and sides and not self.waited() and self.other_seat(sides=True):
                continue  # a side acts when the match waits for it
            then = self.page.locator("#then-done")
            if not chosen and sides and then.count() and not then.is_checked():
                # once per seat: the move the step waits for, then done, in one tap
                self.tap(self.page.locator("label.then-done"), "then done")
            if not chosen and not self.choose(taken):
                # another seat, unless every seat was tried at this version of the match: each
                # may be offered only what it took already (a tie rolled again, twice)
                version = self.page.locator("#where").get_attribute("data-version")
                switches[version] = switches.get(version, 0) + 1
                if switches[version] <= seats and self.other_seat(sides=sides):
                    continue
                if self._offered_again(taken):  # e.g. tied players roll the initiative again
                    continue
                raise AssertionError("nothing (new) offered and Next step refused: "
                                     + " ".join(self.page.locator("#advance-why").all_inner_texts()))
            counted = self.counted
            detail = self.play.locator(".choice-detail")
            placing = self.page.locator("#board svg.map.placing")
            if placing.count():  # a move: the next tap on the map says where
                self.tap_ground(placing)
            elif detail.count():
                if detail.locator(".picks-quick button").count():
                    self.tap(detail.locator(".picks-quick button").first, counted)
                elif detail.get_by_role("button", name="Roll here").count() and not detail.locator(
                        ".input-form [required]").count():
                    self.tap(detail.get_by_role("button", name="Roll here"), "roll")
                else:
                    form = detail.locator(".input-form").first
                    for pick in form.get_by_role("button", name="Tap the map").all():
                        self.tap(pick, counted)  # then the map's middle, as a player would
                        self.page.locator("#board svg.map").tap()
                    # (issue 39) no keyboard to play: a field that must be typed into fails
                    typed = form.locator("input[type=number][required], input:not([type])"
                                         "[required], input[type=text][required], textarea[required]")
                    assert typed.count() == 0, (
                        "a move needs typing: " + ", ".join(
                            str(f.get_attribute("name")) for f in typed.all()), self.tapped[-3:])
                    for group in form.locator("fieldset.picks:has(input[type=radio][required])").all():
                        self.tap(group.locator("label.pick").first, counted)
                    for group in form.locator("fieldset.picks[data-required]").all():
                        self.tap(group.locator("label.pick").first, counted)
                    self.tap(form.locator("button[type=submit]"), counted)
            said = self.acted()
            done.append(said)
            if counted == "activate":
                for card in self.page.locator("li.unit-card", has_text="activated").all():
                    assert card.get_by_role("button", name="Activate", exact=True).count() == 0
        raise AssertionError(f"turn {start} did not end in {moves} moves: {done[-8:]}")

    def other_seat(self, *, sides: bool = False) -> bool:
        """Switch to the first other seat on this device that has something to do now (an
        action of the step, or Next step; `sides`: a side's seat, never the referee's);
        False when none has."""
        here = self.page.locator("#viewer").inner_text().removeprefix("You: ")
        seats = [s for s in self.page.locator("#seat-switch option").all_inner_texts()
                 if not (sides and s == "Referee") or s == here]
        fallback = None  # (`sides`: a seat the match waits for first)
        for seat in seats[seats.index(here) + 1:] + seats[:seats.index(here)]:
            self.as_seat(seat)
            if self.offered() or self.page.locator("#advance").is_enabled():
                if not sides or self.waited():
                    return True
                fallback = fallback or seat
        self.as_seat(fallback or here)
        return fallback is not None

    def _offered_again(self, taken: set[str]) -> bool:
        """Where Next step is refused and every action offered was taken, the step may ask
        for one of them again (a tie rolled again): forget what this seat took in this step,
        once at each version of the match. False if already done at this version."""
        where = f"{self.step()}|{self.page.locator('#viewer').inner_text()}"
        again = f"again|{where}|{self.page.locator('#where').get_attribute('data-version')}"
        if again in taken:
            return False
        taken.difference_update({key for key in taken if key.startswith(f"{where}|")})
        taken.add(again)
        return True

    def choose(self, taken: set[str], once: bool = False) -> bool:
        """Tap what this seat owes first (You owe: one tap per unit it concerns), else the
        first of Your move's actions (and, in its picker, the first choice) not yet taken in
        this step and seat (`once`: an action is taken with one choice only); False when
        there is none."""
        where = f"{self.step()}|{self.page.locator('#viewer').inner_text()}"
        for owed in self.play.locator("#you-owe button.owed-action").all():
            key = f"{where}|owed|{owed.inner_text()}|{self.page.locator('#where').get_attribute('data-version')}"
            if key not in taken:
                taken.add(key)
                self.counted = "owed"
                self.tap(owed, "owed")
                return True
        for inline in self.play.locator(".moves > .picker").all():  # choices shown at once
            title = str(inline.get_attribute("aria-label"))
            self.counted = "activate" if title.startswith("Activate") else (
                "roll" if "roll" in title.lower() else "act")
            if f"{where}|{title}" in taken:
                continue
            for choice in inline.locator(".picks-grid button").all():
                key = f"{where}|{title}|{choice.inner_text()}"
                if key not in taken:
                    taken.add(key)
                    if once:
                        taken.add(f"{where}|{title}")
                    self.tap(choice, self.counted)
                    return True
        buttons = self.play.locator(".moves > button.big.action")
        for i in range(buttons.count()):
            title = buttons.nth(i).inner_text().strip()
            self.counted = "activate" if title.startswith("Activate") else (
                "roll" if "roll" in title.lower() else "act")
            picker = title.endswith("…")
            if f"{where}|{title}" in taken:
                continue
            if picker:
                self.tap(buttons.nth(i), self.counted)
                for choice in self.play.locator(".picker .picks-grid button").all():
                    key = f"{where}|{title}|{choice.inner_text()}"
                    if key not in taken:
                        taken.add(key)
                        if once:  # one choice of each action in each step is enough
                            taken.add(f"{where}|{title}")
                        self.tap(choice, self.counted)
                        return True
                self.tap(self.play.locator(".picker").get_by_role("button", name="Cancel"), "act")
                buttons = self.play.locator(".moves > button.big.action")
                continue
            taken.add(f"{where}|{title}")
            self.tap(buttons.nth(i), self.counted)
            return True
        return False
