"""Mass Effect: Priority Hagalaz behind the game registry (:mod:`explorer.games`).

A Mass Effect scenario file names its ``kind``; each kind is resolved by one rules module:

==============  =========================  ==============================================================================
kind            module                     what it answers (sections)
==============  =========================  ==============================================================================
``map``         :mod:`.queries`            adjacency, distances, "within N", Line of Fire (Interacting with the Mission Map)
``strategy``    :mod:`.strategy_scenario`  a Strategy Roll, its Core Ability triggers and re-rolls, its odds (Step A)
``damage``      :mod:`.damage`             Squadmate Damage, Damaging Enemies, Elites' Resilience Tracker, End Phase
``activation``  :mod:`.activation`         a Hazard card's enemy activations: targets, Attack or Advance (Step C)
``round``       :mod:`.round`              a whole Round: Preparation, each Squadmate's turn, End Phase (Sequence of Play)
==============  =========================  ==============================================================================

Each module exposes ``parse_<name>(data, source)`` and ``resolve_<name>(scenario, rulings, seed) -> Trace``
(:data:`KINDS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.games import Game, Kinds, Page

if TYPE_CHECKING:   # annotations only: a game's odds verb makes no trace
    from explorer.trace import Trace

KINDS: dict[str, tuple[str, str]] = {
    "map": ("explorer.games.masseffect.queries", "map_query"),
    "strategy": ("explorer.games.masseffect.strategy_scenario", "strategy"),
    "damage": ("explorer.games.masseffect.damage", "damage"),
    "activation": ("explorer.games.masseffect.activation", "activation"),
    "round": ("explorer.games.masseffect.round", "round"),
}
"""``{scenario kind: (rules module, name)}``; the module defines ``parse_<name>`` and ``resolve_<name>``."""

_KINDS = Kinds("masseffect", "Mass Effect", KINDS)


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def outcome_text(trace: Trace) -> str:
    """The verdict first, then the key numbers, for every kind (:func:`.outcome.outcome_text`). A map question's
    is asked for first (:func:`.map_outcome.map_text`, the same lines), so its text loads none of the other kinds'
    outcomes."""
    from .map_results import MapOutcome

    if isinstance(trace.result, MapOutcome):
        from .map_outcome import map_text

        return "\n".join(map_text(trace.result))
    from .outcome import outcome_text as text

    return text(trace)


def picture(scenario, trace: Trace) -> str | None:
    """SVG of a ``map`` scenario (the Mission Map with its characters) or an ``activation``, ``round`` or ``damage``
    on a map scenario (the map with every character where the scenario leaves it: the typed ``trace.result``), drawn
    by :func:`.map_svg.render_map`; a ``strategy`` scenario draws its Strategy Pool as a dice tray
    (:func:`.strategy_picture.strategy_picture`); a ``damage`` scenario without a map draws its Squadmates' and
    Enemies' trackers (:func:`.damage_picture.damage_picture`)."""
    from explorer.hexgrid import Hex

    from .map_svg import render_map

    kind, sc = scenario
    if kind == "strategy":
        from .strategy_picture import strategy_picture

        return strategy_picture(getattr(sc, "title", "") or "", trace)
    if kind == "map":
        chars = {name: (h, side) for name, (h, side, _tags) in sc.placements.items()}
        return render_map(sc.mission_map, characters=chars)
    if kind in ("activation", "round") or (kind == "damage" and sc.map is not None):
        from .map import load_map, map_from_dict

        m = load_map(sc.map) if isinstance(sc.map, str) else map_from_dict(sc.map, "scenario")
        chars: dict[str, tuple[Hex, str]] = {}
        o = trace.result
        for side, units in (("squadmate", o.squadmates), ("enemy", o.enemies)):
            for u in units:
                try:
                    chars[u.name] = (Hex.parse(str(u.hex)), side)
                except ValueError:  # off the map (returned to the Enemy Bag)
                    continue
        return render_map(m, characters=chars)
    if kind == "damage":
        from .damage_picture import damage_picture

        return damage_picture(sc, trace)
    return None


def _map_page(game: Game):
    return _map_open(game, game.page_default("mission-map"))


def _activation_page(game: Game):
    return _activation_open(game, game.page_default("enemy-activation"))


def _map_open(game: Game, name: str):
    from .map_views import map_page

    return map_page(name, game=game)


def _activation_open(game: Game, name: str):
    from .activation_views import activation_page

    return activation_page(name, game=game)


def _strategy_page(game: Game):
    return _strategy_open(game, game.page_default("strategy-pool"))


def _strategy_open(game: Game, name: str):
    from .strategy_views import strategy_open

    return strategy_open(name, game=game)


def _round_open(game: Game, name: str):
    from .round_views import round_page

    return round_page(name, game)


def _sequences():
    """Every rule sequence of the game as the kernel plays it (:mod:`explorer.kernel`): ``map`` (the questions one
    after another), ``damage`` (the file's events
    one after another: Damaging Enemies, Squadmate Damage, Elites, End Phase...), ``activation`` (start of the
    Round, Step B: Move, Step C: Hazard Card, end of the turn), ``strategy`` (Preparation Phase, Lock, the
    Strategy Roll and its Core Ability rounds, Step B: Actions) and ``round`` (one Round; a file with ``rounds`` > 1
    plays Round after Round)."""
    from .activation import ACTIVATION_SEQUENCE
    from .damage import DAMAGE_SEQUENCE
    from .queries import MAP_SEQUENCE
    from .round import ROUND_SEQUENCE, ROUNDS_SEQUENCE
    from .strategy import STRATEGY_SEQUENCE

    return {"map": MAP_SEQUENCE, "strategy": STRATEGY_SEQUENCE, "damage": DAMAGE_SEQUENCE,
            "activation": ACTIVATION_SEQUENCE, "round": ROUND_SEQUENCE, "round (several Rounds)": ROUNDS_SEQUENCE}


def is_map_query(scenario) -> bool:
    """A ``map`` scenario (the diagrams and map questions): its parsed value (:class:`.queries.MapQuery`) is frozen
    plain values that the resolver, outcome text and picture read as fields, so ``explorer resolve`` takes a cached
    built-in from the parse cache without pydantic (:attr:`explorer.games.Game.plain`, :mod:`explorer.plain`). The
    other kinds keep their models."""
    return scenario[0] == "map"


def _cli():
    from .cli import cli_app

    return cli_app()


PAGES: tuple[Page, ...] = (
    Page("mission-map", "Mission Map",
         "Click a character to see its six Line of Fire lines (what blocks each and why), a distance heat map that "
         "respects walls and locked doors, and the hexes adjacent to it.", _map_page, kinds=('map',), open=_map_open,
         default="me-diagram-4"),
    Page("enemy-activation", "Enemy Activation",
         "Step through a Hazard card: which Enemy Activates first, every candidate target and every reachable end hex "
         "with the rule that keeps or drops it, then the choice; flip ruling options and break ties yourself.",
         _activation_page, kinds=('activation',), open=_activation_open,
         default="me-hazard-spawn-rush"),
    Page("strategy-pool", "Strategy Pool",
         "Roll or set the Strategy dice, watch the Core Ability triggers and re-rolls step by step, and read the exact "
         "odds of what the Pool leaves for your three Actions.", _strategy_page, kinds=('strategy',),
         open=_strategy_open, default="me-diagram-5"),
    Page("round", "Round",
         "Step through a whole Round: the Preparation Phase, each Squadmate's turn (Strategy Roll, Actions, the "
         "Hazard card and every Enemy's Activation) and the End Phase, one cited step at a time, with the map, each "
         "Squadmate's sheet, the Strategy Pool dice and the Hazard deck; flip ruling options to replay it.",
         lambda game: _round_open(game, game.page_default("round")), kinds=('round',),
         open=lambda game, name: _round_open(game, name), default="me-round-1"),
)

GAME = Game(
    id="masseffect",
    title="Mass Effect: The Board Game — Priority: Hagalaz",
    rulebook="mass-effect-priority-hagalaz.txt",
    package="explorer.games.masseffect",
    default_scenario="me-diagram-4",
    parse=_KINDS.parse,
    resolve=_KINDS.resolve,
    ruling_options=_options,
    pages=PAGES,
    cli=_cli,
    outcome_text=outcome_text,
    picture=picture,
    sequences=_sequences,
    plain=is_map_query,
)
"""The Mass Effect entry of the registry."""
