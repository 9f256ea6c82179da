"""A checked ruleset file compiled into the `Ruleset` the referee plays
(domain.rulefiles.compile), its content hash (domain.rulefiles.identity), and the registry
through which `get_ruleset` learns it (domain.rulesets.registry)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.errors import InvalidAction
from domain.rulefiles import RulesetFile
from domain.rulefiles.compile import compile_file, unplayable
from domain.rulefiles.identity import file_hash, is_file_hash
from domain.rulesets import get_ruleset, registry
from domain.rulesets.extended_sequence import extended_sequence
from projections.rulefile_load import BUILT_IN, check_file, check_text

FIXTURES = Path(__file__).parents[1] / "fixtures" / "rulefiles"


def loaded(path: Path) -> RulesetFile:
    report = check_file(path)
    assert report.ok and report.ruleset is not None, report.lines()
    return report.ruleset


@pytest.fixture(autouse=True)
def fresh_registry() -> Iterator[None]:
    registry.forget()
    yield
    registry.forget()


def test_a_file_compiles_to_its_id_title_sides_sequence_tracks_and_words() -> None:
    ruleset = compile_file(loaded(FIXTURES / "patrol.yaml"))
    assert (ruleset.id, ruleset.version, ruleset.title) == ("patrol", 1, "Patrol")
    assert ruleset.sequence.steps() == ["light", "turn/move", "turn/fire"]
    assert ruleset.sequence.step("turn/move").acting == "active"
    assert (ruleset.sides.fewest, ruleset.sides.most) == (2, 2)
    assert ruleset.tracks == {"light": ("day", "dusk", "night")}
    assert ruleset.track_titles == {"light": "Light"}
    assert ruleset.where == {"set_track": ("PA-1", "the light changes at the start of the turn")}
    with pytest.raises(InvalidAction, match="takes one of: day, dusk, night"):
        ruleset.check_track("light", "noon")


def test_a_numbered_track_takes_its_whole_range() -> None:
    file = loaded(FIXTURES / "patrol.yaml").model_copy(deep=True)
    data = {**json.loads(file.model_dump_json(exclude_unset=True)),
            "tracks": {"turns": {"minimum": 1, "maximum": 6}}}
    ruleset = compile_file(RulesetFile.model_validate(data))
    assert ruleset.tracks == {"turns": range(1, 7)}


def test_the_shipped_extended_sequence_compiles_to_the_python_rulesets_words() -> None:
    ruleset = compile_file(loaded(BUILT_IN / "extended-sequence.yaml"))
    python = extended_sequence({})
    assert ruleset.sequence.steps() == python.sequence.steps()  # (step by step: test_rulefile_sequence)
    assert (ruleset.id, ruleset.title, ruleset.sides) == (python.id, python.title, python.sides)
    assert dict(ruleset.tracks) == dict(python.tracks)
    assert dict(ruleset.where) == dict(python.where)


def test_a_named_procedure_no_code_answers_makes_the_file_unplayable() -> None:
    file = loaded(FIXTURES / "unplayable.yaml")  # the small game, its condition a procedure
    [problem] = unplayable(file, compile_file(file))
    assert (problem.check, problem.path) == ("unknown-procedure",
                                             ("conditions", "all_moved", "procedure"))
    assert "skirmish.all_moved" in problem.message
    assert unplayable(loaded(FIXTURES / "patrol.yaml"),
                      compile_file(loaded(FIXTURES / "patrol.yaml"))) == []
    skirmish = loaded(FIXTURES / "skirmish.yaml")  # its condition written as an expression
    assert unplayable(skirmish, compile_file(skirmish)) == []


def test_the_hash_is_of_what_the_file_says_not_of_its_layout() -> None:
    text = (FIXTURES / "patrol.yaml").read_text()
    data = check_text(text, "patrol").data
    as_json = check_text(json.dumps(dict(reversed(list(data.items()))), indent=2), "j").data
    without_comments = "\n".join(line for line in text.splitlines()
                                 if not line.startswith("#"))
    assert file_hash(data) == file_hash(as_json) == file_hash(
        check_text(without_comments, "c").data)
    assert is_file_hash(file_hash(data))
    edited = check_text(text.replace("title: Fire", "title: Shoot"), "e").data
    assert file_hash(edited) != file_hash(data)


def test_get_ruleset_finds_a_file_by_hash_only_once_registered_or_from_a_source() -> None:
    ruleset = compile_file(loaded(FIXTURES / "patrol.yaml"))
    pinned = "sha256:" + "1" * 64
    with pytest.raises(InvalidAction, match="not loaded on this server"):
        get_ruleset("patrol", {}, pinned)
    asked: list[str] = []

    def source(content_hash: str) -> object:
        asked.append(content_hash)
        return ruleset if content_hash == pinned else None

    registry.add_source(source)  # type: ignore[arg-type]
    assert get_ruleset("patrol", {}, pinned) is ruleset
    assert get_ruleset("patrol", {}, pinned) is ruleset
    assert asked == [pinned]  # kept once found
    assert get_ruleset("freeform").id == "freeform"  # a built-in needs no hash
