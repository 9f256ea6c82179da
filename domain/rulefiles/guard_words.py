"""What a guard says when it refuses (`says`), as words with placeholders read over the view
with the action (`'{action.target_id}' is not a piece`): the refusal names what was asked,
as the built-in games' refusals do, and the legal actions tell one refusal from another by
it (`domain/legal/probe.py`)."""

from __future__ import annotations

from collections.abc import Callable

from domain.commands import Command
from domain.rulefiles.evaluate import Roles, Unreadable
from domain.rulefiles.model import Guard, RulesetFile
from domain.rulefiles.template import Template, compile_template, view_of
from domain.rulefiles.view import Declared, types
from domain.state import MatchState

Said = Callable[[Guard, MatchState, Command, str], str]


def guard_words(file: RulesetFile, declared: Declared, roles: Roles) -> Said:
    """The sentence each guard of `file` says on refusal."""
    words: dict[int, Template] = {
        id(guard): compile_template(guard.says, types(declared, guard.actions), declared,
                                    roles)
        for guard in file.guards if "{" in guard.says}

    def say(guard: Guard, state: MatchState, command: Command, actor: str) -> str:
        template = words.get(id(guard))
        if template is None:
            return guard.says
        try:
            return template.say(view_of([template], state, declared, roles, command, actor,
                                        {}))
        except Unreadable:
            return guard.says  # (ours) words that cannot be read now are said as written
    return say
