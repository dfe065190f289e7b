"""State in the URL: a served page widget's state is written to the page URL's ``?s=`` query on every change and
restored from it when the page opens (through :mod:`explorer.urlstate`).

Not a patch: Panel's ``pn.state.location`` pushes a history entry per change, so :func:`url_state_sync` writes the
address with its own invisible ``ReactiveHTML`` component (``history.replaceState``: no history entry per click),
and numbers each write so that one reaching the browser after a newer one is ignored (``docs/design.md`` item 28).
Public Panel API only (``ReactiveHTML``, ``pn.state.location``); no version check.
"""

from __future__ import annotations


def has_url_state(widget) -> bool:
    """Whether ``widget`` takes part in URL state: it has ``url_state() -> dict``, ``load_url_state(dict)`` and
    ``on_state_change(callback)``."""
    return all(callable(getattr(widget, n, None)) for n in ("url_state", "load_url_state", "on_state_change"))


def query_value(search: str, name: str) -> str | None:
    """The first value of query parameter ``name`` in ``search`` (``"?s=1.eJy&x=2"``), or ``None``."""
    from urllib.parse import parse_qs

    values = parse_qs((search or "").lstrip("?"), keep_blank_values=True).get(name)
    return values[0] if values else None


URL_WRITER_JS = """
    const u = new URL(window.location.href);
    let changed = false;
    for (const n of (data.drop_ || '').split(',').filter(Boolean)) {
        if (u.searchParams.has(n)) { u.searchParams.delete(n); changed = true; } }
    const cut = data.value ? data.value.indexOf(' ') : -1;
    const seq = cut > 0 ? Number(data.value.slice(0, cut)) : 0;
    const value = cut > 0 ? data.value.slice(cut + 1) : data.value;
    const seen = window.__explorerUrlWrites = window.__explorerUrlWrites || {};
    if (value && !(seq && seq <= (seen[data.name_] || 0))) {
        seen[data.name_] = seq;
        u.searchParams.set(data.name_, value);
        changed = true; }
    if (changed) { window.history.replaceState(window.history.state, '', u.toString()); }"""
"""The URL writer's browser script (a Panel ``ReactiveHTML`` script: ``data`` is the model; the last write number
applied is kept per page, so a redrawn writer does not apply an older value either). Panel sends a change made in a
session callback straight to the websocket, but defers it to the next tick when the socket is busy writing, so two
quick writes (step 4, then step 5) can reach the browser in the opposite order: the address then stayed one step
behind the page. The script keeps the newest write by its number. ``data.drop_`` (comma-separated query parameter names) are removed
from the address first: a link parameter the page refused (``?scenario=`` naming no scenario of the page) does not
stay in the address, so a reload or a copied link does not repeat the refusal."""


def url_write_value(seq: int, encoded: str) -> str:
    """The URL writer's value for write number ``seq`` (1, 2, ...) of the encoded state ``encoded``
    (:func:`explorer.urlstate.encode_state`, which has no space)."""
    return f"{int(seq)} {encoded}"


def _url_writer_class():
    import param
    from panel.reactive import ReactiveHTML

    class UrlStateWriter(ReactiveHTML):
        """Invisible: sets query parameter ``name`` of the browser's address with ``history.replaceState``
        (Panel's ``pn.state.location`` always pushes a history entry). ``value`` is ``"<write number> <state>"``
        (:func:`url_write_value`): a write that reaches the browser after a newer one is ignored. ``drop_``: query
        parameters (comma-separated) removed from the address."""

        value = param.String(default="")
        name_ = param.String(default="s")
        drop_ = param.String(default="")
        _template = "<span id='urlstate' style='display:none'></span>"
        # on render too: a value set before the browser drew the writer (a click while the page loads) is written
        _scripts = {"value": URL_WRITER_JS, "drop_": URL_WRITER_JS, "render": URL_WRITER_JS}

    return UrlStateWriter


class _Writer:
    cls = None


def url_writer(name: str = "s", drop: tuple[str, ...] = ()):
    """The invisible address writer (a Panel ``ReactiveHTML``) for query parameter ``name``, removing the query
    parameters ``drop`` from the address when it is drawn (see :data:`URL_WRITER_JS`)."""
    if _Writer.cls is None:
        _Writer.cls = _url_writer_class()
    return _Writer.cls(name_=name, drop_=",".join(drop), width=0, height=0, margin=0)


def url_state_error_text(error, shown: str = "its defaults", name: str = "s") -> str:
    """The one line a page shows for a ``?s=`` link it cannot open (plain text; the caller escapes it): it names the
    query parameter, the field and its allowed values, and says that the address now links to what the page shows.

    Args:
        error: the :class:`~explorer.errors.ScenarioError` of :func:`explorer.urlstate.decode_state` or of the page's
            ``load_url_state``.
        shown: what the page shows instead: ``"its defaults"``, or ``"scenario tr-02"`` when the URL's
            ``?scenario=`` opened one.
        name: the query parameter that held the state (default ``"s"``).
    """
    what = f"field '{error.field}': {error.problem}" if error.field else error.problem
    if error.allowed:
        what += f" (allowed: {error.allowed})"
    return (f"This link's state (?{name}=) could not be opened, so the page shows {shown} instead: {what}. "
            "The address now links to what the page shows.")


def url_state_sync(widget, name: str | None = None, shown: str = "its defaults", drop: tuple[str, ...] = ()):
    """Keep a page widget's state in the page URL (under ``panel serve``).

    When the page opens, a state in the URL's ``?<name>=`` query (default :data:`explorer.urlstate.QUERY_PARAM`) is
    decoded (:func:`explorer.urlstate.decode_state`) and given to ``widget.load_url_state``; a bad link (garbage,
    another version, oversize, an invalid field) is shown as a one-line message (:func:`url_state_error_text`), the
    page keeps what it shows, named by ``shown`` (``"its defaults"``, ``"scenario tr-02"``), and the address is
    rewritten at once to the state the page shows: a reload or a copied link opens the page as shown, not the
    refusal again. The query parameters ``drop`` (a ``?scenario=`` the page refused) are removed from the address.
    After every change (``widget.on_state_change``) the state is encoded and written to the URL, replacing the
    current history entry.

    Returns:
        a Panel ``Column`` holding the (usually empty) message and the invisible URL writer: add it to the page.
    """
    import html as _html
    import itertools

    import panel as pn

    from explorer.errors import ScenarioError
    from explorer.urlstate import QUERY_PARAM, decode_state, encode_state

    name = name or QUERY_PARAM
    writer = url_writer(name, drop)
    message = pn.pane.HTML("", margin=(0, 10), sizing_mode="stretch_width", css_classes=["url-state-message"])
    loc = pn.state.location
    raw = query_value(loc.search if loc is not None else "", name)
    refused = False
    if raw:
        try:
            widget.load_url_state(decode_state(raw))
        except ScenarioError as e:
            refused = True
            message.object = (f"<div class='url-state-error' style='font:14px sans-serif;color:#c92a2a;background:"
                              f"#fff5f5;border:1px solid #c92a2a;padding:6px 10px;border-radius:4px'>"
                              f"{_html.escape(url_state_error_text(e, shown, name))}</div>")

    writes, last = itertools.count(1), [""]

    def changed() -> None:
        try:
            value = encode_state(widget.url_state())
        except (ScenarioError, ValueError, TypeError) as e:
            message.object = (f"<div style='font:12px sans-serif;color:#868e96'>The address no longer follows the "
                              f"page: {_html.escape(str(e))}</div>")
            return
        if message.object and "url-state-error" not in message.object:
            message.object = ""
        if value != last[0]:
            last[0] = value
            writer.value = url_write_value(next(writes), value)   # numbered: a late older write never wins

    if refused:
        changed()   # the address holds what the page shows, not the refused link
    widget.on_state_change(changed)
    return pn.Column(message, writer, margin=0, sizing_mode="stretch_width")
