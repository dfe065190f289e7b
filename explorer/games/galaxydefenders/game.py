"""Galaxy Defenders: Operation Strikeback behind the game registry (:mod:`explorer.games`).

A scenario file names its ``kind``; each kind is resolved by one rules module:

==============  ==================  ===========================================================================
kind            module              what it answers (sections)
==============  ==================  ===========================================================================
``combat``      :mod:`.combat`      attacks turned into wounds: Hit roll, Energy Shields, Lethal, Defend roll,
                                    High Impact, Critical tokens, Mark, Poison, Area/Explosion, Burrowing (8, 9.2,
                                    11.7, 11.12, Storybook 5.5.1); exact odds in :mod:`.odds`
``conditions``  :mod:`.conditions`  Poison, Mark and temporary Criticals through Refresh phases (6.1, 9.3.2, 8.3)
``activation``  :mod:`.activation`  an alien / NPC A.I. activation on a map of Areas: target, first applicable
                                    behavior rule, Area-to-Area move, end hex, Seize (10.1, 10.2.1, 11.11, 5.1, 7.3)
``menace``      :mod:`.phases`      who holds the Menace token, at which level, after each event (11.3.1)
``close_enc…``  :mod:`.phases`      ``close_encounter``: which aliens "Activate X aliens" picks (11.5, 11.9.1)
``event``       :mod:`.phases`      signals an Event card teleports (6.3, 11.6)
``gd_wings``    :mod:`.phases`      GD-Wings rank rolls with exact odds (9.8)
``healing``     :mod:`.phases`      Area Healing (8.5)
``npc_assig…``  :mod:`.phases`      ``npc_assignment``: who gets a new NPC card (10.1.2, 11.10.1)
``round``       :mod:`.round`       a round, first increment: Refresh phase, each agent turn (Action once, Free
                                    Actions, NPC activation timing), Event phase signals (6.1-6.3, 10.2, 10.4.1)
``mission``     :mod:`.missions`    a Storybook mission's rounds: Strategy-phase objectives check (first matching
                                    row, DEADLINE), special event effects, Event-phase special rules (Storybook
                                    2.3-2.5)
==============  ==================  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from explorer.games import Game, Kinds, Page
from explorer.text import plural

if TYPE_CHECKING:   # annotations only: a game's odds verb makes no trace
    from explorer.trace import Trace

KINDS: dict[str, tuple[str, str]] = {
    "combat": ("explorer.games.galaxydefenders.combat", "combat"),
    "conditions": ("explorer.games.galaxydefenders.conditions", "conditions"),
    "activation": ("explorer.games.galaxydefenders.activation", "activation"),
    "menace": ("explorer.games.galaxydefenders.phases", "menace"),
    "close_encounter": ("explorer.games.galaxydefenders.phases", "close_encounter"),
    "event": ("explorer.games.galaxydefenders.phases", "event"),
    "gd_wings": ("explorer.games.galaxydefenders.phases", "gd_wings"),
    "healing": ("explorer.games.galaxydefenders.phases", "healing"),
    "npc_assignment": ("explorer.games.galaxydefenders.phases", "npc_assignment"),
    "round": ("explorer.games.galaxydefenders.round", "round"),
    "mission": ("explorer.games.galaxydefenders.missions", "mission"),
}
"""``{scenario kind: (rules module, name)}``; the module defines ``parse_<name>`` and ``resolve_<name>``."""

_KINDS = Kinds("galaxydefenders", "Galaxy Defenders", KINDS)




def _resolve(scenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
             reroll: bool = False) -> Trace:
    kind, sc = scenario
    if reroll and kind == "combat":
        sc = sc.model_copy(update={"attacks": [a.model_copy(update={"rolled": None}) for a in sc.attacks]})
    return _KINDS.resolve((kind, sc), rulings, seed)


def _options():
    from .options import ALL_OPTIONS

    return ALL_OPTIONS


def _is_conditions(o) -> bool:
    from .conditions import ConditionsOutcome   # here: a combat's or an activation's text does not load it

    return isinstance(o, ConditionsOutcome)


def _is_activation(o) -> bool:
    from .activation import ActivationOutcome   # here: a combat's text does not load it (nor pydantic with it)

    return isinstance(o, ActivationOutcome)


def outcome_text(trace: Trace) -> str:
    """The outcome of a Galaxy Defenders scenario in plain text, from its typed result (``trace.result``)."""
    from .combat import CombatOutcome

    o = trace.result
    lines = ["Outcome:"]
    if isinstance(o, CombatOutcome):
        for i, a in enumerate(o.attacks, 1):
            if a.roll is None:
                lines.append(f"  Attack {i} ({a.attacker}, {a.weapon}): no target could be attacked")
                continue
            lines.append(f"  Attack {i} ({a.attacker}, {a.weapon}): {plural(a.roll.hits, 'hit')}")
            for t in a.results:
                crit = f", Critical {t.critical}" if t.critical else ""
                lines.append(f"    {t.name}: {t.absorbed} absorbed, {plural(t.blue_dice, 'Blue die', 'Blue dice')}, "
                             f"{plural(t.wounds, 'wound')}{crit} -> {t.status}")
            if a.menace is not None:
                lines.append(f"    Menacing Agent: {a.menace.holder} (Level {a.menace.level})")
    elif _is_activation(o):
        rule = "no rule applied" if o.rule is None else f"rule {o.rule + 1} ({o.action})"
        if o.skipped:
            lines.append(f"  {o.mover} is Paralyzed: it skips its activation and stays on {o.start}")
        elif o.target is None:
            where = f"stays on {o.start}" if o.start == o.end else f"{o.start} -> {o.end}"
            lines.append(f"  {o.mover} has no target it can reach: {rule}; {where}")
        else:
            areas = (f"; Areas to the target {o.areas_before} -> {o.areas_after}" if o.areas_before is not None
                     else f"; Areas to the target: {o.areas_after}" if o.areas_after is not None else "")
            lines.append(f"  {o.mover} targets {o.target}: {rule}; {o.start} -> {o.end}{areas}")
        if o.second is not None:
            lines.append(f"  its second figure / base hex: {o.second}")
    elif _is_conditions(o):
        f = o.final
        lines.append(f"  Wounds suffered: {o.wounds_suffered}; token left: Poison {f.poison}, Mark {f.mark}; "
                     f"{f.status()}")
        if o.has_suit:
            lines.append(f"  Power Suit: {o.suit.batteries} Batteries left" if o.suit is not None else
                         "  Power Suit: left play (no Battery to pay)")
    else:                               # the phases kinds (menace, close_encounter, event, gd_wings, healing,
                                        # npc_assignment), round, mission
        lines.append(f"  {o.summary}")
    return "\n".join(lines)


def _combat_page(game: Game):
    return _combat_open(game, game.page_default("combat"))


def _combat_open(game: Game, name: str):
    from .views import combat_open

    return combat_open(name, game=game)


def _ai_page(game: Game):
    return _ai_open(game, game.page_default("ai"))


def _ai_open(game: Game, name: str):
    from .ai_views import ai_page

    return ai_page(name, game=game)


def _round_open(game: Game, name: str):
    from .round_views import round_page

    return round_page(name, game)


PAGES: tuple[Page, ...] = (
    Page("combat", "Combat",
         "Set an attack and its target (Energy Shield stacks, Lethal, -X Def Dice, High Impact, Critical pile), roll or "
         "set each die by hand, follow every cited step, and read the exact odds of the wounds dealt and of a kill.",
         _combat_page, kinds=('combat',), open=_combat_open, default="gd-book-mark"),
    Page("ai", "Alien A.I.",
         "Step through an alien or NPC activation on a map of Areas: the target, each behavior rule of the A.I. "
         "section passing or failing and why, the path Area to Area and the end hex, with Barrier and blocking Hex "
         "Sides drawn.", _ai_page, kinds=("activation",), open=_ai_open,
         default="gd-ai-move-adjacent"),
    Page("round", "Round",
         "Play a round on a map step by step: agents walk and shoot with their cards, NPCs and the aliens of the "
         "Close Encounter card follow their A.I.; the map, the agents' sheets and the card at every cited step.",
         lambda game: _round_open(game, game.page_default("round")), kinds=("round",),
         open=lambda game, name: _round_open(game, name), default="gd-round-map"),
)
"""The Galaxy Defenders pages of the Panel app (served at ``/galaxydefenders-<slug>``)."""


def _picture(scenario, trace: Trace) -> str | None:
    """SVG of an ``activation`` scenario (its map of Areas as the trace leaves it) or of a ``combat`` scenario (its
    dice tray, :func:`.combat_picture.combat_picture`); the kinds without dice or a map draw record cards of their
    outcome (:func:`.phase_picture.phase_picture`)."""
    kind, sc = scenario
    if kind == "combat":
        from .combat_picture import combat_picture

        return combat_picture(getattr(sc, "title", "") or "", trace)
    if kind != "activation":
        from .phase_picture import phase_picture

        return phase_picture(kind, sc, trace)
    from .map_draw import activation_picture

    return activation_picture(sc, trace)


def _sequences() -> dict:
    """Every rule sequence of the game as the kernel plays it (:data:`explorer.kernel.Sequence`), by name."""
    from . import activation, combat, conditions, missions, phases
    from . import round as round_

    return {
        "combat": combat.COMBAT_SEQUENCE,
        "attack": combat.ATTACK_SEQUENCE,
        "defence": combat.DEFENCE_SEQUENCE,
        "conditions": conditions.CONDITIONS_SEQUENCE,
        "activation": activation.ACTIVATION_SEQUENCE,
        "menace": phases.MENACE_SEQUENCE,
        "close_encounter": phases.CLOSE_ENCOUNTER_SEQUENCE,
        "event": phases.EVENT_SEQUENCE,
        "gd_wings": phases.GD_WINGS_SEQUENCE,
        "healing": phases.HEALING_SEQUENCE,
        "npc_assignment": phases.NPC_ASSIGNMENT_SEQUENCE,
        "round": round_.ROUND_SEQUENCE,
        "mission": missions.MISSION_SEQUENCE,
    }


def _cli():
    from .cli import cli_app

    return cli_app()


def is_combat(scenario) -> bool:
    """A ``combat`` scenario: the resolver, outcome text and picture read its models as plain fields (its
    calibration through :func:`.combat.scenario_calibration`), so ``explorer resolve`` takes a cached built-in as
    the pydantic-free snapshot of its models (:attr:`explorer.games.Game.plain`, :mod:`explorer.plain`). The other
    kinds keep their models."""
    return scenario[0] == "combat"


GAME = Game(
    id="galaxydefenders",
    title="Galaxy Defenders: Operation Strikeback",
    rulebook="galaxy-defenders-operation-strikeback.txt",
    package="explorer.games.galaxydefenders",
    default_scenario="gd-book-mark",
    parse=_KINDS.parse,
    resolve=_resolve,
    ruling_options=_options,
    pages=PAGES,
    cli=_cli,
    outcome_text=outcome_text,
    picture=_picture,
    sequences=_sequences,
    scenario_order=("gd-01", "gd-01-variant", "gd-03", "gd-04", "gd-05", "gd-05-variant"),
    plain=is_combat,
)
"""The Galaxy Defenders entry of the registry."""
