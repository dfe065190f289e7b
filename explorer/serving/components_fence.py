"""Panel's ``/components/<module>/<class>/<attribute>/<path>`` route loads no module and answers no 500 (issue #25).

Private API (pinned panel==1.9.4): ``panel.io.server.ComponentResourceHandler.parse_url_path``, which serves a file
listed on a component's resource attribute and, to find the component, calls ``importlib.import_module`` on the
first part of the URL: an unauthenticated ``GET /components/this/...`` imported :mod:`this` (the Zen of Python in
the log), ``/components/jupyterlab/...`` blocked every session for about 9 s and five such requests added 80 MB;
``/components/../../..`` answered 500 with a traceback in the log.

The fence checks the module part before the original runs: it must be a dotted name of identifiers, its top-level
package in :data:`ALLOWED_PACKAGES`, and the module **already imported** (``sys.modules``) — so a request can never
import anything; anything else answers 404 ("Module not found", as Panel does for a missing module) and a
malformed path 400, with no traceback. The pages of ``explorer serve`` request nothing under ``/components/``
(measured: the four page kinds, every request logged); the allow-list keeps Panel's and Bokeh's own components
working for pages served with plain ``panel serve`` (templates, notebooks).

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): applied if the handler is there (a
warning names the mismatch), logged once and left out if not; without it any GET can import an installed module.
"""

from __future__ import annotations

import logging
import re
import sys

from .versions import allowed, could_not_apply

ALLOWED_PACKAGES: frozenset[str] = frozenset({"panel", "bokeh", "ipywidgets_bokeh"})
"""Top-level packages whose already-imported modules may serve component resources (their own stylesheets and
scripts, for templates and notebooks under plain ``panel serve``)."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){0,15}")
MAX_PATH_CHARS = 1024
"""A ``/components/`` path longer than this is refused (400) before it is split."""

_applied = False


def refusal(path: str) -> tuple[int, str] | None:
    """Why the fence refuses the ``/components/`` path ``path`` (the part after ``/components/``), or ``None`` when
    the original handler may look at it.

    Returns:
        ``(HTTP status, reason)``: 400 for a malformed path (too long, fewer than four parts, a module part that
        is not a dotted name of identifiers, a class or attribute part that is not an identifier), 404 for a module that is outside :data:`ALLOWED_PACKAGES` or not imported yet.
    """
    if len(path) > MAX_PATH_CHARS:
        return 400, "Malformed URL"
    parts = path.split("/")
    if len(parts) < 4:
        return 400, "Malformed URL"
    mod, cls, attr = parts[:3]
    if not (_MODULE.fullmatch(mod) and _NAME.fullmatch(cls) and _NAME.fullmatch(attr)):
        return 400, "Malformed URL"
    if mod.split(".", 1)[0] not in ALLOWED_PACKAGES or mod not in sys.modules:
        return 404, "Module not found"
    return None


def _wrap(original):
    from tornado.web import HTTPError

    def parse_url_path(self, path: str) -> str:
        why = refusal(path)
        if why is not None:
            raise HTTPError(*why)
        try:
            return original(self, path)
        except HTTPError:
            raise
        except Exception:   # a component attribute that does not resolve: a 404, not a 500 with a traceback
            raise HTTPError(404, "Resource not found") from None

    parse_url_path.__wrapped__ = original
    return parse_url_path


def fence_components() -> bool:
    """Process-wide: let Panel's ``/components/`` route serve only already-imported modules of
    :data:`ALLOWED_PACKAGES` (404 otherwise, 400 for a malformed path; never an import, never a traceback).
    Idempotent; returns whether the fence is in place."""
    global _applied
    if _applied:
        return True
    allowed("fence_components")   # guarded: only warns on a mismatch
    try:
        from panel.io.server import ComponentResourceHandler

        original = ComponentResourceHandler.parse_url_path
    except (ImportError, AttributeError) as e:
        could_not_apply("fence_components", e)
        return False
    ComponentResourceHandler.parse_url_path = _wrap(original)
    _applied = True
    logging.getLogger(__name__).debug("/components/ fenced to %s", sorted(ALLOWED_PACKAGES))
    return True
