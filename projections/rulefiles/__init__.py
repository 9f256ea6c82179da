"""The ruleset files shipped with battlelog (docs/rulesets/authoring.md). Those named in
`SHIPPED` are playable games: the service stores them at every start, through the same store
and checks as any file (`projections.ruleset_store.RulesetStore.load_shipped`), before the
configured folder's. `battlegroup.yaml` is a built-in game's own file, played under the
built-in id (`projections.built_in_games`), never stored as a file of its own. The others
here are worked examples that still name Python procedures (`extended-sequence.yaml`):
checked by the tests, never stored, since no match could be played under them."""

from __future__ import annotations

from pathlib import Path

from projections.rulefile_load import BUILT_IN

SHIPPED = ("hold-the-towns.yaml",)  # the playable games written only as data


def shipped() -> list[Path]:
    """The paths of the shipped playable files, in the order they are stored."""
    return [BUILT_IN / name for name in SHIPPED]
