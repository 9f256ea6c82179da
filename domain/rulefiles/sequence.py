"""A file's sequence of play as the engine's `SequenceOfPlay` (domain.sequence): the same
tree, field for field, each step's duties as the engine's (duties.py names their tests by
the step's path)."""

from __future__ import annotations

from domain import sequence as sop
from domain.rulefiles.duties import duty_of
from domain.rulefiles.model import Phase, RulesetFile, Step


def sequence_of(file: RulesetFile) -> sop.SequenceOfPlay:
    return sop.SequenceOfPlay(phases=tuple(_node(node, "") for node in file.sequence))


def _node(node: Phase | Step, prefix: str) -> sop.Phase | sop.Step:
    if isinstance(node, Step):
        path = f"{prefix}{node.step}"
        return sop.Step(id=node.step, title=node.title, rule=node.rule, allows=node.allows,
                        acting=node.acting, optional=node.optional, leave_when=node.leave_when,
                        advanced_by=node.advanced_by, only=node.only, shared=node.shared,
                        owes=tuple(duty_of(owed, path, index)
                                   for index, owed in enumerate(node.owes)))
    return sop.Phase(id=node.phase, title=node.title, rule=node.rule,
                     children=tuple(_node(child, f"{prefix}{node.phase}/")
                                    for child in node.steps),
                     player_turns=node.player_turns, roles=node.roles or (),
                     repeat_while=node.repeat_while, alternate=node.alternate,
                     eligible=node.eligible)
