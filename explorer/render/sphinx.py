"""Sphinx extension: the ``{explorer}`` directive (embed a scenario in one line), the generated rulings gallery and
the generated rule index (:mod:`explorer.render.rule_pages`).

In ``conf.py``::

    extensions = ["myst_parser", "explorer.render.sphinx"]   # or "myst_nb"
    explorer_app_url = "https://rules.example.org"           # where the Panel app is served (optional)
    explorer_binder_url = "https://mybinder.org/v2/gh/<owner>/<repo>/HEAD"   # optional: adds a Binder link
    explorer_gallery_dir = "gallery"                         # optional: write the rulings gallery there
    explorer_rule_index_dir = "rule-index"                   # optional: write the rule index there

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
        return [nodes.raw("", to_html(r, heading="no-heading" not in self.options), format="html")]


def _write_gallery(app) -> None:
    if app.config.explorer_gallery_dir:
        from .gallery import write_gallery

        write_gallery(Path(app.srcdir) / app.config.explorer_gallery_dir, app.config.explorer_app_url or "",
                      app.config.explorer_binder_url or "")


def _write_rule_index(app) -> None:
    if app.config.explorer_rule_index_dir:
        from .rule_pages import write_rule_index

        write_rule_index(Path(app.srcdir) / app.config.explorer_rule_index_dir,
                         gallery=bool(app.config.explorer_gallery_dir))


def _drop_unused_widget_state(app, doctree, docname: str) -> None:
    """An executed notebook whose every widget is shown as its static picture (:mod:`explorer.widgets.static`) keeps
    no widget view, so its embedded widget state (megabytes for a canvas tree) and the widget JavaScript MyST-NB would
    load from a public CDN serve nothing: leave them out of the page. A notebook with a widget view keeps them.
    (On ``doctree-resolved``: MyST-NB picks each output's mime type in a post-transform.)"""
    files = getattr(app.env, "nb_metadata", {}).get(docname, {}).get("js_files")
    if not files or "ipywidgets_state" not in files:
        return
    if any("application/vnd.jupyter.widget-view+json" in n.astext() for n in doctree.findall(nodes.raw)):
        return
    for key in [k for k in files if k.startswith("ipywidgets_")]:
        del files[key]


def _add_static(app) -> None:
    """The embeds' and the gallery's style sheet (``explorer/render/static/explorer.css``: pictures fit the column,
    readings stack on a phone) on every page."""
    static = str(Path(__file__).parent / "static")
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)


def setup(app):
    """Register the directive, the config values, the style sheet and the generation of the gallery and the rule
    index (on ``builder-inited``)."""
    app.add_config_value("explorer_app_url", "", "html")
    app.add_config_value("explorer_binder_url", "", "html")
    app.add_config_value("explorer_gallery_dir", "", "env")
    app.add_config_value("explorer_rule_index_dir", "", "env")
    app.add_directive("explorer", ExplorerDirective)
    app.connect("builder-inited", _write_gallery)
    app.connect("builder-inited", _write_rule_index)
    app.connect("builder-inited", _add_static)
    app.add_css_file("explorer.css")
    app.connect("doctree-resolved", _drop_unused_widget_state)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
