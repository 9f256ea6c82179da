"""Everything read from the event log: board, VP tracks, turn marker, timeline, reports."""
