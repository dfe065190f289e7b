"""``explorer masseffect ...``: the Mass Effect verbs beside the registry's ``scenarios | resolve | rulings``.

Sections: Playing a Mission › Squadmate Phase › Step A: Strategy Roll, Core Abilities, Action Spaces; Additional
Rules › Paragon Dice and Renegade Tokens.

Examples::

    explorer masseffect strategy-odds --pool 6 --locked enhanced
    explorer masseffect strategy-odds --pool 12 --paragon 1 --json --ruling paragon_core_icon=rerolled_without_trigger
    explorer masseffect step me-round-1 --at 12
"""

from __future__ import annotations

import click

from explorer.cli_numbers import PlainInt, check_step, seed_option


def _int(value: str, option: str, lo: int, hi: int) -> int:
    from explorer.errors import ScenarioError

    from explorer.cli_numbers import is_plain_int

    n = int(value) if is_plain_int(value) else None
    if n is None:
        raise ScenarioError(option, f"{value[:20]!r} is not a whole number", f"a whole number from {lo} to {hi}")
    if not lo <= n <= hi:
        raise ScenarioError(option, f"{n} is out of range", f"a whole number from {lo} to {hi}")
    return n


@click.command("strategy-odds")
@click.option("--pool", default="12", help="Strategy dice in the Pool, the Locked die included (1..12).")
@click.option("--locked", default=None, help="Face of the die Locked from the previous player (move_2, move_3, "
                                             "standard, enhanced, move_2_or_standard, core; whether a Locked die "
                                             "can show the Core Ability icon is the ruling locked_die_icon).")
@click.option("--paragon", default="0", help="Paragon dice added to the Pool, beside its Strategy dice (0..2).")
@click.option("--ruling", multiple=True, help="key=reading (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON (each probability exact and as a float).")
def strategy_odds(pool: str, locked: str | None, paragon: str, ruling: tuple[str, ...], as_json: bool) -> None:
    """Exact odds of what a Strategy Roll leaves the current Squadmate, after every Core Ability trigger and re-roll."""
    from explorer.games import get_game, parse_rulings

    from .options import rulings as make_rulings
    from .strategy import STRATEGY_DICE
    from .strategy_odds import PARAGON_DICE_MAX, pool_text, strategy_odds_table

    from explorer.errors import ScenarioError

    from .strategy import Face

    r = make_rulings(parse_rulings(list(ruling), [get_game("masseffect")]))
    if locked is not None and locked not in {f.value for f in Face}:
        raise ScenarioError("--locked", f"unknown face {locked[:40]!r}", [f.value for f in Face])
    table = strategy_odds_table(_int(pool, "--pool", 1, STRATEGY_DICE), locked,
                                paragon=_int(paragon, "--paragon", 0, PARAGON_DICE_MAX), rulings=r)
    if as_json:
        import json   # only for --json: a text answer needs no JSON encoder

        click.echo(json.dumps(table, indent=2))
        return
    click.echo(f"Strategy Roll of a {pool_text(table)}  [Mass Effect: Step A: Strategy Roll; Core Abilities]")
    click.echo("")
    from fractions import Fraction

    from explorer.text import percent

    from .strategy import FACE_LABELS

    names = {f.value: FACE_LABELS[f] for f in Face}
    width = max(len(names.get(k, k)) for k in table["faces"])
    click.echo(f"  {'face':<{width}} expected dice   P(at least one)")
    for face, v in table["faces"].items():
        click.echo(f"  {names.get(face, face):<{width}} {v['expected_count']['float']:>13.3f}   "
                   f"{percent(v['p_at_least_one']['exact'], 1):>15}")
    click.echo("")
    click.echo(f"  P(fill Move + Standard + Enhanced):     {percent(table['p_fill_move_standard_enhanced']['exact'])}  "
               f"(exact {table['p_fill_move_standard_enhanced']['exact']})")
    click.echo(f"  P(fill Standard + Standard + Enhanced): "
               f"{percent(table['p_fill_standard_standard_enhanced']['exact'])}")
    t = table["triggers"]
    shown = list(t["pmf"].items())[:5]
    rest = 1 - sum(Fraction(v["exact"]) for _, v in shown)  # the rows not shown, so that the rows sum to 100 %
    rows = [f"P({k})={percent(v['exact'])}" for k, v in shown] + ([f"P({len(shown)}+)={percent(rest)}"] if rest else [])
    click.echo(f"  Core Ability triggers: expected {t['expected']['float']:.3f}; " + ", ".join(rows))
    click.echo("\nRuling options used: " + ", ".join(f"{k}={v}" for k, v in sorted(r.consulted.items())))


@click.command("step", epilog="SCENARIO is a built-in round id (me-round-1, me-round-loot, ...) or a round TOML "
                             "file.")
@click.argument("scenario")
@click.option("--at", "at", type=PlainInt(), default=1, help="The cited step to show (1 = the first; counted as in "
              "`explorer resolve`).")
@click.option("--seed", type=seed_option(), default=None, help="Seed for the Strategy Roll faces the file does not fix.")
@click.option("--ruling", multiple=True, help="key=reading (repeatable).")
def step(scenario: str, at: int, seed: int | None, ruling: tuple[str, ...]) -> None:
    """A round scenario at one cited step: the step and its rule, each Squadmate's sheet (Shield and Hit Points,
    Downed, XP, the Action Spaces holding a die, the Hazard card dealt), the Enemies, the Strategy Pool, the Hazard
    deck, Loot and Inventory, the Objectives. The board is shown as the step's phase or piece of a turn (an Action, a
    Hazard card task...) leaves it. Step back or forward with --at (the play is replayed from the file each time)."""
    from explorer.errors import ScenarioError, naming_source
    from explorer.games import get_game, load_any, parse_rulings

    from .round_view import position_text, round_positions

    game, sc = load_any(scenario)
    if game.id != "masseffect" or sc[0] != "round":
        raise ScenarioError("scenario", f"{scenario!r} is not a Mass Effect round scenario",
                            'a round scenario (kind = "round")')
    readings = parse_rulings(list(ruling), [get_game("masseffect")])
    with naming_source(scenario):   # a refusal while playing names the file, as one while loading does
        positions = round_positions(sc[1], readings, seed)
    check_step(at, len(positions), scenario)
    click.echo(position_text(positions[at - 1], at, len(positions)))


def cli_app() -> click.Group:
    """The Mass Effect verbs."""
    return click.Group("masseffect", commands=[strategy_odds, step],
                       help="Mass Effect: Priority Hagalaz: Strategy Pool odds, a Round step by step (more under `explorer resolve`).")
