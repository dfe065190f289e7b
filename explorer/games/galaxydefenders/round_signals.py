"""NPC signals and robot drones in a Galaxy Defenders round played on a map.

NPC signals (11.10.1): a signal on the map (``[[signals]]``, ``kind = "npc"``) follows the standard signal rules
until it is revealed; when it is (a ``move`` activity's ``reveal`` list: the Core Set decides when a signal is
revealed, and this rulebook does not print that rule, so the file says which signals the move revealed), it is
replaced with a new NPC: the Alpha Agent draws the top card of the NPC deck (``[[npc_deck]]``, top first; 10.1.1),
the card is assigned by 10.1.2 (:func:`.phases.assign_npc`: the first player clockwise from the Alpha Agent with no
NPC card or fewer than the others, a tie to the Alpha Agent, or every NPC to ``npc_specialist``), its figure stands
where the signal was and the token is discarded. When the NPC deck has run out, the discard pile (``[[npc_discard]]``
and the cards of NPCs dead in play, 10.4) is reshuffled into a new deck first (10.1.1; shuffled from the round's
seed, so the same seed gives the same deck). With five NPCs in play, or no card left in the NPC deck nor its
discard pile (every NPC figure in play), revealing it only discards the token (10.1.2). When the new NPC is first activated is ruling
``revealed_npc_activation`` (10.2 is silent on an NPC that arrives in the middle of its controller's turn).
An Alien signal (11.10) brings the alien the file gives it (``[[aliens]]`` with ``signal``: which alien is a Core Set
rule this book does not print) onto the signal's hex, the token discarded; when it is first activated is ruling
``revealed_alien_activation``. A Human signal's effect is not printed here: its token is only discarded.

Drones (9.7.4): a Device that ``deploys`` a figure places it when used with the Action (``place``: Vigil and GD-5 on
an empty Hex adjacent to the agent, 9.7.4.2, 9.7.4.3; the Hologram on an empty Hex within 1 Area, 9.7.4.1); a drone
deployed in an earlier round stands where ``[[drones]]`` puts it. From the owner's next turn its Action activates
Vigil or GD-5 (``drone`` on an ``action``): it walks at most its tile's movement in Hexes (``to``; Vigil flies
over Barrier Hex Sides) and attacks (``target``) with its tile's weapon, which never jams (GD-5's attacks always deal
Area Damage). Aliens treat drones as agents (11: targeting, moving, attacking); a Hologram cannot move or attack and
is destroyed when attacked (9.7.4.1). A drone at 0 Health points is destroyed and its Device discarded. Drones and
NPCs do not count as agents for Event cards (6.3, 10.1). The tiles are not printed in this rulebook: the values in
:data:`DRONE_TILES` are STAND-INs, replaced per kind by a file's ``[drone_tiles.<kind>]``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import TYPE_CHECKING

from explorer.errors import ScenarioError
from explorer.hexgrid import Hex, distance
from explorer.trace import Step

from . import sections as S
from .cards import DEVICE_RULE, FIGURE
from .combat import TargetState

if TYPE_CHECKING:
    from .round import RoundContext, RoundScenario, RoundState

DRONE_TILES = {
    "vigil": {"health": 3, "movement": 4, "flying": True,
              "weapon": {"name": "Vigil gun (stand-in)", "dice": {"red": 1, "yellow": 1}, "range": 3}},
    "gd-5": {"health": 4, "movement": 3, "flying": False,
            "weapon": {"name": "GD-5 launcher (stand-in)", "dice": {"red": 2}, "damage": "area", "range": 2}},
    "hologram": {"health": 1, "movement": 0, "flying": False, "weapon": None},
}
"""STAND-IN drone tiles (9.7.4: Health points, movement in Hexes, Flying, the weapon's dice and Range are printed on
each Device tile, which this rulebook does not reproduce). Vigil flies (9.7.4.2) and GD-5 deals Area Damage
(9.7.4.3) as the book says; the numbers are invented. A round's ``[drone_tiles.<kind>]`` replaces them."""


def drone_name(kind: str, owner: str) -> str:
    """The figure's name on the map: ``"Vigil (Marine)"`` (two agents may each deploy one)."""
    return f"{FIGURE[kind]} ({owner})"[:40]


@dataclass(frozen=True)
class SignalOnMap:
    """A signal token on the map: its name, hex and kind (npc | alien | human)."""

    name: str
    at: Hex
    kind: str


def tile(ctx, kind: str):
    """The drone tile in force for ``kind`` (a :class:`.round.DroneTile`): the file's, else the stand-in. ``ctx``:
    the round's context, or the scenario itself."""
    from .round import DroneTile

    sc = getattr(ctx, "scenario", ctx)
    own = sc.drone_tiles.get(kind)
    return own if own is not None else DroneTile(**DRONE_TILES[kind])


# ------------------------------------------------------------------------------------------------ the file

def check_signals_and_drones(sc: RoundScenario, amap, seen: dict, source: str) -> None:
    """The ``[[signals]]``, ``[[npc_deck]]``, ``[[drones]]`` and the activities' ``reveal`` / ``place`` fields of a
    round on a map (``seen``: the hexes the figures already take).

    Raises:
        ScenarioError: a signal or drone off the map, on a Blocking Hex or sharing a hex; a name used twice; a drone
            whose owner is not an agent or has not deployed it, or a deployed drone without a hex; ``reveal`` not on
            a ``move`` or naming no signal; ``place`` not on an Action using a Device that deploys a figure.
    """
    from .round_map import _hex

    names = {a.name for a in sc.agents} | {n.name for n in sc.npcs} | {x.name for x in sc.aliens}
    for i, s in enumerate(sc.signals):
        h = _hex(s.at, f"signals[{i}].at", source)
        if h not in amap.area_of or h in amap.blocking:
            raise ScenarioError(f"signals[{i}].at", f"signal {s.name} stands on {h}, not an open map hex",
                                "a hex of an Area, not Blocking", source)
        if h in seen:
            raise ScenarioError(f"signals[{i}].at", f"{s.name} and {seen[h]} share hex {h}", "one per hex", source)
        seen[h] = s.name
        if s.name in names:
            raise ScenarioError(f"signals[{i}].name", f"{s.name!r} is used twice", "unique names", source)
        names.add(s.name)
    for key, cards in (("npc_deck", sc.npc_deck), ("npc_discard", sc.npc_discard)):
        for i, c in enumerate(cards):
            if c.name in names:
                raise ScenarioError(f"{key}[{i}].name", f"{c.name!r} is used twice", "unique names", source)
            names.add(c.name)
            if any(r.action == "attack" for r in c.rules) and c.weapon is None:
                raise ScenarioError(f"{key}[{i}].weapon", f"{c.name}'s A.I. section attacks but it has no weapon",
                                    "a weapon table", source)
    cards = {c.name for c in sc.npc_deck + sc.npc_discard} | {n.name for n in sc.npcs}
    for k, order in enumerate(sc.npc_reshuffles):
        bad = next((c for c in order if c not in cards), None)
        if bad is not None or len(set(order)) != len(order):
            raise ScenarioError(f"npc_reshuffles[{k}]", f"{bad!r} is not an NPC card of the file" if bad else
                                "a card named twice", "names of [[npc_discard]], [[npc_deck]] and [[npcs]] cards, "
                                "each once", source)
    agents = {a.name: a for a in sc.agents}
    for i, d in enumerate(sc.drones):
        if d.owner not in agents:
            raise ScenarioError(f"drones[{i}].owner", f"no agent named {d.owner!r}", sorted(agents), source)
        if d.kind not in agents[d.owner].deployed:
            k = [a.name for a in sc.agents].index(d.owner)
            raise ScenarioError(f"drones[{i}].kind", f"{d.owner} has not deployed a {FIGURE[d.kind]}",
                                f"a kind in agents[{k}].deployed", source)
        h = _hex(d.at, f"drones[{i}].at", source)
        if h not in amap.area_of or h in amap.blocking:
            raise ScenarioError(f"drones[{i}].at", f"{FIGURE[d.kind]} stands on {h}, not an open map hex",
                                "a hex of an Area, not Blocking", source)
        if h in seen:
            raise ScenarioError(f"drones[{i}].at", f"{FIGURE[d.kind]} and {seen[h]} share hex {h}", "one per hex",
                                source)
        seen[h] = drone_name(d.kind, d.owner)
    for i, a in enumerate(sc.agents):
        for k in a.deployed:
            if not any(d.owner == a.name and d.kind == k for d in sc.drones):
                raise ScenarioError(f"agents[{i}].deployed", f"{a.name}'s {FIGURE[k]} has no hex on the map",
                                    "a [[drones]] entry with its owner, kind and at", source)
    signals = {s.name for s in sc.signals}
    kinds = {s.name: s.kind for s in sc.signals}
    for i, t in enumerate(sc.turns):
        for j, a in enumerate(t.activities):
            f = f"turns[{i}].activities[{j}]"
            if a.reveal and a.kind != "move":
                raise ScenarioError(f"{f}.reveal", "signals are revealed by a Movement activity here (the Core Set "
                                    "rule; the file says which)", "kind = 'move'", source)
            for k, r in enumerate(a.reveal):
                if r not in signals:
                    raise ScenarioError(f"{f}.reveal[{k}]", f"no signal named {r!r}", sorted(signals), source)
                if kinds[r] == "alien" and not any(x.signal == r for x in sc.aliens):
                    raise ScenarioError(f"{f}.reveal[{k}]", f"Alien signal {r} brings no alien in the file (which "
                                        "alien a signal brings is a Core Set rule, so the file says it)",
                                        f"an [[aliens]] entry with signal = '{r}'", source)
            if a.place is not None:
                _hex(a.place, f"{f}.place", source)
                if a.kind != "action" or (a.use is None and a.suit != "unequip"):
                    raise ScenarioError(f"{f}.place", "a drone is placed when its Device is used with the Action "
                                        "(9.7.4); an agent leaving its Power Suit steps to a Hex next to it (9.5.1)",
                                        "kind = 'action' with use = a Device that deploys a figure, or suit = "
                                        "'unequip'", source)


# ------------------------------------------------------------------------------------------------ NPC signals

def reveal_signals(state: RoundState, ctx: RoundContext, names, field: str, sec: str
                   ) -> tuple[RoundState, tuple[Step, ...]]:
    """The signals a Movement activity revealed (11.10), in the order listed: each NPC signal is replaced with a
    new NPC (:func:`new_npc`, 11.10.1), an Alien signal with its alien (:func:`reveal_alien`), a Human signal's
    token discarded (:func:`reveal_human`).

    Raises:
        RuleViolation: a signal already revealed (no longer on the map); an Alien signal with no alien in the file
            or its figure's second hex taken (:func:`reveal_alien`).
    """
    from .round_map import _refuse

    steps: list[Step] = []
    for k, name in enumerate(names):
        f = f"{field}.reveal[{k}]"
        sig = next((s for s in state.signals if s.name == name), None)
        if sig is None:
            _refuse(ctx, f"signal {name} was already revealed: it is no longer on the map", S.SIGNALS, f, sec)
        if sig.kind == "alien":
            state, st = reveal_alien(state, ctx, sig, f, sec)
            steps += st
            continue
        if sig.kind == "human":
            state, st = reveal_human(state, sig, sec)
            steps += st
            continue
        steps.append(Step(f"Signal {name} on {sig.at} is revealed: an NPC signal", S.NPC_SIGNALS, "Until revealed "
                          "it followed the standard signal rules; now it is replaced with a new NPC.",
                          {"signal": name}, (str(sig.at),), sec))
        state = replace(state, signals=tuple(s for s in state.signals if s.name != name))
        state, st = new_npc(state, ctx, sig.at, sec)
        steps += st
    return state, tuple(steps)


def reveal_alien(state: RoundState, ctx: RoundContext, sig: SignalOnMap, field: str, sec: str
                 ) -> tuple[RoundState, tuple[Step, ...]]:
    """An Alien signal revealed (11.10): the alien the file says it brings (``[[aliens]]`` with ``signal``; which
    alien is a Core Set rule this book does not print) replaces the token on its hex (11.11: one alien or signal a
    Hex), with the rest of a multi-hex base (11.8) or a Prime Swarm's second figure (11.6) where the file puts it;
    the token is discarded. When it is first activated is ruling ``revealed_alien_activation``.

    Raises:
        RuleViolation: no alien names the signal, or the base / second figure's hex is taken by then.
    """
    from .round_map import _refuse, alien_placed, alien_targets

    x = next((a for a in ctx.scenario.aliens if a.signal == sig.name), None)
    if x is None:
        _refuse(ctx, f"Alien signal {sig.name} brings no alien in the file (the Core Set decides which; the file "
                "says it)", S.SIGNALS, field, sec)
    placed = alien_placed(x, sig.at)
    busy = {h: p.name for p in state.figures for h in p.hexes}
    for p in placed:
        for h in p.hexes:
            if h != sig.at and h in busy:
                _refuse(ctx, f"{h} is occupied by {busy[h]}: {x.name}'s " + ("second figure" if x.swarm else
                        "base") + " cannot be placed there (one figure a Hex, 11.11)", S.ALIEN_MOVEMENT, field, sec)
    state = replace(state, signals=tuple(s for s in state.signals if s.name != sig.name),
                    figures=state.figures + placed, aliens=state.aliens + alien_targets(x),
                    revealed=state.revealed + (x.name,))
    shape = (f"; its two-hex base also takes {x.base}" if x.base else
             f"; a Prime Swarm: its second figure stands on {x.swarm}" if x.swarm else "")
    from .round_map import Moved, _noted

    when = ("A Close Encounter card drawn later this round may activate it" if
            ctx.rulings.reading("revealed_alien_activation") == "in_play" else
            "It is first activated next round") + " (ruling revealed_alien_activation)."
    enters = Step(f"{x.name} enters play on {sig.at}, where the signal was; the token is discarded", S.SIGNALS,
                  f"Full Health ({x.health} Health points{' each figure' if x.swarm else ''}){shape}. {when}",
                  {"alien": x.name, "at": str(sig.at)}, (x.name,), sec)
    return _noted(state, *(Moved(p.name, (p.at,)) for p in placed), step=enters.title), (
        Step(f"Signal {sig.name} on {sig.at} is revealed: an Alien signal", S.SIGNALS, "Until revealed it followed "
             "the signal rules; which alien it brings is a Core Set rule: the file says it.", {"signal": sig.name},
             (str(sig.at),), sec), enters)


def reveal_human(state: RoundState, sig: SignalOnMap, sec: str) -> tuple[RoundState, tuple[Step, ...]]:
    """A Human signal revealed (11.10): this book prints no effect for one (its effect is a Core Set rule), so the
    round only takes the token off the map and discards it, as 11.10.1 and 10.1.2 do with a revealed NPC signal that
    brings no NPC; no figure enters and no alien is activated."""
    from .round_map import Moved, _noted

    state = replace(state, signals=tuple(s for s in state.signals if s.name != sig.name))
    step = Step(f"Signal {sig.name} on {sig.at} is revealed: a Human signal; the token is discarded", S.SIGNALS,
                "No figure enters play and nothing is activated. Any Core Set effect of a Human signal is not printed "
                "in this rulebook and is not applied here.", {"signal": sig.name}, (str(sig.at),), sec)
    return _noted(state, Moved(sig.name, (sig.at,)), step=step.title), (step,)


def new_npc(state: RoundState, ctx: RoundContext, at: Hex, sec: str) -> tuple[RoundState, tuple[Step, ...]]:
    """A new NPC enters play where a signal was (10.1.1, 10.1.2, 11.10.1): the NPC deck empty, its discard pile is
    reshuffled into a new deck first (:func:`reshuffle_npc_discard`); with five NPCs in play, or deck and pile both
    empty (every NPC figure in play), the signal token is only discarded; else the Alpha Agent draws the top card,
    it is assigned (:func:`.phases.assign_npc`), and the NPC enters at Full Health (10.4) with its NPC Tactic
    token (10.3) on the signal's hex."""
    from .phases import MAX_NPCS_IN_PLAY, NpcPlayer, assign_npc
    from .round import NpcState, alpha_of, clockwise_from_alpha
    from .round_map import Placed, _noted, Moved

    sc = ctx.scenario
    alive = [n for n in state.npcs if not n.figure.down]
    alpha = alpha_of(state, ctx)
    shuffled: tuple[Step, ...] = ()
    if len(alive) < MAX_NPCS_IN_PLAY and not state.npc_deck and npc_discard_pile(state):
        state, shuffled = reshuffle_npc_discard(state, ctx, sec)
    if len(alive) >= MAX_NPCS_IN_PLAY or not state.npc_deck:
        why = (f"{len(alive)} NPCs are in play (never more than five)" if len(alive) >= MAX_NPCS_IN_PLAY else
               "no card is left in the NPC deck (every NPC figure is in play)")
        return state, (Step(f"No NPC enters: {why}; the signal token is only discarded", S.NPC_ASSIGNMENT, "",
                            section=sec, facts={"assigned_to": None}),)
    card = npc_model(ctx, state.npc_deck[0])
    steps = [*shuffled, Step(f"{alpha} (Alpha Agent) draws {card.name} from the top of the NPC deck", S.NPC_ASSIGNMENT,
                  f"{plural_cards(len(state.npc_deck) - 1)} left in the deck; the figure comes with the card.",
                  section=sec, marks=(alpha,), facts={"npc": card.name})]
    players = [NpcPlayer(name=a, npc_cards=sum(1 for n in alive if n.controller == a))
               for a in clockwise_from_alpha(state, ctx)]
    who, st = assign_npc(players, sc.npc_specialist, len(alive))
    steps += [s.in_section(sec) for s in st]
    fig = TargetState(card.name, "npc", card.health)
    npc = NpcState(fig, who, tactic=card.tactic, revealed=True)
    state = replace(state, npcs=tuple(n for n in state.npcs if n.figure.name != card.name) + (npc,),
                    npc_deck=state.npc_deck[1:],
                    figures=state.figures + (Placed(card.name, "npc", at),))
    enters = len(steps)
    steps.append(Step(f"{card.name} enters play on {at}, where the signal was; the token is discarded",
                      S.NPC_SIGNALS, f"Full Health ({card.health} Health points)" + (
                          f", with its {card.tactic.title()} NPC Tactic token" if card.tactic else "") +
                      f"; controlled by {who}. " + _first_activation(ctx), section=sec, marks=(card.name,),
                      facts={"npc": card.name, "controller": who, "at": str(at)}))
    return _noted(state, Moved(card.name, (at,)), step=steps[enters].title), tuple(steps)


def npc_discard_pile(state: RoundState) -> tuple[str, ...]:
    """The NPC discard pile now: the file's ``[[npc_discard]]`` cards, then the card of each NPC dead in play
    (10.4: its card goes to the discard pile), in the order they entered play; a card back in the deck is not."""
    dead = tuple(n.figure.name for n in state.npcs if n.figure.down and n.figure.name not in state.npc_discard
                 and n.figure.name not in state.npc_deck)
    return state.npc_discard + dead


def reshuffle_npc_discard(state: RoundState, ctx: RoundContext, sec: str) -> tuple[RoundState, tuple[Step, ...]]:
    """10.1.1 NPC Deck: the deck has run out, so the discard pile (:func:`npc_discard_pile`) is reshuffled to
    recreate it. The new deck's order is the file's ``npc_reshuffles`` entry for this reshuffle when it has one (it
    must hold the pile's cards, each once); else deterministic: the pile, in its order, is shuffled by a generator
    seeded from the round's seed (the file's ``seed`` or ``--seed``) and the reshuffle's number, apart from the dice
    (the dice rolled after it do not change). Returns ``(state with the new deck, top first, and an empty pile, (the
    step,))``.

    Raises:
        ScenarioError: the ``npc_reshuffles`` entry is not the pile (field ``npc_reshuffles[k]``)."""
    import random

    pile = npc_discard_pile(state)
    k = state.reshuffles + 1
    given = ctx.scenario.npc_reshuffles
    if k <= len(given):
        deck = list(given[k - 1])
        if sorted(deck) != sorted(pile):
            raise ScenarioError(f"npc_reshuffles[{k - 1}]", f"{', '.join(deck)} is not the NPC discard pile "
                                f"({', '.join(pile)}) of reshuffle {k}", "the pile's cards, each once, in the new "
                                "deck's order (top first)", ctx.source)
        how = f"the order the file gives, npc_reshuffles[{k - 1}]"
    else:
        seed = ctx.dice.seed
        deck = list(pile)
        random.Random(f"{seed}/npc-discard/{k}").shuffle(deck)
        how = f"shuffled from seed {seed}, reshuffle {k}; the same seed gives the same order"
    step = Step(f"The NPC deck has run out: the discard pile ({', '.join(pile)}) is reshuffled into a new deck",
                S.NPC_DECK, f"New deck, top first: {', '.join(deck)} ({how}).",
                {"pile": list(pile), "deck": list(deck)}, (), sec)
    return replace(state, npc_deck=tuple(deck), npc_discard=(), reshuffles=k), (step,)


def plural_cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _first_activation(ctx: RoundContext) -> str:
    if ctx.rulings.reading("revealed_npc_activation") == "same_turn":
        return ("If its controller is the agent playing this turn, it is activated after that agent's last "
                "activity (ruling revealed_npc_activation).")
    return "It is first activated in its controller's next agent turn (ruling revealed_npc_activation)."


def npc_model(ctx: RoundContext, name: str):
    """The file's model of NPC ``name``: an ``[[npcs]]`` entry, or the ``[[npc_deck]]`` or ``[[npc_discard]]``
    card it came from."""
    return next((x for x in ctx.scenario.npcs if x.name == name), None) or \
        next(c for c in ctx.scenario.npc_deck + ctx.scenario.npc_discard if c.name == name)


# ------------------------------------------------------------------------------------------------ drones

def place_drone(state: RoundState, ctx: RoundContext, owner: str, kind: str, place: str | None, field: str,
                sec: str) -> tuple[RoundState, tuple[Step, ...]]:
    """A Device's figure placed on the map (9.7.4): Vigil and GD-5 on an empty Hex adjacent to the agent
    (9.7.4.2, 9.7.4.3), the Hologram on an empty Hex within 1 Area of it (9.7.4.1).

    Raises:
        RuleViolation: no ``place`` given, a Blocking or occupied Hex, not adjacent (Vigil, GD-5) or beyond 1 Area
            (Hologram).
    """
    from .activation import area_distance
    from .round_map import Placed, _refuse, where

    rule = DEVICE_RULE[kind]
    fig = FIGURE[kind]
    if place is None:
        _refuse(ctx, f"on a map, {fig} needs the Hex it is placed on", rule, f"{field}.place", sec)
    h = Hex.parse(place)
    amap = ctx.amap
    if h not in amap.area_of or h in amap.blocking:
        _refuse(ctx, f"{h} is not an open map hex", rule, f"{field}.place", sec)
    busy = {x: p.name for p in state.figures for x in p.hexes}
    if h in busy:
        _refuse(ctx, f"{h} is occupied by {busy[h]}: {fig} goes on an empty Hex", rule, f"{field}.place", sec)
    me = where(state, owner)
    if kind == "hologram":
        d = area_distance(amap, amap.area_graph(True), me, h)
        if d is None or d > 1:
            _refuse(ctx, f"{h} is not within 1 Area of {owner}", rule, f"{field}.place", sec)
        how = f"{'in its Area' if d == 0 else '1 Area away'}"
    else:
        if distance(me, h) != 1:
            _refuse(ctx, f"{h} is not adjacent to {owner} ({me})", rule, f"{field}.place", sec)
        how = "adjacent to it"
    name = drone_name(kind, owner)
    t = tile(ctx, kind)
    side = "hologram" if kind == "hologram" else "drone"
    from .round_map import Moved, _noted

    state = replace(state, figures=state.figures + (Placed(name, side, h),),
                    drones=state.drones + (TargetState(name, "drone", t.health),))
    step = Step(f"{name} is placed on {h}, {how}", rule, "An empty Hex" + (
        " within 1 Area; aliens consider it a standard agent." if kind == "hologram" else
        "; it counts as an agent for most purposes and aliens may target it."), section=sec, marks=(name, str(h)),
        facts={"drone": name, "at": str(h)})
    return _noted(state, Moved(name, (h,)), step=step.title), (step,)


def drone_on_map(state: RoundState, ctx: RoundContext, owner: str, kind: str, act, field: str, sec: str
                 ) -> tuple[RoundState, tuple[Step, ...]]:
    """Vigil or GD-5 activated with its owner's Action (9.7.4.2, 9.7.4.3): it moves (``to``: at most its tile's
    movement in Hexes, the shortest legal walking path; Vigil flies over Barrier Hex Sides) and fights (``target``:
    an alien in its line of sight and Range, its tile's weapon, which never jams; GD-5's attack deals Area Damage),
    both optional.

    Its walk is the Device's own move, made "immediately" on the owner's Action (9.7.4.2, 9.7.4.3): it is paid from
    the tile's movement ("the maximum movement [in Hexes] per turn"), never from the owner's movement allowance,
    and it is no Movement activity of the owner (ruling ``movement_activity`` does not count it). A drone "counts
    as a normal agent for most purposes" and 7.2 names drones among the figures Burrowing aliens never engage, so
    an engaged drone walks away only with ``evade`` (:func:`.round_map.evade_step`).

    Raises:
        RuleViolation: the drone destroyed, a walk too long or without a legal path, an engaged drone walking
            without ``evade`` (or ``evade`` when not engaged), a target out of sight or Range.
    """
    from .round import RoundWeapon
    from .round_map import CORE_SET_COST, _refuse, attack_on_map, hexes_of, range_to, sight, walk, where

    name = drone_name(kind, owner)
    rule = DEVICE_RULE[kind]
    if where(state, name) is None:
        _refuse(ctx, f"{name} was destroyed", rule, f"{field}.drone", sec)
    t = tile(ctx, kind)
    steps: list[Step] = []
    if act.to is not None:
        who = SimpleNamespace(name=name, flying=t.flying, movement=t.movement)
        how = SimpleNamespace(to=act.to, pose=None, use=None, evade=act.evade)
        state, st, _ = walk(state, ctx, who, how, field, sec, None, rule)     # its own allowance (the tile's)
        steps += [replace(s, rule=rule, detail=s.detail.replace(CORE_SET_COST, "")
                          + " Its tile gives its movement in Hexes"
                          + (" and Flying." if t.flying else ".")) if s.title.startswith(f"{name} walks ") else s
                  for s in st]
    if act.target is None:
        return state, tuple(steps)
    f = f"{field}.target"
    if where(state, act.target) is None:
        _refuse(ctx, f"{act.target} is dead: it is no longer on the map", rule, f, sec)
    clear, why = sight(ctx, hexes_of(state, name), hexes_of(state, act.target))
    if not clear:
        _refuse(ctx, f"{name} has no line of sight to {act.target}: {why}", rule, f, sec)
    if t.weapon is None:
        _refuse(ctx, f"{name} has no weapon", rule, f, sec)
    w = t.weapon if kind != "gd-5" else RoundWeapon(**(t.weapon.model_dump() | {"damage": "area"}))
    within, words = range_to(state, ctx, name, act.target, w)
    if not within:
        _refuse(ctx, f"{act.target} is beyond {w.name}'s Range: {words} (ruling range_unit)", rule, f, sec)
    steps.append(Step(f"{name} attacks {act.target} with {w.name}", rule, "Its weapon never jams" + (
        "; GD-5 deals Area Damage with every attack." if kind == "gd-5" else ".") + (f" {words}." if words else ""),
        section=sec, marks=(name, act.target)))
    state, st = attack_on_map(state, ctx, name, "drone", w, act.target, act.rolled, field, sec, controller=owner)
    return state, tuple(steps) + st


def hologram_attacked(state: RoundState, ctx: RoundContext, attacker: str, name: str, sec: str
                      ) -> tuple[RoundState, tuple[Step, ...]]:
    """9.7.4.1: the Hologram is destroyed when attacked (no roll); its token and Device go to the Warehouse."""
    state = drone_gone(state, ctx, name)
    return state, (Step(f"{attacker} attacks {name}: the Hologram is destroyed", S.HOLOGRAM, "A Hologram is "
                        "automatically destroyed if attacked; its token and Device are discarded to the Warehouse.",
                        section=sec, marks=(attacker,), facts={"destroyed": name}),)


def drone_gone(state: RoundState, ctx: RoundContext, name: str) -> RoundState:
    """A destroyed drone leaves the map and its owner's Device is discarded (9.7.4)."""
    kind, owner = owner_of(ctx, name)
    figures = tuple(p for p in state.figures if p.name != name)
    drones = tuple(replace(d, wounds=max(d.wounds, d.health)) if d.name == name else d for d in state.drones)
    cards = state.cards_of(owner)
    if cards is not None:
        card = next((c for c in cards.held if ctx.table[c].deploys == kind), None)
        cards = replace(cards, deployed=tuple(x for x in cards.deployed if x[0] != kind),
                        discarded=cards.discarded + ((card,) if card and card not in cards.discarded else ()))
        state = state.with_cards(cards)
    return replace(state, figures=figures, drones=drones)


def owner_of(ctx: RoundContext, name: str) -> tuple[str, str]:
    """``(kind, owner)`` of drone figure ``name``."""
    for a in ctx.scenario.agents:
        for k in FIGURE:
            if drone_name(k, a.name) == name:
                return k, a.name
    raise KeyError(name)
