"""The commands of the game systems' own procedures: activations, morale and initiative,
cards, rule rolls and fire, results read from a table, reinforcements, artillery,
operations, supply and combat."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool

from domain.commands.base import Command, Id, Int, Short


class ActivateUnit(Command):
    """AA-1: the activating side activates one of its units not yet activated this turn."""

    type: Literal["activate_unit"] = "activate_unit"
    unit_id: Id


class ActivateBattlegroup(Command):
    """BG-7: activate a battlegroup, declaring the auxiliary squads that go with it."""

    type: Literal["activate_battlegroup"] = "activate_battlegroup"
    battlegroup: Id
    auxiliaries: Annotated[list[Id], Field(max_length=32)] = Field(default_factory=list)


class RollMorale(Command):
    """AA-7: a unit's morale roll on its shifted die; `result` records a table die."""

    type: Literal["roll_morale"] = "roll_morale"
    unit_id: Id
    source: Literal["server", "table"] = "server"
    result: Annotated[Int, Field(ge=1, le=12)] | None = None


class RollInitiative(Command):
    """BG-2..BG-4: roll for every player still to be ranked (all, then the tied ones);
    `results` records table dice, one natural roll per side."""

    type: Literal["roll_initiative"] = "roll_initiative"
    source: Literal["server", "table"] = "server"
    results: Annotated[dict[Id, Annotated[Int, Field(ge=1, le=6)]], Field(max_length=8)] | None = None


class PassInitiative(Command):
    """BG-5: the winner hands first place to the second-placed player."""

    type: Literal["pass_initiative"] = "pass_initiative"


class DrawCards(Command):
    """Draw from the top of your deck: `count` cards, or (BG-6) up to your hand size."""

    type: Literal["draw_cards"] = "draw_cards"
    count: Annotated[Int, Field(ge=1, le=100)] | None = None


class DiscardCards(Command):
    type: Literal["discard_cards"] = "discard_cards"
    cards: Annotated[list[Short], Field(min_length=1, max_length=100)]


class PlayCard(Command):
    type: Literal["play_card"] = "play_card"
    card: Short


class ShuffleDeck(Command):
    """AA-8: collect every card of your side and shuffle them with the server's dice."""

    type: Literal["shuffle_deck"] = "shuffle_deck"


class CutDeck(Command):
    """AA-8: cut the opponent's (`side`) shuffled deck: the top `at` cards go under."""

    type: Literal["cut_deck"] = "cut_deck"
    side: Id
    at: Annotated[Int, Field(ge=1, le=1000)]


class _Rolled(Command):
    """An action the service rolls for: with its own dice (`source: server`), or recording
    physical dice (`table`, with `results`, one natural result per die)."""

    source: Literal["server", "table"] = "server"
    results: Annotated[list[Annotated[Int, Field(ge=1, le=100)]], Field(max_length=12)] | None = None


class RuleRoll(_Rolled):
    """A roll the ruleset names and resolves itself (`roll`: e.g. `unit_morale`, `repair`):
    the service knows the dice, the modifiers and what follows. `unit_id` is the unit that
    rolls; `leader_id` the officer or leader who helps (and whose `leadership` cubes are
    spent, WC); `dice` how many dice where the player chooses (WC-6: 1 to 3)."""

    type: Literal["rule_roll"] = "rule_roll"
    roll: Id
    unit_id: Id | None = None
    leader_id: Id | None = None
    leadership: Annotated[Int, Field(ge=0, le=20)] = 0
    dice: Annotated[Int, Field(ge=1, le=3)] | None = None
    new_unit_id: Id | None = None  # ES-2: the id of a leader a self-rally creates


class Fire(_Rolled):
    """`unit_id` fires at `target_id`: the service rolls, marks the firer (ES-5 prepared
    fire and ROF; WC-7 unloaded) and waits for the result the players read from their table.
    `differential` is WC-7's fire differential; `modifier` is added to the roll."""

    type: Literal["fire"] = "fire"
    unit_id: Id
    target_id: Id | None = None
    differential: Annotated[Int, Field(ge=-20, le=20)] = 0
    modifier: Annotated[Int, Field(ge=-20, le=20)] = 0


class EnterResult(Command):
    """The result of the last roll, read by the players from a table the service does not
    hold (WC-6 Activation Table, NO-2 Combat Results Table); `failed` marks a failure."""

    type: Literal["enter_result"] = "enter_result"
    result: Annotated[str, Field(min_length=1, max_length=200)]
    failed: StrictBool = False


class AnnounceReinforcements(Command):
    """ES-1: the attacker names the units about to arrive and where they will enter."""

    type: Literal["announce_reinforcements"] = "announce_reinforcements"
    unit_ids: Annotated[list[Id], Field(min_length=1, max_length=100)]
    entry: Short


class CallArtillery(_Rolled):
    """ES-1: one step of an off-board artillery mission: `radio_contact` (rolled), then a
    `spotting_round` at `location`, `correction`s, and up to four `fire_for_effect`."""

    type: Literal["call_artillery"] = "call_artillery"
    mission: Id
    stage: Literal["radio_contact", "spotting_round", "correction", "fire_for_effect"]
    location: Short | None = None


class DeclareOperation(Command):
    """NO-1: a side declares its operations (the HQs that flip); a German operation may
    put the German player-turn first this turn (NO-5)."""

    type: Literal["declare_operation"] = "declare_operation"
    hqs: Annotated[list[Id], Field(max_length=32)] = Field(default_factory=list)
    first: StrictBool = False
    carpet_bombing: Short | None = None


class SetSupply(Command):
    """NO-1: the supply status of units, held until the next Supply segment."""

    type: Literal["set_supply"] = "set_supply"
    unit_ids: Annotated[list[Id], Field(min_length=1, max_length=500)]
    status: Literal["in_supply", "out_of_supply", "isolated"]


class ResolveCombat(_Rolled):
    """NO-2: an attack, declared with its odds and modifiers before the 2d6 are rolled; the
    players then enter the result they read on their Combat Results Table."""

    type: Literal["resolve_combat"] = "resolve_combat"
    attackers: Annotated[list[Id], Field(min_length=1, max_length=32)]
    defenders: Annotated[list[Id], Field(min_length=1, max_length=32)]
    odds: Annotated[str, Field(pattern=r"^[0-9]{1,2}:[0-9]{1,2}$")]
    modifiers: Annotated[dict[Short, Annotated[Int, Field(ge=-10, le=10)]],
                         Field(max_length=16)] = Field(default_factory=dict)


