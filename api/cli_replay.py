"""`battlelog replay MATCH -o FILE`: the replay file (docs/replay.md) from the store, and
the replay files `battlelog verify` and `battlelog import` are given in place of an export
(the JSON Lines they carry)."""

from __future__ import annotations

import io
import sys
from typing import IO

from eventsourcing.persistence import PersistenceError

from api.replay_page import export_of, is_replay, page


def replay(match: str, db: str | None, path: str, viewpoint: str) -> int:
    from uuid import UUID

    from api.cli import _open_store, _unreadable
    from domain.authority import check_viewpoint
    from domain.context import REFEREE
    from domain.errors import DomainError
    from projections.replay_file import replay_data

    try:
        match_id = UUID(match)
    except ValueError:
        print(f"battlelog replay: '{match}' is not a match id", file=sys.stderr)
        return 1
    opened = _open_store("replay", db, reading=True)
    if opened is None:
        return 2
    matches, where = opened
    try:  # the store's holder reads as the referee, who may choose any seat's view
        check_viewpoint(REFEREE, viewpoint, matches.head(match_id).state.side_ids())
        body = page(replay_data(matches, match_id, viewpoint))
        if path == "-":
            sys.stdout.write(body)
        else:
            with open(path, "w", encoding="utf-8", newline="") as target:
                target.write(body)
    except DomainError as error:
        print(f"battlelog replay: {error.detail}", file=sys.stderr)
        return 1
    except PersistenceError as error:
        print(f"battlelog replay: {_unreadable(where, error)}", file=sys.stderr)
        return 2
    finally:
        matches.close()
    return 0


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
