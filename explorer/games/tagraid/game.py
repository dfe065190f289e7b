"""TAG Raid behind the game registry (:mod:`explorer.games`): its scenarios, ruling options, pages and CLI verbs.

Sections: every section the roll engine (:mod:`.resolve`) and the Line of Fire explorer (:mod:`.lof`) cite; this
module only wires them to the uniform surface.
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.games import Game, Page
from explorer.trace import Trace


def _parse(data: dict, source: str):
    """Dispatch on the top-level ``kind``: ``"order"`` (a whole Order on a table: :mod:`.orders.orderfile`) or
    ``"roll"`` / absent (a roll exchange: :mod:`.model`)."""
    kind = data.get("kind", "roll")
    if kind == "order":
        from .orders.orderfile import parse_order

        return parse_order(data, source)
    if kind != "roll":
        from explorer.errors import ScenarioError

        raise ScenarioError("kind", f"unknown scenario kind {kind!r}", ["roll", "order"], source)
    from .model import parse_scenario

    return parse_scenario({k: v for k, v in data.items() if k != "kind"}, source)


def _resolve(scenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
             reroll: bool = False) -> Trace:
    """Resolve a roll scenario (:func:`.resolve.resolve`) or play an Order (:func:`.orders.orderfile.resolve_order`):
    ``seed`` replaces the scenario's seed; ``reroll`` ignores its fixed dice and rolls every die from the seed."""
    from explorer.dice import SeededRoller

    from .orders.orderfile import OrderScenario, resolve_order

    if isinstance(scenario, OrderScenario):
        if reroll:
            from dataclasses import replace

            scenario = replace(scenario, dice=replace(scenario.dice, rolls=(), saves=(), respawn=()))
        return resolve_order(scenario, rulings, seed)

    from .resolve import resolve

    if seed is not None:
        scenario = scenario.model_copy(update={"seed": seed})
    return resolve(scenario, roller=SeededRoller(scenario.seed) if reroll else None, rulings=dict(rulings or {}))


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def outcome_text(trace: Trace) -> str:
    """The outcome of a resolved roll exchange in plain text (winner per pair, Saving Rolls, Wounds, Death,
    Neomaterials, Evade movement)."""
    o = trace.outcome
    lines = ["Outcome:"]
    for p in o.get("pairs", []):
        other = p.get("reactive") or p.get("megabeast")
        who = f"{p['active']} vs {other}" if other else p["active"]
        lines.append(f"  - {who}: {p['kind'].replace('_', ' ')}, winner {p.get('winner') or 'none'}")
    lost = {k: v for k, v in o.get("wounds", {}).items() if v}
    if o.get("saving_rolls"):
        lines.append("  Saving Rolls: " + ", ".join(f"{k} {v}" for k, v in o["saving_rolls"].items()))
    lines.append("  Wounds lost: " + (", ".join(f"{k} {v}" for k, v in lost.items()) or "none"))
    if o.get("dead"):
        lines.append("  Dead: " + ", ".join(o["dead"]))
    gains = [f"{k} +{v} Teseum" for k, v in o.get("teseum", {}).items() if v]
    gains += [f"{k} +{v} T-Bezoar" for k, v in o.get("t_bezoar", {}).items() if v]
    if gains:
        lines.append("  Neomaterials: " + ", ".join(gains))
    if o.get("evade_moves"):
        lines.append("  May move one Segment (Evade): " + ", ".join(o["evade_moves"]))
    return "\n".join(lines)


def picture(scenario, trace: Trace) -> str | None:
    """A roll scenario has no table to draw: ``None``. (A table scenario (:class:`.lof.TableTop`) draws itself as
    SVG through ``_repr_svg_`` (:class:`.lof_views.LofSnapshot`); this returns that when handed one.)"""
    draw = getattr(scenario, "_repr_svg_", None)
    return draw() if callable(draw) else None


def _face_to_face_page():
    from .views import explorer_for_scenario

    w = explorer_for_scenario()
    return w, w.redraw


def _face_to_face_open(name: str):
    from .views import explorer_for_scenario

    w = explorer_for_scenario(name)
    return w, w.redraw


def _line_of_fire_page():
    from .lof_views import LofExplorer

    lof = LofExplorer()
    return lof, lof.redraw


def _cli():
    from .cli_odds import cli_app

    return cli_app()


GAME = Game(
    id="tagraid",
    title="Infinity Deathmatch: TAG Raid",
    rulebook="infinity-tag-raid.txt",
    package="explorer.games.tagraid",
    default_scenario="book-f2f-1v1",
    parse=_parse,
    resolve=_resolve,
    ruling_options=_options,
    pages=(
        Page("face-to-face", "Face to Face Rolls",
             "Both Miners' inputs, a dice tray you can set by hand, the cancellation die by die, exact odds and "
             "Wounds, each step citing its section.", _face_to_face_page, kinds=('',), open=_face_to_face_open),
        Page("line-of-fire", "Line of Fire",
             "Click a Model to see every Model it has Line of Fire to, what blocks the others, Range bands, "
             "Partial Cover and the MegaBeast's Threat Level by side.", _line_of_fire_page),
    ),
    cli=_cli,
    outcome_text=outcome_text,
    picture=picture,
    scenario_order=("book-f2f-1v1", "book-normal-roll", "book-f2f-and-normal", "book-two-f2f", "book-stoorworm"),
)
"""The TAG Raid entry of the registry."""
