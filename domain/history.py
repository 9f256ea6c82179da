"""The one definition of effective state (DESIGN.md), as a fold over the log.

The stream e1..en never changes. S(1) is the state after `MatchCreated`; for p > 1:
- S(p) = evolve(S(p-1), e_p) for an ordinary event;
- S(p) = S(k) when e_p is `ActionsUndone(to=k)`;
- S(p) = S(to) when e_p is `ActionsRedone(to, reverses=u)`, `to` being u - 1: the state
  just before the undo it reverses.

A `Frame` is what the fold carries at version p: S(p) plus facts about the log itself that
undo never rewinds (the seats, the server roll counter, the redo stack). Undo needs S(k) for
an earlier k: the caller passes `state_at`, which finds it from the nearest checkpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from domain import events as ev
from domain.evolve import evolve, initial_state
from domain.evolve_cards import dealt_again
from domain.state import MatchState


@dataclass(frozen=True, slots=True)
class UndoRequest:
    """An undo waiting for the other sides' consent."""

    version: int  # of the `UndoRequested`
    to: int
    by: str
    resulting_turn: int
    accepted: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Frame:
    version: int
    state: MatchState
    seats: tuple[tuple[str | None, str], ...] = ()  # (side or None for referee, player)
    server_rolls: int = 0  # server rolls in the log: the next roll index
    redo: tuple[int, ...] = ()  # versions of undos that redo can reverse, latest last
    checkpoint: int = 0  # the version of the latest stored checkpoint at or before this
    tokens: tuple[tuple[str, str], ...] = ()  # (SHA-256 of a live bearer token, its seat)
    # Idempotency keys of recent commands: (key digest, body digest, first and last version)
    requests: tuple[tuple[str, str, int, int], ...] = ()
    chain_head: str = ""  # the hash of the latest event (domain.integrity)
    entropy: tuple[str, ...] = ()  # the players' dice entropy, in the order they joined
    seed_version: int = 1  # the event holding the current dice seed (MatchCreated or later)
    undo_request: UndoRequest | None = None  # lapses with the next game event


IDEMPOTENCY_PREFIX = "idem:"
KEPT_REQUESTS = 1000  # idempotency keys remembered per match (the oldest are forgotten)


def _requests(frame: Frame, event: ev.Event) -> tuple[tuple[str, str, int, int], ...]:
    """Remember which versions an idempotent command (command id `idem:<key>:<body>`) made."""
    command = event.command_id or ""
    if not command.startswith(IDEMPOTENCY_PREFIX):
        return frame.requests
    key, body = command[len(IDEMPOTENCY_PREFIX):].split(":", 1)
    version = event.originator_version
    if frame.requests and frame.requests[-1][0] == key:
        first = frame.requests[-1][2]
        return (*frame.requests[:-1], (key, body, first, version))
    return (*frame.requests, (key, body, version, version))[-KEPT_REQUESTS:]


def first_frame(created: ev.MatchCreated) -> Frame:
    return Frame(version=created.originator_version, state=initial_state(created),
                 tokens=tuple((hashed, seat) for seat, hashed in created.token_hashes.items()),
                 chain_head=created.hash)


def step(frame: Frame, event: ev.Event, state_at: Callable[[int], MatchState]) -> Frame:
    """The frame after `event` (which must be version frame.version + 1)."""
    version = event.originator_version
    requests = _requests(frame, event)
    if requests is not frame.requests:
        frame = replace(frame, requests=requests)
    head = event.hash or frame.chain_head  # the hash chain's head moves with every event
    if isinstance(event, ev.UndoRequested):
        return replace(frame, version=version, chain_head=head,
                       undo_request=UndoRequest(version, event.to, event.actor,
                                                event.resulting_turn))
    if isinstance(event, ev.UndoAccepted) and frame.undo_request is not None:
        request = frame.undo_request
        return replace(frame, version=version, chain_head=head, undo_request=replace(
            request, accepted=(*request.accepted, event.actor)))
    if isinstance(event, ev.UndoDeclined | ev.UndoAccepted):
        return replace(frame, version=version, chain_head=head, undo_request=None)
    if frame.undo_request is not None and not isinstance(event, ev.SEAT_EVENTS):
        frame = replace(frame, undo_request=None)  # the match moved on: the request lapses
    if isinstance(event, ev.DiceCommitted):
        return replace(frame, version=version, chain_head=head, seed_version=version,
                       state=dealt_again(frame.state, event))
    if isinstance(event, (ev.DiceSeedRevealed, ev.DisputeOpened, ev.DisputeRuled,
                          *ev.CLOCK_EVENTS)):
        return replace(frame, version=version, chain_head=head)  # log facts, not game ones
    if isinstance(event, ev.SeatTokenIssued):
        return replace(frame, version=version, chain_head=head,
                       tokens=(*frame.tokens, (event.token_hash, event.seat)))
    if isinstance(event, ev.SeatTokenRevoked):
        return replace(frame, version=version, chain_head=head,
                       tokens=tuple(t for t in frame.tokens if t[0] != event.token_hash))
    if isinstance(event, ev.ActionsUndone):
        return replace(frame, version=version, chain_head=head, state=state_at(event.to),
                       redo=(*frame.redo, version))
    if isinstance(event, ev.ActionsRedone):
        return replace(frame, version=version, chain_head=head, state=state_at(event.to),
                       redo=frame.redo[:-1])
    if isinstance(event, ev.SeatJoined):
        entropy = (*frame.entropy, event.entropy) if event.entropy else frame.entropy
        return replace(frame, version=version, chain_head=head,
                       seats=(*frame.seats, (event.side, event.player)), entropy=entropy)
    rolls = frame.server_rolls
    if getattr(event, "roll_index", None) is not None:  # a server roll or shuffle
        rolls += 1
    return replace(frame, version=version, chain_head=head, state=evolve(frame.state, event),
                   server_rolls=rolls, redo=())


def undo_reach(newest_first: Iterable[ev.Event], seat: str) -> int:
    """The earliest version `seat` may undo to at once: back over its own actions, up to the
    latest barrier (a die roll, cards seen or shown, the seed revealed) or another seat's
    action, which stays. The consent protocol's own events are no barrier, nor are the seat
    facts (links issued or withdrawn, seats taken, disputes, the clock): undo never takes
    them back, so whoever made them (the referee reissuing a link) holds no action here.
    Nor is a done a standing pass said (`by="standing_pass"`, domain.acting.standing): it
    belongs to the action that made it due, and one undo takes both back."""
    for event in newest_first:
        if isinstance(event, ev.UNDO_BARRIERS):
            return event.originator_version
        if isinstance(event, ev.UNDO_PROTOCOL + ev.SEAT_EVENTS):
            continue
        if getattr(event, "by", None) == "standing_pass":
            continue  # a done a side's standing pass said, in the action that made it due
        if event.actor != seat:
            return event.originator_version
    return 1


def effective_events(events: Iterable[ev.Event], after: int | None = None) -> list[ev.Event]:
    """The game events that make up the state after the last of `events` (from
    `MatchCreated`, or those after version `after`, which no undo among them goes back
    before): what was undone, the undo machinery, seats, dice reveals and disputes left
    out. A fork starts from these; an undo takes back those after its target."""
    Node = tuple[Any, ev.Event] | None
    at: dict[int, Node] = {} if after is None else {after: None}
    node: Node = None
    for event in events:
        if isinstance(event, ev.ActionsUndone | ev.ActionsRedone):
            node = at.get(event.to)  # (None: back before `after`)
        elif not isinstance(event, ev.SEAT_EVENTS + ev.UNDO_PROTOCOL):
            node = (node, event)
        at[event.originator_version] = node
    out: list[ev.Event] = []
    while node is not None:
        node, event = node
        out.append(event)
    return out[::-1]


# What a copy of a match renumbers: versions named inside the state (the dice log's, the
# declared table roll's, the base of the latest action). The rest is the game itself.
RENUMBERED = {"dice", "awaiting", "action_base"}


def same_game(copy: MatchState, origin: MatchState) -> bool:
    """Whether `copy` (a fork's state) holds the same game as `origin`: everything equal but
    the versions a fork renumbers (how many rolls, and whether a roll is awaited, still
    count)."""
    return (copy.model_dump(exclude=RENUMBERED) == origin.model_dump(exclude=RENUMBERED)
            and copy.dice.count == origin.dice.count
            and (copy.awaiting is None) == (origin.awaiting is None))


SPARSE = 128  # inside one fold, every SPARSE-th frame is kept, plus the last RECENT ones
RECENT = 128


def fold(frame: Frame, events: Iterable[ev.Event],
         earlier: Callable[[int], MatchState]) -> Frame:
    """Fold `events` onto `frame`; `earlier(k)` gives S(k) for k before `frame.version`.

    Undo targets inside the folded range are served from frames kept in memory (sparse
    plus recent) and, between those, by re-folding the few events from the nearest one.
    """
    start = frame.version
    kept: dict[int, Frame] = {start: frame}  # sparse frames, in version order
    recent: dict[int, Frame] = {}
    log: list[ev.Event] = []

    def state_at(k: int) -> MatchState:
        if k < start:
            return earlier(k)
        hit = recent.get(k) or kept.get(k)
        if hit is not None:
            return hit.state
        base = kept[max(v for v in kept if v <= k)]
        return fold(base, log[base.version - start : k - start], state_at).state

    for event in events:
        frame = step(frame, event, state_at)
        log.append(event)
        if frame.version % SPARSE == 0:
            kept[frame.version] = frame
        recent[frame.version] = frame
        if len(recent) > RECENT:
            del recent[next(iter(recent))]
    return frame


def replay(events: Iterable[ev.Event]) -> Frame:
    """A full replay from `MatchCreated`: the reference the checkpointed path must equal."""
    it = iter(events)
    created = next(it)
    assert isinstance(created, ev.MatchCreated)

    def never(k: int) -> MatchState:
        raise LookupError(k)

    return fold(first_frame(created), it, never)
