"""The replay files (docs/replay.md) `battlelog verify` is given in place of an export: the
JSON Lines they carry (`battlelog import` reads them through `api.imports`)."""

from __future__ import annotations

from api.replay_read import export_of, is_replay


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
