"""A checked expression read by Python closures ahead of CEL's evaluator
(domain/rulefiles/closures.py): where a closure answers, its answer is CEL's, value and
type; where CEL's evaluator would fail or could differ, the closure defers and the reading
(its failure and its words) is CEL's own; and a view whose every reading a closure answers
never hands the state's data to CEL at all."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cel
import pytest
from test_rulefile_expressions import DECLARED, state, value

from domain import commands as cmd
from domain.rulefiles.closures import Defer, closure
from domain.rulefiles.evaluate import Unreadable, Views, action_keys, compile_expression
from domain.rulefiles.expression import _parser
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import types
from domain.state import Position

DATA: dict[str, Any] = {
    "n": 7, "neg": -7, "zero": 0, "big": 2 ** 63 - 1, "low": -(2 ** 63), "flag": True,
    "text": "héllo", "ascii": "abc", "none": None, "ids": ["a", "b", "c"], "nums": [1, 2, 3],
    "bools": [True, False], "mixed": ["a", 1, True, None], "pair": ("x", "y"),
    "m": {"a": 1, "b": 2, "c": 3}, "units": [
        {"id": "u1", "side": "red", "status": ["broken"], "markers": {"pinned": 2},
         "attributes": {"cv": 3, "wing": ""}},
        {"id": "u2", "side": "blue", "status": [], "markers": {"pinned": 0},
         "attributes": {"cv": 5, "wing": "w1"}}],
}

EXPRESSIONS = [
    # equality is CEL's: two kinds of value are never equal
    "n == 7", "1 == true", "flag == 1", "none == null", "n == null", "null == text",
    "nums == [1, 2, 3]", "bools == [1, 0]", "m == m", "units[0].markers == units[1].markers", "ids == pair",
    "1 in bools", "true in bools", "'a' in mixed", "1 in mixed", "null in mixed",
    "'a' in m", "'z' in m", "'x' in pair", "[1] in [[1], [2]]",
    # numbers: 64 bits, CEL's rounding
    "n + 1", "n - 10", "n * n", "n / 2", "n % 3", "neg / 2", "neg % 2", "n / zero",
    "n % zero", "big + 1", "big * 2", "low - 1", "-low", "-n", "-(-n)", "0x1F + n",
    # texts and lists
    "ascii + 'd'", "size(text)", "text.size()", "size(ascii)", "size(m)", "nums.size()",
    "string(n)", "string(ascii)", "string(flag)", "ascii.contains('b')",
    "ascii.startsWith('ab')", "ascii.endsWith('bc')", "text < 'z'", "'b' > ascii",
    "nums + [4]", "ids + pair", "nums[1]", "nums[3]", "nums[-1]", "m['b']", "m['z']", "m.a",
    "m.z", "units[0].attributes.cv", "units[0].nothing", "ids[0]", "pair[1]",
    # logic: CEL's commutative && and ||, its '? :'
    "true && n / zero == 1", "n / zero == 1 && false", "n / zero == 1 || true",
    "false || n / zero == 1", "n > 3 ? 'big' : 'small'", "n ? 1 : 2", "!flag", "!!flag",
    "has(m.a)", "has(m.z)", "has(units[0].markers.pinned)",
    # macros over lists and maps
    "units.exists(u, u.side == 'blue')", "units.all(u, u.attributes.cv > 2)",
    "units.exists_one(u, u.markers.pinned > 0)", "units.filter(u, u.side == 'red')",
    "units.map(u, u.id)", "units.filter(u, 'broken' in u.status).map(u, u.attributes.cv)",
    "nums.exists(x, 6 / (x - 1) == 3)", "[1, 0].exists(x, 1 / x == 1)",
    "[0, 1].exists(x, 1 / x == 1)", "[1, 0].all(x, 1 / x == 2)",
    "m.exists(k, k == 'b')", "m.all(k, m[k] > 0)", "m.exists_one(k, m[k] > 1)",
    "m.filter(k, m[k] > 1)", "m.map(k, k)", "units.map(u, u.markers)",
    "units.exists(u, units.exists(v, v.id != u.id && v.side == u.side))",
    "highest(nums, 0)", "highest([], n)", "highest(ids, 0)", "join(ids, '-')",
    "distinct(nums + nums)", "hex_distance('0101', '0103')", "hex_distance('x', '0101')",
    "highest(units.map(u, u.attributes.cv), 0)", "[n, n + 1]", "nobody == 1",
]


def cel_reads(text: str) -> tuple[str, Any]:
    context = cel.Context()
    for name, item in DATA.items():
        context.add_variable(name, item)
    for name, function in closure_functions().items():
        context.add_function(name, function)
    try:
        return "value", cel.compile(text).execute(context)
    except Exception as error:  # noqa: BLE001 (what CEL's evaluator raises, said)
        return "failure", str(error)


def closure_functions() -> dict[str, Any]:
    from domain.rulefiles.closures import OURS
    return OURS


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_a_closure_answers_as_cel_or_not_at_all(text: str) -> None:
    read = closure(_parser().parse(text))
    assert read is not None
    expected = cel_reads(text)
    if read is None:
        return
    try:
        got = read(dict(DATA))
    except Defer:
        return  # CEL's to read: the evaluator's answer or failure stands
    assert expected[0] == "value", f"{text}: the closure gave {got!r}, CEL failed"
    assert got == expected[1] and type(got) is type(expected[1]), text
    assert _types(got) == _types(expected[1]), text


def _types(item: Any) -> Any:
    if isinstance(item, list | tuple):
        return ["list", *(_types(i) for i in item)]
    if isinstance(item, dict):
        return {k: _types(v) for k, v in item.items()}
    return type(item).__name__


# where a closure defers though CEL answers: CEL's rounding of a negative division, its
# wrapping of the lowest number negated, its size of a text in bytes, a failure on the left
# of '&&' or '||' (CEL weighs it against the right), a map's keys in CEL's own order
DEFERRED = {"neg / 2", "neg % 2", "-low", "size(text)", "text.size()",
            "n / zero == 1 && false", "n / zero == 1 || true", "m.filter(k, m[k] > 1)",
            "m.map(k, k)"}


def test_a_closure_answers_every_expression_cel_answers_but_the_deferred_kinds() -> None:
    """(so that the comparison above is not empty)"""
    deferred = set()
    for text in EXPRESSIONS:
        read = closure(_parser().parse(text))
        assert read is not None
        try:
            read(dict(DATA))
        except Defer:
            if cel_reads(text)[0] == "value":
                deferred.add(text)
    assert deferred == DEFERRED


def test_what_a_closure_cannot_read_it_leaves_to_cel() -> None:
    # an escaped text, a raw text, a long text: CEL's alone
    for text in ("'a\\'b' == ''", "r'a' == ''", "'''a''' == ''"):
        assert closure(_parser().parse(text)) is None


def test_a_deferred_failure_is_cel_s_own_in_its_words() -> None:
    text = "units[5].id == ''"
    compiled = compile_expression(text, types(DECLARED), BOOL, DECLARED, lambda s: {})
    assert compiled.quick is not None
    with pytest.raises(Unreadable) as raised:
        compiled(state())
    with pytest.raises(Exception) as direct:
        cel.compile(text).execute({"units": [{"id": "a"}, {"id": "b"}]})
    assert str(raised.value) == " ".join(str(direct.value).split())[:200]
    # and the construct tests' values, read through the closures, still hold
    assert value("units.exists(u, u.id == 'a1' && 'broken' in u.status)") is True


def test_a_view_read_by_closures_alone_hands_nothing_to_cel() -> None:
    """The state's data becomes a CEL context only at the first reading CEL makes."""
    view = types(DECLARED, ("move_unit",))
    roles = lambda s: {"attacker": "red", "defender": "blue"}
    quick = compile_expression("units.exists(u, u.id == action.unit_id) && unit.side == "
                               "actor", view, BOOL, DECLARED, roles)
    views = Views([quick])
    move = cmd.MoveUnit(unit_id="a1", to=Position(hex="0202"))
    at = state()
    read = views.view((quick,), at, move, "red")
    assert quick.run(read) is True
    assert read.built.context is None
    deferred = compile_expression("units[5].id == ''", view, BOOL, DECLARED, roles)
    with pytest.raises(Unreadable):
        deferred.run(Views([deferred]).view((deferred,), at, move, "red"))



def counted(text: str) -> tuple[Any, list[int]]:
    """A guard's expression whose closure counts its readings."""
    view = types(DECLARED, ("move_unit",))
    compiled = compile_expression(text, view, BOOL, DECLARED,
                                  lambda s: {"attacker": "red", "defender": "blue"})
    calls: list[int] = []
    quick = compiled.quick
    assert quick is not None

    def counting(env: dict[str, Any]) -> Any:
        calls.append(1)
        return quick(env)
    return replace(compiled, quick=counting), calls


def test_a_reading_over_the_same_state_and_action_is_made_once() -> None:
    """Its value is kept with the state's view, by what of the action it reads: the same
    unit, actor and fields read give the kept value; another of any gives a new reading;
    and an equal state that is not the same object is read anew."""
    expression, calls = counted("unit.side == actor && action.unit_id != '' || role == ''")
    views = Views([expression])
    at = state()
    move = cmd.MoveUnit(unit_id="a1", to=Position(hex="0202"))

    def read(command: cmd.Command, actor: str, over: Any = None) -> Any:
        return expression.run(views.view((expression,), over or at, command, actor))

    assert read(move, "red") is True
    assert read(cmd.MoveUnit(unit_id="a1", to=Position(hex="0202")), "red") is True
    assert len(calls) == 1  # the same unit, actor, role and fields: read once
    assert read(move, "blue") is False
    assert read(cmd.MoveUnit(unit_id="b1", to=Position(hex="0202")), "red") is False
    assert len(calls) == 3
    assert read(move, "red", at.model_copy()) is True
    assert len(calls) == 4


def test_a_kept_value_tells_a_whole_number_from_true_and_never_keeps_a_map() -> None:
    """The action's fields key a kept value with their types (1 == True in Python); an
    action whose fields read include a map or a list is never kept."""
    assert action_keys({"action": {"x": 1}}) != action_keys({"action": {"x": True}})
    assert action_keys({"action": {"x": 1}}) == action_keys({"action": {"x": 1}})
    assert "action" not in action_keys({"action": {"to": {"hex": "0101"}}})
    assert "action" not in action_keys({"action": {"ids": ["a"]}})
