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


WAIT_FLOOR = 90.0
"""The least seconds :func:`wait_until` waits (a test's shorter ``timeout`` is raised to it). An upper bound, paid only
when the condition never holds: the CI machine (2 cores, a load of 4-6 during the suite) answers about 3x slower than
an idle one, and a CI run once charged 19 s to a check that takes 0.8 s; a 10 s or 30 s bound written on a quiet
machine leaves no room for either."""


def wait_until(fn, timeout: float = 30, interval: float = 0.25, what: str = "condition"):
    """``fn()``'s first true value, polled every ``interval`` seconds for at most ``max(timeout, WAIT_FLOOR)``
    seconds.

    Raises:
        AssertionError: ``fn()`` was never true in that time (the message names ``what`` and the last value).
    """
    timeout = max(timeout, WAIT_FLOOR)
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
        if ((w.canvas === null || (text && w.text === null)) && now - w.start < 90000) { requestAnimationFrame(tick); }
    };
    requestAnimationFrame(tick);
    return true; }"""
"""Browser-side latency watcher (see :func:`watch_change`)."""


def watch_change(page, canvas_sel: str, text_sel: str | None = None) -> None:
    """Start timing (``performance.now()``) just before an input: :func:`changed_after` then returns how many
    milliseconds later the canvas ``canvas_sel`` (its pixels) and the element ``text_sel`` (its text) changed."""
    page.evaluate(WATCH_JS, [canvas_sel, text_sel])


def changed_after(page, need_text: bool = True, timeout: float = 30) -> dict:
    """``{"canvas": ms, "text": ms}`` once both changed since :func:`watch_change` (``text`` only if ``need_text``).
    The page watches for 90 s (:data:`WAIT_FLOOR`, the least :func:`wait_until` waits here)."""
    return wait_until(lambda: page.evaluate("() => window.__watch")
                      if page.evaluate("() => window.__watch && window.__watch.canvas !== null && "
                                       f"({'window.__watch.text !== null' if need_text else 'true'})") else None,
                      timeout=timeout, interval=0.05, what="the page to change")


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
"""A phone as Chromium emulates it (an iPhone 12-14 sized screen): a mobile viewport (the page's ``<meta
name="viewport">`` is honoured, without it the page is laid out 980 px wide), touch events and a 2x screen."""


def phone_context(browser):
    """A new browser context that emulates :data:`PHONE` (close it after use)."""
    return browser.new_context(**PHONE)


PHONE_AUDIT_JS = """([minText, minTarget]) => {
    // every element, through shadow roots (Bokeh draws each component in its own)
    const all = []; const walk = (root) => { root.querySelectorAll('*').forEach(e => { all.push(e);
        if (e.shadowRoot) walk(e.shadowRoot); }); }; walk(document);
    const shown = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0'; };
    const name = (e) => (e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className
        ? '.' + e.className.trim().split(/\\s+/).slice(0, 3).join('.') : '') + ' "'
        + (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 40).replace(/\\s+/g, ' ') + '"');
    const small = [], tiny = [], sideways = [], cramped = [];
    for (const e of all) {
        if (!shown(e) || e.closest('svg')) continue;
        const st = getComputedStyle(e);
        // a box whose content is wider than it (cut off, or scrolled sideways inside the box); a board's zoom box
        // (xr-scroll) and preformatted text excepted
        if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && st.overflowX !== 'visible'
            && e.tagName !== 'PRE' && !e.classList.contains('xr-scroll') && e.tagName !== 'SELECT'
            && e.tagName !== 'INPUT' && e.tagName !== 'TEXTAREA')
            sideways.push(e.scrollWidth + '>' + e.clientWidth + ' ' + name(e).slice(0, 90));
        if ((e.tagName === 'TD' || e.tagName === 'TH') && e.innerText.trim()) {
            // a table cell narrower than its longest word: the word is broken letter by letter
            const ctx = (window.__auditCanvas = window.__auditCanvas || document.createElement('canvas')).getContext('2d');
            ctx.font = st.fontWeight + ' ' + st.fontSize + ' ' + st.fontFamily;
            const room = e.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
            const word = e.innerText.split(/\\s+/).filter(w => w.length <= 12)
                .reduce((a, w) => ctx.measureText(w).width > ctx.measureText(a).width ? w : a, '');
            if (ctx.measureText(word).width > room + 1) cramped.push(Math.round(room) + 'px < "' + word + '" ' + name(e).slice(0, 60));
        }
        const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
        const size = parseFloat(getComputedStyle(e).fontSize);
        if (own && size > 0 && size < minText) small.push(size + 'px ' + name(e));   // 0: text hidden on purpose
        for (const pseudo of ['::before', '::after']) {
            const p = getComputedStyle(e, pseudo);
            if (/^["'].*[A-Za-z0-9].*["']$/.test(p.content) && parseFloat(p.fontSize) < minText)
                small.push(parseFloat(p.fontSize) + 'px ' + pseudo + ' ' + p.content + ' of ' + name(e));
        }
        const control = ['BUTTON', 'SELECT', 'TEXTAREA', 'SUMMARY'].includes(e.tagName)
            || (e.tagName === 'INPUT' && e.type !== 'hidden') || (e.tagName === 'A' && e.hasAttribute('href'))
            || e.getAttribute('role') === 'button';
        if (!control) continue;
        // a checkbox or radio button is tapped through its label (ipywidgets: the widget's row)
        const target = (e.type === 'checkbox' || e.type === 'radio') ? (e.closest('label') || e.parentElement) : e;
        const r = target.getBoundingClientRect();
        if (r.height < minTarget - 0.5 || r.width < minTarget - 0.5)
            tiny.push(Math.round(r.width) + 'x' + Math.round(r.height) + ' ' + name(e));
    }
    const se = document.scrollingElement;
    return {scrollWidth: se.scrollWidth, width: window.innerWidth, small: small, tiny: tiny, sideways: sideways,
            cramped: cramped,
            viewport: (document.querySelector('meta[name=viewport]') || {content: null}).content};
}"""
"""Browser-side phone audit (see :func:`phone_audit`)."""


def phone_audit(page, min_text: float = 14, min_target: float = 44) -> dict:
    """What a phone user meets on ``page``: ``{scrollWidth, width, viewport, small, tiny, sideways, cramped}``: the page's
    scroll width and the window's width (more: the page scrolls sideways), the viewport meta's content, every shown
    text (own text or a ``::before`` / ``::after`` label; SVG pictures excepted) under ``min_text`` px, every shown
    control (button, select, input, textarea, link, summary; a checkbox through its label) under ``min_target`` px on
    a side, and every box whose content is wider than the box (cut off or scrolling sideways inside it; a board's
    zoom box ``xr-scroll``, preformatted text, form fields and tables excepted: a table wider than the screen scrolls in
    its own box), and ``cramped``: every table cell narrower than its longest word of at most 12 letters (the word
    broken letter by letter; longer tokens may break)."""
    return page.evaluate(PHONE_AUDIT_JS, [min_text, min_target])


def phone_audit_when_clean(page, min_text: float = 14, min_target: float = 44,
                           lists: tuple[str, ...] = ("small", "tiny", "sideways", "cramped"),
                           timeout: float = 30) -> dict:
    """:func:`phone_audit`, repeated every 0.5 s until the page does not scroll sideways and each of ``lists`` is
    empty, or ``timeout`` seconds have passed: the last audit. A page's last reflow (a board's label floor, measured
    every 700 ms; a tray's narrow twin) may come late on a loaded machine; a page that stays wrong is reported as it
    is after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        got = phone_audit(page, min_text, min_target)
        if (got["scrollWidth"] <= got["width"] and not any(got[k] for k in lists)) or time.monotonic() >= end:
            return got
        time.sleep(0.5)


PAGE_SIGNATURE_JS = """(skip) => {
    // what the page shows: every canvas's pixels (a hash) and every text and input value, through shadow roots
    const canvases = [], text = [];
    const walk = (root) => { root.querySelectorAll('*').forEach(e => {
        if (e.tagName === 'CANVAS' && e.width && e.height) {
            const d = e.getContext('2d').getImageData(0, 0, e.width, e.height).data; let h = 0;
            for (let k = 0; k < d.length; k += 4 * 7) { h = (h * 31 + d[k] + 7 * d[k + 1] + 13 * d[k + 2]) | 0; }
            canvases.push(h);
        } else if (e.tagName === 'INPUT' || e.tagName === 'SELECT' || e.tagName === 'TEXTAREA') { text.push(e.value); }
        else if (e.tagName !== 'STYLE' && e.tagName !== 'SCRIPT' && !(skip && e.closest(skip))) {
            e.childNodes.forEach(n => { if (n.nodeType === 3 && n.textContent.trim()) text.push(n.textContent.trim()); });
        }
        if (e.shadowRoot) walk(e.shadowRoot); }); };
    walk(document);
    return JSON.stringify({canvases: canvases, text: text});
}"""
"""Browser-side: a string that changes whenever what the page shows changes (see :func:`page_signature`)."""


def page_signature(page, skip: str | None = None) -> str:
    """A string of everything ``page`` shows (canvas pixels hashed, texts, input values): equal strings, equal pages.
    ``skip``: a CSS selector of elements whose text is left out (e.g. a hover readout)."""
    return page.evaluate(PAGE_SIGNATURE_JS, skip)


def settled_signature(page, quiet: float = 1.5, timeout: float = 30, skip: str | None = None) -> str:
    """:func:`page_signature` once it has not changed for ``quiet`` seconds."""
    end = time.monotonic() + timeout
    last, since = page_signature(page, skip), time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.2)
        now = page_signature(page, skip)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return now
    return last
