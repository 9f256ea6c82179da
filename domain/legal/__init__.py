"""`legal_actions(state, ruleset, seat)`: what a seat can do now, derived from `decide`.

For every action the current step allows (and those allowed at any step) the generators
(`units`, `records`, `games`) propose candidate commands over each input's declared domain
(`domains`: the units in play, the sides, the seat's own hand, the rolls of the step, the
tracks the game keeps, a split's figures, the hexes within reach), never chosen by what a
refusal says. Each is decided as the seat, with stand-in dice (`probe`); what
`decide` accepts is offered, with its title and rule id in the game's words, and what it
refuses is not. There is no second copy of the rules here: `decide` is the one source of
truth, and the refusal it gives to `advance` is the reason the marker cannot move on.
`offered` says whether a body is one of the choices (docs/legal-actions.md).

The package owns the legal actions: this module the answer; `model` its shape (`Choice`,
`LegalActions`, ...); `domains` what each input may be; `probe` deciding a candidate as the seat; `units`, `records` and
`games` the candidates; `own` which actions are a step's own move; `words` titles and
names in the game's words; `offering` whether a body is offered; `passes` what the answer
says of a side's standing pass. It sits above the core: it may import the pure core
(`state`, `decide`, `authority`, `context`, `dice`, `errors`, `sequence`, `owed`, and
`acting`, the command path after `decide`, which it reads ahead with: "done until something
is mine" and where a pass stops), `events`, `commands` and `rulesets`, never `domain.app`
nor `domain.clock`; nothing in the core imports it (the command path is given the answers
it reads as a callable, `domain.acting.holds.Answer`)."""

from __future__ import annotations

from collections.abc import Callable

from domain import events as ev
from domain.acting.ahead import AHEAD_MOST, UNTIL_MINE, Stop, next_stop, until_mine
from domain.acting.holds import Answer, Holds
from domain.authority import waiting_for
from domain.commands import ACTION_TYPES
from domain.context import REFEREE
from domain.decide import ALWAYS_ALLOWED, next_marker
from domain.errors import DomainError, InvalidAction
from domain.legal import games, records, units
from domain.legal.model import Choice, LegalAction, LegalActions, NextStep, Page
from domain.legal.offering import offered
from domain.legal.own import own_ids
from domain.legal.passes import offer
from domain.legal.probe import Exhausted, Probe
from domain.legal.units import Offers
from domain.legal.words import side_name, title
from domain.refusal_words import in_words
from domain.rulefiles.cost import ANSWER_STEPS, Meter, Spent, meter, metered
from domain.rulesets import Ruleset
from domain.sequence import ANY
from domain.state import MatchState

__all__ = ["MOST_DECIDES", "PAGE_UNITS", "PAGE_WORK", "legal_actions", "offered", "page_size",
           "pass_answers", "seat_answer"]

GENERATORS: dict[str, Callable[[Probe], Offers]] = {
    "deploy_unit": units.deploy, "move_unit": units.move, "set_status": units.status,
    "place_marker": units.place_marker, "remove_marker": units.remove_marker,
    "split_unit": units.split, "rally_unit": units.rally, "remove_unit": units.remove_unit,
    "lose_step": units.lose_step, "gain_step": units.gain_step,
    "activate_unit": units.activate, "roll_morale": units.morale,
    "roll_dice": records.roll_dice, "record_roll": records.record_roll,
    "enter_result": records.enter_result, "set_track": records.set_track,
    "score_vp": records.score_vp, "add_note": records.add_note,
    "open_dispute": records.open_dispute, "end_match": records.end_match,
    "concede": records.concede, "reopen_match": records.reopen_match,
    "roll_initiative": games.roll_initiative, "pass_initiative": games.pass_initiative,
    "activate_battlegroup": games.activate_battlegroup, "draw_cards": games.draw_cards,
    "discard_cards": games.discard_cards, "play_card": games.play_card,
    "shuffle_deck": games.shuffle_deck, "cut_deck": games.cut_deck,
    "rule_roll": games.rule_roll, "fire": games.fire, "resolve_combat": games.resolve_combat,
    "announce_reinforcements": games.announce_reinforcements,
    "call_artillery": games.call_artillery, "declare_operation": games.declare_operation,
    "set_supply": games.set_supply,
}
SPECTATOR = "spectators watch; they do not act"


# The generators whose choices are each about one unit: they walk the units in scope (on
# every page, and when narrowed to one unit); place_marker, remove_marker and
# declare_operation also offer choices about no unit, on the answer's whole part only.
ABOUT_UNITS = frozenset((
    "move_unit", "set_status", "place_marker", "remove_marker", "split_unit", "rally_unit",
    "remove_unit", "lose_step", "gain_step", "activate_unit", "roll_morale", "rule_roll",
    "fire", "resolve_combat", "announce_reinforcements", "declare_operation", "set_supply"))
# Large boards (docs/legal-actions.md): a page holds the choices of at most PAGE_UNITS units,
# fewer the more units are in play (PAGE_WORK // the units in play: a unit's choices may list
# every other unit, so a page's work stays about the same on any board), and an answer
# decides at most MOST_DECIDES bodies.
PAGE_UNITS = 50
PAGE_WORK = 2_500
MOST_DECIDES = 6_000


def page_size(in_play: int) -> int:
    """How many units' choices a page holds when `in_play` units are in play."""
    return max(1, min(PAGE_UNITS, PAGE_WORK // max(in_play, 1)))


def legal_actions(state: MatchState, ruleset: Ruleset, seat: str, *, version: int = 1,
                  unit: str | None = None, page: int = 1, most: int | None = MOST_DECIDES,
                  between: Callable[[], None] | None = None,
                  ahead: bool = True, steps: Meter | None = None) -> LegalActions:
    """What `seat` (a side, or the referee) may do now, at `version` of the match: the
    choices of page `page` of the units in play (the first page also holds those about no
    one unit), or of the unit `unit` alone; at most `most` bodies decided (None: no cap),
    `between` called before each. `ahead`: a side's Next step also says which later steps
    hold nothing for it ("Done until something is mine", `domain.acting.ahead`), and its
    standing pass where it stops next (`domain.legal.passes`). A ruleset
    file's expressions read for the choices charge their steps to `steps` (when None, the
    meter of the request under way, if any: an action asking the legal answers; else a new
    meter of ANSWER_STEPS, whatever `most` says): past it the answer is cut short too."""
    here = {"seat": seat, "turn": state.turn.turn, "step": state.turn.step}
    if seat != REFEREE and seat not in state.side_ids():
        return LegalActions(**here, reason=SPECTATOR,
                            advance=NextStep(legal=False, title="Next step", reason=SPECTATOR))
    probe = Probe(state, ruleset, seat, version)
    paged = _scope(probe, unit, page)
    step = ruleset.sequence.step(state.turn.step)
    groups: dict[str, list[Choice]] = {}
    probe.limit, probe.between = most, between
    try:
        # (the request's meter when one is set: an action that asks the legal answers, as
        # its standing pass does; Next step below is read unmetered)
        with metered(steps or meter() or Meter(ANSWER_STEPS)):
            for kind in _kinds(step.allows):
                if not probe.whole and kind not in ABOUT_UNITS or not probe.admits(kind):
                    continue
                for key, alternatives in GENERATORS[kind](probe):
                    choice = probe.choose(alternatives)
                    if choice is not None:
                        groups.setdefault(key, []).append(choice)
    except (Exhausted, Spent) as stop:  # (Spent: a file's reading outside a decision)
        if isinstance(stop, Spent):
            probe.spent = stop.meter
        paged = paged.model_copy(update={"truncated": True, "says": _cut(probe, paged)})
    probe.limit = None
    actions = tuple(_action(key, choices, probe) for key, choices in groups.items())
    advance = next_step(probe)
    own = own_ids(step.allows, actions, advance.legal)
    actions = tuple(a.model_copy(update={"own": a.id in own}) for a in actions)
    # (the steps ahead within the answer's own cap: offered whole, or not at all)
    room = most is None or most - probe.work >= AHEAD_MOST
    whole = probe.side is not None and probe.whole and not (paged.truncated or paged.pages > 1)
    # (one reader for both walks ahead: their answers together within AHEAD_MOST)
    reader = seat_answer(ruleset, between)
    if ahead and room and advance.legal and whole:
        advance = _until_mine(probe, advance, reader)
    stops = None
    if ahead and room and whole and state.outcome is None:
        stops = _next_stop(probe, _holds(actions, advance, paged), reader)
    reason = advance.reason if state.outcome is not None else None
    return LegalActions(**here, reason=reason, actions=actions, advance=advance, page=paged,
                        standing_pass=offer(state, ruleset, seat, stops))


def _scope(probe: Probe, unit: str | None, page: int) -> Page:
    """Narrow the probe to one unit's choices, or to a page of units; what the answer holds."""
    units = probe.units
    if unit is not None:
        found = [u for u in units if u.id == unit]
        if not found:
            raise InvalidAction(f"there is no unit {unit!r} in play", rule="core-legal")
        probe.scope, probe.whole = found, False
        return Page(unit=unit, units=(unit,), in_play=len(units))
    size = page_size(len(units))
    pages = max(1, -(-len(units) // size))
    if not 1 <= page <= pages:
        raise InvalidAction(f"page {page} is not one of 1 to {pages} ({len(units)} units in "
                            f"play, {size} a page)", rule="core-legal")
    probe.scope, probe.whole = units[(page - 1) * size:page * size], page == 1
    more = page < pages
    return Page(number=page, pages=pages, units=tuple(u.id for u in probe.scope),
                in_play=len(units), truncated=more, next=page + 1 if more else None,
                says=(f"{len(units)} units in play, {size} a page: read page {page + 1} for "
                      "the next units' choices, or one unit's choices with unit=<its id>")
                if more else None)


def _cut(probe: Probe, paged: Page) -> str:
    spent = probe.spent
    said = (f"cut short: the ruleset file's work budget was spent ({probe.costly})"
            if probe.costly is not None else
            f"cut short after {spent.spent:,} steps of the ruleset file's expressions (the "
            f"most an answer reads is {spent.most:,}: docs/rulesets/authoring.md)"
            if spent is not None else
            f"cut short after {probe.work} choices tried (the most an answer tries)")
    return (f"{said}: read one unit's choices with unit=<its id>"
            + (f", or page {paged.next}" if paged.next else ""))


def _kinds(allows: tuple[str, ...]) -> list[str]:
    """The action types to try: the step's own first (in its order), then the others it
    allows, then those allowed at any step."""
    named = [k for k in allows if k in GENERATORS]
    rest = [k for k in ACTION_TYPES if k in GENERATORS and k not in named and k not in
            ALWAYS_ALLOWED and ANY in allows]
    return [*named, *rest, *(k for k in ACTION_TYPES if k in ALWAYS_ALLOWED and k in GENERATORS)]


def _action(key: str, choices: list[Choice], probe: Probe) -> LegalAction:
    kind, _, roll = key.partition(":")
    said, rule = title(kind, probe.state, probe.ruleset, roll or None)
    if kind == "end_match" and probe.side is not None:
        said = said.replace("End the match", "Propose the end of the match")
    return LegalAction(id=key, type=kind, title=said, rule=rule, choices=tuple(choices))


def next_step(probe: Probe) -> NextStep:
    """Whether the seat may `advance`, where it leads, and the later steps it may go on to;
    or `decide`'s refusal, with names for ids."""
    state, seq = probe.state, probe.ruleset.sequence
    step = seq.step(state.turn.step)
    events = probe.decide({"type": "advance"})
    done = step.shared and probe.side is not None
    if isinstance(events, DomainError):
        return NextStep(legal=False, title="Done with this step" if done else "Next step",
                        reason=in_words(events.detail, state, seq), rule=events.rule or step.rule)
    said = _leads_to(events, probe)
    skips = []
    goes = _marker(events)
    if goes is None and any(isinstance(e, ev.MatchEnded) for e in events):
        # (the last turn's end: the advance naming where the marker would have gone is this
        # same advance, decide accepts it as such)
        goes = next_marker(state, probe.ruleset).step
    rests = _rests(events)
    for path in seq.steps() if goes is not None and seq.step(goes).optional else ():
        # (a skip passes only optional steps: the first it would pass is the next one; one
        # way forward per destination, so none to where Next step itself comes to rest; none
        # round to the step the marker stands on, a whole turn or round in one tap: ours)
        if path in (state.turn.step, goes, rests):
            continue
        body = {"type": "advance", "to": path}
        went = probe.decide(body)
        if not isinstance(went, DomainError):
            skips.append(Choice(label=f"On to {_step_title(probe, path)}", body=body))
    return NextStep(legal=True, title=said, to=goes, rests=rests if rests != goes else None,
                    rule=step.rule, skips=tuple(skips))


def _holds(actions: tuple[LegalAction, ...], advance: NextStep, paged: Page) -> Holds:
    """What an answer says, as the passes read it (`domain.acting.holds`)."""
    return Holds(own=any(a.own for a in actions), advance=advance.legal,
                 cut=paged.truncated)


def seat_answer(ruleset: Ruleset, between: Callable[[], None] | None = None) -> Answer:
    """The seats' legal answers at the states the passes reach, as they read them, their
    work together capped at `AHEAD_MOST` bodies decided (past it an answer is cut short,
    and a pass stops there: the legal answer's steps ahead and the action stop alike)."""
    spent = 0
    # the file's expressions' steps, over the answers together (the request's, when set)
    steps = meter() or Meter(ANSWER_STEPS)

    def counted() -> None:
        nonlocal spent
        spent += 1
        if between is not None:
            between()

    def answer(state: MatchState, seat: str, version: int) -> Holds:
        found = legal_actions(state, ruleset, seat, version=version, between=counted,
                              most=max(1, AHEAD_MOST - spent), ahead=False, steps=steps)
        return _holds(found.actions, found.advance, found.page)

    return answer


def pass_answers(ruleset: Ruleset) -> Callable[[], Answer]:
    """A new `seat_answer` each call: what an action's passes read (`domain.acting`)."""
    return lambda: seat_answer(ruleset)


def _until_mine(probe: Probe, advance: NextStep, reader: Answer) -> NextStep:
    """Next step with "Done until something is mine" when it passes more than this step."""
    went = until_mine(probe.state, probe.ruleset, probe.context,
                      reader)
    if len(went.passed) < 2:
        return advance
    return advance.model_copy(update={
        "until": Choice(label="Done until something is mine", body=UNTIL_MINE),
        "ahead": tuple(_step_title(probe, path) for path in went.passed[1:]),
        # (None: it stops where it said it is done, waiting for the other sides)
        "stops": None if went.stops == went.passed[-1] else _step_title(probe, went.stops)})


def _next_stop(probe: Probe, now: Holds, reader: Answer) -> Stop | None:
    """Where the side's standing pass stops next, this answer read for the step it is at."""
    state = probe.state

    def answer(at: MatchState, seat: str, version: int) -> Holds:
        return now if at is state else reader(at, seat, version)

    return next_stop(state, probe.ruleset, probe.context, answer)


def _marker(events: list[ev.Event]) -> str | None:
    moved = [e.marker.step for e in events if isinstance(e, ev.PhaseAdvanced | ev.TurnAdvanced)]
    return moved[0] if moved else None


def _rests(events: list[ev.Event]) -> str | None:
    """The step where the marker comes to rest (the service may move it on at once: WC-9)."""
    moved = [e.marker.step for e in events if isinstance(e, ev.PhaseAdvanced | ev.TurnAdvanced)]
    return moved[-1] if moved else None


def _step_title(probe: Probe, path: str) -> str:
    found = probe.ruleset.sequence.step(path)
    return f"{found.title or found.id} ({found.rule})" if found.rule else (found.title or found.id)


def _leads_to(events: list[ev.Event], probe: Probe) -> str:
    state = probe.state
    if any(isinstance(e, ev.SideDone) for e in events):
        others = [side_name(state, s) for s in waiting_for(probe.ruleset.sequence, state)
                  if s != probe.seat]
        return "Done with this step" + (f" (then waiting for {', '.join(others)})"
                                        if others else "")
    if any(isinstance(e, ev.MatchEnded) for e in events):
        return "End of the last turn: the match ends"
    # where the marker comes to rest (the service may move it on at once: WC-9)
    moved = [e.marker for e in events if isinstance(e, ev.PhaseAdvanced | ev.TurnAdvanced)]
    if not moved:
        return "Next step"
    said = _step_title(probe, moved[-1].step)
    return (f"Next turn: turn {moved[-1].turn}, {said}" if moved[-1].turn != state.turn.turn
            else f"Next step: {said}")
