"""The integrity check on a long match, built in memory: every server roll recomputed."""

from __future__ import annotations

import json

from conftest import T0, Table

from domain import events as ev
from domain.dice import commitment
from domain.integrity import GENESIS, canonical, chained, content_hash, verify


def test_a_10000_roll_match_verifies_with_every_server_roll_recomputed(table: Table) -> None:
    """Every server roll of a long match, recomputed from the seed by `verify`; one changed
    die is found and named."""
    for i in range(10_000):
        table.act("red", type="roll_dice", notation="3d6" if i % 2 else "d20", purpose="fire")
    table.act(type="end_match", winner=None)
    seed = b"test-seed"
    log = chained(table.log, GENESIS)
    log.append(ev.DiceSeedRevealed(
        originator_id=table.match_id, originator_version=len(log) + 1, timestamp=T0,
        actor="referee", seed=seed.hex(), dice_commitment=commitment(seed)))
    log = chained(log, GENESIS)
    created = log[0]
    assert isinstance(created, ev.MatchCreated)
    top = {"format": "battlelog-match", "format_version": 1, "ruleset": "freeform",
           "ruleset_version": 1, "scenario": created.scenario,
           "sides": [s.model_dump() for s in created.sides],
           "dice_commitment": created.dice_commitment, "events": len(log),
           "chain_head": log[-1].hash}
    lines = [canonical({**top, "hash": content_hash(top)}) + "\n",
             *(canonical(e.public("referee")) + "\n" for e in log)]
    report = verify(lines)
    assert report.ok, report.problems
    assert report.rolls_checked == 10_000
    body = json.loads(lines[5000])
    body["dice"] = [(body["dice"][0] % 20) + 1, *body["dice"][1:]]
    body["hash"] = content_hash(body)
    report = verify([*lines[:5000], canonical(body) + "\n", *lines[5001:]])
    assert report.problems[0].startswith(
        "line 5002: event 5001 (DiceRolled) does not follow event 5000")


def test_only_a_newline_ends_an_export_line() -> None:
    from domain.integrity import split_lines

    text = '{"a":"one\u2028two\x85three"}\n{"b":1}\n'
    assert split_lines(text) == ['{"a":"one\u2028two\x85three"}\n', '{"b":1}\n']
    assert split_lines("x\ny") == ["x\n", "y"]  # a last line without its newline stays so
    assert split_lines("") == []


def test_a_log_that_no_longer_fits_its_ruleset_is_named_at_its_first_divergence(
        table: Table) -> None:
    from domain.interchange import divergence

    table.act(type="advance")
    table.act(type="advance")
    assert divergence(table.log) is None
    moved = table.log[2]
    assert isinstance(moved, ev.PhaseAdvanced)
    gone = moved.model_copy(update={"marker": moved.marker.model_copy(
        update={"step": "skirmish"})})
    said = divergence([*table.log[:2], gone, *table.log[3:]])
    assert said is not None and said.startswith("line 4: event 3 (PhaseAdvanced)")
    assert "has no step 'skirmish'" in said and "played under freeform v1" in said
