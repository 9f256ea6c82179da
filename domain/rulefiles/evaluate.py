"""An expression of a ruleset file, compiled once and evaluated over the view of a match.

Compiling checks it again (`expression.read_expression`: a file that skipped the load's
checks cannot reach the evaluator with a hostile expression) and hands it to CEL's
evaluator (`common-expression-language`, in Rust), behind the Python closures of its
checked tree (closures.py), which answer first wherever their answer is surely CEL's (most
readings: they skip handing the view's data to CEL). Each evaluation builds only the view's
variables the expression names, and of them only the fields and keys it reads, as plain
data: the evaluator has no function of ours to call but `hex_distance` (hexes.py: two hex ids in, a
whole number out) and `highest` (numbers.py: a list of whole numbers and a default in, one
out), `join` and `distinct` (lists.py), and nothing of Python's to reach.
The view of a state is built once for the expressions read together (`Views`: a file's
guards and conditions, a roll's), and reused by every reading against that very state."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from threading import Lock, RLock
from typing import Any

import cel

from domain.commands import Command
from domain.rulefiles.closures import Closure, Defer, closure, fresh
from domain.rulefiles.cost import FREE, STEPS, Cost, charge, total
from domain.rulefiles.expression import Needs, merge, read_expression
from domain.rulefiles.hexes import hex_distance
from domain.rulefiles.lists import distinct, join
from domain.rulefiles.numbers import highest
from domain.rulefiles.types import Ty
from domain.rulefiles.view import Declared, action_value, command_unit, unit_value, values
from domain.state import MatchState, Unit

# what CEL's evaluator raises on a value it cannot compute (a key a map lacks, a division
# by zero, an overflow past 64 bits)
FAILURES = (ValueError, KeyError, IndexError, TypeError, ZeroDivisionError, OverflowError,
            RuntimeError)
Roles = Callable[[MatchState], dict[str, str]]


OURS = ("hex_distance", "highest", "join", "distinct")  # the functions of ours


class NotAnExpression(ValueError):
    """An expression that fails its checks, given to `compile_expression` all the same."""


class Unreadable(Exception):
    """An expression the evaluator could not compute over this state (said, never a crash)."""


class TooCostly(Unreadable):
    """An expression whose steps over this state could pass STEPS: not run (cost.py)."""


@dataclass(frozen=True)
class Compiled:
    text: str
    program: Any  # cel.Program
    names: frozenset[str]  # the view's variables it reads
    needs: Needs  # and what of them
    declared: Declared
    roles: Roles
    hexes: bool = False  # it calls a function of ours (hex_distance, highest)
    cost: Cost = FREE  # its list functions: the bound of its steps (cost.py)
    quick: Closure | None = None  # the same reading in Python, ahead of CEL's (closures.py)
    own: tuple[str, ...] = ()  # what of the action's it reads (PER_ACTION)

    def __call__(self, state: MatchState, command: Command | None = None,
                 actor: str = "") -> Any:
        return self.run(values(state, self.declared, self.names, self.roles, command, actor,
                               self.needs))

    def run(self, view: dict[str, Any] | View) -> Any:
        """Its value over `view` (plain data, or one `Views` built); `TooCostly` (an
        Unreadable) when its steps over this view could pass STEPS, Unreadable when it
        cannot be computed (neither run); `cost.Spent` when they would pass the meter's
        most (not run). Each reading charges the meter in use its bound before it runs: the
        closures' (no copies), or CEL's when CEL's evaluator reads it."""
        if isinstance(view, View):
            largest, env = view.largest, view.env
            mine = self.cost.steps(largest)
            steps = max(view.steps, mine)
        else:
            largest = _largest(view)
            steps = mine = self.cost.steps(largest)
            env = view
        if steps > STEPS:
            raise TooCostly(f"it could take {steps:,} steps over this board (at most "
                            f"{STEPS:,}: docs/rulesets/authoring.md)")
        # the value of the same reading over this very state, if it was made (View.key)
        built, key = (view.built, view.key(self)) if isinstance(view, View) else (None, None)
        if built is not None and key is not None:
            found = built.results.get(key, _NONE)
            if found is not _NONE:
                charge(1)
                return fresh(found)
        value = self._read(view, env, largest, mine)
        if built is not None and key is not None:
            built.keep(key, value)
        return fresh(value)

    def _read(self, view: dict[str, Any] | View, env: dict[str, Any], largest: int,
              mine: int) -> Any:
        if self.quick is not None:
            charge(max(self.cost.steps(largest, copies=False), 1))  # to the request's meter
            try:
                return self.quick(env)
            except Defer:  # CEL's to read, from the start
                pass
        charge(max(mine, 1))
        try:
            if isinstance(view, View):
                return view.execute(self.program)
            return self.program.execute(context_of(view, True) if self.hexes else view)
        except FAILURES as error:
            raise Unreadable(" ".join(str(error).split())[:200]) from None


def _largest(data: dict[str, Any]) -> int:
    """The items of the view's largest list or map (the units in play, most often)."""
    return max((len(v) for v in data.values() if isinstance(v, (list, dict))), default=0)


# ---- the view of a state, built once ----------------------------------------------------
# A legal answer reads the guards again for each body it decides: on 400 units, building
# the view each time cost more than the readings. A state is never changed (domain/state.py:
# frozen models; `evolve` makes a new one), so the view of one state object stays true while
# that object lives: `Views` keeps the views of the last KEPT states it was asked about, each
# with the state itself (kept alive, so that no other state can take its identity) and found
# by identity only (a state equal to it but not it gets its own view: nothing of one state is
# read against another). What is the action's (`action`, `actor`, `role`, `unit`) is small
# and made for each reading, handed to the evaluator by a resolver from the view's own slot,
# filled and emptied under the view's lock for each execution: two requests reading one state
# (two threads of a server) take turns on it and never see each other's action.

PER_ACTION = frozenset({"action", "actor", "role", "unit"})
_NONE = object()  # no value kept
RESULTS_KEPT = 4096  # (ours) the values of readings one state's view keeps (_Built.results)
READS_KEPT = 256  # (ours) the sets of expressions read together whose names one reader keeps
KEPT = 4  # (ours) the states whose view one reader keeps: the answer's, and a few after it


@dataclass
class _Built:
    state: MatchState  # kept alive: found by identity, never by an equal state
    data: dict[str, Any]  # the state's variables, as plain data (closures.py reads them)
    sizes: dict[str, int]  # the items of each of its lists and maps
    slot: dict[str, Any] = field(default_factory=dict)  # the executing reading's action
    units: dict[str | None, dict[str, Any]] = field(default_factory=dict)  # `unit` by its id
    roles: dict[str, str] = field(default_factory=dict)  # `role` by the actor
    # the items of the largest list or map that each set of expressions reads (Views._read)
    largest: dict[tuple[int, ...], int] = field(default_factory=dict)
    lock: RLock = field(default_factory=RLock)
    # the value of each reading made over this state, by the expression and what of the
    # action it reads (View.key): a state never changes, so neither does a reading's value
    results: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    # cel.Context: the state's variables, our functions, the resolver; made at the first
    # reading CEL's evaluator makes (most are the closures' alone)
    context: Any = None

    def keep(self, key: tuple[Any, ...], value: Any) -> None:
        if len(self.results) >= RESULTS_KEPT:
            self.results.clear()
        self.results[key] = value


class View:
    """The view several expressions read, and the steps they could take over it together
    (each of them is bounded by all of them); `action`: what is the action's; `env` the
    state's and the action's data; `keys` each of the action's, as a key. (A plain class:
    one is made for every reading of a legal answer.)"""

    __slots__ = ("action", "built", "env", "keys", "largest", "steps")

    def __init__(self, built: _Built, action: dict[str, Any], steps: int, largest: int = 0,
                 env: dict[str, Any] | None = None, keys: dict[str, Any] | None = None
                 ) -> None:
        self.built, self.action, self.steps, self.largest = built, action, steps, largest
        self.env = {} if env is None else env
        self.keys = {} if keys is None else keys

    def key(self, expression: Compiled) -> tuple[Any, ...] | None:
        """What `expression`'s value over this view is kept by (None: not kept)."""
        parts: list[Any] = [id(expression)]
        for name in expression.own:
            part = self.keys.get(name, _NONE)
            if part is _NONE:
                return None
            parts.append(part)
        return tuple(parts)

    def execute(self, program: Any) -> Any:
        built = self.built
        with built.lock:
            if built.context is None:
                built.context = context_of(built.data, True)
                built.context.set_variable_resolver(built.slot.get)
            built.slot.clear()
            built.slot.update(self.action)
            try:
                return program.execute(built.context)
            finally:
                built.slot.clear()


class Views:
    """The view of a state for several expressions of one file (the variables and the
    fields they read, merged once), built once per state (`built` counts the builds)."""

    def __init__(self, expressions: Sequence[Compiled]) -> None:
        self.expressions = tuple(expressions)
        self.names = frozenset().union(*(e.names for e in expressions))
        self.needs = merge(*(e.needs for e in expressions))
        self._kept: OrderedDict[int, _Built] = OrderedDict()
        self._reads: dict[tuple[int, ...], tuple[tuple[Compiled, ...], frozenset[str],
                                                 list[Cost]]] = {}
        self._lock = Lock()
        self._last: _Built | None = None
        self._last_read: tuple[Sequence[Compiled], tuple[int, ...], frozenset[str],
                               list[Cost]] | None = None
        self.built = 0

    def view(self, expressions: Sequence[Compiled], state: MatchState,
             command: Command | None = None, actor: str = "") -> View:
        """The view `expressions` (some of these) read over `state` and the action."""
        built = self._of(state)
        read, names, costs = self._read(expressions)
        first = self.expressions[0]
        action: dict[str, Any] = {}
        if "actor" in names:
            action["actor"] = actor
        if "action" in names:
            action["action"] = action_value(command, self.needs)
        if "role" in names:  # the actor's role over this state, found once
            role = built.roles.get(actor)
            if role is None:
                role = values(state, first.declared, frozenset({"role"}), first.roles,
                              command, actor, self.needs)["role"]
                built.roles[actor] = role
            action["role"] = role
        if "unit" in names:  # the same unit's view for every action naming it
            unit_id = getattr(command, "unit_id", None)
            key = unit_id if isinstance(unit_id, str) else None
            unit = built.units.get(key)
            if unit is None:
                unit = command_unit(state, command, first.declared, self.needs)
                built.units[key] = unit
            action["unit"] = unit
        largest = built.largest.get(read)
        if largest is None:
            largest = built.largest[read] = max(
                [built.sizes.get(name, 0) for name in names], default=0)
        for value in action.values():
            if isinstance(value, list | dict):
                largest = max(largest, len(value))
        return View(built, action, total(costs, largest) if costs else 0, largest,
                    {**built.data, **action}, action_keys(action))

    def of_unit(self, expressions: Sequence[Compiled], state: MatchState, unit: Unit) -> View:
        """The view `expressions` read about `unit` of `state` (a unit's values on the
        board): the state's part built once, `unit` that unit's view (kept with it), the
        action's nothing. Each expression is bounded alone (as with plain data)."""
        built = self._of(state)
        _, names, _ = self._read(expressions)
        value = built.units.get(unit.id)
        if value is None:
            value = built.units[unit.id] = unit_value(unit, self.expressions[0].declared,
                                                      self.needs)
        action: dict[str, Any] = {"unit": value}
        for name, empty in (("action", {}), ("actor", ""), ("role", "")):
            if name in names:
                action[name] = empty
        largest = max([built.sizes.get(name, 0) for name in names], default=0)
        return View(built, action, 0, largest, {**built.data, **action},
                    action_keys(action))

    def _read(self, expressions: Sequence[Compiled]
              ) -> tuple[tuple[int, ...], frozenset[str], list[Cost]]:
        """The variables `expressions` read together and the costs of those with a list
        function (kept by their identities, with the expressions themselves, so that no
        other takes them)."""
        last = self._last_read  # a legal answer reads one set again and again
        if last is not None and last[0] is expressions:
            return last[1], last[2], last[3]
        key = tuple(map(id, expressions))
        found = self._reads.get(key)
        if found is None:
            if len(self._reads) >= READS_KEPT:
                self._reads.clear()
            found = (tuple(expressions), frozenset().union(*(e.names for e in expressions)),
                     [e.cost for e in expressions if e.cost.sites])
            self._reads[key] = found
        self._last_read = (expressions, key, found[1], found[2])
        return key, found[1], found[2]

    def _of(self, state: MatchState) -> _Built:
        last = self._last  # the latest view is the last kept: found without the lock
        if last is not None and last.state is state:
            return last
        key = id(state)
        with self._lock:
            found = self._kept.get(key)
            if found is not None and found.state is state:
                self._kept.move_to_end(key)
                self._last = found
                return found
        first = self.expressions[0]
        data = values(state, first.declared, self.names - PER_ACTION, first.roles,
                      needs=self.needs)
        built = _Built(state, data,
                       {name: len(v) for name, v in data.items() if isinstance(v, list | dict)})
        with self._lock:
            self.built += 1
            self._kept[key] = built
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
            self._last = built
        return built


def action_keys(action: dict[str, Any]) -> dict[str, Any]:
    """What of the action a reading's value is kept by: the action's fields read (when
    each is a whole number, a text, true or false or null: its type too, so that 1 and
    true differ), the actor, their role, and the unit's view (kept with the state's)."""
    keys: dict[str, Any] = {}
    for name, value in action.items():
        if name == "action":
            parts = []
            for field_name, field_value in value.items():
                kind = type(field_value)
                if kind not in _KEYABLE:
                    break
                parts.append((field_name, kind, field_value))
            else:
                keys[name] = tuple(parts)
        else:
            keys[name] = id(value) if name == "unit" else value
    return keys


_KEYABLE = frozenset({str, int, bool, type(None)})


class Together:
    """Several expressions of one file read over one view: built once per state (`Views`)."""

    def __init__(self, expressions: Sequence[Compiled]) -> None:
        self.expressions = tuple(expressions)
        self.views = Views(self.expressions)

    def view(self, state: MatchState, command: Command | None = None,
             actor: str = "") -> dict[str, Any] | View:
        if not self.expressions:
            return {}
        return self.views.view(self.expressions, state, command, actor)


def context_of(data: dict[str, Any], hexes: bool) -> Any:
    context = cel.Context()
    for name, value in data.items():
        context.add_variable(name, value)
    if hexes:
        context.add_function("hex_distance", hex_distance)
        context.add_function("highest", highest)
        context.add_function("join", join)
        context.add_function("distinct", distinct)
    return context


def compile_expression(text: str, view: dict[str, Ty], wanted: Ty, declared: Declared,
                       roles: Roles) -> Compiled:
    checked = read_expression(text, view, wanted)
    if checked.flaws:
        flaw = checked.flaws[0]
        raise NotAnExpression(f"{text[:80]!r}: {flaw.check}: {flaw.message}")
    program = cel.compile(text)
    return Compiled(text, program, frozenset(program.variables()) & frozenset(view),
                    checked.needs, declared, roles,
                    any(name in text for name in OURS), checked.cost,
                    None if checked.tree is None else closure(checked.tree),
                    tuple(sorted(frozenset(program.variables()) & PER_ACTION)))
