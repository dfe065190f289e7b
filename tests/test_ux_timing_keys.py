"""benchmarks/browser_ux_timing.json: one key per page and per interaction in every viewport (issue #23): the phone
timings and the desktop timings of the same page sit under its route, and an interaction measured in both has one
name (benchmarks/ux_keys.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from ux_keys import (OWNERS, PAGE_ALIASES, SAME_INTERACTION, canonical_report, entry_key,  # noqa: E402
                     interaction_key, page_key)

REPORT = ROOT / "benchmarks" / "browser_ux_timing.json"


def test_pages_are_keyed_by_their_route():
    from explorer.app import routes

    served = {r.strip("/") for r in routes()}
    data = json.loads(REPORT.read_text())
    assert set(data) <= served, sorted(set(data) - served)
    assert not set(data) & set(PAGE_ALIASES)


def test_the_recorded_file_uses_one_name_per_interaction():
    data = json.loads(REPORT.read_text())
    assert canonical_report(data) == data
    for page, aliases in SAME_INTERACTION.items():
        for vp, values in data.get(page, {}).items():
            stale = [k for k in values if k.startswith("latency_ms.") and k[len("latency_ms."):] in aliases]
            assert not stale, (page, vp, stale)


def test_pages_measured_on_desktop_and_phone_share_their_common_interactions():
    data = json.loads(REPORT.read_text())
    both = {p: v for p, v in data.items() if "390x844 phone" in v and len(v) > 1}
    assert {"tagraid-face-to-face", "tagraid-line-of-fire"} <= set(both)
    for page, viewports in both.items():
        keys = [{k for k in v if k.startswith("latency_ms.")} for v in viewports.values()]
        assert set.intersection(*keys), page   # at least one interaction compared across viewports


def test_phone_names_map_to_the_desktop_names():
    assert interaction_key("/tagraid-face-to-face", "tap Roll dice") == "roll dice"
    assert interaction_key("tagraid-line-of-fire", "tap +") == "zoom in"
    assert interaction_key("tagraid-line-of-fire", "tap Next ▶") == "tap Next ▶"
    assert page_key("face-to-face") == "tagraid-face-to-face" and page_key("/dagger-round") == "dagger-round"
    old = {"face-to-face": {"1280x800": {"latency_ms.roll dice": 1.0}},
           "tagraid-face-to-face": {"390x844 phone": {"latency_ms.tap Roll dice": 2.0, "load_s": 3.0}}}
    assert canonical_report(old) == {"tagraid-face-to-face": {"1280x800": {"latency_ms.roll dice": 1.0},
                                                              "390x844 phone": {"latency_ms.roll dice": 2.0,
                                                                                "load_s": 3.0}}}


def test_an_owned_entry_is_written_by_its_owner_only():
    """Issue #24: the Line of Fire page's 1280x800 and phone entries belong to bench_lof_interactions.py; the browser
    test and the phone benchmark write beside them (one run never overwrites another script's numbers)."""
    assert entry_key("tagraid-line-of-fire", "1280x800", "bench_lof_interactions") == "1280x800"
    assert entry_key("/tagraid-line-of-fire", "1280x800", "test_explorer_ux") == "1280x800 (test_explorer_ux)"
    assert entry_key("line-of-fire", "390x844 phone", "bench_phone_interactions") == \
        "390x844 phone (bench_phone_interactions)"
    assert entry_key("tagraid-line-of-fire", "900x900", "test_explorer_ux") == "900x900"
    assert entry_key("tagraid-face-to-face", "390x844 phone", "bench_phone_interactions") == "390x844 phone"
    data = json.loads(REPORT.read_text())
    for (page, vp), owner in OWNERS.items():
        entry = data.get(page, {}).get(vp)
        if entry is not None:   # every key of the entry comes from its owner's run
            assert entry["note"].startswith(f"benchmarks/{owner}.py"), (page, vp, entry["note"][:60])
            assert not any(k.startswith("first_paint.") or k == "load_s" for k in entry), (page, vp)
