"""A client that plays a match over HTTP knowing only what the service offers (issue 38's
"Done when"): each move it reads whom the match waits for (the board's `waiting`) and what
is owed (`owed`), reads `GET .../legal` for one of the seats waited for, picks a choice
(seeded: the same seed plays the same game) and posts it. It prefers the choices that
discharge what the seat owes, but only among those offered; its Next step when nothing
else is done. It never builds a body of its own: a choice's body, its required inputs
filled from the values the answer lists (or its example), or the answer's Next step.

What it counts, move by move (`Tally`):
- `stuck`: no seat waited for has any choice of the game or Next step offered, and the
  match has not ended;
- `refused`: a body it was offered was refused (4xx), with the seat, body and answer;
- `errors`: a 5xx, with the same (a reading of the board or of `/legal` that is not a 200
  fails the test at once).

Nothing here knows a game: a test gives the match (a `Played`), a seed and a bound on the
moves, and reads the tally and the log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulesets_helpers import Played

# what every step allows and no game needs to go on: never picked
META = frozenset({"add_note", "open_dispute", "end_match", "concede", "reopen_match",
                  "standing_pass", "record_roll"})


@dataclass
class Post:
    """One body posted: by whom, what, and the answer's status and text (cut short)."""

    seat: str
    body: dict[str, Any]
    status: int
    text: str
    step: str = ""


@dataclass
class Tally:
    moves: int = 0
    stuck: list[str] = field(default_factory=list)  # where it stuck, in words
    refused: list[Post] = field(default_factory=list)
    errors: list[Post] = field(default_factory=list)
    ended: bool = False
    chosen: Counter[str] = field(default_factory=Counter)  # action ids posted (advance too)

    def fine(self) -> bool:
        return not (self.stuck or self.refused or self.errors)

    def summary(self) -> str:
        return (f"moves {self.moves}, ended {self.ended}, stuck {self.stuck[:3]}, "
                f"refused {[(p.seat, p.step, p.body, p.status, p.text) for p in self.refused[:3]]}, "
                f"errors {[(p.seat, p.step, p.body, p.status, p.text) for p in self.errors[:3]]}")


def _put(body: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """`body` with `value` at the dotted `name` (`odd_to.wound`, `unit.id`)."""
    out = dict(body)
    head, _, rest = name.partition(".")
    out[head] = _put(dict(out.get(head) or {}), rest, value) if rest else value
    return out


def fill(choice: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The choice's body with each required input filled from what the answer offers: one of
    its listed values (a `choices` input: a list of one of them, as each is accepted alone),
    else its example. None when a required input offers nothing to fill it with."""
    body = dict(choice["body"])
    for given in choice.get("inputs") or ():
        if not given.get("required"):
            continue
        values = [v["value"] for v in given.get("values") or ()]
        if given["kind"] == "choices" and values:  # each value is accepted alone: [value]
            value: Any = [rng.choice(values)]
        elif values:
            value = rng.choice(values)
        elif given.get("example") is not None:
            value = given["example"]
        elif given["kind"] == "number" and given.get("minimum") is not None:
            value = given["minimum"]
        else:
            return None
        body = _put(body, given["name"], value)
    return body


@dataclass
class Offer:
    """A choice offered to a seat: its action's id and type, and its body once filled."""

    seat: str
    action: str
    type: str
    own: bool
    unit_id: str | None
    body: dict[str, Any]


@dataclass
class LegalClient:
    """Plays `m` with seeded choices; `seats`: the seats it may act for (default: all the
    match's sides and the referee)."""

    m: Played
    seed: int
    max_moves: int = 400
    act_chance: float = 0.6  # when nothing is owed, how often a choice beats Next step
    # taken only to discharge what is owed: a player does not take its own unit out of play
    # on a whim (it is offered wherever the rules allow it, as bookkeeping)
    avoid: frozenset[str] = frozenset({"remove_unit"})
    tally: Tally = field(default_factory=Tally)
    # read with each board before a move: True when it posted something itself (the board
    # is read again), as a table turning its standing passes on at each turn
    on_board: Callable[[LegalClient, dict[str, Any]], bool] | None = None
    stop: Callable[[dict[str, Any]], bool] | None = None  # the board it stops at

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.in_step: Counter[tuple[str, str]] = Counter()  # (step, seat) -> moves made there

    # ---- reading ---------------------------------------------------------------------

    def board(self) -> dict[str, Any]:
        return dict(self.m.get("/board"))

    def legal(self, seat: str) -> dict[str, Any]:
        return dict(self.m.get("/legal", seat))

    def offers(self, seat: str, answer: dict[str, Any]) -> list[Offer]:
        out = []
        for action in answer.get("actions") or ():
            if action["type"] in META:
                continue
            for choice in action["choices"]:
                body = fill(choice, self.rng)
                if body is not None:
                    out.append(Offer(seat, action["id"], action["type"], bool(action.get("own")),
                                     choice.get("unit_id") or choice["body"].get("unit_id"),
                                     body))
        return out

    # ---- choosing --------------------------------------------------------------------

    @staticmethod
    def discharging(offers: list[Offer], owed: list[dict[str, Any]]) -> list[Offer]:
        """The offers that discharge something the seat owes: of an action type a duty is
        done by, about a unit it concerns (any, when it names none)."""
        out = []
        for offer in offers:
            for duty in owed:
                units = duty.get("units") or []
                if offer.type in duty.get("done_by", ()) and (
                        not units or offer.unit_id in units):
                    out.append(offer)
                    break
        return out

    def choose(self, seat: str, answer: dict[str, Any], owed: list[dict[str, Any]],
               step: str) -> dict[str, Any] | None:
        offers = self.offers(seat, answer)
        advance = answer.get("advance") or {}
        nexts = advance.get("body") if advance.get("legal") else None
        due = self.discharging(offers, owed)
        if due:
            return self.rng.choice(due).body
        made = self.in_step[(step, seat)]
        chance = self.act_chance / (1 + made / 3)  # more moves made here: Next step likelier
        offers = [o for o in offers if o.type not in self.avoid] or (
            offers if nexts is None else [])  # what it avoids, when it has nothing else
        if offers and (nexts is None or self.rng.random() < chance):
            own = [o for o in offers if o.own]
            pool = own if own and self.rng.random() < 0.8 else offers
            return self.rng.choice(pool).body
        return dict(nexts) if nexts is not None else None

    # ---- playing ---------------------------------------------------------------------

    def post(self, seat: str, body: dict[str, Any], step: str) -> int:
        # (a client made with raise_server_exceptions=False answers the app's errors as 500)
        r = self.m.client.post(f"/api/matches/{self.m.match}/actions", json=body,
                               headers=self.m.auth(seat))
        status, text = r.status_code, r.text[:400]
        post = Post(seat, body, status, text, step)
        if status >= 500:
            self.tally.errors.append(post)
        elif status >= 400:
            self.tally.refused.append(post)
        return status

    def move(self) -> bool:
        """One move; False once the match has ended or stuck."""
        board = self.board()
        if self.on_board is not None and self.on_board(self, board):
            board = self.board()
        waiting = board.get("waiting") or {}
        if waiting.get("ended"):
            self.tally.ended = True
            return False
        if self.stop is not None and self.stop(board):
            return False
        step = f"{board['turn']['turn']}:{board['turn']['step']}"
        seats = list(dict.fromkeys(waiting.get("seats") or ()))
        self.rng.shuffle(seats)
        owed = board.get("owed") or []
        for seat in seats:
            answer = self.legal(seat)
            body = self.choose(seat, answer, [o for o in owed if o["seat"] == seat], step)
            if body is None:
                continue
            self.tally.moves += 1
            self.in_step[(step, seat)] += 1
            key = body["type"] if body["type"] != "rule_roll" else f"rule_roll:{body['roll']}"
            self.tally.chosen[key] += 1
            self.post(seat, body, step)
            return True
        self.tally.stuck.append(f"turn {step}: waiting for {seats}, "
                                f"owed {owed}, nothing offered")
        return False

    def play(self) -> Tally:
        """Moves until the match ends, sticks, `stop` holds, or `max_moves` are made."""
        while self.tally.moves < self.max_moves and self.move():
            pass
        return self.tally


def events(m: Played) -> list[dict[str, Any]]:
    """The whole log, page by page."""
    out: list[dict[str, Any]] = []
    while True:
        page = m.get("/events", after=out[-1]["version"] if out else 0, limit=500)["events"]
        if not page:
            return out
        out += page
