"""`hex_distance(a, b)` in a ruleset file's expressions (domain/rulefiles/hexes.py): hexes
counted on the map the page draws (flat-topped columns, odd columns half a hex lower),
checked at load for its two hex-id texts, and refused, never a crash, on a text that is
no hex id."""

from __future__ import annotations

import pytest
import yaml

from domain.rulefiles import check
from domain.rulefiles.evaluate import Unreadable, compile_expression
from domain.rulefiles.hexes import hex_distance
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from projections.rulefile_load import check_text


@pytest.mark.parametrize(("a", "b", "hexes"), [
    ("0404", "0404", 0),
    ("0404", "0403", 1), ("0404", "0405", 1),  # the same column
    ("0404", "0503", 1), ("0404", "0504", 1),  # an odd column, half a hex lower
    ("0404", "0303", 1), ("0404", "0304", 1),
    ("0503", "0403", 1), ("0503", "0404", 1), ("0503", "0402", 2),
    ("0404", "0505", 2), ("0404", "0302", 2), ("0101", "0401", 3), ("0101", "0105", 4),
    ("0000", "9999", 149),
])
def test_hexes_are_counted_as_the_page_draws_the_map(a: str, b: str, hexes: int) -> None:
    assert hex_distance(a, b) == hex_distance(b, a) == hexes


def test_every_hex_has_six_neighbours_at_one() -> None:
    around = [f"{c:02d}{r:02d}" for c in range(2, 7) for r in range(2, 7)]
    for centre in ("0404", "0504"):
        assert len([h for h in around if hex_distance(centre, h) == 1]) == 6


GAME = """\
format_version: 1
id: near
title: Near
unit_kinds: {squad: {}}
actions: {move_unit: {}}
guards:
  - actions: [move_unit]
    when: "hex_distance(unit.hex, action.to.hex) <= 1"
    rule: NR-1
    says: a unit moves one hex
sequence:
  - step: move
"""


def test_a_guard_reads_the_distance_and_refuses_a_text_that_is_no_hex() -> None:
    data = yaml.safe_load(GAME.replace("action.to.hex", "u"))
    declared = Declared.of(data)
    near = compile_expression("hex_distance(unit.hex, '0406') <= 1",
                              types(declared, ("move_unit",)), BOOL, declared, lambda s: {})
    unit = {"id": "a", "kind": "squad", "side": "red", "name": "A", "hex": "0405", "box": "",
            "status": [], "markers": {}, "attributes": {}}
    assert near.run({"unit": unit}) is True
    assert near.run({"unit": {**unit, "hex": "0408"}}) is False
    with pytest.raises(Unreadable, match="hex ids of four digits"):
        near.run({"unit": {**unit, "hex": ""}})


@pytest.mark.parametrize(("old", "new", "found", "column"), [
    ("hex_distance(unit.hex, action.to.hex)", "hex_distance(unit.hex, 3)",
     "expression-type", 35),
    ("hex_distance(unit.hex, action.to.hex) <= 1", "hex_distance(unit.hex) <= 1",
     "unknown-function", 12),
    ("<= 1\"", "== 'near'\"", "expression-type", 12),
])
def test_a_wrong_call_is_found_at_load_at_its_line_and_column(
        old: str, new: str, found: str, column: int) -> None:
    report = check_text(GAME.replace(old, new), "near.yaml")
    assert [(f.check, f.line, f.column) for f in report.findings] == [(found, 8, column)]
    assert check(yaml.safe_load(GAME)).ok
