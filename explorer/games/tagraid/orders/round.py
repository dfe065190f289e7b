"""A TAG Raid Game Round as small step functions over immutable state: Events Phase, Players Phase, End of the Round.

Sections: Game Sequence › Game Round (1 Events Phase: 1.1 Event, 1.2 MegaBeast Event; 2 Players Phase: one Player
Turn per player in Timeline order, 2.1 Activation of the Miners, 2.2 End of Turn; 3 End of the Round: the End of Match
checks, then the spent Orders are flipped); MegaBeast › Deployment and Movement Type (deployment the first time the
deployment symbol appears on an Event card, by the last player in the Timeline, in an Interior hexagon, facing a TAG
in its LoF); MegaBeast Events and MegaBeast's Behavior (the MegaBeast Event card carries the Behavior); Victory
Conditions (15 or more Neomaterial Units in Scoring Zone and Warehouse, the MegaBeast killed, the last Event card;
winner: most Neomaterial Units, then most T-Bezoar, else a draw).

Event and MegaBeast Event effects are user-described data (a text the trace repeats): the rulebook prints no card
texts, so nothing here executes them. Each Order of the Players Phase is played by
:func:`explorer.games.tagraid.orders.sequence.play` from the table the previous Order left.

Every step is ``step(state, ctx) -> (state, steps)`` (:mod:`explorer.kernel`) over the frozen :class:`RoundState`
and a :class:`RoundContext` holding the Round's declarations; :data:`ROUND_STEPS` lists them; :func:`play_round`
replays them with :func:`explorer.kernel.play` (going back is replaying fewer).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer import kernel
from explorer.errors import Rejection, RuleViolation, ScenarioError
from explorer.kernel import Context, Frame
from explorer.trace import Step, Trace

from .. import sections as S
from ..outcomes import LootTokenLine, LootZoneLine, MegaBeastAtEnd, MinerAfter, RoundOutcome
from .declarations import OrderDeclarations, OrderDice, refused
from .sequence import play
from .state import BehaviorCard, MegaBeastState, OrderState

END_OF_MATCH_UNITS = 15
"""Neomaterial Units (Scoring Zone plus Warehouse) that end the match at the End of the Round (Victory Conditions)."""


@dataclass(frozen=True)
class EventCard:
    """One Event card (as data): its name, the effect as described by the user (not executed), whether it shows the
    MegaBeast deployment symbol, and the MegaBeast Event drawn with it: its text and the Behavior it sets (``None``:
    the MegaBeast keeps its Behavior)."""

    name: str
    effect: str = ""
    megabeast_symbol: bool = False
    megabeast_event: str = ""
    behavior: BehaviorCard | None = None


@dataclass(frozen=True)
class MegaBeastDeployment:
    """Where the last player in the Timeline places the MegaBeast: its hexagon's centre (board units) and facing."""

    x: float
    y: float
    facing: float


@dataclass(frozen=True)
class RoundDeclarations:
    """What the players declare in one Round: the MegaBeast's deployment (if its symbol appears) and the Orders of
    the Players Phase in play order, each with its dice. A Player Turn is the run of Orders whose Active Miner belongs
    to that player; a player with no Order in the list ends their Turn at once."""

    orders: tuple[tuple[OrderDeclarations, OrderDice], ...] = ()
    deployment: MegaBeastDeployment | None = None


@dataclass(frozen=True)
class RoundContext(Context):
    """What the steps of a Round read and never change (:class:`explorer.kernel.Context`): its declarations
    (:class:`RoundDeclarations`: the MegaBeast's deployment and every Order with its dice). The ruling readings are
    part of the table (:attr:`.state.OrderState.rulings`); each Order rolls its own dice."""

    declarations: RoundDeclarations = RoundDeclarations()


@dataclass(frozen=True)
class RoundState:
    """The match between Orders.

    Attributes:
        table: the table (an :class:`OrderState` between Orders: no Active Miner).
        round: the Round number (1 for the first). deck: Event cards still to draw (top first). drawn: drawn cards.
        waiting_megabeast: the MegaBeast before its deployment (``None`` once deployed or when not in use).
        t_bezoar: ``((side, Units), ...)`` T-Bezoar each player holds (the tie-break of the Victory Conditions).
        megabeast_killed: the MegaBeast died this match. orders_per_miner: ``((miner, Orders), ...)`` flipped back
        at the End of the Round. over: the match has ended; result: ``(winner or None, reason)``.
        orders_played: Orders played in the last Players Phase.
        consulted: ``((option key, reading), ...)`` the ruling readings the Orders played consulted, in the order a
            trace lists them (each Order's own steps, then its roll exchange's).
    """

    table: OrderState
    round: int = 1
    deck: tuple[EventCard, ...] = ()
    drawn: tuple[EventCard, ...] = ()
    waiting_megabeast: MegaBeastState | None = None
    t_bezoar: tuple[tuple[str, int], ...] = ()
    megabeast_killed: bool = False
    orders_per_miner: tuple[tuple[str, int], ...] = ()
    over: bool = False
    result: tuple[str | None, str] | None = None
    orders_played: int = 0
    consulted: tuple[tuple[str, str], ...] = ()
    drawn_before: tuple[str, str, str] | None = None
    """``(what was played, which dice, where the file gives them)``: the first step of the match whose dice came
    from the file's seed (issue #25 item 4), e.g. ``("Round 1's Order 3", "roll dice", "its 'dice'")`` or
    ``("Initial Deployment", "Access Point d20s", "'initial_deployment.rolls'")``; every later Order is refused
    (:func:`play_orders`)."""

    def units(self, side: str) -> int:
        """Neomaterial Units of a player: Scoring Zone plus Warehouse of its Miners."""
        return sum(m.scoring_zone + m.warehouse for m in self.table.miners if m.side == side)


def start_round_state(table: OrderState, deck: tuple[EventCard, ...], waiting_megabeast: MegaBeastState | None = None,
                      t_bezoar: tuple[tuple[str, int], ...] = ()) -> RoundState:
    """The first Round's state: every Miner's Orders as on its card (``table``), the Event deck top first."""
    return RoundState(table, 1, tuple(deck), (), waiting_megabeast, tuple(t_bezoar), False,
                      tuple((m.id, m.orders) for m in table.miners))


def between_orders(table: OrderState) -> OrderState:
    """The table an Order leaves, ready for the next one (the per-Order records cleared; Miners, MegaBeast, board,
    Timeline, rulings, Tool Containers, Loot Tokens and Zones, the Tool Deck and this Round's draws kept)."""
    return OrderState(table.geometry, table.miners, table.megabeast, table.timeline, rulings=table.rulings,
                      containers=table.containers, loot_tokens=table.loot_tokens, loot_zones=table.loot_zones,
                      tool_deck=table.tool_deck, tool_discard=table.tool_discard,
                      container_draws=table.container_draws)



# ------------------------------------------------------------------------------------------------ 1 Events Phase


def event(rs: RoundState, ctx: RoundContext):
    """1.1 Event: draw the top Event card and apply its effect (as described; lasting effects last until the End of
    the Round). The first time the MegaBeast symbol appears, the last player in the Timeline deploys the MegaBeast in
    an Interior hexagon (without tile, surrounded by at least four tiles) facing a TAG in its LoF."""
    sec = "1.1 Event"
    if not rs.deck and not rs.drawn:  # a game mode without an Event Deck (Victory Conditions)
        return rs, (Step("No Event Deck: no Event card is drawn", S.EVENTS_PHASE,
                         "This game has no Event Deck, so the Event step draws nothing; the match ends only by the "
                         "other End of Match conditions (Victory Conditions).", {"card": None, "deck": False},
                         (), sec),)
    if not rs.deck:
        return rs, (Step("No Event card left to draw", S.EVENTS_PHASE, "", {"card": None}, (), sec),)
    card, rest = rs.deck[0], rs.deck[1:]
    steps = [Step(f"Event: {card.name}", S.EVENTS_PHASE, card.effect or "(no effect described)",
                  {"card": card.name, "left": len(rest)}, (), sec)]
    rs = replace(rs, deck=rest, drawn=rs.drawn + (card,))
    if card.megabeast_symbol and rs.waiting_megabeast is not None:
        rs, more = _deploy(rs, ctx.declarations.deployment, sec)
        steps += more
    return rs, tuple(steps)


def _deploy(rs: RoundState, dep: MegaBeastDeployment | None, sec: str):
    from ..lof import line_of_fire
    from .megabeast import interior_hexes

    mb = rs.waiting_megabeast
    table = rs.table
    placer = table.timeline[-1] if table.timeline else "the last player"
    if dep is None:
        raise refused(sec, "deployment", f"the Event shows the MegaBeast symbol for the first time: {placer} "
                      "(last in the Timeline) must deploy the MegaBeast", S.MEGABEAST_DEPLOYMENT)
    geo = table.geometry
    h = geo.hex_of(dep.x, dep.y)
    cands = interior_hexes(table)
    if h not in cands:
        raise refused(sec, "deployment.hex", f"hexagon {h.q},{h.r} is not a hexagon without tile surrounded by at "
                      "least four tiles (Interior Deployment); allowed: " + ", ".join(f"{c.q},{c.r}" for c in cands),
                      S.MEGABEAST_DEPLOYMENT)
    x, y = geo.layout.hex_to_pixel(h)
    placed = replace(table, megabeast=replace(mb, x=x, y=y, facing=dep.facing % 360.0))
    t = placed.table()
    seen = [m.id for m in placed.miners if m.on_table and m.miner_type == "TAG"
            and line_of_fire(t, mb.id, m.id, placed.ruling_set(), explain=False).has_lof]
    if not seen:
        raise refused(sec, "deployment.facing", f"facing {dep.facing:g}° directs the MegaBeast towards no TAG "
                      "in its LoF; it must face some TAG it can see", S.MEGABEAST_DEPLOYMENT)
    return replace(rs, table=placed, waiting_megabeast=None), (
        Step(f"{placer} deploys {mb.id} in hexagon {h.q},{h.r}, facing {dep.facing % 360.0:g}°",
             S.MEGABEAST_DEPLOYMENT, "The MegaBeast is deployed the first time its symbol appears on an Event card, "
             "by the last player in the Timeline, where its Deployment and Movement Type allows, directed towards "
             f"a TAG in its LoF (it sees {', '.join(seen)}).",
             {"megabeast": mb.id, "hex": f"{h.q},{h.r}", "facing": dep.facing % 360.0, "sees": seen},
             (mb.id,), sec),)


def megabeast_event(rs: RoundState, ctx: RoundContext):
    """1.2 MegaBeast Event: when the MegaBeast is on the table, its Event is applied (as described) and the card's
    Behavior becomes the MegaBeast's; otherwise the step is skipped."""
    sec = "1.2 MegaBeast Event"
    mb = rs.table.megabeast
    card = rs.drawn[-1] if rs.drawn else None
    if mb is None:
        return rs, (Step("The MegaBeast is not on the table: no MegaBeast Event", S.EVENTS_PHASE, "",
                         {"megabeast_event": None}, (), sec),)
    if card is None:
        return rs, (Step(f"No MegaBeast Event for {mb.id} this Round", S.MEGABEAST_EVENTS, "", {}, (mb.id,), sec),)
    steps = [Step(f"MegaBeast Event: {card.megabeast_event or '(no text)'}", S.MEGABEAST_EVENTS,
                  "The MegaBeast Event is applied after the Event.", {"card": card.name}, (mb.id,), sec)]
    if card.behavior is not None:
        rs = replace(rs, table=replace(rs.table, megabeast=replace(mb, behavior=card.behavior)))
        b = card.behavior
        steps.append(Step(f"{mb.id}'s Behavior is now: Threat Levels {b.threat.front}/{b.threat.adjacent}/"
                          f"{b.threat.opposite}, Angle of Vision {b.angle_of_vision or 360:g}°"
                          + (", moves in ARO" if b.moves else ""), S.MEGABEAST_EVENTS,
                          "The MegaBeast Event card carries the Behavior that says how it acts in its AROs.",
                          {"moves": b.moves}, (mb.id,), sec))
    return rs, tuple(steps)


# ------------------------------------------------------------------------------------------------ 2 Players Phase


@dataclass(frozen=True)
class PlayedOrder:
    """One Order of the Players Phase: its index in the declarations, the Active Player, the table before it (no
    Order under way) and its frames (one per :data:`.sequence.STEPS` step)."""

    index: int
    side: str
    before: OrderState
    frames: tuple


def _file_field(e: RuleViolation, i: int) -> RuleViolation:
    """The refusal of the ``i``-th Order with its field named as in a round file (``order.move`` ->
    ``orders[i].move``)."""
    r = e.rejection
    fld = f"orders[{i}]" + r.field[len("order"):] if r.field.startswith("order") else r.field
    return RuleViolation(r.reason, r.rule, field=fld, step=f"Order {i + 1} › {r.step}", source=e.source)


def play_orders(rs: RoundState, decl: RoundDeclarations):
    """Replay the Orders of the Players Phase from ``rs`` (after the Events Phase), Player Turn by Player Turn in
    Timeline order, each from the table the previous one left. Yields ``("turn", side)``, then for each Order
    ``("order", index, table before it)`` and its :class:`PlayedOrder`, then ``("end", side)``; finally
    ``("done", RoundState)``.

    Raises:
        RuleViolation: an Order out of Timeline turn, or an Order's own refusal, its field named as in a round
            file (``orders[i]...``).
    """
    table = rs.table
    pending = list(enumerate(decl.orders))
    tb = dict(rs.t_bezoar)
    killed = rs.megabeast_killed
    consulted = rs.consulted
    drew = rs.drawn_before   # the first Order (of this Round or an earlier one) that rolled a die from the seed
    for side in table.timeline:
        yield ("turn", side)
        while pending and _side_of(table, pending[0]) == side:
            i, (od, dice) = pending.pop(0)
            if drew is not None:
                raise refused("2 Players Phase", f"orders[{i}]", f"this Order is played after {drew[0]}, whose "
                              f"{drew[1]} came from the seed ({drew[2]} does not give them): where Miners stand, "
                              "what they carry and who is alive after it depends on that draw, so these "
                              f"declarations would hold for some draws and not others; give every die there, or "
                              f"end the file before this Order", S.ORDERS_AND_AROS)
            yield ("order", i, table)
            try:
                frames = play(table, od, dice)
            except RuleViolation as e:
                raise _file_field(e, i) from None
            except ScenarioError as e:  # fixed dice that do not fit the rolls: named as the round file writes them
                if e.source is not None or not e.field.startswith("dice."):
                    raise
                raise ScenarioError(f"orders[{i}].{e.field}", e.problem, e.allowed) from None
            yield PlayedOrder(i, side, table, frames)
            what = drawn_dice(frames, dice)
            if what is not None and drew is None:
                drew = (f"Order {i + 1}", what, "its 'dice'")   # this Round's; carried on as "Round N's Order k"
            last = frames[-1].state
            consulted += last.consulted + tuple(last.resolution.rulings.items() if last.resolution is not None
                                                 else ())
            for k, v in last.t_bezoar:
                tb[k] = tb.get(k, 0) + v
            res = last.resolution
            if res is not None and res.megabeast is not None and res.megabeast.killed:
                killed = True
                last = replace(last, megabeast=None)
            table = between_orders(last)
        yield ("end", side)
    if pending:
        i, (od, _) = pending[0]
        if od.active not in {m.id for m in table.miners}:
            raise refused("2 Players Phase", f"orders[{i}].active", f"there is no Miner {od.active!r} (Miners: "
                          f"{', '.join(m.id for m in table.miners)})", S.ORDERS_AND_AROS)
        raise refused("2 Players Phase", f"orders[{i}].active", f"{od.active} belongs to "
                      f"{table.miner(od.active).side}, whose Player Turn has passed in the Timeline "
                      f"({', '.join(table.timeline)}): Orders are played Turn by Turn in Timeline order",
                      S.PLAYERS_PHASE)
    if drew is not None and drew[0].startswith("Order "):   # this Round's Order: named with its Round from now on
        drew = (f"Round {rs.round}'s {drew[0]}", *drew[1:])
    yield ("done", replace(rs, table=table, t_bezoar=tuple(tb.items()), megabeast_killed=killed,
                           orders_played=len(decl.orders), consulted=consulted, drawn_before=drew))


def drawn_dice(frames, dice) -> str | None:
    """Which dice of a played Order came from the seed rather than its file (issue #25 item 4), in words
    (``"roll dice"``, ``"Respawn d20s"``), or ``None`` when every die was given, read from the last frame's typed
    state: a pool or Saving Roll of its roll exchange (:class:`~explorer.games.tagraid.resolve.Resolution`) whose
    ``source`` is not ``"given"`` (rolled from the seed or a roller, or given in part); Respawn (5.3) d20s rolled
    beyond ``dice.respawn`` (``OrderState.respawn_drawn``). Only an Order whose seed is the file's top-level one or
    ``--seed``'s (``dice.derived``) draws so; one whose file writes its own ``seed``, one built in Python with its own
    seed, or one re-rolled on purpose (``dice.rerolled``, ``--reroll``): ``None``."""
    if not dice.derived or dice.rerolled:
        return None
    last = frames[-1].state
    res = last.resolution
    if res is not None:
        pools = [p for pair in res.pairs for p in (pair.a, pair.b) if p is not None]
        if any(x.source in _DRAWN for x in pools + list(res.saving_rolls)):
            return "roll dice"
    if last.respawn_drawn:
        return "Respawn d20s"
    return None


_DRAWN = frozenset({"seed", "roller", "mixed"})
"""A roll's ``source`` (:meth:`explorer.dice.Dice.take`) when some of its dice were not given by the file."""


def _side_of(table: OrderState, entry) -> str | None:
    active = entry[1][0].active
    return next((m.side for m in table.miners if m.id == active), None)


def players_phase(rs: RoundState, ctx: RoundContext):
    """2 Players Phase: one Player Turn per player in Timeline order; in their Turn the Active Player spends Orders
    (each a whole Order Expenditure Sequence, :func:`play_orders`); End of Turn when they have no Order left or
    stop. Orders of a player out of Timeline turn are refused."""
    sec = "2 Players Phase"
    steps: list[Step] = []
    out = rs
    for ev in play_orders(rs, ctx.declarations):
        if isinstance(ev, PlayedOrder):
            for f in ev.frames:
                steps += [s.in_section(f"{sec} › {ev.side} › Order {ev.index + 1} › {s.section}")
                          for s in f.steps]
            res = ev.frames[-1].state.resolution
            if res is not None and res.rulings and steps:  # the readings the Order's roll exchange consulted, as a
                s = steps[-1]                              # fact of its End of the Order (the JSON output)
                steps[-1] = replace(s, facts={**s.facts, "rulings": dict(res.rulings)})
        elif ev[0] == "turn":
            steps.append(Step(f"{ev[1]}'s Player Turn: {ev[1]} is the Active Player", S.PLAYERS_PHASE,
                              "The other players are Reactive Players.", {"side": ev[1]}, (), f"{sec} › {ev[1]}"))
        elif ev[0] == "order":
            continue
        elif ev[0] == "end":
            steps.append(Step(f"End of {ev[1]}'s Turn", S.PLAYERS_PHASE, "Unspent Orders are not saved for the next "
                              "Round.", {"side": ev[1]}, (), f"{sec} › {ev[1]}"))
        else:
            out = ev[1]
    return out, tuple(steps)


# ------------------------------------------------------------------------------------------------ 3 End of the Round


def end_of_round(rs: RoundState, ctx: RoundContext):
    """3 End of the Round: the End of Match conditions (the MegaBeast killed; a player with 15 or more Neomaterial
    Units; the last Event card drawn); when the match ends, the winner (most Neomaterial Units, then most T-Bezoar,
    else a draw); otherwise the spent Orders are flipped and the next Round begins."""
    sec = "3 End of the Round"
    table = rs.table
    sides = list(table.timeline)
    units = {s: rs.units(s) for s in sides}
    rich = [s for s in sides if units[s] >= END_OF_MATCH_UNITS]
    reasons = []
    if rs.megabeast_killed:
        reasons.append("the MegaBeast has been killed")
    if rich:
        reasons.append(f"{', '.join(rich)} has {END_OF_MATCH_UNITS} or more Neomaterial Units")
    no_deck = not rs.deck and not rs.drawn  # no Event Deck in this game: its End of Match condition does not apply
    if not rs.deck and not no_deck:
        reasons.append("the last Event card has been drawn")
    steps = [Step("End of Match checks: " + ("; ".join(reasons) if reasons else "none is met"),
                  S.VICTORY_CONDITIONS, "Neomaterial Units (Scoring Zone + Warehouse): "
                  + ", ".join(f"{s} {units[s]}" for s in sides) + "."
                  + (" No Event Deck: only the MegaBeast's death and 15 or more Neomaterial Units end the match "
                     "(the End of Match conditions of game modes without an Event Deck)." if no_deck else ""),
                  {"units": units, "megabeast_killed": rs.megabeast_killed, "events_left": len(rs.deck),
                   "event_deck": not no_deck, "ends": bool(reasons)}, (), sec)]
    if not reasons:
        base = dict(rs.orders_per_miner)
        table = replace(table, miners=tuple(replace(m, orders=base.get(m.id, m.orders)) for m in table.miners),
                        container_draws=())  # one Tool Card per Tool Container per Game Round

        steps.append(Step(f"Orders are flipped: Round {rs.round + 1} begins", S.GAME_ROUND, "",
                          {"round": rs.round + 1}, (), sec))
        return replace(rs, table=table, round=rs.round + 1), tuple(steps)
    tb = dict(rs.t_bezoar)
    top = max(units.values()) if units else 0
    leaders = [s for s in sides if units[s] == top]
    if len(leaders) == 1:
        winner, why = leaders[0], f"{leaders[0]} has the most Neomaterial Units ({top})"
    else:
        best = max(tb.get(s, 0) for s in leaders)
        by_tb = [s for s in leaders if tb.get(s, 0) == best]
        if len(by_tb) == 1:
            winner, why = by_tb[0], (f"{', '.join(leaders)} tie at {top} Neomaterial Units; {by_tb[0]} has the most "
                                     f"T-Bezoar ({best})")
        else:
            winner, why = None, (f"{', '.join(leaders)} tie at {top} Neomaterial Units and {best} T-Bezoar: the "
                                 "match is a draw")
    steps.append(Step(("Winner: " + winner) if winner else "Draw", S.VICTORY_CONDITIONS, why,
                      {"winner": winner, "units": units, "t_bezoar": {s: tb.get(s, 0) for s in sides}}, (), sec))
    return replace(rs, over=True, result=(winner, why)), tuple(steps)


ROUND_STEPS: kernel.Sequence = (
    ("1.1 Event", event),
    ("1.2 MegaBeast Event", megabeast_event),
    ("2 Players Phase", players_phase),
    ("3 End of the Round", end_of_round),
)
"""One Game Round, in order: ``(name, step function)`` (a :data:`explorer.kernel.Sequence`)."""

RoundFrame = Frame
"""The old name of a Round's frame: an :class:`explorer.kernel.Frame` of :class:`RoundState`."""


def play_round(initial: RoundState, decl: RoundDeclarations, upto: int | None = None) -> tuple[Frame[RoundState], ...]:
    """Replay one Round from ``initial``: the first ``upto`` steps of :data:`ROUND_STEPS` (all when ``None``), with
    :func:`explorer.kernel.play`.

    Raises:
        RuleViolation: a refused declaration (an Order out of Timeline turn, a bad MegaBeast deployment, or any
            Order's own refusal).
    """
    return kernel.play(initial, ROUND_STEPS, RoundContext(declarations=decl), upto=upto)


def play_round_until_refused(initial: RoundState, decl: RoundDeclarations) -> tuple[tuple[Frame[RoundState], ...],
                                                                                  RuleViolation | None]:
    """Like :func:`play_round`, but stop at the first refused declaration and return it with the frames played
    (:func:`explorer.kernel.play_until_refused`)."""
    return kernel.play_until_refused(initial, ROUND_STEPS, RoundContext(declarations=decl))


def play_round_until_rejected(initial: RoundState, decl: RoundDeclarations) -> tuple[tuple[Frame[RoundState], ...],
                                                                                   Rejection | None]:
    """:func:`play_round_until_refused` with the refusal as data (its :class:`~explorer.errors.Rejection`): the old
    name."""
    frames, refusal = play_round_until_refused(initial, decl)
    return frames, None if refusal is None else refusal.rejection


@dataclass(frozen=True)
class RoundReplay:
    """A Round replayed for a stepper that pages through its Orders.

    Attributes:
        events: the Round after its Events Phase (``None`` when a declaration there is refused); events_steps: the
            Events Phase's steps. tables: the table before each Order reached (an Order is reached when every
            earlier one was played). sides: the Active Player of each Order reached. end: the Round after the End of
            the Round (``None`` when not reached); end_steps: its steps. rejection: the first refused declaration;
            refused_order: the index of the Order it belongs to (``None``: the Events Phase or none).
        after: the table the last Order leaves, before the End of the Round (``None`` when not reached).
    """

    events: RoundState | None
    events_steps: tuple[Step, ...]
    tables: tuple[OrderState, ...]
    sides: tuple[str, ...]
    end: RoundState | None
    end_steps: tuple[Step, ...]
    rejection: Rejection | None
    refused_order: int | None
    after: OrderState | None = None


def replay_round(initial: RoundState, decl: RoundDeclarations) -> RoundReplay:
    """Replay the Round as :func:`play_round` does, keeping the table before each Order and stopping at the first
    refused declaration (never raises for a refusal)."""
    ctx = RoundContext(declarations=decl)
    frames, refusal = kernel.play_until_refused(initial, ROUND_STEPS, ctx, upto=2)  # 1 Events Phase
    ev_steps = kernel.steps_of(frames)
    if refusal is not None:
        return RoundReplay(None, ev_steps, (), (), None, (), refusal.rejection, None)
    rs = frames[-1].state
    tables, sides, done = [], [], None
    try:
        for ev in play_orders(rs, decl):
            if not isinstance(ev, PlayedOrder) and ev[0] == "order":
                tables.append(ev[2])
                sides.append(_side_of(ev[2], (ev[1], decl.orders[ev[1]])))
            elif not isinstance(ev, PlayedOrder) and ev[0] == "done":
                done = ev[1]
    except RuleViolation as e:
        fld = e.rejection.field
        idx = int(fld[len("orders["):].split("]")[0]) if fld.startswith("orders[") else None
        return RoundReplay(rs, tuple(ev_steps), tuple(tables), tuple(sides), None, (), e.rejection, idx)
    end, end_steps = end_of_round(done, ctx)
    return RoundReplay(rs, tuple(ev_steps), tuple(tables), tuple(sides), end, tuple(end_steps), None, None,
                       done.table)


def round_result(last: RoundState) -> RoundOutcome:
    """The typed outcome of a played Round (:class:`.outcomes.RoundOutcome`), from the state it leaves: the Round
    played and the next one, Neomaterial Units and T-Bezoar by side, Wounds and positions of the Miners, the
    MegaBeast, whether the match is over and its result, the Events, and the Tools and Loot on the table."""
    table = last.table
    sides = table.timeline
    mb = table.megabeast
    return RoundOutcome(
        # the Round played, and the one that begins after it (None when the match is over): the same meaning in
        # every round file, whether the match ends or goes on
        round=last.round if last.over else last.round - 1, next_round=None if last.over else last.round,
        over=last.over,
        winner=last.result[0] if last.result else None, result=last.result[1] if last.result else None,
        units=tuple((s, last.units(s)) for s in sides),
        t_bezoar=tuple((s, dict(last.t_bezoar).get(s, 0)) for s in sides),
        miners=tuple(MinerAfter(m.id, m.wounds, tuple(m.states), m.orders, m.on_table,
                                (round(m.x, 6), round(m.y, 6)), m.scoring_zone, m.on) for m in table.miners),
        megabeast=None if mb is None else MegaBeastAtEnd(mb.wounds, mb.facing, (round(mb.x, 6), round(mb.y, 6))),
        megabeast_killed=last.megabeast_killed, events_left=len(last.deck), event_deck=bool(last.deck or last.drawn),
        events_drawn=tuple(c.name for c in last.drawn), orders_played=last.orders_played,
        # Tool Containers and Loot: always present (empty without them), so every round file has the same keys
        tools=tuple((m.id, tuple(c.name for c in m.tools)) for m in table.miners if m.tools),
        loot_tokens=tuple(LootTokenLine(k.id, k.owner, (round(k.x, 6), round(k.y, 6))) for k in table.loot_tokens),
        loot_zones=tuple(LootZoneLine(z.owner, z.units, tuple(c.name for c in z.cards)) for z in table.loot_zones
                         if z.units or z.cards),
        drawn_this_round=tuple(table.container_draws))


def round_trace(title: str, frames: tuple[Frame[RoundState], ...]) -> Trace:
    """A :class:`~explorer.trace.Trace` of the Round (every step in order) with its typed outcome
    (:func:`round_result`; ``trace.outcome`` is its JSON)."""
    return kernel.trace_of(title, frames).with_result(round_result(frames[-1].state))
