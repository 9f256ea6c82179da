"""Whether a body is one of the choices a legal answer offers (`offered`): some choice's body
(or its body with table dice) on every field but the choice's inputs, and each input within
what it takes (docs/legal-actions.md). Read by the use cases that check an action against
the answer, and by the tests."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from domain.legal.model import Input, LegalActions
from domain.legal.probe import ACTIONS, COMMANDS

_MISSING = object()


def offered(legal: LegalActions, body: dict[str, Any]) -> bool:
    """Whether `body` is one of the choices offered: some choice's body (or its body with table
    dice) on every field but the choice's inputs, and each input within what it takes."""
    try:
        command = ACTIONS.validate_python(body)
    except ValidationError:
        return False
    kind = command.type
    if kind == "standing_pass":  # the seat's own pass, started or stopped
        mine = legal.standing_pass
        return mine is not None and command.on != mine.on and command.side in (None, legal.seat)
    wanted = _normal(kind, command.model_dump(mode="json", exclude_defaults=True))
    if kind == "advance":
        if "until" in wanted:
            return legal.advance.until is not None and wanted == legal.advance.until.body
        return (legal.advance.legal and wanted.get("to") in (
            None, legal.advance.to, legal.advance.rests)) or any(
            _fits(c.body, c.inputs, wanted) for c in legal.advance.skips)
    for action in legal.actions:
        if action.type != kind:
            continue
        for choice in action.choices:
            if _fits(_normal(kind, choice.body), choice.inputs, wanted):
                return True
            table = choice.table
            if table is not None and _fits(_normal(kind, table.body), (
                    *choice.inputs, Input(name=table.field, label="", kind="dice")), wanted):
                return True
    return False


def _normal(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body without fields at their defaults (as a client may send them or not)."""
    model = COMMANDS[kind]
    out: dict[str, Any] = {"type": kind}
    for name, value in body.items():
        field = model.model_fields.get(name)
        if field is not None and not field.is_required() and value == field.get_default(
                call_default_factory=True):
            continue
        out[name] = value
    return out


def _flat(body: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in body.items():
        if isinstance(value, dict) and value:
            out |= _flat(value, f"{prefix}{name}.")
        else:
            out[f"{prefix}{name}"] = value
    return out


def _fits(base: dict[str, Any], inputs: tuple[Input, ...], body: dict[str, Any]) -> bool:
    def owner(key: str) -> Input | None:
        return next((i for i in inputs if key == i.name or key.startswith(f"{i.name}.")), None)

    fixed, given = _flat(base), _flat(body)
    for key, value in fixed.items():
        if owner(key) is None and given.get(key, _MISSING) != value:
            return False
    for key, value in given.items():
        if key in fixed and owner(key) is None:
            continue
        found = owner(key)
        if found is None or not _within(found, key, value):
            return False
    return True


def _within(given: Input, key: str, value: Any) -> bool:
    if key != given.name:
        return True  # inside an object the input leaves free
    if given.values is not None and not given.open:
        allowed = [o.value for o in given.values]
        items = value if given.kind == "choices" and isinstance(value, list) else [value]
        if not all(item in allowed for item in items):
            return False
    if given.kind == "number" and isinstance(value, int):
        low = given.minimum if given.minimum is not None else value
        high = given.maximum if given.maximum is not None else value
        return low <= value <= high
    return True
