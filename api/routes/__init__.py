"""One router per resource: matches, actions (and undo/redo), views, events, health."""
