"""Candidates for the game systems' own procedures: initiative, battlegroups, cards, the rolls
a ruleset resolves itself, fire and combat, reinforcements, artillery, operations and
supply. Each is drawn from the state and offered only if `decide` accepts it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.context import card_title, named
from domain.legal.domains import leads
from domain.legal.model import Candidate, Input, listed_number, location, number, one_of
from domain.legal.probe import Probe
from domain.legal.units import Offers
from domain.legal.words import side_name, words
from domain.rulefiles.hexes import hex_distance
from domain.rulesets.wing_command_rolls import LEADERSHIP
from domain.state import Unit, step_fact

STAGES = ("radio_contact", "spotting_round", "correction", "fire_for_effect")
SUPPLY = (("in_supply", "in supply"), ("out_of_supply", "out of supply"),
          ("isolated", "isolated"))


def _units(p: Probe, *exclude: str) -> list[tuple[Any, str]]:
    return [(u.id, u.name) for u in p.units if u.id not in exclude]


def _declared(p: Probe, kind: str, name: str, body: dict[str, Any]) -> list[tuple[Any, str]]:
    """The units field `name` of `kind` may name for `body` (its declared domain), named."""
    return [(i, p.state.units[i].name) for i in p.domain(kind, name, body)]


def _enemies(p: Probe, unit: Unit) -> Input:
    """The defenders an attack by `unit` may name (declared: the other sides' units),
    built once a side."""
    return p.once(("enemies", unit.side), lambda: one_of(
        "defenders", "Defenders",
        _declared(p, "resolve_combat", "defenders", {"attackers": [unit.id]}),
        required=True, many=True))


def _targets(p: Probe, unit: Unit) -> Input:
    """The targets `unit` may fire at (declared: the other sides' units), once a side."""
    return p.once(("targets", unit.side), lambda: one_of(
        "target_id", "At", _declared(p, "fire", "target_id", {"unit_id": unit.id}),
        open_=True))


def _named_targets(p: Probe, unit: Unit) -> Input:
    """The targets as an input to give (a family's alternatives name each in turn)."""
    return p.once(("named targets", unit.side), lambda: _targets(p, unit).model_copy(
        update={"required": True}))


def _leaders(p: Probe, unit: Unit) -> Input:
    """The leaders a roll of `unit` may name (declared: the units of its side that lead,
    itself aside); each unit's are tried, all of its side's listed (once a side)."""
    return p.once(("leaders", unit.side), lambda: one_of(
        "leader_id", "The leader who rallies it", [
            (u.id, u.name) for u in p.units if u.side == unit.side and leads(u)],
        required=True))


def _examples(p: Probe, given: Input, side: str, *, listed: bool = False) -> tuple[Any, ...]:
    """The values a side's input lists, as the examples of a family (each alone, in a list
    when `listed`): made once an answer."""
    return p.once(("examples", given.name, side), lambda: tuple(
        [o.value] if listed else o.value for o in given.values or ()))


def _officers(p: Probe, side: str) -> list[Unit]:
    """The side's officers with leadership cubes (found once a side)."""
    return p.once(("officers", side), lambda: [u for u in p.units if u.side == side
                                               and u.markers.get(LEADERSHIP)])


def _some_hex(p: Probe, side: str | None) -> str:
    """A place to name as an example: where a unit of another side stands."""
    places = [u.position.label() for u in p.units if u.position is not None
              and u.position.box is None and u.side != side]
    return places[0] if places else "0101"


def roll_initiative(p: Probe) -> Offers:
    yield "roll_initiative", [Candidate(label="Roll initiative", dice=True,
                                        body={"type": "roll_initiative"})]


def pass_initiative(p: Probe) -> Offers:
    order = p.state.turn.initiative
    to = f" to {side_name(p.state, order[1])}" if len(order) > 1 else ""
    yield "pass_initiative", [Candidate(label=f"Hand first place{to}",
                                        body={"type": "pass_initiative"})]


def activate_battlegroup(p: Probe) -> Offers:
    groups: dict[tuple[str, str], list[Unit]] = {}  # by side and name (BG-7)
    for unit in p.units:
        group = unit.extra.get("battlegroup")
        if group is not None:
            groups.setdefault((unit.side, str(group)), []).append(unit)
    for (_, group), members in sorted(groups.items(),
                                      key=lambda g: (g[0][0] != p.seat, *g[0])):
        yield "activate_battlegroup", [Candidate(
            label=f"{named(p.state, 'battlegroup_names', group)}: "
                  f"{', '.join(u.name for u in members)}", side=members[0].side,
            body={"type": "activate_battlegroup", "battlegroup": group},
            inputs=(one_of("auxiliaries", "Auxiliary squads that go with it",
                           [(u.id, u.name) for u in p.units if "battlegroup" not in u.extra],
                           many=True),))]


def draw_cards(p: Probe) -> Offers:
    counts = p.domain("draw_cards", "count", {"type": "draw_cards"})
    yield "draw_cards", [
        Candidate(label="Draw up to your hand size", body={"type": "draw_cards"}),
        # (issue 39) how many: the declared domain's counts, each a tap
        Candidate(label="Draw cards", body={"type": "draw_cards"}, family="count",
                  examples=tuple(counts), inputs=(listed_number("count", "How many", counts),))]


def _hand(p: Probe) -> tuple[str, ...]:
    """The seat's own hand: never another side's."""
    return p.state.hands.get(p.side, ()) if p.side is not None else ()


def discard_cards(p: Probe) -> Offers:
    hand = _hand(p)
    for card in dict.fromkeys(hand):
        yield "discard_cards", [Candidate(
            label=card_title(p.state, card), body={"type": "discard_cards", "cards": [card]},
            inputs=(one_of("cards", "Cards to discard",
                           [(c, card_title(p.state, c)) for c in dict.fromkeys(hand)],
                           many=True),))]


def play_card(p: Probe) -> Offers:
    for card in dict.fromkeys(_hand(p)):
        yield "play_card", [Candidate(label=card_title(p.state, card),
                                      body={"type": "play_card", "card": card})]


def shuffle_deck(p: Probe) -> Offers:
    yield "shuffle_deck", [Candidate(label="Shuffle your deck", body={"type": "shuffle_deck"})]


def cut_deck(p: Probe) -> Offers:
    """Each deck of two cards or more, cut at every count of its declared domain (1 to
    its size less one) `decide` accepts; the middle tried first."""
    for side in p.state.sides:
        cards = len(p.state.decks.get(side.id, ()))
        if cards > 1:
            body = {"type": "cut_deck", "side": side.id}
            counts = p.domain("cut_deck", "at", body)
            middle = [c for c in counts if c == cards // 2]
            yield "cut_deck", [Candidate(
                label=f"Cut {side.name}'s deck", side=side.id, body=body, family="at",
                examples=(*middle, *(c for c in counts if c not in middle)),
                inputs=(listed_number("at", "Cards that go under", counts),))]


def rule_roll(p: Probe) -> Offers:
    """Each roll of the current step, for each unit: as it is, with the number of dice the
    player chooses (WC-6), with a leader the roll needs (ES-3); and with an officer's
    leadership cubes spent (WC-3..WC-6)."""
    dice = number("dice", "How many dice", 1, 3, required=True, example=1)
    # What a client may add to any roll (the page shows no field of these: an officer's
    # cubes are their own choices below, a leader is picked from a list, and a leader a
    # self-rally creates gets the service's id, ES-2).
    free = (Input(name="leader_id", label="An officer or leader who helps", kind="id"),
            Input(name="new_unit_id", label="Its id (the service makes one)", kind="id"))
    chosen = number("dice", "How many dice (where the roll lets you choose)", 1, 3, example=1)
    optional = (*free, number("leadership", "Leadership cubes spent", 0, 20, example=1), chosen)
    for name, roll in p.ruleset.rolls.items():
        if p.state.turn.step not in roll.steps:
            continue
        for unit in p.scope:
            body = {"type": "rule_roll", "roll": name, "unit_id": unit.id}
            leaders = _leaders(p, unit)
            yield f"rule_roll:{name}", [
                Candidate(label=unit.name, unit_id=unit.id, body=body, dice=True,
                          inputs=optional),
                Candidate(label=unit.name, unit_id=unit.id, body=body, dice=True,
                          inputs=(dice, *free), family="dice",
                          examples=tuple(p.domain("rule_roll", "dice", body))),
                Candidate(label=unit.name, unit_id=unit.id, body=body, dice=True,
                          family="leader_id", inputs=(leaders, chosen), examples=tuple(
                              p.domain("rule_roll", "leader_id", body)))]
            for officer in _officers(p, unit.side):
                cubes = number("leadership", "Leadership cubes spent", 1,
                               officer.markers[LEADERSHIP], required=True, example=1)
                with_officer = {**body, "leader_id": officer.id}
                label = f"{unit.name}, with {officer.name}'s leadership"
                yield f"rule_roll:{name}", [
                    Candidate(label=label, unit_id=unit.id, body=with_officer, dice=True,
                              inputs=(cubes, chosen), family="leadership", examples=tuple(
                                  p.domain("rule_roll", "leadership", with_officer))),
                    Candidate(label=label, unit_id=unit.id, body=with_officer, dice=True,
                              inputs=(cubes, dice))]


def fire(p: Probe) -> Offers:
    """A unit fires, at a target or (where the game allows) at none named. The targets
    listed are the other sides' units; a game may let a unit fire at others too."""
    modifiers = (number("differential", "Fire differential", -20, 20, example=1),
                 number("modifier", "Modifier", -20, 20, example=1))
    for unit in p.scope:
        targets = _targets(p, unit)
        named = _named_targets(p, unit)
        body = {"type": "fire", "unit_id": unit.id}
        yield "fire", [
            Candidate(label=unit.name, unit_id=unit.id, body=body, dice=True,
                      inputs=(targets, *modifiers)),
            Candidate(label=unit.name, unit_id=unit.id, body=body, dice=True,
                      family="target_id", inputs=(named, *modifiers),
                      examples=_examples(p, targets, unit.side))]


def resolve_combat(p: Probe) -> Offers:
    """An attack by a unit on an enemy unit (more of either side may join: `attackers`,
    `defenders`); the odds as the players work them out."""
    attackers = one_of("attackers", "Attackers", _units(p), many=True)
    # the odds as the columns of the results table (its declared domain): chosen by a tap
    odds = one_of("odds", "Odds (the results table's column)",
                  [(o, o) for o in p.domain("resolve_combat", "odds", {})], required=True,
                  example="1:1")
    modifiers = Input(name="modifiers", label="Modifiers (name: -10 to 10)", kind="object")
    for unit in p.scope:
        enemies = _enemies(p, unit)
        key = _nearest_unattacked(p, unit)
        enemies = enemies.model_copy(update={"values": tuple(sorted(
            enemies.values or (), key=lambda o: key(o.value)))})
        yield "resolve_combat", [Candidate(
            label=unit.name, unit_id=unit.id, dice=True, family="defenders",
            body={"type": "resolve_combat", "attackers": [unit.id]},
            inputs=(enemies, odds, attackers, modifiers),
            examples=tuple([o.value] for o in enemies.values or ()))]


def _nearest_unattacked(p: Probe, unit: Unit) -> Callable[[Any], tuple[bool, int]]:
    """The order an attack by `unit` lists its defenders in (the first accepted being the
    choice's own): the enemy units not yet attacked in this step first, nearest to the
    attacker first (NO-2: the unit next to it that its duty still names, not the first of
    the list again and again)."""
    here = unit.position.hex if unit.position is not None else None

    def key(value: Any) -> tuple[bool, int]:
        target = p.state.units.get(value) if isinstance(value, str) else None
        there = target.position.hex if target is not None and target.position else None
        far = hex_distance(here, there) if here and there else 10_000
        return p.state.in_step(step_fact("defended", value)) if target else True, far

    return key


def announce_reinforcements(p: Probe) -> Offers:
    # where they enter: the declared domain's places, a tap each (others may be written)
    entries = p.domain("announce_reinforcements", "entry", {})
    inputs = (one_of("entry", "Where they enter", [(e, e) for e in entries], required=True,
                     open_=True, example=entries[0] if entries else "the map edge"),
              one_of("unit_ids", "Units announced", _units(p), many=True))
    for unit in p.scope:
        yield "announce_reinforcements", [Candidate(
            label=unit.name, unit_id=unit.id, inputs=inputs,
            body={"type": "announce_reinforcements", "unit_ids": [unit.id]})]


def call_artillery(p: Probe) -> Offers:
    missions = sorted({name.split(".")[1] for name in p.state.tracks
                       if name.startswith("artillery.") and name.count(".") == 1})
    new = next(f"m{n}" for n in range(1, len(missions) + 2) if f"m{n}" not in missions)
    for mission in (*missions, new):
        for stage in STAGES:
            body = {"type": "call_artillery", "mission": mission, "stage": stage}
            label = f"{'New mission' if mission == new else f'Mission {mission}'}: {words(stage)}"
            named = (Input(name="mission", label="Mission", kind="id"),) if mission == new else ()
            where = location("location", "Where the rounds fall", _some_hex(p, p.side))
            yield "call_artillery", [
                Candidate(label=label, body=body, dice=True,
                          inputs=(*named, where.model_copy(update={"required": False}))),
                Candidate(label=label, body=body, dice=True, inputs=(*named, where))]


def declare_operation(p: Probe) -> Offers:
    mine = [u for u in p.units if u.side == p.side]
    acting = [u for u in p.scope if u.side == p.side]
    extras = (one_of("hqs", "HQs in operation", [(u.id, u.name) for u in mine], many=True),
              Input(name="first", label="The German player-turn comes first", kind="bool",
                    example=True),
              location("carpet_bombing", "Carpet bombing at", _some_hex(p, p.side),
                       required=False))
    if p.whole:
        yield "declare_operation", [Candidate(label="No operation",
                                              body={"type": "declare_operation", "hqs": []},
                                              inputs=extras)]
    for unit in acting:
        yield "declare_operation", [Candidate(
            label=f"Operation: {unit.name}", unit_id=unit.id,
            body={"type": "declare_operation", "hqs": [unit.id]}, inputs=extras)]


def set_supply(p: Probe) -> Offers:
    """In one choice, all of a side's units on the map still to do (those to leave out
    unticked, or determined apart first), then each unit still to do, one at a time. A unit
    already determined is no longer offered (undo takes it back)."""
    status = one_of("status", "Supply", list(SUPPLY), required=True, example="in_supply")
    if p.whole:
        for side in [p.side] if p.side is not None else p.state.side_ids():
            todo = [u for u in p.units if u.side == side and not _supplied(u)
                    and u.position is not None and u.position.box is None]
            if len(todo) < 2:
                continue
            whose = "your" if p.side is not None else f"{side_name(p.state, side)}'s"
            yield "set_supply", [Candidate(
                label=f"All {len(todo)} of {whose} units still to do", side=side,
                body={"type": "set_supply", "unit_ids": [u.id for u in todo]},
                inputs=(status, one_of("unit_ids", "Units", [(u.id, u.name) for u in todo],
                                       many=True)))]
    inputs = (status, one_of("unit_ids", "Units", _units(p), many=True))
    for unit in p.scope:
        if not _supplied(unit):
            yield "set_supply", [Candidate(label=unit.name, unit_id=unit.id, inputs=inputs,
                                           body={"type": "set_supply", "unit_ids": [unit.id]})]
    done = [(u.id, u.name) for u in p.units if _supplied(u) and p.side in (None, u.side)]
    if p.whole and done:  # a supply already determined, changed (the rules allow it)
        yield "set_supply", [Candidate(
            label="Change a supply already determined", body={"type": "set_supply"},
            inputs=(status, one_of("unit_ids", "Units", done, required=True, many=True,
                                   example=[done[0][0]])))]


def _supplied(unit: Unit) -> bool:
    return any(status in unit.status for status, _ in SUPPLY)
