"""The Panel app: a landing page, and one page per tool per game, each at its own URL.

Routes (all one level deep, so relative links and the widget JavaScript prefix work behind any proxy prefix):

* ``/`` — the landing page: every registered game (:mod:`explorer.games`) with its tool pages;
* ``/<game id>-<page slug>`` — one tool page, e.g. ``/tagraid-face-to-face``, ``/tagraid-line-of-fire``: a header with
  links to the game's other pages, and a fresh widget tree for each browser session (its own canvas managers).
  A page widget with ``url_state()`` / ``load_url_state()`` / ``on_state_change()`` keeps its state in the URL
  (``?s=...``, :func:`explorer.serving.url_state.url_state_sync`): a copied link reproduces the page.
  ``?scenario=<built-in id>`` opens a page on a built-in scenario (:func:`scenario_page_widget`; pages with
  ``Page.open``): the documentation's embedded demos link there.

This module imports no game: pages come from the registry and build their widgets when a session opens. Run it with
``explorer serve`` (or ``./run app``); ``apps/*.py`` serve single pages with ``panel serve`` (Binder).
"""

from __future__ import annotations

import html
import tempfile
from pathlib import Path

from explorer.text import plural
from explorer.urlstate import MAX_REQUEST_HEADER_BYTES
from explorer.serving.binary_messages import accept_binary_widget_messages
from explorer.serving.canvas_fixes import browser_fixes
from explorer.serving.batched_messages import batch_widget_messages, batching_enabled
from explorer.serving.comm_opens import skip_browser_comm_opens
from explorer.serving.components_fence import fence_components
from explorer.serving.lean_build import lean_build_comms
from explorer.serving.page_js import page_script
from explorer.serving.pane import served_pane
from explorer.serving.phone import phone_page
from explorer.serving.resources import local_resources
from explorer.serving.url_state import has_url_state, url_state_sync, url_writer
from explorer.serving.versions import warn_versions
from explorer.serving.warm import warm_pages
from explorer.serving.widget_js import WIDGET_JS_ROUTE, layout_widget_js, use_static_route

TITLE = "Rules explorer"

_TEXT = "font-family:sans-serif;font-size:13px;color:#495057"


def page_route(game_id: str, slug: str) -> str:
    """The URL path of a tool page (``/tagraid-face-to-face``)."""
    return f"/{game_id}-{slug}"


def routes() -> dict[str, tuple[str, str]]:
    """``{URL path: (game id, page slug)}`` for every page of every registered game."""
    from explorer.games import all_games

    return {page_route(g.id, p.slug): (g.id, p.slug) for g in all_games() for p in g.pages}


def _nav_html(game_id: str, current: str) -> str:
    from explorer.games import get_game

    g = get_game(game_id)
    links = []
    for p in g.pages:
        label = html.escape(p.title)
        if p.slug == current:
            links.append(f"<b class='nav-current'>{label}</b>")
        else:
            links.append(f"<a href='.{page_route(g.id, p.slug)}'>{label}</a>")
    return (f"<nav class='explorer-nav' style='{_TEXT};font-size:14px'><a href='./'>Rules explorer</a> › "
            f"<i>{html.escape(g.title)}</i> › " + " · ".join(links) + "</nav>")


SCENARIO_PARAM = "scenario"
"""The query parameter naming the built-in scenario a page opens on: ``/tagraid-face-to-face?scenario=tr-05`` (the
links from the documentation's embedded demos). A page's own state in ``?s=`` is applied after it."""

MAX_SCENARIO_ID = 100
"""The longest ``?scenario=`` value read (built-in ids are short)."""


def requested_scenario(game_id: str, slug: str, search: str | None) -> tuple[str | None, str]:
    """The built-in scenario a page URL asks for, checked.

    Args:
        game_id / slug: the page.
        search: the URL's query string (``"?scenario=tr-05"``).

    Returns:
        ``(scenario id, "")`` when ``?scenario=`` names a built-in scenario of this game, of a kind the page shows,
        and the page can open a scenario (``Page.open``); ``(None, "")`` without the parameter; else ``(None,
        message)``: a one-line reason, and the page opens its defaults (an id of another game, or of a kind another
        page of this game shows, names that game and links the page that opens it).
    """
    from explorer.games import all_games, get_game, read_toml
    from explorer.serving.url_state import query_value

    raw = query_value(search or "", SCENARIO_PARAM)
    if raw is None or raw == "":
        return None, ""
    g = get_game(game_id)
    page = g.page(slug)
    shown = html.escape(raw[:MAX_SCENARIO_ID])
    if len(raw) > MAX_SCENARIO_ID or raw not in g.builtin_names():
        other = next((o for o in all_games() if o.id != g.id and raw in o.builtin_names()), None) \
            if len(raw) <= MAX_SCENARIO_ID else None
        if other is not None:   # another game's id: say whose, and where it opens (as the CLI names the game)
            return None, (f"?{SCENARIO_PARAM}={shown!r} is a scenario of {html.escape(other.title)}, not of "
                          f"{html.escape(g.title)}{_opens_on(other, raw)}; this page shows its defaults"
                          f"{_allowed_scenarios(g, page)}")
        return None, (f"?{SCENARIO_PARAM}=: no built-in {html.escape(g.title)} scenario is called {shown!r}: the "
                      f"page shows its defaults{_allowed_scenarios(g, page)}")
    kind = str(read_toml(raw, text=g.scenario_text(raw)).get("kind", ""))
    if kind not in page.kinds:
        return None, (f"?{SCENARIO_PARAM}=: scenario {shown!r} ({kind or 'no kind'}) is not one this page shows"
                      f"{_opens_on(g, raw)}; this page shows its defaults{_allowed_scenarios(g, page)}")
    if page.open is None:
        return None, (f"?{SCENARIO_PARAM}=: this page cannot open a scenario from its address yet: pick {shown} on "
                      f"the page{_REWRITTEN}")
    return raw, ""


_REWRITTEN = ". The address now links to what the page shows."


def openable_scenarios(game, page) -> list[str]:
    """The built-in scenario ids ``page`` of ``game`` opens from ``?scenario=`` (its kinds'; none without
    ``Page.open``), in the game's order (read once per process: the built-ins are packaged)."""
    from explorer.games import read_toml

    key = (game.id, page.slug)
    if key not in _OPENABLE:
        _OPENABLE[key] = tuple(n for n in game.builtin_names() if page.open is not None
                               and str(read_toml(n, text=game.scenario_text(n)).get("kind", "")) in page.kinds)
    return list(_OPENABLE[key])


_OPENABLE: dict[tuple[str, str], tuple[str, ...]] = {}


def _allowed_scenarios(game, page) -> str:
    """``" (allowed: tr-01, tr-02, ...)"`` plus :data:`_REWRITTEN`: the end of a refused ``?scenario=``'s message."""
    names = openable_scenarios(game, page)
    shown = ", ".join(names[:15]) + (f", ... ({len(names)} in all)" if len(names) > 15 else "")
    return (f" (allowed: {html.escape(shown)})" if names else "") + _REWRITTEN


def _opens_on(game, name: str) -> str:
    """``": open it on <a href=...>Page title</a>"`` for built-in ``name`` of ``game`` (the page listing its kind,
    :func:`explorer.render.embed.live_link`), or ``""`` when no page shows it."""
    from explorer.games import read_toml
    from explorer.render.embed import live_link

    link = live_link(game, name, str(read_toml(name, text=game.scenario_text(name)).get("kind", "")))
    if link is None:
        return ""
    route, _opens = link
    title = game.page(route.lstrip("/").split("?")[0][len(game.id) + 1:]).title
    # a relative link: pages are siblings, also behind a proxy prefix
    return (f": open it on <a href='.{html.escape(route)}'>{html.escape(game.title)} › {html.escape(title)}</a>"
            f" (<code>{html.escape(route)}</code>)")


def scenario_page_widget(game_id: str, slug: str, search: str | None = None):
    """``(widget, redraw, message)`` for one session of a page: opened on the URL's ``?scenario=`` when
    :func:`requested_scenario` accepts it (``Page.open``), else built with its defaults (``Page.build``) and
    ``message`` says why (empty when nothing was asked). ``search`` defaults to the session's URL query."""
    from explorer.games import get_game

    if search is None:
        import panel as pn

        loc = pn.state.location
        search = loc.search if loc is not None else ""
    name, message = requested_scenario(game_id, slug, search)
    widget, redraw = get_game(game_id).open_page(slug, name)
    return widget, redraw, message


BINDER_APP = "explorer_page"
"""The jupyter-panel-proxy app (``apps/explorer_page.py``) that serves any page on Binder:
``<binder>/panel/explorer_page?page=<game id>-<slug>&scenario=<id>`` (:func:`create_page_from_query`)."""


def create_page_from_query():
    """One tool page chosen by the URL's ``?page=<game id>-<slug>`` (default: the first game's first page), for
    servers that serve one app per file (Binder's jupyter-panel-proxy); ``?scenario=`` and ``?s=`` work as on
    :func:`create_page`. An unknown ``page`` opens the landing page's list instead."""
    import panel as pn

    from explorer.serving.url_state import query_value

    loc = pn.state.location
    wanted = query_value(loc.search if loc is not None else "", "page") or ""
    table = routes()
    if not wanted:
        gid, slug = next(iter(table.values()))
        return create_page(gid, slug)
    if "/" + wanted in table:
        return create_page(*table["/" + wanted])
    # the first page, as without ?page=, and the address says so (a reload does not repeat the refusal)
    gid, slug = next(iter(table.values()))
    allowed = ", ".join(r.lstrip("/") for r in table)
    refused = (f"?page={html.escape(wanted[:100])!r} is no page of this app, so it shows {gid}-{slug} "
               f"(allowed: {html.escape(allowed)}){_REWRITTEN}")
    return create_page(gid, slug, refused=(("page", refused),))


def create_page(game_id: str, slug: str, refused: tuple[tuple[str, str], ...] = ()):
    """One tool page for one browser session: navigation header, the page's summary, its widget tree.

    A link parameter the page refuses (``?scenario=``, ``?s=``, and ``refused``'s ``(parameter, message)`` pairs)
    is named in a message and taken out of the address (``?s=`` is rewritten to the state shown): the address
    always links to what the page shows.

    Raises:
        ScenarioError: unknown game id. KeyError: unknown page slug.
    """
    import panel as pn

    from explorer.games import get_game

    local_resources()   # Panel's stylesheets from this server, not a CDN, in every session
    fence_components()   # under plain ``panel serve apps/*.py`` too: /components/ never imports a module
    phone_page()   # the viewport meta and the phone stylesheet (explorer.serving.phone)
    page = get_game(game_id).page(slug)
    widget, redraw, notice = scenario_page_widget(game_id, slug)  # ?scenario=<id>
    loc = pn.state.location
    opened, _ = requested_scenario(game_id, slug, loc.search if loc is not None else "")
    head = pn.pane.HTML(_nav_html(game_id, slug) + f"<div style='{_TEXT};margin-top:4px'>"
                        f"{html.escape(page.summary)}</div>", margin=(0, 10), sizing_mode="stretch_width")
    # browser fixes first: no scroll on a canvas click, the wheel scrolls the page (explorer.serving.canvas_fixes)
    parts = [browser_fixes(), head]
    drop = tuple(name for name, _ in refused) + ((SCENARIO_PARAM,) if notice else ())
    for message in [text for _, text in refused] + ([notice] if notice else []):
        parts.append(pn.pane.HTML(f"<div class='scenario-param-message' style='{_TEXT};font-size:14px;"
                                  f"color:#c92a2a'>{message}</div>", margin=(0, 10), sizing_mode="stretch_width"))
    if has_url_state(widget):  # the page's state lives in its URL (?s=...): restored here, written on each change
        parts.append(url_state_sync(widget, shown=f"scenario {opened}" if opened else "its defaults", drop=drop))
    elif drop:   # no state to write: the refused parameters only leave the address
        parts.append(url_writer(drop=drop))
    return pn.Column(*parts, served_pane(widget, redraw=redraw, sizing_mode="stretch_width"),
                     sizing_mode="stretch_width")


def landing_html() -> str:
    """The landing page's HTML: every game, its tool pages (with links) and its number of built-in scenarios; then the
    notebooks this process serves (:data:`SERVED_NOTEBOOKS`)."""
    from explorer.games import all_games

    out = [f"<div class='explorer-landing' style='{_TEXT};font-size:14px;max-width:900px'>",
           "<h1 style='font-size:22px'>Rules explorer</h1>",
           "<p>Settle edge-case rulings by playing with the rules: every step cites the rulebook section that decides "
           "it, every ambiguity is a named ruling option you can flip, odds are exact.</p>"]
    for g in all_games():
        out.append(f"<h2 style='font-size:17px' id='{g.id}'>{html.escape(g.title)}</h2><ul>")
        for p in g.pages:
            out.append(f"<li><a href='.{page_route(g.id, p.slug)}'><b>{html.escape(p.title)}</b></a> — "
                       f"{html.escape(p.summary)}</li>")
        if not g.pages:
            out.append("<li><i>No interactive page yet: use the command line.</i></li>")
        n = len(g.builtin_names())
        out.append(f"<li>{plural(n, 'built-in scenario')}: <code>explorer scenarios --game {g.id}</code>, "
                   f"<code>explorer resolve {html.escape(g.default_scenario)}</code>; ruling options: "
                   f"<code>explorer rulings --game {g.id}</code></li></ul>")
    if SERVED_NOTEBOOKS:
        out.append("<h2 style='font-size:17px' id='notebooks'>Notebooks</h2><ul>")
        for route, path in SERVED_NOTEBOOKS.items():
            out.append(f"<li><a href='.{html.escape(route)}'>{html.escape(Path(path).name)}</a></li>")
        out.append("</ul>")
    out.append("</div>")
    return "".join(out)


def create_landing():
    """The landing page for one browser session."""
    import panel as pn

    local_resources()
    fence_components()
    phone_page()
    # in a Column: Panel ships MathJax (1.8 MB of JavaScript) with a page whose root is an HTML pane
    return pn.Column(pn.pane.HTML(landing_html(), margin=(0, 10), sizing_mode="stretch_width"),
                     sizing_mode="stretch_width")


def create_app(game_id: str = "tagraid"):
    """One game's pages as tabs in a single page (for ``panel serve apps/explorer_app.py`` on Binder, where each file
    is one app). ``explorer serve`` serves each page at its own URL instead (:func:`serve`)."""
    import panel as pn

    from explorer.games import get_game

    local_resources()
    fence_components()
    phone_page()
    g = get_game(game_id)
    tabs = []
    for i, p in enumerate(g.pages):
        widget, redraw = p.build(g)
        intro = pn.pane.HTML(f"<div style='{_TEXT}'>{html.escape(p.summary)}</div>", margin=(0, 10))
        parts = [browser_fixes()] if i == 0 else []
        tabs.append((p.title, pn.Column(*parts, intro, served_pane(widget, redraw=redraw, sizing_mode="stretch_width"),
                                        sizing_mode="stretch_width")))
    return pn.Tabs(*tabs, sizing_mode="stretch_width")


def create_lof_page():
    """The TAG Raid Line of Fire page alone (``apps/lof_app.py``)."""
    return create_page("tagraid", "line-of-fire")


def _page_factory(game_id: str, slug: str):
    return lambda: create_page(game_id, slug)


DEFAULT_ADDRESS = "127.0.0.1"
"""``explorer serve`` listens on the loopback interface unless ``--address`` says otherwise."""

STATS_ROUTE = "/explorer-stats"
"""JSON: process id, live widgets, session documents and resident memory of the server process that answered (see
:func:`explorer.serving.stats.server_stats`); ``?deep=1`` adds object counts after a full garbage collection, run in
a worker thread. Served only with ``explorer serve --stats`` (404 otherwise): it is unauthenticated."""


def _stats_handler():
    import json

    from tornado.ioloop import IOLoop
    from tornado.web import RequestHandler

    from explorer.serving.stats import server_stats

    class StatsHandler(RequestHandler):
        async def get(self):
            deep = self.get_query_argument("deep", "0") == "1"
            # the deep walk (a full GC and every live object) runs off the event loop: other sessions' clicks
            # are not queued behind it
            stats = await IOLoop.current().run_in_executor(None, server_stats, True) if deep else server_stats()
            self.set_header("Content-Type", "application/json")
            self.set_header("Cache-Control", "no-store")
            self.write(json.dumps(stats))

    return StatsHandler


def _session(factory):
    """Wrap a page factory so the session's widgets are closed when the session ends, and the widget messages queued
    while building are not sent (the page's document carries their state: :func:`drop_build_messages`)."""
    def build():
        from explorer.serving.build_messages import drop_build_messages
        from explorer.serving.lean_build import building_page
        from explorer.serving.session_end import free_widgets_on_session_end

        free_widgets_on_session_end()
        with building_page():   # comms opened without state: their messages are dropped (lean_build_comms)
            page = factory()
        drop_build_messages()
        return page
    return build


SERVED_NOTEBOOKS: dict[str, str] = {}
"""``{URL path: notebook path}`` of the notebooks this process serves (:func:`serve`; the landing page lists them)."""


def serve(port: int = 5006, address: str | None = None, show: bool = False, static_dir: str | Path | None = None,
          threaded: bool = False, num_procs: int = 1, allow_websocket_origin: list[str] | None = None,
          warm: bool = True, stats: bool = False, notebooks: dict[str, str] | None = None):
    """Serve the landing page at ``/`` and every tool page at :func:`page_route`, with the local widget JavaScript
    (blocking unless ``threaded``).

    Sessions: a plain ``GET`` renders a cached page (Panel's ``reuse_sessions``) and builds no widgets; a session's
    widgets are built when its browser connects and closed when the session ends (closed tab: after about 10 s).
    With ``warm`` every route's cached page is built before the first request (:func:`warm_pages`).

    Args:
        port: TCP port (0: any free port is not supported by Bokeh; pick one).
        address: interface to bind (default :data:`DEFAULT_ADDRESS`, loopback only; ``0.0.0.0`` for every interface).
        show: open a browser tab.
        static_dir: where to lay out the widget JavaScript: a new, empty or explorer-made directory
            (:mod:`explorer.serving.static_dir`; ScenarioError otherwise); only its ``explorer-widget-js``
            sub-directory (created and emptied here) is served. Default: a temporary directory.
        threaded: run the server in a background thread and return it.
        num_procs: worker processes (Tornado forks them; each holds its own sessions: put a proxy with sticky
            sessions in front, see README › Serving).
        allow_websocket_origin: extra ``host[:port]`` origins allowed to open websockets (e.g. the public name a
            reverse proxy serves the app under); localhost and ``address`` are always allowed.
        warm: build every page's cached copy at start (in each worker process; not with ``threaded``): the server
            answers a few seconds later, and its first visitors do not wait for the first build.
        stats: serve :data:`STATS_ROUTE` (each worker process answers for itself, with its process id); off by
            default.
        notebooks: ``{URL path: .ipynb path}`` (checked by :func:`explorer.cli_serve.check_notebooks`): each served
            as Panel serves a notebook (its first cell, :func:`explorer.serving.notebook.notebook_app`, sets it up).

    Panel's ``/components/`` route is fenced (:func:`explorer.serving.components_fence.fence_components`): it serves
    only already-imported Panel/Bokeh modules' listed resources and never imports a module.
    """
    import panel as pn

    from explorer.games import all_games

    warn_versions()   # one line per package that is not the pinned version (explorer serve printed them already)
    pn.extension("ipywidgets")
    local_resources()   # process-wide part: Font Awesome from this server (each page sets its session's part)
    phone_page()   # process-wide part: the phone stylesheet (each page sets its document's viewport meta)
    skip_browser_comm_opens()   # ~700 fewer websocket messages per new session
    if batching_enabled():   # off by default (explorer.serving.batched_messages: why)
        batch_widget_messages()
    page_script()   # and the browser does not even send those comm_opens (explorer.serving.page_js)
    lean_build_comms()   # a page's build does not serialise the widget states its dropped messages would carry
    accept_binary_widget_messages()   # uploaded files (binary widget messages) reach the pages
    address = address or DEFAULT_ADDRESS
    from .serving.static_dir import prepare_static_dir   # a new, empty or explorer-made directory only

    static = layout_widget_js(prepare_static_dir(static_dir if static_dir is not None else
                                                 tempfile.mkdtemp(prefix="explorer-widget-js-")))
    use_static_route(WIDGET_JS_ROUTE)   # the panes' widget JavaScript from this --static-dir
    from .serving.origins import websocket_origins   # IPv6 addresses too (in brackets)

    origins = websocket_origins(address, port, allow_websocket_origin)
    from .serving.ipv6_host import ipv6_host_locations

    ipv6_host_locations()   # a page asked for as http://[::1]:port/ (or with a malformed Host) is not a 500
    fence_components()   # GET /components/<module>/... never imports a module
    from .serving.ws_refusals import quiet_websocket_refusals

    quiet_websocket_refusals()   # a websocket without the bokeh subprotocol: one log line, no traceback
    from .serving.ws_nodelay import websocket_nodelay

    websocket_nodelay()   # each websocket frame of an answer leaves at once (no delayed-ACK pause inside it)
    if num_procs > 1:
        from .serving.workers import end_workers_with_parent

        end_workers_with_parent()   # `kill PID` of explorer serve stops its workers too (they kept the port)
    apps = {"/": create_landing}
    titles = {"/": TITLE}
    for route, (gid, slug) in routes().items():
        apps[route] = _session(_page_factory(gid, slug))
        g = next(x for x in all_games() if x.id == gid)
        titles[route] = f"{g.page(slug).title} — {g.title} — {TITLE}"
    SERVED_NOTEBOOKS.clear()
    SERVED_NOTEBOOKS.update(notebooks or {})
    for route, path in SERVED_NOTEBOOKS.items():
        apps[route] = path
        titles[route] = f"{Path(path).stem} (notebook) — {TITLE}"
    pn.config.reuse_sessions = True
    pn.config.global_loading_spinner = True  # a visible "loading" state from the first frame until the page renders
    options = dict(port=port, address=address, show=show, title=titles, static_dirs={WIDGET_JS_ROUTE: str(static)},
                   websocket_origin=origins, print_url=False, num_procs=num_procs,
                   extra_patterns=[(STATS_ROUTE, _stats_handler())] if stats else [],
                   # a link past the state bound reaches the page, which opens its defaults and says why
                   http_server_kwargs={"max_header_size": MAX_REQUEST_HEADER_BYTES},
                   check_unused_sessions_milliseconds=2000, unused_session_lifetime_milliseconds=8000)
    if threaded or not warm:
        return pn.serve(apps, threaded=threaded, **options)
    server = pn.serve(apps, start=False, **options)   # bound (and forked) but not yet taking requests
    warm_pages(server)
    server.start()
    try:
        server.io_loop.start()
    except RuntimeError:   # as Panel's own start: the loop is already running
        pass
    return server
