"""`extended-sequence`, the Initial Phase (ES-1): the weather tracks, reinforcements
announced before they may enter, and off-board artillery missions."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction, NotYourTurn, OutOfSequence
from domain.rulesets.base import roll
from domain.rulesets.extended_sequence_steps import fixed_roles, roles_now
from domain.state import MatchState

FFE_MISSIONS = 4
RADIO_CONTACT = 4  # (ours) the default of the option `radio_contact`

TRACKS: dict[str, tuple[str, ...] | range] = {
    "weather.precipitation": ("none", "light", "heavy", "snow"),
    "weather.wind_speed": ("calm", "light", "moderate", "strong", "gale"),
    "weather.wind_direction": ("N", "NE", "E", "SE", "S", "SW", "W", "NW"),
    "weather.visibility": range(100),  # hexes
}
TRACK_TITLES = {"weather.precipitation": "Precipitation", "weather.wind_speed": "Wind speed",
                "weather.wind_direction": "Wind direction",
                "weather.visibility": "Visibility (hexes)"}


def announce(command: cmd.AnnounceReinforcements, state: MatchState, emit: Emit) -> None:
    """ES-1: reinforcements waiting in the box are announced with their entry point, so the
    defender knows they are coming. With fixed roles only the attacker's; otherwise each
    side announces its own (ours)."""
    units = [unit_in_play(state, unit_id) for unit_id in command.unit_ids]
    sides = {unit.side for unit in units}
    attacker = roles_now(state).get("attacker") if fixed_roles(state.options) else None
    for unit in units:
        if unit.position is None or unit.position.box != "reinforcements" or (
                attacker is not None and unit.side != attacker):
            raise InvalidAction(f"ES-1: '{unit.id}' is not one of the "
                                f"{'attacker' if attacker else 'side'}'s units waiting in "
                                "the reinforcements box", rule="ES-1")
    if len(sides) != 1:
        raise InvalidAction("ES-1: one side's reinforcements at a time", rule="ES-1")
    emit(ev.ReinforcementsAnnounced, side=sides.pop(), unit_ids=tuple(command.unit_ids),
         entry=command.entry, rule="ES-1")


def artillery(command: cmd.CallArtillery, state: MatchState, emit: Emit) -> None:
    """ES-1: radio contact (rolled) -> spotting round -> corrections -> fire for effect 1..4,
    one fire for effect per turn; the mission's state is the track `artillery.<mission>`."""
    key = f"artillery.{command.mission}"
    stage = str(state.tracks.get(key, "none"))
    owner = state.tracks.get(f"{key}.side")
    actor = emit.context.actor
    if owner is not None and actor not in ("referee", owner):
        raise NotYourTurn(f"ES-1: mission '{command.mission}' is {owner}'s", rule="ES-1")
    allowed = {
        "radio_contact": ("none", "no contact"),
        "spotting_round": ("contact",),
        "correction": ("spotting round", "corrected"),
        "fire_for_effect": ("spotting round", "corrected", *(f"fire for effect {n}"
                                                               for n in range(1, FFE_MISSIONS))),
    }[command.stage]
    if stage not in allowed:
        raise OutOfSequence(f"ES-1: mission '{command.mission}' is at '{stage}'; "
                            f"{command.stage.replace('_', ' ')} follows only "
                            f"{' or '.join(allowed)}", rule="ES-1")
    if command.stage == "radio_contact":
        if state.tracks.get(f"{key}.contact_turn") == state.turn.turn:
            raise InvalidAction("ES-1: one radio contact roll per mission per turn", rule="ES-1")
        target = state.options.get("radio_contact", RADIO_CONTACT)
        assert isinstance(target, int)  # checked when the match was created
        face, = roll(command, "d6", emit, f"ES-1 radio contact for mission {command.mission}: "
                     f"{target} or more", "ES-1")
        if owner is None:
            emit(ev.TrackSet, name=f"{key}.side", value=actor, rule="ES-1")
        emit(ev.TrackSet, name=f"{key}.contact_turn", value=state.turn.turn, rule="ES-1")
        emit(ev.TrackSet, name=key, value="contact" if face >= target else "no contact",
             rule="ES-1")
        return
    if command.location is None:
        raise InvalidAction("ES-1: say where the rounds fall ('location')", rule="ES-1")
    if command.stage == "fire_for_effect":
        if state.tracks.get(f"{key}.turn") == state.turn.turn:
            raise InvalidAction("ES-1: one fire for effect per mission per turn", rule="ES-1")
        done = int(stage.rsplit(" ", 1)[-1]) if stage.startswith("fire for effect") else 0
        value = f"fire for effect {done + 1}"
        emit(ev.TrackSet, name=f"{key}.turn", value=state.turn.turn, rule="ES-1")
    else:
        value = "spotting round" if command.stage == "spotting_round" else "corrected"
    emit(ev.TrackSet, name=key, value=value, rule="ES-1")
    emit(ev.TrackSet, name=f"{key}.at", value=command.location, rule="ES-1")


def check_arrival(state: MatchState, unit_id: str) -> None:
    """ES-1: a unit waiting in the reinforcements box moves on only once announced."""
    unit = unit_in_play(state, unit_id)
    if unit.position is not None and unit.position.box == "reinforcements" and (
            "entry" not in unit.extra):
        raise InvalidAction(f"ES-1: '{unit.id}' was not announced; reinforcements enter "
                            "only after their side announces them", rule="ES-1")
