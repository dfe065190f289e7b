"""Browser fixes on every served page: a canvas never scrolls the page when ipycanvas focuses it, and a plain mouse
wheel over a canvas scrolls the page.

What it patches: ipycanvas' front end, in the browser. ipycanvas focuses a canvas on every mouse press with
``el.focus()``, which scrolls a partly hidden canvas into view *before* it reads the pointer position, so the first
click on a board or dice tray that is partly off screen landed on the wrong hexagon or missed the die; and it takes
every wheel event over a canvas (``preventDefault``), so the page could not be scrolled over a board. The script,
:data:`explorer.widgets.layout.BROWSER_FIXES_JS` (idempotent; the same one every canvas widget carries, so notebooks
get it too), makes canvas focus never scroll (``preventScroll``) and keeps plain wheel events away from canvases;
with Ctrl, Shift or Alt held the wheel still reaches the canvas (e.g. to rotate a piece). :func:`browser_fixes` is
an invisible Panel component that installs it when it renders, before the widgets do (``docs/design.md`` item 13b).

Private APIs (pinned ipycanvas==0.14.3, panel==1.9.4): ipycanvas' canvas element and its listeners
(``HTMLCanvasElement.prototype.focus``, the ``lm-Widget`` / ``jupyter-widgets`` classes); the component itself is
Panel's public ``ReactiveHTML``.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): the script changes nothing another
ipycanvas does not do, so it is always installed.
"""

from __future__ import annotations

from explorer.widgets.layout import BROWSER_FIXES_JS

from .versions import allowed


def _fixes_class():
    from panel.reactive import ReactiveHTML

    class BrowserFixes(ReactiveHTML):
        """Invisible: installs :data:`BROWSER_FIXES_JS` when it renders (before the widgets do)."""

        _template = "<span id='explorerfixes' style='display:none'></span>"
        _scripts = {"render": BROWSER_FIXES_JS}

    return BrowserFixes


class _Fixes:
    cls = None


def browser_fixes():
    """An invisible Panel component (a ``ReactiveHTML``) that installs the browser fixes (see the module docstring).
    Add it to every served page, before the widgets."""
    if _Fixes.cls is None:
        allowed("browser_fixes")   # guarded: only warns on a mismatch
        _Fixes.cls = _fixes_class()
    return _Fixes.cls(width=0, height=0, margin=0)
