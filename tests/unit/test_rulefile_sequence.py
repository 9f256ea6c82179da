"""The shipped ruleset file of the WW2 extended sequence (projections/rulefiles/) says what
the Python ruleset says: the same sequence of play (steps, order, titles, rules, who acts,
who moves the marker on, what each step allows and owes), the same sides, tracks and action words;
and a turn walked through both moves the marker the same way."""

from __future__ import annotations

from conftest import Table

from domain.duties import Duty
from domain.rulefiles import RulesetFile, sequence_of
from domain.rulesets import get_ruleset
from domain.rulesets.extended_sequence import WHERE
from domain.rulesets.extended_sequence_steps import sequence_for
from domain.sequence import Phase, SequenceOfPlay, Step, following, start
from projections.rulefile_load import BUILT_IN, check_file


def shipped() -> RulesetFile:
    report = check_file(BUILT_IN / "extended-sequence.yaml")
    assert report.ruleset is not None, report.lines()
    return report.ruleset


def once(node: Step | Phase) -> Step | Phase:
    """The node with each step's allowed actions said once each, in order (the Python
    ruleset's tuples repeat an action that two of its lists share), and its duties with
    the names of their tests left out (each ruleset names its own; what they read is held
    equal by the differential test)."""
    if isinstance(node, Step):
        return node.model_copy(update={"allows": tuple(dict.fromkeys(node.allows)),
                                       "owes": tuple(unnamed(d) for d in node.owes)})
    return node.model_copy(update={"children": tuple(once(c) for c in node.children)})


def unnamed(duty: Duty) -> Duty:
    return duty.model_copy(update={"units": "units" if duty.units else None,
                                   "owed_while": "while" if duty.owed_while else None})


def test_the_file_sequence_is_the_python_ruleset_sequence() -> None:
    python = sequence_for({})  # one player-turn per side: the match without option roles
    data = sequence_of(shipped())
    assert data.steps() == python.steps()
    assert [once(n) for n in data.phases] == [once(n) for n in python.phases]
    for path in python.steps():
        mine, theirs = data.step(path), python.step(path)
        assert (mine.acting, mine.advanced_by, mine.shared, mine.only, mine.optional) == (
            theirs.acting, theirs.advanced_by, theirs.shared, theirs.only, theirs.optional)
        assert list(dict.fromkeys(mine.allows)) == list(dict.fromkeys(theirs.allows))
        assert [unnamed(d) for d in mine.owes] == [unnamed(d) for d in theirs.owes], path


def test_a_turn_moves_the_marker_the_same_way_through_both() -> None:
    python = get_ruleset("extended-sequence", {}).sequence
    data = sequence_of(shipped())
    state = Table(ruleset="extended-sequence").state

    def walk(seq: SequenceOfPlay) -> list[tuple[int, str, str | None]]:
        marker = start(seq, ("red", "blue"))
        seen = []
        for _ in range(40):
            seen.append((marker.turn, marker.step, marker.active_side))
            marker = following(seq, marker, state.model_copy(update={"turn": marker}), {})
        return seen

    walked = walk(data)
    assert walked == walk(python)
    assert ("combat/advance", "blue") in {(step, side) for _, step, side in walked}


def test_the_file_declares_the_python_ruleset_sides_tracks_and_words() -> None:
    file = shipped()
    ruleset = get_ruleset("extended-sequence", {})
    assert file.sides.bounds() == (ruleset.sides.fewest, ruleset.sides.most)
    assert file.sides.rule == ruleset.sides.rule
    assert (file.id, file.title, file.version) == (ruleset.id, ruleset.title, ruleset.version)
    tracks = {name: track.values if track.values is not None
              else range(track.minimum or 0, (track.maximum or 0) + 1)
              for name, track in file.tracks.items()}
    assert tracks == dict(ruleset.tracks)
    assert {name: (action.rule, action.where) for name, action in file.actions.items()
            if action.where} == WHERE
    every_allowed = {a for path in ruleset.sequence.steps()
                     for a in ruleset.sequence.step(path).allows}
    assert every_allowed == set(file.actions)
