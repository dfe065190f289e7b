"""A request's ``Host`` that is an IPv6 address (``[::1]:5006``) or malformed builds a page, not a 500 (issue #25).

Private API (pinned panel==1.9.4): ``panel.io.location._get_location_params(protocol, host, uri)``, which splits the
``Host`` header on ``:`` into exactly two parts; ``[::1]:5006`` (a browser on ``explorer serve --address ::1``) or a
hostile ``Host: a:b:c`` raised ``ValueError`` and answered 500 with a traceback in the log for every page. The
wrapper hands such a host to the original as none and fills ``hostname`` / ``port`` / ``href`` itself (the
hostname of an IPv6 host in brackets, as the browser's ``location.hostname`` gives it); any other host goes to the
original unchanged.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): applied if the function is there with
that name (a warning names the mismatch), logged once and left out if not; without it an IPv6 address cannot
serve pages.
"""

from __future__ import annotations

import logging
import re

from .versions import allowed, could_not_apply

_HOST = re.compile(r"(\[[0-9A-Fa-f:.%]+\])(?::([0-9]{1,5}))?")
_applied = False


def _wrap(original):
    def location_params(protocol, host, uri):
        if not host or host.count(":") <= 1 and not host.startswith("["):
            return original(protocol, host, uri)
        params = original(protocol, None, uri)
        m = _HOST.fullmatch(host)
        if m is None:  # malformed: no host in the page's location, never a 500
            return params
        params["hostname"] = m.group(1)
        if m.group(2):
            params["port"] = m.group(2)
        proto = params.get("protocol", "")
        params["href"] = f"{proto}//{host}" + params.get("href", "")[len(proto):]
        return params

    location_params.__wrapped__ = original
    return location_params


def ipv6_host_locations() -> bool:
    """Patch Panel so a page's ``Host`` may be an IPv6 address in brackets (or malformed, then left out) instead of
    answering 500. Idempotent; returns whether the patch is in place.
    """
    global _applied
    if _applied:
        return True
    allowed("ipv6_host_locations")   # guarded: only warns on a mismatch
    try:
        from panel.io import location

        original = location._get_location_params
    except (ImportError, AttributeError) as e:
        could_not_apply("ipv6_host_locations", e)
        return False
    location._get_location_params = _wrap(original)
    _applied = True
    logging.getLogger(__name__).debug("IPv6 Host headers patched")
    return True
