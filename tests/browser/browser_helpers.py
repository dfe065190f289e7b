"""Helpers shared by the browser tests (imported by name: tests/ is not a package)."""

from __future__ import annotations

import os
import time

SCREENSHOTS = os.environ.get("EXPLORER_SCREENSHOTS")  # a directory: save screenshots there (docs/img)


def canvas_stats(locator) -> dict:
    """Pixels of a canvas element: size, how many sampled pixels are opaque, how many distinct colours."""
    return locator.evaluate("""c => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let opaque = 0; const colours = new Set(); let hash = 0;
        for (let k = 0; k < d.length; k += 4 * 7) {
            if (d[k + 3] > 0) opaque++;
            colours.add(d[k] + ',' + d[k + 1] + ',' + d[k + 2]);
            hash = (hash * 31 + d[k] + 7 * d[k + 1] + 13 * d[k + 2]) | 0;
        }
        return {width: c.width, height: c.height, opaque: opaque, colours: colours.size, hash: hash};
    }""")


def wait_until(fn, timeout: float = 30, interval: float = 0.25, what: str = "condition"):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = fn()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what} (last value {last!r})")
