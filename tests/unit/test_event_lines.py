"""An export line leaves out its top-level nulls, as canonical JSON does: every event field
that may be None must load when the line leaves it out, or a match holding such an event
(a draw, a move from off the map, the referee's seat) could be exported but not imported."""

from __future__ import annotations

import typing

from domain import events as ev


def test_every_field_that_may_be_none_has_a_default() -> None:
    required = [f"{name}.{field}" for name, cls in sorted(ev.EVENT_TYPES.items())
                for field, info in cls.model_fields.items()
                if type(None) in typing.get_args(info.annotation) and info.is_required()]
    assert required == []
