"""Binary widget messages from a browser (a ``FileUpload`` value carries its file as a buffer): the frame is split
into the message and its buffers (:func:`explorer.serving.binary_messages.split_binary_widget_message`); malformed
frames are refused with ``ValueError``, never another exception."""

from __future__ import annotations

import json

import pytest

from explorer.serving.binary_messages import MAX_WIDGET_BUFFERS, split_binary_widget_message


def frame(msg: dict, buffers: list[bytes]) -> bytes:
    """The frame as JupyterLab's services write it (and ipywidgets_bokeh's ``_encode_msg``): count, offsets, parts."""
    parts = [json.dumps(msg).encode("utf-8"), *buffers]
    offsets, start = [], 4 * (1 + len(parts))
    for p in parts:
        offsets.append(start)
        start += len(p)
    return b"".join([len(parts).to_bytes(4, "big"), *(o.to_bytes(4, "big") for o in offsets), *parts])


def test_a_file_upload_frame_splits_into_its_message_and_buffers():
    msg = {"channel": "shell", "content": {"data": {"method": "update", "buffer_paths": [["value", 0, "content"]]}}}
    content = "title = \"café\"\n".encode("utf-8")
    got, buffers = split_binary_widget_message(frame(msg, [content, b""]))
    assert got == msg and buffers == [content, b""]
    # what json.loads did with it before (ipywidgets_bokeh 1.8): the leading zeros read as UTF-32
    with pytest.raises(UnicodeDecodeError):
        json.loads(frame(msg, [content]))


@pytest.mark.parametrize("data", [
    b"", b"\x00\x00\x00\x01",                                        # shorter than a header
    (0).to_bytes(4, "big") + b"{}",                                  # no parts
    (MAX_WIDGET_BUFFERS + 2).to_bytes(4, "big") + b"\x00" * 4000,   # too many parts
    (2).to_bytes(4, "big") + (12).to_bytes(4, "big") + (99).to_bytes(4, "big") + b"{}",   # offset past the end
    (2).to_bytes(4, "big") + (14).to_bytes(4, "big") + (12).to_bytes(4, "big") + b"{}",   # offsets out of order
    (1).to_bytes(4, "big") + (8).to_bytes(4, "big") + b"[1, 2]",     # not a JSON object
    (1).to_bytes(4, "big") + (8).to_bytes(4, "big") + b"\xff{",      # not UTF-8
    (1).to_bytes(4, "big") + (8).to_bytes(4, "big") + b"{",          # not JSON
])
def test_malformed_frames_are_refused(data):
    with pytest.raises(ValueError):
        split_binary_widget_message(data)


def test_a_loader_bug_still_gives_a_one_line_message_and_empties_the_control():
    """watch_upload: a ScenarioError is the file's fault (its message); any other exception from the loader (e.g. the
    TraitError the Line of Fire page raised on a table with other Models) still says so beside the control, in one
    line, instead of nothing."""
    from datetime import datetime, timezone

    import ipywidgets as W

    from explorer.errors import ScenarioError
    from explorer.widgets.files import upload_control, watch_upload

    _, upload = upload_control("Open…", "a file", "t-upload")
    message = W.HTML()
    opened = []

    def load(text, name):
        if "bad" in name:
            raise ScenarioError("title", "must be a string", "a string", name)
        if "bug" in name:
            raise RuntimeError("no Model 'Driller'\non the table")
        opened.append((name, text))

    watch_upload(upload, load, message)

    def choose(name, data):
        upload.value = ({"name": name, "type": "", "size": len(data), "content": memoryview(data),
                         "last_modified": datetime.now(timezone.utc)},)

    choose("ok.toml", b"title = 'x'\n")
    assert opened == [("ok.toml", "title = 'x'\n")] and "opened ok.toml" in message.value and upload.value == ()
    choose("bad.toml", b"title = 1\n")
    assert "bad.toml" in message.value and "must be a string" in message.value
    choose("bug.toml", b"title = 'y'\n")
    assert "bug.toml: could not be opened (RuntimeError: no Model &#x27;Driller&#x27;)" in message.value
    assert "\n" not in message.value and upload.value == ()
