"""battlelog's domain: pure game logic and the application that persists matches.

The pure core, at the top of the package:
- `state`     the match state (frozen pydantic models)
- `evolve`    `evolve(state, event) -> state`: the only way state changes; never validates
- `decide`    `decide(command, state, ruleset, context) -> [events]`: validates
- `authority` who may take which action: the one place
- `history`   the one definition of effective state (undo, redo, time travel)
- `sequence`  the sequence-of-play model (phases, steps, player-turns, loops) as data
- `dice`      dice notation and dice sources; `integrity` the hash chain and `verify`
- `events/`   the domain events (past tense, frozen, `extra="forbid"`)
- `commands/` the actions a seat can ask for (a discriminated union on `type`)
- `rulesets/` the game systems, each a ruleset built from that model; `procedures/` theirs
Above the core, importing it and not each other:
- `legal/`    the legal actions, derived from `decide`
- `clock/`    the game clock, a fold over the events' times
Above those:
- `app/`      the eventsourcing Application: the only entry point for use cases, and the only
              part of `domain/` that knows about storage

Nothing here imports a web framework or a database driver, reads the clock or draws
random numbers: time and dice come in from the caller. pyproject.toml's import contracts
hold the layers (docs/architecture.md).
"""
