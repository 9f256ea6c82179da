"""How an expression of a ruleset file is read against the view's types
(`expression.read_expression` runs it): the type of each part of its tree, every name
checked against what the file declares, each flaw placed at its token, and what of the
view it reads (`Needs`). The tree is cel-python's (its CEL grammar, `lark`), read through
`expression_tree`; what it keeps as it goes (the `Checker`, its flaws and caps) is
`expression_checker`."""

from __future__ import annotations

from lark import Token, Tree

from domain.commands import SAFE_INT
from domain.rulefiles.cost import BODY
from domain.rulefiles.expression_checker import (
    FUNCTIONS,
    MACROS,
    MAX_MACROS,
    MAX_TEXT,
    METHODS,
    Checker,
    Flaw,
    Refuse,
    Typed,
)
from domain.rulefiles.expression_tree import Part, bare_name, first_token, is_select
from domain.rulefiles.expression_tree import kids as children
from domain.rulefiles.types import BOOL, DYN, INT, NULL, STRING, Ty, list_of, same

# how each function of ours goes over the list it is given (cost.Cost.calls)
OVER_LIST = {"hex_distance": 0, "highest": 1, "join": 1, "distinct": 2}


def infer(c: Checker, node: Part, scope: dict[str, Ty]) -> Typed:
    if isinstance(node, Token):
        raise Refuse(Flaw("expression-unsupported", f"unexpected '{node}'"))
    kids = children(node)
    kind = node.data
    if kind in ("member", "primary", "paren_expr") or len(kids) == 1 and kind in (
            "expr", "conditionalor", "conditionaland", "relation", "addition",
            "multiplication", "unary"):
        return infer(c, kids[0], scope)
    if c.bodies:  # one operation of the body of the list function it stands in
        c.bodies[-1] += 1
    if kind == "expr":  # a ? b : c
        _want(c, kids[0], scope, BOOL, "the condition of '? :'")
        left, right = infer(c, kids[1], scope), infer(c, kids[2], scope)
        c.whole(left.ty)
        c.whole(right.ty)
        if not same(left.ty, right.ty):
            c.flaw("expression-type", f"'? :' gives {left.ty.said()} or {right.ty.said()}: "
                   "both must be of one type", kids[1])
        return Typed(left.ty if left.ty != NULL else right.ty)
    if kind in ("conditionalor", "conditionaland"):
        word = "||" if kind == "conditionalor" else "&&"
        _want(c, kids[0], scope, BOOL, f"'{word}'")
        _want(c, kids[1], scope, BOOL, f"'{word}'")
        return Typed(BOOL)
    if kind in ("relation", "addition", "multiplication"):
        operator = kids[0]
        assert isinstance(operator, Tree)
        return _binary(c, operator.data.split("_")[1], children(operator)[0], kids[1], scope)
    if kind == "unary":
        operator = kids[0]
        assert isinstance(operator, Tree)
        if operator.data == "unary_not":
            _want(c, kids[1], scope, BOOL, "'!'")
            return Typed(BOOL)
        _want(c, kids[1], scope, INT, "'-'")
        return Typed(INT)
    if kind == "literal":
        return _literal(c, kids[0])
    if kind == "ident":
        name = str(kids[0])
        if name not in scope:
            c.undeclared(name, "name of the view", scope, kids[0])
            return Typed(DYN)
        return Typed(scope[name])
    if kind == "member_dot":
        target = infer(c, kids[0], scope).ty
        return Typed(_select(c, target, str(kids[1]), kids[1]))
    if kind == "member_index":
        return _index(c, kids[0], kids[1], scope)
    if kind == "member_dot_arg":
        return _method(c, kids[0], kids[1], kids[2] if len(kids) > 2 else None, scope)
    if kind == "ident_arg":
        return _function(c, kids[0], kids[1] if len(kids) > 1 else None, scope)
    if kind == "list_lit":
        items = children(kids[0]) if kids and isinstance(kids[0], Tree) else []
        typed = [infer(c, item, scope) for item in items]
        for t in typed:
            c.whole(t.ty)
        texts = tuple((t.literal, i if isinstance(i, Token) else first_token(i))
                      for t, i in zip(typed, items, strict=True) if t.literal is not None)
        first = next((t.ty for t in typed if t.ty.kind != "dyn"), DYN)
        for t, item in zip(typed, items, strict=True):
            if not same(t.ty, first):
                c.flaw("expression-type", f"a list holds {first.said()} and "
                       f"{t.ty.said()}: one type only", item)
        return Typed(list_of(first), items=texts)
    raise Refuse(Flaw("expression-unsupported", {
        "map_lit": "a map literal is not needed over the view", "member_object":
        "messages are not part of the view", "dot_ident": "a leading dot names nothing here",
        "dot_ident_arg": "a leading dot names nothing here"}.get(
            kind, f"'{kind}' is not part of the view's language"), *c.at(node)))


def _want(c: Checker, node: Part, scope: dict[str, Ty], wanted: Ty,
          where: str) -> Typed:
    typed = infer(c, node, scope)
    if not same(typed.ty, wanted) or typed.ty.kind == "null":
        c.flaw("expression-type", f"{where} takes {wanted.said()}, not {typed.ty.said()}",
               node)
    return typed


def _literal(c: Checker, token: Part) -> Typed:
    assert isinstance(token, Token)
    value = str(token)
    if token.type == "INT_LIT":
        number = int(value, 16) if "x" in value.lower() else int(value)
        if abs(number) > SAFE_INT:
            c.flaw("expression-too-large", f"{value[:20]} is past the largest whole number "
                   f"an expression takes ({SAFE_INT})", token)
        return Typed(INT)
    if token.type == "BOOL_LIT":
        return Typed(BOOL)
    if token.type == "NULL_LIT":
        return Typed(NULL)
    if token.type == "STRING_LIT" and not value[:1] in "rR":
        inner = value[1:-1]
        if len(inner) > MAX_TEXT:
            c.flaw("expression-too-large", f"a text of {len(inner)} characters; at most "
                   f"{MAX_TEXT}", token)
        return Typed(STRING, literal=inner if "\\" not in inner else None)
    raise Refuse(Flaw("expression-unsupported", "the view holds whole numbers, text and "
                       f"true or false: {value[:20]} is none of them", *c.at(token)))


def _binary(c: Checker, operator: str, left_node: Part, right_node: Part,
            scope: dict[str, Ty]) -> Typed:
    left, right = infer(c, left_node, scope), infer(c, right_node, scope)
    item = right.ty.item if operator == "in" and right.ty.kind == "list" else None
    if item is None or item.kind in ("record", "map"):  # read whole, not by one field
        c.whole(left.ty)
        c.whole(right.ty)
    sign = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!=", "in": "in",
            "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%"}[operator]
    if operator in ("eq", "ne"):
        if not same(left.ty, right.ty):
            c.flaw("expression-type", f"'{sign}' compares {left.ty.said()} with "
                   f"{right.ty.said()}: they are never equal", left_node)
        _named(c, left.ty, right.literal, right_node)
        _named(c, right.ty, left.literal, left_node)
        return Typed(BOOL)
    if operator == "in":
        container = right.ty
        if container.kind == "list" and container.item is not None:
            if not same(left.ty, container.item):
                c.flaw("expression-type", f"'in' looks for {left.ty.said()} in a "
                       f"{container.said()}", left_node)
            _named(c, container.item, left.literal, left_node)
            for text, token in right.items:
                _named(c, left.ty, text, token or right_node)
        elif container.kind == "map":
            if not same(left.ty, STRING):
                c.flaw("expression-type", "'in' looks for a key (text) in a map", left_node)
            if left.literal is not None and container.field(left.literal) is None:
                c.undeclared(left.literal, container.what or "key", container.keys or (),
                             left_node)
        elif container.kind != "dyn":
            c.flaw("expression-type", f"'in' looks in a list or a map, not in "
                   f"{container.said()}", right_node)
        return Typed(BOOL)
    if operator in ("lt", "le", "gt", "ge"):
        if not (same(left.ty, right.ty) and {left.ty.kind, right.ty.kind} <= {
                "int", "string", "dyn"}) or "null" in (left.ty.kind, right.ty.kind):
            c.flaw("expression-type", f"'{sign}' compares {left.ty.said()} with "
                   f"{right.ty.said()}: two whole numbers or two texts", left_node)
        return Typed(BOOL)
    if operator == "add" and same(left.ty, right.ty) and left.ty.kind in ("string", "list"):
        c.joins += left.ty.kind == "list"
        return Typed(left.ty)
    for typed, where in ((left, left_node), (right, right_node)):
        if not same(typed.ty, INT) or typed.ty.kind == "null":
            c.flaw("expression-type", f"'{sign}' takes whole numbers, not "
                   f"{typed.ty.said()}", where)
    return Typed(INT)


def _named(c: Checker, ty: Ty, literal: str | None, node: Part) -> None:
    """A text literal compared with a name the file declares must be one of them."""
    if literal is not None and ty.kind == "string" and ty.keys is not None and (
            literal not in ty.keys):
        c.undeclared(literal, ty.what, ty.keys, node)


def _select(c: Checker, target: Ty, name: str, node: Part) -> Ty:
    if target.kind == "dyn":
        return DYN
    c.use(target, name)
    found = target.field(name)
    if found is None:
        if target.kind in ("record", "map") and (target.keys is not None or target.fields):
            names = target.keys if target.kind == "map" else dict(target.fields)
            c.undeclared(name, f"{target.what} field" if target.kind == "record"
                         else target.what, names or (), node)
        else:
            c.flaw("expression-type", f"'.{name}' reads a field of {target.said()}", node)
        return DYN
    return found


def _index(c: Checker, target_node: Part, key_node: Part,
           scope: dict[str, Ty]) -> Typed:
    target = infer(c, target_node, scope).ty
    key = infer(c, key_node, scope)
    if target.kind == "list" and target.item is not None:
        if not same(key.ty, INT):
            c.flaw("expression-type", f"a list's index is a whole number, not "
                   f"{key.ty.said()}", key_node)
        return Typed(target.item)
    if target.kind in ("map", "record"):
        if not same(key.ty, STRING):
            c.flaw("expression-type", f"a map's key is a text, not {key.ty.said()}", key_node)
        if key.literal is not None:
            return Typed(_select(c, target, key.literal, key_node))
        c.whole(target)
        return Typed(target.item or DYN)
    if target.kind != "dyn":
        c.flaw("expression-type", f"'[...]' reads a list or a map, not {target.said()}",
               target_node)
    return Typed(DYN)


def _method(c: Checker, target_node: Part, name_token: Part,
            arguments: Part | None, scope: dict[str, Ty]) -> Typed:
    name = str(name_token)
    args = children(arguments) if isinstance(arguments, Tree) else []
    target = infer(c, target_node, scope).ty
    if name in MACROS:
        return _macro(c, name, name_token, target, target_node, args, scope)
    if name not in METHODS:
        c.flaw("unknown-function", f"'{name}' is no function an expression may call (it may "
               f"call: {', '.join(sorted({*METHODS, *MACROS, *FUNCTIONS}))})", name_token)
        return Typed(DYN)
    if name == "size":
        c.use(target, None)  # a map's keys counted; a list's items need nothing read
        if args or target.kind not in ("list", "map", "string", "dyn"):
            c.flaw("expression-type", "size() counts a list, a map or a text", name_token)
        return Typed(INT)
    if len(args) != 1 or target.kind not in ("string", "dyn"):
        c.flaw("expression-type", f"{name}() is a text's, with one text", name_token)
    for arg in args:
        _want(c, arg, scope, STRING, f"{name}()")
    return Typed(BOOL)


def _macro(c: Checker, name: str, name_token: Part, target: Ty,
           target_node: Part, args: list[Part], scope: dict[str, Ty]) -> Typed:
    if target.kind not in ("list", "map", "dyn"):
        c.flaw("expression-type", f"{name}() goes over a list or a map's keys, not "
               f"{target.said()}", target_node)
    variable = bare_name(args[0]) if args else None
    if len(args) != 2 or variable is None:
        raise Refuse(Flaw("expression-syntax", f"{name}() takes a name and an expression: "
                           f"units.{name}(u, ...)", *c.at(name_token)))
    if variable in scope:
        c.flaw("expression-type", f"'{variable}' is already a name of the view: give the "
               "macro's variable another", args[0])
    c.macros += 1
    if c.macros > MAX_MACROS:
        raise Refuse(Flaw("expression-too-large", f"more than {MAX_MACROS} macros inside "
                           "one another", *c.at(name_token)))
    c.sites.append((c.macros, name in ("filter", "map")))
    site = len(c.sites) - 1
    c.bodies.append(0)
    # over a map (the tracks, a family `control.*` among them): its keys, the names it
    # holds, as many as the match holds (bounded: a map is data the view built)
    item = (STRING if target.kind == "map" else
            target.item if target.kind == "list" and target.item is not None else DYN)
    inner = {**scope, variable: item}
    try:
        if name == "map":
            result = infer(c, args[1], inner).ty
            c.whole(result)
            return Typed(list_of(result))
        _want(c, args[1], inner, BOOL, f"{name}()")
    finally:
        c.macros -= 1
        weight = -(-c.bodies.pop() // BODY)  # each item visited: a step a BODY operations
        if weight > 1:
            c.weights.append((site, weight))
    if name == "filter":
        return Typed(list_of(STRING) if target.kind == "map" else target)
    return Typed(BOOL)


def _function(c: Checker, name_token: Part, arguments: Part | None,
              scope: dict[str, Ty]) -> Typed:
    name = str(name_token)
    args = children(arguments) if isinstance(arguments, Tree) else []
    if name in OVER_LIST:  # a call of ours: its work, for the cost (cost.py)
        c.calls.append((c.macros, OVER_LIST[name]))
    if name == "hex_distance" and len(args) == 2:  # domain/rulefiles/hexes.py
        for arg in args:
            _want(c, arg, scope, STRING, "hex_distance()")
        return Typed(INT)
    if name == "highest" and len(args) == 2:  # domain/rulefiles/numbers.py
        listed = infer(c, args[0], scope).ty
        if listed.kind not in ("list", "dyn") or (
                listed.item is not None and listed.item.kind not in ("int", "dyn")):
            c.flaw("expression-type", f"highest() takes a list of whole numbers, not "
                   f"{listed.said()}", args[0])
        c.whole(listed)
        _want(c, args[1], scope, INT, "highest()")
        return Typed(INT)
    if name == "join" and len(args) == 2:  # domain/rulefiles/lists.py
        listed = infer(c, args[0], scope).ty
        if listed.kind not in ("list", "dyn") or (
                listed.item is not None and listed.item.kind not in ("string", "dyn")):
            c.flaw("expression-type", f"join() takes a list of texts, not {listed.said()}",
                   args[0])
        _want(c, args[1], scope, STRING, "join()")
        return Typed(STRING)
    if name == "distinct" and len(args) == 1:
        listed = infer(c, args[0], scope).ty
        if listed.kind not in ("list", "dyn"):
            c.flaw("expression-type", f"distinct() takes a list, not {listed.said()}", args[0])
        return Typed(listed)
    if name not in FUNCTIONS or len(args) != 1 or name in ("hex_distance", "highest", "join"):
        c.flaw("unknown-function", f"'{name}' is no function an expression may call (it may "
               f"call: {', '.join(sorted({*METHODS, *MACROS, *FUNCTIONS}))}), each with one "
               "argument (hex_distance, highest and join with two)", name_token)
        return Typed(DYN)
    typed = infer(c, args[0], scope)
    if name == "size":
        c.use(typed.ty, None)
        return Typed(INT)
    if name == "string":  # CEL's own: a whole number said as text ('activated:' + string(run))
        if typed.ty.kind not in ("int", "string", "dyn"):
            c.flaw("expression-type", f"string() says a whole number or a text, not "
                   f"{typed.ty.said()}", args[0])
        return Typed(STRING)
    if not is_select(args[0]):
        c.flaw("expression-type", "has() asks whether a field is there: has(unit.attributes"
               ".rof)", name_token)
    del typed
    return Typed(BOOL)
