"""explorer.urlstate: a page state as a compact, versioned, URL-safe string, decoded through the loading gate's bounds;
explorer.tomlwrite: TOML text that tomllib reads back to the same document."""

from __future__ import annotations

import base64
import json
import re
import tomllib
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.tomlwrite import dumps
from explorer.urlstate import MAX_JSON_BYTES, MAX_STATE_CHARS, VERSION, decode_state, encode_state

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
_json = st.recursive(_scalars, lambda c: st.one_of(st.lists(c, max_size=4),
                                                   st.dictionaries(st.text(max_size=8), c, max_size=4)),
                     max_leaves=20)


@given(st.dictionaries(st.text(max_size=10), _json, max_size=6))
def test_round_trip_and_url_safe(state):
    s = encode_state(state)
    assert re.fullmatch(r"[0-9]+\.[A-Za-z0-9_-]*", s), s
    assert s.startswith(f"{VERSION}.")
    assert decode_state(s) == state


def test_equal_states_give_equal_strings_and_it_compresses():
    a = {"b": [1, 2, 3] * 50, "a": "x"}
    b = {"a": "x", "b": [1, 2, 3] * 50}
    assert encode_state(a) == encode_state(b)
    assert len(encode_state(a)) < len(json.dumps(a)) / 3


def _body(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw)).rstrip(b"=").decode()


@pytest.mark.parametrize("text, words", [
    ("", "not a saved state"),
    ("hello", "not a saved state"),
    ("2." + _body(b"{}"), "version '2' is not supported"),
    ("1.@@@@", "not base64url"),
    ("1." + base64.urlsafe_b64encode(b"plain bytes").decode(), "not compressed data"),
    ("1." + _body(b"{\"a\": 1")[:-6], "damaged"),
    ("1." + _body(b"[1, 2]"), "JSON list, not an object"),
    ("1." + _body(b"\xff\xfe"), "not JSON text"),
    ("1." + _body(b"{\"a\":" + b"[" * 40 + b"]" * 40 + b"}"), "nested more than"),
    ("1." + "A" * (MAX_STATE_CHARS + 1), "too large"),
])
def test_bad_links_give_one_line_errors(text, words):
    with pytest.raises(ScenarioError) as e:
        decode_state(text)
    msg = str(e.value)
    assert words in msg and "\n" not in msg and msg.startswith("link: ")
    # the page's message: what it shows instead, the problem, and no "link: scenario:" prefix (newcomer finding)
    from explorer.serving.url_state import url_state_error_text

    for shown in ("its defaults", "scenario tr-02"):
        text = url_state_error_text(e.value, shown)
        assert f"shows {shown} instead: " in text and words in text and "\n" not in text
        assert "link:" not in text and "scenario:" not in text


def test_a_page_s_bad_field_in_a_link_is_named():
    from explorer.serving.url_state import url_state_error_text

    text = url_state_error_text(ScenarioError("active.burst", "must be 1-6", "1 to 6", "link"), "scenario tr-02")
    assert text.startswith("This link's state (?s=) could not be opened")
    assert text.endswith("shows scenario tr-02 instead: field 'active.burst': must be 1-6 (allowed: 1 to 6). "
                         "The address now links to what the page shows.")


def test_a_small_link_that_inflates_past_the_cap_is_refused():
    bomb = _body(b"{\"a\": \"" + b"x" * (MAX_JSON_BYTES + 10) + b"\"}")
    assert len(bomb) < MAX_STATE_CHARS
    with pytest.raises(ScenarioError, match="too large"):
        decode_state("1." + bomb)


def test_encoding_refuses_a_state_too_large_for_a_link():
    import random

    r = random.Random(1)
    with pytest.raises(ValueError, match="download it as a file"):
        encode_state({"x": "".join(r.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(40_000))})


_toml_scalars = st.one_of(st.booleans(), st.integers(-2**63, 2**63 - 1),
                          st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
_toml_values = st.recursive(_toml_scalars, lambda c: st.one_of(st.lists(c, max_size=3),
                                                               st.dictionaries(st.text(max_size=6), c, max_size=3)),
                            max_leaves=12)


@given(st.dictionaries(st.text(max_size=8), st.one_of(
    _toml_values, st.lists(st.dictionaries(st.text(max_size=6), _toml_values, max_size=3), min_size=1, max_size=3)),
    max_size=5))
def test_toml_writer_round_trips(doc):
    assert tomllib.loads(dumps(doc, header="a header\nof two lines")) == doc


def test_toml_writer_refuses_what_toml_cannot_hold():
    with pytest.raises(ValueError):
        dumps({"x": float("nan")})
    with pytest.raises(TypeError):
        dumps({"x": object()})


@pytest.mark.parametrize("key", ["0\n", "name\n", "a b", ""])
def test_toml_writer_quotes_keys_that_are_not_bare(key):
    """A key is written bare only when all of it is letters, digits, ``_`` or ``-``: ``re.match`` with ``$`` also
    matched a key ending in a newline, which made the file unreadable (found by the round-trip property)."""
    text = dumps({key: 1, "t": {key: [{key: 2}]}})
    assert tomllib.loads(text) == {key: 1, "t": {key: [{key: 2}]}}
