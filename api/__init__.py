"""battlelog's entry points: the FastAPI app (routes, problem details) and the CLI."""
