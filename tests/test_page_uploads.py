"""A slice of the page-upload fuzz run (``benchmarks/fuzz_page_uploads.py``, issue #25 items 4-5): mutated built-in
files uploaded on every page with a file control, through the handler the upload widget calls (no browser). Each
upload opens the file or shows one line naming the file (and, when it names a field, one the format has); never a
traceback. The checks below also show that the run can fail: a page whose play refusal loses the file's name, and a
loader that raises a bug, are both seen as faults."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import fuzz_page_uploads as F  # noqa: E402

PAGES = ["tagraid-face-to-face", "tagraid-line-of-fire", "tagraid-orders", "masseffect-round",
         "galaxydefenders-round", "dagger-round"]


@pytest.fixture(scope="module")
def pages():
    return F.upload_pages()


def test_every_page_with_a_file_control_is_fuzzed(pages):
    assert [p.name for p in pages] == PAGES
    for p in pages:
        assert p.seeds and p.keys, p.name
    lof = next(p for p in pages if p.slug == "line-of-fire")
    assert "models" in lof.keys and "game" not in lof.keys   # table files: their own format's keys


def test_a_slice_of_the_seeded_run_is_clean(pages):
    rep = F.run(48, 2026120313, pages=pages)   # 8 files per page
    assert sum(sum(c.values()) for c in rep.by_page.values()) == 48
    assert not rep.faults, rep.faults
    opened = sum(c["opened"] for c in rep.by_page.values())
    refused = sum(c["refused"] for c in rep.by_page.values())
    assert opened and refused   # the slice reaches both outcomes


def _builtin_bytes(game: str, name: str) -> bytes:
    from importlib import resources

    return (resources.files(f"explorer.games.{game}") / "scenarios" / f"{name}.toml").read_bytes()


def test_a_built_in_opens_and_a_wrong_file_is_refused_naming_it(pages):
    page = next(p for p in pages if p.name == "masseffect-round")
    assert F.upload(page, _builtin_bytes("masseffect", "me-round-2"), "ok-1.toml") == ("opened", "")
    assert "ok-1.toml" not in F.upload(page, _builtin_bytes("masseffect", "me-round-2"), "ok-2.toml")[1]
    kind, detail = F.upload(page, _builtin_bytes("dagger", "dg-two-rounds"), "wrong-1.toml")
    assert kind == "refused" and detail.startswith("wrong-1.toml: ") and "\n" not in detail


def test_a_play_refusal_without_the_files_name_is_a_fault(pages, monkeypatch):
    """me-round-2 with Tali's Strategy Roll one face short parses, and is refused when the page plays it (the page
    keeps its round and says the refusal beside Open, session 16): with the page's naming gates taken away, that
    refusal no longer names the file, and the run says so."""
    import explorer.widgets.round_stepper as RS
    from explorer.errors import ScenarioError

    page = next(p for p in pages if p.name == "masseffect-round")
    text = _builtin_bytes("masseffect", "me-round-2").decode("utf-8")
    old = 'rolls = [["move_2", "standard", "enhanced"]]'
    assert text.count(old) == 1
    data = text.replace(old, 'rolls = [["move_2", "standard"]]').encode("utf-8")
    kind, detail = F.upload(page, data, "short-1.toml")
    assert kind == "refused" and detail.startswith("short-1.toml: field 'turns[3].roll.rolls[0]'"), detail
    monkeypatch.setattr(RS, "naming_source", lambda source: contextlib.nullcontext())
    monkeypatch.setattr(ScenarioError, "with_source", lambda self, source: self)
    kind, detail = F.upload(page, data, "short-2.toml")
    assert kind == "fault" and ("does not name the file" in detail or "no message names the file" in detail), detail


def test_a_loader_bug_is_a_fault(pages, monkeypatch):
    """A loader that raises something other than a one-line refusal (a bug): the page says "could not be opened"
    and logs the traceback; the run counts it as a fault (the table file itself opens)."""
    import explorer.games.tagraid.table_file as TF

    page = next(p for p in pages if p.name == "tagraid-line-of-fire")
    table = page.seeds[0].encode("utf-8")
    assert F.upload(page, table, "table-1.toml") == ("opened", "")

    def broken(*args, **kwargs):
        raise KeyError("models")

    monkeypatch.setattr(TF, "table_from_dict", broken)
    kind, detail = F.upload(page, table, "table-2.toml")
    assert kind == "fault" and ("could not be opened" in detail or "logged" in detail), detail


def test_found_a_round_pages_play_stop_names_the_file(pages):
    """Found by the run: a Round page that stops its play at a refused declaration said "Not allowed: round 2, turn
    6, slot: ..." without the file (the D.A.G.G.E.R. and Mass Effect Round pages, every file that stops so)."""
    page = next(p for p in pages if p.name == "dagger-round")
    kind, detail = F.upload(page, _builtin_bytes("dagger", "dg-slot-full"), "slot-1.toml")
    assert kind == "opened" and detail.startswith("Not allowed: slot-1.toml: round 2, turn 6, slot:"), detail


def test_found_a_gd_round_maps_refusal_names_the_map_field(pages):
    """Found by the run: a round file's [map] refusal named 'areas.C[9]' (the activation format's field), not
    'map.areas.C[9]' as the round file writes it."""
    import tomllib

    from explorer.tomlwrite import dumps

    page = next(p for p in pages if p.name == "galaxydefenders-round")
    doc = tomllib.loads(_builtin_bytes("galaxydefenders", "gd-round-map").decode("utf-8"))
    area, hexes = next(iter(doc["map"]["areas"].items()))
    hexes.append(hexes[0])
    kind, detail = F.upload(page, dumps(doc).encode("utf-8"), "areas-1.toml")
    assert kind == "refused" and detail.startswith(f"areas-1.toml: field 'map.areas.{area}[{len(hexes) - 1}]'"), detail


def test_found_a_duplicate_mission_is_named_where_the_file_writes_it(pages):
    """Found by the run: a D.A.G.G.E.R. file with two missions of one name was refused naming 'missions', a field
    no format has; now the second one's own field, and where the first is."""
    import tomllib

    from explorer.tomlwrite import dumps

    page = next(p for p in pages if p.name == "dagger-round")
    doc = tomllib.loads(_builtin_bytes("dagger", "dg-slot-full").decode("utf-8"))
    key = next(k for k in ("side_missions", "hero_missions", "side_deck", "nemesis_missions") if doc.get(k))
    doc[key].append(dict(doc[key][0]))
    kind, detail = F.upload(page, dumps(doc).encode("utf-8"), "dup-1.toml")
    n = len(doc[key]) - 1
    assert kind == "refused", detail
    assert detail.startswith(f"dup-1.toml: field '{key}[{n}].name': duplicate mission name"), detail
    assert f"(also {key}[0].name)" in detail
