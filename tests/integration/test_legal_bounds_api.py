"""`GET /legal` on a large board (issue 25): answers are cached per match version and seat
(a second read does no work, a new version is answered anew), narrowed with `unit=`, paged
with `page=` (the answer says it is cut and where the rest is), and a scenario past the size
limit is refused at creation with nothing made."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played

from domain.app import Matches
from domain.commands import UNITS_IN_ALL, UNITS_PER_SIDE
from domain.history import Frame
from domain.legal import probe as legal_probe
from domain.legal.model import LegalActions
from projections.legal_answers import LegalAnswers, LegalBusy
from tests.unit.legal_boards import board
from tests.unit.legal_play import Match


def legal(m: Played, seat: str, **params: Any) -> dict[str, Any]:
    r = m.client.get(f"/api/matches/{m.match}/legal", params=params, headers=m.auth(seat))
    assert r.status_code == 200, r.text
    assert r.headers["ETag"] == f'"{r.json()["version"]}"'
    return dict(r.json())


@pytest.fixture
def decides(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counted = [0]
    decide = legal_probe.decide

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted[0] += 1
        return decide(*args, **kwargs)

    monkeypatch.setattr(legal_probe, "decide", counting)
    return counted


def test_a_second_read_at_the_same_version_does_no_work_and_a_new_version_does(
        client: TestClient, decides: list[int]) -> None:
    m = Played(client, board(3))
    first = legal(m, "red")
    assert decides[0] > 0
    decides[0] = 0
    assert legal(m, "red") == first
    assert decides[0] == 0  # from the cache
    assert legal(m, "blue")["seat"] == "blue" and decides[0] > 0  # another seat: its own
    m.act("red", type="place_marker", unit_id="red0", kind="hit", count=1)
    decides[0] = 0
    after = legal(m, "red")
    assert after["version"] == first["version"] + 1 and decides[0] > 0


def test_a_large_board_answers_a_page_with_where_the_rest_is(client: TestClient) -> None:
    m = Played(client, board(UNITS_PER_SIDE))
    first = legal(m, "red")
    page = first["page"]
    assert page["truncated"] and page["next"] == 2 and page["in_play"] == 2 * UNITS_PER_SIDE
    assert "unit=" in page["says"]
    assert first["more"] == f"/api/matches/{m.match}/legal?page=2"
    shown = {c["unit_id"] for a in first["actions"] for c in a["choices"] if c["unit_id"]}
    assert shown == set(page["units"]) and len(shown) < 2 * UNITS_PER_SIDE
    r = client.get(first["more"], headers=m.auth("red"))
    assert r.status_code == 200 and r.json()["page"]["number"] == 2
    last = legal(m, "red", page=page["pages"])
    assert last["more"] is None and not last["page"]["truncated"]
    r = client.get(f"/api/matches/{m.match}/legal", params={"page": page["pages"] + 1},
                   headers=m.auth("red"))
    assert r.status_code == 422 and "not one of 1 to" in r.json()["detail"]


def test_one_units_choices_are_those_of_the_whole_answer(client: TestClient) -> None:
    m = Played(client, board(6, distinct=True))
    whole = legal(m, "red")
    assert not whole["page"]["truncated"]
    for unit in ("red0", "blue5"):
        alone = legal(m, "red", unit=unit)
        assert alone["page"]["unit"] == unit
        mine = {a["id"]: [c for c in a["choices"] if c["unit_id"] == unit]
                for a in whole["actions"] if any(c["unit_id"] == unit for c in a["choices"])}
        assert {a["id"]: a["choices"] for a in alone["actions"]} == mine
    r = client.get(f"/api/matches/{m.match}/legal", params={"unit": "nobody"},
                   headers=m.auth("red"))
    assert r.status_code == 422 and "no unit 'nobody'" in r.json()["detail"]
    r = client.get(f"/api/matches/{m.match}/legal", params={"unit": "no such id!"},
                   headers=m.auth("red"))
    assert r.status_code == 422


@pytest.mark.parametrize(("red", "blue", "limit"), [
    (UNITS_PER_SIDE + 1, 0, f"at most {UNITS_PER_SIDE} units a side"),
    (UNITS_PER_SIDE, UNITS_PER_SIDE, None)])
def test_a_scenario_past_the_size_limit_is_refused_and_nothing_is_made(
        client: TestClient, matches: Matches, red: int, blue: int, limit: str | None) -> None:
    body = board(max(red, blue))
    body["units"] = ([u for u in body["units"] if u["side"] == "red"][:red]
                     + [u for u in body["units"] if u["side"] == "blue"][:blue])
    before = matches.recorder.max_notification_id()
    r = client.post("/api/matches", json=body)
    if limit is None:
        assert r.status_code == 201, r.text
        return
    assert r.status_code == 422, r.text
    assert limit in r.text
    assert matches.recorder.max_notification_id() == before  # nothing made


def test_three_sides_past_the_limit_in_all_are_refused(client: TestClient,
                                                       matches: Matches) -> None:
    each = UNITS_IN_ALL // 3 + 1
    body = board(each)
    body["sides"].append({"id": "green", "name": "Green"})
    body["units"] += [{**u, "id": f"g{u['id']}", "side": "green"} for u in body["units"]
                      if u["side"] == "red"]
    before = matches.recorder.max_notification_id()
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and str(UNITS_IN_ALL) in r.text, r.text
    assert matches.recorder.max_notification_id() == before


def test_a_side_deploys_no_unit_past_the_limit(client: TestClient) -> None:
    m = Played(client, board(UNITS_PER_SIDE))
    m.refused("red", 422, "core-limits", type="deploy_unit",
              unit={"id": "one-more", "side": "red", "name": "One more"})
    deploys = [a for a in legal(m, "red")["actions"] if a["id"] == "deploy_unit"]
    assert [c["side"] for a in deploys for c in a["choices"]] == []


def test_answers_asked_for_at_once_are_computed_once() -> None:
    game = Match("big", body=board(5))
    frame = Frame(state=game.state, version=game.version)
    answers = LegalAnswers()
    release = threading.Event()

    def render(found: LegalActions, version: int) -> bytes:
        release.wait(5)
        return found.model_dump_json().encode()

    got: list[bytes] = []
    threads = [threading.Thread(target=lambda: got.append(answers.answer(
        frame, game.match_id, "red", render=render))) for _ in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.3)  # (all eight asking while the first computes)
    release.set()
    for t in threads:
        t.join()
    assert len(got) == 8 and len(set(got)) == 1
    assert answers.computed == 1


def test_past_the_lanes_and_their_queue_an_answer_is_refused_not_waited_for() -> None:
    game = Match("big", body=board(5))
    frame = Frame(state=game.state, version=game.version)
    answers = LegalAnswers(lanes=1, queue=1)
    release = threading.Event()

    def render(found: LegalActions, version: int) -> bytes:
        release.wait(5)
        return found.model_dump_json().encode()

    threads = [threading.Thread(target=answers.answer, args=(frame, game.match_id, seat),
                                kwargs={"render": render}) for seat in ("red", "blue")]
    for t in threads:
        t.start()
    time.sleep(0.3)  # (one computing, one waiting for the lane)
    with pytest.raises(LegalBusy) as refused:
        answers.answer(frame, game.match_id, "referee", render=render)
    assert refused.value.status == 503
    release.set()
    for t in threads:
        t.join()
    assert answers.computed == 2
    answers.answer(frame, game.match_id, "referee", render=render)  # room again
    assert answers.computed == 3
