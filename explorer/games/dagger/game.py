"""Marvel D.A.G.G.E.R. behind the game registry (:mod:`explorer.games`).

Four scenario kinds:

=============  ===========================  =======================================================================
kind           module                       what it answers (sections)
=============  ===========================  =======================================================================
``nemesis``    :mod:`.nemesis_scenario`     a Nemesis Phase (or several) played out step by step: Advance Threat,
                                            Check Nemesis Mission, Resolve Event Cards, End of Round, Winning and
                                            Losing
``hero``       :mod:`.hero_scenario`        Hero Phase actions (Move, Fight, Defy, Rest) with their exact odds and
                                            results, then optionally the Nemesis Phase that follows
``round``      :mod:`.round_scenario`       whole rounds: the Hero Phase turn by turn (aspect tokens on slots,
                                            BOOST, D.A.G.G.E.R. actions), the Nemesis Phase, the End of Round
``setup``      :mod:`.setup_scenario`       Setup's seeded steps: aspect tokens by player count, the event deck
                                            (9 events, 3 piles, a nemesis event in each), the 1st strike's setup
=============  ===========================  =======================================================================

Each kind's module exposes ``parse_<name>(data, source)`` and ``resolve_<name>(scenario, rulings, seed) -> Trace``
(:data:`KINDS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.games import Game, Kinds, Page

if TYPE_CHECKING:   # annotations only: a game's odds verb makes no trace
    from explorer.trace import Trace

KINDS: dict[str, tuple[str, str]] = {
    "nemesis": ("explorer.games.dagger.nemesis_scenario", "nemesis"),
    "hero": ("explorer.games.dagger.hero_scenario", "hero"),
    "round": ("explorer.games.dagger.round_scenario", "round"),
    "setup": ("explorer.games.dagger.setup_scenario", "setup"),
}
"""``{scenario kind: (rules module, name)}``; the module defines ``parse_<name>`` and ``resolve_<name>``."""

_KINDS = Kinds("dagger", "D.A.G.G.E.R.", KINDS)


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def _nemesis_page(game: Game):
    return _nemesis_open(game, game.page_default("nemesis-phase"))


def outcome_text(trace: Trace) -> str:
    """The verdict first, then the key numbers (:func:`.outcome.outcome_text`)."""
    from .outcome import outcome_text as text

    return text(trace)


def _round_open(game: Game, name: str):
    from .round_views import round_page

    return round_page(name, game)


def _nemesis_open(game: Game, name: str):
    from .views import nemesis_page

    return nemesis_page(name, game=game)


def picture(scenario, trace: Trace) -> str | None:
    """SVG of the world map as the scenario's Nemesis Phases leave it (bases overrun, heroes, enemies, threat),
    replayed with the readings the trace consulted; the last step's marked spaces are outlined. A ``setup`` scenario
    draws the map with the enemies its 1st strike places (their spaces outlined), the event deck and the side
    mission drawn. Drawn by :func:`.map_svg.map_svg`."""
    from explorer.kernel import steps_of

    from .map_svg import map_svg
    from .nemesis_scenario import playthrough

    kind, sc = scenario
    if kind == "round":
        from .round_scenario import play_rounds

        frames, _refusal, start, _ctx = play_rounds(sc, trace.rulings)
        end = frames[-1].state.game if frames else start.game
        steps = steps_of(frames)
        marks = [m for m in (steps[-1].marks if steps else ()) if m in sc.world]
        return map_svg(sc.world, end, highlight=marks)
    if kind == "hero":
        from .hero_scenario import play_hero

        steps, _records, _start, _after, end, _ctx = play_hero(sc, trace.rulings)
        marks = [m for m in (steps[-1].marks if steps else ()) if m in sc.world]
        return map_svg(sc.world, end, highlight=marks)
    if kind == "setup":
        from .worldmap import load_map

        o = trace.result
        placed: dict[str, list[str]] = {}
        for eid, space in o.enemies:
            placed.setdefault(space, []).append(eid)
        side = ", ".join(o.side_slots) or "none"
        caption = (f"1st strike: {len(o.enemies)} enemies placed · event deck {len(o.event_deck)} cards · "
                   f"side mission: {side}")
        return map_svg(load_map(), highlight=list(placed), pieces=placed, caption=caption)
    if kind != "nemesis":
        return None
    frames, _ctx, start = playthrough(sc, trace.rulings)
    end = frames[-1].state if frames else start
    steps = steps_of(frames)
    marks = [m for m in (steps[-1].marks if steps else ()) if m in sc.world]
    return map_svg(sc.world, end, highlight=marks)


PAGES: tuple[Page, ...] = (
    Page("nemesis-phase", "Nemesis Phase",
         "Step through a Nemesis Phase on the world map: threat, missions, the event, every enemy's attack, overrun "
         "or move with its rule, spawns; see how close each loss condition is, flip ruling options and make the "
         "players' choices.", _nemesis_page, kinds=('nemesis',), open=_nemesis_open,
         default="dg-01"),
    Page("round", "Round",
         "Step through whole rounds: each hero's sheet with the aspect tokens on its slots and in its supply, "
         "support and team-up cards, the Hero Phase turn by turn, then the Nemesis Phase, with the rule of every "
         "step, the loss gauges and the map.", lambda game: _round_open(game, game.page_default("round")),
         kinds=('round',), open=lambda game, name: _round_open(game, name), default="dg-two-rounds"),
)

def _sequences():
    """The rule sequences the kernel plays: the Nemesis Phase (and End of Round) with its Winning and Losing checks
    (:data:`.nemesis.NEMESIS_PHASE`) and a ``hero`` scenario's Hero Phase actions
    (:data:`.hero_scenario.HERO_ACTIONS`)."""
    from .hero_scenario import HERO_ACTIONS
    from .nemesis import NEMESIS_PHASE
    from .round_scenario import END_OF_ROUND, HERO_PHASE, SETUP_BOARD
    from .setup_scenario import SETUP_SEQUENCE

    return {"Nemesis Phase": NEMESIS_PHASE, "Hero Phase actions": HERO_ACTIONS, "Hero Phase turns": HERO_PHASE,
            "End of Round tokens": END_OF_ROUND, "Setup": SETUP_SEQUENCE,
            "Setup on the board": SETUP_BOARD}


def _cli():
    from .cli import cli_app

    return cli_app()


GAME = Game(
    id="dagger",
    title="Marvel D.A.G.G.E.R.",
    rulebook="marvel-dagger.txt",
    package="explorer.games.dagger",
    default_scenario="dg-01",
    parse=_KINDS.parse,
    resolve=_KINDS.resolve,
    ruling_options=_options,
    pages=PAGES,
    cli=_cli,
    outcome_text=outcome_text,
    picture=picture,
    sequences=_sequences,
    cached=True,   # its parsed scenarios are frozen dataclasses, played without pydantic (explorer.parsecache)
)
"""The Marvel D.A.G.G.E.R. entry of the registry."""
