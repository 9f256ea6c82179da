"""A shared harness for the table page on a 390x844 phone (Playwright, Debian's Chromium).

`Phone` opens a match's table in a phone-sized touch context and polices it: console errors,
page errors and failed requests are recorded (a refusal the test expects is allowed with
`phone.allow(...)`), `tap(name, locator)` asserts the control is at least 44x44 pixels
before tapping it and counts taps per named action (written to
test-artifacts/taps/<test>.json), `screen(name)` checks the screen (no horizontal overflow,
nothing wrong so far) and saves a screenshot. Matches are made through the API with a demo's
own body; each side's seat is joined through the API and held on the same device, so the page
switches seats with "Acting as". How it plays a turn by tapping is its mixin,
`phone_turns.PlaysTurns`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from conftest import ARTIFACTS
from phone_turns import PlaysTurns
from playwright.sync_api import Error as PlaywrightError

PHONE = {"width": 390, "height": 844}
MIN = 44


def new_match(server: str, demo: str, entropy: str = "",
              body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A match of `demo` (its scenario's body, or `body`), with a seat token for every side
    (each joined with `entropy` and its side's id as its dice entropy, if given)."""
    body = body or httpx.get(f"{server}/api/scenarios/{demo}").json()
    made = httpx.post(f"{server}/api/matches", json=body)
    made.raise_for_status()
    answer = made.json()
    tokens = answer["tokens"]
    seats = {"referee": tokens["referee"]}
    for key, join in tokens.items():
        if key.startswith("join:"):
            side = key.removeprefix("join:")
            joined = httpx.post(f"{server}/api/matches/{answer['match_id']}/seats",
                                json={"player": f"Player {side}", **(
                                    {"entropy": f"{entropy} {side}"} if entropy else {})},
                                headers={"Authorization": f"Bearer {join}"})
            joined.raise_for_status()
            seats[side] = joined.json()["token"]
    return {"id": answer["match_id"], "seats": seats}


def phone_at(browser: Any, server: str, shot: Callable[[Any, str], Path], demo: str,
             test: str, seat: str = "referee") -> Phone:
    """A phone at the table of a new match of `demo`, as `seat` (every seat held on it); its
    taps are written under the name `test`."""
    phone = Phone(browser, server, test, shot)
    phone.open(new_match(server, demo), seat)
    return phone


def play_a_whole_turn(phone: Phone, name: str, *, eager: bool = False) -> list[str]:
    """From the first screen (Your move on it) to turn 2, only by tapping what the page
    offers (`Phone.play_turn`); the first and the last screens checked and saved."""
    phone.screen("first-screen")
    assert phone.page.locator("#play").bounding_box()["y"] < PHONE["height"]  # on the first screen
    done = phone.play_turn(name, eager=eager)
    assert phone.turn() == 2, done
    phone.screen("turn-2")
    return done


def assert_no_overflow(page: Any) -> None:
    """Nothing wider than the viewport: no sideways scrolling on a phone."""
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide on a {widths[1]} px screen"


# What the page records of typing: each text field (input of type text or number, or none,
# a textarea) that got an input event, by its label, but a seat's name (the join form's).
TYPED = """
window.__typed = [];
document.addEventListener("input", (event) => {
  const el = event.target;
  if (!el.matches || !el.matches('input:not([type]), input[type=text], input[type=number], textarea')) return;
  const label = (el.labels && el.labels[0] && el.labels[0].textContent) || el.getAttribute('aria-label') || el.name || '';
  if (/your name|seat name|player name/i.test(label) || el.name === 'player') return;
  window.__typed.push(label.trim());
}, true);
"""


def untyped(page: Any) -> None:
    """Fail if a text field was typed into on `page` (a seat's name excepted): every move is
    a choice of taps (issue 39)."""
    typed = page.evaluate("() => window.__typed || []")
    assert typed == [], f"typed into text fields to play: {typed}"


class Phone(PlaysTurns):
    """A phone at a match's table."""

    def __init__(self, browser: Any, server: str, test: str,
                 shot: Callable[[Any, str], Path]) -> None:
        self.server = server
        self.test = test
        self.shot = shot
        self.context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.allowed: list[tuple[int, str]] = []
        self.taps: Counter[str] = Counter()
        self.tapped: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", self._response)
        self.posted = ""  # the last action posted, for a failure's message
        self.page.on("request", lambda r: setattr(self, "posted", r.post_data or "")
                     if r.method == "POST" and r.url.endswith("/actions") else None)
        self.page.on("requestfailed", self._request_failed)
        # (issue 39) no keyboard to play: every text field typed into is recorded (a seat's
        # name excepted), and `screen`/`close` fail on any
        self.context.add_init_script(TYPED)
        self.shots = 0
        self.keyboard_free = False  # (play_turn sets it: a turn is played with no keyboard)
        self.counted = "act"
        self.optional_taken: list[str] = []  # (play_turn `once`) the optional moves taken
        self.match: dict[str, Any] = {}

    def _response(self, response: Any) -> None:
        if response.status < 400:
            return
        url = response.url
        if any(response.status == status and part in url for status, part in self.allowed):
            return
        self.failed.append(f"{response.status} {response.request.method} {url}")

    def _request_failed(self, request: Any) -> None:
        if request.method == "GET" and request.failure == "net::ERR_ABORTED":
            # A read the browser dropped because the page was left (a seat switch closes
            # the live stream and cuts any panel's read under way): not the server's doing.
            # A refusal still counts (a response >= 400), and so does a broken connection.
            return
        self.failed.append(f"failed {request.method} {request.url}: {request.failure}")

    def allow(self, status: int, path: str) -> None:
        """A refusal this test expects (the status and a part of the address)."""
        self.allowed.append((status, path))

    def open(self, match: dict[str, Any], seat: str = "referee") -> None:
        """The table as `seat`; every other seat of the match is held on this device too."""
        self.match = match
        for other, token in match["seats"].items():
            if other != seat:
                self.page.goto(f"{self.server}/play/{match['id']}#seat={token}")
                self.page.wait_for_selector("#turn-marker")
        self.page.goto(f"{self.server}/play/{match['id']}#seat={match['seats'][seat]}")
        self.page.wait_for_selector("#play .step-now")
        self.settle()

    def as_seat(self, name: str) -> None:
        """Switch to the seat named `name` (a side's name, or "Referee")."""
        if name in self.page.locator("#viewer").inner_text():
            return
        select = self.page.get_by_label("Acting as")
        self.check_size(select, "switch seat")
        select.select_option(label=name)
        self.taps["switch seat"] += 1
        self.page.wait_for_function(
            "n => document.querySelector('#viewer').textContent.includes(n)", arg=name)
        self.settle()

    def settle(self) -> None:
        """Wait until the page shows the match's head version with its legal actions."""
        self.page.wait_for_function("""() => {
            const w = document.querySelector('#where'); return w && w.dataset.version
              && document.querySelector('#play .step-now'); }""")
        self.page.wait_for_timeout(50)

    def check_size(self, locator: Any, name: str) -> None:
        box = None
        for tries_left in (2, 1, 0):
            try:  # the page draws a panel again on each update: find the control anew
                locator.scroll_into_view_if_needed()
                box = locator.bounding_box()  # None when drawn anew in between
            except PlaywrightError as error:
                if tries_left == 0 or "not attached" not in str(error):
                    raise
            if box is not None:
                break
        assert box is not None, f"{name}: not shown"
        assert box["width"] >= MIN and box["height"] >= MIN, \
            f"{name}: {box['width']:.0f}x{box['height']:.0f} px, under {MIN}x{MIN}"

    def tap(self, locator: Any, action: str) -> None:
        """Tap a control the page offers (at least 44x44 px), counted under `action`."""
        locator.wait_for(state="visible")
        self.check_size(locator, action)
        # the notice of what this tap does is awaited by its text (it hides itself in 5 s)
        self.page.evaluate("document.querySelector('#notice').textContent = ''")
        locator.tap()
        self.taps[action] += 1
        self.tapped.append(f"{action}: {self.page.locator('#viewer').inner_text()} @ {self.step()}")

    def tap_ground(self, placing: Any) -> None:
        """In placing mode, tap the map where nothing is drawn on it (the table's ground or a
        hex, not a unit's counter, which opens the unit), the point nearest its middle: a
        place a player would choose. Counted as a move."""
        placing.wait_for(state="visible")
        placing.scroll_into_view_if_needed()
        self.page.wait_for_function("() => !document.querySelector('#board')?.matches(':empty')")
        self.page.wait_for_timeout(300)  # (the page scrolls the map into view smoothly)
        point = self.page.evaluate("""() => {
            const svg = document.querySelector('#board svg.map.placing');  // as drawn now
            if (!svg) return null;
            const box = svg.getBoundingClientRect();
            const cx = box.left + box.width / 2, cy = box.top + box.height / 2;
            let best = null;
            for (let dx = -0.45; dx <= 0.45; dx += 0.05) for (let dy = -0.45; dy <= 0.45; dy += 0.05) {
              const x = cx + dx * box.width, y = cy + dy * box.height;
              if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) continue;
              const hit = document.elementFromPoint(x, y);
              if (!hit || !svg.contains(hit) || hit.closest('.unit, [data-unit], .marks g')) continue;
              if (!(hit.matches('rect.ground, .grid *, [data-hex] *, [data-hex]'))) continue;
              const d = dx * dx + dy * dy;
              if (!best || d < best.d) best = { x, y, d };
            }
            return best;
        }""")
        self.page.evaluate("document.querySelector('#notice').textContent = ''")
        if point is None:
            placing.tap()
        else:
            self.page.touchscreen.tap(point["x"], point["y"])
        self.taps["move"] += 1
        self.tapped.append(f"move: {self.page.locator('#viewer').inner_text()} @ {self.step()}")

    def acted(self) -> str:
        """Wait for the success notice of the last action; fail on an error notice."""
        notice = self.page.locator("#notice")
        try:
            self.page.wait_for_function(
                "() => document.querySelector('#notice').textContent !== ''", timeout=15000)
        except Exception as error:  # say what the page showed, not only that it timed out
            raise AssertionError(f"no notice after {self.tapped[-3:]}; Your move said: "
                                 + self.play.inner_text()) from error
        text = str(notice.text_content())
        assert "ok" in (notice.get_attribute("class") or ""), f"{text} after {self.tapped[-3:]}: {self.posted}"
        assert not re.search(r"version \d+|[a-z]+_[a-z]+", text), f"the notice is not in words: {text}"
        self.page.evaluate("document.querySelector('#notice').hidden = true")
        self.settle()
        self.tapped.append(f"  -> {text[:120]}")
        return text

    def screen(self, name: str) -> None:
        """Check this screen (no overflow, no error so far, nothing typed) and save it."""
        assert_no_overflow(self.page)
        if self.keyboard_free:
            untyped(self.page)
        assert self.errors == [], f"console errors: {self.errors}"
        assert self.failed == [], f"failed requests: {self.failed}"
        self.shots += 1
        self.shot(self.page, f"{self.shots:02d}-{name}")

    def version(self) -> int:
        found = self.page.locator("#where").get_attribute("data-version")
        assert found
        return int(found)

    def events(self) -> list[dict[str, Any]]:
        """The match's log so far, as the referee reads it through the API."""
        found: list[dict[str, Any]] = []
        while True:
            read = httpx.get(f"{self.server}/api/matches/{self.match['id']}/events",
                             params={"limit": 500, "after": len(found)}, headers={
                                 "Authorization": f"Bearer {self.match['seats']['referee']}"})
            read.raise_for_status()
            page = list(read.json()["events"])
            found += page
            if len(page) < 500:
                return found

    def player_taps(self) -> int:
        """The taps the players made: all but switching seats (a test holds every seat on
        one phone; at the table each player has their own)."""
        return sum(n for action, n in self.taps.items() if action != "switch seat")

    def close(self) -> None:
        if self.keyboard_free:
            untyped(self.page)
        folder = ARTIFACTS / "taps"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{self.test}.json").write_text(json.dumps(
            {"taps": dict(self.taps), "total": sum(self.taps.values()),
             "players": self.player_taps(), "tapped": self.tapped}, indent=1, sort_keys=True))
        self.context.close()
        assert self.errors == [], f"console errors: {self.errors}"
        assert self.failed == [], f"failed requests: {self.failed}"

    # ---- what the page offers -----------------------------------------------------------

    @property
    def play(self) -> Any:
        return self.page.locator("#play")

    def step(self) -> str:
        return str(self.page.locator("#turn li[aria-current=step]").get_attribute("data-step"))

    def turn(self) -> int:
        found = re.search(r"Turn (\d+)", self.page.locator("#turn-marker").inner_text())
        assert found
        return int(found.group(1))

    def unit_card(self, name: str) -> Any:
        return self.page.locator("li.unit-card", has=self.page.locator(".unit-title strong", has_text=re.compile(f"^{re.escape(name)}$")))

    def next_step(self) -> None:
        button = self.page.locator("#advance")
        assert button.is_enabled(), self.page.locator("#advance-why").all_inner_texts()
        self.tap(button, "next step")
        self.acted()

    def offered(self) -> list[str]:
        """The step's own actions "Your move" offers now (their titles; the step's only
        move's choices may be shown at once, under its title)."""
        moves = self.play.locator(".moves > button.big.action, .moves > .picker")
        return [str(m.get_attribute("aria-label") or m.inner_text()).strip().removesuffix(" …")
                for m in moves.all()]

    def waited(self) -> bool:
        """Whether the match waits for this seat now ("Your move: ..." above the clocks)."""
        return self.page.locator("#whose").inner_text().startswith("Your move")

    def open_action(self, title: str, counted: str = "act") -> None:
        """Tap Your move's action `title`, unless its choices are shown at once (the step's
        first move, with a few choices)."""
        if not self.play.locator(".moves > .picker", has_text=title).count():
            self.tap(self.play.locator(".moves > button.big.action", has_text=title).first,
                     counted)

    def take(self, title: str, choice: str | None = None, counted: str = "act",
             table_dice: list[int] | None = None, fill: dict[str, str] | None = None,
             pick: str | None = None) -> str:
        """Tap the action `title` in Your move, then `choice` in its picker (the first
        when None); then roll here (a roll that needs nothing more is rolled by the first
        tap), or enter `table_dice` as thrown at the table (its "We rolled at the table"
        beside the action, or in the choice's detail), or tap
        the value `pick`, or type `fill` (by label: numbers, words) and send the form."""
        own_dice = self.play.locator(".moves").get_by_role("button", name=re.compile(
            f"{re.escape(title)}.*: we rolled at the table", re.IGNORECASE))
        if table_dice is not None and own_dice.count():  # a roll one tap makes here
            self.tap(own_dice.first, "roll")
        else:
            self.open_action(title, counted)
        picker = self.play.locator(".picker")
        if picker.count():
            buttons = picker.locator(".picks-grid button")
            self.tap(buttons.filter(has_text=choice).first if choice else buttons.first, counted)
        detail = self.play.locator(".choice-detail")
        if detail.count():
            if table_dice is not None:
                if not detail.locator(".table-dice").count():
                    self.tap(detail.get_by_role("button", name="We rolled at the table"), "roll")
                dice = self.play.locator(".table-dice fieldset.faces")  # a row of faces per die
                for i, face in enumerate(table_dice):
                    self.tap(dice.nth(i).locator("label.pick").nth(face - 1), "roll")
                self.tap(self.play.get_by_role("button", name="Record these dice"), "roll")
            elif pick is not None:  # a value's button (a cut's number of cards, a kind...)
                self.tap(detail.locator(".picks-quick").get_by_role("button", name=pick, exact=True),
                         counted)
            elif detail.get_by_role("button", name="Roll here").count():
                self.tap(detail.get_by_role("button", name="Roll here"), "roll")
            else:
                for label, value in (fill or {}).items():
                    detail.get_by_label(label).fill(value)
                self.tap(detail.locator(".input-form button[type=submit]").first, counted)
        return self.acted()
