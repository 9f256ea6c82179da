"""One hierarchy of domain errors. Each names the rule it enforces and what is allowed."""

from __future__ import annotations


class DomainError(Exception):
    """A command was refused. `rule` names the rule (e.g. `AA-3`, `core-undo`)."""

    status = 422
    title = "Action refused"

    def __init__(self, detail: str, *, rule: str | None = None, allowed: list[str] | None = None):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.allowed = allowed
        # the refusal as one sentence for the players at the table (domain.refusal_words
        # `for_players`), where the application could say it
        self.said: str | None = None

    @property
    def code(self) -> str:
        return type(self).__name__


class InvalidAction(DomainError):
    """The action is malformed for this match (unknown unit, bad notation, ...)."""

    title = "Invalid action"


class OutOfSequence(DomainError):
    """The action is not allowed in the current step of the sequence of play."""

    title = "Out of sequence"


class NotYourTurn(DomainError):
    """The acting seat may not act in the current step."""

    status = 403
    title = "Not your turn"


class NotSeated(DomainError):
    """The token does not open the seat (any more): revoked, or a join token used up."""

    status = 401
    title = "Not seated"


class UndoRefused(DomainError):
    """The undo or redo is not possible (nothing to undo, crosses a die roll, ...)."""

    status = 409
    title = "Undo refused"


class MatchOver(DomainError):
    """The match has ended; nothing more can happen in it."""

    status = 409
    title = "Match over"


class MatchNotFound(DomainError):
    status = 404
    title = "Match not found"


class VersionNotFound(DomainError):
    """A time-travel point that the match never reached."""

    status = 404
    title = "No such point in the match"


class VersionConflict(DomainError):
    """The match moved on since the version the caller acted on."""

    status = 409
    title = "Version conflict"


class IdTaken(DomainError):
    """A ruleset file names an id another stored first (docs/rulesets/authoring.md), or a
    version of that id stored already as another file."""

    status = 409
    title = "Ruleset id taken"
