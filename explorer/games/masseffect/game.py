"""Mass Effect: Priority Hagalaz behind the game registry (:mod:`explorer.games`).

A Mass Effect scenario file names its ``kind``; each kind is resolved by one rules module:

=============  =====================  ==============================================================================
kind           module                 what it answers (sections)
=============  =====================  ==============================================================================
``map``        :mod:`.queries`        adjacency, distances, "within N", Line of Fire (Interacting with the Mission Map)
``strategy``   :mod:`.strategy`       a Strategy Roll, its Core Ability triggers and re-rolls, its odds (Step A)
``damage``     :mod:`.units`          Squadmate Damage, Damaging Enemies, Elites' Resilience Tracker, End Phase
``activation`` :mod:`.activation`     a Hazard card's enemy activations: targets, Attack or Advance (Step C)
=============  =====================  ==============================================================================

Each module exposes ``parse_<kind>(data, source)`` and ``resolve_<kind>(scenario, rulings, seed) -> Trace``.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from explorer.errors import ScenarioError
from explorer.games import Game, Page
from explorer.trace import Trace

KINDS: dict[str, str] = {
    "map": "explorer.games.masseffect.queries",
    "strategy": "explorer.games.masseffect.strategy",
    "damage": "explorer.games.masseffect.units",
    "activation": "explorer.games.masseffect.activation",
}
"""``{scenario kind: rules module}``; the module defines ``parse_<kind>`` and ``resolve_<kind>``."""


def _module(kind: Any, source: str):
    if not isinstance(kind, str) or kind not in KINDS:
        raise ScenarioError("kind", f"unknown Mass Effect scenario kind {kind!r}" if kind is not None
                            else "is required but missing", list(KINDS), source)
    return import_module(KINDS[kind])


def _parse(data: dict, source: str):
    """``(kind, scenario)``: the kind's ``parse_<kind>`` gets the whole document (``game`` and ``kind`` included)."""
    kind = data.get("kind")
    return kind, getattr(_module(kind, source), f"parse_{kind}")({"game": "masseffect", **data}, source)


def _resolve(scenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
             reroll: bool = False) -> Trace:
    kind, sc = scenario
    return getattr(_module(kind, "scenario"), f"resolve_{kind}")(sc, rulings=dict(rulings or {}), seed=seed)


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def outcome_text(trace: Trace) -> str:
    """The outcome of any Mass Effect scenario as ``key: value`` lines (nested values as compact JSON)."""
    import json

    lines = ["Outcome:"]
    for k, v in trace.outcome.items():
        text = v if isinstance(v, str | int | float) else json.dumps(v, ensure_ascii=False)
        if isinstance(text, str) and len(text) > 160:
            text = f"({len(v)} entries: see --json)" if isinstance(v, dict | list) else text[:157] + "..."
        lines.append(f"  {k}: {text}")
    return "\n".join(lines)


def _strategy_page():
    from .strategy_views import strategy_page

    return strategy_page()


def _cli():
    from .cli import cli_app

    return cli_app()


PAGES: tuple[Page, ...] = (
    Page("strategy-pool", "Strategy Pool",
         "Roll or set the Strategy dice, watch the Core Ability triggers and re-rolls step by step, and read the exact "
         "odds of what the Pool leaves for your three Actions.", _strategy_page),
)

GAME = Game(
    id="masseffect",
    title="Mass Effect: The Board Game — Priority: Hagalaz",
    rulebook="mass-effect-priority-hagalaz.txt",
    package="explorer.games.masseffect",
    default_scenario="me-diagram-5",
    parse=_parse,
    resolve=_resolve,
    ruling_options=_options,
    pages=PAGES,
    cli=_cli,
    outcome_text=outcome_text,
)
"""The Mass Effect entry of the registry."""
