"""Files in and out of an explorer page: the "Download TOML" link, the file-open control, the uploaded-file message
(game-neutral).

Every page that saves its state as a file (Face to Face, Line of Fire, the Order Expenditure Sequence) writes the
same link: a ``data:`` URL holding the TOML text, so the browser saves it without a server round trip. Uploaded
files go through the loading gate (:func:`explorer.scenario.decode_file_bytes`) before a page parses them.
"""

from __future__ import annotations

import base64
import html
import re
from typing import Any

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


UPLOAD_CLASS = "xr-upload"
"""The CSS class of every file-open control made by :func:`upload_control`."""


def upload_css(label: str, css_class: str) -> str:
    """The ``<style>`` that shows a ``FileUpload`` button as ``label`` alone.

    ipywidgets' front end writes the button as an icon, the description and the number of files held ("Load TOML
    (0)"; the pages empty the value after reading a file, so it always read "(0)"), and the icon's font comes from a
    CDN the pages cannot reach (an empty box). The rule hides that text and shows ``label`` instead.
    """
    sel = f".{UPLOAD_CLASS}.{css_class}"
    text = label.replace("\\", "\\\\").replace('"', '\\"')
    return (f"<style>{sel}{{font-size:0 !important;width:auto !important;min-width:0 !important;padding:0 10px}}"
            f"{sel} i{{display:none !important}}"
            f"{sel}::after{{content:\"{text}\";font-size:13px;font-family:sans-serif;white-space:nowrap}}</style>")


def upload_control(label: str, tooltip: str, css_class: str, accept: str = ".toml") -> tuple[Any, Any]:
    """A file-open button that reads ``label`` (no file count, no missing icon) for every page that loads a file.

    Args:
        label: the button's words ("Open a TOML file…").
        tooltip: what the file holds and which command reads it.
        css_class: the page's own class for the control (lower-case letters, digits and ``-``).
        accept: the file types offered.

    Returns:
        ``(box, upload)``: an ``ipywidgets.HBox`` to place on the page (the button and its style), and the
        ``ipywidgets.FileUpload`` whose ``value`` to observe.

    Raises:
        ValueError: ``css_class`` is not a plain class name.
    """
    import ipywidgets as W

    if not re.fullmatch(r"[a-z][a-z0-9-]*", css_class):
        raise ValueError(f"css_class must be lower-case letters, digits and '-': {css_class!r}")
    upload = W.FileUpload(accept=accept, multiple=False, description=label, icon="", tooltip=tooltip)
    upload.add_class(UPLOAD_CLASS)
    upload.add_class(css_class)
    style = W.HTML(upload_css(label, css_class), layout=W.Layout(width="0px", margin="0"))
    box = W.HBox([style, upload], layout=W.Layout(align_items="center", width="auto"))
    box.add_class("xr-upload-box")
    return box, upload


def unexpected_error_text(name: str, error: BaseException) -> str:
    """One line for a file the page failed to open through a bug (not a ``ScenarioError``): the file's name and the
    error's kind and first line, each cut short."""
    first = (str(error).splitlines() or [""])[0][:160]
    return f"{name[:200]}: could not be opened ({type(error).__name__}{': ' + first if first else ''})"


def watch_upload(upload, load, message) -> None:
    """Open every file chosen in ``upload`` (an ``ipywidgets.FileUpload``) with ``load(text, name)`` after the
    loading gate's size and UTF-8 check (:func:`read_upload`), and say in ``message`` (an ``ipywidgets.HTML``)
    "opened NAME" or the one-line error (a ``ScenarioError``: the page keeps its state). Any other exception from
    ``load`` is a bug: it is logged with its traceback and the message says the file could not be opened, never
    nothing. The control is emptied afterwards, so the same file can be chosen again."""
    from explorer.errors import ScenarioError

    def changed(change) -> None:
        if not change["new"]:
            return
        name = "the file"
        try:
            name = str(change["new"][0].get("name", name))
            name, text = read_upload(change)
            load(text, name)
        except ScenarioError as e:
            message.value = file_message(str(e), ok=False)
        except Exception as e:   # a bug in the page's loader: say so beside the control, log the traceback
            import logging

            logging.getLogger(__name__).exception("opening %s failed", name[:200])
            message.value = file_message(unexpected_error_text(name, e), ok=False)
        else:
            message.value = file_message(f"opened {name}", ok=True)
        finally:
            upload.value = ()

    upload.observe(changed, names="value")
