"""TAG Raid behind the game registry (:mod:`explorer.games`): its scenarios, ruling options, pages and CLI verbs.

Sections: every section the roll engine (:mod:`.resolve`) and the Line of Fire explorer (:mod:`.lof`) cite; this
module only wires them to the uniform surface.
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.games import Game, Page
from explorer.trace import Trace

from .words import states_text


def _parse(data: dict, source: str):
    """Dispatch on the top-level ``kind``: ``"order"`` (a whole Order on a table: :mod:`.orders.orderfile`),
    ``"round"`` (a whole Game Round replayed from its declarations: :mod:`.orders.roundfile`),
    ``"table"`` (one shooter's Line of Fire verdicts: :mod:`.table_scenario`; a table file without ``kind`` too) or
    ``"roll"`` / absent (a roll exchange: :mod:`.model`)."""
    # a table file (``models``, no roll-scenario ``active`` Miner) needs no ``kind``; :func:`.table_scenario.
    # is_table_document` says the same, but importing it here would cost every roll scenario its start time
    kind = data.get("kind", "table" if "models" in data and "active" not in data else "roll")
    if kind == "order":
        from .orders.orderfile import parse_order

        return parse_order(data, source)
    if kind == "round":
        from .orders.roundfile import parse_round

        return parse_round(data, source)
    if kind == "table":
        from .table_scenario import parse_table

        return parse_table(data, source)
    if kind != "roll":
        from explorer.errors import ScenarioError, short_repr

        raise ScenarioError("kind", f"unknown scenario kind {short_repr(kind)}", ["roll", "order", "round", "table"], source)
    from .model import parse_scenario

    return parse_scenario({k: v for k, v in data.items() if k != "kind"}, source)


def _resolve(scenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
             reroll: bool = False) -> Trace:
    """Resolve a roll scenario (:func:`.resolve.resolve`) or play an Order (:func:`.orders.orderfile.resolve_order`):
    ``seed`` replaces the scenario's seed; ``reroll`` ignores its fixed dice and rolls every die from the seed."""
    from explorer.dice import SeededRoller

    kind = type(scenario).__name__  # no isinstance: importing the Order and table modules costs CLI start time
    if kind == "TableScenario":
        from .table_scenario import resolve_table

        return resolve_table(scenario, rulings, seed)
    if kind == "RoundScenario":
        from .orders.roundfile import resolve_round

        if reroll:
            from dataclasses import replace

            d = scenario.declarations
            scenario = replace(scenario, declarations=replace(d, orders=tuple(
                (od, replace(dice, rolls=(), saves=(), respawn=())) for od, dice in d.orders)))
        return resolve_round(scenario, rulings, seed)
    if kind == "OrderScenario":
        from .orders.orderfile import resolve_order

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
    if "verdicts" in o and "shooter" in o:
        from .table_scenario import outcome_text as table_text

        return table_text(trace)
    if "events_left" in o and "orders_played" in o:  # a whole Round (kind = "round")
        from .orders.roundfile import round_outcome_text

        return round_outcome_text(o)
    if "aro_rights" in o:  # a whole Order (kind = "order")
        from .orders.orderfile import order_outcome_text

        return order_outcome_text(o)
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
    states = states_text(o)
    if states is not None:
        lines.append("  States gained: " + states)
    return "\n".join(lines)


def picture(scenario, trace: Trace) -> str | None:
    """A roll scenario has no table to draw: ``None``. A table scenario (``kind = "table"``) draws the shooter's
    verdicts (:func:`.lof_picture.table_picture`). An Order (``kind = "order"``) draws its table after the Order, with
    the Move routes and every ARO right where it appeared (:func:`.orders_svg.order_svg`; the steps before a refused
    declaration). A Round (``kind = "round"``) draws the table it leaves (the last table before a refused
    declaration)."""
    kind = type(scenario).__name__
    if kind == "TableScenario":
        from .lof_picture import table_picture

        return table_picture(scenario)
    if kind == "RoundScenario":
        from .orders.round import play_round_until_rejected
        from .orders.roundfile import with_rulings
        from .orders_svg import order_svg

        sc = with_rulings(scenario, trace.rulings)
        frames, _ = play_round_until_rejected(sc.initial, sc.declarations)
        if not frames:
            return order_svg(sc.initial.table, 0, title=scenario.title)
        return order_svg(frames[-1].state.table, 0, title=scenario.title)
    if kind == "OrderScenario":
        from dataclasses import replace

        from .orders.sequence import play_until_rejected
        from .orders_svg import order_svg

        initial = replace(scenario.initial, rulings=tuple(sorted({**dict(scenario.initial.rulings),
                                                                  **dict(trace.rulings)}.items())))
        frames, _ = play_until_rejected(initial, scenario.declarations, scenario.dice)
        if not frames:
            return None
        return order_svg(frames[-1].state, len(frames), title=scenario.title)
    draw = getattr(scenario, "_repr_svg_", None)
    return draw() if callable(draw) else None


def _face_to_face_page(game: Game):
    return _face_to_face_open(game, game.page_default("face-to-face"))


def _face_to_face_open(game: Game, name: str):
    from .views import explorer_for_scenario

    w = explorer_for_scenario(name, game=game)
    return w, w.redraw


def _line_of_fire_page(game: Game):
    from .lof_views import LofExplorer

    lof = LofExplorer()
    return lof, lof.redraw


def _line_of_fire_open(game: Game, name: str):
    """The Line of Fire page on a table scenario (``kind = "table"``, e.g. ``tr-22``): its table, shooter and
    readings (the scenario's ``[rulings]`` over the table file's)."""
    from .lof_views import LofExplorer, scenario_from_table

    sc = game.load_builtin(name)
    lof = LofExplorer(scenario_from_table(sc.loaded, sc.shooter), rulings=dict(sc.rulings))
    lof.note.show(name, *game.builtin_verdict(name), state=lof.url_state())
    return lof, lof.redraw


def _orders_page(game: Game):
    return _orders_open(game, game.page_default("orders"))


def _orders_open(game: Game, name: str):
    from .orders_views import order_page

    return order_page(name, game=game)


def _cli():
    from .cli_odds import cli_app

    return cli_app()


def _named():
    """The packaged table files (``tables/*.toml``: the Line of Fire page's ``lof-quarry``, ``lof-demo``, the table of
    TR-22) by name, so that ``explorer resolve lof-quarry`` opens one as the page does; their titles are read with
    the standard library (no scenario models are built to list them)."""
    import tomllib
    from importlib import resources

    from explorer.games import NamedFile

    out = []  # the package is table_file.TABLES_PACKAGE, named here so as not to import shapely to list names
    for f in sorted(resources.files("explorer.games.tagraid.tables").iterdir(), key=lambda p: p.name):
        if f.name.endswith(".toml"):
            name = f.name[:-5]
            title = str(tomllib.loads(f.read_text(encoding="utf-8")).get("title", "") or name)
            out.append(NamedFile(name, title, "packaged tables (also `explorer tagraid lof NAME`, the Line of Fire "
                                              "page)", {"kind": "table", "table": name}))
    return tuple(out)


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
             "Wounds, each step citing its section.", _face_to_face_page, kinds=('',), open=_face_to_face_open,
             default="book-f2f-1v1"),
        Page("line-of-fire", "Line of Fire",
             "Click a Model to see every Model it has Line of Fire to, what blocks the others, Range bands, "
             "Partial Cover and the MegaBeast's Threat Level by side.", _line_of_fire_page, kinds=("table",),
             open=_line_of_fire_open),
        Page("orders", "Order Expenditure Sequence",
             "A whole Order step by step: draw the Active Miner's Move, declare its Skills and the AROs, see who may "
             "react at step 2 or step 4 and why, resolve with rolled or hand-set dice, go back and forward, "
             "through the steps and through the Orders of a Round.",
             _orders_page, kinds=("order", "round"), open=_orders_open,
             default="tr-order-corner"),
    ),
    cli=_cli,
    named=_named,
    outcome_text=outcome_text,
    picture=picture,
    scenario_order=("book-f2f-1v1", "book-normal-roll", "book-f2f-and-normal", "book-two-f2f", "book-stoorworm"),
)
"""The TAG Raid entry of the registry."""
