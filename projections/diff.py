"""What changed between two states of a match (a dispute's first question), and a step
replay: each event with what it changed, forwards or backwards.

The diff covers what every seat may see: units (added, removed from play, changed: each
changed field with its value before and after), markers at locations, tracks, victory
points and the turn marker. Cards stay out (hands and deck order are private).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.app import Matches
from domain.history import fold
from domain.state import MatchState

UNIT_FIELDS_SKIPPED = frozenset({"id"})


def diff(before: MatchState, after: MatchState) -> dict[str, Any]:
    """The changes from `before` to `after`; empty sections are left out."""
    out: dict[str, Any] = {}
    units_before, units_after = before.units, after.units
    added = [u.model_dump(mode="json") for uid, u in units_after.items()
             if uid not in units_before]
    removed = sorted(uid for uid, u in units_after.items() if uid in units_before
                     and u.removed is not None and units_before[uid].removed is None)
    changed = {}
    for uid, unit in units_after.items():
        old = units_before.get(uid)
        if old is None or old == unit:
            continue
        a, b = old.model_dump(mode="json"), unit.model_dump(mode="json")
        fields = {k: {"before": a[k], "after": b[k]} for k in b
                  if a[k] != b[k] and k not in UNIT_FIELDS_SKIPPED}
        if fields:
            changed[uid] = fields
    gone = sorted(uid for uid in units_before if uid not in units_after)  # undone deployments
    if added:
        out["units_added"] = added
    if removed:
        out["units_removed"] = removed
    if gone:
        out["units_gone"] = gone
    if changed:
        out["units_changed"] = changed
    for name, a_map, b_map in (("location_markers", before.location_markers,
                                after.location_markers),
                               ("tracks", before.tracks, after.tracks)):
        keys = sorted(set(a_map) | set(b_map))
        section = {k: {"before": a_map.get(k), "after": b_map.get(k)} for k in keys
                   if a_map.get(k) != b_map.get(k)}
        if section:
            out[name] = section
    vp = {side: {"before": before.vp[side].points if side in before.vp else 0,
                 "after": track.points}
          for side, track in after.vp.items()
          if side not in before.vp or before.vp[side].points != track.points}
    if vp:
        out["vp"] = vp
    if before.turn != after.turn:
        out["turn"] = {"before": before.turn.model_dump(mode="json"),
                       "after": after.turn.model_dump(mode="json")}
    if before.outcome != after.outcome:
        out["outcome"] = {"before": None if before.outcome is None
                          else before.outcome.model_dump(mode="json"),
                          "after": None if after.outcome is None
                          else after.outcome.model_dump(mode="json")}
    if before.dice.count != after.dice.count:
        out["dice_rolls"] = {"before": before.dice.count, "after": after.dice.count}
    return out


MAX_REPLAY_STEPS = 500


def replay_steps(matches: Matches, match_id: UUID, start: int, end: int,
                 viewer: str) -> Iterator[dict[str, Any]]:
    """From version `start` to `end` (either direction, at most MAX_REPLAY_STEPS events):
    each event as `viewer` sees it, with what it changed in the direction of travel."""
    low, high = sorted((start, end))
    frame = matches.frame_at(match_id, low)
    states = {low: frame.state}
    events = list(matches.events_of(match_id, after=low, upto=high))
    earlier = lambda k: states[k] if k in states else matches.state_at(match_id, k)
    for event in events:
        frame = fold(frame, [event], earlier)
        states[frame.version] = frame.state
    if start <= end:
        for event in events:
            yield {"version": event.version, "event": event.public(viewer),
                   "changed": diff(states[event.version - 1], states[event.version])}
        return
    for event in reversed(events):  # stepping back: undo each event's change
        yield {"version": event.version - 1, "event": event.public(viewer),
               "changed": diff(states[event.version], states[event.version - 1])}
