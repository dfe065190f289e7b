"""Files in and out of an explorer page: the "Download TOML" link and the uploaded-file message (game-neutral).

Every page that saves its state as a file (Face to Face, Line of Fire, the Order Expenditure Sequence) writes the
same link: a ``data:`` URL holding the TOML text, so the browser saves it without a server round trip. Uploaded
files go through the loading gate (:func:`explorer.scenario.decode_file_bytes`) before a page parses them.
"""

from __future__ import annotations

import base64
import html

LINK_STYLE = ("display:inline-block;font:13px sans-serif;padding:4px 9px;border:1px solid #adb5bd;border-radius:3px;"
              "background:#f8f9fa;color:#212529;text-decoration:none")
"""Inline style of the link (pages without the shared ``xf-button`` class)."""


def download_link(text: str, filename: str, title: str, css_class: str, styled: bool = True) -> str:
    """An ``<a download>`` element that saves ``text`` (UTF-8 TOML) as ``filename``; ``title`` says what the file
    holds and what opens it; ``styled`` adds :data:`LINK_STYLE` inline."""
    b64 = base64.b64encode(text.encode("utf-8")).decode("ascii")
    style = f" style='{LINK_STYLE}'" if styled else ""
    return (f"<a class='{html.escape(css_class, quote=True)}' download='{html.escape(filename, quote=True)}'{style} "
            f"href='data:application/toml;base64,{b64}' title='{html.escape(title, quote=True)}'>Download TOML</a>")


def file_message(text: str, ok: bool) -> str:
    """A one-line message beside a file control: green for an opened file, red for a refused one (text escaped)."""
    colour = "#1e5631" if ok else "#922b21"
    return f"<span style='font:12.5px sans-serif;color:{colour}'>{html.escape(text)}</span>"


def read_upload(change) -> tuple[str, str] | None:
    """The first file of a ``FileUpload`` value change as ``(name, text)`` through the loading gate's size and UTF-8
    check (:func:`explorer.scenario.decode_file_bytes`); ``None`` when the change holds no file (a reset).

    Raises:
        ScenarioError: a file over the size cap or not UTF-8 text (naming the file).
    """
    from explorer.scenario import decode_file_bytes

    files = change["new"]
    if not files:
        return None
    f = files[0]
    name = str(f.get("name", "uploaded file"))
    return name, decode_file_bytes(bytes(f["content"]), name)
