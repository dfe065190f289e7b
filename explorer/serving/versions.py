"""The start-up check of the serving patches: the installed widget stack against the versions the patches were
written for.

Every module of :mod:`explorer.serving` that reaches into a private API of Panel, Bokeh (BokehJS), ipywidgets,
ipycanvas or ipywidgets_bokeh is listed in :data:`PATCHES` with the packages it reaches into and what it does when one
of them is not the pinned version (:data:`PINS`, the ``==`` pins of ``pyproject.toml``; ``tests/serving`` checks the
two agree):

- ``"disable"``: the patch is left out, with a warning. These are the patches that only save time (fewer messages,
  fewer models, less serialising): a page is slower without them but right, while a patch that misreads another
  version's internals could drop a message that version needs.
- ``"guarded"``: the patch still tries, with a warning, and logs one line if it cannot be applied. These are the
  patches without which something visibly breaks (no board drawn, no uploaded file, CDN requests, memory that
  grows with every visit): trying is better than the known breakage.

A mismatch is never silent: :func:`version_warnings` gives one line per mismatched package naming the installed and
the pinned version and the patches it disables or leaves guarded; it is issued as a :class:`ServingVersionWarning`
the first time any patch asks (:func:`allowed`), and ``explorer serve`` prints it before it starts. Reading the
installed versions (``importlib.metadata``) imports none of these packages.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

PINS: dict[str, str] = {
    "panel": "1.9.4",
    "bokeh": "3.9.2",
    "ipywidgets": "8.1.9",
    "ipycanvas": "0.14.3",
    "ipywidgets_bokeh": "1.8.0",
}
"""``{distribution name: pinned version}``: the versions whose private APIs the serving patches were written against
(the same ``==`` pins as ``pyproject.toml``'s dependencies)."""

DISABLE = "disable"
GUARDED = "guarded"


@dataclass(frozen=True)
class Patch:
    """One patch of a private API: its name (the function that applies it), its module under
    :mod:`explorer.serving`, the distributions of :data:`PINS` it reaches into, what it does on a mismatch
    (:data:`DISABLE` or :data:`GUARDED`) and what breaks without it (one phrase)."""

    name: str
    module: str
    requires: tuple[str, ...]
    on_mismatch: str
    without: str


PATCHES: dict[str, Patch] = {p.name: p for p in (
    Patch("local_js_pane", "widget_js", ("panel", "ipywidgets_bokeh", "ipycanvas"), GUARDED,
          "boards stay blank: widget JavaScript is requested from a public CDN"),
    Patch("register_widget_js_route", "widget_js", ("bokeh",), GUARDED,
          "a notebook or app served without --static-dirs has blank boards (its widget JavaScript has no route)"),
    Patch("page_script", "page_js", ("bokeh", "ipywidgets_bokeh"), DISABLE,
          "the browser sends one comm_open per widget model (slower first page)"),
    Patch("skip_browser_comm_opens", "comm_opens", ("panel", "ipywidgets_bokeh"), DISABLE,
          "two status messages per browser comm_open (slower first page)"),
    Patch("composite_layers_once", "composite_once", ("ipycanvas",), DISABLE,
          "a board's layers are composited once per layer drawn, not once per batch (slower redraws)"),
    Patch("batch_widget_messages", "batched_messages", ("panel", "bokeh", "ipywidgets_bokeh"), DISABLE,
          "one Bokeh message per widget message and a busy status per browser message (slower interactions)"),
    Patch("accept_binary_widget_messages", "binary_messages", ("panel", "ipywidgets_bokeh"), GUARDED,
          "uploaded files never reach a served page"),
    Patch("lean_build_comms", "lean_build", ("panel", "ipywidgets", "ipywidgets_bokeh"), DISABLE,
          "every page build serialises each widget's state twice (slower page build)"),
    Patch("drop_build_messages", "build_messages", ("panel", "ipywidgets_bokeh"), DISABLE,
          "a session sends ~400 redundant widget messages before its page (slower page)"),
    Patch("share_style_models", "shared_styles", ("panel", "ipywidgets"), DISABLE,
          "one front-end model per layout and style (slower page)"),
    Patch("close_session_widgets", "session_end", ("panel", "ipywidgets"), GUARDED,
          "every closed tab's widgets stay in memory"),
    Patch("local_resources", "resources", ("panel", "bokeh", "ipywidgets_bokeh"), GUARDED,
          "stylesheets and fonts come from public CDNs (pages break offline)"),
    Patch("browser_fixes", "canvas_fixes", ("panel", "ipycanvas"), GUARDED,
          "a click on a partly hidden board lands on the wrong hexagon; the page does not scroll over a board"),
    Patch("server_stats", "stats", ("panel", "ipywidgets"), GUARDED,
          "/explorer-stats miscounts the cached pages"),
    Patch("warm_pages", "warm", ("panel", "bokeh"), GUARDED,
          "the first visitor of each page waits for the imports and the first build"),
    Patch("ipv6_host_locations", "ipv6_host", ("panel",), GUARDED,
          "a page asked for by an IPv6 address (or with a malformed Host) answers 500"),
    Patch("fence_components", "components_fence", ("panel",), GUARDED,
          "GET /components/<module>/... imports any installed module"),
    Patch("websocket_nodelay", "ws_nodelay", ("panel",), DISABLE,
          "an answer's websocket frames wait for delayed ACKs (30-40 ms pauses inside interactions)"),
    Patch("quiet_websocket_refusals", "ws_refusals", ("panel", "bokeh"), GUARDED,
          "every refused websocket (no bokeh subprotocol, bad token) logs a traceback"),
)}
"""Every patch, by the name of the function that applies it (see each module's docstring)."""


class ServingVersionWarning(UserWarning):
    """An installed Panel / Bokeh / ipywidgets / ipycanvas / ipywidgets_bokeh is not the pinned version
    (:func:`version_warnings`)."""


def installed_version(dist: str) -> str | None:
    """The installed version of distribution ``dist`` (``"panel"``), or ``None`` when it is not installed."""
    from importlib import metadata   # ~50 ms of imports: only when a patch first asks

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def mismatches(installed: dict[str, str | None] | None = None) -> dict[str, str | None]:
    """``{distribution: installed version or None}`` for each pinned distribution (:data:`PINS`) whose installed
    version is not the pinned one; empty when all match.

    Args:
        installed: ``{distribution: version or None}`` to check instead of what is installed (tests); a
            distribution it leaves out is read from the environment.
    """
    if installed is None:
        got = _environment()
    else:
        got = {d: (installed[d] if d in installed else _environment()[d]) for d in PINS}
    return {d: v for d, v in got.items() if v != PINS[d]}


_ENVIRONMENT: dict[str, str | None] = {}


def _environment() -> dict[str, str | None]:
    """The installed versions of :data:`PINS`' distributions, read once per process (every page build asks)."""
    if not _ENVIRONMENT:
        _ENVIRONMENT.update({d: installed_version(d) for d in PINS})
    return _ENVIRONMENT


def version_warnings(installed: dict[str, str | None] | None = None) -> list[str]:
    """One line per mismatched distribution (:func:`mismatches`): the package, its installed and pinned versions,
    and the patches that mismatch disables or leaves guarded, e.g. ``explorer serving: panel 1.10.0 is installed,
    1.9.4 is pinned: disables patches skip_browser_comm_opens, ...; still tries (guarded) served_pane, ...``. Empty
    when everything is as pinned."""
    lines = []
    for dist, version in mismatches(installed).items():
        hit = [p for p in PATCHES.values() if dist in p.requires]
        off = [p.name for p in hit if p.on_mismatch == DISABLE]
        tried = [p.name for p in hit if p.on_mismatch == GUARDED]
        what = "not installed" if version is None else f"{version} is installed"
        parts = ([f"disables patches {', '.join(off)}"] if off else []) + (
            [f"still tries (guarded) {', '.join(tried)}"] if tried else [])
        lines.append(f"explorer serving: {dist} {what}, {PINS[dist]} is pinned: {'; '.join(parts)}")
    return lines


_warned: set[str] = set()


def warn_versions(installed: dict[str, str | None] | None = None) -> list[str]:
    """Issue each line of :func:`version_warnings` not issued before in this process as a
    :class:`ServingVersionWarning`; returns all the lines. ``explorer serve`` prints them instead
    (:func:`mark_reported`)."""
    lines = version_warnings(installed)
    for line in lines:
        if line not in _warned:
            _warned.add(line)
            warnings.warn(line, ServingVersionWarning, stacklevel=3)
    return lines


def mark_reported(lines: list[str]) -> None:
    """Record ``lines`` (of :func:`version_warnings`) as already shown, so :func:`allowed` does not issue them
    again (``explorer serve`` has printed them)."""
    _warned.update(lines)


def allowed(name: str, installed: dict[str, str | None] | None = None) -> bool:
    """Whether the patch ``name`` (a key of :data:`PATCHES`) is applied: ``True`` when every distribution it reaches
    into is the pinned version, or when it is a guarded patch; ``False`` for a :data:`DISABLE` patch on a mismatch.
    Any mismatch is issued first as a warning (:func:`warn_versions`, once per process).

    Raises:
        KeyError: ``name`` is not a patch of :data:`PATCHES`.
    """
    patch = PATCHES[name]
    off = mismatches(installed)
    if off:
        warn_versions(installed)
    return patch.on_mismatch == GUARDED or not any(d in off for d in patch.requires)


_logged: set[str] = set()


def could_not_apply(name: str, error: BaseException | str) -> None:
    """Log (once per process and patch) that the guarded patch ``name`` could not be applied, and what breaks."""
    if name in _logged:
        return
    _logged.add(name)
    import logging

    patch = PATCHES.get(name)
    without = f": {patch.without}" if patch is not None else ""
    logging.getLogger("explorer.serving").warning("explorer serving: patch %s could not be applied (%s)%s", name,
                                                  str(error)[:200], without)
