"""docs/rulesets/reference.md is what the generator makes of the format's models today: a
model changed without writing the page again fails here, saying the command that writes it.
And the page says every block and field of the served schema, with its description."""

from __future__ import annotations

from domain.rulefiles import schema
from projections.rulefiles.reference import COMMAND, PAGE, reference


def test_the_committed_reference_is_the_generators_output() -> None:
    assert PAGE.read_text(encoding="utf-8") == reference(), (
        f"docs/rulesets/reference.md is out of date with domain/rulefiles/model*.py: run "
        f"`{COMMAND}` (or `battlelog ruleset-reference --out docs/rulesets/reference.md`) "
        "and commit the page")


def test_the_reference_names_every_block_and_field_with_its_description() -> None:
    page = reference()
    served = schema()
    sections = {part.split("\n", 1)[0]: part for part in page.split("\n## ")[1:]}
    blocks = {"The file": served, **served["$defs"]}
    assert set(sections) == set(blocks)
    for name, block in blocks.items():
        rows = [line for line in sections[name].splitlines() if line.startswith("| `")]
        assert len(rows) == len(block["properties"]), name
        for row, (field, node) in zip(rows, block["properties"].items(), strict=True):
            said = " ".join(node.get("description", "").split()).replace("|", "\\|")
            assert row.startswith(f"| `{field}` |") and said in row, (name, field)


def test_a_field_described_on_the_model_is_described_on_the_page() -> None:
    """A field's docstring is its description: the schema carries it, the page shows it."""
    step = schema()["$defs"]["Step"]["properties"]["leave_when"]
    assert "before the marker leaves the step" in step["description"]
    assert "before the marker leaves the step" in reference()
