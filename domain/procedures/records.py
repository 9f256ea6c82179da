"""Procedures that record: tracks, victory points, a result read from a table, notes and
disputes."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import REFEREE, Emit
from domain.context import side as _side
from domain.errors import InvalidAction, NotYourTurn
from domain.procedures.dispatch import handle as _handle
from domain.rulesets import Ruleset
from domain.state import MatchState


@_handle.register
def _(command: cmd.SetTrack, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    ruleset.check_track(command.name, command.value)
    emit(ev.TrackSet, name=command.name, value=command.value)


@_handle.register
def _(command: cmd.EnterResult, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    awaiting = state.awaiting
    if awaiting is None or awaiting.declared is not None:
        raise InvalidAction("no roll is waiting for a result read from a table" + (
            " (declared table dice are given with record_roll)" if awaiting else ""),
            rule="core-results")
    if emit.context.actor not in (REFEREE, awaiting.by):
        raise NotYourTurn(f"the result of {awaiting.what} is entered by {awaiting.by}",
                          rule=awaiting.rule or "core-results", allowed=[awaiting.by, REFEREE])
    emit(ev.ResultRecorded, of=awaiting.what, result=command.result, failed=command.failed,
         rule=awaiting.rule)


@_handle.register
def _(command: cmd.ScoreVP, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    emit(ev.VictoryPointsScored, side=_side(state, command.side), points=command.points,
         reason=command.reason)


@_handle.register
def _(command: cmd.AddNote, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    if command.about_version is not None and command.about_version > emit.context.version:
        raise InvalidAction(f"version {command.about_version} does not exist yet",
                            rule="core-notes")
    emit(ev.NoteAdded, text=command.text, about_version=command.about_version,
         private=command.private)


@_handle.register
def _(command: cmd.OpenDispute, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    upto = command.upto_version
    if max(command.about_version, upto or 0) > emit.context.version or (
            upto is not None and upto < command.about_version):
        raise InvalidAction(f"a dispute is about versions 1 to {emit.context.version}, "
                            "`upto_version` not before `about_version`", rule="core-disputes")
    emit(ev.DisputeOpened, about_version=command.about_version, upto_version=upto,
         text=command.text)


