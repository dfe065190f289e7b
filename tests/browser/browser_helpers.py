"""Helpers shared by the browser tests (imported by name: tests/ is not a package)."""

from __future__ import annotations

import os
import time
import uuid

SCREENSHOTS = os.environ.get("EXPLORER_SCREENSHOTS")  # a directory: save screenshots there (docs/img)


def canvas_stats(locator, stride: int = 7) -> dict:
    """Pixels of a canvas element: size, how many sampled pixels (every ``stride``-th) are opaque, how many distinct
    colours, and a hash of the sampled colours (``{width, height, opaque, colours, hash}``)."""
    return locator.evaluate("""(c, stride) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let opaque = 0; const colours = new Set(); let hash = 0;
        for (let k = 0; k < d.length; k += 4 * stride) {
            if (d[k + 3] > 0) opaque++;
            colours.add(d[k] + ',' + d[k + 1] + ',' + d[k + 2]);
            hash = (hash * 31 + d[k] + 7 * d[k + 1] + 13 * d[k + 2]) | 0;
        }
        return {width: c.width, height: c.height, opaque: opaque, colours: colours.size, hash: hash};
    }""", stride)


def wait_until(fn, timeout: float = 30, interval: float = 0.25, what: str = "condition"):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = fn()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what} (last value {last!r})")


def open_notebook_and_run_all(browser, lab_url: str, notebook: str, viewport: dict):
    """Open ``notebook`` (path from the repository root) in a fresh JupyterLab workspace, wait for an idle kernel, run
    every cell and wait until all code cells have run. Returns ``(page, errors)``: ``errors`` collects the page's
    uncaught JavaScript errors from the moment the page opened."""
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{lab_url}/lab/workspaces/t{uuid.uuid4().hex[:8]}/tree/{notebook}?reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                           "&& window.jupyterapp.shell.currentWidget.sessionContext", timeout=120_000)
    page.wait_for_function("() => { const s = window.jupyterapp.shell.currentWidget.sessionContext.session;"
                           " return s && s.kernel && s.kernel.status === 'idle'; }", timeout=120_000)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function("() => { const w = window.jupyterapp.shell.currentWidget;"
                           " return w.sessionContext.session.kernel.status === 'idle'"
                           " && w.content.widgets.every(c => c.model.type !== 'code' || c.model.executionCount); }",
                           timeout=180_000)
    return page, errors
