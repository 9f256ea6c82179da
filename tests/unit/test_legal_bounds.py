"""The legal actions' cost is bounded (issue 25): the work of an answer grows at most
linearly with the board, a large board is answered in pages of units (the first holding
what is about no one unit), one unit's choices can be asked for alone and are the same as
in the whole answer, and an answer stops at its work cap, saying so. Work is counted in
`decide` calls and candidates made, never in seconds."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from domain.errors import InvalidAction
from domain.legal import PAGE_UNITS, games, legal_actions, page_size, probe, records, units
from domain.legal.model import Candidate, LegalActions
from tests.unit.legal_boards import board
from tests.unit.legal_play import Match


@dataclass
class Work:
    decides: int = 0
    candidates: int = 0


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Iterator[Work]:
    """Counts every body `decide`d for the legal actions and every candidate made."""
    counted = Work()
    decide = probe.decide

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted.decides += 1
        return decide(*args, **kwargs)

    @dataclass(frozen=True)
    class Counted(Candidate):
        def __post_init__(self) -> None:
            counted.candidates += 1

    monkeypatch.setattr(probe, "decide", counting)
    for module in (units, games, records):
        monkeypatch.setattr(module, "Candidate", Counted)
    yield counted


def every_page(m: Match, seat: str) -> list[LegalActions]:
    """Every page of the seat's answer, with no work cap."""
    pages = [legal_actions(m.state, m.ruleset, seat, version=m.version, most=None)]
    while pages[-1].page.next is not None:
        pages.append(legal_actions(m.state, m.ruleset, seat, version=m.version, most=None,
                                   page=pages[-1].page.next))
    return pages


def choices_of(answers: list[LegalActions], unit: str) -> dict[str, Any]:
    return {a.id: [c for c in a.choices if c.unit_id == unit] for p in answers
            for a in p.actions if any(c.unit_id == unit for c in a.choices)}


def test_the_whole_answer_takes_linear_work_in_the_units_on_the_board(work: Work) -> None:
    seen = []
    for n in (25, 100):
        m = Match("big", body=board(n))
        work.decides = work.candidates = 0
        pages = every_page(m, "red")
        assert {u for p in pages for u in p.page.units} == set(m.state.units)
        seen.append((work.decides, work.candidates))
    (decides_25, made_25), (decides_100, made_100) = seen
    # four times the units: about four times the work (quadratic would be sixteen)
    assert decides_100 <= 4.5 * decides_25, seen
    assert made_100 <= 4.5 * made_25, seen


def test_the_default_answer_of_a_large_board_is_a_page_of_bounded_work(work: Work) -> None:
    """Every unit its own flag and marker kind: each unit's choices list every other's, so
    the whole answer is quadratic; the first page stays about the same size."""
    seen = []
    for n in (25, 100):
        m = Match("big", body=board(n, distinct=True))
        work.decides = 0
        answer = legal_actions(m.state, m.ruleset, "red", version=m.version)
        seen.append(work.decides)
        assert len(answer.page.units) == page_size(2 * n)
    assert seen[1] <= 4 * seen[0], seen


def test_a_large_board_answers_a_page_saying_it_is_cut_and_how_to_read_the_rest() -> None:
    m = Match("big", body=board(100))
    first = legal_actions(m.state, m.ruleset, "red", version=m.version)
    size = page_size(200)
    assert size < PAGE_UNITS
    assert first.page.truncated and first.page.next == 2
    assert first.page.pages == -(-200 // size) and first.page.in_play == 200
    assert first.page.says is not None and "unit=" in first.page.says
    about = {c.unit_id for a in first.actions for c in a.choices if c.unit_id}
    assert about == set(first.page.units) and len(about) == size
    assert first.page.units[0] == "red0"  # the seat's own units first
    assert any(a.id == "deploy_unit" for a in first.actions)  # what is about no one unit
    second = legal_actions(m.state, m.ruleset, "red", version=m.version, page=2)
    assert not any(a.id == "deploy_unit" for a in second.actions)
    assert not set(second.page.units) & set(first.page.units)
    last = legal_actions(m.state, m.ruleset, "red", version=m.version, page=first.page.pages)
    assert not last.page.truncated and last.page.next is None
    with pytest.raises(InvalidAction, match="not one of 1 to"):
        legal_actions(m.state, m.ruleset, "red", version=m.version, page=first.page.pages + 1)


def test_a_normal_board_is_answered_whole_on_one_page() -> None:
    for name in ("atomic-africa-demo", "wing-command-demo", "normandy-demo"):
        m = Match(name)
        answer = legal_actions(m.state, m.ruleset, "referee", version=m.version)
        assert not answer.page.truncated and answer.page.pages == 1
        assert set(answer.page.units) == {u.id for u in m.state.in_play()}


@pytest.mark.parametrize("name", ["wing-command-demo", "extended-sequence-demo",
                                  "atomic-africa-demo", "normandy-demo"])
def test_one_units_choices_alone_are_its_choices_in_the_whole_answer(name: str) -> None:
    m = Match(name)
    for seat in (*m.state.side_ids(), "referee"):
        whole = legal_actions(m.state, m.ruleset, seat, version=m.version)
        for unit in m.state.in_play():
            alone = legal_actions(m.state, m.ruleset, seat, version=m.version, unit=unit.id)
            assert alone.page.unit == unit.id and not alone.page.truncated
            assert choices_of([alone], unit.id) == choices_of([whole], unit.id), unit.id
            assert all(c.unit_id == unit.id for a in alone.actions for c in a.choices)


def test_one_units_choices_on_a_paged_board_are_those_of_its_page() -> None:
    m = Match("big", body=board(100, distinct=True))
    pages = every_page(m, "blue")
    for unit in ("blue0", "red7", "red99"):
        alone = legal_actions(m.state, m.ruleset, "blue", version=m.version, unit=unit)
        assert choices_of([alone], unit) == choices_of(pages, unit) != {}
    with pytest.raises(InvalidAction, match="no unit 'nobody' in play"):
        legal_actions(m.state, m.ruleset, "blue", version=m.version, unit="nobody")


def test_an_answer_stops_at_its_work_cap_and_says_so(work: Work) -> None:
    m = Match("big", body=board(20, distinct=True))
    answer = legal_actions(m.state, m.ruleset, "red", version=m.version, most=100)
    assert answer.page.truncated
    assert answer.page.says is not None and "cut short after 100" in answer.page.says
    assert "unit=" in answer.page.says
    assert work.decides <= 100 + 20  # the cap, then the advance and its skips
    assert answer.advance.title  # the advance is still answered
