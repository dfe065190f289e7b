"""Marvel D.A.G.G.E.R. behind the game registry (:mod:`explorer.games`).

One scenario kind so far:

=============  ===========================  =======================================================================
kind           module                       what it answers (sections)
=============  ===========================  =======================================================================
``nemesis``    :mod:`.nemesis_scenario`     a Nemesis Phase (or several) played out step by step: Advance Threat,
                                            Check Nemesis Mission, Resolve Event Cards, End of Round, Winning and
                                            Losing
=============  ===========================  =======================================================================

Each kind's module exposes ``parse_<name>(data, source)`` and ``resolve_<name>(scenario, rulings, seed) -> Trace``
(:data:`KINDS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from explorer.errors import ScenarioError
from explorer.games import Game, Page
from explorer.trace import Trace

KINDS: dict[str, tuple[str, str]] = {
    "nemesis": ("explorer.games.dagger.nemesis_scenario", "nemesis"),
}
"""``{scenario kind: (rules module, name)}``; the module defines ``parse_<name>`` and ``resolve_<name>``."""


def _functions(kind: Any, source: str):
    if not isinstance(kind, str) or kind not in KINDS:
        raise ScenarioError("kind", f"unknown D.A.G.G.E.R. scenario kind {kind!r}" if kind is not None
                            else "is required but missing", list(KINDS), source)
    module, name = KINDS[kind]
    m = import_module(module)
    return getattr(m, f"parse_{name}"), getattr(m, f"resolve_{name}")


def _parse(data: dict, source: str):
    """``(kind, scenario)``: the kind's parser gets the whole document (``game`` and ``kind`` included)."""
    kind = data.get("kind")
    return kind, _functions(kind, source)[0]({"game": "dagger", **data}, source)


def _resolve(scenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
             reroll: bool = False) -> Trace:
    kind, sc = scenario
    return _functions(kind, "scenario")[1](sc, rulings=dict(rulings or {}), seed=seed)


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def outcome_text(trace: Trace) -> str:
    """The outcome as ``key: value`` lines (nested values as compact JSON, long ones folded)."""
    import json

    lines = ["Outcome:"]
    for k, v in trace.outcome.items():
        text = v if isinstance(v, str | int | float) else json.dumps(v, ensure_ascii=False)
        if isinstance(text, str) and len(text) > 160:
            text = f"({len(v)} entries: see --json)" if isinstance(v, dict | list) else text[:157] + "..."
        lines.append(f"  {k}: {text}")
    return "\n".join(lines)


def picture(scenario, trace: Trace) -> str | None:
    """SVG of the world map as the scenario's Nemesis Phase(s) leave it (bases overrun, heroes, enemies, threat),
    replayed with the readings the trace consulted; the last step's marked spaces are outlined. Drawn by
    :func:`.map_svg.map_svg`."""
    from .map_svg import map_svg
    from .nemesis_scenario import playthrough

    kind, sc = scenario
    if kind != "nemesis":
        return None
    frames, _ctx, start = playthrough(sc, trace.rulings)
    end = frames[-1].state if frames else start
    marks = [m for m in (frames[-1].step.marks if frames else ()) if m in sc.world]
    return map_svg(sc.world, end, highlight=marks)


PAGES: tuple[Page, ...] = ()

GAME = Game(
    id="dagger",
    title="Marvel D.A.G.G.E.R.",
    rulebook="marvel-dagger.txt",
    package="explorer.games.dagger",
    default_scenario="dg-01",
    parse=_parse,
    resolve=_resolve,
    ruling_options=_options,
    pages=PAGES,
    outcome_text=outcome_text,
    picture=picture,
)
"""The Marvel D.A.G.G.E.R. entry of the registry."""
