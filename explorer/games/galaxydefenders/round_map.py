"""A Galaxy Defenders round played on a map: agents walking, agents' and NPCs' attacks, and the Aliens turn that
follows an agent turn (its Close Encounter card, each activated alien's A.I.).

This module holds the round's map steps; :mod:`.round` calls them from its kernel sequence (``ROUND_SEQUENCE``) when
the file has a ``[map]``. Every figure stands on a hex (``at``); the state keeps each figure's hex
(:class:`Placed`) and records what each frame shows on the map (:data:`MapNote`).

Sections: 6.2.1 Agent Turn (the Movement activity walks the agent hex to hex along a legal walking path, one movement
point a Hex; the Core Set movement cost rule itself is not in this rulebook: the walk cites 6.2 Battle Phase, which
keeps the Core Set turns), 5.1 Barrier Hex Side (only Flying figures
cross it), 9.2.2 Fighting Poses (2 movement points a Hex while Crouching), 9.5.2.1 Movement (the Power Suit's
bonus), 9.7 Powers & Items (a card's movement points, Hit dice and hits: see ``bonus_hits``, ``bonus_dice`` and
``movement`` in ``card_data/stand-in.toml``), 9.2 Combat (the agent's attack: the ``combat`` kind's attack
sequence, line of sight), 9.5.2.2 Combat (the Power Suit's weapon), 10.2 NPC Activation with 10.2.1 NPC Movement and
10.2.2 NPC Combat (the ``activation`` kind's A.I. sequence on the round's map, then the attack; an NPC's weapon never
jams and uses no Ammo), 11.5 Alien Activation (the Close Encounter card drawn after an agent turn activates the aliens
it lists), 11.11 Movement and 11.12 Combat (each activated alien's A.I. and attack; an "Activate X aliens" card 21-25 without a list selects them as
the ``close_encounter`` kind does), 11.9.1 Paralyzed (a Paralyzed
alien skips its activation; a Master Alien ignores Paralyze, 11.3), 11.3.1 Menacing Agent System (an Archenemy
targets the Menacing Agent; wounds on a Master Alien move the token), 11.8 Multi-hex Aliens (both base hexes
occupied; attacked when one base hex is in line of sight; an NPC reads it by the base hex it sees, else the closer;
Area Damage reaches it once; its activation walks the base as the ``activation`` kind does), 11.6 Prime Swarm Units
(two figures, each with its own Health points, one alien: an agent targets one figure, Area Damage reaches each
figure in the Area, the closer figure leads the activation and the other follows, the unit attacks when either
figure sees the target and dies when both do; a Paralyzed figure: ruling ``prime_swarm_paralyzed``), 11.10 Signals
(an alien still under its Alien signal is not in play; one revealed this round: ruling
``revealed_alien_activation``).

Readings where the book is silent: the agent's walking path is the shortest legal one (fewest Hexes, the first one
found); whether an agent walks through other figures is ruling ``agent_path_figures`` (default: aliens block the
walk, agents and NPCs do not); the walk uses the Fighting Pose held when the activity starts and a pose assumed in the
same activity is paid after the walk (the Fighting Poses example 1 walks then goes Prone); a card's ``bonus_hits`` /
``bonus_dice`` join the attack of the Combat activity that uses the card; a card a Free Action or the Action used
joins the agent's next attack this turn under ruling ``card_bonus_timing`` (default ``next_attack``; a Tactic "+2 hits
to the current Hit roll" is played just before the attack it helps). A weapon with a ``range`` is checked against it
(9.2; counted in Areas or Hexes per ruling ``range_unit``): an agent's attack beyond it is refused; an NPC's or
alien's "attack" behavior rule with its target beyond it cannot be applied, so the next rule is (10.2.1, 11.11);
the attack after a "move ... and attack" rule's move is not made when beyond it (a cited step). Engagement and Evade
(:func:`evade_step`, :func:`disengaged`): an agent next to an alien that is not Burrowing is engaged in combat and
walks away only with ``evade = true`` (the Core Set's test, which this book names in 7.3, 10.2.1 and 11.11 but does
not print, so the file gives its result); Burrowing aliens never engage (7.2); an NPC or alien whose A.I. walk leaves
an engagement disengages without an Evade test (10.2.1, 11.11).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from explorer.errors import RuleViolation, ScenarioError
from explorer.hexgrid import Hex, distance
from explorer.kernel import run
from explorer.text import plural
from explorer.trace import Step

from . import sections as S
from .activation import ActivatingModel, ActivationScenario, AreaMap, FigureModel, parse_map, play_activation
from .calibration import default_calibration
from .combat import (ATTACK_SEQUENCE, AttackModel, CombatContext, CombatState, TableDice, TargetState,
                     check_rolled_keys, with_source)

if TYPE_CHECKING:
    from .round import RoundContext, RoundScenario, RoundState, RoundWeapon


@dataclass(frozen=True)
class Placed:
    """A figure on the map: its ``name``, ``side`` (agent | npc | alien | master_alien) and hex; ``base``: a
    multi-hex alien's second base hex (11.8; ``at`` is its face hex), else ``None``."""

    name: str
    side: str
    at: Hex
    base: Hex | None = None

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex the figure occupies (one, or a multi-hex alien's two)."""
        return (self.at,) if self.base is None else (self.at, self.base)


@dataclass(frozen=True)
class Moved:
    """A figure walked: its path (first hex: where it started) and, for an agent, the movement points spent."""

    who: str
    path: tuple[Hex, ...]
    points: int | None = None
    step: str = ""
    """The title of the step that describes it (the Round page shows it from that step on)."""
    shows: object = field(default=None, compare=False, repr=False)
    """The round's state just after it (:class:`.round.RoundState`): what the Round page draws from its step on."""


@dataclass(frozen=True)
class Attacked:
    """An attack resolved on the map: attacker, target, hits of the Hit roll (``None``: no roll) and what it did
    to each figure it reached (``((name, wounds, status), ...)``)."""

    attacker: str
    target: str
    hits: int | None
    results: tuple[tuple[str, int, str], ...] = ()
    line: tuple[Hex, Hex] | None = None
    """``(attacker's hex, target's hex)`` the attack is traced along: the target hex the rules read it by (a
    multi-hex alien's base hex in line of sight first, :func:`_facing`) and the attacker's hex that sees it
    (:func:`attack_line`); the picture draws the attack along it. ``None``: a figure not on the map."""
    step: str = ""
    shows: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CardDrawn:
    """The Close Encounter card drawn after an agent turn and the aliens it activates."""

    card: int
    after: str
    activates: tuple[str, ...]
    step: str = ""
    shows: object = field(default=None, compare=False, repr=False)


MapNote = Moved | Attacked | CardDrawn
"""What one frame of a round shows on the map. Each note names the step that describes it (``step``, a title) and
keeps the state just after it (``shows``), so the Round page draws each step's map and sheets as of that step
(:func:`.round_picture.positions_from`), not as its whole frame (an agent turn, an alien activation) leaves them."""

SUIT_WEAPON = {"name": "Power Suit weapon (stand-in)", "dice": {"red": 2, "blue": 1}}
"""STAND-IN weapon of a Power Suit whose file gives none (9.5.2.2: Red and Blue dice; the real dice are printed on
the suit's sheet)."""


# ------------------------------------------------------------------------------------------------ the file

def check_round_map(sc: RoundScenario, source: str) -> None:
    """The map fields of a ``round`` scenario.

    Raises:
        ScenarioError: map fields without a ``[map]``; an agent or NPC without ``at`` on a map; a figure off the map,
            on a Blocking Hex or sharing a hex; an alien's name used twice; ``to`` on an activity that is not a
            ``move``; ``target`` not on a ``combat`` or naming no alien; ``rolled`` on another activity; a Close
            Encounter card activating an unknown alien or one without an A.I. section; an attack rule without a
            weapon; a die colour the calibration does not know.
    """
    acts = [(i, j, a) for i, t in enumerate(sc.turns) for j, a in enumerate(t.activities)]
    if sc.map is None:
        used = ([f"agents[{i}].at" for i, a in enumerate(sc.agents) if a.at] +
                [f"npcs[{i}].at" for i, n in enumerate(sc.npcs) if n.at] + (["aliens"] if sc.aliens else []) +
                [f"turns[{i}].activities[{j}].{k}" for i, j, a in acts for k in ("to", "target", "rolled")
                 if getattr(a, k) is not None] +
                [f"turns[{i}].close_encounter" for i, t in enumerate(sc.turns) if t.close_encounter] +
                [k for k in ("signals", "npc_deck", "npc_discard", "npc_reshuffles", "drones") if getattr(sc, k)] +
                (["power_suit.at"] if sc.power_suit is not None and sc.power_suit.at is not None else []) +
                [f"turns[{i}].activities[{j}].{k}" for i, j, a in acts for k in ("reveal", "place")
                 if getattr(a, k)])
        if used:
            raise ScenarioError(used[0], "figures on the map, walks, attacks and Close Encounter cards need a map",
                                "a [map] table (the activation map format), or omit it", source)
        return
    amap = _parsed_map(sc.map, source)
    cal = default_calibration()
    seen: dict[Hex, str] = {}
    names = [a.name for a in sc.agents] + [n.name for n in sc.npcs]
    signal_at = {g.name: g for g in sc.signals}
    for i, x in enumerate(sc.aliens):
        if x.signal is None and x.at is None:
            raise ScenarioError(f"aliens[{i}].at", f"{x.name} has no hex on the map", "\"q,r\" of a map hex, or "
                                "signal = the Alien signal that brings it", source)
        if x.signal is not None:
            g = signal_at.get(x.signal)
            if g is None or g.kind != "alien":
                raise ScenarioError(f"aliens[{i}].signal", f"no Alien signal named {x.signal!r}",
                                    sorted(y.name for y in sc.signals if y.kind == "alien"), source)
            if x.at is not None:
                raise ScenarioError(f"aliens[{i}].at", f"{x.name} enters on its signal's hex ({g.at}) when revealed",
                                    "omit at with signal", source)
            if x.signal in [y.signal for y in sc.aliens[:i]]:
                raise ScenarioError(f"aliens[{i}].signal", f"two aliens name signal {x.signal}",
                                    "one alien per Alien signal", source)
        if x.base is not None and x.swarm is not None:
            raise ScenarioError(f"aliens[{i}].swarm", "an alien is either multi-hex (11.8) or a Prime Swarm unit "
                                "(11.6)", "base or swarm, not both", source)
    ps = sc.power_suit
    if ps is not None and ps.equipped_by is None and ps.at is None:
        raise ScenarioError("power_suit.at", "an unequipped Power Suit on the map occupies a Hex (9.5)",
                            "\"q,r\" of a map hex", source)
    if ps is not None and ps.equipped_by is not None and ps.at is not None:
        raise ScenarioError("power_suit.at", f"{ps.equipped_by} wears the suit: it stands where its wearer does",
                            "omit at while equipped_by is given", source)
    face = {x.name: x.at if x.at is not None else signal_at[x.signal].at for x in sc.aliens}
    spots = [(f"agents[{i}].at", a.name, a.at) for i, a in enumerate(sc.agents)] + \
            [(f"npcs[{i}].at", n.name, n.at) for i, n in enumerate(sc.npcs)] + \
            [(f"aliens[{i}].at", x.name, x.at) for i, x in enumerate(sc.aliens) if x.signal is None] + \
            [(f"aliens[{i}].base", x.name, x.base) for i, x in enumerate(sc.aliens) if x.base is not None] + \
            [(f"aliens[{i}].swarm", second_name(x.name), x.swarm) for i, x in enumerate(sc.aliens)
             if x.swarm is not None] + \
            ([("power_suit.at", ps.name, ps.at)] if ps is not None and ps.at is not None else [])
    for i, x in enumerate(sc.aliens):
        if x.base is None:
            continue
        d = distance(_hex(x.base, f"aliens[{i}].base", source), _hex(face[x.name], f"aliens[{i}].at", source))
        if d == 0:
            raise ScenarioError(f"aliens[{i}].base", f"hex {x.base} is {x.name}'s face hex ('at') itself",
                                "a hex adjacent to 'at', not 'at' itself (a two-hex base, 11.8)", source)
        if d != 1:
            raise ScenarioError(f"aliens[{i}].base", f"hex {x.base} is not adjacent to {x.name}'s face hex "
                                f"{face[x.name]}",
                                "a hex adjacent to 'at', not 'at' itself (a two-hex base, 11.8)", source)
    for field, name, at in spots:
        if at is None:
            raise ScenarioError(field, f"{name} has no hex on the map", "\"q,r\" of a map hex", source)
        h = _hex(at, field, source)
        if h not in amap.area_of or h in amap.blocking:
            raise ScenarioError(field, f"{name} stands on {h}, which is not an open map hex",
                                "a hex of an Area, not Blocking", source)
        if field.startswith("aliens[") and sc.aliens[int(field[7:field.index("]")])].signal is not None:
            continue                    # an alien still under its signal takes no hex yet (checked when revealed)
        if h in seen:
            raise ScenarioError(field, f"{name} and {seen[h]} share hex {h}", "one figure per hex", source)
        seen[h] = name
    for i, x in enumerate(sc.aliens):
        for n in (x.name,) + ((second_name(x.name),) if x.swarm is not None else ()):
            if n in names:
                raise ScenarioError(f"aliens[{i}].name", f"{n!r} is used twice", "unique names", source)
            names.append(n)
    aliens = {x.name: x for x in sc.aliens}
    figures = set(aliens) | {second_name(x.name) for x in sc.aliens if x.swarm is not None}
    weapons = [(f"agents[{i}].weapon", a.weapon) for i, a in enumerate(sc.agents)] + \
              [(f"npcs[{i}].weapon", n.weapon) for i, n in enumerate(sc.npcs)] + \
              [(f"aliens[{i}].weapon", x.weapon) for i, x in enumerate(sc.aliens)] + \
              [("power_suit.weapon", sc.power_suit.weapon if sc.power_suit else None)]
    for field, w in weapons:
        if w is None:
            continue
        if (w.fixed_hits is None) == (not any(w.dice.values())):
            raise ScenarioError(f"{field}.dice", "a weapon gives either dice or a fixed number of hits",
                                "dice = {colour = n} or fixed_hits = N", source)
        for c in w.dice:
            with with_source(source):
                cal.die(c, f"{field}.dice.{c}")
    for field, who in [(f"npcs[{i}]", n) for i, n in enumerate(sc.npcs)] + \
                      [(f"aliens[{i}]", x) for i, x in enumerate(sc.aliens)]:
        if any(r.action == "attack" for r in who.rules) and who.weapon is None:
            raise ScenarioError(f"{field}.weapon", f"{who.name}'s A.I. section attacks but it has no weapon",
                                "a weapon table", source)
    for i, j, a in acts:
        f = f"turns[{i}].activities[{j}]"
        if a.to is not None:
            if a.kind != "move" and not (a.kind == "action" and a.drone):
                raise ScenarioError(f"{f}.to", "an agent walks with its Movement activity (a drone with its owner's "
                                    "Action)", "kind = 'move', or an action with drone", source)
            h = _hex(a.to, f"{f}.to", source)
            if h not in amap.area_of:
                raise ScenarioError(f"{f}.to", f"hex {h} is not on the map", "a map hex", source)
        if a.target is not None:
            if a.kind not in ("combat", "action") or a.use is not None and a.kind == "action":
                raise ScenarioError(f"{f}.target", "an agent attacks with its Combat activity", "kind = 'combat'",
                                    source)
            if a.target not in figures:
                raise ScenarioError(f"{f}.target", f"no alien named {a.target!r}", sorted(figures), source)
        if a.rolled is not None and not (a.target is not None or a.kind == "activate_npc"):
            raise ScenarioError(f"{f}.rolled", "fixed dice belong to an attack", "an activity with a target, or an "
                                "activate_npc", source)
    from .round_signals import check_signals_and_drones

    check_signals_and_drones(sc, amap, seen, source)
    for i, t in enumerate(sc.turns):
        ce = t.close_encounter
        if ce is None:
            continue
        for k, name in enumerate(ce.activates):
            if name not in aliens:
                raise ScenarioError(f"turns[{i}].close_encounter.activates[{k}]", f"no alien named {name!r}",
                                    sorted(aliens), source)
            if not aliens[name].rules:
                raise ScenarioError(f"turns[{i}].close_encounter.activates[{k}]", f"{name} has no A.I. section",
                                    "aliens.rules (the activation kind's behavior rules)", source)
        if not ce.activates:
            if not 21 <= ce.card <= 25:
                raise ScenarioError(f"turns[{i}].close_encounter.activates", f"card {ce.card} does not select X "
                                    "aliens itself", "the aliens it activates (or card 21-25)", source)
            if (ce.card == 21) != (ce.x is not None):
                raise ScenarioError(f"turns[{i}].close_encounter.x", "card 21 needs the X printed on it" if
                                    ce.card == 21 else f"card {ce.card} sets X itself", "x only with card = 21",
                                    source)
            for k, x in enumerate(sc.aliens):
                if not x.rules:
                    raise ScenarioError(f"aliens[{k}].rules", f"card {ce.card} may select {x.name}, which has no "
                                        "A.I. section", "the activation kind's behavior rules", source)
                if x.controller is not None and x.controller not in [a.name for a in sc.agents]:
                    raise ScenarioError(f"aliens[{k}].controller", f"no agent named {x.controller!r}",
                                        [a.name for a in sc.agents], source)
        elif ce.x is not None:
            raise ScenarioError(f"turns[{i}].close_encounter.x", "x is the X of card 21 when the card selects the "
                                "aliens", "omit it, or omit activates", source)
        for name in ce.rolled:
            if name not in aliens:
                raise ScenarioError(f"turns[{i}].close_encounter.rolled", f"no alien named {name!r}", sorted(aliens),
                                    source)
            if name not in ce.activates and ce.activates:
                raise ScenarioError(f"turns[{i}].close_encounter.rolled", f"{name!r} is not activated by the card",
                                    list(ce.activates), source)


def _hex(text: str, field: str, source: str) -> Hex:
    try:
        return Hex.parse(text)
    except ValueError:
        raise ScenarioError(field, f"{text!r} is not a hex", "\"q,r\" (two integers)", source) from None


def map_of(sc: RoundScenario) -> AreaMap | None:
    """The round's map of Areas (:class:`.activation.AreaMap`), or ``None`` without a ``[map]``."""
    return None if sc.map is None else _parsed_map(sc.map, sc._source)


def _parsed_map(m, source: str | None) -> AreaMap:
    """:func:`.activation.parse_map` of a round's ``[map]`` table: a refusal names the field as the round file
    writes it (``map.areas.C[9]``, ``map.edges[3].edge``), as the combat kind's does (issue #25 item 5)."""
    from .combat import with_source

    with with_source(source or "scenario", "map."):
        return parse_map(m, None)


def placed_initial(sc: RoundScenario) -> tuple[Placed, ...]:
    """Every figure on the map as the file places it (agents, NPCs, aliens)."""
    if sc.map is None:
        return ()
    from .round_signals import drone_name

    return tuple([Placed(a.name, "agent", Hex.parse(a.at)) for a in sc.agents] +
                 [Placed(drone_name(d.kind, d.owner), "hologram" if d.kind == "hologram" else "drone",
                         Hex.parse(d.at)) for d in sc.drones] +
                 [Placed(n.name, "npc", Hex.parse(n.at)) for n in sc.npcs] +
                 [p for x in sc.aliens if x.signal is None for p in alien_placed(x, Hex.parse(x.at))] +
                 ([Placed(sc.power_suit.name, "power_suit", Hex.parse(sc.power_suit.at))]
                  if sc.power_suit is not None and sc.power_suit.at is not None else []))


def second_name(name: str) -> str:
    """The board name of a Prime Swarm unit's second figure (11.6): ``"Digger (2nd figure)"``."""
    return name + SECOND


SECOND = " (2nd figure)"


def alien_placed(x, at: Hex) -> tuple[Placed, ...]:
    """The figures of alien ``x`` (a :class:`.round.RoundAlien`) on the map with its face hex / first figure on
    ``at``: one figure, a multi-hex alien's two-hex base (11.8) or a Prime Swarm's two figures (11.6)."""
    first = Placed(x.name, x.kind, at, Hex.parse(x.base) if x.base else None)
    return (first,) if x.swarm is None else (first, Placed(second_name(x.name), x.kind, Hex.parse(x.swarm)))


def alien_targets(x) -> tuple[TargetState, ...]:
    """Alien ``x``'s figures as combat targets: a Prime Swarm's two figures each with the card's Health points and
    their own wounds (11.6: each defends as a stand-alone alien)."""
    one = TargetState(x.name, x.kind, x.health, x.wounds, tuple(x.energy_shields), mark=x.mark, poison=x.poison,
                      burrowing=x.burrowing)
    if x.swarm is None:
        return (one,)
    return one, TargetState(second_name(x.name), x.kind, x.health, x.swarm_wounds, tuple(x.energy_shields),
                            burrowing=x.burrowing)


def unit_of(ctx: RoundContext, name: str) -> str:
    """The alien (unit) a figure belongs to: a Prime Swarm's second figure's unit, else ``name``."""
    for x in ctx.scenario.aliens:
        if x.swarm is not None and name == second_name(x.name):
            return x.name
    return name


def members(ctx: RoundContext, name: str) -> tuple[str, ...]:
    """The figures of unit ``name``: a Prime Swarm's two (11.6), else the one."""
    x = next((a for a in ctx.scenario.aliens if a.name == name), None)
    return (name, second_name(name)) if x is not None and x.swarm is not None else (name,)


def unit_hexes(state: RoundState, ctx: RoundContext, name: str) -> tuple[Hex, ...]:
    """Every hex of the unit figure ``name`` belongs to that is on the map: a Prime Swarm attacks when at least one
    of its figures has line of sight (11.6), and Range is counted from the closer."""
    return tuple(h for m in members(ctx, unit_of(ctx, name)) for h in hexes_of(state, m))


# ------------------------------------------------------------------------------------------------ helpers

def _refuse(ctx: RoundContext, reason: str, rule, field: str, step: str):
    raise RuleViolation(reason, rule, field=field, step=step, source=ctx.source)


def where(state: RoundState, name: str) -> Hex | None:
    """The hex of figure ``name``, or ``None`` (off the map: dead, or never placed)."""
    return next((p.at for p in state.figures if p.name == name), None)


def hexes_of(state: RoundState, name: str) -> tuple[Hex, ...]:
    """Every hex figure ``name`` occupies (a multi-hex alien's two, 11.8); ``()`` off the map."""
    return next((p.hexes for p in state.figures if p.name == name), ())


ALIEN_SIDES = ("alien", "master_alien")
AGENT_SIDES = ("agent", "npc", "drone", "hologram")


def adjacent_foes(state: RoundState, ctx: RoundContext, name: str, at: tuple[Hex, ...] | None = None
                  ) -> tuple[list[str], list[str]]:
    """The opponents on hexes adjacent to figure ``name`` (at its hexes, or at ``at``): ``(engaging, burrowing)``.
    An agent, NPC or drone and an adjacent alien are engaged in combat (the Core Set's rule, which 6.2 keeps; a
    Barrier Hex Side keeps hexes adjacent, 5.1), except a Burrowing alien, which never engages (7.2). Each alien
    once, by its unit (a multi-hex alien's either hex, 11.8)."""
    me = next((p for p in state.figures if p.name == name), None)
    if me is None:
        return [], []
    mine = at if at is not None else me.hexes
    foes = ALIEN_SIDES if me.side in AGENT_SIDES else AGENT_SIDES
    burrow = {x.name for x in ctx.scenario.aliens if x.burrowing}
    engaging: list[str] = []
    burrowing: list[str] = []
    for p in state.figures:
        if p.side not in foes or p.side == "hologram" and me.side in ALIEN_SIDES:
            continue
        if any(distance(a, b) == 1 for a in mine for b in p.hexes):
            unit = unit_of(ctx, p.name) if p.side in ALIEN_SIDES else p.name
            if p.side in ALIEN_SIDES and unit in burrow or me.side in ALIEN_SIDES and unit_of(ctx, name) in burrow:
                if unit not in burrowing:
                    burrowing.append(unit)
            elif unit not in engaging:
                engaging.append(unit)
    return engaging, burrowing


def disengaged(before: RoundState, after: RoundState, ctx: RoundContext, name: str, kind: str, sec: str
               ) -> tuple[Step, ...]:
    """An NPC or alien whose A.I. walk took it away from an opponent it was engaged with: it disengages without an
    Evade test (10.2.1 for NPCs, 11.11 for aliens). Nothing when it stayed engaged or never was."""
    start, _ = adjacent_foes(before, ctx, name)
    end, _ = adjacent_foes(after, ctx, name)
    left = [n for n in start if n not in end]
    if not left or where(before, name) == where(after, name):
        return ()
    npc = kind == "npc"
    return (Step(f"{name} disengages from {', '.join(left)} without an Evade test",
                 S.NPC_MOVEMENT if npc else S.ALIEN_MOVEMENT,
                 ("NPCs" if npc else "Aliens") + " may disengage from melee without an Evade test; they always can "
                 "when their A.I. requires it.", {"disengaged": left}, (name,), sec),)


def sight(ctx: RoundContext, froms: tuple[Hex, ...], tos: tuple[Hex, ...]) -> tuple[bool, str]:
    """Line of sight between two figures, any hex of either (11.8: a multi-hex alien sees a target, and can be
    attacked, when at least one hex of its base is in line of sight); ruling ``line_of_sight``. Returns
    ``(clear, why)`` (the first blocked line's reason when none is clear)."""
    strict = ctx.rulings.reading("line_of_sight") == "strict"
    why = ""
    for a in froms:
        for b in tos:
            clear, w = ctx.amap.line_of_sight(a, b, strict)
            if clear:
                return True, w
            why = why or w
    return False, why


def _moved(state: RoundState, moves: dict[str, Hex], bases: dict[str, Hex] | None = None) -> RoundState:
    bases = bases or {}
    return replace(state, figures=tuple(replace(p, at=moves.get(p.name, p.at), base=bases.get(p.name, p.base))
                                        for p in state.figures))


def _noted(state: RoundState, *notes: MapNote, step: str = "") -> RoundState:
    """``state`` with ``notes`` added, each naming ``step`` (the title of the step that describes it) and keeping
    ``state`` as what the map shows from that step on."""
    return replace(state, notes=state.notes + tuple(replace(n, step=step or n.step, shows=state) for n in notes))


# ------------------------------------------------------------------------------------------------ agent movement

CORE_SET_COST = (" One movement point a Hex is the Core Set's movement cost rule, which this rulebook keeps (6.2 "
                 "Battle Phase) without restating it.")
"""The detail sentence of an agent's plain walk: no section of this rulebook sets the cost of a Hex."""


@dataclass(frozen=True)
class TurnMovement:
    """What the agent's earlier ``move`` entries of this turn already used of its one movement allowance (ruling
    ``movement_activity``; under ``once`` only a Movement activity continued after a Seize, 7.3, or after equipping
    the Power Suit, 9.5.1, has earlier entries). ``spent``: movement points paid so far (walks and Fighting Pose
    costs, 9.2.2); ``cards``: ids of the cards used with those entries; ``suit``: the Power Suit's bonus already
    joined the allowance; ``walks``: walks made so far.

    Each bonus joins the allowance once per turn: a Movement card is used once per agent turn with the Movement
    activity (9.7), so its points are part of that one activity, not of each ``move`` entry; the suit's bonus joins
    "the agent's standard movement" (9.5.2.1), which is one allowance, and stays once it has joined (the book never
    takes it back mid-turn). Counting either per entry would let a split movement outrun the unsplit one.
    """

    spent: int = 0
    cards: tuple[str, ...] = ()
    suit: bool = False
    walks: int = 0
    evade_failed: str | None = None
    """The field (``turns[i].activities[j]``) of a ``move`` whose Evade failed this turn (``evade = "failed"``):
    under ruling ``failed_evade = movement_ends`` the Movement activity is over, and a later ``move`` is refused."""


def after_move(so_far: TurnMovement | None, ctx: RoundContext, state: RoundState, name: str, act, cost: int,
               walked: bool) -> TurnMovement:
    """The :class:`TurnMovement` after one ``move`` entry: ``cost`` movement points of walking (0: no walk), plus
    the Fighting Pose assumed with it (9.2.2, paid from the same allowance), the card used with it and the Power
    Suit's bonus once worn (9.5.2.1, 9.7); ``walked``: a walk was made."""
    so_far = so_far or TurnMovement()
    pose = pose_points(ctx, act)
    wears = state.suit is not None and state.suit.equipped_by == name
    use = getattr(act, "use", None)
    return replace(so_far, spent=so_far.spent + cost + pose, walks=so_far.walks + int(walked),
                   suit=so_far.suit or wears, cards=so_far.cards + ((use,) if use and use not in so_far.cards else ()))


def pose_points(ctx: RoundContext, act) -> int:
    """Movement points a ``move``'s Fighting Pose costs (9.2.2; 0 without ``pose`` or with Fighting Poses off)."""
    from .round import pose_cost

    pose = getattr(act, "pose", None)
    return pose_cost(ctx, pose) if pose and ctx.scenario.fighting_poses else 0


def walk(state: RoundState, ctx: RoundContext, agent, act, field: str, sec: str,
         so_far: TurnMovement | None = None, rule=None) -> tuple[RoundState, tuple[Step, ...], TurnMovement]:
    """The agent's Movement activity on the map (6.2.1; its cost, one movement point a Hex, is the Core Set's rule,
    kept by 6.2 Battle Phase): the shortest legal walking path to ``act.to`` (no Blocking
    Hex, Blocking Hex Side or locked door; a Barrier Hex Side only for a Flying agent, 5.1; figures per ruling
    ``agent_path_figures``), one movement point a Hex, two while Crouching (9.2.2), against the agent's movement plus
    the Power Suit's bonus when it wears one (9.5.2.1) and the movement a card used with this activity adds (9.7);
    a Fighting Pose assumed with it is paid after the walk. ``so_far`` (:class:`TurnMovement`): what earlier
    ``move`` entries of this turn used; the walk is paid from the points left (ruling ``movement_activity``) and its
    step says how many of the turn's allowance are left. A drone's walk (9.7.4.2, 9.7.4.3: ``agent`` is its tile,
    ``so_far`` its own) is paid from its tile's movement, never from its owner's allowance. Engagement first
    (:func:`evade_step`; ``rule``: what a drone's refusals cite): after a failed Evade (``evade = "failed"``) the
    figure does not walk.

    Returns:
        ``(state, steps, TurnMovement after this entry)`` (:func:`after_move`): the caller keeps the last one for
        the turn's next ``move``.

    Raises:
        RuleViolation: the end hex Blocking or occupied, no legal walking path, more movement points than the
            agent has (left, after earlier ``move`` entries of this turn), or an engagement refusal
            (:func:`evade_step`).
    """
    import networkx as nx

    from .round import SUIT_BONUS

    if act.to is None:
        return state, (), after_move(so_far, ctx, state, agent.name, act, 0, False)
    amap = ctx.amap
    name = agent.name
    start, goal = where(state, name), Hex.parse(act.to)
    f = f"{field}.to"
    if goal in amap.blocking:
        _refuse(ctx, f"{goal} is a Blocking Hex", S.AGENT_TURN, f, sec)
    busy = {h: p.name for p in state.figures if p.name != name for h in p.hexes}
    suit_there = next((p.name for p in state.figures if p.side == "power_suit" and p.at == goal), None)
    if suit_there is not None and busy.get(goal) == suit_there:
        if not _equips_later(ctx, field):
            _refuse(ctx, f"{goal} holds the empty {suit_there}: an agent ends its movement there only to equip it "
                    "with its Action this turn (it may walk through)", S.POWER_SUIT_EQUIP, f, sec)
        del busy[goal]
    if goal in busy:
        _refuse(ctx, f"{goal} is occupied by {busy[goal]}: no figure ends its movement on an occupied Hex",
                S.AGENT_TURN, f, sec)
    engaged = evade_step(state, ctx, name, act, f, sec, rule)
    if getattr(act, "evade", None) == "failed":         # evade_step refused it when not engaged
        after = after_move(so_far, ctx, state, name, act, 0, False)
        return state, engaged, replace(after, evade_failed=field)
    reading = ctx.rulings.reading("agent_path_figures")
    suit = state.suit
    suit_flies = bool(suit is not None and suit.equipped_by == name and ctx.scenario.power_suit is not None
                      and ctx.scenario.power_suit.flying and not agent.flying)
    flies = agent.flying or suit_flies
    g = amap.graph(flies)
    if reading == "aliens_block":
        g.remove_nodes_from([h for p in state.figures if p.side in ("alien", "master_alien") for h in p.hexes])
    try:
        path = tuple(nx.shortest_path(g, start, goal))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        crossing = amap.graph(True)
        if reading == "aliens_block":
            crossing.remove_nodes_from([h for p in state.figures if p.side in ("alien", "master_alien")
                                        for h in p.hexes])
        if not flies and nx.has_path(crossing, start, goal):
            _refuse(ctx, f"no legal walking path from {start} to {goal}: only Flying figures cross Barrier Hex Sides",
                    S.BARRIER_HEX_SIDE, f, sec)
        _refuse(ctx, f"no legal walking path from {start} to {goal} (Blocking Hexes, walls, locked doors"
                + (", aliens: ruling agent_path_figures" if reading == "aliens_block" else "") + ")", S.AGENT_TURN,
                f, sec)
    pose = state.pose_of(name)
    per = 2 if pose == "crouching" else 1
    cost = (len(path) - 1) * per
    extra = pose_points(ctx, act)
    points = agent.movement
    parts = [f"movement {agent.movement}"]
    model = ctx.scenario.power_suit.suit_model if ctx.scenario.power_suit else None
    so_far = so_far or TurnMovement()
    if model is not None and (so_far.suit or (suit is not None and suit.equipped_by == name)):
        points += SUIT_BONUS[model]
        parts.append(f"+{SUIT_BONUS[model]} Power Suit")
    for cid in dict.fromkeys((*so_far.cards, *((act.use,) if act.use else ()))):   # each card once per turn
        card = ctx.table[cid]
        if card.movement:
            points += card.movement
            parts.append(f"+{card.movement} {card.name}")
    later = so_far.walks > 0 or so_far.spent > 0
    left = max(points - so_far.spent, 0)
    if cost + extra > left:
        _refuse(ctx, f"{name} needs {plural(cost + extra, 'movement point')} to reach {goal}"
                + (f" ({plural(len(path) - 1, 'Hex', 'Hexes')} Crouching, 2 each)" if per == 2 else "")
                + (f" and {extra} for the {act.pose.title()} pose" if extra else "")
                + (f"; it has {left} of {points} movement points left this turn ({', '.join(parts)}; "
                   f"{so_far.spent} spent by its earlier move this turn)" if later else
                   f"; it has {points} ({', '.join(parts)})"), S.FIGHTING_POSES if per == 2 else S.BATTLE_PHASE, f, sec)
    rule = S.POWER_SUIT_MOVEMENT if len(parts) > 1 and "Power Suit" in parts[1] else \
        S.FIGHTING_POSES if per == 2 else S.BATTLE_PHASE
    step = Step(f"{name} walks {start} → {goal}: {plural(len(path) - 1, 'Hex', 'Hexes')}, "
                + (f"{plural(cost, 'movement point')}; {left - cost - extra} of {points} movement points left"
                   if later else f"{cost} of {plural(points, 'movement point')}"), rule,
                "Path " + " → ".join(map(str, path)) + f" (the shortest legal walking path); points: "
                f"{', '.join(parts)}" + ("; 2 a Hex while Crouching." if per == 2 else "." + CORE_SET_COST)
                + (" Flying: the Power Suit's sheet gives it (9.5; 7.1.1), so Barrier Hex Sides may be crossed (5.1)."
                   if suit_flies and _crosses_barrier(amap, path) else ""),
                {"path": [str(h) for h in path], "points": cost, "of": points}
                | ({"left": left - cost - extra} if later else {}), (name, *map(str, path[1:])), sec)
    after = after_move(so_far, ctx, state, name, act, cost, True)
    state = _noted(_moved(state, {name: goal}), Moved(name, path, cost), step=step.title)
    return state, engaged + (step,), after


def evade_step(state: RoundState, ctx: RoundContext, name: str, act, field: str, sec: str, rule=None
               ) -> tuple[Step, ...]:
    """Engagement before an agent's walk: an agent engaged in combat (an adjacent alien, :func:`adjacent_foes`)
    moves away only after an Evade, a Core Set test this rulebook keeps (6.2) and names (7.3: the seized agent moves
    "without performing an Evade"; 10.2.1 and 11.11: NPCs and aliens disengage without one), but does not print:
    the file says the agent passed it with ``evade = true``. Next to Burrowing aliens only it is not engaged and
    moves away freely (7.2). With Fighting Poses on, standing up while engaged takes the entire movement activity
    (9.2.2), so no walk goes with it. A drone (Vigil, GD-5) is engaged as an agent is: it "counts as a normal
    agent for most purposes" (9.7.4.2, 9.7.4.3) and 7.2 names drones among the figures a Burrowing alien, unlike
    the others, never engages; its walk (the owner's ``drone`` Action with ``to``) needs ``evade = true`` too.

    ``evade = "failed"``: the figure is engaged and failed the test. What a failed Evade does is the Core Set's
    rule, not printed here: the STAND-IN is ruling ``failed_evade`` (the figure stays where it is, engaged; under
    ``movement_ends`` its Movement activity is over, :func:`walk` records it in :class:`TurnMovement`).

    Raises:
        RuleViolation: an engaged figure walking without ``evade``; ``evade`` (passed or failed) when not engaged;
            a walk with a stand-up while engaged. ``rule``: the section a refusal cites (a drone's Device, 9.7.4.2 /
            9.7.4.3; default 6.2 Battle Phase).
    """
    drone = rule is not None
    rule = rule or S.BATTLE_PHASE
    if getattr(act, "evade", None) is None:
        return ()                   # no engagement check asked for (an NPC or alien walk never comes here)
    foes, burrowers = adjacent_foes(state, ctx, name)
    if foes and ctx.scenario.fighting_poses and act.pose == "standing" and state.pose_of(name) != "standing":
        _refuse(ctx, f"{name} is engaged in combat ({', '.join(foes)}): standing up takes its entire movement "
                "activity, so it cannot also walk", S.FIGHTING_POSES, field, sec)
    if foes and not act.evade:
        _refuse(ctx, f"{name} is engaged in combat with {', '.join(foes)}: moving away needs an Evade (the Core Set "
                "test, not printed in this book" + ("; a drone counts as a normal agent" if drone else "")
                + "); evade = true if it passed, evade = \"failed\" if not", rule,
                field.rsplit(".", 1)[0] + ".evade", sec)
    if act.evade and not foes:
        _refuse(ctx, f"{name} is not engaged in combat" + (
            f": {', '.join(burrowers)} (Burrowing) never engage{'s' if len(burrowers) == 1 else ''}"
            if burrowers else " (no alien adjacent)") + ", so there is no Evade",
                S.BURROWING if burrowers else rule, field.rsplit(".", 1)[0] + ".evade", sec)
    steps: tuple[Step, ...] = ()
    if foes and act.evade == "failed":
        ends = not drone and ctx.rulings.reading("failed_evade") == "movement_ends"
        return (Step(f"{name} is engaged in combat with {', '.join(foes)}: its Evade fails, it stays at "
                     f"{where(state, name)}" + (" and its Movement activity ends" if ends else ""), rule,
                     "The Core Set's Evade test is named (7.3, 10.2.1, 11.11) but not printed in this book; the file "
                     "says it failed (evade = \"failed\"). STAND-IN for its effect: the figure does not move away "
                     "and stays engaged" + (", and it still fights (its Action has it move and fight; ruling "
                                            "failed_evade concerns an agent's Movement activity)." if drone else
                                            "; ruling failed_evade: " + ("its Movement activity is over for this "
                                                                         "turn." if ends else "only this walk is "
                                                                         "lost.")),
                     {"engaged": foes, "evade": "failed"}, (name,), sec),)
    if foes:
        steps += (Step(f"{name} is engaged in combat with {', '.join(foes)}: it Evades", rule,
                       "An engaged agent moves away only after an Evade, the Core Set test this book keeps (6.2) "
                       "and names in 7.3, 10.2.1 and 11.11 without printing it; the file says it passed "
                       "(evade = true)." + (" A drone counts as a normal agent for most purposes, and 7.2 names "
                                            "drones among the figures an alien engages." if drone else ""),
                       {"engaged": foes, "evade": True}, (name,), sec),)
    if burrowers:
        steps += (Step(f"{name} moves away from {', '.join(burrowers)} freely: Burrowing aliens never engage",
                       S.BURROWING, "Their targets are never engaged in combat, so an adjacent agent may freely "
                       "move away.", {"burrowing": burrowers}, (name,), sec),)
    return steps


def _equips_later(ctx: RoundContext, field: str) -> bool:
    """Whether the turn of activity ``field`` (``turns[i].activities[j]``) equips the Power Suit with a later
    activity (9.5.1: only then may the agent end its movement in the empty suit's Hex)."""
    import re

    m = re.match(r"turns\[(\d+)\]\.activities\[(\d+)\]", field)
    if m is None:
        return False
    i, j = int(m.group(1)), int(m.group(2))
    return any(a.suit == "equip" for a in ctx.scenario.turns[i].activities[j + 1:])


def _crosses_barrier(amap, path) -> bool:
    """Whether a walk steps across a Barrier Hex Side (an edge only a Flying figure's graph has, 5.1)."""
    ground = amap.graph(False)
    return any(not ground.has_edge(a, b) for a, b in zip(path, path[1:]))


# ------------------------------------------------------------------------------------------------ attacks

def range_to(state: RoundState, ctx: RoundContext, attacker: str, target: str, weapon: RoundWeapon
             ) -> tuple[bool, str]:
    """Whether ``target`` is within ``weapon``'s Range of ``attacker`` (9.2: the Range printed with a weapon is the
    maximum allowed range). Counted per ruling ``range_unit`` (consulted only for a weapon with a ``range``): in
    Areas (default: the Areas stepped through between the two figures' Areas, a Barrier Hex Side keeping its Areas
    adjacent, 5.1; line of sight is checked on its own) or in Hexes. Returns ``(within, words)``; a weapon without
    a ``range`` is always within it."""
    if weapon.range is None:
        return True, ""
    from .activation import range_distance

    counted = ctx.rulings.reading("range_unit")
    d = range_distance(ctx.amap, unit_hexes(state, ctx, attacker), hexes_of(state, target), counted)
    unit = ("Hex", "Hexes") if counted == "hexes" else ("Area", "Areas")
    if d is None:
        return False, f"no chain of Areas leads from {attacker} to {target} (Range {weapon.range})"
    words = f"{target} is {plural(d, *unit)} from {attacker}; {weapon.name}'s Range is {weapon.range}"
    return d <= weapon.range, words


def _target_state(state: RoundState, name: str) -> TargetState:
    t = next((x for x in state.agents + state.aliens + state.drones if x.name == name), None)
    if t is None:
        t = next(n.figure for n in state.npcs if n.figure.name == name)
    if t.kind == "agent" and state.suit is not None and state.suit.equipped_by == name:
        t = replace(t, suit_shields=state.suit_shields)
    return t


def _write_back(state: RoundState, targets) -> RoundState:
    by = {t.name: t for t in targets}
    agents = tuple(replace(by[a.name], suit_shields=None, pose="", pose_dice=0) if a.name in by else a
                   for a in state.agents)
    aliens = tuple(by.get(a.name, a) for a in state.aliens)
    drones = tuple(by.get(d.name, d) for d in state.drones)
    npcs = tuple(replace(n, figure=by[n.figure.name]) if n.figure.name in by else n for n in state.npcs)
    shields = state.suit_shields
    if state.suit is not None and state.suit.equipped_by in by and by[state.suit.equipped_by].suit_shields is not None:
        shields = by[state.suit.equipped_by].suit_shields
    gone = {t.name for t in targets if t.down and t.kind != "agent"}
    return replace(state, agents=agents, aliens=aliens, npcs=npcs, suit_shields=shields, drones=drones,
                   figures=tuple(p for p in state.figures if p.name not in gone))


def attack_on_map(state: RoundState, ctx: RoundContext, attacker: str, kind: str, weapon: RoundWeapon, target: str,
                  rolled, field: str, sec: str, *, controller: str | None = None, bonus_hits: int = 0,
                  bonus_dice: dict | None = None, suit: bool = False, pose_hits: int = 0,
                  rolled_at: str | None = None) -> tuple[RoundState, tuple[Step, ...]]:
    """One attack on the round's map, resolved by the ``combat`` kind's :data:`.combat.ATTACK_SEQUENCE` (target
    selection with the map's Areas for Area and Explosion damage, the Hit roll, each target's defence, wounds,
    Poison, the Critical token, the Menace token) over every opponent on the map; the wounds, tokens and the Power
    Suit's shields go back into the round, and a dead alien or NPC leaves the map (10.4). ``field`` names the
    activity in a refusal; ``rolled_at`` where ``rolled`` sits in the file when that is not ``<field>.rolled`` (a
    Close Encounter card's ``turns[i].close_encounter.rolled.<alien>``)."""
    line = attack_line(state, ctx, attacker, target)     # before the attack: a target killed leaves the map
    foes = ("alien", "master_alien") if kind in ("agent", "npc", "drone") else ("agent", "npc", "drone", "hologram")
    names = [p.name for p in state.figures if p.side in foes]
    allies, fire = friendly_fire(state, ctx, attacker, kind, weapon, sec)
    names += allies
    targets = pose_defence(state, ctx, tuple(_target_state(state, n) for n in names), weapon, attacker, sec)
    spots = {n: hexes_of(state, n) for n in names}
    atk = AttackModel(attacker=attacker, attacker_kind=kind if kind != "master_alien" else "master_alien",
                      weapon=weapon.name, dice=dict(weapon.dice), fixed_hits=weapon.fixed_hits, bonus_hits=bonus_hits,
                      bonus_dice=dict(bonus_dice or {}), effect_symbols=list(weapon.effect_symbols),
                      power_suit_weapon=suit, damage=weapon.damage, target=target,
                      effects=[e.model_dump() for e in weapon.effects],
                      rolled=rolled.model_dump() if rolled is not None else None, controller=controller)
    atk._pose_hits = pose_hits
    if atk.rolled is not None:      # dice fixed for an ally stay valid under either reading of friendly_fire_reach
        check_rolled_keys(atk, names + [a for a in fire_allies(state, ctx, attacker, kind, weapon) if a not in names],
                          field, ctx.source, rolled_at)
    cctx = CombatContext(rulings=ctx.rulings, dice=ctx.dice, attacks=(atk,),
                         tables=(TableDice(default_calibration(), atk.rolled, ctx.dice, piles=ctx.piles),),
                         high_impact=ctx.scenario.high_impact, source=ctx.source, amap=ctx.amap, spots=spots)
    with with_source(ctx.source, f"{field}.", rolled_at):
        after, steps = run(CombatState(targets, state.menace), ATTACK_SEQUENCE, cctx)
    state = replace(_write_back(state, after.targets), menace=after.menace)
    gone: list[Step] = []
    steps = list(steps)
    for t in after.targets:
        if t.kind == "drone" and t.down:
            from .cards import DEVICE_RULE
            from .round_signals import drone_gone, owner_of

            # The combat kind knows only that a drone died; its Device's own section (9.7.4.2 Vigil, 9.7.4.3 GD-5:
            # "when it reaches 0 HPs, it is destroyed") decides it, not 9.3.1 (which only introduces the wound token).
            steps = [replace(s, rule=DEVICE_RULE[owner_of(ctx, t.name)[0]])
                     if s.rule == S.HEALTH_POINTS and s.title == f"{t.name} dies" else s for s in steps]
            state = drone_gone(state, ctx, t.name)
            gone.append(Step(f"{t.name} is destroyed: it leaves the map and its Device is discarded",
                             DEVICE_RULE[owner_of(ctx, t.name)[0]], "At 0 Health points a drone is destroyed and "
                             "cannot be used again this mission (unless the Agency sends it back in reinforcements).",
                             section=sec, marks=(attacker,), facts={"destroyed": t.name}))
        unit = unit_of(ctx, t.name)
        if t.down and t.kind in ("alien", "master_alien") and len(members(ctx, unit)) > 1:
            left = [m for m in members(ctx, unit) if m != t.name and where(state, m) is not None]
            gone.append(Step(f"Prime Swarm {unit}: " + (
                f"one figure dead, the unit lives on while {left[0]} is alive" if left else
                "both figures are dead: the unit is destroyed and its Alien card discarded"), S.PRIME_SWARM,
                "Each figure has its own Health points; the unit is destroyed only when all its figures die.",
                section=sec, marks=(t.name,), facts={"unit": unit, "destroyed": not left}))
    note = Attacked(attacker, target, after.roll.hits if after.roll else None,
                    tuple((r.name, r.wounds, r.status) for r in after.results), line)
    return _noted(state, note, step=steps[-1].title if steps else ""), fire + \
        tuple(s.in_section(f"{sec}: {s.section}" if s.section else sec) for s in steps) \
        + tuple(gone)


def fire_allies(state: RoundState, ctx: RoundContext, attacker: str, kind: str, weapon: RoundWeapon) -> list[str]:
    """The allies Friendly Fire may put in an attack's reach (:func:`friendly_fire`): with the rule ON, for an Area
    Damage or Explosion attack of an agent, NPC or drone, every agent, NPC and drone on the map but the attacker;
    else none. Consults no ruling."""
    if not ctx.scenario.friendly_fire or kind not in ("agent", "npc", "drone") or weapon.damage == "single":
        return []
    return [p.name for p in state.figures if p.side in ("agent", "npc", "drone") and p.name != attacker]


def friendly_fire(state: RoundState, ctx: RoundContext, attacker: str, kind: str, weapon: RoundWeapon, sec: str
                  ) -> tuple[list[str], tuple[Step, ...]]:
    """Friendly Fire (the file's ``friendly_fire``, an optional rule: Storybook 6, OFF but at HARD) on an attack of
    the agents' side: 10.2.2 makes it valid for NPC attacks too. The rule's text is the Core Set's, not printed
    here; what it does is ruling ``friendly_fire_reach``, consulted only for an Area Damage or Explosion attack
    while it is ON: ``area_allies`` (default) adds every ally on the map (agents, NPCs, drones; never the attacker)
    to the figures the attack may reach, so 8.4 reaches those in its Areas and each defends on its own;
    ``none_printed`` reaches none. Returns ``(the allies added, steps)``: nothing when OFF, for an alien's attack or
    a single-target attack."""
    if not fire_allies(state, ctx, attacker, kind, weapon):
        return [], ()
    rule = S.NPC_COMBAT if kind == "npc" else S.LEVEL_OF_DIFFICULTY
    who = "an NPC's attack (10.2.2: valid for NPC attacks too)" if kind == "npc" else f"this {kind}'s attack"
    if ctx.rulings.reading("friendly_fire_reach") == "none_printed":
        return [], (Step(f"Friendly Fire is ON for {attacker}'s {weapon.name}: no ally is reached", rule,
                         f"The optional rule holds for {who}; this book prints no effect of it (ruling "
                         "friendly_fire_reach = none_printed).", {"friendly_fire": []}, (attacker,), sec),)
    allies = fire_allies(state, ctx, attacker, kind, weapon)
    return allies, (Step(f"Friendly Fire is ON: {attacker}'s {weapon.name} ({weapon.damage.title()} Damage) can "
                         "reach its allies too", rule, f"The optional rule holds for {who}: the "
                         f"{'Area Damage' if weapon.damage == 'area' else 'Explosion'} reaches every figure in its Areas (8.4 'all targets'), allies as well as aliens, each "
                         "defending on its own; the attacker is never its own target (ruling friendly_fire_reach). "
                         "Allies on the map: " + (", ".join(allies) or "none") + ".",
                         {"friendly_fire": allies}, (attacker,), sec),)


def agent_attack(state: RoundState, ctx: RoundContext, agent, act, field: str, sec: str, bonus_hits: int,
                 bonus_dice: dict) -> tuple[RoundState, tuple[Step, ...]]:
    """The agent's Combat activity on the map (9.2): its target an alien on the map in line of sight (ruling
    ``line_of_sight``); its weapon, or the Power Suit's with ``suit = "weapon"`` (9.5.2.2: Red and Blue dice, no
    jam, no ammo); the hits and Hit dice of the cards it used for this attack (9.7); then :func:`attack_on_map`.

    Raises:
        RuleViolation: the target dead (off the map), no line of sight, no weapon, the target beyond the weapon's
            Range (:func:`range_to`), or a card adding dice of a colour the weapon does not roll.
    """
    name = agent.name
    t = act.target
    f = f"{field}.target"
    spot = where(state, t)
    if spot is None:
        _refuse(ctx, f"{t} is dead: it is no longer on the map", S.AGENT_COMBAT, f, sec)
    clear, why = sight(ctx, hexes_of(state, name), hexes_of(state, t))
    multi = len(hexes_of(state, t)) > 1
    if not clear:
        _refuse(ctx, f"{name} has no line of sight to {t}" + (" (to neither hex of its base)" if multi else "")
                + f": {why}", S.MULTI_HEX if multi else S.AGENT_COMBAT, f, sec)
    suit = act.suit == "weapon"
    if suit:
        from .round import RoundWeapon

        w = ctx.scenario.power_suit.weapon or RoundWeapon(**SUIT_WEAPON)
    else:
        w = agent.weapon
        if w is None:
            _refuse(ctx, f"{name} has no weapon in the file", S.AGENT_COMBAT, f"{field}.target", sec)
    within, words = range_to(state, ctx, name, t, w)
    if not within:
        _refuse(ctx, f"{t} is beyond {w.name}'s Range: {words} (ruling range_unit)", S.WEAPON_RANGE, f, sec)
    first = (Step(f"{t} is within {w.name}'s Range", S.WEAPON_RANGE, words + ".", section=sec, marks=(name, t)),) \
        if w.range is not None else ()
    if multi:
        seen = attack_line(state, ctx, name, t)[1]
        first = (Step(f"{name} can attack {t}: {seen}, a hex of its two-hex base, is in line of sight", S.MULTI_HEX,
                      f"Base {' + '.join(map(str, hexes_of(state, t)))}; the line of sight is traced to {seen}; one "
                      "hex in line of sight is enough, whatever the other." + (" Its Range is counted to the closer hex." if w.range is not None else ""),
                      section=sec, marks=(name, t)),) + first
    colours = [c for c, n in w.dice.items() if n]
    for c, n in bonus_dice.items():
        if n and c not in colours:
            _refuse(ctx, f"a card adds a {c} die, but {w.name} rolls " + (" and ".join(colours) or "no dice") +
                    " (a power adds dice of the weapon's colours)", S.AGENT_COMBAT, f"{field}.use", sec)
    bonus, pose_steps = pose_attack_bonus(state, ctx, name, w, sec)
    state, steps = attack_on_map(state, ctx, name, "agent", w, t, act.rolled, field, sec,
                                 bonus_hits=bonus_hits + bonus, bonus_dice=bonus_dice, suit=suit, pose_hits=bonus)
    return state, first + pose_steps + steps


def _pose_of(state: RoundState, ctx: RoundContext, name: str) -> str:
    return state.pose_of(name) if ctx.scenario.fighting_poses else "standing"


def _weapon_field(ctx: RoundContext, attacker: str) -> str:
    """The file field of ``attacker``'s weapon's ``melee`` (an agent, NPC or alien; else a drone's tile)."""
    for key in ("agents", "npcs", "aliens"):
        for i, x in enumerate(getattr(ctx.scenario, key)):
            if x.name == unit_of(ctx, attacker):
                return f"{key}[{i}].weapon.melee"
    return "drone_tiles.weapon.melee"


def _needs_melee(ctx: RoundContext, w: RoundWeapon, attacker: str, who: str, pose: str, sec: str) -> None:
    if w.melee is None:
        _refuse(ctx, f"{who} is {pose.title()}: its Fighting Pose's number depends on whether {w.name} is a melee or "
                "a ranged weapon, which the file does not say (melee = true or false)", S.FIGHTING_POSES,
                _weapon_field(ctx, attacker), sec)


def pose_attack_bonus(state: RoundState, ctx: RoundContext, name: str, w: RoundWeapon, sec: str
                      ) -> tuple[int, tuple[Step, ...]]:
    """9.2.2 Fighting Poses (with ``fighting_poses = true``): an agent Crouching or Prone adds its pose token's
    Range Attack Bonus in hits to each ranged attack (a melee attack gets nothing); the numbers are the STAND-IN
    tokens of ``card_data/fighting-poses.toml`` unless the file's ``fighting_pose_tokens`` gives them. Returns
    ``(hits added, steps)``.

    Raises:
        RuleViolation: the pose gives a bonus but the weapon's ``melee`` is not given.
    """
    from .poses import is_stand_in, pose_tokens

    pose = _pose_of(state, ctx, name)
    tok = pose_tokens(ctx.scenario.fighting_pose_tokens)[pose]
    if pose == "standing" or not tok.range_attack_bonus:
        return 0, ()
    _needs_melee(ctx, w, name, name, pose, sec)
    if w.melee:
        return 0, (Step(f"{name} is {pose.title()}: no bonus to a melee attack", S.FIGHTING_POSES,
                        "The Range Attack Bonus counts for ranged attacks only.", section=sec, marks=(name,)),)
    b = tok.range_attack_bonus
    stand_in = is_stand_in(ctx.scenario.fighting_pose_tokens, pose, "range_attack_bonus")
    return b, (Step(f"{name} is {pose.title()}: +{plural(b, 'hit')} to this ranged attack", S.FIGHTING_POSES,
                    "The pose token's Range Attack Bonus" + (" (a STAND-IN value: the book prints it only on the "
                                                             "token)." if stand_in else " (the file's token)."),
                    {"pose": pose, "bonus_hits": b}, (name,), sec),)


def pose_defence(state: RoundState, ctx: RoundContext, targets: tuple[TargetState, ...], w: RoundWeapon,
                 attacker: str, sec: str) -> tuple[TargetState, ...]:
    """9.2.2 Fighting Poses: each agent target Crouching or Prone rolls its pose token's Range Defense Bonus in
    extra Def dice against a ranged attack, or its Melee Defense Penalty fewer against a melee attack
    (:attr:`.combat.TargetState.pose_dice`, for this attack only).

    Raises:
        RuleViolation: a pose number applies but the attacking weapon's ``melee`` is not given.
    """
    from .poses import pose_tokens

    if not ctx.scenario.fighting_poses:
        return targets
    toks = pose_tokens(ctx.scenario.fighting_pose_tokens)
    out = []
    for t in targets:
        pose = state.pose_of(t.name) if t.kind == "agent" else "standing"
        tok = toks[pose]
        if pose != "standing" and (tok.range_defense_bonus or tok.melee_defense_penalty):
            _needs_melee(ctx, w, attacker, t.name, pose, sec)
            t = replace(t, pose=pose, pose_dice=-tok.melee_defense_penalty if w.melee else tok.range_defense_bonus)
        out.append(t)
    return tuple(out)


# ------------------------------------------------------------------------------------------------ A.I. on the map

def activate_on_map(state: RoundState, ctx: RoundContext, name: str, kind: str, who, sec: str, *,
                    immobilized: bool = False, paralyzed: bool = False, held: tuple[str, ...] = ()):
    """One alien or NPC activation on the round's map: the ``activation`` kind's :data:`.activation
    .ACTIVATION_SEQUENCE` (targeting, the behavior rules of ``who.rules``, the walk, the end hex) with every other
    figure where the round has it (the Menacing Agent's token level for an Archenemy, 11.3.1). A Prime Swarm unit
    (11.6) activates with its figures on the map (``held``: a figure left out, which stays where it is): the one
    closer to the target leads and the other follows it (the ``activation`` kind's ``swarm``). Returns ``(state with
    the figures moved, steps, the ActivationOutcome)``."""
    m = ctx.scenario.map
    menace = state.menace
    unit = [p for p in state.figures if p.name in (members(ctx, name) if kind != "npc" else (name,))
            and p.name not in held]
    me = unit[0]
    mate = unit[1] if len(unit) > 1 else None
    mine = "npc" if kind == "npc" else "alien"
    figures = []
    read: list[Step] = []
    for p in state.figures:
        if p in unit:
            continue
        if p.side == "power_suit":      # 9.5: ignored by aliens, crossed, never an end hex: a hex of its own side
            figures.append(FigureModel(name=p.name, side=mine, at=str(p.at)))
            continue
        side = "alien" if p.side == "master_alien" else "agent" if p.side == "hologram" else p.side
        face, rest = _facing(ctx, me.hexes, p)
        if rest is not None and kind == "npc":
            seen = sight(ctx, me.hexes, (face,))[0]
            read.append(Step(f"{name} reads {p.name} by {face}, " + ("a base hex in its line of sight" if seen else
                                                                     "the closer base hex"),
                             S.MULTI_HEX, f"{p.name} stands on a two-hex base ({p.at} + {p.base}): it can be attacked "
                             "when one base hex is in line of sight; the other hex stays occupied.",
                             section=sec, marks=(name, p.name)))
        figures.append(FigureModel(name=p.name, side=side, at=str(face),
                                   menace=menace.level if menace is not None and p.name == menace.holder else 0))
        if rest is not None:    # the rest of a multi-hex base: occupied, never a target (11.8)
            figures.append(FigureModel(name=_rest_name(p.name), side=mine, at=str(rest)))
    w = getattr(who, "weapon", None)
    rng = w.range if w is not None else None
    act = ActivatingModel(name=name, kind=mine, at=str(me.at), base=str(me.base) if me.base else None,
                          swarm=str(mate.at) if mate is not None else None,
                          flying=getattr(who, "flying", False), burrowing=getattr(who, "burrowing", False),
                          archenemy=getattr(who, "archenemy", False), paralyzed=paralyzed, immobilized=immobilized,
                          weapon=w.name if rng is not None else None, range=rng)
    sc = ActivationScenario(title=name, areas=m.areas, centres=m.centres, blocking=m.blocking, edges=m.edges,
                            activating=act, figures=figures, rules=who.rules)
    chosen = {"line_of_sight": ctx.rulings.reading("line_of_sight")}
    if rng is not None and any(r.action == "attack" for r in who.rules):
        chosen["range_unit"] = ctx.rulings.reading("range_unit")
    _frames, trace = play_activation(sc, chosen)
    o = trace.result
    multi = {p.name for p in state.figures if p.base is not None}
    moves = {name: o.end} | {n: h for n, h in o.figures if n not in multi and not n.endswith(REST)}
    if mate is not None:                        # the Prime Swarm figure that led moved to o.end, the other after it
        lead, other = (me, mate) if me.at == o.start else (mate, me)
        moves = {n: h for n, h in moves.items() if n != name} | {lead.name: o.end, other.name: o.second or other.at}
    elif me.name != name:                       # the second figure alone (the first dead, or held)
        moves = {n: h for n, h in moves.items() if n != name} | {me.name: o.end}
    follows = {other.name: moves.pop(other.name)} if mate is not None else {}
    new = _moved(state, moves, {name: o.second} if me.base is not None and o.second is not None else None)
    ends = next((s.title for s in trace.steps if "end" in s.facts), trace.steps[-1].title)
    if len(o.path) > 1:             # shown from the end-of-movement step; a Prime Swarm's follower from its own
        walker = name if mate is None and me.name == name else next(n for n, h in moves.items() if h == o.end)
        new = _noted(new, Moved(walker, tuple(o.path)), step=ends)
    if follows:
        new = _moved(new, follows)
        if follows[other.name] != other.at:
            placed = next((s.title for s in trace.steps if "second" in s.facts), trace.steps[-1].title)
            new = _noted(new, Moved(other.name, (other.at, follows[other.name])), step=placed)
    steps = tuple(read) + tuple(s.in_section(f"{sec}: {s.section}" if s.section else sec) for s in trace.steps)
    if len(o.path) > 1:
        steps += disengaged(state, new, ctx, me.name if mate is None else name, kind, f"{sec}: Movement")
    return new, steps, o


def attack_line(state: RoundState, ctx: RoundContext, attacker: str, target: str) -> tuple[Hex, Hex] | None:
    """The hexes an attack of ``attacker`` on ``target`` is traced between: ``(attacker's hex, target's hex)``. The
    target's is the hex the rules read it by (:func:`_facing`: a multi-hex alien's base hex in line of sight first,
    then the closer, 11.8); the attacker's is one of its hexes with line of sight to it (ruling ``line_of_sight``),
    then the closer. ``None`` when either figure is off the map."""
    froms = unit_hexes(state, ctx, attacker)
    p = next((x for x in state.figures if x.name == target), None)
    if not froms or p is None:
        return None
    to, _rest = _facing(ctx, froms, p)
    strict = ctx.rulings.reading("line_of_sight") == "strict"
    fr = min(froms, key=lambda a: (not ctx.amap.line_of_sight(a, to, strict)[0], distance(a, to)))
    return fr, to


REST = " (rest of base)"
"""The name suffix of a multi-hex alien's second base hex handed to the ``activation`` kind as an occupied hex."""


def _rest_name(name: str) -> str:
    return name[:40 - len(REST)] + REST


def _facing(ctx: RoundContext, froms: tuple[Hex, ...], p: Placed) -> tuple[Hex, Hex | None]:
    """The hex of figure ``p`` an activating figure on ``froms`` reads it by, and the rest of its base: a multi-hex
    alien is read by a base hex in line of sight first, then the closer in Areas, then in hexes (11.8: it can be
    attacked when one hex of its base is in line of sight; distances to a figure use its closest hex). A one-hex
    figure: ``(its hex, None)``."""
    if p.base is None:
        return p.at, None
    from .activation import area_distance

    g = ctx.amap.area_graph(True)

    def key(h: Hex):
        seen = sight(ctx, froms, (h,))[0]
        ds = [d for d in (area_distance(ctx.amap, g, a, h) for a in froms) if d is not None]
        return (not seen, min(ds) if ds else 99, min(distance(a, h) for a in froms))

    face = min(p.hexes, key=key)
    return face, next(h for h in p.hexes if h != face)


def attacks_now(state: RoundState, ctx: RoundContext, name: str, who, o, sec: str) -> tuple[bool, tuple[Step, ...]]:
    """Whether the activation ends with an attack: its behavior rule attacks (10.2.2, 11.12), or moved and says
    "and attack" (``attack_after``) and the target, still on the map, is in line of sight after the move (10.1,
    11.11: a behavior needs line of sight). Returns ``(attacks, steps)``."""
    if o.rule is None or o.target is None or where(state, o.target) is None:
        return False, ()
    if o.action == "attack":
        return True, ()
    if not who.rules[o.rule].attack_after:
        return False, ()
    npc = any(p.name == name and p.side == "npc" for p in state.figures)
    clear, why = sight(ctx, unit_hexes(state, ctx, name), hexes_of(state, o.target))
    rule = S.NPC_COMBAT if npc else S.ALIEN_COMBAT
    if not clear:
        return False, (Step(f"{name} cannot attack {o.target} after its move: {why}", rule, "The rule's attack needs "
                            "line of sight.", section=sec, marks=(name, o.target)),)
    return True, (Step(f"{name} attacks {o.target} after its move, as its rule says", rule, "", section=sec,
                       marks=(name, o.target)),)


def beyond_range(state: RoundState, ctx: RoundContext, name: str, weapon: RoundWeapon, target: str, rule, sec: str
                 ) -> tuple[bool, tuple[Step, ...]]:
    """The attack of a "move ... and attack" behavior rule (``attack_after``), after the move, checked against the
    weapon's Range (:func:`range_to`; ``rule``: the section cited, 9.2 :data:`.sections.WEAPON_RANGE`): beyond it the
    attack is not made, the rule's move having been applied (10.2.2 and 11.12 play NPC and alien attacks by the
    standard combat rules, which allow no attack beyond a weapon's Range). An "attack" rule's Range is checked by the
    A.I. itself (:func:`.activation.check_rule`: beyond it the rule cannot be applied and the next one is, 10.2.1,
    11.11). Returns ``(attacks, steps)``; no step for a weapon without a ``range``."""
    within, words = range_to(state, ctx, name, target, weapon)
    if weapon.range is None:
        return True, ()
    if within:
        return True, (Step(f"{target} is within {weapon.name}'s Range", rule, words + ".", section=sec,
                           marks=(name, target)),)
    return False, (Step(f"{name} cannot attack {target}: beyond {weapon.name}'s Range", rule,
                        words + " (ruling range_unit). The attack is not made.", section=sec,
                        marks=(name, target)),)


def npc_on_map(state: RoundState, ctx: RoundContext, npc, model, act, field: str, sec: str
               ) -> tuple[RoundState, tuple[Step, ...]]:
    """An NPC activation on the map (10.2): its A.I. section played by :func:`activate_on_map` (an Immobilized NPC
    follows only behavior without movement, 10.4.1), then, when a rule attacks, its weapon against the target
    (10.2.2: NPC weapons never jam and use no Ammo; the controlling agent moves the Menace token)."""
    state, steps, o = activate_on_map(state, ctx, npc.figure.name, "npc", model, sec, immobilized=npc.immobilized)
    ok, more = attacks_now(state, ctx, npc.figure.name, model, o, sec)
    steps += more
    if ok and o.action != "attack":             # an "attack" rule's Range was checked by the A.I. (10.2.1)
        ok, more = beyond_range(state, ctx, npc.figure.name, model.weapon, o.target, S.WEAPON_RANGE, sec)
        steps += more
    if not ok:
        return state, steps
    note = Step(f"{npc.figure.name} attacks {o.target} with {model.weapon.name}", S.NPC_COMBAT,
                f"Its controller, {npc.controller}, rolls for it; an NPC's weapon never jams and uses no Ammo (jam and "
                "ammo results are ignored).", section=sec, marks=(npc.figure.name, o.target))
    state, more = attack_on_map(state, ctx, npc.figure.name, "npc", model.weapon, o.target, act.rolled, field, sec,
                                controller=npc.controller)
    return state, steps + (note,) + more


def close_encounter_step(state: RoundState, ctx: RoundContext, number: int) -> tuple[RoundState, tuple[Step, ...]]:
    """11.5 Alien Activation: the Close Encounter card drawn after agent turn ``number`` and the aliens it activates,
    in the order the file lists them (the file says which; the ``close_encounter`` kind selects the X aliens of
    cards 22-25)."""
    turn = ctx.scenario.turns[number - 1]
    ce = turn.close_encounter
    sec = f"Aliens turn {number}"
    if not ce.activates:
        return select_x_aliens(state, ctx, number)
    names = ", ".join(ce.activates) or "no alien"
    step = Step(f"{turn.agent} draws Close Encounter card {ce.card}: it activates {names}", S.ALIEN_ACTIVATION,
                "Each activated alien follows its A.I. section in turn, on the map as the agents left it.",
                {"card": ce.card, "activates": list(ce.activates)}, tuple(ce.activates), sec)
    return _noted(replace(state, selected=tuple(ce.activates)), CardDrawn(ce.card, turn.agent, tuple(ce.activates)),
                  step=step.title), \
        (step,)


def revealed_waits(state: RoundState, ctx: RoundContext, model, sec: str) -> tuple[Step, ...] | None:
    """The step when alien ``model`` cannot be activated because it came from a signal: still a signal on the map
    (an alien enters play only when its Alien signal is revealed, 11.10), or revealed this round under ruling
    ``revealed_alien_activation`` = next_round. ``None``: it is in play and may be activated."""
    if model.signal is None:
        return None
    if model.signal in {g.name for g in state.signals}:
        return (Step(f"{model.name} is not in play: Alien signal {model.signal} has not been revealed", S.SIGNALS,
                     "Until revealed a signal follows the signal rules; the card activates no alien for it.",
                     section=sec, marks=(model.signal,)),)
    if model.name in state.revealed and ctx.rulings.reading("revealed_alien_activation") == "next_round":
        return (Step(f"{model.name} entered play this round from signal {model.signal}: it is not activated",
                     S.SIGNALS, "Ruling revealed_alien_activation = next_round: an alien revealed in the Agents' "
                     "phase is first activated next round.", section=sec, marks=(model.name,)),)
    return None


def select_x_aliens(state: RoundState, ctx: RoundContext, number: int) -> tuple[RoundState, tuple[Step, ...]]:
    """11.5 "Activate X aliens" (cards 21-25) inside the round, with the ``close_encounter`` kind's rules
    (:func:`.phases.aliens_to_activate`, :func:`.phases.selection_order`, :func:`.phases.select_aliens`): X from the
    card (card 25: the agents in play, bleeding ones included, drones and NPCs not), the aliens on the map in the
    Alpha Agent's player's order (the Alpha Agent now, :func:`.round.alpha_succession`) then turn order (the file's
    agents, clockwise), highest rank first, a Paralyzed one passed over while another alien is in play (11.9.1). A
    selected Paralyzed alien skips its activation."""
    from .phases import AlienEntry, aliens_to_activate, select_aliens, selection_order
    from .round import clockwise_from_alpha

    sc = ctx.scenario
    turn = sc.turns[number - 1]
    ce = turn.close_encounter
    sec = f"Aliens turn {number}"
    players = clockwise_from_alpha(state, ctx)
    on_map = {p.name for p in state.figures}
    entries = []
    for x in sc.aliens:
        alive = [m for m in members(ctx, x.name) if m in on_map]
        if not alive or revealed_waits(state, ctx, x, sec) is not None:
            continue                    # dead, still a signal, or revealed this round (ruling)
        crit = [m for m in alive if _target_state(state, m).critical_x("paralyzed") is not None]
        if len(crit) < len(alive) and crit and ctx.rulings.reading("prime_swarm_paralyzed") == "figure":
            crit = []                   # the other figure activates as the unit
        para = (x.name in state.paralyzed_aliens or bool(crit)) and x.kind == "alien"
        entries.append(AlienEntry(name=x.name, controller=x.controller or sc.agents[0].name, rank=x.rank, paralyzed=para))
    n, first = aliens_to_activate(ce.card, ce.x, len(state.agents))
    order, second = selection_order(entries, players)
    chosen, more = select_aliens(order, n, ce.card, ctx.rulings)
    names = tuple(a.name for a in chosen)
    head = Step(f"{turn.agent} draws Close Encounter card {ce.card}", S.ALIEN_ACTIVATION,
                "An 'Activate X aliens' card: the aliens are selected as 11.5 says.", {"card": ce.card},
                (), sec)
    steps = (head, *(x.in_section(sec) for x in (first, second, *more)))
    return _noted(replace(state, selected=names), CardDrawn(ce.card, turn.agent, names), step=head.title), steps


def alien_activation(state: RoundState, ctx: RoundContext, number: int, name: str
                     ) -> tuple[RoundState, tuple[Step, ...]]:
    """One alien activated by the Close Encounter card of turn ``number`` (11.5, 11.11, 11.12): a dead alien is off
    the map; a Paralyzed one skips its activation (11.9.1; a Master Alien ignores Paralyze, 11.3); else its A.I.
    section on the map (:func:`activate_on_map`) and, when a rule attacks, its weapon against the target with the
    Close Encounter's fixed dice for it (:func:`attack_on_map`)."""
    sc = ctx.scenario
    if name.startswith("#"):
        k = int(name[1:])
        if k > len(state.selected):
            return state, ()
        name = state.selected[k - 1]
    model = next(x for x in sc.aliens if x.name == name)
    sec = f"Aliens turn {number}: {name}"
    waiting = revealed_waits(state, ctx, model, sec)
    if waiting is not None:
        return state, waiting
    on_map = [m for m in members(ctx, name) if where(state, m) is not None]
    if not on_map:
        return state, (Step(f"{name} is dead: it is no longer on the map", S.ALIEN_ACTIVATION, "" if model.swarm is None
                            else "Both figures of the Prime Swarm died: its Alien card is discarded.", section=sec,
                            marks=(name,)),)
    can = model.kind == "alien" or model.archenemy
    stopped = [m for m in on_map if can and (
        name in state.paralyzed_aliens or _target_state(state, m).critical_x("paralyzed") is not None)]
    held: tuple[str, ...] = ()
    pre: tuple[Step, ...] = ()
    paralyzed = bool(stopped)
    if model.swarm is not None and stopped and len(stopped) < len(on_map):
        reading = ctx.rulings.reading("prime_swarm_paralyzed")
        if reading == "figure" and name not in state.paralyzed_aliens:
            held, paralyzed = tuple(stopped), False
        pre = (Step(f"{', '.join(stopped)} {'is' if len(stopped) == 1 else 'are'} Paralyzed: " + (
            "that figure stays where it is; the other activates as the unit" if held else
            "the whole Prime Swarm unit skips its activation") + " (ruling prime_swarm_paralyzed)", S.PRIME_SWARM,
            "The unit is one alien with one Alien card (11.6); a Paralyzed alien skips its activations (11.9.1).",
            section=sec, marks=tuple(stopped), facts={"held": list(held)}),)
    elif model.swarm is not None and len(on_map) == 1 and not stopped:
        pre = (Step(f"Only {on_map[0]} of the Prime Swarm is alive: it activates alone", S.PRIME_SWARM,
                    "The unit is destroyed only when all its figures die.", section=sec, marks=(on_map[0],)),)
    state, steps, o = activate_on_map(state, ctx, name, model.kind, model, sec, paralyzed=paralyzed, held=held)
    steps = pre + steps
    ok, more = attacks_now(state, ctx, name, model, o, sec)
    steps += more
    if ok and o.action != "attack":             # an "attack" rule's Range was checked by the A.I. (11.11)
        ok, more = beyond_range(state, ctx, name, model.weapon, o.target, S.WEAPON_RANGE, sec)
        steps += more
    if not ok:
        return state, steps
    rolled = sc.turns[number - 1].close_encounter.rolled.get(name)
    if any(p.name == o.target and p.side == "hologram" for p in state.figures):
        from .round_signals import hologram_attacked

        state, more = hologram_attacked(state, ctx, name, o.target, sec)
        return state, steps + more
    state, more = attack_on_map(state, ctx, name, model.kind, model.weapon, o.target, rolled,
                                f"turns[{number - 1}].close_encounter.rolled.{name}", sec,
                                rolled_at=f"turns[{number - 1}].close_encounter.rolled.{name}")
    return state, steps + more
