"""Everything read from the event log: board, VP tracks, turn marker, timeline, reports."""

from projections.built_in_games import play_built_in_games

play_built_in_games()  # the built-in games written as files are played from them
