"""The docs keep up with the code: every event and every action is documented."""

from __future__ import annotations

from pathlib import Path

from domain.commands import ACTION_TYPES
from domain.events import EVENT_TYPES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_event_catalogue_lists_every_event_type() -> None:
    catalogue = (DOCS / "events.md").read_text()
    missing = [name for name in EVENT_TYPES if f"`{name}`" not in catalogue]
    assert missing == []


def test_api_guide_shows_every_action_type() -> None:
    guide = (DOCS / "api.md").read_text()
    missing = [kind for kind in ACTION_TYPES if f'"{kind}"' not in guide]
    assert missing == []


def test_the_authority_table_covers_every_action_type_in_code_and_in_the_seats_guide() -> None:
    from domain.authority import OWNERS, REFEREE_ONLY

    assert set(OWNERS) | REFEREE_ONLY == set(ACTION_TYPES)
    guide = (DOCS / "seats.md").read_text().split("## Who may do what")[1].split("\n## ")[0]
    assert [kind for kind in ACTION_TYPES if f"`{kind}`" not in guide] == []
