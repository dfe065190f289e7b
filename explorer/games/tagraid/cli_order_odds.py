"""``explorer tagraid order-odds FILE``: exact odds of a whole Order as declared (issue 22, item 7).

FILE is an order file (``kind = "order"``) or a built-in Order's name. The Order is played up to Resolution (the
board decides every fact), then :func:`explorer.games.tagraid.order_odds.order_odds` gives the exact joint
distribution of the roll exchange: who wins each pair, and the Wounds lost and Deaths of every Miner. Fixed dice in
the file are ignored (odds are over every face). With the MegaBeast in the exchange, its Threat Level is its roll and
its Wounds are listed after the Miners'. Text by default, ``--json`` for the numbers, ``--exact`` for
fractions.

Sections: Activating a Miner › Order Expenditure Sequence, step 5; Rolls › Face to Face Rolls, Normal Roll; Damage ›
Saving Roll; Death. Errors: one line naming the file and the field (exit code 2).
"""

from __future__ import annotations

from pathlib import Path

import click

from explorer.text import plural
from explorer.errors import ScenarioError, naming_source

from .order_odds_words import pair_words, roll_name, winners


def load_order(name_or_path: str):
    """An order file by path, or a built-in Order by name.

    Raises:
        ScenarioError: no such file nor built-in, an invalid file, or a file of another kind.
    """
    from explorer.games import get_game
    from explorer.scenario import read_toml

    g = get_game("tagraid")
    if Path(name_or_path).exists() or name_or_path not in g.builtin_names():
        try:
            data = read_toml(name_or_path)
        except ScenarioError as e:
            if not e.problem.startswith("file not found"):
                raise
            orders = [n for n in g.builtin_names() if _is_order(g, n)]
            raise ScenarioError("", f"file not found, and no built-in Order is named {name_or_path!r:.80}",
                                "the path of an order file (kind = \"order\") or a built-in Order: "
                                + ", ".join(orders), name_or_path) from None
        sc = g.parse_data(data, name_or_path)
    else:
        sc = g.load_builtin(name_or_path)
    if getattr(sc, "kind", None) != "order":
        raise ScenarioError("kind", f"is a {getattr(sc, 'kind', 'roll')!r} scenario, not an Order",
                            "an order file (kind = \"order\") or a built-in Order", name_or_path)
    return sc


def _is_order(g, name: str) -> bool:
    """Whether the built-in ``name`` is an Order (``kind = "order"``), read from its first lines."""
    return any(line.replace(" ", "") == 'kind="order"' for line in g.scenario_text(name).splitlines()[:12])


def _pct(p) -> str:
    from explorer.text import percent

    return percent(p, 2)


@click.command("order-odds", epilog="\b\nFILE is an order file (kind = \"order\") or a built-in Order's name\n"
               "(tr-order-range, tr-order-corner, tr-34, ...).")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of text")
@click.option("--exact", is_flag=True, help="fractions instead of floats")
@click.option("--ruling", "rulings", multiple=True, metavar="KEY=READING", help="a ruling option reading (repeat)")
def order_odds_cmd(file: str, as_json: bool, exact: bool, rulings: tuple[str, ...]) -> None:
    """Exact odds of a whole Order: who wins each pair, Wounds and Deaths of every Miner."""
    from .order_odds import order_odds

    given = {}
    for r in rulings:
        k, sep, v = r.partition("=")
        if not sep:
            raise ScenarioError("--ruling", f"{r[:80]!r} is not KEY=READING", "KEY=READING, e.g. lof_grazing="
                                "touching_blocks")
        given[k.strip()] = v.strip()
    if given:   # checked before the file's gate: a bad --ruling names the option, not the file
        from .options import rulings as check_rulings

        try:
            check_rulings(given)
        except ScenarioError as e:
            raise ScenarioError("--ruling", f"{e.field.removeprefix('rulings.')}: {e.problem}", e.allowed) from None
    order = load_order(file)
    with naming_source(file):   # a refusal while resolving names the file, as one while loading does
        o = order_odds(order, given or None, exact=exact)
    if as_json:
        import json   # only for --json: a text answer needs no JSON encoder

        click.echo(json.dumps(o.to_dict(), indent=2, ensure_ascii=False))
        return
    click.echo(f"Exact odds of the Order in {file} ({len(o.joint)} outcomes of the whole exchange)")
    for i, p in enumerate(o.pairs):
        odds = ", ".join(f"{w if w is not None else 'nobody'} {_pct(v)}" for w, v in winners(o, i))
        click.echo(f"  {roll_name(p)}: {pair_words(p)}: {odds}")
    for m, wb in zip(o.miners, o.wounds_before):
        dist = ", ".join(f"{k}: {_pct(v)}" for k, v in enumerate(o.wounds(m)) if v)
        dies = "is killed" if m == o.megabeast else "dies"
        click.echo(f"  {m} ({plural(wb, 'Wound')} left) loses {dist}; {dies} {_pct(o.p_dies(m))}")
    click.echo("Readings: " + (", ".join(f"{k} = {v}" for k, v in sorted(o.rulings.items())) or "none"))
