"""Every field of one built-in of each kind of every game, changed one at a time: a name or hex where the file names
something (``"Nobody"``, ``""``) and a list of tables with its first entry repeated (a duplicate id). Each file gives a
result or a one-line error, never a traceback (session 14).

The seeded fuzz run (``benchmarks/fuzz_files.py``, 20,000 files) draws its mutations at random, so a fault reached
only by one field of one kind can go unseen: this sweep found a KeyError (Mass Effect round: a turn's ``squadmate``
unknown in a turn with a Chatika ``drone`` or an ``aim`` action, its sheet read before the name was checked) and a
ValueError (Galaxy Defenders combat on a map: a target's ``at`` / ``base`` not a hex) that 20,000 random files missed.
"""

from __future__ import annotations

import copy
import tempfile
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from test_hostile_files import Format, _load_scenario, run_one, to_toml

SWEPT = {
    "tagraid": ["book-two-f2f", "tr-22", "book-oes-order", "tr-round-stoorworm", "tr-deploy-reroll"],
    "masseffect": ["me-10", "me-hazard-spawn-rush", "me-diagram-4", "me-strategy-paragon", "me-round-core-abilities"],
    "galaxydefenders": ["gd-13", "gd-32", "gd-explosion-map", "gd-refresh-power-suit", "gd-event-signals", "gd-30",
                        "gd-area-healing", "gd-08", "gd-mission-4", "gd-33", "gd-round-map"],
    "dagger": ["dg-hero-fight", "dg-three-rounds", "dg-two-rounds", "dg-setup"],
}
"""One built-in of each kind of each game (the largest of its kind)."""

FORMAT = Format("any scenario", (), _load_scenario)


def _paths(doc, prefix=()):
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):
            out += _paths(v, prefix + (i,))
    return out


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _mutants(doc):
    """(path, what, document) for each mutation of ``doc``."""
    for path in _paths(doc)[1:]:
        v = _get(doc, path)
        if isinstance(v, str):
            for word in ("Nobody", ""):
                d = copy.deepcopy(doc)
                _get(d, path[:-1])[path[-1]] = word
                yield path, repr(word), d
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            d = copy.deepcopy(doc)
            _get(d, path).append(copy.deepcopy(v[0]))
            yield path, "first entry repeated", d


@pytest.mark.slow
@pytest.mark.parametrize("game,name", [(g, n) for g, names in SWEPT.items() for n in names],
                         ids=lambda x: x if isinstance(x, str) else "")
def test_every_name_field_and_every_list_of_tables_gives_a_result_or_one_line(game, name):
    text = (resources.files(f"explorer.games.{game}") / "scenarios" / f"{name}.toml").read_text(encoding="utf-8")
    doc = tomllib.loads(text)
    faults = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "swept.toml"
        for where, what, d in _mutants(doc):
            path.write_text(to_toml(d), encoding="utf-8")
            out = run_one(FORMAT, path)
            if out.kind == "traceback":  # (a refusal of play names the file where the CLI or page reports it)
                faults.append(f"{'.'.join(map(str, where))} = {what}: {out.detail.strip().splitlines()[-1]}")
    assert not faults, f"{name}: " + "; ".join(faults[:5])
