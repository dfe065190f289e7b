"""A page's state in its URL: a compact, versioned, URL-safe string (game-neutral; no widget imports).

A state is a JSON-serialisable dict (what a page widget's ``url_state()`` returns). :func:`encode_state` writes it as
``"<version>." + base64url(zlib(JSON))`` (no padding), e.g. ``1.eJyrVkrLz1eyUkr...``, the value of the page URL's
``?s=`` query parameter. :func:`decode_state` reads it back through the same bounds as a scenario file (the loading
gate of :mod:`explorer.scenario`): a size cap before and after decompression, the nesting limit, and one-line
:class:`~explorer.errors.ScenarioError` messages for garbage, a wrong version or an oversize link. What the dict
*means* is checked by the page that loads it (with the same validation as its inputs and files).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping
from typing import Any

from .errors import ScenarioError, short_repr
from .scenario import MAX_NESTING, _structure_depth_exceeded

VERSION = 1
"""Format version written by :func:`encode_state`; the prefix of every state string (``"1."``)."""

QUERY_PARAM = "s"
"""The URL query parameter that holds a page's state (``/tagraid-face-to-face?s=1.eJy...``)."""

MAX_STATE_CHARS = 16_000
"""The longest state string accepted (a URL over ~16 KB is not reliably kept by browsers and proxies; the largest
state the pages write, a 100-Model table, compresses to a few KB)."""

MAX_REQUEST_HEADER_BYTES = 2 * 1024 * 1024 + 64 * 1024
"""The largest request line and headers ``explorer serve`` reads (Tornado's default is 64 KB): Chromium sends URLs
of up to 2 MB, and a link longer than :data:`MAX_STATE_CHARS` must reach the page to be refused with a message
(the page opens its defaults and says why); past Tornado's 64 KB the connection was closed and the browser showed a
blank page. A request past this bound is still closed unanswered (no browser sends one)."""

MAX_JSON_BYTES = 1_000_000
"""The largest decompressed JSON accepted (the file cap, :data:`explorer.scenario.MAX_FILE_BYTES`): a small link that
inflates to gigabytes is refused after reading at most this many bytes."""

SOURCE = "link"
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
"""How a decoding error names where the input came from."""


def encode_state(state: Mapping[str, Any]) -> str:
    """``state`` as a URL-safe string ``"1.<base64url of zlib-compressed JSON>"`` (characters ``A-Za-z0-9-_.``).

    Keys are sorted and separators compact, so equal states give equal strings.

    Raises:
        TypeError: a value JSON cannot hold. ValueError: the encoded string is longer than :data:`MAX_STATE_CHARS`.
    """
    raw = json.dumps(dict(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                     allow_nan=False).encode("utf-8")
    body = base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")
    out = f"{VERSION}.{body}"
    if len(out) > MAX_STATE_CHARS:
        raise ValueError(f"the state is too large for a link ({len(out):,} characters; the limit is "
                         f"{MAX_STATE_CHARS:,}): download it as a file instead")
    return out


def decode_state(text: str, source: str = SOURCE) -> dict[str, Any]:
    """The dict written by :func:`encode_state`.

    Raises:
        ScenarioError: one line naming ``source``: not a string, longer than :data:`MAX_STATE_CHARS`, no or another
            version prefix, not base64url, not zlib data, inflating past :data:`MAX_JSON_BYTES`, not UTF-8 JSON, not
            a JSON object, nested deeper than :data:`~explorer.scenario.MAX_NESTING`.
    """
    if not isinstance(text, str):
        raise ScenarioError("", f"a state must be text, not {type(text).__name__}", source=source)
    if len(text) > MAX_STATE_CHARS:
        raise ScenarioError("", f"the link's state is too large ({len(text):,} characters; the limit is "
                            f"{MAX_STATE_CHARS:,})", source=source)
    version, dot, body = text.strip().partition(".")
    if not dot or not version.isdigit():
        raise ScenarioError("", f"{short_repr(text)} is not a saved state", f"'{VERSION}.' followed by the state",
                            source)
    if int(version) != VERSION:
        raise ScenarioError("", f"state version {short_repr(version)} is not supported by this version of the explorer",
                            f"version {VERSION}", source)
    try:
        body = body.rstrip("=")  # padding is optional
        if not _BASE64URL.fullmatch(body):
            raise ValueError(body)
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise ScenarioError("", "the state is damaged (not base64url text)", "a link copied whole", source) from None
    d = zlib.decompressobj()
    try:
        raw = d.decompress(packed, MAX_JSON_BYTES + 1)
    except zlib.error:
        raise ScenarioError("", "the state is damaged (not compressed data)", "a link copied whole", source) from None
    if len(raw) > MAX_JSON_BYTES or d.unconsumed_tail:
        raise ScenarioError("", f"the state is too large (over {MAX_JSON_BYTES:,} bytes when unpacked)",
                            source=source)
    if not d.eof:
        raise ScenarioError("", "the state is damaged (cut short)", "a link copied whole", source)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ScenarioError("", "the state is damaged (not JSON text)", "a link copied whole", source) from None
    if not isinstance(data, dict):
        raise ScenarioError("", f"the state is a JSON {type(data).__name__}, not an object", "a JSON object", source)
    if _structure_depth_exceeded(data):
        raise ScenarioError("", f"the state is nested more than {MAX_NESTING} levels deep",
                            f"at most {MAX_NESTING} levels", source)
    return data


__all__ = ["VERSION", "QUERY_PARAM", "MAX_STATE_CHARS", "MAX_REQUEST_HEADER_BYTES", "MAX_JSON_BYTES", "encode_state",
           "decode_state"]
