"""`battlelog replay MATCH -o FILE`: the replay file (docs/replay.md) from the store, and
the replay files `battlelog verify` and `battlelog import` are given in place of an export
(the JSON Lines they carry)."""

from __future__ import annotations

import io
from typing import IO, TYPE_CHECKING
from uuid import UUID

from api.replay_page import export_of, is_replay, page

if TYPE_CHECKING:
    from domain.application import Matches


def replay(match: str, db: str | None, path: str, viewpoint: str) -> int:
    from api.cli import from_store
    from domain.authority import check_viewpoint
    from domain.context import REFEREE
    from projections.replay_file import replay_data

    def made(matches: Matches, match_id: UUID) -> list[str]:
        # the store's holder reads as the referee, who may choose any seat's view
        check_viewpoint(REFEREE, viewpoint, matches.head(match_id).state.side_ids())
        return [page(replay_data(matches, match_id, viewpoint))]

    return from_store("replay", match, db, path, made)


def replay_export(path: str) -> str | None:
    """The export a replay file at `path` carries; None when the file is not a replay (it
    is read as an export then). ValueError: a replay without a readable match file."""
    if path == "-":
        return None
    with open(path, "rb") as file:
        if not is_replay(file.read(64)):
            return None
    with open(path, encoding="utf-8", newline="") as file:
        return export_of(file.read())


def export_stream(export: str) -> IO[bytes]:
    return io.BytesIO(export.encode("utf-8"))
