"""`explorer resolve` and `explorer scenarios`: resolve a TAG Raid roll exchange, list the built-in scenarios.

Examples::

    explorer scenarios
    explorer resolve book-f2f-1v1
    explorer resolve my-exchange.toml --seed 7 --ruling sv_above_20=excess_to_die --json
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from .errors import ScenarioError


def _parse_rulings(items: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            from .games.tagraid.options import ALL_OPTIONS

            raise ScenarioError("--ruling", f"{item!r} is not key=reading",
                                "key=reading with key one of " + ", ".join(o.key for o in ALL_OPTIONS))
        out[key.strip()] = value.strip()
    return out


def resolve_command(
    scenario: Annotated[str, typer.Argument(help="A built-in scenario name (see `explorer scenarios`) or a TOML file.")],
    seed: Annotated[Optional[int], typer.Option("--seed", help="Seed for the dice the scenario does not fix.")] = None,
    reroll: Annotated[bool, typer.Option("--reroll", help="Ignore the scenario's fixed dice: roll every die "
                                                          "from the seed.")] = False,
    ruling: Annotated[Optional[list[str]], typer.Option("--ruling", help="Choose a reading: key=reading "
                                                                         "(repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the trace as JSON.")] = False,
) -> None:
    """Resolve a roll exchange step by step, citing the rulebook."""
    from .dice import SeededRoller
    from .games.tagraid.resolve import resolve
    from .games.tagraid.scenarios import load_scenario

    sc = load_scenario(scenario)
    if seed is not None:
        sc = sc.model_copy(update={"seed": seed})
    trace = resolve(sc, roller=SeededRoller(sc.seed) if reroll else None, rulings=_parse_rulings(ruling))
    if as_json:
        typer.echo(json.dumps(trace.to_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(trace.to_text())
        typer.echo("")
        typer.echo(_outcome_text(trace.outcome))


def _outcome_text(o: dict) -> str:
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


def scenarios_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the built-in TAG Raid scenarios."""
    from .games.tagraid.scenarios import DEFAULT_SCENARIO, list_scenarios

    items = list_scenarios()
    if as_json:
        typer.echo(json.dumps(items, indent=2, ensure_ascii=False))
        return
    width = max(len(s["name"]) for s in items)
    for s in items:
        star = "*" if s["name"] == DEFAULT_SCENARIO else " "
        typer.echo(f"{star} {s['name']:<{width}}  {s['title']}")
    typer.echo(f"\n(* = default: {DEFAULT_SCENARIO}; resolve one with `explorer resolve <name>`)")


def register(app: typer.Typer) -> None:
    """Add ``resolve`` and ``scenarios`` to the CLI app."""
    app.command("resolve")(resolve_command)
    app.command("scenarios")(scenarios_command)
