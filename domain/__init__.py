"""battlelog's domain: pure game logic and the application that persists matches.

- `state`     the match state (frozen pydantic models)
- `events`    the domain events (past tense, frozen, `extra="forbid"`)
- `commands`  the actions a seat can ask for (a discriminated union on `type`)
- `dice`      dice notation and dice sources
- `sequence`  the sequence-of-play model (phases, steps, player-turns, loops) as data
- `rulesets`  the game systems, each a ruleset built from that model
- `evolve`    `evolve(state, event) -> state`: the only way state changes; never validates
- `decide`    `decide(command, state, ruleset, context) -> [events]`: validates
- `history`   the one definition of effective state (undo, redo, time travel)
- `application`  the eventsourcing Application: the only entry point for use cases

Nothing here imports a web framework or a database driver, reads the clock or draws
random numbers: time and dice come in from the caller.
"""
