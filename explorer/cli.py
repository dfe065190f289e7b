"""Command line: ``explorer scenarios | resolve | rulings | serve | render | rules`` for every game, and each game's
own verbs.

Written on click (design note 22): a command reaches its callback after importing click and the few modules of the
command itself, never pydantic, shapely, networkx, numpy or the widget libraries (``benchmarks/bench_cli_start.py``).

The top-level verbs span all games through the registry (:mod:`explorer.games`): a scenario names its game.
Game-specific verbs live under the game: ``explorer tagraid odds``, ``explorer masseffect ...`` (``explorer odds``
is kept as a hidden alias of ``explorer tagraid odds``). Each top-level verb lives in its own module
(``cli_resolve``, ``cli_rulings``, ``cli_serve``, ``cli_render``, ``cli_rules``), imported only when that verb is
asked for; a game's verbs are built by its ``Game.cli`` (a :class:`click.Group`) only when asked for, so
``explorer resolve`` never imports a game's command line.

User errors (:class:`~explorer.errors.ExplorerError`), output that cannot be written (a closed pipe, a full device)
and operating-system errors are printed as one line on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import errno
import os
import sys
from gettext import gettext
from importlib import import_module

import click

from .errors import ExplorerError, escape_controls, shorten, shorten_middle

TOP_LEVEL: dict[str, tuple[str, str]] = {
    "resolve": ("explorer.cli_resolve", "resolve_command"),
    "scenarios": ("explorer.cli_resolve", "scenarios_command"),
    "rulings": ("explorer.cli_rulings", "rulings_command"),
    "serve": ("explorer.cli_serve", "serve_command"),
    "render": ("explorer.cli_render", "render_command"),
    "rules": ("explorer.cli_rules", "rules_command"),
}
"""Verbs that span every game: ``{verb: (module, click command in it)}``, in the order ``explorer --help`` lists
them."""

SUMMARIES: dict[str, str] = {
    "resolve": "Resolve a scenario of any game step by step, citing the rulebook.",
    "scenarios": "List the built-in scenarios of every game (rulebook examples and handed rulings), and the packaged "
                 "files `explorer resolve` also opens by name (TAG Raid's tables); or, with --export NAME, write one "
                 "of them as a TOML file to start your own from.",
    "rulings": "List the ruling options of every game: what each rulebook leaves open, both readings, the default.",
    "serve": "Serve the app: a landing page and one page per tool per game (one widget tree per browser session); "
             "each NOTEBOOK given (e.g. notebooks/*.ipynb tutorials/*.ipynb) is served too, at /<its file name "
             "without .ipynb>, and listed on the landing page.",
    "render": "Render a scenario (picture, cited steps, readings, outcome) as SVG, HTML or Markdown.",
    "rules": "List each rulebook section (in rulebook order) with the functions that implement it (module:function, "
             "file:line), the built-in scenarios and the tests that cite it; a section no code cites says so.",
    "tagraid": "Infinity Deathmatch: TAG Raid: exact odds of a roll exchange or of a whole Order; Line of Fire on a "
               "table.",
    "masseffect": "Mass Effect: Priority Hagalaz: Strategy Pool odds, a Round step by step (more under `explorer "
                  "resolve`).",
    "galaxydefenders": "Galaxy Defenders: Operation Strikeback: exact combat odds (more under `explorer resolve`).",
    "dagger": "Marvel D.A.G.G.E.R.: the loss probability of the next one or more Nemesis Phases (more under `explorer "
              "resolve`).",
}
"""The first sentence of each listed command's help, as ``explorer --help`` shows it (click's short help is made from
the first sentence alone), so that listing the commands builds none of them: building them all imports every verb's
module and every game's command line (issue 18: every verb under 150 ms of CPU). ``tests/test_cli_contract.py``
checks each against the built command's own help at every width; a command missing here (a new game) makes
``explorer --help`` build the commands as click does."""

ALIASES = {"odds": ("tagraid", "odds")}
"""Old spellings kept working: ``{verb: (game id, game verb)}``."""

CONTEXT_SETTINGS = {"show_default": True}
"""Every command's help shows the options' defaults (a flag's only when it is on)."""

PROG_NAME = "explorer"
"""The name in usage lines and error hints, whether run as ``explorer`` or ``python -m explorer``."""


class ExplorerCLI(click.Group):
    """The ``explorer`` group: the verbs of :data:`TOP_LEVEL`, one sub-group per game (built by its ``Game.cli`` on
    first use) and the hidden :data:`ALIASES`. Nothing is imported until a command is looked up, and ``explorer
    resolve`` looks up no game's command line."""

    def __init__(self) -> None:
        from .games import game_ids

        super().__init__(name=PROG_NAME, context_settings=dict(CONTEXT_SETTINGS),
                         help="Interactive rules explorer for tactical board games: " + ", ".join(game_ids()) + ".")
        self._built: dict[str, click.Command | None] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        from .games import game_ids

        return [*TOP_LEVEL, *game_ids(), *ALIASES]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The ``Commands`` section of ``explorer --help``, as click writes it, from :data:`SUMMARIES` (no command is
        built); click's own listing, which builds every command, when a listed command has no summary."""
        names = [n for n in self.list_commands(ctx) if n not in ALIASES]
        if any(n not in SUMMARIES for n in names):
            super().format_commands(ctx, formatter)
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(n, click.Command(n, help=SUMMARIES[n]).get_short_help_str(limit)) for n in names]
        with formatter.section(gettext("Commands")):   # click's heading, translated as click translates it
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self._built:
            self._built[cmd_name] = self._build(ctx, cmd_name)
        return self._built[cmd_name]

    def _build(self, ctx: click.Context, name: str) -> click.Command | None:
        from .games import game_ids, get_game

        if name in TOP_LEVEL:
            module, attr = TOP_LEVEL[name]
            return getattr(import_module(module), attr)
        if name in ALIASES:
            gid, verb = ALIASES[name]
            group = self.get_command(ctx, gid)
            cmd = group.get_command(ctx, verb) if isinstance(group, click.Group) else None
            if cmd is None:
                return None
            import copy

            alias = copy.copy(cmd)  # the same parameters and callback, listed nowhere
            alias.name, alias.hidden, alias.short_help = name, True, None
            alias.help = f"Same as `explorer {gid} {verb}`."
            return alias
        if name not in game_ids():
            return None
        g = get_game(name)
        if g.cli is None:
            return None
        group = g.cli()
        group.name = name
        if not group.help:
            group.help = f"{g.title}: game-specific verbs."
        return group


def build() -> ExplorerCLI:
    """The ``explorer`` command (a :class:`click.Group`; its sub-commands are built when looked up)."""
    return ExplorerCLI()


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


def _usage_error(e: click.ClickException) -> int:
    """A click usage error as one line: the message, then the command's ``--help`` to read; click's exit code."""
    ctx = getattr(e, "ctx", None)
    where = f" (see '{ctx.command_path} --help')" if ctx is not None and ctx.command_path else ""
    msg = " ".join(str(e.format_message()).split())
    try:
        sys.stderr.write(f"error: {shorten(msg, 300)}{where}\n")
    except (OSError, ValueError):
        pass
    return e.exit_code


def _run(argv: list[str]) -> int:
    """Parse ``argv`` and run the command; its exit code. click's own ``main()`` would turn a broken pipe into a
    silent exit 1 and print its errors as blocks: this parses and invokes directly (both public click API) and
    leaves every failure to :func:`main`."""
    cli = build()
    try:
        with cli.make_context(PROG_NAME, argv) as ctx:
            cli.invoke(ctx)
        code = 0
    except click.exceptions.NoArgsIsHelpError as e:  # `explorer`, `explorer tagraid`: the help, as click prints it
        e.show()
        code = e.exit_code
    except click.exceptions.Exit as e:  # after --help
        code = e.exit_code
    sys.stdout.flush()  # surface a write error here, not at interpreter exit
    return code


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "1")
"""The environment variable and value the command sets, unless the user set it: numpy (under shapely, for every
verb that computes a Line of Fire) starts OpenBLAS with a spinning thread per core when it is imported, which cost
about 100 ms of CPU per command on a 2-core machine (``benchmarks/bench_cli_start.py``, floor rows), while the
engine only ever multiplies tiny arrays. Set before numpy can be imported; ``explorer serve`` inherits it."""


def one_blas_thread(environ: dict | None = None) -> None:
    """Ask OpenBLAS for one thread (:data:`BLAS_THREADS`) in ``environ`` (default: this process's), keeping a
    value the user set. Has no effect once numpy is imported, so :func:`main` calls it first."""
    env = os.environ if environ is None else environ
    env.setdefault(*BLAS_THREADS)


BROKEN_PIPE_EXIT = 128 + 13
"""The exit code when the reader of the output left early (a broken pipe): 141, the shell's code for a tool killed by
SIGPIPE (``yes | head`` exits so), with nothing on stderr."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``explorer`` command; returns the exit code.

    Every failure a user can cause is one line on stderr and exit code 2, never a traceback: bad input
    (:class:`~explorer.errors.ExplorerError`: bad, long or unreadable paths, invalid files and options), output that
    cannot be written (a full device: ``> /dev/full``), and other operating-system errors. Output whose reader left
    early (``explorer scenarios | head``) ends quietly with :data:`BROKEN_PIPE_EXIT`, as Unix tools do. Usage errors are one line too (click's message and exit code 2, and the
    command's ``--help`` to read); a group given no command prints its help on stderr (exit code 2); Ctrl-C exits
    130.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    one_blas_thread()
    try:
        return _run(argv)
    except ExplorerError as e:
        return _fail(str(e))
    except click.ClickException as e:
        return _usage_error(e)
    except (click.Abort, KeyboardInterrupt):
        return 130
    except BrokenPipeError:
        # the reader left (`explorer scenarios | head`): exit quietly, as a Unix tool killed by SIGPIPE does
        _silence_stdout()
        return BROKEN_PIPE_EXIT
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT):
            _silence_stdout()
            return _fail(f"cannot write the output ({e.strerror})")
        where = f" ({shorten_middle(str(e.filename))})" if e.filename else ""
        return _fail(f"{e.strerror or type(e).__name__}{where}")
    except RecursionError:
        return _fail("the input is nested too deeply")


if __name__ == "__main__":
    sys.exit(main())
