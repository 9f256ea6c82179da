"""What a replay file carries (docs/replay.md): for one viewpoint, the match's export (the
same JSON Lines `GET .../export` gives that seat, byte for byte: the file checks its hash
chain and dice in the browser, and `battlelog import`/`verify` read it back), the board at
version 1 as that seat's board view, and for every later version the change to that view
(an RFC 6902 JSON Patch) with the event's sentence, kind and seat, and the turn and step of
the sequence of play the board shows after it (the page finds its way by turn and step
without applying every change first); and the annotations that seat sees (its chapters are
the file's table of contents).

Everything here is what the seat's own reads give it (`board_view` with the viewer,
`Narrator` with the viewer, `export_lines` and `Matches.annotations` with the viewer): a
file holds no more than
its seat may see."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import jsonpatch  # type: ignore[import-untyped]  # it ships no type hints
import orjson

from domain.app import Matches
from domain.history import fold
from projections.export import export_lines
from projections.sentences import Narrator
from projections.views import board_view, side_views

CHUNK = 1000


def replay_data(matches: Matches, match_id: UUID, viewer: str) -> dict[str, Any]:
    """The replay of a match as `viewer` sees it, up to its head now."""
    export = "".join(export_lines(matches, match_id, viewer))
    # the head the export ends in (it was read first: a later event is not in the file)
    last = int(orjson.loads(export[:export.index("\n")])["events"])
    head = matches.frame_at(match_id, last)
    frame = matches.frame_at(match_id, 1)

    def lookup(since: int, upto: int) -> list[Any]:
        return list(matches.events_of(match_id, after=since, upto=min(upto, last),
                                      limit=max(1, upto - since)))

    narrator = Narrator.of_state(head.state, viewer, lookup)
    first = board_view(frame.state, viewer, frame.undo_request).model_dump(mode="json")
    before = first
    steps: list[dict[str, Any]] = []
    for event in _events(matches, match_id, last):
        narrator.see(event)
        if event.version > 1:
            # an undo goes back to an earlier state: read from the nearest checkpoint, so
            # that no version's state is held beyond its own step
            frame = fold(frame, [event], lambda k: matches.state_at(match_id, k))
            now = board_view(frame.state, viewer, frame.undo_request).model_dump(mode="json")
            change: list[dict[str, Any]] = jsonpatch.make_patch(before, now).patch
            before = now
        else:
            change = []
        steps.append({"v": event.version, "type": event.type_name(), "actor": event.actor,
                      "said": narrator.sentence(event), "turn": before["turn"]["turn"],
                      "step": before["turn"]["step"], "patch": change})
    return {"format": "battlelog-replay", "format_version": 1, "match_id": str(match_id),
            "viewer": viewer, "scenario": head.state.scenario,
            "sides": [s.model_dump(mode="json") for s in side_views(head.state)],
            "head": last, "chain_head": head.chain_head, "board": first, "steps": steps,
            "annotations": [a.public() for a in matches.annotations(match_id, viewer)
                            if a.at_version <= last],
            "export": export}


def _events(matches: Matches, match_id: UUID, last: int) -> Iterator[Any]:
    after = 0
    while after < last:
        chunk = list(matches.events_of(match_id, after=after, upto=last, limit=CHUNK))
        if not chunk:
            return
        yield from chunk
        after = chunk[-1].version
