"""One name per page and per interaction in ``benchmarks/browser_ux_timing.json``, whatever the viewport.

The desktop timings (``tests/browser/test_explorer_ux.py``, 1280 and 900 px) name each interaction by what it does
("roll dice", "zoom in"); the phone timings (``benchmarks/bench_phone_interactions.py``) derive a name from the
control (``tap Roll dice``, ``tap +``, ``pick in dropdown 'touching_does_not_block'``: the dropdown's shown value
before the pick). Both record under the page's route (``tagraid-face-to-face``), and :func:`interaction_key` turns a
phone name that is the same interaction as a desktop one into the desktop name, so one key is one interaction in
every viewport. ``tests/test_ux_timing_keys.py`` checks the recorded file.

One writer per entry: an entry (a page and a viewport) that a dedicated benchmark measures belongs to that benchmark
(:data:`OWNERS`); another script timing the same page and viewport writes under its own entry,
``"<viewport> (<script>)"`` (:func:`entry_key`), so no run overwrites another script's numbers with differing ones.
"""

from __future__ import annotations

SAME_INTERACTION: dict[str, dict[str, str]] = {
    "tagraid-face-to-face": {
        "tap Roll dice": "roll dice",
        "pick in dropdown 'none'": "flip a ruling",           # the MOD cap ruling, as the desktop test flips it
    },
    "tagraid-line-of-fire": {
        "tap +": "zoom in",
        "tap fit": "fit the board to its column",
        "tap rotate ⟳": "rotate the selected Model",
        "pick in dropdown 'touching_does_not_block'": "flip a ruling",   # lof_grazing, as the desktop test flips it
    },
}
"""``{page: {phone name: the desktop name of the same interaction}}``."""

PAGE_ALIASES = {"face-to-face": "tagraid-face-to-face", "line-of-fire": "tagraid-line-of-fire"}
"""Page names the desktop timings used before they took the route's (read when an older file is rewritten)."""


OWNERS: dict[tuple[str, str], str] = {
    ("tagraid-line-of-fire", "1280x800"): "bench_lof_interactions",
    ("tagraid-line-of-fire", "390x844 phone"): "bench_lof_interactions",
}
"""``{(page, viewport): the script (file stem under benchmarks/ or tests/browser/) that owns that entry}``: the Line
of Fire page's interactions at 1280 and on the phone are timed in the page by ``benchmarks/bench_lof_interactions.py``
(issue #24); ``tests/browser/test_explorer_ux.py`` (its first paint and seven interactions from Playwright) and
``benchmarks/bench_phone_interactions.py`` (the page's first buttons and dropdowns) write beside it."""


def entry_key(page: str, viewport: str, writer: str) -> str:
    """The viewport key ``writer`` (a script's file stem) records ``page`` under: ``viewport`` when no script owns
    that entry or ``writer`` does (:data:`OWNERS`), else ``"<viewport> (<writer>)"``."""
    owner = OWNERS.get((page_key(page), viewport))
    return viewport if owner in (None, writer) else f"{viewport} ({writer})"


def page_key(route: str) -> str:
    """The report's key of the page served at ``route`` (``"/tagraid-face-to-face"`` -> ``"tagraid-face-to-face"``)."""
    name = route.strip("/")
    return PAGE_ALIASES.get(name, name)


def interaction_key(page: str, name: str) -> str:
    """The report's name of an interaction on ``page``: the desktop name where the phone's ``name`` is the same
    interaction (:data:`SAME_INTERACTION`), else ``name``."""
    return SAME_INTERACTION.get(page_key(page), {}).get(name, name)


def canonical_report(data: dict) -> dict:
    """``data`` (the report) with every page under :func:`page_key` and every ``latency_ms.*`` key under
    :func:`interaction_key` (viewports of a page merged; a viewport recorded twice keeps the later page name's)."""
    out: dict = {}
    for page, viewports in data.items():
        key = page_key(page)
        for vp, values in viewports.items():
            vals = {}
            for k, v in values.items():
                if k.startswith("latency_ms."):
                    k = "latency_ms." + interaction_key(key, k[len("latency_ms."):])
                vals[k] = v
            out.setdefault(key, {})[vp] = vals
    return out
