"""A checked expression of a ruleset file read by Python closures over its parse tree, in
front of CEL's evaluator (evaluate.py): the same value, or no answer at all.

(ours) CEL's evaluator (Rust) is fast at an expression's own work but costs tens of
microseconds to take in the view's data each reading (a `units.exists(...)` over forty
units costs a reading of the Python module's whole check several times over:
bench/rulefiles.py). `closure(tree)` turns the tree the load's checks passed
(expression.read_expression) into nested Python functions over the same plain data. It
covers what the view's expressions are made of (names, fields, indexes, `!`, `-`, `&&`,
`||`, `? :`, comparisons, `in`, `+ - * / %` on whole numbers, `+` on texts and lists, list
literals, `size`, `string`, `has`, the text methods, our functions and the macros over
lists); anything else (an escaped text, `filter` or `map` over a map, whose order CEL does
not keep) gives no closure and the expression is CEL's alone.

A closure answers only when its answer is CEL's: wherever CEL's evaluator would fail (a
key a map lacks, a list read past its end, a division by zero, a whole number past 64
bits, operands of mismatched types, a function of ours that refuses) or where the two
could differ, it raises `Defer`, and the reading is CEL's again from the start, so that
every failure is CEL's own, said in its words. Equality is CEL's: values of two types are
never equal (`1 == true` is false), lists and maps compare item by item. Nothing here
reaches Python beyond the data it is given: names are looked up in the view's own dict,
fields in its maps, and the only functions called are the view's four (hexes.py,
numbers.py, lists.py). The steps a reading may take are bounded before it runs, whichever
reads it (cost.py); the tree is as deep as the load's caps allow (expression.py), so the
closures nest no deeper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from domain.rulefiles.expression_tree import Part, bare_name, kids, single
from domain.rulefiles.hexes import hex_distance
from domain.rulefiles.lists import distinct, join
from domain.rulefiles.numbers import highest

Env = dict[str, Any]
Closure = Callable[[Env], Any]
LOWEST, HIGHEST = -(2 ** 63), 2 ** 63 - 1  # CEL's whole numbers: 64 bits
_LISTS = (list, tuple)
_SCALARS = (str, int, bool, type(None))
OURS: dict[str, Callable[..., Any]] = {"hex_distance": hex_distance, "highest": highest,
                                       "join": join, "distinct": distinct}


class Defer(Exception):
    """The closure has no answer CEL would surely give: CEL's evaluator reads it."""


class _Unsupported(Exception):
    """A part of the tree no closure reads: the expression is CEL's alone."""


def closure(tree: Part) -> Closure | None:
    """The expression's closure, or None when a part of it is CEL's alone."""
    try:
        return _of(tree)
    except _Unsupported:
        return None


def fresh(value: Any) -> Any:
    """A result as CEL's evaluator gives it: lists and maps copied (never the view's own),
    a tuple a list."""
    if isinstance(value, _LISTS):
        return [fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: fresh(v) for k, v in value.items()}
    return value


def equal(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is tb and ta in _SCALARS:
        return bool(a == b)
    if isinstance(a, _LISTS) and isinstance(b, _LISTS):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=True))
    if ta is dict and tb is dict:
        return a.keys() == b.keys() and all(equal(v, b[k]) for k, v in a.items())
    if ta in _SCALARS + (list, tuple, dict) and tb in _SCALARS + (list, tuple, dict):
        return False  # two kinds of value: never equal
    raise Defer


def _whole(value: Any) -> int:
    if type(value) is not int or not LOWEST <= value <= HIGHEST:
        raise Defer
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise Defer
    return value


def _of(node: Part) -> Closure:
    if isinstance(node, Token):
        raise _Unsupported
    parts = kids(node)
    kind = node.data
    if kind in ("member", "primary", "paren_expr") or len(parts) == 1 and kind in (
            "expr", "conditionalor", "conditionaland", "relation", "addition",
            "multiplication", "unary"):
        return _of(parts[0])
    if kind == "expr":
        return _choice(_of(parts[0]), _of(parts[1]), _of(parts[2]))
    if kind in ("conditionalor", "conditionaland"):
        return _logic(kind == "conditionalor", _of(parts[0]), _of(parts[1]))
    if kind in ("relation", "addition", "multiplication"):
        operator = parts[0]
        assert isinstance(operator, Tree)
        return _binary(operator.data.split("_")[1], _of(kids(operator)[0]), _of(parts[1]))
    if kind == "unary":
        operator = parts[0]
        assert isinstance(operator, Tree)
        return _unary(operator.data == "unary_not", _of(parts[1]))
    if kind == "literal":
        return _literal(parts[0])
    if kind == "ident":
        return _name(str(parts[0]))
    if kind == "member_dot":
        return _field(_of(parts[0]), str(parts[1]))
    if kind == "member_index":
        return _index(_of(parts[0]), _of(parts[1]))
    if kind == "member_dot_arg":
        arguments = kids(parts[2]) if len(parts) > 2 and isinstance(parts[2], Tree) else []
        return _method(parts[0], str(parts[1]), arguments)
    if kind == "ident_arg":
        arguments = kids(parts[1]) if len(parts) > 1 and isinstance(parts[1], Tree) else []
        return _function(str(parts[0]), arguments)
    if kind == "list_lit":
        items = [_of(item) for item in (kids(parts[0]) if parts and isinstance(
            parts[0], Tree) else [])]
        return lambda env: [item(env) for item in items]
    raise _Unsupported


def _choice(test: Closure, yes: Closure, no: Closure) -> Closure:
    return lambda env: yes(env) if _bool(test(env)) else no(env)


def _logic(settles: bool, left: Closure, right: Closure) -> Closure:
    """`||` (settled by true on the left) or `&&` (by false). A failure on the left is
    CEL's to weigh against the right (`error || true` is true): the closure defers."""
    def read(env: Env) -> bool:
        first = left(env)
        if first is settles:
            return bool(settles)
        if first is not (not settles):
            raise Defer
        second = right(env)
        if second is True or second is False:
            return bool(second)
        raise Defer
    return read


def _unary(negation: bool, operand: Closure) -> Closure:
    if negation:
        def read(env: Env) -> bool:
            value = operand(env)
            if value is True or value is False:
                return not value
            raise Defer
        return read
    return lambda env: _whole(-_whole(operand(env)))


def _literal(token: Part) -> Closure:
    assert isinstance(token, Token)
    text = str(token)
    value: Any
    if token.type == "INT_LIT":
        value = int(text, 16) if "x" in text.lower() else int(text)
    elif token.type == "BOOL_LIT":
        value = text == "true"
    elif token.type == "NULL_LIT":
        value = None
    elif (token.type == "STRING_LIT" and text[:1] in "'\"" and "\\" not in text
          and len(text) >= 2 and text[-1] == text[0]):
        value = text[1:-1]
    else:  # escapes, raw or long texts: CEL reads them
        raise _Unsupported
    return lambda env: value


def _name(name: str) -> Closure:
    def read(env: Env) -> Any:
        try:
            return env[name]
        except KeyError:
            raise Defer from None
    return read


def _field(target: Closure, name: str) -> Closure:
    def read(env: Env) -> Any:
        value = target(env)
        if type(value) is dict:
            try:
                return value[name]
            except KeyError:
                raise Defer from None
        raise Defer
    return read


def _index(target: Closure, key: Closure) -> Closure:
    def read(env: Env) -> Any:
        value, at = target(env), key(env)
        if isinstance(value, _LISTS) and type(at) is int and 0 <= at < len(value):
            return value[at]
        if type(value) is dict and type(at) is str and at in value:
            return value[at]
        raise Defer
    return read


def _contains(item: Any, container: Any) -> bool:
    if isinstance(container, _LISTS):
        if type(item) is str:  # a text equals only a text: Python's `in` says the same
            return item in container
        return any(equal(item, other) for other in container)
    if type(container) is dict and type(item) is str:
        return item in container
    raise Defer


def _compare(sign: str, a: Any, b: Any) -> bool:
    if not (type(a) is type(b) and type(a) in (int, str)):
        raise Defer
    if sign == "lt":
        return bool(a < b)
    if sign == "le":
        return bool(a <= b)
    if sign == "gt":
        return bool(a > b)
    return bool(a >= b)


def _arithmetic(sign: str, a: Any, b: Any) -> Any:
    if sign == "add" and type(a) is str and type(b) is str:
        return a + b
    if sign == "add" and isinstance(a, _LISTS) and isinstance(b, _LISTS):
        return [*a, *b]
    a, b = _whole(a), _whole(b)
    if sign in ("div", "mod") and (a < 0 or b <= 0):  # CEL rounds toward zero: its own
        raise Defer
    result = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
              "div": lambda: a // b, "mod": lambda: a % b}[sign]()
    return _whole(result)


def _binary(sign: str, left: Closure, right: Closure) -> Closure:
    if sign == "eq":
        return lambda env: equal(left(env), right(env))
    if sign == "ne":
        return lambda env: not equal(left(env), right(env))
    if sign == "in":
        return lambda env: _contains(left(env), right(env))
    if sign in ("lt", "le", "gt", "ge"):
        return lambda env: _compare(sign, left(env), right(env))
    return lambda env: _arithmetic(sign, left(env), right(env))


def _size(value: Any) -> int:
    if isinstance(value, _LISTS) or type(value) is dict:
        return len(value)
    if type(value) is str and value.isascii():  # CEL's evaluator counts bytes
        return len(value)
    raise Defer


def _text_method(name: str, target: Closure, argument: Closure) -> Closure:
    def read(env: Env) -> bool:
        text, part = target(env), argument(env)
        if type(text) is not str or type(part) is not str:
            raise Defer
        if name == "contains":
            return part in text
        return text.startswith(part) if name == "startsWith" else text.endswith(part)
    return read


def _method(target_node: Part, name: str, arguments: list[Part]) -> Closure:
    target = _of(target_node)
    if name in ("exists", "all", "exists_one", "filter", "map"):
        variable = bare_name(arguments[0]) if len(arguments) == 2 else None
        if variable is None:
            raise _Unsupported
        return _macro(name, target, variable, _of(arguments[1]))
    if name == "size" and not arguments:
        return lambda env: _size(target(env))
    if name in ("contains", "startsWith", "endsWith") and len(arguments) == 1:
        return _text_method(name, target, _of(arguments[0]))
    raise _Unsupported


def _macro(name: str, target: Closure, variable: str, body: Closure) -> Closure:
    def read(env: Env) -> Any:
        over = target(env)
        if type(over) is dict:
            if name in ("filter", "map"):  # a map's keys in CEL's order, not Python's
                raise Defer
            items: Any = list(over)
        elif isinstance(over, _LISTS):
            items = over
        else:
            raise Defer
        inner = dict(env)
        if name == "map":
            out = []
            for item in items:
                inner[variable] = item
                out.append(body(inner))
            return out
        if name == "filter":
            kept = []
            for item in items:
                inner[variable] = item
                if _bool(body(inner)):
                    kept.append(item)
            return kept
        if type(over) is dict:  # every key read: CEL's order is not Python's
            held = [_bool(body({**inner, variable: item})) for item in items]
            found = sum(held)
            return {"exists": found > 0, "all": found == len(held),
                    "exists_one": found == 1}[name]
        found = 0
        for item in items:
            inner[variable] = item
            holds = _bool(body(inner))
            if name == "exists" and holds:
                return True
            if name == "all" and not holds:
                return False
            found += holds
        return name == "all" or (name == "exists_one" and found == 1)
    return read


def _function(name: str, arguments: list[Part]) -> Closure:
    if name == "has" and len(arguments) == 1:
        inner = single(arguments[0])
        if not (isinstance(inner, Tree) and inner.data == "member_dot"):
            raise _Unsupported
        target, key = _of(kids(inner)[0]), str(kids(inner)[1])

        def has(env: Env) -> bool:
            value = target(env)
            if type(value) is not dict:
                raise Defer
            return key in value
        return has
    read = [_of(argument) for argument in arguments]
    if name == "size" and len(read) == 1:
        return lambda env: _size(read[0](env))
    if name == "string" and len(read) == 1:
        return lambda env: _string(read[0](env))
    ours = OURS.get(name)
    if ours is None:
        raise _Unsupported
    function = ours

    def call(env: Env) -> Any:
        values = [argument(env) for argument in read]
        if any(isinstance(v, tuple) for v in values):  # CEL hands it lists
            raise Defer
        try:
            return function(*values)
        except (ValueError, TypeError):
            raise Defer from None
    return call


def _string(value: Any) -> str:
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    raise Defer
