"""The websocket origins ``explorer serve`` allows, IPv6 addresses included (issue #25).

Not a patch. A browser on ``http://[::1]:5006/`` opens its websocket with the origin ``[::1]:5006``: an IPv6 address
in brackets. Bokeh's ``--allow-websocket-origin`` list (``create_hosts_allowlist``) splits each entry on ``:`` and
refuses any with more than one (``Invalid host value``: ``explorer serve --address ::1`` ended in a 37-line
traceback), while its origin check itself (``check_allowlist``) compares the bracketed origin as a plain string. So
the IPv6 origins go through Bokeh's public setting ``allowed_ws_origin`` (the ``BOKEH_ALLOW_WS_ORIGIN`` setting,
which the check uses instead of the list when it is set), holding every allowed origin, and the list Panel is given
keeps only the entries Bokeh can parse.
"""

from __future__ import annotations


def origin_host(address: str) -> str:
    """``address`` as it appears in a URL or an origin: an IPv6 address in brackets (``::1`` -> ``[::1]``)."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def websocket_origins(address: str, port: int, extra: list[str] | None = None) -> list[str]:
    """The origins to give Panel's ``websocket_origin``: ``localhost``, ``127.0.0.1`` and ``address`` (each with
    ``port``) and ``extra`` (``host[:port]``).

    When one of them is an IPv6 address (``address`` ``::1``; ``::`` allows ``[::1]`` too), every origin (a bare host
    given ``:80``, as Bokeh does) is set as Bokeh's ``allowed_ws_origin`` setting for this process, and the IPv6
    ones are left out of the returned list (Bokeh's list parser refuses them).
    """
    origins = [f"localhost:{port}", f"127.0.0.1:{port}", f"{origin_host(address)}:{port}", *(extra or [])]
    if address == "::":
        origins.append(f"[::1]:{port}")
    parsable = [o for o in origins if o.count(":") <= 1]
    if len(parsable) < len(origins):
        from bokeh.settings import settings

        every = {o if (o.startswith("[") and "]:" in o) or (not o.startswith("[") and ":" in o) else f"{o}:80"
                 for o in origins}
        settings.allowed_ws_origin.set_value(sorted(every))
    return sorted(set(parsable))
