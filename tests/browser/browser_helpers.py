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


TIMINGS = os.environ.get("EXPLORER_BROWSER_TIMINGS")  # a JSON-lines file; default: <tmp>/explorer-browser-timings.jsonl


def record_timing(test: str, what: str, ms: float, target_ms: float | None = None) -> str:
    """Append one interaction latency (milliseconds, from the input event to the page showing its result) to the
    browser timing report (``$EXPLORER_BROWSER_TIMINGS``, default ``<tmp>/explorer-browser-timings.jsonl``) and return
    the report's path. Timings are a report, never a test's pass/fail (they depend on the machine's load)."""
    import json
    import tempfile

    path = TIMINGS or os.path.join(tempfile.gettempdir(), "explorer-browser-timings.jsonl")
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"test": test, "what": what, "ms": round(ms, 1), "target_ms": target_ms,
                            "time": time.strftime("%Y-%m-%dT%H:%M:%S")}) + "\n")
    return path


WATCH_JS = """([canvasSel, textSel]) => {
    // start watching: the first animation frame at which the canvas pixels or the text differ is recorded
    const find = (sel) => { const all = []; const walk = (root) => { root.querySelectorAll(sel).forEach(e => all.push(e));
        root.querySelectorAll('*').forEach(e => { if (e.shadowRoot) walk(e.shadowRoot); }); }; walk(document); return all[0]; };
    const canvas = find(canvasSel), text = textSel ? find(textSel) : null;
    const sig = () => { const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let h = 0; for (let k = 0; k < d.length; k += 4 * 11) { h = (h * 31 + d[k] + 7 * d[k + 1] + 13 * d[k + 2]) | 0; } return h; };
    const w = {start: performance.now(), canvas: null, text: null, h0: sig(), t0: text ? text.innerText : null};
    window.__watch = w;
    const tick = () => {
        const now = performance.now();
        if (w.canvas === null && sig() !== w.h0) { w.canvas = now - w.start; }
        if (text && w.text === null && text.innerText !== w.t0) { w.text = now - w.start; }
        if ((w.canvas === null || (text && w.text === null)) && now - w.start < 20000) { requestAnimationFrame(tick); }
    };
    requestAnimationFrame(tick);
    return true; }"""
"""Browser-side latency watcher (see :func:`watch_change`)."""


def watch_change(page, canvas_sel: str, text_sel: str | None = None) -> None:
    """Start timing (``performance.now()``) just before an input: :func:`changed_after` then returns how many
    milliseconds later the canvas ``canvas_sel`` (its pixels) and the element ``text_sel`` (its text) changed."""
    page.evaluate(WATCH_JS, [canvas_sel, text_sel])


def changed_after(page, need_text: bool = True, timeout: float = 30) -> dict:
    """``{"canvas": ms, "text": ms}`` once both changed since :func:`watch_change` (``text`` only if ``need_text``)."""
    return wait_until(lambda: page.evaluate("() => window.__watch")
                      if page.evaluate("() => window.__watch && window.__watch.canvas !== null && "
                                       f"({'window.__watch.text !== null' if need_text else 'true'})") else None,
                      timeout=timeout, interval=0.05, what="the page to change")
