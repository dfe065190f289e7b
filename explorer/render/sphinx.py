"""Sphinx extension: the ``{explorer}`` directive (embed a scenario in one line) and the generated rulings gallery.

In ``conf.py``::

    extensions = ["myst_parser", "explorer.render.sphinx"]   # or "myst_nb"
    explorer_app_url = "https://rules.example.org"           # where the Panel app is served (optional)
    explorer_binder_url = "https://mybinder.org/v2/gh/<owner>/<repo>/HEAD"   # optional: adds a Binder link
    explorer_gallery_dir = "gallery"                         # optional: write the rulings gallery there

In a MyST page::

    ```{explorer} tr-05
    :rulings: sv_above_20=excess_to_die
    ```

(in reStructuredText: ``.. explorer:: tr-05`` with ``:rulings:``). The argument is a built-in scenario id of any game
or a scenario TOML file path relative to the page; ``:rulings:`` is ``key=reading`` pairs separated by commas;
``:no-heading:`` leaves out the title and description. The embed is :func:`explorer.render.embed.render_scenario`'s
HTML (picture as inline SVG, cited steps, readings, outcome, live and Binder links) and is rebuilt on every build.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from explorer.errors import ExplorerError

_STYLE = ("<style>.explorer-embed{border:1px solid #ccd;border-radius:6px;padding:.6em 1em;margin:1em 0}"
          ".explorer-embed svg{max-width:100%;height:auto}.explorer-rule{color:#556}"
          ".explorer-readings td,.explorer-readings th{padding:2px 8px;text-align:left}"
          ".explorer-readings-compared td,.explorer-readings-compared th{padding:4px 10px;border:1px solid #ccd}"
          ".explorer-picture svg{max-width:100%;height:auto}</style>")


def _parse_rulings(text: str | None) -> dict[str, str]:
    out = {}
    for item in (text or "").replace(";", ",").split(","):
        if item.strip():
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"ruling {item.strip()!r} is not key=reading")
            out[key.strip()] = value.strip()
    return out


class ExplorerDirective(SphinxDirective):
    """``{explorer} SCENARIO`` with options ``rulings`` (``k=v, k=v``) and ``no-heading``."""

    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = False
    has_content = False
    option_spec = {"rulings": directives.unchanged, "no-heading": directives.flag}

    def run(self) -> list[nodes.Node]:
        from explorer.games import find_builtin

        from .embed import collect, to_html

        name = self.arguments[0]
        if find_builtin(name) is None:  # a file, relative to the page
            rel, path = self.env.relfn2path(name, self.env.docname)
            self.env.note_dependency(rel)
            name = path
        try:
            r = collect(name, _parse_rulings(self.options.get("rulings")),
                        app_url=self.config.explorer_app_url or None,
                        binder_url=self.config.explorer_binder_url or None)
        except (ExplorerError, ValueError) as e:
            raise self.error(f"explorer: {e}") from None
        return [nodes.raw("", _STYLE + to_html(r, heading="no-heading" not in self.options), format="html")]


def _write_gallery(app) -> None:
    if app.config.explorer_gallery_dir:
        from .gallery import write_gallery

        write_gallery(Path(app.srcdir) / app.config.explorer_gallery_dir)


def setup(app):
    """Register the directive, the config values and the gallery generation (on ``builder-inited``)."""
    app.add_config_value("explorer_app_url", "", "html")
    app.add_config_value("explorer_binder_url", "", "html")
    app.add_config_value("explorer_gallery_dir", "", "env")
    app.add_directive("explorer", ExplorerDirective)
    app.connect("builder-inited", _write_gallery)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
