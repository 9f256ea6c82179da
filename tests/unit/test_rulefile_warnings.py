"""A plain key that a YAML 1.1 reader takes for true or false (`on`, `yes`, `n`, ...) is a
warning in a ruleset file's check report, with its file, line and column: battlelog reads
every key as text, so the file passes (exit status 0 when it has only warnings), but the
same file means something else to PyYAML's loaders and many editors. A quoted key, a value,
and a key that is no such word are no warning; a file with problems says both."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cli import main
from projections.rulefile_load import BOOLEAN_KEY, check_text

LAMPS = (Path(__file__).parents[1] / "fixtures" / "rulefiles" / "warned" / "lamps.yaml"
         ).read_text()


def test_plain_boolean_words_as_keys_are_warnings_where_they_stand() -> None:
    report = check_text(LAMPS, "lamps.yaml")
    assert report.ok and report.findings == ()
    assert [(w.check, w.line, w.column) for w in report.warnings] == [
        (BOOLEAN_KEY, 8, 3), (BOOLEAN_KEY, 11, 3)]  # `on` and `n`; the quoted ones are text
    assert "reads it as true" in report.warnings[0].message
    assert "reads it as false" in report.warnings[1].message
    assert report.lines() == [
        f"lamps.yaml:8:3: warning: {BOOLEAN_KEY}: {report.warnings[0].message}",
        f"lamps.yaml:11:3: warning: {BOOLEAN_KEY}: {report.warnings[1].message}",
        "lamps.yaml: OK: Lamps (lamps, version 1, format 1), 2 warnings"]


@pytest.mark.parametrize("key", ["y", "Y", "yes", "YES", "No", "ON", "off", "true", "False"])
def test_every_yaml_1_1_boolean_spelling_is_warned(key: str) -> None:
    text = LAMPS.replace("  n: {title: North}", f"  {key}: {{title: North}}")
    assert [w.line for w in check_text(text, "f").warnings] == [8, 11]


def test_a_file_with_only_warnings_passes_the_command_line_with_exit_status_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "lamps.yaml"
    path.write_text(LAMPS)
    assert main(["check-ruleset", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}:8:3: warning: {BOOLEAN_KEY}: ")
    assert out[-1].endswith(", 2 warnings")


def test_a_file_with_a_problem_says_its_warnings_too_and_fails() -> None:
    report = check_text(LAMPS.replace("title: Lamps", "titel: Lamps"), "lamps.yaml")
    assert not report.ok
    assert sorted(f.check for f in report.findings) == ["missing-field", "unknown-field"]
    assert len(report.warnings) == 2
    assert report.lines()[-1] == "lamps.yaml: 2 problems, 2 warnings"


def test_a_file_without_such_keys_has_no_warning_and_its_report_is_unchanged() -> None:
    report = check_text(LAMPS.replace("  on:", "  lit:").replace("  n:", "  north:"), "f")
    assert report.warnings == ()
    assert report.lines() == ["f: OK: Lamps (lamps, version 1, format 1)"]
