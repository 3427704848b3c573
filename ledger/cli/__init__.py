"""The command line (Typer): thin wrappers around one service call each."""
