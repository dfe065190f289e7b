"""`explorer resolve` (being built)."""

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the CLI app."""
