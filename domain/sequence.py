"""The sequence of play as data, and how the turn marker moves through it.

A ruleset's sequence is a tree: a `Phase` holds steps and nested phases (segments,
sub-phases). A phase can run once per side in initiative order (`player_turns`: a
player-turn), or repeat while a condition of the ruleset holds (`repeat_while`), with the
active side alternating each time (`alternate`: AA's Activation Phases), passing over a side
for whom the phase's `eligible` condition fails. A step names the
actions it allows, who may act (`any`, `active`, `inactive`, `referee`, or a role such as
`attacker`: see below), whether it may be skipped, and a
condition that must hold before the marker can leave it (`leave_when`), and what it owes
(`owes`: its duties, `domain.duties`: who owes what, discharged by which action). In a
`shared` step
every side acts, and the marker moves on once each side has said it is done. A step inside a
player-turn can belong to one role's player-turn only (`only`: NO-3's German segments).

Roles (`attacker`, `german`) name sides: a player-turn phase with `roles` gives its first
role to the side whose player-turn it is and its second to the other side, run by run (ES:
each side attacks in its own player-turn); otherwise the match option `roles` fixes them for
the whole match. `current_roles` says which side holds which role now.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pydantic import BaseModel, ConfigDict, model_validator

from domain.duties import Duty
from domain.errors import OutOfSequence
from domain.state import MatchState, TurnMarker

ANY = "*"


class _Node(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str = ""
    rule: str | None = None


class Step(_Node):
    allows: tuple[str, ...] = (ANY,)  # action types, or "*" for any
    acting: str = "any"  # any | active | inactive | referee | a role (see `current_roles`)
    optional: bool = False
    leave_when: str | None = None  # ruleset condition that must hold to leave this step
    owes: tuple[Duty, ...] = ()  # what is owed in it (domain.duties): leaving waits for it
    advanced_by: str | None = None  # who may leave the step (as `acting`); None: as `acting`
    only: str | None = None  # a role: the step is in that role's player-turn only
    # Every side acts here: each says it is done (`advance`), and the marker moves on when
    # the last one does (or when the referee moves it).
    shared: bool = False

    @model_validator(mode="after")
    def _one_mover(self) -> Step:
        if self.shared and self.advanced_by is not None:
            raise ValueError(f"step {self.id}: a shared step is left when every side is done")
        return self


class Phase(_Node):
    children: tuple[Step | Phase, ...]
    player_turns: bool = False  # run once for each side, in initiative order
    # With `player_turns`: the role of the side whose player-turn it is, then the role of
    # the other side (two sides), e.g. ("attacker", "defender").
    roles: tuple[str, ...] = ()
    repeat_while: str | None = None  # ruleset condition: run again while it holds
    alternate: bool = False  # with repeat_while: the active side alternates each run
    # With `alternate`: a ruleset condition, read as if it were that side's run; a side for
    # whom it fails is passed over (BG-7: a player with nothing left to activate).
    eligible: str | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> Phase:
        if not self.children:
            raise ValueError(f"phase {self.id} has no steps")
        if self.roles and (not self.player_turns or len(self.roles) != 2):
            raise ValueError(f"phase {self.id}: roles are the two roles of a player-turn")
        return self


class SequenceOfPlay(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    phases: tuple[Step | Phase, ...]  # a top-level step is a phase with no sub-steps

    @property
    def root(self) -> Phase:
        return Phase(id="", children=self.phases)

    def steps(self) -> list[str]:
        """Every step path in order (`phase/step`)."""
        out: list[str] = []

        def walk(node: Step | Phase, prefix: str) -> None:
            path = f"{prefix}{node.id}"
            if isinstance(node, Step):
                out.append(path)
            else:
                for child in node.children:
                    walk(child, f"{path}/")

        for phase in self.phases:
            walk(phase, "")
        return out

    def chain(self, step_path: str) -> list[Step | Phase]:
        """The nodes from the top phase down to the step at `step_path`."""
        nodes: list[Step | Phase] = []
        children = self.phases  # the root's (not built: a `Phase` checks itself when made)
        for part in step_path.split("/"):
            found = next((c for c in children if c.id == part), None)
            if found is None:
                raise KeyError(step_path)
            nodes.append(found)
            children = found.children if isinstance(found, Phase) else ()
        if not isinstance(nodes[-1], Step):
            raise KeyError(step_path)
        return nodes

    def step(self, step_path: str) -> Step:
        last = self.chain(step_path)[-1]
        assert isinstance(last, Step)
        return last


Conditions = Mapping[str, Callable[[MatchState], bool]]


def _first_leaf(node: Step | Phase, prefix: str, counters: dict[str, int]) -> str:
    path = f"{prefix}{node.id}"
    if isinstance(node, Step):
        return path
    counters[path] = 0
    return _first_leaf(node.children[0], f"{path}/", counters)


def _active_side(
    seq: SequenceOfPlay, step_path: str, counters: Mapping[str, int], order: tuple[str, ...]
) -> str | None:
    """The side of the innermost player-turn or alternating phase on the path."""
    active: str | None = None
    path = ""
    for node in seq.chain(step_path)[:-1]:
        path = f"{path}/{node.id}" if path else node.id
        if isinstance(node, Phase) and (node.player_turns or node.alternate) and order:
            active = order[counters.get(path, 0) % len(order)]
    return active


def start(seq: SequenceOfPlay, order: tuple[str, ...], turn: int = 1) -> TurnMarker:
    """The turn marker at the first step of turn `turn`."""
    counters: dict[str, int] = {}
    step = _first_leaf(seq.phases[0], "", counters)
    return TurnMarker(
        turn=turn,
        step=step,
        initiative=order,
        counters=counters,
        active_side=_active_side(seq, step, counters, order),
    )


def following(seq: SequenceOfPlay, marker: TurnMarker, state: MatchState,
              conditions: Conditions) -> TurnMarker:
    """The marker one step on, passing the steps that belong to another role's player-turn."""
    marker = _step_on(seq, marker, state, conditions)
    while not belongs(seq, seq.step(marker.step), marker, state):
        marker = _step_on(seq, marker, state, conditions)
    return marker


def belongs(seq: SequenceOfPlay, step: Step, marker: TurnMarker, state: MatchState) -> bool:
    """Whether `step` is in the current player-turn (a step with `only` is in its role's)."""
    if step.only is None:
        return True
    return current_roles(seq, state, marker).get(step.only) == marker.active_side


def current_roles(seq: SequenceOfPlay, state: MatchState,
                  marker: TurnMarker | None = None) -> dict[str, str]:
    """Which side holds each role at `marker` (default: the match's turn marker): the roles
    of the innermost player-turn phase around its step that has them, else the match
    option `roles`."""
    marker = marker or state.turn
    roles: dict[str, str] = {}
    path = ""
    for node in seq.chain(marker.step)[:-1]:
        path = f"{path}/{node.id}" if path else node.id
        if isinstance(node, Phase) and node.roles and marker.initiative:
            order = marker.initiative
            side = order[marker.counters.get(path, 0) % len(order)]
            others = [s for s in state.side_ids() if s != side]
            first, second = node.roles
            roles = {first: side, **({second: others[0]} if len(others) == 1 else {})}
    if roles:
        return roles
    fixed = state.options.get("roles")
    return {str(k): str(v) for k, v in fixed.items()} if isinstance(fixed, dict) else {}


def _step_on(seq: SequenceOfPlay, marker: TurnMarker, state: MatchState,
             conditions: Conditions) -> TurnMarker:
    """The marker one step on: next sibling, else restart a player-turn or repeating phase,
    else climb; past the last step, turn + 1 at the first step."""
    chain = seq.chain(marker.step)
    parts = marker.step.split("/")
    counters = dict(marker.counters)
    order = marker.initiative
    for depth in range(len(chain) - 1, -1, -1):
        parent: Phase = seq.root if depth == 0 else chain[depth - 1]  # type: ignore[assignment]
        prefix = "/".join(parts[:depth])
        prefix = f"{prefix}/" if prefix else ""
        index = next(i for i, c in enumerate(parent.children) if c.id == parts[depth])
        if index + 1 < len(parent.children):
            step = _first_leaf(parent.children[index + 1], prefix, counters)
            return _marker(seq, marker, step, counters, state, conditions)
        if depth == 0:
            break
        phase_path = "/".join(parts[:depth])
        runs = counters.get(phase_path, 0) + 1
        again = (parent.player_turns and runs < len(order)) or (
            parent.repeat_while is not None and _holds(conditions, parent.repeat_while, state)
        )
        if again:
            counters[phase_path] = runs
            step = _first_leaf(parent.children[0], f"{phase_path}/", counters)
            return _marker(seq, marker, step, counters, state, conditions)
        counters.pop(phase_path, None)
    return _pass_over(seq, start(seq, order, marker.turn + 1), state, conditions)


def _marker(seq: SequenceOfPlay, old: TurnMarker, step: str, counters: dict[str, int],
            state: MatchState, conditions: Conditions) -> TurnMarker:
    live = {k: v for k, v in counters.items() if step.startswith(f"{k}/")}
    marker = TurnMarker(
        turn=old.turn,
        step=step,
        initiative=old.initiative,
        counters=live,
        active_side=_active_side(seq, step, live, old.initiative),
    )
    return _pass_over(seq, marker, state, conditions)


def _pass_over(seq: SequenceOfPlay, marker: TurnMarker, state: MatchState,
               conditions: Conditions) -> TurnMarker:
    """Move past the sides an alternating phase's `eligible` condition passes over. When
    no side is eligible the marker stays: the phase's own gates decide what happens."""
    path = ""
    for node in seq.chain(marker.step)[:-1]:
        path = f"{path}/{node.id}" if path else node.id
        if not (isinstance(node, Phase) and node.alternate and node.eligible):
            continue
        for skip in range(len(marker.initiative)):
            counters = {**marker.counters, path: marker.counters.get(path, 0) + skip}
            candidate = marker.model_copy(update={
                "counters": counters,
                "active_side": _active_side(seq, marker.step, counters, marker.initiative)})
            if _holds(conditions, node.eligible, state.model_copy(update={"turn": candidate})):
                marker = candidate
                break
    return marker


def _holds(conditions: Conditions, name: str, state: MatchState) -> bool:
    try:
        return conditions[name](state)
    except KeyError:
        raise OutOfSequence(f"the ruleset defines no condition '{name}'") from None
