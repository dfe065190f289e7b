"""`explorer serve`: the Panel app (see :mod:`explorer.app`).

The port and address are checked before anything is printed: a port outside 1..65535 or an address that does not
resolve is a :class:`~explorer.errors.ScenarioError` naming the option; a port already in use, an address that is
not one of this machine's, or a port needing privileges is a :class:`~explorer.errors.ServeError`. Each is one line
on stderr with exit code 2 (see :func:`explorer.cli.main`), never a traceback. Then each installed Panel, Bokeh,
ipywidgets, ipycanvas or ipywidgets_bokeh that is not the pinned version is one line on stderr naming the serving
patches it disables (:func:`explorer.serving.versions.version_warnings`), and the server starts.
"""

from __future__ import annotations

import errno
import re

import click

from .cli_numbers import PlainInt
from .errors import ScenarioError, ServeError

PORT_RANGE = (1, 65535)
"""TCP ports ``explorer serve`` accepts (0, "any free port", is not supported by Bokeh)."""


def _bind_error(e: OSError, host: str, port: int) -> ServeError:
    if e.errno == errno.EADDRINUSE:
        return ServeError(f"port {port} is already in use on {host}: choose another with --port")
    if e.errno == errno.EADDRNOTAVAIL:
        return ServeError(f"address {host} is not an address of this machine: choose another with --address "
                          "(e.g. 127.0.0.1, the default, or 0.0.0.0 for every interface)")
    if e.errno == errno.EACCES:
        return ServeError(f"port {port} needs administrator rights on this machine: choose one above 1023 with --port")
    return ServeError(f"cannot listen on {host} port {port} ({e.strerror or e}): choose another --port or --address")


def check_listen(address: str | None, port: int) -> None:
    """Check that the app could listen on ``address`` (``None``: all interfaces) and ``port``, the way Tornado binds
    (every address ``getaddrinfo`` gives, ``SO_REUSEADDR`` set), then release the sockets.

    Raises:
        ScenarioError: ``port`` outside :data:`PORT_RANGE` (field ``--port``) or ``address`` not resolvable (field
            ``--address``).
        ServeError: the port is in use, the address is not this machine's, or the port needs privileges.
    """
    import socket  # only when serving: keeps `explorer odds` / `explorer resolve` start-up light

    lo, hi = PORT_RANGE
    if isinstance(port, bool) or not isinstance(port, int) or not lo <= port <= hi:
        raise ScenarioError("--port", f"{port!r} is not a TCP port", f"a whole number {lo}..{hi}")
    host = address or "all interfaces"
    try:
        infos = socket.getaddrinfo(address or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0,
                                   socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise ScenarioError("--address", f"{address!r} is not an address or host name this machine can resolve "
                            f"({getattr(e, 'strerror', None) or e})",
                            "an IP address of this machine (e.g. 127.0.0.1, 0.0.0.0) or a resolvable host name; "
                            "omit it for 127.0.0.1") from None
    seen = set()
    for family, kind, proto, _, sockaddr in infos:
        if (family, sockaddr) in seen:
            continue
        seen.add((family, sockaddr))
        try:
            s = socket.socket(family, kind, proto)
        except OSError:
            continue   # e.g. IPv6 disabled: Tornado skips such families too
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            s.bind(sockaddr)
            s.listen(1)
        except OSError as e:
            raise _bind_error(e, address or sockaddr[0] or host, port) from None
        finally:
            s.close()


NUM_PROCS_RANGE = (1, 16)
"""Worker processes ``explorer serve --num-procs`` accepts."""

_ORIGIN = re.compile(r"^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$")


def check_origins(origins: list[str] | None) -> list[str]:
    """``--allow-websocket-origin`` values: each ``host`` or ``host:port`` (no scheme, no path), at most 20.

    Raises:
        ScenarioError: a malformed origin (field ``--allow-websocket-origin``) or too many.
    """
    origins = list(origins or [])
    if len(origins) > 20:
        raise ScenarioError("--allow-websocket-origin", f"{len(origins)} origins given", "at most 20")
    for o in origins:
        if not _ORIGIN.fullmatch(o):
            raise ScenarioError("--allow-websocket-origin", f"{o[:60]!r} is not host or host:port",
                                "e.g. rules.example.org or rules.example.org:443 (no scheme, no path)")
    return origins


MAX_NOTEBOOKS = 50
"""Notebooks ``explorer serve`` serves at most."""

_NOTEBOOK_STEM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def check_notebooks(paths: list[str]) -> dict[str, str]:
    """``{URL path: notebook path}`` for the notebooks ``explorer serve NOTEBOOK...`` serves: each at ``/<file name
    without .ipynb>``, one level deep like every page (as ``panel serve`` names them).

    Raises:
        ScenarioError: (field ``NOTEBOOK``) more than :data:`MAX_NOTEBOOKS`, a path that is not an existing
            ``.ipynb`` file, a file name that is not letters, digits, ``_``, ``.``, ``-``, or two notebooks (or a
            notebook and a page) on the same URL.
    """
    from pathlib import Path

    from .app import routes

    if len(paths) > MAX_NOTEBOOKS:
        raise ScenarioError("NOTEBOOK", f"{len(paths)} notebooks given", f"at most {MAX_NOTEBOOKS}")
    taken = {r: "the page " + r for r in routes()} | {"/": "the landing page"}
    out: dict[str, str] = {}
    for raw in paths:
        p = Path(raw)
        if p.suffix != ".ipynb" or not p.is_file():
            raise ScenarioError("NOTEBOOK", f"{raw[:100]!r} is not an existing .ipynb file",
                                "paths of Jupyter notebooks, e.g. notebooks/*.ipynb tutorials/*.ipynb")
        if not _NOTEBOOK_STEM.fullmatch(p.stem):
            raise ScenarioError("NOTEBOOK", f"{p.name[:100]!r} cannot name a URL",
                                "file names of letters, digits, _, . and - (before .ipynb)")
        route = f"/{p.stem}"
        if route in taken:
            raise ScenarioError("NOTEBOOK", f"{raw[:100]!r} would be served at {route}, already {taken[route]}",
                                "notebooks whose file names differ from each other and from the page names")
        taken[route] = f"the notebook {raw[:100]}"
        out[route] = str(p.resolve())
    return out


@click.command("serve")
@click.option("--port", type=PlainInt(), default=5006, help="TCP port to listen on (1..65535).")
@click.option("--address", default=None, help="Interface to bind (default: 127.0.0.1, this machine only; 0.0.0.0 "
                                               "for every interface).")
@click.option("--show/--no-show", default=False, help="Open a browser tab.")
@click.option("--static-dir", default=None, help="Directory in which to lay out the local widget JavaScript: a new "
                                                  "or empty directory, or one an earlier run made (only its "
                                                  "explorer-widget-js sub-directory is served; default: a "
                                                  "temporary directory).")
@click.option("--num-procs", type=PlainInt(), default=1, help="Worker processes (1..16); put a reverse proxy with sticky "
                                                       "sessions in front (README).")
@click.option("--allow-websocket-origin", multiple=True, help="Extra host[:port] allowed to open websockets (the "
                                                              "public name behind a proxy); repeatable.")
@click.option("--warm/--no-warm", default=True, help="Build every page once before taking requests (the first "
                                                     "visitor does not wait for it; start-up takes a few seconds "
                                                     "more).")
@click.option("--stats/--no-stats", default=False, help="Serve /explorer-stats (JSON counters of the process that "
                                                       "answers: widgets, sessions, memory; ?deep=1 adds object "
                                                       "counts). Off by default: it is unauthenticated.")
@click.argument("notebooks", nargs=-1, metavar="[NOTEBOOK]...")
def serve_command(port: int, address: str | None, show: bool, static_dir: str | None, num_procs: int,
                  allow_websocket_origin: tuple[str, ...], warm: bool, stats: bool,
                  notebooks: tuple[str, ...]) -> None:
    """Serve the app: a landing page and one page per tool per game (one widget tree per browser session); each
    NOTEBOOK given (e.g. notebooks/*.ipynb tutorials/*.ipynb) is served too, at /<its file name without .ipynb>,
    and listed on the landing page."""
    from .app import DEFAULT_ADDRESS

    lo, hi = NUM_PROCS_RANGE
    if not lo <= num_procs <= hi:
        raise ScenarioError("--num-procs", f"{num_procs} worker processes", f"a whole number {lo}..{hi}")
    origins = check_origins(list(allow_websocket_origin))
    address = address or DEFAULT_ADDRESS
    served_notebooks = check_notebooks(list(notebooks))
    check_listen(address, port)
    if static_dir is not None:
        from .serving.static_dir import check_static_dir

        check_static_dir(static_dir)
    from .app import serve as _serve

    from .serving.versions import mark_reported, version_warnings

    mismatched = version_warnings()   # the serving patches' pins: one line per package, never a silent switch-off
    for line in mismatched:
        click.echo(line, err=True)
    mark_reported(mismatched)
    host = "localhost" if address in ("127.0.0.1", "0.0.0.0", "::") else f"[{address}]" if ":" in address else address
    click.echo(f"Serving the rules explorer at http://{host}:{port}/  (Ctrl+C to stop)")
    try:
        _serve(port=port, address=address, show=show, static_dir=static_dir, num_procs=num_procs,
               allow_websocket_origin=origins, warm=warm, stats=stats, notebooks=served_notebooks)
    except OSError as e:   # the port was taken between the check and the bind
        raise _bind_error(e, address, port) from None


def register(group: click.Group) -> None:
    """Add ``explorer serve [--port 5006] [--address ADDR] [--num-procs N] [--allow-websocket-origin HOST]
    [--show/--no-show] [--warm/--no-warm] [--stats] [NOTEBOOK]...`` to a click group."""
    group.add_command(serve_command)
