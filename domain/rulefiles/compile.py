"""A checked ruleset file as the `Ruleset` the referee plays (domain.rulesets.base): its id,
version and title, its sequence of play, its sides, its tracks and their titles, its
actions' words and the titles of what it names (`FileRuleset.titles`), and what
`behaviour(file)` builds from its conditions, guards and rolls. Pure: the same file gives the same ruleset.

`unplayable(file, ruleset)` lists what the file names that this battlelog cannot referee
(a named procedure no code answers): such a file checks, but no match can be created
from it, so the service refuses to store it."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.after_action import reactions
from domain.rulefiles.behaviour import behaviour, merged
from domain.rulefiles.fits import declared_check, fits
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.model_pieces import Track
from domain.rulefiles.problems import Problem
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.titles import FileRuleset, titles_of
from domain.rulefiles.view import Declared
from domain.rulesets.base import Ruleset, Sides, TrackValues
from domain.sequence import current_roles


def compile_file(file: RulesetFile, *, declared_in_play: bool = True) -> Ruleset:
    """The ruleset a checked file declares: a match's set-up must fit the file (`fits`), and
    with `declared_in_play` so must the markers, statuses and units a command brings in."""
    low, high = file.sides.bounds()
    fields = {
        "id": file.id, "version": file.version, "title": file.title,
        "sequence": sequence_of(file),
        "sides": Sides(fewest=low, most=high, rule=file.sides.rule),
        "tracks": {name: _values(track) for name, track in file.tracks.items()},
        "track_titles": {name: track.title for name, track in file.tracks.items()
                         if track.title},
        "where": {name: (action.rule or "core-sequence", action.where)
                  for name, action in file.actions.items() if action.where},
    }
    built = merged(behaviour(file), _after_action(file))
    served = tuple(die.rule for action in file.actions.values() if action.does
                   for die in action.does.dice if die.rule)
    if served:  # a die's own rule is the service's, as a roll's is
        built["rolled_by_service"] = (*built.get("rolled_by_service", ()), *served)
    check = declared_check(file) if declared_in_play else None
    if check is not None:  # the core's refusal before the file's own guards
        built["checks"] = (check, *built.get("checks", ()))
    if declared_in_play:
        fields |= {"marker_kinds": tuple(file.marker_kinds), "statuses": tuple(file.statuses)}
    return FileRuleset(**{**fields, **built, "fits": fits(file)}, titles=titles_of(file))


def _after_action(file: RulesetFile) -> dict[str, Any]:
    """The `react` hook of the file's `after_action` (roles read from its sequence)."""
    sequence = sequence_of(file)
    tracks = {name: tuple(_values(track)) for name, track in file.tracks.items()}
    return reactions(file.after_action, tracks, Declared.of(file.model_dump(mode="json")),
                     lambda state: current_roles(sequence, state))


def _values(track: Track) -> TrackValues:
    if track.values is not None:
        return tuple(track.values)
    assert track.minimum is not None and track.maximum is not None  # the model's check
    return range(track.minimum, track.maximum + 1)


def unplayable(file: RulesetFile, ruleset: Ruleset) -> list[Problem]:
    """Each named procedure of the file that the ruleset has no code for (check
    `unknown-procedure`), at the procedure's place in the file."""
    found = [Problem("unknown-procedure", ("conditions", name, "procedure"),
                     f"condition '{name}' names the procedure '{condition.procedure}', which "
                     "this battlelog does not have: a match cannot be played from the file")
             for name, condition in file.conditions.items() if name not in ruleset.conditions]
    found += [Problem("unknown-procedure", ("actions", name, "procedure"),
                      f"action '{name}' names the procedure '{action.procedure}', which this "
                      "battlelog does not have: a match cannot be played from the file")
              for name, action in file.actions.items()
              if action.procedure is not None and name not in ruleset.actions]
    return found
