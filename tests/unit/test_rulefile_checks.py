"""A ruleset file's checks (domain.rulefiles, read by projections.rulefile_load): each
defective file under tests/fixtures/rulefiles/defective/ (one defect each, its header saying
which check must find it and on which line) is refused by that check at that line, and by
no other; several defects are all said at once; hostile files are refused by the loader's
caps before they cost anything."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rulefile_forms import FIXTURES, SKIRMISH, billion_laughs

from domain.rulefiles.problems import SUGGESTED
from projections import rulefile_load
from projections.rulefile_load import (
    BUILT_IN,
    LISTED,
    MAX_BYTES,
    MAX_DEPTH,
    check_file,
    check_text,
)

DEFECTIVE = sorted((FIXTURES / "defective").glob("*.yaml"))
EXPECT = re.compile(r"^# expect: ([a-z0-9-]+) at line (\d+)$", re.MULTILINE)


def test_there_are_at_least_twenty_defective_files_each_naming_its_defect() -> None:
    assert len(DEFECTIVE) >= 20
    assert all(EXPECT.search(path.read_text()) for path in DEFECTIVE)


@pytest.mark.parametrize("path", DEFECTIVE, ids=[p.stem for p in DEFECTIVE])
def test_a_defective_file_is_refused_by_its_check_at_its_line(path: Path) -> None:
    expected = EXPECT.search(path.read_text())
    assert expected is not None
    report = check_file(path)
    assert not report.ok and report.ruleset is None
    assert [(f.check, f.line) for f in report.findings] == [
        (expected.group(1), int(expected.group(2)))]


@pytest.mark.parametrize("path", [SKIRMISH,
                                  *sorted(BUILT_IN.glob("*.yaml"))], ids=lambda p: p.stem)
def test_the_example_and_every_shipped_file_pass(path: Path) -> None:
    report = check_file(path)
    assert report.findings == () and report.ok
    assert report.lines() == [(f"{path}: OK: {report.ruleset.title} ({report.ruleset.id}, "
                              f"version {report.ruleset.version}, format 1)")]


def test_every_problem_is_said_at_once_with_its_line_and_column() -> None:
    text = SKIRMISH.read_text()
    text = (text.replace("        allows: [move_unit]", "        alows: [move_unit]")
            .replace("        advanced_by: attacker", "        advanced_by: atacker")
            .replace("  - step: weather", "  - step: weather\n    leave_when: calm"))
    report = check_text(text, "three.yaml")
    assert report.lines() == [
        ("three.yaml:31:17: undeclared-condition: 'calm' is no condition the file's "
        "conditions declare"),
        # (the step waits for a condition and owes nothing: a warning, said with them)
        ("three.yaml:31:17: warning: unsaid-leave-when: step 'weather' waits for 'calm' "
         "before it is left, but owes nothing: nobody is told what leaving waits for (say it "
         "in owes)"),
        "three.yaml:43:9: unknown-field: unknown field 'alows'; did you mean 'allows'?",
        ("three.yaml:52:22: undeclared-role: 'atacker' is no role the file's sides declare "
        "(it declares: attacker, defender); did you mean 'attacker'?"),
        "three.yaml: 3 problems, 1 warning",
    ]


def test_a_missing_field_is_placed_at_the_mapping_that_lacks_it() -> None:
    report = check_text("format_version: 1\nid: x\nsequence:\n  - step: a\n", "x.yaml")
    assert [(f.check, f.line, f.column, f.message) for f in report.findings] == [
        ("missing-field", 1, 1, "'title' is required")]


# ---- hostile files ---------------------------------------------------------------------

def test_an_alias_bomb_is_refused_at_its_first_anchor() -> None:
    report = check_text(billion_laughs(), "bomb.yaml")
    assert [(f.check, f.line, f.column) for f in report.findings] == [("yaml-anchor", 1, 5)]


def test_an_alias_without_its_anchor_is_refused_as_an_alias() -> None:
    report = check_text("title: *x\n", "alias.yaml")
    assert [(f.check, f.line) for f in report.findings] in ([("yaml-alias", 1)],
                                                             [("yaml-syntax", 1)])


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    "{a: " * 10_000 + "1" + "}" * 10_000,
    "".join(f"{'  ' * n}k{n}:\n" for n in range(200)) + "  " * 200 + "v\n",
], ids=["flow lists", "flow mappings", "block mappings"])
def test_deep_nesting_is_refused_at_the_first_level_past_the_cap(text: str) -> None:
    report = check_text(text, "deep.yaml")
    assert [f.check for f in report.findings] == ["too-deep"]
    assert report.findings[0].line in (1, MAX_DEPTH)  # where level MAX_DEPTH + 1 opens


def test_a_file_past_the_size_cap_is_refused_before_it_is_parsed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parser(text: str) -> None:
        raise AssertionError("a file past the size cap reached the parser")

    monkeypatch.setattr(rulefile_load, "_Loader", no_parser)
    report = check_text(b"#" * (MAX_BYTES + 1), "huge.yaml")
    assert [(f.check, f.line) for f in report.findings] == [("too-large", 1)]


def test_a_file_of_too_many_nodes_is_refused_as_it_is_composed() -> None:
    text = "[" + ", ".join("1" for _ in range(rulefile_load.MAX_NODES + 10)) + "]"
    assert len(text) <= MAX_BYTES
    report = check_text(text, "wide.yaml")
    assert [f.check for f in report.findings] == ["too-many-nodes"]


@pytest.mark.parametrize(("text", "check"), [
    ("title: !!python/object/apply:os.system ['true']\n", "yaml-tag"),
    ("title: !!binary aGVsbG8=\n", "yaml-tag"),
    ("title: !custom x\n", "yaml-tag"),
    ("version: " + "9" * 5000 + "\n", "invalid-value"),
    ("a: 1\n---\nb: 2\n", "yaml-syntax"),
    ("", "empty"),
], ids=["python-object", "binary", "local-tag", "huge-number", "two-documents", "empty"])
def test_a_hostile_or_empty_file_is_refused_by_name(text: str, check: str) -> None:
    report = check_text(text, "hostile.yaml")
    assert not report.ok
    assert check in [f.check for f in report.findings]


def test_a_file_not_in_utf8_is_refused() -> None:
    report = check_text(b"title: \xff\xfe\n", "latin.yaml")
    assert [f.check for f in report.findings] == ["not-utf8"]


def test_a_file_of_many_problems_lists_a_hundred_and_suggests_for_fifty() -> None:
    text = "".join(f"titel{n}: x\n" for n in range(150))  # and no required field given
    report = check_text(text, "many.yaml")
    assert len(report.findings) == LISTED + 1
    last = report.findings[-1]
    assert (last.check, last.message) == (
        "too-many-problems", f"{150 + 4 - LISTED} more problems from here on are not listed")
    misspelt = [f for f in report.findings if f.check == "unknown-field"]
    assert [("did you mean 'title'?" in f.message) for f in misspelt] == (
        [True] * SUGGESTED + [False] * (len(misspelt) - SUGGESTED))


def test_the_authoring_guide_shows_the_example_file_as_it_is() -> None:
    guide = (FIXTURES.parents[2] / "docs" / "rulesets" / "authoring.md").read_text()
    shown = guide.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert shown == SKIRMISH.read_text().split("\n", 2)[2]  # without its two comment lines


@pytest.mark.parametrize(("text", "line", "said"), [
    ("hi", 1, "a ruleset file is a mapping of fields (format_version, id, title, "),
    ("[1, 2]", 1, "a ruleset file is a mapping of fields (format_version, id, title, "),
    ("format_version: 1\nid: x\ntitle: X\nsides: 3\nsequence: [{step: a}]", 4,
     "'sides' is a mapping of fields (count, fewest, most, rule, roles), not the number 3"),
    ("format_version: 1\nid: x\ntitle: X\nunit_kinds: {tank: yes}\nsequence: [{step: a}]", 4,
     "'tank' is a mapping of fields (title, attributes), not the value true"),
    ("format_version: 1\nid: x\ntitle: X\nsequence: [{step: a}, 7]", 4,
     "each entry of a sequence is a step (step: its id) or a phase (phase: its id)"),
])
def test_a_value_of_the_wrong_shape_is_said_in_the_files_words(
        text: str, line: int, said: str) -> None:
    """A new user's first mistakes: pydantic's own words ("instance of Sides", "discriminator
    _node_kind()") never reach them."""
    report = check_text(text, "f.yaml")
    assert [(f.line, f.check) for f in report.findings] == [(line, "invalid-value")]
    message = report.findings[0].message
    assert said in message
    assert "instance of" not in message and "discriminator" not in message
