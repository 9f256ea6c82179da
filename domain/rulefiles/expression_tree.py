"""Reading the parse tree of an expression (cel-python's CEL grammar, `lark`): a node's
parts, its first token (where a flaw is placed), and the shapes the checks ask about (a
bare name, a member selection)."""

from __future__ import annotations

from typing import TypeAlias

from lark import Token, Tree

Tree_: TypeAlias = Tree[Token]
Part: TypeAlias = Tree[Token] | Token


def first_token(node: Tree_) -> Token | None:
    stack: list[Part] = [node]
    while stack:
        item = stack.pop(0)
        if isinstance(item, Token):
            return item
        if isinstance(item, Tree):
            stack = [c for c in item.children if c is not None] + stack
    return None


def kids(node: Tree_) -> list[Part]:
    return [c for c in node.children if c is not None]


def single(node: Part) -> Part:
    while isinstance(node, Tree) and len(kids(node)) == 1 and node.data not in (
            "ident", "literal"):
        node = kids(node)[0]
    return node


def bare_name(node: Part) -> str | None:
    inner = single(node)
    return str(kids(inner)[0]) if isinstance(inner, Tree) and inner.data == "ident" else None


def is_select(node: Part) -> bool:
    inner = single(node)
    return isinstance(inner, Tree) and inner.data == "member_dot"
