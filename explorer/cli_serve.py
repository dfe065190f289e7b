"""`explorer serve`: the Panel app (see :mod:`explorer.app`)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add ``explorer serve [--port 5006] [--address ADDR] [--show/--no-show]`` to the CLI app."""

    @app.command("serve")
    def serve(port: int = typer.Option(5006, help="TCP port to listen on."),
              address: str = typer.Option(None, help="Interface to bind (default: all interfaces)."),
              show: bool = typer.Option(False, "--show/--no-show", help="Open a browser tab."),
              static_dir: str = typer.Option(None, help="Directory for the local widget JavaScript "
                                                        "(default: a temporary directory).")) -> None:
        """Serve the Face to Face explorer as a Panel app (one board per browser session)."""
        from .app import serve as _serve

        host = address or "localhost"
        typer.echo(f"Serving the rules explorer at http://{host}:{port}/  (Ctrl+C to stop)")
        _serve(port=port, address=address, show=show, static_dir=static_dir)
