"""Command line: ``explorer scenarios | resolve | rulings | serve | render`` for every game, and each game's own verbs.

The top-level verbs span all games through the registry (:mod:`explorer.games`): a scenario names its game.
Game-specific verbs live under the game: ``explorer tagraid odds``, ``explorer masseffect ...`` (``explorer odds``
is kept as a hidden alias of ``explorer tagraid odds``). Each top-level verb lives in its own module
(``cli_resolve``, ``cli_rulings``, ``cli_serve``, ``cli_render``); a game's verbs are built by its ``Game.cli``
only when asked for, so ``explorer resolve`` never imports another game's command line.

User errors (:class:`~explorer.errors.ExplorerError`), output that cannot be written (a closed pipe, a full device)
and operating-system errors are printed as one line on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import errno
import os
import sys

import typer

from .errors import ExplorerError, escape_controls, shorten, shorten_middle

TOP_LEVEL = ("resolve", "scenarios", "rulings", "serve", "render")
"""Verbs that span every game."""

ALIASES = {"odds": ("tagraid", "odds")}
"""Old spellings kept working: ``{verb: (game id, game verb)}``."""


def _build(argv: list[str]) -> typer.Typer:
    from . import cli_render, cli_resolve, cli_rulings, cli_serve
    from .games import game_ids, get_game

    app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                      help="Interactive rules explorer for tactical board games: " + ", ".join(game_ids()) + ".")
    for mod in (cli_resolve, cli_rulings, cli_serve, cli_render):
        mod.register(app)
    first = next((a for a in argv if not a.startswith("-")), None)
    if first in TOP_LEVEL:
        return app
    wanted = [first] if first in game_ids() else [ALIASES[first][0]] if first in ALIASES else game_ids()
    for gid in wanted:
        g = get_game(gid)
        if g.cli is None:
            continue
        sub = g.cli()
        app.add_typer(sub, name=gid, help=sub.info.help or f"{g.title}: game-specific verbs.")
        for alias, (alias_game, verb) in ALIASES.items():
            if alias_game == gid:
                cmd = next(c for c in sub.registered_commands if c.name == verb)
                app.command(alias, hidden=True, help=f"Same as `explorer {gid} {verb}`.")(cmd.callback)
    return app


def _fail(message: str) -> int:
    """Print ``error: message`` as one line on stderr (if stderr can still be written) and return exit code 2."""
    try:
        print(f"error: {escape_controls(message)}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed or full too: the exit code still tells
        pass
    return 2


def _silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's final flush of output that could not be written
    (a closed pipe, a full device) does not print a second, "Exception ignored" message at exit."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (tests capture it): nothing to do
        pass


def _click_exceptions() -> tuple[type, ...]:
    """The ClickException classes typer may raise: its vendored copy and/or the installed click."""
    out = []
    try:
        from typer import _click

        out.append(_click.ClickException)
    except ImportError:
        pass
    try:
        import click

        out.append(click.ClickException)
    except ImportError:
        pass
    return tuple(out)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``explorer`` command; returns the exit code.

    Every failure a user can cause is one line on stderr and exit code 2, never a traceback: bad input
    (:class:`~explorer.errors.ExplorerError`: bad, long or unreadable paths, invalid files and options), output that
    cannot be written (stdout closed early: ``explorer resolve x | head -1``; a full device: ``> /dev/full``), and
    other operating-system errors. Usage errors are one line too (click's message and exit code, and the command's
    ``--help`` to read); Ctrl-C exits 130.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        app = _build(argv)
        app(args=argv, standalone_mode=False)
        sys.stdout.flush()  # surface a write error here, not at interpreter exit
    except ExplorerError as e:
        return _fail(str(e))
    except typer.Exit as e:
        return e.exit_code
    except (typer.Abort, KeyboardInterrupt):
        return 130
    except SystemExit as e:  # typer turns a broken pipe into a silent exit 1
        cause = e.__context__
        if isinstance(cause, OSError) and cause.errno == errno.EPIPE:
            _silence_stdout()
            return _fail("the output was closed before it was all written (broken pipe)")
        raise
    except BrokenPipeError:
        _silence_stdout()
        return _fail("the output was closed before it was all written (broken pipe)")
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT):
            _silence_stdout()
            return _fail(f"cannot write the output ({e.strerror})")
        where = f" ({shorten_middle(str(e.filename))})" if e.filename else ""
        return _fail(f"{e.strerror or type(e).__name__}{where}")
    except RecursionError:
        return _fail("the input is nested too deeply")
    except Exception as e:  # click usage errors: typer 0.29 raises its vendored click's (typer._click), older
        # typers the installed click's; either may be importable, so check both
        if isinstance(e, _click_exceptions()):
            # one line like every other error: the message, then where to look (not click's usage block)
            ctx = getattr(e, "ctx", None)
            where = f" (see '{ctx.command_path} --help')" if ctx is not None and ctx.command_path else ""
            msg = " ".join(str(e.format_message()).split())
            sys.stderr.write(f"error: {shorten(msg, 300)}{where}\n")
            return e.exit_code
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
