"""The registrations' side of the notifications' tables (`projections.notify_store` holds
the rest): reading them, confirming one with its code, dropping those left unconfirmed,
ending those of a seat whose token was reissued, and the address each match was created
from (for the budgets of `projections.notify_outbox`).

A registration starts `pending`: it is sent its confirmation message and nothing else.
Its owner confirms it with the code of that message; wrong codes are counted, and the
registration is dropped at the last allowed one. Only confirmed registrations are told
of handoffs (`projections.notify_outbox`). Each registration records its holder (the hash of the
seat token that made it): a seat's list shows it only the registrations of its current
holder, and a reissue of a seat's token ends that seat's registrations and those its old
token made (`end_sql`)."""

from __future__ import annotations

import hashlib
from typing import Any

from domain import events as ev
from domain.context import REFEREE
from projections.notify_store import (
    ATTEMPTS,
    CONFIRMED,
    CREATORS,
    OUTBOX,
    REG,
    REG_COLUMNS,
    Registration,
    Sql,
)


def reissued(event: ev.Event) -> tuple[str, str] | None:
    """The seat whose registrations made up to `event` end, and the token whose own
    registrations end, if `event` ends any: a token revoked (by a reissue, or a join link
    used up: no registration holds one), or a seat's token issued by the referee's reissue
    (a join's is issued by the side that joins), which ends the seat's registrations made
    before, joined or not (a side nobody joined revokes no token of its own) and none of
    the new token's."""
    if isinstance(event, ev.SeatTokenRevoked):
        return event.seat, event.token_hash
    if isinstance(event, ev.SeatTokenIssued) and event.actor == REFEREE:
        return event.seat, ""
    return None


def code_hash(code: str) -> str:
    """What is kept of a confirmation code: its SHA-256 (the code itself is in the
    confirmation message only)."""
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


class RegistrationsSQL:
    P: str

    def _fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def _execute(self, sqls: list[Sql]) -> None:
        raise NotImplementedError

    def _returning(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """Run one writing statement with RETURNING in a transaction of its own."""
        raise NotImplementedError

    def _regs(self, where: str, params: tuple[Any, ...]) -> list[Registration]:
        rows = self._fetch(f"SELECT {', '.join(REG_COLUMNS)} FROM {REG} WHERE {where} "
                           "ORDER BY created", params)
        return [Registration(*(r[c] for c in REG_COLUMNS)) for r in rows]

    def registrations(self, match_id: str, seat: str | None = None,
                      holder: str | None = None) -> list[Registration]:
        """The registrations of a match (of one `seat`; made by one `holder`)."""
        p = self.P
        where, params = f"match_id = {p}", [match_id]
        for column, value in (("seat", seat), ("holder", holder)):
            if value is not None:
                where, params = f"{where} AND {column} = {p}", [*params, value]
        return self._regs(where, tuple(params))

    def registration(self, registration_id: str) -> Registration | None:
        found = self._regs(f"registration_id = {self.P}", (registration_id,))
        return found[0] if found else None

    def registered_matches(self) -> set[str]:
        """The matches that have a registration, confirmed or not: the only ones whose
        events the outbox reads."""
        return {r["match_id"] for r in self._fetch(f"SELECT DISTINCT match_id FROM {REG}")}

    def registrations_in(self, match_ids: list[str]) -> dict[str, list[Registration]]:
        """The registrations of these matches, confirmed or not, by match (matches with
        none left out): the outbox follows these matches, tells the confirmed ones and ends
        those of a reissued seat."""
        if not match_ids:
            return {}
        marks = ", ".join([self.P] * len(match_ids))
        out: dict[str, list[Registration]] = {}
        for reg in self._regs(f"match_id IN ({marks})", tuple(match_ids)):
            out.setdefault(reg.match_id, []).append(reg)
        return out

    def _forget(self, where: str, params: tuple[Any, ...]) -> list[Sql]:
        """Delete the registrations `where` says, what they had left to send and their
        attempts."""
        chosen = f"SELECT registration_id FROM {REG} WHERE {where}"
        return [((f"DELETE FROM {OUTBOX} WHERE status = 'pending' AND registration_id IN "
                  f"({chosen})"), params),
                (f"DELETE FROM {ATTEMPTS} WHERE registration_id IN ({chosen})", params),
                (f"DELETE FROM {REG} WHERE {where}", params)]

    def delete_registration(self, registration_id: str) -> None:
        """The registration, what it had left to send and its attempts."""
        self._execute(self._forget(f"registration_id = {self.P}", (registration_id,)))

    def confirm(self, registration_id: str, code: str, now: float, expired: float,
                most_tries: int) -> str:
        """Confirm a registration with `code` (and drop its confirmation message if it is
        still unsent): `confirmed` (also when it already was),
        `wrong` (one try used), `exhausted` (the last allowed try was wrong: the
        registration is dropped) or `missing` (none, or unconfirmed since before
        `expired`)."""
        p = self.P
        alive = f"(status = '{CONFIRMED}' OR created > {p})"
        if self._returning(
                f"UPDATE {REG} SET status = '{CONFIRMED}', confirmed = COALESCE(confirmed, {p})"
                f" WHERE registration_id = {p} AND code_hash = {p} AND tries < {p} AND {alive}"
                " RETURNING registration_id",
                (now, registration_id, code_hash(code), most_tries, expired)):
            # its confirmation message, if still unsent, has nothing left to say
            self._execute([((f"DELETE FROM {OUTBOX} WHERE registration_id = {p} AND "
                             "reminder < 0 AND status = 'pending'"), (registration_id,))])
            return "confirmed"
        counted = self._returning(
            f"UPDATE {REG} SET tries = tries + 1 WHERE registration_id = {p} AND status = "
            f"'pending' AND created > {p} RETURNING tries", (registration_id, expired))
        if not counted:
            reg = self.registration(registration_id)
            return "wrong" if reg is not None and reg.status == CONFIRMED else "missing"
        if int(counted[0]["tries"]) >= most_tries:
            self.delete_registration(registration_id)
            return "exhausted"
        return "wrong"

    def drop_unconfirmed(self, before: float) -> None:
        """Drop the registrations still unconfirmed that were made before `before`."""
        self._execute(self._forget(f"status = 'pending' AND created < {self.P}", (before,)))

    def end_sql(self, match_id: str, seat: str, token_hash: str, at: float) -> list[Sql]:
        """End the registrations of `seat` in the match made up to `at` (when its token
        `token_hash` was revoked by a reissue) and those made with that token."""
        p = self.P
        return self._forget(f"match_id = {p} AND ((seat = {p} AND created <= {p}) OR "
                            f"holder = {p})", (match_id, seat, at, token_hash))

    def set_creator(self, match_id: str, creator: str) -> None:
        """Record the address `match_id` was created from (once)."""
        p = self.P
        self._execute([((f"INSERT INTO {CREATORS} (match_id, creator) VALUES ({p}, {p}) "
                         "ON CONFLICT (match_id) DO NOTHING"), (match_id, creator))])

    def creators(self, match_ids: list[str]) -> dict[str, str]:
        """The address each of these matches was created from (those recorded)."""
        if not match_ids:
            return {}
        marks = ", ".join([self.P] * len(match_ids))
        rows = self._fetch(f"SELECT match_id, creator FROM {CREATORS} WHERE match_id IN "
                           f"({marks})", tuple(match_ids))
        return {r["match_id"]: r["creator"] for r in rows}
