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
    if (!data.value) { return; }
    const cut = data.value.indexOf(' ');
    const seq = cut > 0 ? Number(data.value.slice(0, cut)) : 0;
    const value = cut > 0 ? data.value.slice(cut + 1) : data.value;
    const seen = window.__explorerUrlWrites = window.__explorerUrlWrites || {};
    if (seq && seq <= (seen[data.name_] || 0)) { return; }
    seen[data.name_] = seq;
    const u = new URL(window.location.href);
    u.searchParams.set(data.name_, value);
    window.history.replaceState(window.history.state, '', u.toString());"""
"""The URL writer's browser script (a Panel ``ReactiveHTML`` script: ``data`` is the model; the last write number
applied is kept per page, so a redrawn writer does not apply an older value either). Panel sends a change made in a
session callback straight to the websocket, but defers it to the next tick when the socket is busy writing, so two
quick writes (step 4, then step 5) can reach the browser in the opposite order: the address then stayed one step
behind the page. The script keeps the newest write by its number."""


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
        (:func:`url_write_value`): a write that reaches the browser after a newer one is ignored."""

        value = param.String(default="")
        name_ = param.String(default="s")
        _template = "<span id='urlstate' style='display:none'></span>"
        # on render too: a value set before the browser drew the writer (a click while the page loads) is written
        _scripts = {"value": URL_WRITER_JS, "render": URL_WRITER_JS}

    return UrlStateWriter


class _Writer:
    cls = None


def url_state_error_text(error, shown: str = "its defaults") -> str:
    """The one line a page shows for a ``?s=`` link it cannot open (plain text; the caller escapes it).

    Args:
        error: the :class:`~explorer.errors.ScenarioError` of :func:`explorer.urlstate.decode_state` or of the page's
            ``load_url_state``.
        shown: what the page shows instead: ``"its defaults"``, or ``"scenario tr-02"`` when the URL's
            ``?scenario=`` opened one.
    """
    what = f"field '{error.field}': {error.problem}" if error.field else error.problem
    if error.allowed:
        what += f" (allowed: {error.allowed})"
    return f"This link's state could not be opened, so the page shows {shown} instead: {what}"


def url_state_sync(widget, name: str | None = None, shown: str = "its defaults"):
    """Keep a page widget's state in the page URL (under ``panel serve``).

    When the page opens, a state in the URL's ``?<name>=`` query (default :data:`explorer.urlstate.QUERY_PARAM`) is
    decoded (:func:`explorer.urlstate.decode_state`) and given to ``widget.load_url_state``; a bad link (garbage,
    another version, oversize, an invalid field) is shown as a one-line message (:func:`url_state_error_text`) and
    the page keeps what it shows, named by ``shown`` (``"its defaults"``, ``"scenario tr-02"``).
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
    if _Writer.cls is None:
        _Writer.cls = _url_writer_class()
    writer = _Writer.cls(name_=name, width=0, height=0, margin=0)
    message = pn.pane.HTML("", margin=(0, 10), sizing_mode="stretch_width", css_classes=["url-state-message"])
    loc = pn.state.location
    raw = query_value(loc.search if loc is not None else "", name)
    if raw:
        try:
            widget.load_url_state(decode_state(raw))
        except ScenarioError as e:
            message.object = (f"<div class='url-state-error' style='font:13px sans-serif;color:#c92a2a;background:"
                              f"#fff5f5;border:1px solid #c92a2a;padding:6px 10px;border-radius:4px'>"
                              f"{_html.escape(url_state_error_text(e, shown))}</div>")

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

    widget.on_state_change(changed)
    return pn.Column(message, writer, margin=0, sizing_mode="stretch_width")
