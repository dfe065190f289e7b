"""Command line: ``explorer resolve | odds | scenarios | serve``.

Each command lives in its own module (``cli_resolve``, ``cli_odds``, ``cli_rulings``, ``cli_serve``); this file only wires them.
User errors (:class:`~explorer.errors.ExplorerError`) are printed as one line on stderr with exit code 2, never
as a traceback.
"""

from __future__ import annotations

import sys

import typer

from .errors import ExplorerError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Interactive rules explorer for tactical board games (TAG Raid first).")


def _register() -> None:
    from . import cli_odds, cli_resolve, cli_rulings, cli_serve

    for mod in (cli_resolve, cli_odds, cli_rulings, cli_serve):
        mod.register(app)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``explorer`` command; returns the exit code."""
    _register()
    try:
        app(args=argv, standalone_mode=False)
    except ExplorerError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except typer.Exit as e:
        return e.exit_code
    except (typer.Abort, KeyboardInterrupt):
        return 130
    except Exception as e:  # click usage errors
        try:
            import click
        except ImportError:  # typer 0.29 vendors click as typer._click and does not install it
            from typer import _click as click

        if isinstance(e, click.ClickException):
            e.show()
            return e.exit_code
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
