"""TAG Raid behind the game registry (:mod:`explorer.games`): its scenarios, ruling options, pages and CLI verbs.

Sections: every section the roll engine (:mod:`.resolve`) and the Line of Fire explorer (:mod:`.lof`) cite; this
module only wires them to the uniform surface.
"""

from __future__ import annotations

from collections.abc import Mapping
import dataclasses
from typing import TYPE_CHECKING

from explorer.errors import ScenarioError

from explorer.games import Game, Kinds, Page

from .words import states_text

if TYPE_CHECKING:   # annotations only: a game's odds verb makes no trace
    from explorer.trace import Step, Trace


KINDS: dict[str, tuple[str, str]] = {
    "roll": ("explorer.games.tagraid.game", "roll"),
    "order": ("explorer.games.tagraid.orders.orderfile", "order"),
    "round": ("explorer.games.tagraid.orders.roundfile", "round"),
    "match": ("explorer.games.tagraid.orders.matchfile", "match"),
    "table": ("explorer.games.tagraid.table_scenario", "table"),
}
"""``{scenario kind: (rules module, name)}``: ``"roll"`` a roll exchange (:mod:`.model`, resolved by :mod:`.resolve`),
``"order"`` a whole Order on a table (:mod:`.orders.orderfile`), ``"round"`` a whole Game Round replayed from its
declarations (:mod:`.orders.roundfile`), ``"match"`` a whole match, Initial Deployment then Rounds
(:mod:`.orders.matchfile`), ``"table"`` one shooter's Line of Fire verdicts (:mod:`.table_scenario`).
Each module defines ``parse_<name>`` and ``resolve_<name>``; each parsed scenario names its kind (``.kind``)."""


def default_kind(data) -> str:
    """The kind of a TAG Raid document without ``kind`` (the formats older than the kinds): a table file (``models``,
    no roll-scenario ``active`` Miner) is ``"table"``, anything else a roll exchange, ``"roll"``.
    (:func:`.table_scenario.is_table_document` says the same, but importing it here would cost every roll scenario
    its start time.)"""
    return "table" if "models" in data and "active" not in data else "roll"


_KINDS = Kinds("tagraid", "TAG Raid", KINDS, default_kind=default_kind, tagged=True, reroll=True)


def parse_roll(data: dict, source: str):
    """A roll exchange (:func:`.model.parse_scenario`; the document's ``game`` and ``kind`` are not its fields)."""
    from .model import parse_scenario

    return parse_scenario({k: v for k, v in data.items() if k not in ("game", "kind")}, source)


def resolve_roll(scenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
                 reroll: bool = False) -> Trace:
    """Resolve a roll exchange (:func:`.resolve.resolve`): ``seed`` replaces the scenario's seed; ``reroll``
    ignores its fixed dice and rolls every die from the seed. Fixed dice are exact (``exact_dice``: a list gives the
    dice its roll uses, issue #25 item 4), with one allowance so that old files keep working: spare Saving Roll
    faces (``save_dice`` longer than the Saving Rolls made, as the Roll page's Download wrote them before it wrote
    exactly the dice used) are accepted, and the trace ends with a one-line step naming the field and the faces never
    rolled (:func:`spare_saves_step`). Every other refusal stands.

    Raises:
        ScenarioError: as :func:`.resolve.resolve` with ``exact_dice``, except for spare ``save_dice`` faces.
    """
    from explorer.dice import SeededRoller

    from .resolve import resolve

    if seed is not None:
        scenario = scenario.model_copy(update={"seed": seed})
    roller = SeededRoller(scenario.seed) if reroll else None
    try:
        return resolve(scenario, roller=roller, rulings=dict(rulings or {}), exact_dice=True)
    except ScenarioError as e:
        if not e.field.endswith("save_dice"):
            raise
        trace = resolve(scenario, roller=roller, rulings=dict(rulings or {}))
        trace.steps.append(spare_saves_step(e))
        return trace


def is_roll(scenario) -> bool:
    """A roll exchange (``kind = "roll"``): :func:`resolve_roll`, :func:`roll_outcome_text` and the dice tray read
    it as plain fields, so ``explorer resolve`` takes a cached built-in as its pydantic-free snapshot
    (:attr:`explorer.games.Game.plain`). The other kinds keep their models (a table's Models and board are read by
    methods)."""
    return getattr(scenario, "kind", None) == "roll"


def spare_saves_step(refusal: ScenarioError) -> Step:
    """The step an old roll file's spare Saving Roll faces add to its trace: the field and what the exact rule says
    (``refusal``: the :class:`~explorer.errors.ScenarioError` the exact check raised)."""
    from explorer.trace import Step

    from . import sections as S

    return Step(f"Warning: field '{refusal.field}' gives spare Saving Roll faces, never rolled: ignored",
                S.SAVING_ROLL, f"{refusal.problem}. Accepted so that files written by an older Roll page Download "
                "keep working; a file now gives exactly the Saving Roll faces rolled.",
                {"field": refusal.field, "spare_faces": True}, (), "Dice")


def _order_sequences() -> dict:
    """The Order and Round sequences (:mod:`explorer.kernel` sequences of step functions over frozen state):
    Activating a Miner › Order Expenditure Sequence (:data:`.orders.sequence.STEPS`) and Game Sequence › Game Round
    (:data:`.orders.round.ROUND_STEPS`, whose Players Phase plays whole Orders) and a whole match
    (:data:`.orders.match.MATCH_STEPS`: Initial Deployment player by player, then Round by Round)."""
    from .orders.match import MATCH_STEPS
    from .orders.round import ROUND_STEPS
    from .orders.sequence import STEPS

    return {"Order Expenditure Sequence": STEPS, "Game Round": ROUND_STEPS, "Match": MATCH_STEPS}


def _sequences() -> dict:
    """Every rule sequence of TAG Raid, by name (:attr:`explorer.games.Game.sequences`): the roll resolution and the
    Order and Round sequences."""
    from .resolve import roll_sequences

    return {**roll_sequences(), **_order_sequences()}


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def outcome_text(trace: Trace) -> str:
    """The outcome of a resolved scenario in plain text, from its typed ``trace.result``: a table's, an Order's or a
    Round's (their own outcome text), a roll exchange's (:func:`roll_outcome_text`). A roll exchange is asked first:
    its outcome type is the resolver's own, already imported, and the others' module (``outcomes.py``, which brings the
    Line of Fire words) is then not imported at all."""
    from .resolve import RollOutcome

    if isinstance(trace.result, RollOutcome):
        return roll_outcome_text(trace.result)
    from .outcomes import MatchOutcome, OrderOutcome, RoundOutcome, TableOutcome

    if isinstance(trace.result, (OrderOutcome, RoundOutcome, MatchOutcome, TableOutcome)):  # order, round, match, table
        return trace.result.text()
    from explorer.games import outcome_text as plain

    return plain(trace)  # a trace without a typed outcome: its JSON


def roll_outcome_text(o) -> str:
    """The outcome of a roll exchange (a :class:`.resolve.RollOutcome`, ``trace.result`` of :func:`.resolve.resolve`)
    in plain text: winner per pair, Saving Rolls, Wounds lost, Death, Neomaterials, Evade movement, States."""
    lines = ["Outcome:"]
    for p in o.pairs:
        who = f"{p.active} vs {p.opponent}" if p.opponent else p.active
        lines.append(f"  - {who}: {p.kind.replace('_', ' ')}, winner {p.winner or 'none'}")
    lost = {k: v for k, v in o.wounds.items() if v}
    if o.saving_rolls:
        lines.append("  Saving Rolls: " + ", ".join(f"{k} {v}" for k, v in o.saving_rolls.items()))
    lines.append("  Wounds lost: " + (", ".join(f"{k} {v}" for k, v in lost.items()) or "none"))
    if o.dead:
        lines.append("  Dead: " + ", ".join(o.dead))
    gains = [f"{k} +{v} Teseum" for k, v in o.teseum.items() if v]
    gains += [f"{k} +{v} T-Bezoar" for k, v in o.t_bezoar.items() if v]
    if gains:
        lines.append("  Neomaterials: " + ", ".join(gains))
    if o.evade_moves:
        lines.append("  May move one Segment (Evade): " + ", ".join(o.evade_moves))
    states = states_text(o.states)
    if states is not None:
        lines.append("  States gained: " + states)
    return "\n".join(lines)


def picture(scenario, trace: Trace) -> str | None:
    """A roll scenario (``kind = "roll"`` or none) draws its dice tray: every Miner's dice with their result (failure,
    success, Critical), the cancellation links, the survivors, the MegaBeast's Threat Level and the Saving Rolls, from the
    engine's :class:`~.resolve.Resolution` under the trace's rulings (:func:`explorer.render.dice_svg.tray_svg`, the
    geometry of the app's tray). A table scenario (``kind = "table"``) draws the shooter's
    verdicts (:func:`.lof_picture.table_picture`). An Order (``kind = "order"``) draws its table after the Order, with
    the Move routes and every ARO right where it appeared (:func:`.orders_svg.order_svg`; the steps before a refused
    declaration). A Round (``kind = "round"``) draws the table it leaves (the last table before a refused
    declaration). A match (``kind = "match"``) draws the table it leaves likewise."""
    if scenario.kind == "match":
        from .orders.match import play_match_until_refused
        from .orders.matchfile import with_rulings as match_rulings
        from .orders_svg import order_svg

        sc = match_rulings(scenario, trace.rulings)
        frames, _ = play_match_until_refused(sc.table, sc.context)
        return order_svg(frames[-1].state.table if frames else sc.table, 0, title=scenario.title)
    if scenario.kind == "table":
        from .lof_picture import table_picture

        return table_picture(scenario)
    if scenario.kind == "round":
        from .orders.round import play_round_until_refused
        from .orders.roundfile import with_rulings
        from .orders_svg import order_svg

        sc = with_rulings(scenario, trace.rulings)
        try:
            frames, _ = play_round_until_refused(sc.initial, sc.declarations)
        except ScenarioError as e:  # the file's fixed dice do not fit: the trace was played with --reroll
            if ".dice." not in e.field:
                raise
            d = sc.declarations
            sc = dataclasses.replace(sc, declarations=dataclasses.replace(d, orders=tuple(
                (od, dataclasses.replace(dice, rolls=(), saves=(), respawn=())) for od, dice in d.orders)))
            frames, _ = play_round_until_refused(sc.initial, sc.declarations)
        if not frames:
            return order_svg(sc.initial.table, 0, title=scenario.title)
        return order_svg(frames[-1].state.table, 0, title=scenario.title)
    if scenario.kind == "order":
        from dataclasses import replace

        from .orders.sequence import play_until_refused
        from .orders_svg import order_svg

        initial = replace(scenario.initial, rulings=tuple(sorted({**dict(scenario.initial.rulings),
                                                                  **dict(trace.rulings)}.items())))
        try:
            frames, _ = play_until_refused(initial, scenario.declarations, scenario.dice)
        except ScenarioError:  # the file's fixed dice do not fit (a re-rolled trace never read them): the seed's
            frames, _ = play_until_refused(initial, scenario.declarations,
                                           replace(scenario.dice, rolls=(), saves=(), respawn=()))
        if not frames:
            return None
        return order_svg(frames[-1].state, len(frames), title=scenario.title)
    if scenario.kind in ("", "roll"):
        from explorer.render.dice_svg import tray_svg

        from .orders_views import tray_rows
        from .resolve import resolve_detailed

        rows, links = tray_rows(resolve_detailed(scenario, rulings=dict(trace.rulings)))
        return tray_svg(rows, links, scenario.title)
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
                                              "page)", {"kind": "table", "table": name},
                                 package="explorer.games.tagraid.tables"))
    return tuple(out)


GAME = Game(
    id="tagraid",
    title="Infinity Deathmatch: TAG Raid",
    rulebook="infinity-tag-raid.txt",
    package="explorer.games.tagraid",
    default_scenario="book-f2f-1v1",
    parse=_KINDS.parse,
    resolve=_KINDS.resolve,
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
             _orders_page, kinds=("order", "round", "match"), open=_orders_open,
             default="tr-order-corner"),
    ),
    cli=_cli,
    named=_named,
    outcome_text=outcome_text,
    picture=picture,
    sequences=_sequences,
    plain=is_roll,
    scenario_order=("book-f2f-1v1", "book-normal-roll", "book-f2f-and-normal", "book-two-f2f", "book-stoorworm"),
)
"""The TAG Raid entry of the registry."""
