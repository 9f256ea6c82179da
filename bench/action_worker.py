"""The worker side of one action, in process (issue 30): CPU per `add_note` action (the
same action bench/cpu.py sends) run through the application as the action's lane runs it
in its worker thread (`Matches.act` as the referee with its token, then the answer,
`api.routes.actions._told`), with no web server, client or event loop around it.

`--dir /dev/shm` puts the store on tmpfs, where a commit's fsync costs nothing: what is
left is the Python of the use case and the commit's plumbing, steady enough to compare
two trees: run it from each tree's root, alternating (the packages of the directory it
is run from are the ones measured). `--profile cumulative` (or `tottime`) prints
cProfile's table on the CPU clock instead of the figure.

    .venv/bin/python bench/action_worker.py [--count 4000] [--dir /dev/shm] [--profile tottime]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time

sys.path.insert(0, os.getcwd())  # the packages of the tree it is run from (its root)

from pydantic import TypeAdapter

from api.routes.actions import _told
from domain.app import Matches
from domain.commands import Action, CreateMatch
from projections.store import sqlite_env

NOTE = {"type": "add_note", "text": "the hedgerow holds"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--dir", default=None, help="where the SQLite file goes")
    parser.add_argument("--profile", default=None, help="cProfile's sort key")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        matches = Matches(env=sqlite_env(os.path.join(tmp, "worker.db")))
        created = matches.create_match(CreateMatch.model_validate({
            "scenario": "bench", "casual": True,
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]}))
        match_id, token = created.events[0].originator_id, created.tokens["referee"]
        action = TypeAdapter(Action).validate_python(NOTE)

        def one() -> None:
            result = matches.act(match_id, action, actor="referee", token=token)
            _told(matches, match_id, result, "referee")

        for _ in range(200):  # warm: caches, the pool's connection, a checkpoint or two
            one()
        if args.profile:
            profile = cProfile.Profile(time.process_time)
            profile.runcall(lambda: [one() for _ in range(args.count)])
            pstats.Stats(profile).sort_stats(args.profile).print_stats(40)
            return
        start = time.process_time()
        for _ in range(args.count):
            one()
        spent = (time.process_time() - start) / args.count
        print(f"an action in process, its answer included: {spent * 1e6:.0f} us of CPU "
              f"({args.count} actions, store in {args.dir or tempfile.gettempdir()})")


if __name__ == "__main__":
    main()
