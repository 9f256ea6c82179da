"""The words of the legal actions: each action's title and rule id in the game's own terms,
labels for units, sides and cards, the marker kinds and flags each game names, and refusals
said with names instead of ids. Words only: what is legal is `decide`'s to say."""

from __future__ import annotations

import re
from collections.abc import Callable
from fnmatch import fnmatchcase

from domain.decide import ALWAYS_ALLOWED
from domain.rulefiles.titles import titles
from domain.rulesets import Ruleset
from domain.sequence import ANY
from domain.state import MatchState, Unit

TITLES: dict[str, str] = {
    "activate_unit": "Activate a unit",
    "activate_battlegroup": "Activate a battlegroup",
    "roll_initiative": "Roll initiative",
    "pass_initiative": "Hand over first place",
    "draw_cards": "Draw cards",
    "discard_cards": "Discard cards",
    "play_card": "Play a card",
    "shuffle_deck": "Shuffle your deck",
    "cut_deck": "Cut a deck",
    "roll_morale": "Roll for morale",
    "split_unit": "Split a unit",
    "move_unit": "Move a unit",
    "place_marker": "Place a marker",
    "remove_marker": "Remove a marker",
    "set_status": "Change a unit's status",
    "rally_unit": "Rally a unit",
    "remove_unit": "Take a unit out of play",
    "lose_step": "Lose a step",
    "gain_step": "Regain a step",
    "deploy_unit": "Deploy a unit",
    "roll_dice": "Roll dice",
    "record_roll": "Enter the dice thrown",
    "enter_result": "Enter the result",
    "set_track": "Set a track",
    "score_vp": "Score victory points",
    "add_note": "Add a note",
    "open_dispute": "Open a dispute",
    "end_match": "End the match",
    "concede": "Concede",
    "reopen_match": "Reopen the match",
    "fire": "Fire",
    "resolve_combat": "Resolve a combat",
    "announce_reinforcements": "Announce reinforcements",
    "call_artillery": "Call off-board artillery",
    "declare_operation": "Declare operations",
    "set_supply": "Determine supply",
}
ROLLS: dict[str, str] = {  # rule_roll, by roll
    "unit_morale": "Unit morale check",
    "disruption_recovery": "Disruption recovery roll",
    "disengage": "Disengage from a corner lock",
    "activation": "Roll to activate a unit",
    "special_move": "Roll the wing commander's special move",
    "repair": "Repair broken-down equipment",
    "self_rally": "Self-rally",
    "leader_rally": "Rally with a leader",
}
# A game's own name for an action, and the rule it cites when the step's rule is not it.
OWN: dict[str, dict[str, tuple[str, str | None]]] = {
    "wing-command": {
        "roll_dice": ("Roll a die for what the rules do not cover", "WC-11"),
        "fire": ("Fire combat", None),
        "resolve_combat": ("Close combat", None),
    },
    "normandy": {"resolve_combat": ("Attack", None)},
    "battlegroup": {"pass_initiative": ("Hand the initiative over", None)},
}
# The marker kinds each game names (on units, at locations) and the flags players set; the
# state adds every kind and flag it holds. A player may name any other; the rules decide.
UNIT_MARKERS: dict[str, tuple[str, ...]] = {
    "atomic-africa": ("wound", "suppression"),
    "extended-sequence": ("suppression",),
    "wing-command": ("leadership",),
    "normandy": ("reserve", "disorganized", "regroup"),
}
LOCATION_MARKERS: dict[str, tuple[str, ...]] = {
    "extended-sequence": ("smoke", "fire"),
    "wing-command": ("casualty",),
    "normandy": ("interdiction", "interdicted", "construction", "improved_position",
                 "bridge_construction", "entrenchment"),
}
FLAGS: dict[str, tuple[str, ...]] = {
    "extended-sequence": ("broken", "routed", "pinned", "cowered", "broken_down"),
    "wing-command": ("disrupted", "unloaded", "corner_locked"),
}


def words(kind: str) -> str:
    """`broken_down` -> `broken down`."""
    return kind.replace("_", " ")


def title(kind: str, state: MatchState, ruleset: Ruleset, roll: str | None = None) -> tuple[
        str, str | None]:
    """An action's title with its rule id (`Roll initiative (BG-2)`), and the rule id: the
    roll's rule; else the game's own; else the current step's rule when the step names the
    action; else where the game places it; else none (the core's own actions). A ruleset
    file's action titles are said before the service's (a roll's title, a noun in the
    roll's words, where the service has no words for the roll), and its action's own rule
    before the step's."""
    step = ruleset.sequence.step(state.turn.step)
    own = titles(ruleset)
    if roll is not None:
        rule: str | None = ruleset.rolls[roll].rule
        said = ROLLS.get(roll) or (capital(own.rolls[roll]) if roll in own.rolls
                                   else words(roll).capitalize())
    else:
        said, rule = OWN.get(ruleset.id, {}).get(kind, (TITLES.get(kind, words(kind)), None))
        said = own.actions.get(kind, said)
        rule = rule or own.rules.get(kind)
        if rule is None and kind in ("enter_result", "record_roll") and state.awaiting:
            rule = state.awaiting.rule
        if rule is None and kind in step.allows and ANY not in step.allows:
            rule = step.rule
        if rule is None and kind not in ALWAYS_ALLOWED:
            rule = ruleset.where.get(kind, (None, ""))[0]
    # (a rule id is a small reference for the game's rules; the service's own `core-*` ids
    # are bookkeeping, not said in a title)
    return (f"{said} ({rule})" if rule and not rule.startswith("core-")
            and f"({rule})" not in said else said), rule


def capital(text: str) -> str:
    """A title as a button starts it (`leader's rally` -> `Leader's rally`)."""
    return text[:1].upper() + text[1:]


def track_title(ruleset: Ruleset | None, name: str, state: MatchState | None = None,
                part: Callable[[str], str] | None = None) -> str:
    """A track's title in the game's words, from the ruleset's `track_titles` (`control.0817`
    -> `Control of Caen`: the part `*` matched, said as the scenario names it, or as `part`
    says it); a track the game gives no title is said in words (`weather.now` -> `Weather
    now`)."""
    for pattern, said in (ruleset.track_titles if ruleset is not None else {}).items():
        if fnmatchcase(name, pattern):
            parts = re.fullmatch(re.escape(pattern).replace(r"\*", "(.*)"), name)
            return said.format(*((part or (lambda p: _part(p, state)))(p)
                                 for p in (parts.groups() if parts else ())))
    return words(name.replace(".", " ")).capitalize()


def _part(part: str, state: MatchState | None) -> str:
    """What a track name's `*` matched, by its name: a city (option `city_names`), a side, a
    unit; else in words."""
    if state is not None:
        cities = state.options.get("city_names")
        if isinstance(cities, dict) and part in cities:
            return str(cities[part])
        named = {**{u.id: u.name for u in state.units.values()},
                 **{s.id: s.name for s in state.sides}}
        if part in named:
            return named[part]
    return words(part)


def side_name(state: MatchState, side: str) -> str:
    return next((s.name for s in state.sides if s.id == side), side)


def unit_label(unit: Unit) -> str:
    return unit.name
