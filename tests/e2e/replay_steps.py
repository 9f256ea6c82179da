"""Matches played through the API for the replay file's browser tests: each seat in turn
moves the turn on when it may, else takes the first of what it owes (else of the step's own
choices) the rules accept (required inputs at their examples), until the match reaches a turn (as
`Phone.play_turn` does on the page, without the page)."""

from __future__ import annotations

from typing import Any

import httpx

from domain.legal.probe import put


def _filled(choice: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = choice["body"]
    for given in choice["inputs"]:
        if given["required"]:
            body = put(body, given["name"], given["example"])
    return body


def play_to_turn(server: str, match: dict[str, Any], turn: int, moves: int = 400) -> int:
    """Play `match` (new_match's: its id and a token per seat) on to `turn`; its version."""
    base = f"{server}/api/matches/{match['id']}"
    auth = {seat: {"Authorization": f"Bearer {token}"} for seat, token in match["seats"].items()}
    taken: set[tuple[Any, ...]] = set()
    for _ in range(moves):
        for seat, headers in auth.items():
            legal = httpx.get(f"{base}/legal", headers=headers).json()
            if legal["turn"] >= turn:
                return int(legal["version"])
            if legal["advance"]["legal"] and httpx.post(
                    f"{base}/actions", json=legal["advance"]["body"],
                    headers=headers).status_code == 201:
                break
            if _took_one(base, headers, legal, (legal["version"], seat), taken):
                break
        else:
            raise AssertionError(f"nobody can do anything at {legal['turn']}, {legal['step']}")
    raise AssertionError(f"turn {turn} not reached in {moves} moves")


def _took_one(base: str, auth: dict[str, str], legal: dict[str, Any], where: tuple[Any, ...],
              taken: set[tuple[Any, ...]]) -> bool:
    """Take the first choice not yet tried at this version of what the seat owes (the board's
    `owed`: its duties' actions), else of the step's own; whether one was."""
    board = httpx.get(f"{base}/board", headers=auth).json()
    owes = {kind for item in board.get("owed", []) if item["seat"] == legal["seat"]
            for kind in item["done_by"]}
    if board.get("owed") and not owes:
        return False  # another seat owes first: no optional move meanwhile
    for action in sorted(legal["actions"], key=lambda a: a["type"] not in owes):
        if not action["own"] and action["type"] not in owes:
            continue
        for choice in action["choices"]:
            key = (*where, action["id"], choice["label"])
            if key in taken:
                continue
            taken.add(key)
            if httpx.post(f"{base}/actions", json=_filled(choice),
                          headers=auth).status_code == 201:
                return True
    return False
