"""`MatchUseCases`: the use cases that append to one match's log.

Create a match, join a seat, reissue a token, act, undo, answer an undo request, redo,
reveal the dice seed. Each use case is a `make(head, context) -> [events]` run by
`_execute` under the match's lock, against the newest head, and appended with optimistic
concurrency (another process's append makes it reload and decide again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from domain import events as ev
from domain.acting import recorded
from domain.app.matchlog import MatchLog
from domain.app.results import (
    JOIN,
    SPECTATOR,
    ConcurrencyConflict,
    IdempotencyKeyReused,
    Result,
    _Replayed,
    envelopes,
    request_digest,
    seat_ended,
    seat_of,
    token_hash,
)
from domain.authority import check_reissue
from domain.commands import Command, CreateMatch
from domain.decide import (
    REFEREE,
    Context,
    decide_redo,
    decide_undo,
    decide_undo_answer,
)
from domain.dice import commitment
from domain.errors import (
    DomainError,
    InvalidAction,
    MatchOver,
    NotSeated,
    NotYourTurn,
    VersionConflict,
)
from domain.history import (
    IDEMPOTENCY_PREFIX,
    Frame,
    first_frame,
    fold,
)
from domain.integrity import GENESIS, chained, salted
from domain.interchange import UNKNOWN_SEED
from domain.legal import pass_answers
from domain.refusal_words import for_players
from domain.rulefiles.cost import budgeted
from domain.rulesets import get_ruleset
from domain.state import Side

# what callers import from here (domain.app.results holds them)
__all__ = ["JOIN", "SPECTATOR", "ConcurrencyConflict", "IdempotencyKeyReused", "MatchUseCases",
           "Result", "envelopes", "request_digest", "seat_of", "token_hash"]


class MatchUseCases(MatchLog):
    # ---- use cases -------------------------------------------------------------------

    def create_match(self, setup: CreateMatch, *, actor: str = REFEREE,
                     command_id: str | None = None) -> Result:
        ruleset = get_ruleset(setup.ruleset, setup.options, setup.ruleset_hash)
        sides = tuple(Side(id=s.id, name=s.name) for s in setup.sides)
        ruleset.check_setup(len(sides), setup.options, tuple(u.to_unit() for u in setup.units))
        if len({s.id for s in sides}) != len(sides):
            raise InvalidAction("side ids must be distinct", rule="core-sides")
        if {REFEREE, SPECTATOR} & {s.id for s in sides} or any(":" in s.id for s in sides):
            raise InvalidAction("'referee' and 'spectator' are seats, not sides, and a side id "
                                "has no ':'", rule="core-sides")
        roles = setup.options.get("roles")
        if isinstance(roles, dict) and not set(roles.values()) <= {s.id for s in sides}:
            raise InvalidAction("option 'roles' names a side the match does not have",
                                rule="core-sides", allowed=[s.id for s in sides])
        seed, card_seed = self.seed_source(), self.seed_source()  # two secrets, drawn apart
        seats = [REFEREE, SPECTATOR, *(f"{JOIN}{side.id}" for side in sides)]
        tokens = {seat: self.token_source() for seat in seats}
        created = ev.MatchCreated(
            originator_id=uuid4(),
            originator_version=1,
            timestamp=self.clock(),
            actor=actor,
            command_id=command_id or uuid4().hex,
            turn=1,
            ruleset=ruleset.id,
            ruleset_version=ruleset.version,
            ruleset_hash=setup.ruleset_hash,
            scenario=setup.scenario,
            sides=sides,
            casual=setup.casual,
            options=setup.options,
            dice_commitment=commitment(seed),
            dice_seed=seed.hex(),
            token_hashes={seat: token_hash(token) for seat, token in tokens.items()},
            units=tuple(u.to_unit() for u in setup.units),
            decks={side: tuple(cards) for side, cards in setup.decks.items()},
            card_commitment=commitment(card_seed),
            card_seed=card_seed.hex(),
            secrets_committed=True,
        )
        created = chained(salted([created], self.salt_source), GENESIS)[0]
        events: list[ev.Event] = [created]
        if setup.clock is not None:  # the clock starts with the match, in the same save
            events += chained([ev.ClockStarted(
                originator_id=created.originator_id, originator_version=2,
                timestamp=created.timestamp, actor=actor, command_id=created.command_id,
                turn=1, controls=setup.clock, rule="core-clock")], created.hash)
        self.save(*events)
        start = first_frame(created)
        frame = fold(start, events[1:], lambda _: start.state)
        self._remember(created.originator_id, frame)
        return Result(frame, events, tokens=tokens)

    def join(self, match_id: UUID, *, side: str | None, player: str,
             entropy: str | None = None, token: str | None = None) -> Result:
        """`player` takes the seat of `side` (None: the referee's). A side's join token is
        used up: the player gets a seat token of their own (ours: one player per join). A
        join with a join link the referee reissued after the side had joined replaces its
        player: the previous holder's tokens and standing pass end, as in a reissue.
        `entropy`, if given, is mixed into every later server roll (recorded publicly).
        With `token` (the join token, or the referee's), the join happens only while that
        token is live: of racing joins with one join token, exactly one gets the seat."""
        issued = self.token_source()

        def joined(head: Frame, context: Context) -> list[ev.Event]:
            if side is not None and side not in head.state.side_ids():
                raise InvalidAction(f"there is no side '{side}'", rule="core-sides",
                                    allowed=list(head.state.side_ids()))
            stamp = envelopes(head, context)
            events: list[ev.Event] = [ev.SeatJoined(**stamp(), side=side, player=player,
                                                    entropy=entropy)]
            if side is not None:  # the join link is used up; a previous holder is replaced
                events += seat_ended(head, stamp, side, "a new player joined")
                events.append(ev.SeatTokenIssued(**stamp(), seat=side,
                                                 token_hash=token_hash(issued)))
            return events

        result = self._execute(match_id, joined, actor=side or REFEREE, token=token,
                               token_seat=REFEREE if side is None else f"{JOIN}{side}")
        return replace(result, tokens={side: issued} if side is not None else {})

    def reissue(self, match_id: UUID, seat: str, *, actor: str = REFEREE,
                token: str | None = None) -> Result:
        """Revoke every token of `seat` and issue a new one (the referee's remedy for a
        leaked or lost token). The old tokens stop working at once. A side's reissue also
        ends its join link, joined or not (else the old link would join the seat again, with
        a second working token), and its standing pass (its new holder chooses its own);
        the notifier ends the seat's registrations on the new token's issue."""
        issued = self.token_source()

        def reissued(head: Frame, context: Context) -> list[ev.Event]:
            check_reissue(context.actor)
            sides = head.state.side_ids()
            known = {REFEREE, SPECTATOR, *sides, *(f"{JOIN}{s}" for s in sides)}
            if seat not in known:
                raise InvalidAction(f"there is no seat '{seat}'", rule="core-seats",
                                    allowed=sorted(known))
            stamp = envelopes(head, context)
            ended = (seat_ended(head, stamp, seat, "its seat was reissued") if seat in sides
                     else [ev.SeatTokenRevoked(**stamp(), seat=owner, token_hash=hashed)
                           for hashed, owner in head.tokens if owner == seat])
            return [*ended,
                    ev.SeatTokenIssued(**stamp(), seat=seat, token_hash=token_hash(issued))]

        result = self._execute(match_id, reissued, actor=actor, token=token)
        return replace(result, tokens={seat: issued})

    def authenticate(self, match_id: UUID, token: str, *, held: bool = False) -> str | None:
        """The seat a bearer token opens in this match, or None. Compared in constant time
        against every live token's hash. `held`: at the head this process holds, if any
        (for a writer: its append checks the token again at the head it appends after)."""
        head = self._held_head(match_id)[0] if held else self.head(match_id)
        return seat_of(head, token)

    def act(self, match_id: UUID, command: Command, *, actor: str = REFEREE,
            command_id: str | None = None, expected_version: int | None = None,
            idempotency_key: str | None = None, token: str | None = None,
            then: str | None = None) -> Result:
        """Decide and record one action; `then="done"`: and then the seat's Next step, in
        one request (domain.acting.then); and then the dones the sides' standing passes say
        once it is recorded, in the same action (domain.acting.standing)."""
        def decided(head: Frame, context: Context) -> list[ev.Event]:
            state = head.state
            ruleset = get_ruleset(state.ruleset, state.options, state.ruleset_hash)
            return recorded(state, ruleset, context, command, then, pass_answers(ruleset))

        return self._execute(match_id, decided, actor=actor, command_id=command_id,
                             expected_version=expected_version, token=token,
                             idempotency=self._idempotency(
                                 actor, idempotency_key,
                                 command if then is None else f"{command.model_dump_json()}"
                                 f"\0then={then}"))

    def undo(self, match_id: UUID, *, actor: str = REFEREE, to: int | None = None,
             actions: int = 1, command_id: str | None = None,
             expected_version: int | None = None, idempotency_key: str | None = None,
             token: str | None = None) -> Result:
        def undone(head: Frame, context: Context) -> list[ev.Event]:
            consent = not head.state.casual and actor != REFEREE
            return decide_undo(head.state, self._state_at(match_id), context, to=to,
                               actions=actions, pending=head.undo_request,
                               reach=self.undo_reach(match_id, actor, head) if consent else 1)

        return self._execute(match_id, undone, actor=actor, command_id=command_id,
                             expected_version=expected_version, token=token,
                             idempotency=self._idempotency(actor, idempotency_key,
                                                           f"undo:{to}:{actions}"))

    def answer_undo(self, match_id: UUID, *, actor: str, accept: bool, reason: str = "",
                    expected_version: int | None = None, token: str | None = None) -> Result:
        """Accept or decline the pending undo request (another side, or the referee)."""
        def answered(head: Frame, context: Context) -> list[ev.Event]:
            return decide_undo_answer(head.state, head.undo_request, context, accept=accept,
                                      reason=reason)

        return self._execute(match_id, answered, actor=actor, expected_version=expected_version,
                             token=token)

    def redo(self, match_id: UUID, *, actor: str = REFEREE, command_id: str | None = None,
             expected_version: int | None = None, idempotency_key: str | None = None,
             token: str | None = None) -> Result:
        """Reverse the latest undo not yet reversed: by whoever undid (the side whose
        request it made), or the referee."""
        def redone(head: Frame, context: Context) -> list[ev.Event]:
            undone = self._event(match_id, head.redo[-1]) if head.redo else None
            by = (undone.requested_by or undone.actor) if isinstance(
                undone, ev.ActionsUndone) else REFEREE
            return decide_redo(head.state, head.redo, self._state_at(match_id), context,
                               undone_by=by)

        return self._execute(match_id, redone, actor=actor, command_id=command_id,
                             expected_version=expected_version, token=token,
                             idempotency=self._idempotency(actor, idempotency_key, "redo"))

    @staticmethod
    def _idempotency(actor: str, key: str | None,
                     request: Command | str) -> tuple[str, str] | None:
        """(key digest, request digest) for an `Idempotency-Key`, scoped to the seat."""
        if key is None:
            return None
        body = request if isinstance(request, str) else request.model_dump_json()
        return request_digest(f"{actor}\0{key}"), request_digest(body)

    def _execute(self, match_id: UUID, make: Callable[[Frame, Context], list[ev.Event]], *,
                 actor: str, command_id: str | None = None,
                 expected_version: int | None = None,
                 idempotency: tuple[str, str] | None = None,
                 token: str | None = None, token_seat: str | None = None) -> Result:
        """Decide and append under the match's lock, against the newest head; another
        process's append makes it reload and decide again. With `token`, the action
        happens only while that token still opens `token_seat` (default: `actor`), checked
        against the same head the append is conditioned on: a token revoked (or a join
        token used up) before the append acts no more, in any process."""
        command_id = command_id or uuid4().hex
        if idempotency is not None:
            command_id = f"{IDEMPOTENCY_PREFIX}{idempotency[0]}:{idempotency[1]}"
        with self._lock_for(match_id):
            # Optimistic: decide against the head this process holds (no query when it is
            # held); the append is conditioned on its version, so a head another process
            # moved on fails the append (or a check), and only then is it read again.
            head, fresh = self._held_head(match_id)
            for _attempt in range(5):
                try:
                    events = self._decide(match_id, head, make, actor, command_id,
                                          expected_version, idempotency, token, token_seat)
                except _Replayed as replayed:
                    return replayed.result
                except DomainError:
                    if fresh:
                        raise
                    newer, fresh = self.head(match_id), True  # refused on a stale head?
                    if newer.version == head.version:
                        raise
                    head = newer
                    continue
                try:
                    self.save(*events)
                except IntegrityError:
                    self._forget(match_id)  # another process appended: reload and retry
                    head, fresh = self.head(match_id), True
                    continue
                frame = fold(head, events, self._state_at(match_id))
                frame = self._maybe_checkpoint(match_id, frame)
                self._remember(match_id, frame)
                return Result(frame, events)
        raise ConcurrencyConflict("too many concurrent updates; try again",
                                  rule="core-concurrency")

    def _decide(self, match_id: UUID, head: Frame,
                make: Callable[[Frame, Context], list[ev.Event]], actor: str,
                command_id: str, expected_version: int | None,
                idempotency: tuple[str, str] | None, token: str | None,
                token_seat: str | None) -> list[ev.Event]:
        """The checks, in order, then the events `make` decides at `head`, chained."""
        if token is not None and seat_of(head, token) != (token_seat or actor):
            raise NotSeated("this token no longer opens that seat (revoked, or a join "
                            "token already used)", rule="core-seats")
        if idempotency is not None:
            earlier = self._earlier_request(match_id, head, idempotency)
            if earlier is not None:
                raise _Replayed(earlier)
        if expected_version is not None and expected_version != head.version:
            raise VersionConflict(
                f"the match is at version {head.version}, not {expected_version}",
                rule="core-concurrency")
        if actor != REFEREE and actor not in head.state.side_ids():
            raise InvalidAction(f"'{actor}' is neither a side nor the referee",
                                rule="core-seats", allowed=[*head.state.side_ids(), REFEREE])
        context = Context(
            match_id=match_id, version=head.version, actor=actor, command_id=command_id,
            now=self.clock(), dice=self._dice(match_id, head), roll_index=head.server_rolls,
        )
        with budgeted():  # a ruleset file's readings: one budget for the whole action
            try:
                events = make(head, context)
            except DomainError as refused:
                _said_for_players(refused, head)
                raise
        if any(isinstance(e, ev.MatchEnded) for e in events):
            events.append(self._reveal(head, context, len(events)))
        if any(isinstance(e, ev.MatchReopened) for e in events):
            events.append(self._recommit(head, context, len(events)))
        return chained(salted(events, self.salt_source), head.chain_head)

    def _earlier_request(self, match_id: UUID, head: Frame,
                         idempotency: tuple[str, str]) -> Result | None:
        key, body = idempotency
        for known, known_body, first, last in head.requests:
            if known == key:
                if known_body != body:
                    raise IdempotencyKeyReused(
                        "this Idempotency-Key was used for a different request",
                        rule="core-idempotency")
                events = list(self.events_of(match_id, after=first - 1, upto=last))
                return Result(head, events, replayed=True)
        return None

    def _reveal(self, head: Frame, context: Context, after: int, *,
                cards: bool = True) -> ev.DiceSeedRevealed:
        """The current seed, revealed (numbered after the `after` events of this action);
        with `cards` (when the match ends), the card seed too."""
        seed = self._seed(context.match_id, head)
        stamp = envelopes(replace(head, version=head.version + after), context)
        card, card_seed = self._cards(context.match_id, head.seed_version)
        shown = cards and bool(card_seed)  # (an imported match's may not be known)
        return ev.DiceSeedRevealed(**stamp(), seed=seed, dice_commitment=commitment(
            bytes.fromhex(seed)), card_seed=card_seed if shown else None,
            card_commitment=card if shown else None, rule="core-dice")

    def _recommit(self, head: Frame, context: Context, after: int) -> ev.DiceCommitted:
        """Fresh secret dice and card seeds for the rest of a reopened match (the end
        revealed both); a match from before card seeds gets none."""
        fresh = self.seed_source()
        had_cards = self._cards(context.match_id, head.seed_version)[0] is not None
        cards = self.seed_source() if had_cards else None
        stamp = envelopes(replace(head, version=head.version + after), context)
        return ev.DiceCommitted(**stamp(), dice_commitment=commitment(fresh),
                                dice_seed=fresh.hex(),
                                card_commitment=None if cards is None else commitment(cards),
                                card_seed=None if cards is None else cards.hex(),
                                rule="core-dice")

    def reveal_seed(self, match_id: UUID, *, actor: str = REFEREE,
                    token: str | None = None) -> Result:
        """The referee reveals the dice seed so far (to settle a dispute); a fresh secret
        seed is committed for the rest of the match."""
        fresh, fresh_cards = self.seed_source(), self.seed_source()

        def revealed(head: Frame, context: Context) -> list[ev.Event]:
            if actor != REFEREE:
                raise NotYourTurn("only the referee reveals the dice seed", rule="core-dice",
                                  allowed=[REFEREE])
            if head.state.outcome is not None:
                raise MatchOver("the match has ended: its seed is revealed", rule="core-end")
            known = self._seed(match_id, head) != UNKNOWN_SEED  # (an imported match's may not be)
            # the dice seed only: the card seed stays secret until the end
            revealed = [self._reveal(head, context, 0, cards=False)] if known else []
            stamp = envelopes(replace(head, version=head.version + len(revealed)), context)
            card, card_seed = self._cards(match_id, head.seed_version)  # carried on, secret
            if card_seed == UNKNOWN_SEED:  # an imported match's: a fresh one deals again
                card, card_seed = commitment(fresh_cards), fresh_cards.hex()
            return [*revealed, ev.DiceCommitted(**stamp(), dice_commitment=commitment(fresh),
                                                dice_seed=fresh.hex(), card_commitment=card,
                                                card_seed=card_seed, rule="core-dice")]

        return self._execute(match_id, revealed, actor=actor, token=token)


def _said_for_players(refused: DomainError, head: Frame) -> None:
    """The refusal as the table page says it (`domain.refusal_words.for_players`), set as
    its `said` (served beside `detail`, api.problems); the refusal stands if it cannot."""
    state = head.state
    try:
        sequence = get_ruleset(state.ruleset, state.options, state.ruleset_hash).sequence
    except DomainError:
        sequence = None
    refused.said = for_players(refused, state, sequence)
